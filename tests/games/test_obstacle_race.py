"""Obstacle Race: the deal, the Queen's choice, the worked table of the rules file, the reset at 120,
the German options, refusals and random playouts."""

from __future__ import annotations

import pytest

from games.adders.obstacle_race import (
    GAME,
    ObstacleRaceState,
    apply_floor,
    deal_shape,
    obstacle_points,
    reaches_line,
)
from games.cards import Card, card, piquet_pack
from games.counting import PlayAs, stack_deck
from games.engine import Action, IllegalAction, PlayCard, SetupError
from tests.playout import run_playouts


def cards(codes: str) -> list[Card]:
    return [card(c) for c in codes.split()]


HANDS = [cards("KS JS QS AS TS 8S"), cards("QH AH TH"), cards("9S"), cards("7S")]


def four(**options: object) -> ObstacleRaceState:
    """Four players (no starters); P1 holds K J Q A 10 8 and plays first."""
    deck = stack_deck(piquet_pack(), HANDS, hand_size=8)
    state = GAME.start(["P1", "P2", "P3", "P4"], {"first_dealer": 4, **options}, seed=2, deck=deck)
    assert isinstance(state, ObstacleRaceState)
    return state


def move(state: ObstacleRaceState, before: int, action: Action) -> tuple[int, int]:
    """Put the total at ``before``, let the player to move play ``action``; (new total, score change)."""
    seat = state.to_play
    assert seat is not None
    state.total = before
    start = state.scores[seat]
    state.apply(seat, action)
    return state.total, state.scores[seat] - start


def test_deal_shapes() -> None:
    assert [deal_shape(n) for n in range(2, 7)] == [(15, 2), (10, 2), (8, 0), (6, 2), (5, 2)]
    for n in range(2, 7):
        state = GAME.start([f"P{i}" for i in range(n)], seed=n)
        assert isinstance(state, ObstacleRaceState)
        each, starters = deal_shape(n)
        assert all(len(h) == each for h in state.hands) and len(state.pile) == starters


def test_queen_starter_counts_plus_three() -> None:
    deck = stack_deck(piquet_pack(), [[], []], cards("QD 7D"), hand_size=15)
    state = GAME.start(["A", "B"], {"first_dealer": 1}, seed=1, deck=deck)
    assert state.pile == cards("QD 7D") and state.total == 10  # type: ignore[attr-defined]


K, J, A, T, E = (PlayCard(play=card(c)) for c in ("KS", "JS", "AS", "TS", "8S"))
Q_UP, Q_DOWN = PlayAs(play=card("QS"), value=3), PlayAs(play=card("QS"), value=-3)


@pytest.mark.parametrize(
    ("before", "action", "after", "change"),
    [
        (50, K, 54, 0),
        (54, J, 56, -1),  # skipped 55
        (56, Q_DOWN, 53, -1),  # skipped 55 downwards
        (53, Q_UP, 56, -1),  # skipped 55 again
        (56, A, 67, -1),  # skipped 66
        (67, T, 77, 1),  # hit 77
        (58, Q_DOWN, 55, 1),  # hit 55 from above
        (108, A, 119, -1),  # skipped 111, no reset
        (111, T, 0, 0),  # 121: reset
        (112, E, 0, 0),  # exactly 120 also resets
        (100, T, 110, 0),
        (110, A, 0, -1),  # skipped 111, then reset
    ],
)
def test_worked_table(before: int, action: Action, after: int, change: int) -> None:
    state = four()
    assert move(state, before, action) == (after, change)


def test_pure_scoring() -> None:
    assert obstacle_points(54, 56) == -1 and obstacle_points(58, 55) == 1 and obstacle_points(110, 121) == -1
    assert obstacle_points(55, 52) == 0, "leaving an obstacle costs nothing"
    assert reaches_line(120) and not reaches_line(119)
    assert apply_floor(0, -1, True) == 0 and apply_floor(2, -1, True) == -1 and apply_floor(0, -1, False) == -1


def test_queen_choice_and_floor_at_zero() -> None:
    state = four()
    assert state.total == 0
    legal = state.legal_actions(0)
    assert Q_UP in legal and Q_DOWN not in legal
    assert PlayCard(play=card("QS")) not in legal
    before = state.fingerprint()
    with pytest.raises(IllegalAction, match="below 0: count it \\+3"):
        state.apply(0, Q_DOWN)
    with pytest.raises(IllegalAction, match="Say how your Q♠ counts: Q♠ as \\+3, Q♠ as −3"):
        state.apply(0, PlayCard(play=card("QS")))
    with pytest.raises(IllegalAction, match="You do not hold"):
        state.apply(0, PlayCard(play=card("9S")))
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(1, PlayCard(play=card("AH")))
    assert state.fingerprint() == before
    state.total = 3
    assert Q_DOWN in state.legal_actions(0)


def test_allow_negative() -> None:
    state = four(allow_negative=True)
    assert Q_DOWN in state.legal_actions(0)
    assert move(state, 0, Q_DOWN) == (-3, 0)


def test_repeated_hits_count_each_time() -> None:
    state = four()
    assert move(state, 52, Q_UP) == (55, 1)
    # P2 comes down from 55 with a Queen and P3 later lands on it again
    state.apply(1, PlayAs(play=card("QH"), value=-3))
    assert state.total == 52 and state.scores[1] == 0


def test_finish_bonus_ends_the_deal() -> None:
    state = four(finish_bonus=True)
    _, change = move(state, 110, A)
    assert change == -1 + 5
    assert state.deal_no == 2, "the deal ended at 121 and the next one is dealt"
    assert [e.kind for e in state.log].count("finish") == 1


def test_score_floor() -> None:
    state = four(score_floor=True)
    assert move(state, 54, J) == (56, 0), "nothing to lose"
    state.scores[1] = 2
    state.apply(1, PlayCard(play=card("TH")))  # 66: hit
    assert state.scores[1] == 3


def test_ace_one() -> None:
    state = four(ace_value="1")
    assert move(state, 54, A) == (55, 1)


def test_option_refusals() -> None:
    with pytest.raises(SetupError, match="ace_value"):
        GAME.options({"ace_value": 5})
    with pytest.raises(SetupError, match="no option 'bonus'"):
        GAME.parse_options(["bonus=1"])
    with pytest.raises(SetupError, match="for 2, 3, 4, 5, 6 players"):
        GAME.start(["a"] * 7)


def test_view() -> None:
    state = four()
    view = state.view(0)
    assert view.total == 0 and view.to_play == 0 and len(view.hand) == 8 and view.stock == 0
    assert state.view(None).hand == []
    text = "\n".join(view.text_lines())
    assert "Obstacles ahead: 55 66 77 88 99 111" in text


def test_one_reset_per_deal_and_match_length() -> None:
    for state in run_playouts(GAME, 3, matches=2, seed=8, deep_every=30):
        resets = [e for e in state.log if e.kind == "reset"]
        assert len(resets) == state.deal_no == 3


def test_play_off_ties_leaves_one_leader() -> None:
    for state in run_playouts(GAME, 2, {"play_off_ties": True}, matches=6, seed=12, deep_every=40):
        assert state.outcome is not None and len(state.outcome.winners) == 1
        assert state.deal_no >= 2


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_playouts(players: int) -> None:
    run_playouts(GAME, players, matches=3, deep_every=11, seed=players)


@pytest.mark.parametrize(
    "options",
    [
        {"ace_value": 1},
        {"finish_bonus": True},
        {"score_floor": True},
        {"allow_negative": True},
        {"ace_value": 1, "finish_bonus": True, "score_floor": True, "allow_negative": True, "play_off_ties": True},
    ],
)
def test_playouts_with_options(options: dict) -> None:
    run_playouts(GAME, 3, options, matches=2, deep_every=13, seed=21)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_many_playouts(players: int) -> None:
    run_playouts(GAME, players, matches=100, seed=100 + players)
    run_playouts(GAME, players, {"finish_bonus": True, "ace_value": 1, "allow_negative": True}, matches=40, seed=200 + players)
