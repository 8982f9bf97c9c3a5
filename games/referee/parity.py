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

from games.cards import Card, Suit
from games.engine import Action, Event, Game, Seat
from games.match import DealFacts
from games.parity import GAME as ONLINE
from games.parity import (
    MATCH,
    PARITY_CALLS,
    TRICKS_PER_DEAL,
    ChooseParity,
    ChooseTrump,
    Parity,
    ParityFacts,
    ParityOptions,
    ParityView,
    call_refusal,
    calls_phase_text,
    trump_call_text,
    trump_calls,
)
from games.referee import dealer_line, referee_mode
from games.referee.state import RefereeState
from games.referee.trick_totals import TrickCounts, TricksWon, referee_lines, tricks_entry


class RefereeParityView(ParityView):
    last_deal: list[str] = Field(default_factory=list)
    counts: str = ""
    due: str = ""

    def table_lines(self) -> list[str]:
        return dealer_line(self) + super().table_lines() + referee_lines(self.last_deal, self.counts, self.due)


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


class RefereeParityState(RefereeState[ParityOptions]):
    """A refereed match: the calls and trick counts of each deal, no cards. The match (scores,
    dealer, end, lurch) is the online game's :data:`~games.parity.MATCH`; phase ``play`` here
    means the trick counts are due."""

    entry_kinds = (ChooseTrump, ChooseParity, TricksWon)
    rules_summary = SUMMARY
    takes_series = True

    match = MATCH

    def __init__(
        self,
        players: Sequence[str],
        options: ParityOptions,
        seed: int,
        deck: Sequence[Card] | Sequence[Sequence[Card]] | None = None,
    ) -> None:
        self.last_deal: list[str] = []
        super().__init__(players, options, seed, deck)

    @property
    def non_dealer(self) -> Seat:
        return 1 - self.dealer

    # -- deal flow -----------------------------------------------------------------------------

    def _start_deal(self) -> list[Event]:
        """A new deal: nothing is dealt here, the players deal the real cards."""
        self.deal_no += 1
        self.counts = TrickCounts.new(2, TRICKS_PER_DEAL)
        self.phase = "trump"
        self.trump: Suit | None = None
        self.no_trump = False
        self.target: Parity | None = None
        text = (
            f"Deal {self.deal_no}: {self.name(self.dealer)} deals 15 cards each, both hands face up. "
            f"Enter the trump suit {self.name(self.non_dealer)} names."
        )
        return [self.event("deal", text)]

    def _end_deal(self) -> list[Event]:
        assert self.target is not None
        won = self.counts.won()
        events = self.settle(ParityFacts(trump=self.trump, target=self.target, tricks=(won[0], won[1])))
        self.last_deal = [f"Last deal: {events[0].text}"]
        if self.is_over:
            self.phase = "over"
        return events

    def entries(self, facts: DealFacts) -> list[tuple[Seat, Action]]:
        assert isinstance(facts, ParityFacts)
        return [
            (self.non_dealer, ChooseTrump(suit=facts.trump)),
            (self.dealer, ChooseParity(parity=facts.target)),
            (self.dealer, tricks_entry(facts.tricks[self.dealer])),
        ]

    # -- the entries ---------------------------------------------------------------------------

    def _awaiting(self) -> frozenset[Seat]:
        if self.phase == "trump":
            return frozenset((self.non_dealer,))
        if self.phase == "parity":
            return frozenset((self.dealer,))
        return self.counts.awaiting()

    def _legal(self, seat: Seat) -> list[Action]:
        if seat not in self._awaiting():
            return []
        if self.phase == "trump":
            return trump_calls(self.options)
        if self.phase == "parity":
            return list(PARITY_CALLS)
        return self.counts.choices(seat)

    def _refusal(self, seat: Seat, action: Action) -> str | None:
        if seat not in self.awaiting() and not (isinstance(action, TricksWon) and self.phase == "play"):
            return None  # the base says whose turn it is; a count already in gets its own reason
        if isinstance(action, TricksWon):
            if self.phase == "trump":
                return f"Trick counts come at the end of the deal: first enter {self.name(self.non_dealer)}'s trump call."
            if self.phase == "parity":
                return f"Trick counts come at the end of the deal: first enter {self.name(self.dealer)}'s parity call."
            return self.counts.refusal(seat, action.tricks, self.players)
        if self.phase == "play" and isinstance(action, (ChooseTrump, ChooseParity)):
            return "Trumps and the target parity are already set for this deal: enter the trick counts."
        return call_refusal(self.phase, action)

    def _enter(self, seat: Seat, action: Action) -> list[Event]:
        if isinstance(action, TricksWon):
            events = self.counts.enter(self, seat, action.tricks)
            if self.counts.complete:
                events.extend(self._end_deal())
            return events
        if isinstance(action, ChooseTrump):
            self.trump = action.suit
            self.no_trump = action.suit is None
            self.phase = "parity"
            return [self.event("trump", trump_call_text(self.name(seat), action.suit))]
        assert isinstance(action, ChooseParity)
        self.target = action.parity
        self.phase = "play"
        return [self.event("parity", f"{self.name(seat)} sets the target: an {action.parity.value} number of tricks.")]

    # -- what the table sees ------------------------------------------------------------------

    def phase_text(self) -> str:
        calls = calls_phase_text(self.phase, self.name(self.dealer), self.name(self.non_dealer))
        return calls if calls is not None else "trick counts"

    def due(self) -> str:
        if self.is_over:
            return ""
        if self.phase == "trump":
            calls = "a trump suit, or no-trump" if self.options.no_trump else "a trump suit"
            return f"{self.name(self.non_dealer)}'s call: {calls}."
        if self.phase == "parity":
            return f"{self.name(self.dealer)}'s call: an odd or an even number of tricks."
        names = " and ".join(self.name(s) for s in sorted(self.counts.awaiting()))
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
            counts=self.counts.line(self.players) if self.phase == "play" else "",
            due=self.due(),
        )


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


GAME: Game[ParityOptions] = referee_mode(ONLINE, RefereeParityState)
