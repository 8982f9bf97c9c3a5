"""Spec bots and hints: predictions from the rules' worked examples (T1, T7), forbidden calls never
made and always challenged (T4, T5), the best call found, hint lines, legal moves in many matches,
and win shares over a fixed seed set (seats rotated)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.advice import has_hints, hint
from games.cards import JOKER, card
from games.engine import Action, View
from games.players import Player, bot_player, levels
from games.players.spec_adviser import advise, prediction_values, prediction_wins
from games.simulate import contest, play_match
from games.spec import CELLS, GAME, Call, Challenge, Predict, SpecState, SpecView
from games.spec_scoring import NAMEABLE, RepeatJokerCall, allowed_calls, call_fault, legal_predictions
from tests.games.test_spec import call_winning, cards, do_call, make_grid, predict, start, t3_state
from tests.players.checked import Checked

EASY, STRONG = bot_player("spec", "easy"), bot_player("spec", "strong")


def choose(player: Player, state: SpecState, seat: int, seed: int = 0) -> Action:
    return player.choose(state.view(seat), state.legal_actions(seat), random.Random(seed))


def test_both_levels_are_offered_and_the_hinter_is_registered() -> None:
    assert levels("spec")[:3] == ["random", "easy", "strong"]
    assert (EASY.name, STRONG.name) == ("easy", "strong")
    assert has_hints("spec")


# --- predictions ---------------------------------------------------------------------------------------


def test_t1_the_fourth_player_predicts_among_the_six_open_cards() -> None:
    state = start(["P1", "P2", "P3", "P4"])
    predict(state, "AS", "KH", "Joker")
    open_six = set(cards("QC JC 10C QD JD 10D"))
    assert {c for c, _ in prediction_values([card("AS"), card("KH"), JOKER, None], 3)} == open_six
    for player in (EASY, STRONG):
        action = choose(player, state, 3)
        assert isinstance(action, Predict) and action.prediction in open_six


def test_t7_a_joker_prediction_wins_the_deuces_but_a_card_wins_more() -> None:
    # Alice Joker, Bob Q♥: a last 2♥ is Alice's (rank level beats Bob's suit level)
    assert prediction_wins([JOKER, card("QH")], 0) == 5  # the Joker and the four deuces
    # Bob: Q♥, the other three Queens, and A♥ K♥ J♥ 10♥ (the 2♥ went to the Joker)
    assert prediction_wins([JOKER, card("QH")], 1) == 8


def test_strong_predicts_a_card_rather_than_joker() -> None:
    state = start()
    action = choose(STRONG, state, state.to_move)
    assert isinstance(action, Predict) and action.prediction in NAMEABLE
    # the second player avoids the first one's rank and suit, and still takes a card over Joker
    state.apply(state.to_move, action)
    second = choose(STRONG, state, state.to_move)
    assert isinstance(second, Predict) and second.prediction in NAMEABLE
    assert second.prediction in legal_predictions([action.prediction])


# --- calls and challenges ------------------------------------------------------------------------------------


def test_t4_bots_never_make_a_forbidden_call() -> None:
    state = t3_state()  # Bob just called K♦; Q♥ 2♣ K♠ K♣ are face up; Alice to call
    seat = state.to_move
    for player in (EASY, STRONG):
        for seed in range(20):
            action = choose(player, state, seat, seed)
            assert isinstance(action, Call)
            assert action.call not in cards("KD KS KC QH")
            assert call_fault(action.call, state.deal.previous_call, state.deal.face_up_cards()) is None
            assert not state.deal.face_up[CELLS.index(action.cell)]


def test_t5_bots_challenge_a_forbidden_call_and_not_an_allowed_one() -> None:
    for player in (EASY, STRONG):
        state = t3_state()
        do_call(state, "B1", "KD")  # Alice repeats Bob's K♦: forbidden
        assert choose(player, state, 1) == Challenge(call_no=5)
        allowed = t3_state()
        do_call(allowed, "B1", "AD")
        assert isinstance(choose(player, allowed, 1), Call)


def test_strong_finds_the_lone_best_call() -> None:
    # every Ace, King, Queen and Ten of hearts, diamonds and clubs is up: J♠ stands alone
    up = "AH KH QH 10H AD KD QD 10D AC KC QC 10C"
    state = start(grid=make_grid(up))
    predict(state, "JD", "KS")
    for i, code in enumerate(up.split()):  # calls that take nothing, so the stack stays whole
        do_call(state, CELLS[i], call_winning(state, card(code), 0).code)
    assert advise(state.view(None)).best == (card("JS"),)
    action = choose(STRONG, state, state.to_move)
    assert isinstance(action, Call) and action.call == card("JS")
    assert state.deal.face_up[0] and action.cell not in ("A1", "B1", "C1")


# --- hints ------------------------------------------------------------------------------------------------


def hint_lines(state: SpecState, seat: int) -> list[str]:
    before = (state.view(None).model_dump_json(), state.legal_actions(seat))
    lines = hint("spec", state.view(seat), state.legal_actions(seat))
    assert lines is not None
    assert (state.view(None).model_dump_json(), state.legal_actions(seat)) == before
    return lines


def test_hints_name_the_best_calls_with_their_values() -> None:
    state = start()
    first = hint_lines(state, state.to_move)
    assert first[0].startswith("Predict ") and "of the 25" in first[0]
    predict(state, "AS", "KH")
    lines = hint_lines(state, state.to_move)
    # a fresh grid: every nameable card is worth 148/25 = 5.9 points on average, Joker 4.7
    assert lines[0].startswith("Best calls: ") and "5.9 points on average" in lines[0]
    assert "Joker 4.7" in lines[1]
    assert hint_lines(state, 1 - state.to_move) == ["Nothing for you to decide right now."]


def test_hint_after_a_forbidden_call_says_challenge() -> None:
    state = t3_state()
    do_call(state, "B1", "KD")
    lines = hint_lines(state, 1)
    assert lines[0].startswith("Call 5 broke a rule: challenge it")
    assert any(line.startswith("Best call") for line in lines)


def test_hint_at_the_t3_position() -> None:
    state = t3_state()
    lines = hint_lines(state, state.to_move)
    # A♦ J♦ 10♦ share the best value, 114/21 = 5.4
    assert lines[0] == "Best calls: A♦, J♦, 10♦, worth 5.4 points on average."


# --- whole matches ------------------------------------------------------------------------------------------


class SpecChecked(Checked):
    """Also checks that every call is allowed (unless no call was: every nameable card up and
    Joker just called)."""

    def check(self, view: View, action: Action) -> None:
        if isinstance(action, Call):
            assert isinstance(view, SpecView)
            previous = card(view.previous_call) if view.previous_call else None
            repeat: RepeatJokerCall = "allow" if view.joker_may_repeat else "forbid"
            allowed = allowed_calls(previous, view.face_up_cards(), repeat, lift_repeat_when_stuck=False)
            assert action.call in allowed or not allowed, f"{self.name} made a forbidden call"


OPTIONS: list[dict[str, Any]] = [
    {},
    {"illegal_call_mode": "strict"},
    {"false_challenge_penalty": "card", "repeat_joker_call": "allow"},
    {"end_mode": "fixed", "tie_break": "extra_deal", "joker_vs_deuce": "exact"},
]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_make_only_legal_moves(players: int) -> None:
    easy, strong = SpecChecked(EASY), SpecChecked(STRONG)
    for i, options in enumerate(OPTIONS[: 2 if players > 2 else 4]):
        lineup: list[Player] = [easy, strong, bot_player("spec", "random"), easy][:players]
        play_match(GAME, players, options, seed=40 + i, policies=lineup)
    assert easy.moves > 20 and strong.moves > 20


@pytest.mark.slow
def test_bots_make_only_legal_moves_in_many_matches() -> None:
    easy, strong = SpecChecked(EASY), SpecChecked(STRONG)
    for seed in range(80):
        players = 2 + seed % 3
        lineup: list[Player] = [easy, strong, bot_player("spec", "random"), strong][:players]
        play_match(GAME, players, OPTIONS[seed % len(OPTIONS)], seed=seed, policies=lineup)


def share(seats: list[str], matches: int, seed: int = 0) -> float:
    return contest(GAME, matches, seats, seed=seed).results[seats[0]].share(matches)


# Win shares on seeds 0.. of games.simulate.contest, seats rotating every match. Measured when
# written (share of the first level): two players, strong v random 1.00, strong v easy 0.79 (24
# matches), easy
# v random 1.00; three players (fair share 1/3), strong v random 0.87, strong v easy 0.47.


def test_two_players_strong_beats_easy_and_both_beat_random() -> None:
    assert share(["strong", "random"], 20) >= 0.9
    assert share(["easy", "random"], 20) >= 0.9
    assert share(["strong", "easy"], 24) >= 0.65


def test_three_players_strong_beats_random_and_holds_its_own_against_easy() -> None:
    assert share(["strong", "random", "random"], 15) >= 0.7
    assert share(["strong", "easy", "easy"], 30) >= 1 / 3


@pytest.mark.strength
@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_strong_beats_both_over_more_matches(players: int) -> None:
    fair = 1 / players
    assert share(["strong"] + ["random"] * (players - 1), 100, seed=1000) >= fair + 0.3
    assert share(["strong"] + ["easy"] * (players - 1), 150, seed=1000) >= fair
