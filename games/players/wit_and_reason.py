"""Bot players for the two Wit and Reason races to 31.

Both games are small enough to solve exactly (the game modules hold the solvers), so:

* ``easy`` makes 31 when it can, and otherwise avoids a total from which the other player can make
  31 with one card they may hold, choosing at random among the rest;
* ``strong`` plays perfectly: a winning play if there is one, else (I) one that draws, else the
  play that leaves the other player the fewest ways to win (II).

In (I) the other player's cards are their colour less what they have played this race, known from
the recent plays; when older plays have scrolled out of sight, the missing ones are filled in with
values that add up to what the total says they must.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.adders import wit_and_reason_1 as wr1
from games.adders import wit_and_reason_2 as wr2
from games.adders.wit_and_reason import TARGET
from games.cards import Card
from games.counting import CountingView, play_card_of
from games.engine import Action, Seat, View


def _plays(legal: Sequence[Action]) -> list[tuple[int, Action]]:
    """(value, action) for each legal play, one per value."""
    out: dict[int, Action] = {}
    for action in legal:
        card = play_card_of(action)
        if card is not None:
            out.setdefault(_value(card), action)
    return sorted(out.items(), key=lambda item: item[0])


def _value(card: Card) -> int:
    return wr1.card_value(card)


# --- Wit and Reason (I) --------------------------------------------------------------------------


def opponent_counts(view: CountingView) -> tuple[int, ...]:
    """The value counts of the other player's hand, as far as the view tells them."""
    assert view.seat is not None
    other: Seat = 1 - view.seat
    counts = list(wr1.COLOUR_COUNTS)
    mine_played = _less_counts(wr1.COLOUR_COUNTS, wr1.value_counts(view.hand))
    seen = [r.card for r in view.recent if r.seat == other and r.card is not None]
    for c in seen:
        counts[_value(c) - 1] -= 1
    played = sum(wr1.COLOUR_COUNTS) - view.hand_counts[other]
    missing = played - len(seen)
    if missing > 0:  # plays older than the recent list: fill in values that make up the total
        owed = view.total - sum(v * k for v, k in zip(wr1.VALUES, mine_played, strict=True)) - sum(_value(c) for c in seen)
        for _ in range(missing):
            share = max(1, min(10, round(owed / missing)))
            while counts[share - 1] == 0 and share > 1:
                share -= 1
            counts[share - 1] = max(0, counts[share - 1] - 1)
            owed -= share
            missing -= 1
    return tuple(max(0, k) for k in counts)


def _less_counts(full: Sequence[int], held: Sequence[int]) -> list[int]:
    return [a - b for a, b in zip(full, held, strict=True)]


class StrongWitAndReason1Player:
    """Perfect play by exhaustive search on the two hands' value counts."""

    name = "strong"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        assert isinstance(view, CountingView)
        mine = wr1.value_counts(view.hand)
        other = opponent_counts(view)
        rule = "draw"  # the standard ruling; the view does not say which the table chose
        best: tuple[int, int] | None = None
        choice = legal[0]
        for value, action in _plays(legal):
            total = view.total + value
            if total == TARGET:
                return action
            result = -wr1.solve(total, other, wr1._less(mine, value), rule)
            key = (result, -value)
            if best is None or key > best:
                best, choice = key, action
        return choice


class EasyWitAndReason1Player:
    """Makes 31 when it can; otherwise keeps out of the other player's one-card reach."""

    name = "easy"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        assert isinstance(view, CountingView)
        other = opponent_counts(view)
        return _easy_choice(view.total, legal, lambda need: 1 <= need <= 10 and other[need - 1] > 0, rng)


def _easy_choice(total: int, legal: Sequence[Action], reachable: object, rng: random.Random) -> Action:
    plays = _plays(legal)
    for value, action in plays:
        if total + value == TARGET:
            return action
    assert callable(reachable)
    safe = [a for v, a in plays if not reachable(TARGET - total - v)]
    return rng.choice(safe or [a for _, a in plays] or list(legal))


# --- Wit and Reason (II) -------------------------------------------------------------------------


def _pool(view: View) -> list[Card]:
    pool = getattr(view, "pool", None)
    assert pool is not None, "Wit and Reason (II) shows the pool in the view"
    return list(pool)


class StrongWitAndReason2Player:
    """Perfect play: take a value that leaves the other player lost, if there is one."""

    name = "strong"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        assert isinstance(view, CountingView)
        counts = wr2.pool_counts(_pool(view))
        winning = wr2.winning_takes(view.total, counts)
        plays = _plays(legal)
        for value, action in plays:
            if value in winning:
                return action
        # lost against perfect play: leave the other player as few winning answers as possible
        return min(plays, key=lambda p: _answer_share(view.total + p[0], counts, p[0]))[1]


def _answer_share(total: int, counts: tuple[int, ...], taken: int) -> float:
    rest = (*counts[: taken - 1], counts[taken - 1] - 1, *counts[taken:])
    answers = [v for v in range(1, 7) if rest[v - 1] and total + v <= TARGET]
    if not answers:
        return 0.0  # the other player cannot take a card: they lose
    return len(wr2.winning_takes(total, rest)) / len(answers)


class EasyWitAndReason2Player:
    """Makes 31 when it can; otherwise leaves no single card that makes 31."""

    name = "easy"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        assert isinstance(view, CountingView)
        counts = list(wr2.pool_counts(_pool(view)))

        def reachable(need: int) -> bool:
            return 1 <= need <= 6 and counts[need - 1] > 0

        return _easy_choice(view.total, legal, reachable, rng)


# the players the two games' declarations name (games/adders/wit_and_reason_1.py, _2.py)
WIT_AND_REASON_1_EASY = EasyWitAndReason1Player()
WIT_AND_REASON_1_STRONG = StrongWitAndReason1Player()
WIT_AND_REASON_2_EASY = EasyWitAndReason2Player()
WIT_AND_REASON_2_STRONG = StrongWitAndReason2Player()
