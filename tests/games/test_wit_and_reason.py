"""Wit and Reason (I) and (II): the solver facts and worked examples, refusals and playouts."""

from __future__ import annotations

import pytest

from games.adders import wit_and_reason_1 as wr1
from games.adders import wit_and_reason_2 as wr2
from games.cards import card


def test_one_values() -> None:
    assert [wr1.card_value(card(c)) for c in ("AS", "2H", "9D", "10C", "JS", "QH", "KD")] == [1, 2, 9, 10, 10, 10, 10]


@pytest.mark.parametrize("stalemate", ["draw", "last_player_wins"])
def test_one_first_player_wins_with_eight_or_nine(stalemate: str) -> None:
    assert wr1.winning_openings(stalemate) == [8, 9]


def test_two_first_player_wins_with_one_two_or_five() -> None:
    assert wr2.winning_takes(0, wr2.POOL_COUNTS) == [1, 2, 5]


@pytest.mark.parametrize(("reply", "wins"), [(1, [3, 4]), (2, [3, 5]), (3, [1, 2]), (4, [1, 4]), (5, [2]), (6, [6])])
def test_two_winning_replies_after_five(reply: int, wins: list[int]) -> None:
    pool = list(wr2.POOL_COUNTS)
    pool[4] -= 1
    pool[reply - 1] -= 1
    assert wr2.winning_takes(5 + reply, tuple(pool)) == wins


def test_two_dudeney_trap_position_is_lost() -> None:
    # 3 4 3 3 4 4 3 4 = 28: the 3s and 4s are gone; only a 1 or 2 fits and the reply makes 31
    assert wr2.solve(28, (4, 4, 0, 0, 4, 4)) == -1


def test_two_stuck_position_is_lost() -> None:
    assert wr2.solve(28, (0, 0, 0, 3, 4, 4)) == -1
    assert wr2.winning_takes(28, (0, 0, 0, 3, 4, 4)) == []
