"""Benchmark (not a test): win shares of the bot levels against each other.

    .venv/bin/python -m tests.bench.bench_bots [--matches 200] [--game ID] [--players N] [--seed 0]

For each game in ``GAMES`` (with the player count given there) it plays three contests with the
seats rotating every match: strong against random, strong against easy, easy against random. The
first level named holds one seat, the other level the rest. It prints the first level's win share
(ties split), the fair share (one seat's worth), the 95% Wilson interval, and the CPU time taken.
"""

from __future__ import annotations

import argparse
import time

from games.registry import get_game
from games.simulate import contest, wilson_interval

GAMES: list[tuple[str, int]] = [
    # (game id, players); other helpers add their games here
    ("caterpillar", 2),
    ("fifty_one", 3),
    ("hundred", 2),
    ("jubilee", 2),
    ("jubilee", 3),
    ("ninety_nine", 3),
    ("obstacle_race", 2),
    ("twenty_nine", 2),
    ("twenty_nine", 4),
    ("wit_and_reason_1", 2),
    ("wit_and_reason_2", 2),
    ("hoodwink", 3),
    ("parity_for_three", 3),
    ("spec", 2),
    ("spec", 3),
]

PAIRINGS: list[tuple[str, str]] = [("strong", "random"), ("strong", "easy"), ("easy", "random")]


def row(game_id: str, players: int, first: str, rest: str, matches: int, seed: int) -> str:
    seats = [first] + [rest] * (players - 1)
    start = time.process_time()
    report = contest(get_game(game_id), matches, seats, seed=seed)
    seconds = time.process_time() - start
    share = report.results[first].share(matches)
    low, high = wilson_interval(share, matches)
    fair = 1 / players
    return (
        f"{game_id:<18} {players:>2} {first + ' v ' + rest:<17} {matches:>6} {share:>7.3f} "
        f"[{low:.3f}, {high:.3f}] {fair:>6.3f} {seconds:>7.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=200, help="matches per contest")
    parser.add_argument("--game", default=None)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    games = [(g, n) for g, n in GAMES if args.game in (None, g) and args.players in (None, n)]
    print(f"{'game':<18} {'n':>2} {'contest':<17} {'matches':>6} {'share':>7} {'95% interval':<16} {'fair':>6} {'cpu s':>7}")
    for game_id, players in games:
        for first, rest in PAIRINGS:
            print(row(game_id, players, first, rest, args.matches, args.seed), flush=True)


if __name__ == "__main__":
    main()
