"""Benchmark (not a test): how fast ``GameState.clone()`` copies a state, as ratios.

    .venv/bin/python -m tests.bench.bench_clone [--positions 12] [--rounds 15] [--game ID]

For each game (at its smallest player count) it rebuilds states at positions spread through a
few random matches and times three ways of copying each one, in interleaved rounds (the best
round of each counts, to keep other processes' noise out):

* ``clone()``, the protocol's one copy;
* the hand-written copy the game had before ``clone()`` existed (kept below, for this comparison
  only: five ``__deepcopy__`` overrides, each sharing what its own game knew to be immutable);
* Python's generic ``copy.deepcopy`` of the state's attributes, which knows nothing of that.

Absolute times depend on the machine and its load; the table prints ratios: ``old/clone`` above 1
means the clone is faster than the old helper, ``deepcopy/clone`` how many times faster the clone
is than a generic deep copy.
"""

from __future__ import annotations

import argparse
import copy
import random
import time
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from games.cards import Card
from games.engine import Action, Event, Game, GameState, Outcome
from games.registry import all_games, get_game
from games.simulate import play_match
from games.tricks import Trick

# --- the copy helpers clone() replaced, as they were --------------------------------------------


def _rng(value: random.Random) -> random.Random:
    rng = random.Random()
    rng.setstate(value.getstate())
    return rng


def _parity_value(value: Any) -> Any:  # parity.py's fresh_copy (Parity, Parity for Three)
    if isinstance(value, list):
        return [_parity_value(v) for v in value] if value and isinstance(value[0], list) else list(value)
    if isinstance(value, Trick):
        return Trick(value.leader, list(value.plays))
    if isinstance(value, random.Random):
        return _rng(value)
    return value


def _hoodwink_value(value: Any) -> Any:  # hoodwink.py's _clone
    if isinstance(value, list):
        return [list(v) for v in value] if value and isinstance(value[0], list) else list(value)
    if isinstance(value, Trick):
        return Trick(value.leader, list(value.plays))
    if isinstance(value, random.Random):
        return _rng(value)
    return value


def _spec_value(name: str, value: Any) -> Any:  # spec.py's _copy, with its hand-kept _NESTED
    if isinstance(value, list):
        return [v[:] for v in value] if name in ("won", "fixed_decks", "deal_results") else value[:]
    if isinstance(value, random.Random):
        twin = random.Random(0)
        twin.setstate(value.getstate())
        return twin
    return value


def _costly_value(value: Any) -> Any:  # costly_colours.py's _clone
    if isinstance(value, list):
        return [_costly_value(v) for v in value]
    if isinstance(value, dict):
        return {k: _costly_value(v) for k, v in value.items()}
    if isinstance(value, random.Random):
        return _rng(value)
    return value


_IMMUTABLE = (int, str, float, bool, type(None), Card, Event, Action, Outcome, frozenset)
_SHARED: dict[type, bool] = {}


def _counting_value(value: Any, memo: dict[int, Any]) -> Any:  # counting.py's _copy_value
    kind = type(value)
    shared = _SHARED.get(kind)
    if shared is None:
        shared = issubclass(kind, _IMMUTABLE) or (
            issubclass(kind, BaseModel) and bool(kind.model_config.get("frozen"))
        )
        _SHARED[kind] = shared
    if shared:
        return value
    found = memo.get(id(value))
    if found is not None:
        return found
    out: Any
    if kind is list:
        out = []
        memo[id(value)] = out
        out.extend(_counting_value(v, memo) for v in value)
    elif kind is dict:
        out = {}
        memo[id(value)] = out
        for k, v in value.items():
            out[k] = _counting_value(v, memo)
    elif kind is tuple:
        out = tuple(_counting_value(v, memo) for v in value)
    elif kind is set:
        out = {_counting_value(v, memo) for v in value}
    elif isinstance(value, random.Random):
        out = _rng(value)
    else:
        out = copy.deepcopy(value, memo)
    memo[id(value)] = out
    return out


def old_copy(game_id: str, state: GameState[Any]) -> GameState[Any]:
    twin = object.__new__(type(state))
    items = vars(state).items()
    if game_id in ("parity", "parity_for_three"):
        twin.__dict__.update({k: _parity_value(v) for k, v in items})
    elif game_id == "hoodwink":
        twin.__dict__.update({k: _hoodwink_value(v) for k, v in items})
    elif game_id == "spec":
        twin.__dict__.update({k: _spec_value(k, v) for k, v in items})
    elif game_id == "costly_colours":
        twin.__dict__.update({k: list(v) if k in ("log", "history") else _costly_value(v) for k, v in items})
    else:  # the adding-up games and Caterpillar (CountingState)
        memo: dict[int, Any] = {id(state): twin}
        twin.__dict__.update(
            {k: list(v) if k in ("log", "history") else _counting_value(v, memo) for k, v in items}
        )
    return twin


# --- the measurement ----------------------------------------------------------------------------


def positions(game: Game[Any], count: int, matches: int = 3) -> list[GameState[Any]]:
    """``count`` states spread evenly through ``matches`` random matches (replayed to each point)."""
    players = game.player_counts[0]
    out: list[GameState[Any]] = []
    per_match = max(1, count // matches)
    for m in range(matches):
        record = game.record(play_match(game, players, seed=1000 + m))
        total = len(record.actions)
        for k in range(per_match):
            cut = total * (k + 1) // (per_match + 1)
            out.append(game.replay(record.model_copy(update={"actions": record.actions[:cut]})))
    return out


def best_times(ways: dict[str, Callable[[], object]], rounds: int, repeat: int) -> dict[str, float]:
    """The best round of each way, rounds interleaved so that a burst of load hits all alike."""
    best = dict.fromkeys(ways, float("inf"))
    for _ in range(rounds):
        for name, fn in ways.items():
            start = time.perf_counter()
            for _ in range(repeat):
                fn()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def bench(game: Game[Any], count: int, rounds: int) -> tuple[int, float, float, float]:
    """(positions, mean log length, old helper / clone, generic deepcopy / clone)."""
    states = positions(game, count)
    totals = {"clone": 0.0, "old": 0.0, "deepcopy": 0.0}
    for state in states:
        attributes = vars(state)
        ways: dict[str, Callable[[], object]] = {
            "clone": state.clone,
            "old": lambda s=state: old_copy(game.id, s),
            "deepcopy": lambda a=attributes: copy.deepcopy(a),
        }
        fast = best_times({k: ways[k] for k in ("clone", "old")}, rounds, 20)
        slow = best_times({"deepcopy": ways["deepcopy"]}, max(3, rounds // 5), 2)
        totals["clone"] += fast["clone"] / 20
        totals["old"] += fast["old"] / 20
        totals["deepcopy"] += slow["deepcopy"] / 2
    mean_log = sum(len(s.log) for s in states) / len(states)
    return len(states), mean_log, totals["old"] / totals["clone"], totals["deepcopy"] / totals["clone"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=12, help="states per game")
    parser.add_argument("--rounds", type=int, default=15, help="interleaved timing rounds per state")
    parser.add_argument("--game", default=None)
    args = parser.parse_args()
    games = [get_game(args.game)] if args.game else all_games()
    print(f"{'game':<18} {'positions':>9} {'mean log':>9} {'old/clone':>10} {'deepcopy/clone':>15}")
    for g in games:
        n, mean_log, vs_old, vs_deepcopy = bench(g, args.positions, args.rounds)
        print(f"{g.id:<18} {n:>9} {mean_log:>9.0f} {vs_old:>9.2f}x {vs_deepcopy:>14.1f}x")


if __name__ == "__main__":
    main()
