"""Parity for Three refereed: three people play with a real pack and enter the announcements and
the trick counts.

The entries of a deal: the three announcements in turn from the dealer's left (the Joker holder
says so; of the other two, the first names trumps and the second the target parity), then each
player's trick count (they must add up to 11). The bot does not know who holds the Joker until it
is announced, so it only checks that exactly one player announces it and that trumps come before
the parity. Scoring and the match (dealer rotation, the end and ties) are the online game's own
match (:data:`games.parity_for_three.MATCH`), handed the same facts.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import Field

from games.cards import Card, Suit
from games.engine import Action, Event, Game, PlayCard, Seat
from games.match import DealFacts
from games.parity import PARITY_CALLS, TRUMP_CALLS, ChooseParity, ChooseTrump, Parity
from games.parity_for_three import GAME as ONLINE
from games.parity_for_three import (
    MATCH,
    NO_NO_TRUMP,
    PLAYERS,
    TRICKS_PER_DEAL,
    AnnounceJoker,
    ParityForThreeFacts,
    ParityForThreeOptions,
    ParityForThreeView,
    announce,
    deal_text,
    match_text,
    speaker_after,
)
from games.referee import dealer_line, referee_mode
from games.referee.state import RefereeState
from games.referee.trick_totals import TrickCounts, TricksWon, referee_lines, tricks_entry

_JOKER = AnnounceJoker()


class RefereeParityForThreeView(ParityForThreeView):
    last_deal: list[str] = Field(default_factory=list)
    counts: str = ""
    due: str = ""

    def table_lines(self) -> list[str]:
        return dealer_line(self) + super().table_lines() + referee_lines(self.last_deal, self.counts, self.due)


SUMMARY = """
Referee mode: three players play Parity for Three with a real pack and tell the bot the
announcements and the result; it scores every deal and runs the match as the online game does.

Each deal: enter the announcements in turn from the dealer's left (all three may go in one
entry: "hearts odd joker"). Whoever holds the Joker
announces only that; of the other two, the first names trumps and the second the target parity
(odd or even; none counts as even). The bot cannot see the Joker, so it only makes sure exactly
one player announces it: once trumps and the parity are named, the last speaker must be the
Joker holder. Play the 11 tricks at the table (the Joker goes to the first trick), then enter
two players' trick counts in any order: a count larger than the tricks left is refused, and the
bot fills in the third, which makes 11.

Everyone scores 1 per trick, or 10 for taking none, plus 10 for a count of the target parity.
The deal passes left. The match ends as set by match_end (someone reaches 100, nine deals, or
open_deal_cap deals); a tie for first is settled by ties (an extra deal, or shared).
"""


class RefereeParityForThreeState(RefereeState[ParityForThreeOptions]):
    """A refereed match: announcements and trick counts, no cards. The match (scores, dealer,
    end, ties) is the online game's :data:`~games.parity_for_three.MATCH`; phase ``play`` here
    means the trick counts are due. ``joker_holder`` is only meaningful once ``joker_announced``.
    """

    entry_kinds = (AnnounceJoker, ChooseTrump, ChooseParity, TricksWon)
    rules_summary = SUMMARY
    takes_series = True

    match = MATCH

    def __init__(
        self,
        players: Sequence[str],
        options: ParityForThreeOptions,
        seed: int,
        deck: Sequence[Card] | Sequence[Sequence[Card]] | None = None,
    ) -> None:
        self.last_deal: list[str] = []
        super().__init__(players, options, seed, deck)

    @property
    def left_of_dealer(self) -> Seat:
        return speaker_after(self.dealer, 0)

    @property
    def speaker(self) -> Seat:
        return speaker_after(self.dealer, self.speakers_done)

    # -- deal flow -----------------------------------------------------------------------------

    def _start_deal(self) -> list[Event]:
        """A new deal: the players deal the real cards; nothing is known yet."""
        self.deal_no += 1
        self.counts = TrickCounts.new(PLAYERS, TRICKS_PER_DEAL)
        self.phase = "announce"
        self.speakers_done = 0
        self.joker_holder: Seat = 0
        self.joker_announced = False
        self.trump: Suit | None = None
        self.target: Parity | None = None
        text = (
            f"{deal_text(self.deal_no, self.name(self.dealer))} "
            f"Enter the announcements, starting with {self.name(self.left_of_dealer)}'s."
        )
        return [self.event("deal", text)]

    def _end_deal(self) -> list[Event]:
        assert self.trump is not None and self.target is not None
        won = self.counts.won()
        facts = ParityForThreeFacts(
            joker_holder=self.joker_holder, trump=self.trump, target=self.target, tricks=(won[0], won[1], won[2])
        )
        events = self.settle(facts)
        self.last_deal = [f"Last deal: {events[0].text}"]
        if self.is_over:
            self.phase = "over"
        return events

    def entries(self, facts: DealFacts) -> list[tuple[Seat, Action]]:
        assert isinstance(facts, ParityForThreeFacts)
        out: list[tuple[Seat, Action]] = []
        trump_named = False
        for spoken in range(PLAYERS):
            seat = speaker_after(self.dealer, spoken)
            if seat == facts.joker_holder:
                out.append((seat, _JOKER))
            elif not trump_named:
                out.append((seat, ChooseTrump(suit=facts.trump)))
                trump_named = True
            else:
                out.append((seat, ChooseParity(parity=facts.target)))
        # the last count is filled in
        return out + [(seat, tricks_entry(facts.tricks[seat])) for seat in range(PLAYERS - 1)]

    # -- the announcements -----------------------------------------------------------------------

    def _announcements(self) -> list[Action]:
        """What the speaker may announce: the Joker if nobody has, trumps if not named yet, and
        the parity once trumps are named. Each is said exactly once a deal, so whatever is left
        always fits the speakers left."""
        out: list[Action] = []
        if not self.joker_announced:
            out.append(_JOKER)
        if self.trump is None:
            out.extend(TRUMP_CALLS)
        elif self.target is None:
            out.extend(PARITY_CALLS)
        return out

    def _announce_refusal(self, seat: Seat, action: Action) -> str:
        name = self.name(seat)
        if isinstance(action, AnnounceJoker):
            return f"{self.name(self.joker_holder)} has already announced the Joker: there is only one."
        if self.speakers_done == PLAYERS - 1 and not self.joker_announced:
            return (
                f"Trumps and the target parity are named, so {name} must hold the Joker: "
                "enter that announcement."
            )
        or_joker = "" if self.joker_announced else " (or holds the Joker)"
        if isinstance(action, ChooseTrump):
            if action.suit is None:
                return NO_NO_TRUMP
            assert self.trump is not None
            return f"Trumps are already named ({self.trump.title.lower()}): {name} names the target parity{or_joker}."
        if isinstance(action, ChooseParity):
            if self.trump is None:
                return f"Trumps are named before the target parity: {name} names trumps{or_joker}."
            return "The target parity is already named for this deal."
        if isinstance(action, TricksWon):
            return "Trick counts come at the end of the deal: first enter the announcements."
        return "Enter the announcements first."

    # -- the entries ---------------------------------------------------------------------------

    def _awaiting(self) -> frozenset[Seat]:
        if self.phase == "announce":
            return frozenset((self.speaker,))
        return self.counts.awaiting()

    def _legal(self, seat: Seat) -> list[Action]:
        if seat not in self._awaiting():
            return []
        if self.phase == "announce":
            return self._announcements()
        return self.counts.choices(seat)

    def _refusal(self, seat: Seat, action: Action) -> str | None:
        if isinstance(action, TricksWon) and self.phase == "play":  # a count already in, too
            return self.counts.refusal(seat, action.tricks, self.players)
        if seat not in self.awaiting():
            return None  # the base says whose turn it is
        if self.phase == "announce":
            return self._announce_refusal(seat, action)
        if isinstance(action, PlayCard):
            return "Cards are played at the table: enter the trick counts."
        return "The announcements are over for this deal: enter the trick counts."

    def _enter(self, seat: Seat, action: Action) -> list[Event]:
        if isinstance(action, TricksWon):
            events = self.counts.enter(self, seat, action.tricks)
            if self.counts.complete:
                events.extend(self._end_deal())
            return events
        if isinstance(action, AnnounceJoker):
            self.joker_holder = seat  # online, the deal knows who holds it
        events = [announce(self, seat, action)]
        if self.speakers_done == PLAYERS:  # the play is at the table: say what to enter, not who leads
            self.phase = "play"
            events.append(
                self.event(
                    "lead",
                    f"{self.name(self.left_of_dealer)} leads; {self.name(self.joker_holder)} plays the Joker "
                    "to the first trick. Enter the trick counts after the 11th trick.",
                )
            )
        return events

    # -- what the table sees ------------------------------------------------------------------

    def phase_text(self) -> str:
        if self.phase == "play":
            return "trick counts"
        if self.phase == "announce":
            return f"announcements: {self.name(self.speaker)} to speak"
        return "match over"

    def due(self) -> str:
        if self.is_over:
            return ""
        if self.phase == "announce":
            options = []
            if not self.joker_announced:
                options.append("holds the Joker")
            if self.trump is None:
                options.append("names trumps")
            elif self.target is None:
                options.append("names the target parity")
            return f"{self.name(self.speaker)}'s announcement: {' or '.join(options)}."
        names = ", ".join(self.name(s) for s in sorted(self.counts.awaiting()))
        return f"the tricks taken by {names} (they add up to {TRICKS_PER_DEAL})."

    def view(self, seat: Seat | None) -> RefereeParityForThreeView:
        return RefereeParityForThreeView(
            **self.base_view(seat),
            phase=self.phase_text(),
            trump=self.trump,
            target=self.target,
            tricks_won=[],
            tricks_per_deal=TRICKS_PER_DEAL,
            joker_holder=self.joker_holder if self.joker_announced else None,
            speaker=self.speaker if self.phase == "announce" else None,
            notes=[match_text(self.options, self.deal_no)],
            last_deal=list(self.last_deal),
            counts=self.counts.line(self.players) if self.phase == "play" else "",
            due=self.due(),
        )


GAME: Game[ParityForThreeOptions] = referee_mode(ONLINE, RefereeParityForThreeState)
