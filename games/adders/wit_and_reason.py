"""What the two Wit and Reason games share: two players racing a common total to exactly 31, over
a match of several races in which the first player alternates.

Everything else (turns, passing, the total, the match) is the shared counting machinery.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from pydantic import Field

from games.counting import CountingDeal, CountingFacts, CountingMatch, CountingOptions, CountingState
from games.counting_deal import DealTable
from games.engine import Action, Event, Outcome, Seat

TARGET = 31


class RaceOptions(CountingOptions):
    rounds: int = Field(
        1,
        ge=1,
        le=10,
        description="How many races each player starts: the match has twice this many races.",
    )
    hints: bool = Field(
        False,
        description="Let players ask for a hint: which cards win, draw or lose under perfect play. "
        "A match with hints on is not rated.",
    )


RO = TypeVar("RO", bound=RaceOptions)


class RaceFacts(CountingFacts):
    """A race: who won it (``None``: drawn)."""

    winner: Seat | None = None


class RaceMatch(CountingMatch[RaceFacts]):
    """A point per race won; the players take turns to start; most races won wins."""

    def book(self, state: CountingState[Any], facts: RaceFacts) -> list[Event]:
        if facts.winner is not None:
            state.scores[facts.winner] += 1
        return []

    def outcome(self, state: CountingState[Any]) -> Outcome:
        races = state.deals_played()
        tally = ", ".join(f"{state.name(s)} {state.scores[s]}" for s in range(state.n))
        return Outcome.from_scores(state.scores, notes=[f"Races won out of {races}: {tally}."])


MATCH = RaceMatch()


@dataclass
class RaceDeal(CountingDeal):
    """A race to 31: its starter plays first; who played last and who won it (``None``: not yet,
    or drawn)."""

    last_player: Seat | None = None
    winner: Seat | None = None

    def init_deal(self, table: DealTable) -> None:
        self.last_player = None
        self.winner = None

    def facts(self, table: DealTable) -> dict[str, Any]:
        return {**super().facts(table), "winner": self.winner}

    def first_player(self, table: DealTable) -> Seat:
        return table.dealer

    def deal_news(self, table: DealTable, size: int) -> str:
        return f"Race {table.deal_no}: {table.name(table.dealer)} goes first."  # nobody deals a race

    def after_play(self, table: DealTable, seat: Seat, action: Action, before: int, after: int) -> list[Event]:
        self.last_player = seat
        if after == TARGET:
            return self.win_race(table, seat, f"{table.name(seat)} makes exactly 31 and wins the race.")
        return []

    def win_race(self, table: DealTable, seat: Seat, text: str) -> list[Event]:
        """``seat`` wins the race (the match books the point)."""
        self.winner = seat
        table.add_points(seat, 1)
        self.round.close()
        return [table.event("race_won", text)]


class RaceState(CountingState[RO]):
    """A match of races to 31. The "dealer" of a race is the player who starts it; the two take
    turns starting (``first_dealer`` names who starts the first race)."""

    ceiling = TARGET
    match: ClassVar[CountingMatch[Any]] = MATCH
    deal_class = RaceDeal
    facts_class = RaceFacts
    deal: RaceDeal

    def view_fields(self, seat: Seat | None) -> dict[str, Any]:
        fields = super().view_fields(seat)
        fields["dealer"] = None  # nobody deals a race; the starter is named in the notes
        return fields

    def view_notes(self, seat: Seat | None) -> list[str]:
        return [
            f"Race {self.deal_no} of {self.planned_deals()}, started by {self.name(self.dealer)}; exactly 31 wins."
        ]

    def phase_text(self) -> str:
        if self.is_over:
            return "Match over"
        return f"Race {self.deal_no}: {self.name(self.to_play) if self.to_play is not None else '-'} to play"
