"""The protocol itself, on the toy game: refusals, optional acts, replay and the random-playout harness."""

import pytest

from games.engine import IllegalAction, PlayCard, SetupError
from tests.bot.toy_game import TOY, Knock
from tests.playout import run_playouts


def test_random_playouts_of_the_toy_game() -> None:
    for players in (2, 3):
        finals = run_playouts(TOY, players, matches=50)
        assert all(sum(s.outcome.scores) == 12 for s in finals if s.outcome)


def test_refusals_change_nothing() -> None:
    state = TOY.start(["Ann", "Bob"], {"first_dealer": 2}, seed=3)
    before = state.fingerprint()
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(1, PlayCard(play=state.hands[1][0]))
    with pytest.raises(IllegalAction, match="cannot"):
        state.apply(0, PlayCard(play=state.hands[1][0]))
    assert state.fingerprint() == before


def test_optional_act_by_a_seat_not_awaited() -> None:
    state = TOY.start(["Ann", "Bob"], {"first_dealer": 1}, seed=3)
    assert state.awaiting() == {1}
    assert state.actors() == [0, 1]
    state.apply(0, Knock())
    assert state.actors() == [1]


def test_options_and_player_counts_are_checked() -> None:
    with pytest.raises(SetupError, match="no option 'colour'"):
        TOY.parse_options(["colour=red"])
    with pytest.raises(SetupError, match="for 2, 3 players|for 2-3|not 4"):
        TOY.start(["a", "b", "c", "d"])
    with pytest.raises(SetupError, match="first_dealer"):
        TOY.start(["a", "b"], {"first_dealer": 3})


def test_actions_round_trip_through_json() -> None:
    action = PlayCard(play="QS")  # type: ignore[arg-type]
    assert TOY.action_from_json(TOY.action_to_json(action)) == action
    assert TOY.action_from_json('{"kind": "knock"}') == Knock()
