"""Hints that are true: every race hint (Wit and Reason I and II) against a brute-force search on
the real hands, under every option that changes the result, on races long enough that the view's
recent plays no longer show every card played.

The brute force here is written from the rules, not from the games' solvers: it searches the
actual cards (suits and all), a player who cannot play passes and the other plays on alone, and a
stalemate is drawn or won by the last player as the table chose.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest

from games.adders import wit_and_reason_1 as wr1
from games.adders import wit_and_reason_2 as wr2
from games.counting import RECENT_LIMIT, play_card_of
from games.players.wit_and_reason import (
    StrongWitAndReason1Player,
    hint_wit_and_reason_1,
    hint_wit_and_reason_2,
)
from games.registry import get_game

WORDS = {"you win the race.": 1, "the race is drawn.": 0, "you lose the race.": -1}


def race_one(total: int, mover: tuple[int, ...], other: tuple[int, ...], rule: str, last_was_other: bool) -> int:
    """The mover's result (1, 0, -1) with both playing perfectly; hands are sorted card values."""
    return _one(total, tuple(sorted(mover)), tuple(sorted(other)), rule, last_was_other)


@cache
def _one(total: int, mover: tuple[int, ...], other: tuple[int, ...], rule: str, last_was_other: bool) -> int:
    fits = sorted({v for v in mover if total + v <= 31})
    if not fits:
        if any(total + v <= 31 for v in other):  # the mover passes for good; the other plays alone
            return -_one(total, other, mover, rule, False)
        if rule == "draw":
            return 0
        return -1 if last_was_other else 1
    best = -1
    for v in fits:
        if total + v == 31:
            return 1
        rest = list(mover)
        rest.remove(v)
        best = max(best, -_one(total + v, other, tuple(rest), rule, True))
    return best


@cache
def race_two(total: int, pool: tuple[int, ...]) -> int:
    """(II): the mover takes from the shared pool; one who cannot take without passing 31 loses."""
    fits = sorted({v for v in pool if total + v <= 31})
    if not fits:
        return -1
    best = -1
    for v in fits:
        if total + v == 31:
            return 1
        rest = list(pool)
        rest.remove(v)
        best = max(best, -race_two(total + v, tuple(rest)))
    return best


def hinted(lines: list[str]) -> dict[int, int]:
    """Each value the hint names, with the result it gives it."""
    out: dict[int, int] = {}
    for line in lines[1:]:
        values, words = line.split(": ", 1)
        for v in values.replace(" or ", ", ").split(", "):
            out[int(v)] = WORDS[words]
    return out


def long_positions(game_id: str, options: dict[str, Any], seed: int, plays: int) -> list[tuple[Any, int]]:
    """Positions from races driven with low cards (so they run long), each with the plays made so
    far this race; only positions past the view's recent list are kept."""
    rng = random.Random(seed)
    game = get_game(game_id)
    state: Any = game.start(["Ann", "Bob"], options, seed=seed)
    out: list[tuple[Any, int]] = []
    made = 0
    deal = state.deal_no
    while not state.is_over and len(out) < plays:
        seat = state.to_play
        legal = state.legal_actions(seat)
        if made > RECENT_LIMIT:
            out.append((state.clone(), made))
        low = [a for a in legal if wr1.card_value(play_card_of(a)) <= 4]  # type: ignore[arg-type]
        state.apply(seat, rng.choice(low if low and rng.random() < 0.85 else legal))
        made += 1
        if state.deal_no != deal:
            deal, made = state.deal_no, 0
    return out


@pytest.mark.parametrize("stalemate", ["draw", "last_player_wins"])
def test_wit_and_reason_1_hints_match_brute_force_past_the_recent_plays(stalemate: str) -> None:
    checked = 0
    for seed in range(40):
        for state, made in long_positions("wit_and_reason_1", {"stalemate": stalemate, "rounds": 3}, seed, 60):
            seat = state.to_play
            view = state.view(seat)
            assert len(view.recent) < made, "the view's recent plays must not show every card"
            mine = tuple(wr1.card_value(c) for c in state.hands[seat])
            theirs = tuple(wr1.card_value(c) for c in state.hands[1 - seat])
            truth = {}
            for v in sorted(set(mine)):
                if state.total + v <= 31:
                    rest = list(mine)
                    rest.remove(v)
                    truth[v] = 1 if state.total + v == 31 else -race_one(state.total + v, theirs, tuple(rest), stalemate, True)
            assert hinted(hint_wit_and_reason_1(view, state.legal_actions(seat))) == truth, (seed, made, state.total)
            if stalemate == "last_player_wins":
                assert 0 not in truth.values()
            # the strong bot plays a value with the best result there is
            choice = StrongWitAndReason1Player().choose(view, state.legal_actions(seat), random.Random(0))
            assert truth[wr1.card_value(play_card_of(choice))] == max(truth.values())  # type: ignore[arg-type]
            checked += 1
    assert checked >= 100


def test_wit_and_reason_2_hints_match_brute_force_past_the_recent_plays() -> None:
    checked = 0
    for seed in range(30):
        for state, _made in long_positions("wit_and_reason_2", {"rounds": 3}, seed, 40):
            seat = state.to_play
            pool = tuple(wr2.card_value(c) for c in state.pool)
            truth = {}
            for v in sorted(set(pool)):
                if state.total + v <= 31:
                    rest = list(pool)
                    rest.remove(v)
                    truth[v] = 1 if state.total + v == 31 else -race_two(state.total + v, tuple(rest))
            assert hinted(hint_wit_and_reason_2(state.view(seat), state.legal_actions(seat))) == truth
            checked += 1
    assert checked >= 50


def test_the_view_of_wit_and_reason_1_carries_the_whole_race_and_the_ruling() -> None:
    state: Any = get_game("wit_and_reason_1").start(["Ann", "Bob"], {"stalemate": "last_player_wins"}, seed=3)
    for _ in range(RECENT_LIMIT + 3):
        seat = state.to_play
        state.apply(seat, min(state.legal_actions(seat), key=lambda a: wr1.card_value(play_card_of(a))))  # type: ignore[arg-type]
    view = state.view(state.to_play)
    assert len(view.played) == RECENT_LIMIT + 3 and len(view.recent) == RECENT_LIMIT
    assert view.stalemate == "last_player_wins"
    assert view.other_counts() == wr1.value_counts(state.hands[1 - state.to_play])
