"""Obstacle Race refereed: the rules file's table replayed as entries, the starters, the Queen's
two values, the restart at 120, the match."""

from __future__ import annotations

import pytest

from games.engine import Pass
from tests.games.referee_adders_support import play, refused, start, texts, turn_up

ROWS = [  # before, entry, after, the mover's score change
    (50, "KS", 54, 0),
    (54, "JS", 56, -1),
    (56, "QS-3", 53, -1),
    (53, "QS+3", 56, -1),
    (56, "AS", 67, -1),
    (67, "TS", 77, 1),
    (58, "QS-3", 55, 1),
    (108, "AS", 119, -1),
    (111, "TS", 0, 0),
    (112, "8S", 0, 0),
    (100, "TS", 110, 0),
    (110, "AS", 0, -1),
]


@pytest.mark.parametrize(("before", "code", "after", "change"), ROWS)
def test_worked_table_entered(before: int, code: str, after: int, change: int) -> None:
    state = start("obstacle_race", ["N", "E", "S", "W"])  # four players: no starters, E plays first
    state.total = before  # the row's position, as if reached by earlier cards
    play(state, code)
    assert (state.total, state.scores[1]) == (after, change)


def test_starters_and_a_deal_entered() -> None:
    state = start("obstacle_race", ["Ann", "Ben", "Cat"])
    turn_up(state, "QS", "AS")  # a Queen among the starters counts +3
    assert state.total == 14 and state.to_play == 1
    assert refused(state, 1, "QH") == "Say how your Q♥ counts: Q♥ as +3, Q♥ as −3."
    assert refused(state, 1, Pass()) == "In this game a player always has a card to play: enter the card Ben plays."
    play(state, "QH-3", "TS", "TH", "TD", "TC", "9S", "AH")  # 11, 21, 31, 41, 51, 60 (skips 55), 71 (skips 66)
    assert state.total == 71 and state.scores == [-1, -1, 0]
    assert "Ann jumps over 55 and loses a point." in texts(state)


def test_queen_below_zero_refused_unless_allowed() -> None:
    state = start("obstacle_race", ["N", "E", "S", "W"])
    assert refused(state, 1, "QS-3") == "The total is 0, so a Queen counted as \u22123 would take it below 0: count it +3."
    state = start("obstacle_race", ["N", "E", "S", "W"], allow_negative=True)
    play(state, "QS-3")
    assert state.total == -3


def test_finish_bonus_ends_the_deal_and_the_match_ends() -> None:
    state = start("obstacle_race", ["Ann", "Ben"], finish_bonus=True)
    turn_up(state, "7S", "7H")
    plays = ["AS", "AH", "AD", "AC", "TS", "TH", "TD", "TC", "9S"]  # 14 + 44 + 40 + 9 = 107
    play(state, *plays, "KS", "KH", "9H")  # 111, 115, 124: Ann reaches 120
    assert "Ann reaches 120 first, scores 5 and ends the deal." in texts(state)
    assert state.deal_no == 2
    turn_up(state, "7S", "7H")
    play(state, *plays, "KS", "KH", "9H")
    assert state.is_over and state.outcome is not None
