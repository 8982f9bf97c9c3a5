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


# --- whole matches -------------------------------------------------------------------------------

import random  # noqa: E402
from typing import Any  # noqa: E402

from games.cards import Card, parse_cards  # noqa: E402
from games.engine import Action, IllegalAction, PlayCard, SetupError  # noqa: E402
from games.simulate import play_match  # noqa: E402
from tests.playout import run_playouts  # noqa: E402

AB = ["Ann", "Ben"]


def start1(options: dict[str, Any] | None = None) -> wr1.WitAndReason1State:
    state = wr1.GAME.start(AB, {"first_dealer": 1, **(options or {})}, seed=5)
    assert isinstance(state, wr1.WitAndReason1State)
    return state


def start2(options: dict[str, Any] | None = None) -> wr2.WitAndReason2State:
    state = wr2.GAME.start(AB, {"first_dealer": 1, **(options or {})}, seed=5)
    assert isinstance(state, wr2.WitAndReason2State)
    return state


def one_card(state: wr1.WitAndReason1State, seat: int, value: int) -> Card:
    return next(c for c in state.hands[seat] if wr1.card_value(c) == value)


def play1(state: wr1.WitAndReason1State, seat: int, value: int) -> None:
    state.apply(seat, PlayCard(play=one_card(state, seat, value)))


def take2(state: wr2.WitAndReason2State, seat: int, value: int) -> None:
    action = next(a for a in state.legal_actions(seat) if wr2.card_value(a.card) == value)  # type: ignore[arg-type]
    state.apply(seat, action)


def refused(state: Any, seat: int, action: Action) -> str:
    before = state.fingerprint()
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)
    assert state.fingerprint() == before
    return str(info.value)


# Wit and Reason (I)


def test_one_colours_and_hands() -> None:
    state = start1()
    red = state.red_seat
    assert all(c.card_colour.value == "red" for c in state.hands[red])  # type: ignore[union-attr]
    assert all(c.card_colour.value == "black" for c in state.hands[1 - red])  # type: ignore[union-attr]
    assert [len(h) for h in state.hands] == [26, 26]
    assert wr1.value_counts(state.hands[0]) == wr1.COLOUR_COUNTS
    assert state.awaiting() == {0}


def test_one_simple_line() -> None:
    state = start1()
    for seat, value, total in [(0, 9, 9), (1, 5, 14), (0, 6, 20), (1, 4, 24)]:
        play1(state, seat, value)
        assert state.total == total
    play1(state, 0, 7)
    assert state.scores == [1, 0]
    assert any(e.kind == "race_won" and e.text.startswith("Ann") for e in state.log)
    assert state.deal_no == 2 and state.total == 0 and state.awaiting() == {1}  # Ben starts race 2


def test_one_refusals() -> None:
    state = start1()
    for seat, value in [(0, 10), (1, 10), (0, 5)]:
        play1(state, seat, value)
    assert "from 25 to 35, past 31" in refused(state, 1, PlayCard(play=one_card(state, 1, 10)))
    assert "not your turn" in refused(state, 0, PlayCard(play=one_card(state, 0, 1)))
    other = next(c for c in state.hands[0] if wr1.card_value(c) == 2)
    assert "do not hold" in refused(state, 1, PlayCard(play=other))


def pass_position(options: dict[str, Any] | None = None, ann: str = "3H 4H") -> wr1.WitAndReason1State:
    state = start1(options)
    state.hands = [parse_cards(ann), parse_cards("10S 9S")]
    state.total = 25
    return state


def test_one_passer_sits_out_and_the_other_plays_on() -> None:
    state = pass_position(ann="3H 3D 4H")
    play1(state, 0, 3)  # 28: Ben's 10 and 9 cannot be played, so he passes for the rest of the race
    assert state.awaiting() == {0} and state.passed == [False, True]
    assert any(e.kind == "alone" for e in state.log)
    play1(state, 0, 3)
    assert state.scores == [1, 0] and state.deal_no == 2


@pytest.mark.parametrize(("rule", "scores"), [("draw", [0, 0]), ("last_player_wins", [1, 0])])
def test_one_stalemate(rule: str, scores: list[int]) -> None:
    state = pass_position({"stalemate": rule})
    play1(state, 0, 3)  # 28: Ben passes, and Ann's 4 would pass 31 too
    assert state.scores == scores and state.deal_no == 2
    if rule == "draw":
        assert any(e.kind == "stalemate" for e in state.log)


def test_one_hand_menu_groups_by_suit() -> None:
    state = start1()
    groups: dict[str, int] = {}
    for action in state.legal_actions(0):
        path = action.choice_path()
        groups[path[0]] = groups.get(path[0], 0) + 1
    assert len(groups) == 2 and sum(groups.values()) == 26 and max(groups.values()) <= 25


def test_one_views() -> None:
    state = start1()
    assert state.view(None).hand == [] and len(state.view(1).hand) == 26
    text = "\n".join(state.view(0).text_lines())
    assert "Total: 0" in text and "To play: Ann" in text and "Race 1 of 2" in text


def test_one_match_alternates_and_counts_races() -> None:
    state = play_match(wr1.GAME, AB, {"rounds": 2, "first_dealer": 2}, seed=4)
    starts = [e.text.split(": ")[1] for e in state.log if e.kind == "deal"]
    assert starts == ["Ben goes first.", "Ann goes first.", "Ben goes first.", "Ann goes first."]
    assert state.outcome is not None and 0 < sum(state.outcome.scores) <= 4
    assert "Races won out of 4" in state.outcome.notes[0]


def test_one_perfect_starter_always_wins() -> None:
    """Against random replies, a starter following the solver wins every race (opening 8 or 9)."""
    rng = random.Random(2)
    for seed in range(15):
        state = start1({"rounds": 1, "first_dealer": 1 + seed % 2})
        while not state.is_over:
            seat = next(iter(state.awaiting()))
            legal = state.legal_actions(seat)
            if seat == state.dealer:
                mine, theirs = wr1.value_counts(state.hands[seat]), wr1.value_counts(state.hands[1 - seat])
                good = wr1.winning_plays(state.total, mine, theirs)
                legal = [a for a in legal if wr1.card_value(a.card) in good]  # type: ignore[arg-type]
            state.apply(seat, rng.choice(legal))
        assert state.scores == [1, 1]


def test_one_setup_refusals() -> None:
    with pytest.raises(SetupError, match="2 players"):
        wr1.GAME.start(["a", "b", "c"])
    with pytest.raises(SetupError, match="stalemate"):
        wr1.GAME.options({"stalemate": "sudden_death"})
    with pytest.raises(SetupError, match="rounds"):
        wr1.GAME.options({"rounds": 0})


# Wit and Reason (II)


def test_two_menu_offers_one_card_per_value() -> None:
    state = start2()
    legal = state.legal_actions(0)
    assert [wr2.card_value(a.card) for a in legal] == [1, 2, 3, 4, 5, 6]  # type: ignore[arg-type]
    assert len(state.pool) == 24 and state.hands == [[], []]


def test_two_dudeney_trap_line() -> None:
    state = start2()
    for i, value in enumerate([3, 4, 3, 3, 4, 4, 3, 4]):
        take2(state, i % 2, value)
    assert state.total == 28
    assert [wr2.card_value(a.card) for a in state.legal_actions(0)] == [1, 2]  # type: ignore[arg-type]
    take2(state, 0, 1)
    take2(state, 1, 2)
    assert state.scores == [0, 1] and state.deal_no == 2


def test_two_stuck_player_loses() -> None:
    state = start2()
    for i, value in enumerate([1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4]):
        take2(state, i % 2, value)
    # 28, and only 4s, 5s and 6s are left: Ben cannot take a card and loses
    assert state.scores == [1, 0] and state.deal_no == 2
    assert any("cannot take a card" in e.text for e in state.log)


def test_two_refusals() -> None:
    state = start2()
    offered = state.legal_actions(0)[2].card
    assert offered is not None
    twin = next(c for c in state.pool if wr2.card_value(c) == 3 and c != offered)
    assert "Suits do not matter" in refused(state, 0, PlayCard(play=twin))
    take2(state, 0, 3)
    assert "not on the table" in refused(state, 1, PlayCard(play=offered))
    for i, value in enumerate([6, 6, 6, 6, 1]):
        take2(state, (i + 1) % 2, value)
    assert state.total == 28
    four = next(c for c in state.pool if wr2.card_value(c) == 4)
    assert "past 31" in refused(state, 0, PlayCard(play=four))


def test_two_view_shows_the_pool() -> None:
    state = start2()
    take2(state, 0, 5)
    view = state.view(None)
    assert len(view.pool) == 23 and view.hand == []
    text = "\n".join(view.text_lines())
    assert "On the table: 1×4, 2×4, 3×4, 4×4, 5×3, 6×4" in text and "Total: 5" in text


def test_two_perfect_starter_always_wins() -> None:
    rng = random.Random(3)
    for seed in range(15):
        state = start2({"first_dealer": 1 + seed % 2})
        while not state.is_over:
            seat = next(iter(state.awaiting()))
            legal = state.legal_actions(seat)
            if seat == state.dealer:
                good = wr2.winning_takes(state.total, wr2.pool_counts(state.pool))
                legal = [a for a in legal if wr2.card_value(a.card) in good]  # type: ignore[arg-type]
            state.apply(seat, rng.choice(legal))
        assert state.scores == [1, 1]


# random playouts


@pytest.mark.parametrize("options", [{}, {"stalemate": "last_player_wins", "rounds": 2}])
def test_one_playouts(options: dict[str, Any]) -> None:
    run_playouts(wr1.GAME, 2, options, matches=30, deep_every=4)


@pytest.mark.parametrize("options", [{}, {"rounds": 3}])
def test_two_playouts(options: dict[str, Any]) -> None:
    run_playouts(wr2.GAME, 2, options, matches=30, deep_every=4)


@pytest.mark.parametrize(("game", "options"), [(wr1.GAME, {}), (wr1.GAME, {"stalemate": "last_player_wins"}), (wr2.GAME, {})])
def test_many_quick_matches(game: Any, options: dict[str, Any]) -> None:
    """Many whole matches without the per-position checks: every race ends with a winner or a draw."""
    for seed in range(500):
        state = play_match(game, 2, options, seed=seed)
        assert isinstance(state, wr1.WitAndReason1State | wr2.WitAndReason2State)
        out = state.outcome
        assert out is not None and state.deals_played() == 2
        assert sum(out.scores) == sum(1 for e in state.log if e.kind == "race_won")
        assert sum(out.scores) + sum(1 for e in state.log if e.kind == "stalemate") == 2


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_many_playouts(seed: int) -> None:
    run_playouts(wr1.GAME, 2, {"rounds": 2}, matches=150, seed=seed, deep_every=3)
    run_playouts(wr2.GAME, 2, {"rounds": 2}, matches=150, seed=seed, deep_every=3)

