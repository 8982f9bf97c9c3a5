"""Benchmark (not a test): random play of every game at every player count.

    .venv/bin/python -m tests.bench.bench_games [--seconds 2] [--game ID]

Prints, per game and player count, microseconds per action and whole matches per second.
"""

from __future__ import annotations

import argparse
import time

from games.registry import all_games, get_game
from games.simulate import play_match


def bench(game_id: str, players: int, seconds: float) -> tuple[int, int, float]:
    game = get_game(game_id)
    matches = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or matches == 0:
        state = play_match(game, players, seed=matches)
        matches += 1
        actions += state.turn
    return matches, actions, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=2.0, help="time per game and player count")
    parser.add_argument("--game", default=None)
    args = parser.parse_args()
    games = [get_game(args.game)] if args.game else all_games()
    print(f"{'game':<18} {'players':>7} {'matches':>8} {'actions':>9} {'us/action':>10} {'matches/s':>10}")
    for g in games:
        for n in g.player_counts:
            m, a, s = bench(g.id, n, args.seconds)
            print(f"{g.id:<18} {n:>7} {m:>8} {a:>9} {1e6 * s / a:>10.1f} {m / s:>10.1f}")


if __name__ == "__main__":
    main()
