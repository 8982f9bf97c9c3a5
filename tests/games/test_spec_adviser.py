"""Spec's best-call adviser: known positions, public information only, and its bot."""

from __future__ import annotations

import random
from fractions import Fraction

from games.cards import JOKER, card
from games.players import RandomPlayer
from games.players.spec_adviser import (
    SpecAdviserPlayer,
    advise,
    call_values,
    expected_points,
    open_call_was_forbidden,
    unseen_showcards,
)
from games.simulate import play_match
from games.spec import GAME, SpecState
from games.spec_scoring import NAMEABLE, STACK_VALUES, Fault
from tests.games.test_spec import cards, do_call, make_grid, predict, start, t3_state


def test_fresh_grid_values() -> None:
    state = start()
    predict(state, "AS", "KH")
    advice = advise(state.view(None))
    # exact 1/25 x 38, rank 3/25 x 20, suit (3 other ranks, 1 more, and the deuce) 5/25 x 10
    assert all(advice.value_of(c) == Fraction(38 + 3 * 20 + 5 * 10, 25) for c in NAMEABLE)
    # Joker: the Joker 1/25 x 38, a deuce 4/25 x 20
    assert advice.value_of(JOKER) == Fraction(38 + 4 * 20, 25)
    assert set(advice.best) == set(NAMEABLE) and advice.best_value == Fraction(148, 25)


def test_t3_position_values() -> None:
    state = t3_state()  # Q♥ 2♣ K♠ K♣ face up, Bob just called K♦, 21 scorecards left (top 8)
    advice = advise(state.view(0))
    # the stack's top four are 8 7 7 7 (29), top two 8 7 (15), top one 8
    assert advice.value_of(JOKER) == Fraction(29 + 3 * 15, 21)
    assert advice.value_of(card("AS")) == Fraction(29 + 3 * 15 + 4 * 8, 21)
    assert advice.value_of(card("QC")) == Fraction(29 + 2 * 15 + 3 * 8, 21)
    assert set(advice.best) == set(cards("AD JD 10D")) and advice.best_value == Fraction(114, 21)
    # forbidden calls are not advised: the repeat of K♦, the face-up cards
    for c in cards("KD KS KC QH"):
        assert advice.value_of(c) is None
    assert [v.expected for v in advice.values] == sorted((v.expected for v in advice.values), reverse=True)


def test_half_way_the_best_call_is_the_jack_of_spades() -> None:
    # every Ace, King, Queen and Ten of hearts, diamonds and clubs is up: J♠ stands alone
    up = cards("AH KH QH 10H AD KD QD 10D AC KC QC 10C")
    advice = call_values(up, STACK_VALUES[12:])
    assert advice.best == (card("JS"),)
    assert len(unseen_showcards(up)) == 13


def test_stack_shortfall_and_jokers_out() -> None:
    assert expected_points(card("AS"), [card("AS")], [3, 3]) == 6  # 4 earned, 2 left
    up = cards("2S 2H 2D 2C Joker")
    assert JOKER not in {v.call for v in call_values(up, STACK_VALUES).values}
    # only joker-class cards left and Joker just called: the repeat is valued all the same
    up = list(NAMEABLE) + cards("2S 2H")
    advice = call_values(up, (3, 3, 3), previous_call=JOKER)
    # unseen 2♦ 2♣ Joker: the Joker takes all three left (9), a deuce two (6)
    assert advice.best == (JOKER,) and advice.best_value == Fraction(9 + 6 + 6, 3)


def test_advice_uses_public_information_only() -> None:
    plays = ("QH", "Joker", "AS", "KD")
    results = []
    for grid in (make_grid("QH 2C KS KC"), make_grid("QH 2C KS KC", last="AS"), make_grid("QH 2C KS KC JD 2H")):
        state = start(grid=grid)
        predict(state, "JC", "KD")
        for cell, name in zip(("A1", "A2", "A3", "A4"), plays, strict=True):
            do_call(state, cell, name)
        results.append(advise(state.view(None)))
        assert advise(state.view(1)) == results[-1]
    assert results[0] == results[1] == results[2]


def test_open_call_judged_from_the_view_matches_the_engine() -> None:
    checked = {True: 0, False: 0}

    def check(state: object) -> None:
        assert isinstance(state, SpecState)
        view = state.view(None)
        if state.deal.open_call is not None:
            fault = state.deal.calls[state.deal.open_call - 1].fault is not None
            assert open_call_was_forbidden(view) == fault
            checked[fault] += 1
        else:
            assert not open_call_was_forbidden(view)

    for seed in range(12):
        play_match(GAME, 2 + seed % 3, seed=seed, on_action=check)
    assert checked[True] > 0 and checked[False] > 0


def test_adviser_player_beats_random_players() -> None:
    wins = 0.0
    for seed in range(30):
        state = play_match(GAME, 2, seed=seed, policies=[SpecAdviserPlayer(), RandomPlayer()])
        assert state.outcome is not None
        wins += 1 / len(state.outcome.winners) if 0 in state.outcome.winners else 0
    assert wins >= 25


def test_adviser_player_never_makes_a_forbidden_call() -> None:
    rng = random.Random(3)
    for seed in range(10):
        state = GAME.start(["A", "B", "C"], {"first_dealer": 1}, seed=seed)
        assert isinstance(state, SpecState)
        bot = SpecAdviserPlayer()
        while not state.is_over:
            seat = state.to_move
            action = bot.choose(state.view(seat), state.legal_actions(seat), rng)
            state.apply(seat, action)
            last = state.deal.calls[-1] if state.deal.calls else None
            if last is not None and last.fault is not None:
                # only when nothing else was left: every nameable card up and Joker just called
                assert last.fault == Fault.REPEAT and last.call == JOKER
                assert set(NAMEABLE) <= set(state.deal.face_up_cards())
