"""Hundred: make the total exactly 100 to win the deal; jump past it and you lose the deal."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from pydantic import Field

from games.cards import Card, Rank, piquet_pack
from games.counting import (
    CountingDeal,
    CountingFacts,
    CountingMatch,
    CountingOptions,
    CountingRules,
    CountingState,
    targets_crossed,
)
from games.counting_deal import DealTable
from games.engine import Action, Event, Game, Outcome, PlayCard, Seat
from games.registry import declare

VALUES: dict[Rank, int] = {
    Rank.ACE: 11,
    Rank.KING: 4,
    Rank.QUEEN: 3,
    Rank.JACK: 2,
    Rank.TEN: 10,
    Rank.NINE: 9,
    Rank.EIGHT: 8,
    Rank.SEVEN: 7,
}
FIRST_POINT = 100
SECOND_POINT = 200


def pack_total() -> int:
    """All 32 cards add up to 216, so 200 is always reached or passed."""
    return sum(VALUES[c.rank] for c in piquet_pack() if c.rank is not None)


def deal_shape(players: int, pack_size: int = 32) -> tuple[int, int]:
    """Cards each and cards left over (face up to start the pile) when dividing evenly."""
    return pack_size // players, pack_size % players


def point_result(before: int, after: int, point: int) -> int:
    """+1 for making ``point`` exactly, -1 for jumping over it, 0 otherwise."""
    hit, skipped = targets_crossed(before, after, (point,))
    return 1 if hit else -1 if skipped else 0


def starting_total(cards: list[Card]) -> int:
    return sum(VALUES[c.rank] for c in cards if c.rank is not None)


class HundredOptions(CountingOptions):
    second_point_200: bool = Field(
        False,
        description="Play on after the 100 point to a second point at 200 (exactly 200 wins it, jumping past loses it).",
    )


class HundredFacts(CountingFacts):
    """A deal of Hundred: who made or jumped each point, in order (``made`` True for exactly)."""

    results: tuple[tuple[Seat, bool], ...] = ()


class HundredMatch(CountingMatch[HundredFacts]):
    """Each point made scores 1, each jumped costs 1; most points after the planned deals wins."""

    def outcome(self, state: CountingState[Any]) -> Outcome:
        return Outcome.from_scores(state.scores, notes=["Most points after the planned deals wins."])


MATCH = HundredMatch()


class HundredRules(CountingRules):
    """The Piquet pack at its values, dealt out as evenly as it goes."""

    def pack(self) -> list[Card]:
        return piquet_pack()


@dataclass
class HundredDeal(CountingDeal):
    """A deal of Hundred: the points still to make (100, then 200 with the option) and who made
    or jumped each one so far."""

    points_left: list[int] = field(default_factory=list)
    results: list[tuple[Seat, bool]] = field(default_factory=list)

    def init_deal(self, table: DealTable) -> None:
        self.points_left = [FIRST_POINT, SECOND_POINT] if table.options.second_point_200 else [FIRST_POINT]
        self.results = []

    def facts(self, table: DealTable) -> dict[str, Any]:
        return {**super().facts(table), "results": tuple(self.results)}

    def score_point(self, table: DealTable, seat: Seat, made: bool) -> int:
        """``seat`` made the next point exactly or jumped it: +1 or -1, and the deal ends after
        its last point. Returns the point."""
        point = self.points_left.pop(0)
        self.results.append((seat, made))
        table.add_points(seat, 1 if made else -1)
        if not self.points_left:
            self.round.close()
        return point

    def after_deal(self, table: DealTable, rest: list[Card]) -> list[Event]:
        rnd = self.round
        rnd.pile = rest
        rnd.total = starting_total(rest)
        if not rest:
            return [table.event("start", "Every card was dealt, so the count starts at 0.")]
        cards = " ".join(c.short for c in rest)
        return [table.event("start", f"{cards} left over, face up: the count starts at {rnd.total}.")]

    def after_play(self, table: DealTable, seat: Seat, action: Action, before: int, after: int) -> list[Event]:
        point = self.points_left[0]
        result = point_result(before, after, point)
        if result == 0:
            return []
        self.score_point(table, seat, result > 0)
        who = table.name(seat)
        if result > 0:
            self.note(f"exactly {point}: +1")
            return [table.event("point_won", f"{who} makes exactly {point} and scores a point.")]
        self.note(f"jumped {point}: \u22121")
        return [table.event("point_lost", f"{who} jumps past {point} and loses a point.")]

    def view_notes(self, table: DealTable, seat: Seat | None) -> list[str]:
        if not self.points_left or table.is_over:
            return []
        return [f"Next point: exactly {self.points_left[0]} (+1); jumping past it costs 1. "
                f"Deal {table.deals_played()} of {table.planned_deals()}."]


class HundredState(CountingState[HundredOptions]):
    rules_class = HundredRules
    values = VALUES
    match: ClassVar[CountingMatch[Any]] = MATCH
    deal_class = HundredDeal
    facts_class = HundredFacts
    deal: HundredDeal


SUMMARY = """\
Hundred, for 2 to 6 players with a 32-card pack (A K Q J 10 9 8 7).
Values: Ace 11, King 4, Queen 3, Jack 2, Ten 10, Nine 9, Eight 8, Seven 7.
The whole pack is dealt out evenly; any cards left over (two with 3, 5 or 6 players) are laid face up
and their values open the count, which otherwise starts at 0.
From the dealer's left, each player in turn must play one card; the bot adds it up.
Whoever makes the count exactly 100 scores a point; whoever jumps it from below 100 to over 100
loses a point. Either way the deal ends there, unless second_point_200 is on: then play goes on, and
exactly 200 scores a point while jumping past 200 costs one, which ends the deal.
The match lasts one deal per player (times the rounds option); most points wins, ties shared.
"""

GAME = declare(
    Game(
        id="hundred",
        title="Hundred",
        min_players=2,
        max_players=6,
        options=HundredOptions,
        state=HundredState,
        actions=[PlayCard],
        summary=SUMMARY,
    ),
    referee="games.referee.hundred:RefereeHundredState",
    bots={
        "easy": "games.players.adders:HUNDRED_EASY",
        "strong": "games.players.adders:HUNDRED_STRONG",
    },
)
