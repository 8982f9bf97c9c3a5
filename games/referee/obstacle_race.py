"""Obstacle Race refereed: the two starters (unless four play), then every card as it is played;
or only each player's points for the deal (``entries=result``).

A Queen is entered as +3 or -3, as its player announces it. Nobody can pass. Obstacles, the
restart at 120 (or the finish bonus), the score floor and the tie play-off are the online game's
(:mod:`games.adders.obstacle_race`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from games.adders.obstacle_race import GAME as ONLINE
from games.adders.obstacle_race import (
    MATCH,
    ObstacleRaceDeal,
    ObstacleRaceOptions,
    ObstacleRaceRules,
    apply_floor,
)
from games.counting import PlayAs
from games.engine import Game, PlayCard, Seat
from games.referee import entries_alias, referee_mode
from games.referee.counting import DealPoints, RefereeCounting, Starter

RESULT_POINTS = range(-15, 21)
"""A player's points in one deal, in results mode: a point per obstacle hit or jumped (the pack's
216 pips pass each obstacle a few times at most), and 5 for the finish with finish_bonus."""


class RefereeObstacleRaceOptions(ObstacleRaceOptions):
    entries: Literal["cards", "result"] = Field(
        "cards",
        description="What the table enters: cards (each card as it is played) or result (only each "
        "player's points at the end of each deal).",
    )

    _entries = field_validator("entries", mode="before")(entries_alias(plural=False))


SUMMARY = """
Referee mode: play Obstacle Race with a real 32-card pack and enter each card as it is played; the
bot keeps the count, scores the obstacles and runs the match exactly as the online game does.

Each deal: unless four play, the dealer enters the two cards laid face up to start the row (a Queen
among them counts +3). Then enter every card in turn from the dealer's left; a Queen is entered as
+3 or -3, as its player says (-3 is refused when it would take the total below 0, unless
allow_negative is on). Everyone must play, so there is no pass; a card already played this deal is
refused. Landing on 55, 66, 77, 88, 99 or 111 scores 1, jumping over one costs 1; at 120 or more the
count starts again from 0 (with finish_bonus, 5 points and the deal ends). Values: Ace 11 (or 1),
King 4, Jack 2, Ten 10, Nine 9, Eight 8, Seven 7. A whole round may be entered in one line, in
playing order ("QS -3 7H AD"). With entries=result the table keeps the count itself and enters
only each player's points for the deal, in any order (with score_floor a score stops at 0); the
bot keeps the match and any play-off.
"""


class RefereeObstacleRaceState(RefereeCounting[RefereeObstacleRaceOptions]):
    """Obstacle Race's parts (its rules, its deal and its match), held, not inherited from the
    online state."""

    rules_class = ObstacleRaceRules
    match = MATCH
    deal_class = ObstacleRaceDeal

    entry_kinds = (Starter, PlayCard, PlayAs, DealPoints)
    rules_summary = SUMMARY
    options_model = RefereeObstacleRaceOptions
    takes_series = True

    stuck_entry = None
    result_points = RESULT_POINTS

    def add_deal_points(self, seat: Seat, points: int) -> None:
        """With score_floor a player's score never goes below 0."""
        self.add_points(seat, apply_floor(self.scores[seat], points, self.options.score_floor))

    def starter_count(self, rest: int) -> int:
        return rest  # the cards left over start the row face up


GAME: Game[RefereeObstacleRaceOptions] = referee_mode(ONLINE, RefereeObstacleRaceState)
