"""The protocol itself, on the toy game: refusals, optional acts, replay and the random-playout harness."""

import contextlib
import copy
import dataclasses
import random
from typing import Any

import pytest
from pydantic import BaseModel

from games.engine import Action, Game, GameState, IllegalAction, PlayCard, SetupError
from games.registry import all_games, referee_game
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


# --- clone(), for every game ---------------------------------------------------------------------


def _every_state_kind() -> list[Game[Any]]:
    """Every game of the catalogue and its referee mode (entries typed in as people play)."""
    out = list(all_games())
    for game in all_games():
        with contextlib.suppress(SetupError):
            out.append(referee_game(game.id))
    return out


def _mutables(obj: Any, found: dict[int, Any]) -> None:
    """Every mutable object reachable from ``obj`` (kept alive in ``found``, keyed by ``id``);
    frozen dataclasses and models are immutable by contract, and shared."""
    unfrozen = dataclasses.is_dataclass(obj) and not type(obj).__dataclass_params__.frozen  # type: ignore[attr-defined]
    if isinstance(obj, (list, dict, set, random.Random, GameState)) or unfrozen:
        if id(obj) in found:
            return
        found[id(obj)] = obj
    if isinstance(obj, dict):
        for k, v in obj.items():
            _mutables(k, found)
            _mutables(v, found)
    elif isinstance(obj, (list, tuple, set, frozenset)):
        for v in obj:
            _mutables(v, found)
    elif isinstance(obj, GameState) or unfrozen:
        for v in vars(obj).values():
            _mutables(v, found)
    elif isinstance(obj, BaseModel):
        assert type(obj).model_config.get("frozen"), f"a state holds a mutable {type(obj).__name__}"


def _seen(state: GameState[Any]) -> tuple[Any, ...]:
    """What the rest of Parlour sees of a state: everything it holds, its views, its menus."""
    seats = range(state.n)
    views = [state.view(s) for s in [None, *seats]]
    return state.fingerprint(), views, [state.legal_actions(s) for s in seats], state.awaiting()


def _play_random(state: GameState[Any], rng: random.Random, steps: int) -> list[tuple[int, Action]]:
    played = []
    for _ in range(steps):
        if state.is_over:
            break
        seat = rng.choice(state.actors())
        action = rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
        played.append((seat, action))
    return played


@pytest.mark.parametrize("game", _every_state_kind(), ids=lambda g: f"{g.id}-{g.state_cls.__name__}")
def test_a_clone_is_independent_and_plays_the_same(game: Game[Any]) -> None:
    """Clones taken at random points of random matches: playing on one leaves the original as it
    was; the same actions on both give equal states; nothing mutable is shared between them."""
    rng = random.Random(game.id)
    clones = 0
    fewest = game.player_counts[0]
    for players in [*game.player_counts, fewest, fewest]:
        state = game.start([f"P{i + 1}" for i in range(players)], seed=rng.randrange(2**32))
        while not state.is_over and state.turn < 120:
            if state.turn == 0 or rng.random() < 0.1:
                before = _seen(state)
                twin = state.clone()
                assert type(twin) is type(state) and _seen(twin) == before
                ours: dict[int, Any] = {}
                theirs: dict[int, Any] = {}
                _mutables(state, ours)
                _mutables(twin, theirs)
                assert not ours.keys() & theirs.keys(), "the clone shares a mutable object with the original"
                played = _play_random(twin, rng, rng.randrange(1, 15))
                assert _seen(state) == before, "playing on the clone changed the original"
                for seat, action in played:
                    state.apply(seat, action)
                assert _seen(state) == _seen(twin), "the same actions gave different states"
                clones += 1
            _play_random(state, rng, 1)
    assert clones >= 3


def test_deepcopy_is_a_clone() -> None:
    state = TOY.start(["Ann", "Bob"], {"first_dealer": 1}, seed=3)
    twin = copy.deepcopy(state)
    assert twin.fingerprint() == state.fingerprint() and twin.rng is not state.rng
    assert twin.hands is not state.hands and twin.hands[0] is not state.hands[0]
    holder = copy.deepcopy({"a": state, "b": state})
    assert holder["a"] is holder["b"], "deepcopy's memo keeps two references to one state as one"


def test_a_refused_option_says_what_it_must_be_and_what_was_given() -> None:
    """Each option refused is named with what it must be, in our words, and what was typed."""
    from games.engine import SetupError
    from games.registry import get_game

    cases = {
        ("first_dealer=99",): "first_dealer must be at most 13 (you gave '99')",
        ("rounds=0",): "rounds must be at least 1 (you gave '0')",
        ("rounds=two",): "rounds must be a whole number (you gave 'two')",
        ("second_point_200=maybe",): "second_point_200 must be yes or no (true/false, on/off) (you gave 'maybe')",
        ("first_dealer=0", "rounds=x"): "first_dealer must be at least 1 (you gave '0'); rounds must be a whole number",
    }
    for pairs, said in cases.items():
        with pytest.raises(SetupError) as refused:
            get_game("hundred").parse_options(pairs)
        assert str(refused.value).startswith("Invalid options: " + said), str(refused.value)
    with pytest.raises(SetupError, match=r"values must be one of 'penguin' or 'german' \(you gave 'swiss'\)\.$"):
        get_game("fifty_one").parse_options(["values=swiss"])
