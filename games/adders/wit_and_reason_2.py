"""Wit and Reason (II): the 24-card race to 31 (Dudeney's Thirty-one game), as reconstructed.

Rules: ``shared/rules/wit_and_reason.md`` part II. The Aces to Sixes lie face up between the two
players; in turn each takes one, adding its value to the total. Making exactly 31 wins; a player
who cannot take a card without passing 31 loses.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from games.cards import Card, Rank, make_pack

TARGET = 31
VALUES = tuple(range(1, 7))
POOL_COUNTS = (4, 4, 4, 4, 4, 4)
PACK: tuple[Card, ...] = tuple(make_pack([Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX]))


def card_value(card: Card) -> int:
    """Ace 1, the others their pips."""
    rank = card.rank
    assert rank is not None
    return 1 if rank is Rank.ACE else int(rank)


def takeable_values(total: int, pool: Iterable[Card]) -> list[int]:
    """The values that may be taken: those in the pool that keep the total at 31 or under."""
    return sorted({card_value(c) for c in pool if total + card_value(c) <= TARGET})


def pool_counts(pool: Iterable[Card]) -> tuple[int, ...]:
    counts = [0] * 6
    for c in pool:
        counts[card_value(c) - 1] += 1
    return tuple(counts)


@cache
def solve(total: int, pool: tuple[int, ...]) -> int:
    """Perfect play for the player to move: 1 win, -1 loss (a player who cannot take a card loses)."""
    for i, count in enumerate(pool):
        value = i + 1
        if count and total + value == TARGET:
            return 1
    for i, count in enumerate(pool):
        value = i + 1
        if count and total + value < TARGET:
            rest = pool[:i] + (count - 1,) + pool[i + 1 :]
            if solve(total + value, rest) == -1:
                return 1
    return -1


def winning_takes(total: int, pool: tuple[int, ...]) -> list[int]:
    """The values the player to move may take and still win against any defence."""
    out = []
    for i, count in enumerate(pool):
        value = i + 1
        if not count or total + value > TARGET:
            continue
        rest = pool[:i] + (count - 1,) + pool[i + 1 :]
        if total + value == TARGET or solve(total + value, rest) == -1:
            out.append(value)
    return out
