"""Obstacle Race refereed: the two starters (unless four play), then every card as it is played.

A Queen is entered as +3 or -3, as its player announces it. Nobody can pass. Obstacles, the
restart at 120 (or the finish bonus), the score floor and the tie play-off are the online game's
(:mod:`games.adders.obstacle_race`).
"""

from __future__ import annotations

from games.adders.obstacle_race import GAME as ONLINE
from games.adders.obstacle_race import ObstacleRaceOptions, ObstacleRaceState
from games.counting import PlayAs
from games.engine import Game, PlayCard
from games.referee import referee_mode
from games.referee.counting import RefereeCounting, Starter


class RefereeObstacleRaceState(RefereeCounting[ObstacleRaceOptions], ObstacleRaceState):
    stuck_entry = None

    def starter_count(self, rest: int) -> int:
        return rest  # the cards left over start the row face up


SUMMARY = """
Referee mode: play Obstacle Race with a real 32-card pack and enter each card as it is played; the
bot keeps the count, scores the obstacles and runs the match exactly as the online game does.

Each deal: unless four play, the dealer enters the two cards laid face up to start the row (a Queen
among them counts +3). Then enter every card in turn from the dealer's left; a Queen is entered as
+3 or -3, as its player says (-3 is refused when it would take the total below 0, unless
allow_negative is on). Everyone must play, so there is no pass; a card already played this deal is
refused. Landing on 55, 66, 77, 88, 99 or 111 scores 1, jumping over one costs 1; at 120 or more the
count starts again from 0 (with finish_bonus, 5 points and the deal ends). Values: Ace 11 (or 1),
King 4, Jack 2, Ten 10, Nine 9, Eight 8, Seven 7.
"""

GAME: Game[ObstacleRaceOptions] = referee_mode(
    ONLINE,
    state=RefereeObstacleRaceState,
    actions=[Starter, PlayCard, PlayAs],
    summary=SUMMARY,
    series=True,
)
