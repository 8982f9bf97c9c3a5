"""Obstacle Race (Hindernislauf): land on 55, 66, 77, 88, 99 and 111, never jump over them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

from pydantic import Field, field_validator

from games.cards import Card, Rank, piquet_pack
from games.counting import (
    CardSource,
    CountingDeal,
    CountingFacts,
    CountingMatch,
    CountingOptions,
    CountingRound,
    CountingRules,
    CountingState,
    PlayAs,
    signed,
    targets_crossed,
)
from games.counting_deal import DealTable
from games.engine import Action, Event, Game, Outcome, PlayCard, Seat
from games.registry import declare

OBSTACLES: tuple[int, ...] = (55, 66, 77, 88, 99, 111)
RESET_AT = 120
"""Reaching this total (or more) starts the count again at 0."""
FINISH_BONUS = 5
QUEEN_CHOICES = (3, -3)
STARTERS = 2
"""Cards laid face up to start the row, unless four play."""

BASE_VALUES: dict[Rank, int] = {
    Rank.ACE: 11,
    Rank.KING: 4,
    Rank.QUEEN: 3,
    Rank.JACK: 2,
    Rank.TEN: 10,
    Rank.NINE: 9,
    Rank.EIGHT: 8,
    Rank.SEVEN: 7,
}


def card_values(ace_value: int = 11) -> dict[Rank, int]:
    """Values with the Queen at +3 (as a starter; in play it counts +3 or -3 by choice)."""
    return {**BASE_VALUES, Rank.ACE: ace_value}


def deal_shape(players: int) -> tuple[int, int]:
    """Cards each and face-up starters: two starters unless four play."""
    starters = 0 if players == 4 else STARTERS
    return (32 - starters) // players, starters


def obstacle_points(before: int, after: int) -> int:
    """+1 for landing on an obstacle, -1 for each obstacle jumped over (either direction)."""
    hit, skipped = targets_crossed(before, after, OBSTACLES)
    return len(hit) - len(skipped)


def reaches_line(total: int) -> bool:
    return total >= RESET_AT


def apply_floor(score: int, change: int, score_floor: bool) -> int:
    """The change actually made to a score: with ``score_floor`` a player at 0 or less loses nothing."""
    if score_floor and change < 0:
        return max(change, -max(score, 0))
    return change


class ObstacleRaceOptions(CountingOptions):
    ace_value: Literal[11, 1] = Field(11, description="The Ace counts 11 (as in the Penguin book) or 1 (German rules).")
    finish_bonus: bool = Field(
        False,
        description="German rule: whoever brings the total to 120 or more scores 5 and the deal ends there, instead of counting again from 0.",
    )
    score_floor: bool = Field(
        False, description="A player with no points cannot lose one: scores never go below 0."
    )
    allow_negative: bool = Field(
        False, description="A Queen may count -3 even when that takes the total below 0."
    )
    play_off_ties: bool = Field(
        False, description="If the lead is tied after the planned deals, play further deals until one player leads."
    )

    @field_validator("ace_value", mode="before")
    @classmethod
    def _number(cls, value: object) -> object:
        return int(value) if isinstance(value, str) and value.strip().isdigit() else value


class ObstacleRaceMatch(CountingMatch[CountingFacts]):
    """Each deal's points add up (as made: with score_floor a score never went below 0); most
    points wins, and with play_off_ties a tied lead plays further deals."""

    def over(self, state: CountingState[Any]) -> bool:
        if state.deals_played() < self.planned_deals(state):
            return False
        if state.options.play_off_ties:
            best = max(state.scores)
            return state.scores.count(best) == 1
        return True

    def outcome(self, state: CountingState[Any]) -> Outcome:
        notes = ["Most points wins."]
        extra = state.deals_played() - self.planned_deals(state)
        if extra:
            notes.append(f"The tie for the lead took {extra} more deal{'s' if extra > 1 else ''} to settle.")
        return Outcome.from_scores(state.scores, notes=notes)


MATCH = ObstacleRaceMatch()


class ObstacleRaceRules(CountingRules):
    """The values (the Ace as the options say), the Queen's +3 or -3, and a total below 0 refused
    unless the options allow it."""

    options: ObstacleRaceOptions

    @classmethod
    def values_for(cls, options: Any, values: Mapping[Rank, int]) -> Mapping[Rank, int]:
        return card_values(options.ace_value)

    def pack(self) -> list[Card]:
        return piquet_pack()

    def hand_size(self, players: int) -> int:
        return deal_shape(players)[0]

    def value_choices(self, card: Card) -> Sequence[int] | None:
        return QUEEN_CHOICES if card.rank == Rank.QUEEN else None

    def refusal(
        self, deal: CountingRound, cards: CardSource, seat: Seat, action: Action, before: int, after: int
    ) -> str | None:
        if after < 0 and not self.options.allow_negative:
            return f"The total is {before}, so a Queen counted as \u22123 would take it below 0: count it +3."
        return None


class ObstacleRaceDeal(CountingDeal):
    """A deal of Obstacle Race: the starters open the count; a play scores the obstacles it hits
    or jumps, and 120 restarts the count (or, with finish_bonus, ends the deal)."""

    def after_deal(self, table: DealTable, rest: list[Card]) -> list[Event]:
        rnd = self.round
        rnd.pile = rest
        rnd.total = sum(self.rules.card_value(c) for c in rest)
        if not rest:
            return [table.event("start", "With four players every card is dealt: the count starts at 0.")]
        cards = " ".join(c.short for c in rest)
        return [table.event("start", f"{cards} start the row face up: the count starts at {rnd.total}.")]

    def after_play(self, table: DealTable, seat: Seat, action: Action, before: int, after: int) -> list[Event]:
        events: list[Event] = []
        options = table.options
        hit, skipped = targets_crossed(before, after, OBSTACLES)
        change = len(hit) - len(skipped)
        who = table.name(seat)
        if change:
            made = apply_floor(table.scores[seat], change, options.score_floor)
            table.add_points(seat, made)
            parts = [f"hit {t}" for t in hit] + [f"jumped {t}" for t in skipped]
            self.note(f"{', '.join(parts)}: {signed(made)}")
            if hit:
                events.append(table.event("obstacle_hit", f"{who} lands on the obstacle {hit[0]} and scores a point."))
            else:
                lost = "loses a point" if made else "has no point to lose"
                events.append(table.event("obstacle_jumped", f"{who} jumps over {skipped[0]} and {lost}."))
        if reaches_line(after):
            if options.finish_bonus:
                table.add_points(seat, FINISH_BONUS)
                self.note(f"reached {RESET_AT}: +{FINISH_BONUS}")
                self.round.close()
                events.append(
                    table.event("finish", f"{who} reaches {RESET_AT} first, scores {FINISH_BONUS} and ends the deal.")
                )
            else:
                self.round.total = 0
                self.note("back to 0")
                events.append(table.event("reset", f"The total has reached {after}: the count starts again at 0."))
        return events

    def view_notes(self, table: DealTable, seat: Seat | None) -> list[str]:
        if table.is_over:
            return []
        ahead = [t for t in OBSTACLES if t > self.round.total]
        end = f"{RESET_AT} ends the deal" if table.options.finish_bonus else f"at {RESET_AT} the count restarts at 0"
        lines = [f"Obstacles ahead: {' '.join(map(str, ahead)) or 'none'}; {end}."]
        played, planned = table.deals_played(), table.planned_deals()
        if played > planned:
            lines.append(f"Play-off deal {played - planned} to break the tie.")
        else:
            lines.append(f"Deal {played} of {planned}.")
        return lines


class ObstacleRaceState(CountingState[ObstacleRaceOptions]):
    rules_class = ObstacleRaceRules
    match: ClassVar[CountingMatch[Any]] = MATCH
    deal_class = ObstacleRaceDeal


SUMMARY = """\
Obstacle Race (Hindernislauf), for 2 to 6 players with a 32-card pack (A K Q J 10 9 8 7).
Values: Ace 11, King 4, Jack 2, Ten 10, Nine 9, Eight 8, Seven 7; a Queen counts +3 or -3, and you
pick which each time you play one (as a starting card it counts +3).
The cards are shared out evenly; unless four play, the two left over start the row face up and their
values open the count. Everyone must play one card a turn until every card is down.
The obstacles are 55, 66, 77, 88, 99 and 111. Landing exactly on one scores you a point, even coming
down with a Queen; jumping over one, up or down, costs you a point. When the total reaches 120 or more,
the count goes back to 0 and the obstacles count again (111 jumped on the way still costs a point).
The total may not go below 0 (a Queen must count +3 below 3) unless allow_negative is on.
German options: Ace 1; finish_bonus (reaching 120 scores 5 and ends the deal); score_floor (nobody
drops below 0 points). The match lasts one deal per player (times the rounds option), most points
wins; ties are shared unless play_off_ties adds deals until one player leads.
"""

GAME = declare(
    Game(
        id="obstacle_race",
        title="Obstacle Race",
        min_players=2,
        max_players=6,
        options=ObstacleRaceOptions,
        state=ObstacleRaceState,
        actions=[PlayCard, PlayAs],
        summary=SUMMARY,
    ),
    referee="games.referee.obstacle_race:RefereeObstacleRaceState",
    bots={
        "easy": "games.players.adders:OBSTACLE_RACE_EASY",
        "strong": "games.players.adders:OBSTACLE_RACE_STRONG",
    },
)
