"""Wit and Reason (I): Cotton's race to 31, red cards against black.

Rules: ``shared/rules/wit_and_reason.md`` part I. Each player holds a whole colour (two of every
rank), plays in turn onto a common total and must play if they can without passing 31; whoever
makes exactly 31 wins the race.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Literal

from pydantic import Field

from games.adders.wit_and_reason import RaceOptions
from games.cards import Card, Rank

TARGET = 31
VALUES = tuple(range(1, 11))
COLOUR_COUNTS = (2, 2, 2, 2, 2, 2, 2, 2, 2, 8)
"""How many cards of each value 1..10 one colour holds (Ten, Jack, Queen and King all count 10)."""


class WitAndReason1Options(RaceOptions):
    stalemate: Literal["draw", "last_player_wins"] = Field(
        "draw",
        description="When neither player can reach 31 any more: the race is drawn, or the last player to "
        "play a card wins it.",
    )


def card_value(card: Card) -> int:
    """Ace 1, numerals their pips, courts 10."""
    rank = card.rank
    assert rank is not None
    if rank is Rank.ACE:
        return 1
    return 10 if rank.is_court else int(rank)


def playable_cards(total: int, hand: Iterable[Card]) -> list[Card]:
    return [c for c in hand if total + card_value(c) <= TARGET]


def value_counts(hand: Iterable[Card]) -> tuple[int, ...]:
    """How many cards of each value 1..10 a hand holds (the solver's view of a hand)."""
    counts = [0] * 10
    for c in hand:
        counts[card_value(c) - 1] += 1
    return tuple(counts)


@cache
def solve(total: int, mover: tuple[int, ...], other: tuple[int, ...], stalemate: str = "draw") -> int:
    """The result of perfect play for the player to move: 1 win, 0 draw, -1 loss.

    ``mover`` and ``other`` are value counts (see :func:`value_counts`). A player who cannot play
    passes and the other plays on alone; if neither can play the race is stalemated, and the last
    card was the other player's, so ``last_player_wins`` makes it a loss for the mover.
    """
    best = -2
    for i, count in enumerate(mover):
        value = i + 1
        if not count or total + value > TARGET:
            continue
        if total + value == TARGET:
            return 1
        rest = mover[:i] + (count - 1,) + mover[i + 1 :]
        best = max(best, -solve(total + value, other, rest, stalemate))
        if best == 1:
            return 1
    if best > -2:
        return best
    if any(c and total + i + 1 <= TARGET for i, c in enumerate(other)):
        return -solve(total, other, mover, stalemate)  # the mover passes; the other plays on
    return 0 if stalemate == "draw" else -1


def winning_openings(stalemate: str = "draw") -> list[int]:
    """The opening values with which the first player wins against any defence."""
    return [
        v
        for v in VALUES
        if -solve(v, COLOUR_COUNTS, _less(COLOUR_COUNTS, v), stalemate) == 1
    ]


def _less(counts: tuple[int, ...], value: int) -> tuple[int, ...]:
    i = value - 1
    return counts[:i] + (counts[i] - 1,) + counts[i + 1 :]
