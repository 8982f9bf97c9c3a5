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
from collections.abc import Callable, Mapping, Sequence
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


def quantiles(times: list[float]) -> tuple[float, float]:
    """The p99 and the max of some move times (zeros for none)."""
    ordered = sorted(times)
    return (ordered[int(0.99 * (len(ordered) - 1))], ordered[-1]) if ordered else (0.0, 0.0)


def play_duel(
    game_id: str,
    players: int,
    hero: Timed,
    rival: Callable[[], Any],
    matches: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    every: int = 0,
    timed_rival: Timed | None = None,
    names: tuple[str, str] = ("one", "two"),
) -> dict[str, float]:
    """Play the matches, ``hero`` in seat ``i % players`` of match ``i`` and ``rival()`` in each
    other seat; with ``every``, print the running share and margin that often (and both sides'
    move times, under ``names``, where the rival is ``timed_rival``)."""
    game = get_game(game_id)
    n = players
    wins, margin = 0.0, 0.0
    for i in range(matches):
        mine = i % n
        seats: list[Any] = [rival() for _ in range(n)]
        seats[mine] = hero
        state = play_match(game, n, options, seed + i, seats)
        assert state.outcome is not None
        winners = state.outcome.winners
        if mine in winners:
            wins += 1 / len(winners)
        scores = state.outcome.scores
        margin += scores[mine] - sum(scores[s] for s in range(n) if s != mine) / (n - 1)
        if every and (i + 1) % every == 0:
            low, high = wilson_interval(wins / (i + 1), i + 1)
            line = f"  after {i + 1}: {wins / (i + 1):.3f} [{low:.2f}, {high:.2f}], {margin / (i + 1):+.1f} a match"
            if timed_rival is not None:
                (p99, top), (rp99, rtop) = quantiles(hero.times), quantiles(timed_rival.times)
                (cpu99, cpu_top), (rcpu99, rcpu_top) = quantiles(hero.cpu), quantiles(timed_rival.cpu)
                line += (
                    f"; {names[0]} p99/max {p99:.0f}/{top:.0f} ms (CPU {cpu99:.0f}/{cpu_top:.0f}), "
                    f"{names[1]} p99/max {rp99:.0f}/{rtop:.0f} ms (CPU {rcpu99:.0f}/{rcpu_top:.0f})"
                )
            print(line, flush=True)
    share = wins / matches
    low, high = wilson_interval(share, matches)
    (p99, top), (cpu99, cpu_top) = quantiles(hero.times), quantiles(hero.cpu)
    result = {
        "share": share, "low": low, "high": high, "margin": margin / matches,
        "p99": p99, "max": top, "cpu_p99": cpu99, "cpu_max": cpu_top,
    }
    if timed_rival is not None:
        (rp99, rtop), (rcpu99, rcpu_top) = quantiles(timed_rival.times), quantiles(timed_rival.cpu)
        result |= {"two_p99": rp99, "two_max": rtop, "two_cpu_p99": rcpu99, "two_cpu_max": rcpu_top}
    return result


def duel(
    game_id: str, one: str, two: str, matches: int, seed: int, samples: int = 60, every: int = 0
) -> dict[str, float]:
    """Play the matches at three, each other seat a fresh ``two``; with ``every``, print the
    running share and margin that often."""
    hero = Timed(player(game_id, one, samples))
    return play_duel(game_id, 3, hero, lambda: player(game_id, two, samples), matches, seed, every=every)


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
