"""Hundred refereed: the left-over cards, then every card as it is played.

The dealer enters the cards left over after the even deal (two with 3, 5 or 6 players), which
open the count; then each card played. Nobody can pass in Hundred, so every entry is a card. The
points for exactly 100 (and 200 with the option) and for jumping past them, the end of the deal
and the match are the online game's (:mod:`games.adders.hundred`).
"""

from __future__ import annotations

from games.adders.hundred import GAME as ONLINE
from games.adders.hundred import HundredOptions, HundredState
from games.engine import Game, PlayCard
from games.referee import referee_mode
from games.referee.counting import RefereeCounting, Starter


class RefereeHundredState(RefereeCounting[HundredOptions], HundredState):
    stuck_entry = None

    def starter_count(self, rest: int) -> int:
        return rest  # every card left over is laid face up


SUMMARY = """
Referee mode: play Hundred with a real 32-card pack and enter each card as it is played; the bot
adds up, scores and runs the match exactly as the online game does.

Each deal: with 3, 5 or 6 players the dealer enters the two cards left over, laid face up; their
values open the count. Then enter every card in turn from the dealer's left (everyone must play,
so there is no pass). A card already played this deal is refused. Exactly 100 scores a point,
jumping past it costs one, and the deal ends there (with second_point_200, play goes on to 200).
Values: Ace 11, King 4, Queen 3, Jack 2, Ten 10, Nine 9, Eight 8, Seven 7. Most points after one
deal per player (times rounds) wins.
"""

GAME: Game[HundredOptions] = referee_mode(
    ONLINE,
    state=RefereeHundredState,
    actions=[Starter, PlayCard],
    summary=SUMMARY,
    series=True,
)
