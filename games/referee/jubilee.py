"""Jubilee refereed: every card as it is played, and a pass for a player who cannot play; or only
each player's points for the deal (``entries=result``).

The hands are unknown, so a pass is entered by the table; the bot accepts it only while the
player's hand could be all unplayable cards (no black card before the opening, or hearts bigger
than the total). With two copies of most black cards, a third 5♠ is refused. Jubilees, skips, the
void deal when nobody can open, and the match are the online game's (:mod:`games.adders.jubilee`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from games.adders.jubilee import GAME as ONLINE
from games.adders.jubilee import JubileeOptions, JubileeState
from games.engine import Game, Pass, PlayCard, Seat
from games.referee import entries_alias, referee_mode
from games.referee.counting import DealPoints, RefereeCounting

RESULT_POINTS = range(-200, 201, 5)
"""A player's points in one deal, in results mode: every score is 5, 10 or 20, up or down."""


class RefereeJubileeOptions(JubileeOptions):
    entries: Literal["cards", "result"] = Field(
        "cards",
        description="What the table enters: cards (each card as it is played) or result (only each "
        "player's points at the end of each deal).",
    )

    _entries = field_validator("entries", mode="before")(entries_alias(plural=False))


SUMMARY = """
Referee mode: play Jubilee with its real 61-card pack (one heart suit, two spade suits, two runs of
clubs from Ace to Nine, four Jokers) and enter each card as it is played; the bot keeps the total,
scores every jubilee and skip, and runs the match exactly as the online game does.

Draw from the stock at the table as usual: the bot only counts it. Enter each card in turn from
the dealer's left, or Pass for a player who has no card to play (no black card to open with, or
only hearts bigger than the total); a pass is refused when the player must have a playable card.
A card whose copies are all played is refused, as is a first card that is not black, and a heart
that would take the total below 0. Landing on a multiple of 25 scores 10 (20 on a multiple of 100),
jumping over one costs 5. If every player passes before the opening, the deal is void and the
same dealer deals again. The deal ends when all 61 cards are down; most points after one deal per
player (times rounds) wins. A whole round may be entered in one line, in playing order
("5S pass 9C"). With entries=result the table keeps the count itself and enters only each
player's points for the deal (multiples of 5, in any order); the bot keeps the match.
"""


class RefereeJubileeState(RefereeCounting[RefereeJubileeOptions], JubileeState):
    entry_kinds = (PlayCard, Pass, DealPoints)
    rules_summary = SUMMARY
    options_model = RefereeJubileeOptions
    takes_series = True

    result_points = RESULT_POINTS

    def stuck_reason(self, seat: Seat) -> str:
        if not self.opened:
            return f"{self.name(seat)} could still hold a black card to open with."
        if self.total >= 15:
            return f"with the total at {self.total}, every card can be played."
        return super().stuck_reason(seat)


GAME: Game[RefereeJubileeOptions] = referee_mode(ONLINE, RefereeJubileeState)
