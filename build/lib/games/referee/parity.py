"""Parity refereed: two people play with a real pack and enter the calls and the trick counts.

The entries of a deal: the non-dealer's trump call (or no-trump, when the host allows it), the
dealer's parity call, and at the end each player's trick count (they must add up to 15). The bot
scores with the online game's own functions and keeps its match structure (:mod:`games.parity`):
the deal alternates, the match ends after the deal in which someone reaches 100, and the loser's
lurch is reported.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import Field

from games.cards import Card
from games.engine import Action, Event, Game, Seat, Zone
from games.parity import GAME as ONLINE
from games.parity import (
    TRICKS_PER_DEAL,
    ChooseParity,
    ChooseTrump,
    ParityOptions,
    ParityState,
    ParityView,
)
from games.referee import dealer_line, referee_mode
from games.referee.trick_totals import (
    Counts,
    FilledCount,
    TricksWon,
    count_choices,
    count_refusal,
    counts_line,
    filled_text,
    forced,
    missing,
    referee_lines,
)
from games.tricks import Trick


class RefereeParityView(ParityView):
    last_deal: list[str] = Field(default_factory=list)
    counts: str = ""
    due: str = ""

    def table_lines(self) -> list[str]:
        return dealer_line(self) + super().table_lines() + referee_lines(self.last_deal, self.counts, self.due)


class RefereeParityState(FilledCount, ParityState):
    """A refereed match: the calls and trick counts of each deal, no cards.

    It reuses the dealt game's match (scores, dealer, end, lurch) and replaces the deal and the
    play by entries: phase ``play`` here means the trick counts are due.
    """

    def __init__(
        self,
        players: Sequence[str],
        options: ParityOptions,
        seed: int,
        deck: Sequence[Card] | Sequence[Sequence[Card]] | None = None,
    ) -> None:
        self.counts: Counts = [None, None]
        self.last_deal: list[str] = []
        super().__init__(players, options, seed, deck)

    # -- deal flow -----------------------------------------------------------------------------

    def _start_deal(self) -> list[Event]:
        """A new deal: nothing is dealt here, the players deal the real cards."""
        self.deal_no += 1
        self.counts = [None, None]
        self.tricks_won = [0, 0]
        self.phase = "trump"
        self.trump = None
        self.no_trump = False
        self.target = None
        self.rules = None
        self.trick = Trick(leader=self.non_dealer)
        self.last_trick = None
        text = (
            f"Deal {self.deal_no}: {self.name(self.dealer)} deals 15 cards each, both hands face up. "
            f"Enter the trump suit {self.name(self.non_dealer)} names."
        )
        return [self.event("deal", text)]

    def _end_deal(self) -> list[Event]:
        self.tricks_won = [c or 0 for c in self.counts]
        events = super()._end_deal()
        self.last_deal = [f"Last deal: {events[0].text}"]
        return events

    # -- the protocol -------------------------------------------------------------------------

    def awaiting(self) -> frozenset[Seat]:
        if self.phase == "play":
            return frozenset(missing(self.counts))
        return super().awaiting()

    def legal_actions(self, seat: Seat) -> list[Action]:
        if self.phase == "play":
            return list(count_choices(self.counts, TRICKS_PER_DEAL, seat))
        return super().legal_actions(seat)

    def explain_illegal(self, seat: Seat, action: Action) -> str | None:
        if seat not in self.awaiting() and not (isinstance(action, TricksWon) and self.phase == "play"):
            return None  # the base says whose turn it is; a count already in gets its own reason
        if isinstance(action, TricksWon):
            if self.phase == "trump":
                return f"Trick counts come at the end of the deal: first enter {self.name(self.non_dealer)}'s trump call."
            if self.phase == "parity":
                return f"Trick counts come at the end of the deal: first enter {self.name(self.dealer)}'s parity call."
            return count_refusal(self.counts, TRICKS_PER_DEAL, seat, action.tricks, self.players)
        if self.phase == "play" and isinstance(action, (ChooseTrump, ChooseParity)):
            return "Trumps and the target parity are already set for this deal: enter the trick counts."
        return super().explain_illegal(seat, action)

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        echoed = self.echo(seat, action, self.players)
        if echoed is not None:
            return echoed
        if isinstance(action, TricksWon):
            self.counts[seat] = action.tricks
            events = [self.event("tricks", f"{self.name(seat)} took {action.tricks} of the {TRICKS_PER_DEAL} tricks.")]
            last = forced(self.counts, TRICKS_PER_DEAL)
            if last is not None:
                other, tricks = last
                self.counts[other] = tricks
                self.filled = last
                events.append(self.event("tricks", filled_text(self.players, other, tricks, TRICKS_PER_DEAL)))
            if not missing(self.counts):
                events.extend(self._end_deal())
            return events
        events = super()._apply(seat, action)
        if isinstance(action, ChooseParity):  # the play is at the table: drop "X leads"
            events = [self.event("parity", f"{self.name(seat)} sets the target: an {action.parity.value} number of tricks.")]
        return events

    # -- what the table sees ------------------------------------------------------------------

    def phase_text(self) -> str:
        if self.phase == "play":
            return "trick counts"
        return super().phase_text()

    def due(self) -> str:
        if self.is_over:
            return ""
        if self.phase == "trump":
            calls = "a trump suit, or no-trump" if self.options.no_trump else "a trump suit"
            return f"{self.name(self.non_dealer)}'s call: {calls}."
        if self.phase == "parity":
            return f"{self.name(self.dealer)}'s call: an odd or an even number of tricks."
        names = " and ".join(self.name(s) for s in missing(self.counts))
        return f"the tricks taken by {names} (they add up to {TRICKS_PER_DEAL})."

    def view(self, seat: Seat | None) -> RefereeParityView:
        return RefereeParityView(
            **self.base_view(seat),
            phase=self.phase_text(),
            trump=self.trump,
            no_trump=self.no_trump,
            target=self.target,
            tricks_won=[],
            notes=table_rules(self.options),
            last_deal=list(self.last_deal),
            counts=counts_line(self.counts, self.players, TRICKS_PER_DEAL) if self.phase == "play" else "",
            due=self.due(),
        )

    def card_zones(self) -> list[Zone]:
        return []  # the bot never sees a card


def table_rules(options: ParityOptions) -> list[str]:
    """Reminders of the play options in force (the bot does not check the play itself)."""
    notes = []
    if options.ranks == "AKQJ1098":
        notes.append("Pack: A K Q J 10 9 8 in each suit.")
    if options.sevens_as_jokers:
        notes.append("The 7♥ and 7♠ play as the red and black Jokers.")
    if options.undifferentiated_jokers:
        notes.append("The Jokers rank equal: the first one played to a trick beats the other.")
    return notes


SUMMARY = """
Referee mode: two players play Parity with a real pack (both hands face up) and tell the bot the
calls and the result; it scores every deal and runs the match exactly as the online game does.

Each deal: enter the non-dealer's trump call (a suit, or no-trump when the host set no_trump),
then the dealer's target: an odd or an even number of tricks (both in one entry: "hearts odd"). Play the 15 tricks at the table;
the bot does not follow the cards. Then enter one player's trick count (either player): a count
larger than 15 is refused, and the bot fills in the other's, which makes 15.

Only the player whose count has the target parity scores: 10 plus the tricks (20 plus the tricks
after a no-trump call). The deal alternates. The match ends after the deal in which someone
reaches 100; a loser under 67 is lurched, under 50 double-lurched (lurch_values adds a stake of
1, 2 or 3). The pack options (ranks, sevens_as_jokers, undifferentiated_jokers) only change the
play at the table; the bot shows them as reminders.
"""

GAME: Game[ParityOptions] = referee_mode(
    ONLINE,
    state=RefereeParityState,
    actions=[ChooseTrump, ChooseParity, TricksWon],
    summary=SUMMARY,
    series=True,
)
