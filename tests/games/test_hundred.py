"""Hundred: the worked examples of the rules file, refusals, options and random playouts."""

from __future__ import annotations

import pytest

from games.adders.hundred import GAME, HundredState, deal_shape, pack_total, point_result
from games.cards import Card, card, piquet_pack
from games.counting import stack_deck
from games.engine import IllegalAction, PlayCard, SetupError
from tests.playout import run_playouts


def cards(codes: str) -> list[Card]:
    return [card(c) for c in codes.split()]


# the rules file's 3-player deal: left over 7 and A (18); then 10 A 9 K 8 10 J 9 Q 8 8 -> 100
EXAMPLE_PLAYS = cards("TS AS 9S KS 8S TH JS 9H QS 8H 8D")
EXAMPLE_HANDS = [cards("TS KS JS 8H"), cards("AS 8S 9H 8D TD"), cards("9S TH QS")]
EXAMPLE_LEFT = cards("7C AC")


def example_state(**options: object) -> HundredState:
    deck = stack_deck(piquet_pack(), EXAMPLE_HANDS, EXAMPLE_LEFT, hand_size=10)
    state = GAME.start(["A", "B", "C"], {"first_dealer": 3, **options}, seed=4, deck=deck)
    assert isinstance(state, HundredState)
    return state


def test_pack_and_deal_shapes() -> None:
    assert pack_total() == 216
    assert [deal_shape(n) for n in range(2, 7)] == [(16, 0), (10, 2), (8, 0), (6, 2), (5, 2)]
    for n in range(2, 7):
        state = GAME.start([f"P{i}" for i in range(n)], seed=n)
        assert isinstance(state, HundredState)
        each, left = deal_shape(n)
        assert all(len(h) == each for h in state.hands) and len(state.pile) == left
        assert state.total == sum(state.card_value(c) for c in state.pile)


def test_worked_deal_exactly_100_wins() -> None:
    state = example_state()
    assert state.total == 18 and state.pile == EXAMPLE_LEFT
    totals = []
    for i, c in enumerate(EXAMPLE_PLAYS):
        state.apply(i % 3, PlayCard(play=c))
        totals.append(state.total if state.deal_no == 1 else None)
    assert totals[:-1] == [28, 39, 48, 52, 60, 70, 72, 81, 84, 92]
    assert state.scores == [0, 1, 0], "B made exactly 100"
    assert state.deal_no == 2
    assert any(e.kind == "point_won" and e.text.startswith("B ") for e in state.log)


def test_point_results() -> None:
    assert point_result(95, 102, 100) == -1
    assert point_result(98, 100, 100) == 1
    assert point_result(92, 99, 100) == 0
    assert point_result(193, 200, 200) == 1
    assert point_result(195, 204, 200) == -1
    assert point_result(100, 107, 100) == 0, "leaving 100 upwards is not a jump"


def test_jumping_past_100_loses_and_ends_the_deal() -> None:
    state = example_state()
    for i, c in enumerate(EXAMPLE_PLAYS[:-1]):
        state.apply(i % 3, PlayCard(play=c))
    assert state.total == 92 and state.to_play == 1
    state.apply(1, PlayCard(play=card("TD")))
    assert state.scores == [0, -1, 0] and state.deal_no == 2


def test_jump_from_95() -> None:
    state = example_state()
    state.total = 95
    hand = state.hands[0]
    seven_or_more = next(c for c in hand if state.card_value(c) >= 6)
    state.apply(0, PlayCard(play=seven_or_more))
    assert state.scores == [-1, 0, 0] and state.deal_no == 2


def test_second_point_at_200() -> None:
    state = example_state(second_point_200=True)
    for i, c in enumerate(EXAMPLE_PLAYS):
        state.apply(i % 3, PlayCard(play=c))
    assert state.deal_no == 1 and state.total == 100 and state.scores == [0, 1, 0]
    assert state.to_play == 2, "play goes on after the first point"
    state.apply(2, PlayCard(play=state.hands[2][0]))
    assert state.total > 100 and state.scores == [0, 1, 0], "leaving 100 scores nothing"
    seat = state.to_play
    assert seat is not None
    last = state.hands[seat][0]
    state.total = 200 - state.card_value(last)  # e.g. 193 and a Seven
    state.apply(seat, PlayCard(play=last))
    assert state.scores[seat] == (1 if seat == 1 else 0) + 1 and state.deal_no == 2


def test_deal_ends_with_exactly_two_points_under_the_200_option() -> None:
    for state in run_playouts(GAME, 4, {"second_point_200": True}, matches=2, seed=9, deep_every=50):
        events = [e.kind for e in state.log]
        assert events.count("point_won") + events.count("point_lost") == 2 * state.deal_no


def test_refusals_change_nothing() -> None:
    state = example_state()
    before = state.fingerprint()
    with pytest.raises(IllegalAction, match="You do not hold Ace of Spades"):
        state.apply(0, PlayCard(play=card("AS")))
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(2, PlayCard(play=card("9S")))
    assert state.fingerprint() == before
    with pytest.raises(SetupError, match="no option"):
        GAME.parse_options(["second_point=1"])
    with pytest.raises(SetupError, match="rounds"):
        GAME.options({"rounds": 0})


def test_match_is_one_deal_per_player_by_default() -> None:
    state = run_playouts(GAME, 5, matches=1, seed=3)[0]
    assert state.deal_no == 5 and state.outcome is not None
    assert sum(abs(s) for s in state.scores) <= 5
    state = run_playouts(GAME, 2, {"rounds": 3}, matches=1, seed=3)[0]
    assert state.deal_no == 6


def test_view() -> None:
    state = example_state()
    view = state.view(1)
    assert view.total == 18 and view.to_play == 0 and len(view.hand) == 10
    assert not state.view(None).hand
    assert any("Next point: exactly 100" in line for line in view.text_lines())


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_playouts(players: int) -> None:
    run_playouts(GAME, players, matches=5, deep_every=15, seed=players)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_playouts_200(players: int) -> None:
    run_playouts(GAME, players, {"second_point_200": True}, matches=3, deep_every=11, seed=players + 40)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_many_playouts(players: int) -> None:
    run_playouts(GAME, players, matches=150, seed=100 + players)
    run_playouts(GAME, players, {"second_point_200": True, "rounds": 2}, matches=60, seed=200 + players)
