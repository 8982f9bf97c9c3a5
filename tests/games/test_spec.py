"""Spec: the worked examples of the rules file (T1-T9), forbidden calls and challenges, the match,
views, menus and random playouts."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from games.cards import JOKER, Card, card
from games.engine import IllegalAction, SetupError, iter_cards
from games.registry import get_game
from games.simulate import play_match
from games.spec import (
    CELLS,
    GAME,
    SPEC_TITLE,
    Call,
    Challenge,
    Predict,
    Reveal,
    SpecFacts,
    SpecState,
)
from games.spec_scoring import (
    CALLS,
    FULL_PACK,
    SCORECARD_STACK,
    SHOWCARDS,
    STACK_TOTAL,
    STACK_VALUES,
    Fault,
    MatchLevel,
    after_deal,
    allowed_calls,
    best_prediction,
    call_fault,
    cards_won,
    deal_score,
    end_of_deal_award,
    legal_predictions,
    prediction_match,
)
from tests.playout import run_playouts

# --- helpers ------------------------------------------------------------------------------------


def cards(codes: str) -> list[Card]:
    return [card(c) for c in codes.split()]


def make_grid(front: str = "", last: str | None = None) -> list[Card]:
    """A grid in cell order: ``front`` from A1 on, ``last`` in E5, the rest in pack order."""
    head = cards(front)
    tail = [card(last)] if last else []
    rest = list(SHOWCARDS)
    for c in head + tail:
        rest.remove(c)
    return head + rest + tail


def start(
    players: Sequence[str] = ("Alice", "Bob"),
    grid: list[Card] | None = None,
    **options: Any,
) -> SpecState:
    state = GAME.start(list(players), {"first_dealer": 1, **options}, seed=7, deck=grid)
    assert isinstance(state, SpecState)
    return state


def predict(state: SpecState, *codes: str) -> None:
    for code in codes:
        state.apply(state.to_move, Predict(prediction=card(code)))


def do_call(state: SpecState, cell: str, name: str) -> list[str]:
    events = state.apply(state.to_move, Call(cell=cell, call=card(name)))
    return [e.text for e in events]


def challenge(state: SpecState, seat: int, call_no: int | None = None) -> list[str]:
    no = call_no if call_no is not None else state.deal.open_call
    assert no is not None
    return [e.text for e in state.apply(seat, Challenge(call_no=no))]


def call_winning(state: SpecState, turned: Card, wanted: int) -> Card:
    """A call that wins ``wanted`` scorecards on ``turned``, preferring one no rule forbids."""
    prev, up = state.deal.previous_call, state.deal.face_up_cards()
    options = [c for c in CALLS if cards_won(c, turned) == wanted]
    clean = [c for c in options if call_fault(c, prev, up, state.options.repeat_joker_call) is None]
    assert options, f"no call wins {wanted} on {turned}"
    return (clean or options)[0]


def play_deal(state: SpecState, wins: Sequence[int] = ()) -> list[str]:
    """Make the deal's remaining calls in cell order, the i-th winning ``wins[i]`` scorecards
    (0 after the list ends), then turn up the last card."""
    texts: list[str] = []
    deal = state.deal_no
    while state.deal_no == deal and state.phase == "call":
        i = len(state.deal.calls)
        cell = state.deal.face_up.index(False)
        want = wins[i] if i < len(wins) else 0
        name = call_winning(state, state.deal.grid[cell], want)
        texts += do_call(state, CELLS[cell], name.code)
    if state.phase == "reveal":
        texts += [e.text for e in state.apply(state.to_move, Reveal())]
    return texts


def spec_match(players: int, options: dict[str, Any] | None = None, seed: int = 0) -> SpecState:
    state = play_match(GAME, players, options, seed=seed)
    assert isinstance(state, SpecState)
    return state


def deal_points(state: SpecState) -> list[int]:
    return state.view(None).deal_points


def refused(state: SpecState, seat: int, action: Any, *words: str) -> str:
    before = state.fingerprint()
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)
    assert state.fingerprint() == before
    for w in words:
        assert w in str(info.value), str(info.value)
    return str(info.value)


def t3_state(**options: Any) -> SpecState:
    """T3: Alice and Bob after four calls (Q♥, Joker, A♠, K♦)."""
    state = start(grid=make_grid("QH 2C KS KC AS"), **options)
    predict(state, "JC", "KD")
    do_call(state, "A1", "QH")
    do_call(state, "A2", "Joker")
    do_call(state, "A3", "AS")
    do_call(state, "A4", "KD")
    return state


# --- the cards ----------------------------------------------------------------------------------


def test_pack_splits_into_showcards_and_scorecards() -> None:
    assert len(SHOWCARDS) == 25 and len(SCORECARD_STACK) == 30 and len(FULL_PACK) == 55
    assert sum(1 for c in FULL_PACK if c.is_joker) == 3
    assert sum(1 for c in FULL_PACK if not c.is_joker) == 52 == len(set(c for c in FULL_PACK if not c.is_joker))
    assert STACK_TOTAL == 188 == sum(STACK_VALUES)
    assert STACK_VALUES[:6] == (10, 10, 9, 9, 9, 9) and STACK_VALUES[-4:] == (3, 3, 3, 3)
    assert GAME.title == SPEC_TITLE == "Spec" and get_game("spec") is GAME


# --- T1: predictions ----------------------------------------------------------------------------


def test_t1_fourth_players_predictions() -> None:
    state = start(["P1", "P2", "P3", "P4"])
    predict(state, "AS", "KH", "Joker")
    offered = {a.prediction for a in state.legal_actions(3) if isinstance(a, Predict)}
    assert offered == set(cards("QC JC 10C QD JD 10D"))
    assert set(legal_predictions(cards("AS KH Joker"))) == offered


def test_prediction_refusals_name_the_clash() -> None:
    state = start(["P1", "P2", "P3", "P4"])
    predict(state, "AS", "Joker")
    refused(state, 2, Predict(prediction=card("AH")), "P1", "Ace")
    refused(state, 2, Predict(prediction=card("KS")), "P1", "Spades")
    refused(state, 2, Predict(prediction=JOKER), "P2", "Joker")
    refused(state, 2, Predict(prediction=card("2H")), "Ace, King")
    refused(state, 2, Call(cell="A1", call=card("KH")), "predicts")
    refused(state, 3, Predict(prediction=card("KH")), "not your turn")


def test_predictions_start_with_the_first_caller() -> None:
    state = start(["P1", "P2", "P3"], first_dealer=2)
    assert state.to_move == 1 and state.awaiting() == {1}
    predict(state, "AS", "KH", "QD")
    assert state.deal.predictions == [card("QD"), card("AS"), card("KH")]
    assert state.phase == "call" and state.to_move == 1


# --- T2: what a call wins -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "turned", "won"),
    [
        ("QH", "QH", 4),
        ("JS", "JD", 2),
        ("AC", "2C", 1),
        ("AC", "KC", 1),
        ("Joker", "2D", 2),
        ("Joker", "Joker", 4),
        ("KH", "Joker", 0),
        ("Joker", "AS", 0),
        ("10S", "2H", 0),
    ],
)
def test_t2_call_outcomes(call: str, turned: str, won: int) -> None:
    assert cards_won(card(call), card(turned)) == won
    state = start(grid=make_grid(turned))
    predict(state, "AD", "KC") if turned != "AD" else predict(state, "AH", "KC")
    do_call(state, "A1", call)
    assert len(state.deal.won[0]) == won
    assert state.deal.won[0] == list(SCORECARD_STACK[:won])


# --- T3, T4, T5: the stack, forbidden calls, the penalty ---------------------------------------


def test_t3_taking_from_the_stack() -> None:
    state = t3_state()
    assert [len(h) for h in state.deal.won] == [5, 4]
    assert deal_points(state) == [46, 34]
    view = state.view(None)
    assert view.stack_count == 21 and view.stack_top == 8 and sum(view.stack) == 108
    assert view.stack == STACK_VALUES[9:]
    assert any("Alice calls Q♥ at A1" in e.text and "Joker, Joker, 9, 9, worth 38" in e.text for e in state.log)
    assert any("Bob calls K♦ at A4 and turns up the K♣" in e.text and "worth 16" in e.text for e in state.log)


def test_t4_forbidden_calls_are_refused_in_strict_mode() -> None:
    state = t3_state(illegal_call_mode="strict")
    offered = {a.call for a in state.legal_actions(0) if isinstance(a, Call)}
    assert card("KD") not in offered and card("KS") not in offered and JOKER in offered
    refused(state, 0, Call(cell="A5", call=card("KD")), "Bob has just called K♦")
    refused(state, 0, Call(cell="A5", call=card("KS")), "K♠ is already face up")
    refused(state, 0, Call(cell="A5", call=card("2H")), "Deuces")
    refused(state, 0, Call(cell="A1", call=card("AH")), "already face up")
    refused(state, 0, Call(cell="F9", call=card("AH")), "A1 to E5")
    assert Challenge not in {type(a) for s in range(2) for a in state.legal_actions(s)}


def test_t4_jokers_out_once_all_five_are_up() -> None:
    state = start(grid=make_grid("2S 2H 2D 2C Joker"), illegal_call_mode="strict")
    predict(state, "AS", "KH")
    for i in range(5):
        cell = CELLS[i]
        do_call(state, cell, call_winning(state, state.deal.grid[i], 0).code)
    assert all(state.deal.face_up[:5])
    assert JOKER not in state.deal.allowed_calls()
    refused(state, state.to_move, Call(cell="B1", call=JOKER), "all four deuces")


def test_t5_penalty_takes_the_offenders_highest_scorecard() -> None:
    state = t3_state()
    # Alice repeats Bob's K♦ and turns the A♠ (no win); Bob objects before the next call
    do_call(state, "A5", "KD")
    texts = challenge(state, 1)
    assert "Bob takes Alice's Joker scorecard" in texts[0]
    assert deal_points(state) == [36, 44]
    assert state.deal.last_winner == 1
    # the window is closed: nobody else may challenge that call
    assert all(not isinstance(a, Challenge) for s in range(2) for a in state.legal_actions(s))


# --- challenges ---------------------------------------------------------------------------------


def three_players(**options: Any) -> SpecState:
    state = start(["Alice", "Bob", "Carol"], grid=make_grid("AS KS QS JS 10S AH"), **options)
    predict(state, "AC", "KD", "Joker")
    return state


def test_challenge_offered_after_every_call_to_every_opponent_alike() -> None:
    state = three_players()
    do_call(state, "A1", "AH")  # allowed; the A♠ turns up (rank match: 2 cards)
    after_legal = {s: state.legal_actions(s)[-1:] for s in (1, 2)}
    assert after_legal == {1: [Challenge(call_no=1)], 2: [Challenge(call_no=1)]}
    assert state.legal_actions(2) == [Challenge(call_no=1)] and 2 not in state.awaiting()
    do_call(state, "A2", "AH")  # Bob repeats Alice's call: forbidden, yet offered and scored
    assert state.deal.won == [[JOKER, JOKER], [], []] and state.deal.calls[-1].fault == Fault.REPEAT
    assert state.legal_actions(0) == [Challenge(call_no=2)] and state.legal_actions(2)[-1] == Challenge(call_no=2)
    assert state.view(2).open_challenge == 2


@pytest.mark.parametrize("kind", list(Fault))
def test_each_forbidden_kind_is_caught_by_a_challenge(kind: Fault) -> None:
    if kind == Fault.JOKERS_OUT:
        state = start(grid=make_grid("2S 2H 2D 2C Joker AS"))
        predict(state, "KH", "QD")
        for i in range(5):
            do_call(state, CELLS[i], call_winning(state, state.deal.grid[i], 0).code)
        offender = state.to_move
        do_call(state, "B1", "Joker")
        reason = "after the Joker and all four deuces were face up"
    else:
        state = start(grid=make_grid("AS KS QS"))
        predict(state, "JC", "KD")
        if kind == Fault.REPEAT:
            do_call(state, "A1", "AH")  # Alice: 2 cards (Joker, Joker)
            offender = state.to_move
            do_call(state, "A2", "AH")  # Bob names the A♥ again (still face down)
            reason = "straight after the same call"
        else:
            do_call(state, "A1", "AS")  # Alice: 4 cards (Joker, Joker, 9, 9)
            do_call(state, "A2", "QH")  # Bob's call is fine; Alice then names the face-up A♠
            offender = state.to_move
            do_call(state, "A3", "AS")
            reason = "already face up"
    assert state.deal.calls[-1].fault == kind
    claimant = state.to_move
    held_before = list(state.deal.won[offender])
    texts = challenge(state, claimant)
    assert reason in texts[0]
    if held_before:
        assert len(state.deal.won[offender]) == len(held_before) - 1
    else:
        assert "top of the stack" in texts[0]


def test_challenge_takes_the_stack_top_when_the_offender_has_nothing() -> None:
    state = start(grid=make_grid("AS KS"))
    predict(state, "JC", "KD")
    do_call(state, "A1", "QH")  # 0 cards
    do_call(state, "A2", "QH")  # Bob repeats: 0 cards, forbidden
    texts = challenge(state, 0)
    assert "top of the stack, a Joker" in texts[0]
    assert state.deal.won == [[JOKER], []] and state.deal.last_winner == 0


def test_penalty_with_nothing_to_take_is_still_recorded() -> None:
    state = start(grid=make_grid("AS KS"))
    predict(state, "JC", "KD")
    do_call(state, "A1", "QH")
    state.deal.stack = []  # as if the stack had run out
    do_call(state, "A2", "QH")
    texts = challenge(state, 0)
    assert "nothing changes hands" in texts[0]
    assert state.deal.open_call is None


def test_repeat_joker_allowed_by_option() -> None:
    state = start(grid=make_grid("AS KS"), repeat_joker_call="allow")
    predict(state, "JC", "KD")
    do_call(state, "A1", "Joker")
    do_call(state, "A2", "Joker")
    texts = challenge(state, 0)
    assert "was allowed" in texts[0]
    forbid = start(grid=make_grid("AS KS"))
    predict(forbid, "JC", "KD")
    do_call(forbid, "A1", "Joker")
    do_call(forbid, "A2", "Joker")
    assert forbid.deal.calls[-1].fault == Fault.REPEAT


def test_challenge_after_the_window_closed() -> None:
    state = three_players()
    do_call(state, "A1", "KH")  # Alice: allowed
    do_call(state, "A2", "KH")  # Bob repeats: forbidden
    do_call(state, "A3", "JD")  # Carol calls: the window on Bob's call closes
    refused(state, 0, Challenge(call_no=2), "window closed")
    refused(state, 2, Challenge(call_no=2), "window closed")
    refused(state, 1, Challenge(call_no=9), "no call 9")
    assert state.legal_actions(1)[-1] == Challenge(call_no=3)


def test_false_challenge_without_penalty() -> None:
    state = three_players()
    do_call(state, "A1", "AS")  # Alice takes Joker, Joker, 9, 9
    before_scores = deal_points(state)
    texts = challenge(state, 2)
    assert "was allowed" in texts[0] and "Nothing happens" in texts[0]
    assert deal_points(state) == before_scores
    # each opponent challenges a call at most once; the other may still try
    assert Challenge(call_no=1) not in state.legal_actions(2)
    refused(state, 2, Challenge(call_no=1), "already challenged")
    challenge(state, 1)
    assert state.legal_actions(1) and Challenge(call_no=1) not in state.legal_actions(1)
    assert state.awaiting() == {1}


def test_false_challenge_with_card_penalty() -> None:
    state = three_players(false_challenge_penalty="card")
    do_call(state, "A1", "AS")  # Alice: 38 points
    texts = challenge(state, 2)  # Carol holds nothing: Alice takes the stack's top
    assert "top of the stack, a 9" in texts[0]
    assert deal_points(state) == [47, 0, 0]
    do_call(state, "A2", "KS")  # Bob: 4 cards, 9 8 8 8
    texts = challenge(state, 0)  # Alice is wrong: Bob takes her highest (a Joker)
    assert "Bob takes Alice's Joker" in texts[0]
    assert deal_points(state) == [37, 43, 0]


def test_two_opponents_challenge_the_same_call() -> None:
    state = three_players()
    do_call(state, "A1", "AS")
    do_call(state, "A2", "AS")  # Bob names the face-up A♠ and turns the K♠: 1 card, a 9
    assert deal_points(state) == [38, 9, 0]
    texts = challenge(state, 2)
    assert "Carol takes Bob's 9" in texts[0]
    refused(state, 0, Challenge(call_no=2), "Carol has already claimed")
    assert deal_points(state) == [38, 0, 9]


def test_window_after_the_24th_call_closes_on_reveal() -> None:
    state = start(["Alice", "Bob", "Carol"], grid=make_grid(last="10D"))
    predict(state, "AS", "KH", "Joker")
    while len(state.deal.calls) < 24:
        cell = state.deal.face_up.index(False)
        do_call(state, CELLS[cell], call_winning(state, state.deal.grid[cell], 0).code)
    assert state.phase == "reveal" and state.to_move == 0  # Carol made call 24; Alice reveals
    assert state.legal_actions(0) == [Reveal(), Challenge(call_no=24)]
    assert state.legal_actions(1) == [Challenge(call_no=24)]
    refused(state, 1, Reveal(), "not your turn")
    refused(state, 0, Call(cell="E5", call=card("AS")), "24 calls")
    state.apply(0, Reveal())
    assert state.deal_no == 2
    refused(state, 1, Challenge(call_no=24), "no call 24")


def test_strict_mode_lifts_the_repeat_rule_when_nothing_else_is_left() -> None:
    state = start(grid=make_grid(), illegal_call_mode="strict")  # 20 nameable cards, 2s, Joker
    predict(state, "AS", "KH")
    for i in range(20):
        name = "Joker" if i == 19 else state.deal.grid[i].code  # exact calls, then a Joker
        do_call(state, CELLS[i], name)
    assert state.deal.previous_call == JOKER
    calls = [a for a in state.legal_actions(state.to_move) if isinstance(a, Call)]
    assert {a.call for a in calls} == {JOKER} and len(calls) == 5
    assert allowed_calls(JOKER, state.deal.face_up_cards(), lift_repeat_when_stuck=False) == []
    do_call(state, "E1", "Joker")


# --- T6, T7, T8, T9: the end of a deal ------------------------------------------------------------


def test_t6_rest_of_the_stack_to_the_rank_match() -> None:
    assert end_of_deal_award(cards("JC KD"), card("KC"), 3, 0).seat == 1
    state = start(grid=make_grid(last="KC"))
    predict(state, "JC", "KD")
    texts = play_deal(state, [4] * 6 + [1] * 3)
    assert any("Bob's prediction of K♦ is the best match (rank)" in t and "worth 9" in t for t in texts)
    (alice, bob) = state.deal_results[0]
    assert alice + bob == STACK_TOTAL
    assert any("Deal 1 scores" in t for t in texts)


def test_t6_flat_bonus_when_the_stack_ran_out() -> None:
    award = end_of_deal_award(cards("JC KD"), card("KC"), 0, 0)
    assert (award.seat, award.cards, award.bonus) == (1, 0, 10)
    state = start(grid=make_grid(last="KC"))
    predict(state, "JC", "KD")
    texts = play_deal(state, [4] * 7 + [2])
    assert any("bonus of 10" in t for t in texts)
    assert sum(state.deal_results[0]) == STACK_TOTAL + 10


@pytest.mark.parametrize(("option", "winner"), [("rank", 0), ("exact", 0), ("none", 1)])
def test_t7_joker_prediction_against_a_deuce(option: str, winner: int) -> None:
    expected = {"rank": MatchLevel.RANK, "exact": MatchLevel.EXACT, "none": MatchLevel.NONE}[option]
    assert prediction_match(JOKER, card("2H"), option) == expected  # type: ignore[arg-type]
    assert prediction_match(card("QH"), card("2H")) == MatchLevel.SUIT
    assert best_prediction([JOKER, card("QH")], card("2H"), option) == winner  # type: ignore[arg-type]
    state = start(grid=make_grid(last="2H"), joker_vs_deuce=option)
    predict(state, "Joker", "QH")
    play_deal(state, [4])  # Alice names the A♠ exactly: 38; the rest (150) goes to the winner
    assert state.deal_results[0] == ([188, 0] if winner == 0 else [38, 150])


def test_t8_no_match_goes_to_the_last_winner() -> None:
    assert best_prediction(cards("AS KH Joker"), card("10D")) is None
    assert end_of_deal_award(cards("AS KH Joker"), card("10D"), 5, 2).seat == 2
    state = start(["Alice", "Bob", "Carol"], grid=make_grid(last="10D"))
    predict(state, "AS", "KH", "Joker")
    texts = play_deal(state, [4, 0, 1])  # Carol's call 3 is the last to win a card
    assert any("goes to Carol, the last to win a scorecard" in t for t in texts)
    assert state.deal_results[0] == [38, 0, STACK_TOTAL - 38]


def test_nobody_won_and_nobody_matched_sets_the_stack_aside() -> None:
    state = start(grid=make_grid(last="10D"), end_mode="fixed")
    predict(state, "AS", "KH")
    texts = play_deal(state)
    assert any("set aside" in t for t in texts)
    assert state.deal_results[0] == [0, 0]


def test_t9_every_deal_hands_out_the_whole_stack() -> None:
    bonus = 0
    for seed in range(60):
        for players in (2, 3, 4):
            state = spec_match(players, seed=seed)
            for points in state.deal_results:
                assert sum(points) in (0, STACK_TOTAL, STACK_TOTAL + 10), points
                bonus += sum(points) == STACK_TOTAL + 10
            assert state.scores == [sum(d[s] for d in state.deal_results) for s in range(players)]
    assert bonus > 0


def test_pure_scoring_helpers() -> None:
    assert deal_score(cards("9S 3C"), bonus=10) == 22
    assert deal_score([JOKER, card("9S")]) == 19
    assert call_fault(card("KS"), None, cards("KS")) == Fault.FACE_UP
    assert call_fault(card("KS"), card("KS"), []) == Fault.REPEAT
    assert call_fault(JOKER, JOKER, [], "allow") is None
    assert call_fault(JOKER, None, cards("2S 2H 2D 2C Joker")) == Fault.JOKERS_OUT


# --- the match ----------------------------------------------------------------------------------


def test_after_deal_decisions() -> None:
    assert after_deal([100, 90], 1, 2) == "deal"
    assert after_deal([180, 8], 1, 2) == "finish"
    assert after_deal([180, 8], 1, 2, "fixed") == "deal"
    assert after_deal([200, 176], 2, 2, "fixed") == "finish"
    assert after_deal([190, 190], 2, 2) == "finish"
    assert after_deal([190, 190], 2, 2, tie_break="extra_deal") == "extra_deal"
    assert after_deal([174, 174, 2], 1, 3, tie_break="extra_deal") == "extra_deal"
    assert after_deal([190, 190], 3, 2, tie_break="extra_deal", extra_played=True) == "finish"
    assert after_deal([50, 60, 40], 3, 3) == "finish"


def test_first_caller_rotates_and_matches_end_per_mode() -> None:
    for seed in range(30):
        for players in (2, 3, 4):
            for mode in ("race", "fixed"):
                state = spec_match(players, {"end_mode": mode, "first_dealer": 2}, seed=seed)
                deals = state.deal_results
                assert state.deal_no == len(deals) <= players
                if mode == "fixed":
                    assert len(deals) == players
                totals = [0] * players
                for i, pts in enumerate(deals):
                    totals = [t + p for t, p in zip(totals, pts, strict=True)]
                    if mode == "race" and i < len(deals) - 1:
                        assert max(totals) < 173
                assert state.dealer == (1 + state.deal_no - 1) % players
                assert state.outcome is not None and state.outcome.scores == totals
    starts = [e for e in play_match(GAME, 4, {"end_mode": "fixed", "first_dealer": 3}, seed=1).log if e.kind == "deal_start"]
    assert [next(p for p in ("P1", "P2", "P3", "P4") if f"{p} predicts and calls first" in e.text) for e in starts] == [
        "P3",
        "P4",
        "P1",
        "P2",
    ]


def test_tie_break_deal_is_played_once() -> None:
    state = start(end_mode="fixed", tie_break="extra_deal")
    state.deal_no = 2
    state.scores = [150, 150]
    events = state._settle(SpecFacts(points=(0, 0)))
    assert events[1].kind == "tie" and state.deal_no == 3 and state.extra_deal
    assert state.view(None).max_deals == 3
    state.scores = [200, 200]
    state._settle(SpecFacts(points=(0, 0)))
    assert state.outcome is not None and state.outcome.winners == [0, 1]


def test_fixed_deck_forms_and_refusals() -> None:
    grid = make_grid("Joker 2H", last="AS")
    state = start(grid=grid)
    assert state.deal.grid == grid
    whole = list(SCORECARD_STACK[:3]) + grid[:10] + list(SCORECARD_STACK[3:]) + grid[10:]
    state = start(grid=whole)
    assert state.deal.grid == grid
    with pytest.raises(SetupError, match="25 cards"):
        start(grid=[*grid[:-1], card("3S")])


def test_options_and_refused_combinations() -> None:
    with pytest.raises(SetupError, match="strict mode"):
        GAME.options({"illegal_call_mode": "strict", "false_challenge_penalty": "card"})
    with pytest.raises(SetupError):
        GAME.parse_options(["joker_vs_deuce=maybe"])
    with pytest.raises(SetupError, match="2, 3, 4"):
        GAME.start(["a"], {})
    names = {f.name for f in GAME.option_fields()}
    assert {"joker_vs_deuce", "repeat_joker_call", "illegal_call_mode", "false_challenge_penalty", "end_mode", "tie_break", "first_dealer"} <= names
    assert all(f.description for f in GAME.option_fields())


# --- views and menus ----------------------------------------------------------------------------


def test_views_hide_only_the_face_down_grid() -> None:
    state = t3_state()
    view = state.view(None)
    down = {c for c, up in zip(state.deal.grid, state.deal.face_up, strict=True) if not up}
    assert [c is None for c in view.grid] == [not up for up in state.deal.face_up]
    assert not down & set(iter_cards(view))
    for seat in range(2):
        assert state.view(seat).model_dump(exclude={"seat"}) == view.model_dump(exclude={"seat"})
    assert view.scorecards == [[10, 10, 9, 9, 8], [9, 9, 8, 8]]
    assert view.predictions == ["JC", "KD"] and view.previous_call == "KD"
    text = "\n".join(view.text_lines())
    assert "Stack: 21 scorecards worth 108, top card 8" in text and "##" in text


def test_call_menu_groups_by_cell_then_call() -> None:
    state = t3_state()
    menu = state.legal_actions(0)
    calls = [a for a in menu if isinstance(a, Call)]
    assert len(calls) == 21 * 21  # every call at every face-down cell, forbidden ones included
    groups: dict[str, list[str]] = {}
    for a in menu:
        path = a.choice_path()
        groups.setdefault(path[0], []).append(path[-1])
    assert len(groups) <= 25 and all(len(g) <= 25 for g in groups.values())
    assert calls[0].choice_path() == ("A5", "A♠") and calls[0].label() == "A5: A♠"
    assert GAME.action_from_json(GAME.action_to_json(calls[3])) == calls[3]


# --- random playouts ----------------------------------------------------------------------------


def challenges_seen(states: list[Any]) -> tuple[int, int]:
    good = sum(1 for s in states for e in s.log if e.kind == "challenge")
    bad = sum(1 for s in states for e in s.log if e.kind == "challenge_refused")
    return good, bad


@pytest.mark.parametrize(("players", "matches"), [(2, 20), (3, 14), (4, 10)])
def test_random_playouts_default_rules(players: int, matches: int) -> None:
    finals = run_playouts(GAME, players, matches=matches, deep_every=40, sample_legal=25)
    good, bad = challenges_seen(finals)
    assert good > 0 and bad > 0


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {"illegal_call_mode": "strict", "end_mode": "fixed", "joker_vs_deuce": "exact"}),
        (3, {"repeat_joker_call": "allow", "false_challenge_penalty": "card", "tie_break": "extra_deal"}),
        (4, {"end_mode": "fixed", "joker_vs_deuce": "none", "illegal_call_mode": "strict", "repeat_joker_call": "allow"}),
        (3, {"false_challenge_penalty": "card", "end_mode": "fixed", "tie_break": "extra_deal"}),
    ],
)
def test_random_playouts_with_options(players: int, options: dict[str, str]) -> None:
    finals = run_playouts(GAME, players, options, matches=6, seed=3, deep_every=40, sample_legal=25)
    if options.get("illegal_call_mode") == "strict":
        assert challenges_seen(finals) == (0, 0)
        assert all(c.fault is None for s in finals if isinstance(s, SpecState) for c in s.deal.calls)


def test_many_quick_matches_end_properly() -> None:
    rng = random.Random(5)
    for i in range(120):
        players = rng.choice((2, 3, 4))
        options = {
            "illegal_call_mode": rng.choice(("challenge", "strict")),
            "repeat_joker_call": rng.choice(("forbid", "allow")),
            "joker_vs_deuce": rng.choice(("rank", "exact", "none")),
            "end_mode": rng.choice(("race", "fixed")),
            "tie_break": rng.choice(("share", "extra_deal")),
        }
        state = play_match(GAME, players, options, seed=i)
        assert state.outcome is not None and state.is_over and not state.awaiting()
        assert all(not state.legal_actions(s) for s in range(players))
        top = max(state.scores)
        assert state.outcome.winners == [s for s in range(players) if state.scores[s] == top]


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_long(players: int) -> None:
    run_playouts(GAME, players, matches=60, seed=11, deep_every=15, sample_legal=60)
    run_playouts(GAME, players, {"illegal_call_mode": "strict"}, matches=30, seed=12, deep_every=15)


def test_direct_legality_check_agrees_with_the_menu() -> None:
    """``check`` decides legality without building the 500-call menu; both must agree."""
    every: list[Any] = [Call(cell=c, call=k) for c in CELLS for k in (*CALLS, card("2H"))]
    every += [Predict(prediction=k) for k in CALLS] + [Reveal()]
    for seed in range(3):
        options = {"illegal_call_mode": "strict"} if seed == 2 else {}
        state = GAME.start(["A", "B", "C"], options, seed=seed)
        assert isinstance(state, SpecState)
        rng = random.Random(seed)
        while not state.is_over:
            for seat in range(3):
                legal = state.legal_actions(seat)
                tries = [*rng.sample(every, 40), *(Challenge(call_no=i) for i in range(1, 26))]
                for action in tries:
                    assert state.is_legal(seat, action) == (action in legal), (seat, action)
            assert state.actors() == [s for s in range(3) if state.legal_actions(s)]
            seat = rng.choice(state.actors())
            state.apply(seat, rng.choice(state.legal_actions(seat)))
