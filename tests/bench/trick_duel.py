"""One player against the others in a three-hand trick game, seats rotating: the share of matches
won (95% Wilson interval), the points a match ahead of the others' mean, and the move times of the one.

    nice -n 19 .venv/bin/python -m tests.bench.trick_duel --game parity_for_three --one mc --two strong --matches 300 --seed 990000

``mc`` is the determinized Monte Carlo player of ``tests/bench/trick_mc.py`` (Hoodwink's is
``tests/bench/hoodwink_mc.py``); the others are the
shipped levels (``strong:budget=200`` builds a strong player with other settings where the game's
strong class takes them). Fair share at three is 1/3.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from typing import Any

from games.engine import Action, View
from games.players import Player
from games.registry import declaration, get_game, resolve
from games.simulate import play_match, seat_policies, wilson_interval
from tests.bench.hoodwink_mc import MonteCarloHoodwinkPlayer
from tests.bench.trick_mc import monte_carlo_player


class Timed:
    """A player whose decisions are timed (milliseconds, every choice with more than one option):
    wall-clock time, which a loaded machine stretches, and the thread's own CPU time, which it
    does not."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.name = inner, getattr(inner, "name", "?")
        self.times: list[float] = []
        self.cpu: list[float] = []

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        start, cpu = time.perf_counter(), time.thread_time()
        out = self.inner.choose(view, legal, rng)
        if len(legal) > 1:
            self.times.append(1000 * (time.perf_counter() - start))
            self.cpu.append(1000 * (time.thread_time() - cpu))
        return out  # type: ignore[no-any-return]


def _setting(text: str) -> int | float | str:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def player(game_id: str, level: str, samples: int) -> Player:
    """A level by name; ``strong:noise=1,bid_samples=30`` builds a strong player with other settings."""
    if level == "mc" and game_id == "hoodwink":
        return MonteCarloHoodwinkPlayer(samples)  # type: ignore[return-value]
    if level == "mc":
        return monte_carlo_player(game_id, samples)  # type: ignore[return-value]
    name, _, settings = level.partition(":")
    if settings:
        kwargs = {k: _setting(v) for k, v in (p.split("=") for p in settings.split(","))}
        return type(resolve(declaration(game_id).bots[name]))(**kwargs)  # type: ignore[no-any-return]
    return seat_policies(game_id, [level])[0]


def duel(
    game_id: str, one: str, two: str, matches: int, seed: int, samples: int = 60, every: int = 0
) -> dict[str, float]:
    """Play the matches; with ``every``, print the running share and margin that often."""
    game = get_game(game_id)
    n = 3
    hero = Timed(player(game_id, one, samples))
    wins, margin = 0.0, 0.0
    for i in range(matches):
        mine = i % n
        seats: list[Any] = [player(game_id, two, samples) for _ in range(n)]
        seats[mine] = hero
        state = play_match(game, n, None, seed + i, seats)
        assert state.outcome is not None
        winners = state.outcome.winners
        if mine in winners:
            wins += 1 / len(winners)
        scores = state.outcome.scores
        margin += scores[mine] - sum(scores[s] for s in range(n) if s != mine) / (n - 1)
        if every and (i + 1) % every == 0:
            low, high = wilson_interval(wins / (i + 1), i + 1)
            print(f"  after {i + 1}: {wins / (i + 1):.3f} [{low:.2f}, {high:.2f}], {margin / (i + 1):+.1f} a match", flush=True)
    times, cpu = sorted(hero.times), sorted(hero.cpu)
    share = wins / matches
    low, high = wilson_interval(share, matches)
    return {
        "share": share,
        "low": low,
        "high": high,
        "margin": margin / matches,
        "p99": times[int(0.99 * (len(times) - 1))] if times else 0.0,
        "max": times[-1] if times else 0.0,
        "cpu_p99": cpu[int(0.99 * (len(cpu) - 1))] if cpu else 0.0,
        "cpu_max": cpu[-1] if cpu else 0.0,
    }


def main(game: str = "parity_for_three", seed: int = 990000) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default=game)
    parser.add_argument("--one", required=True)
    parser.add_argument("--two", required=True)
    parser.add_argument("--matches", type=int, default=90)
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--every", type=int, default=0, help="print the running figures every N matches")
    args = parser.parse_args()
    r = duel(args.game, args.one, args.two, args.matches, args.seed, args.samples, args.every)
    print(
        f"{args.game} {args.one} v two {args.two}: {r['share']:.3f} [{r['low']:.2f}, {r['high']:.2f}] of "
        f"{args.matches} matches (seeds {args.seed}..{args.seed + args.matches - 1}), "
        f"{r['margin']:+.1f} points a match; {args.one} moves p99 {r['p99']:.0f} ms, max {r['max']:.0f} ms "
        f"(CPU p99 {r['cpu_p99']:.0f} ms, max {r['cpu_max']:.0f} ms)",
        flush=True,
    )


if __name__ == "__main__":
    main()
