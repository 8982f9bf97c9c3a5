"""Benchmark (not a test): win shares of the bot levels against each other.

    .venv/bin/python -m tests.bench.bench_bots [--matches 200] [--game ID] [--players N] [--seed 0]

For each game in ``GAMES`` (with the player count given there) it plays three contests with the
seats rotating every match: strong against random, strong against easy, easy against random. The
first level named holds one seat, the other level the rest. It prints the first level's win share
(ties split), the fair share (one seat's worth), the 95% Wilson interval, the CPU time taken, and
the time the first level took per move (median and 99th percentile, CPU time of its own thread:
on one core, whatever else the machine runs).

``--vulcan`` instead times Parity's ``vulcan`` calls (trump and target) over fresh deals, with and
without the no-trump option.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from typing import Any

from games.engine import Action, View
from games.players import Player
from games.registry import get_game
from games.simulate import contest, wilson_interval

GAMES: list[tuple[str, int]] = [
    # (game id, players); other helpers add their games here
    ("caterpillar", 2),
    ("fifty_one", 3),
    ("hundred", 2),
    ("hundred", 3),
    ("jubilee", 2),
    ("jubilee", 3),
    ("ninety_nine", 3),
    ("ninety_nine", 4),
    ("obstacle_race", 2),
    ("obstacle_race", 3),
    ("twenty_nine", 2),
    ("twenty_nine", 4),
    ("wit_and_reason_1", 2),
    ("wit_and_reason_2", 2),
    ("hoodwink", 3),
    ("parity_for_three", 3),
    ("spec", 2),
    ("spec", 3),
    ("costly_colours", 2),
    ("parity", 2),
]

PAIRINGS: list[tuple[str, str]] = [("strong", "random"), ("strong", "easy"), ("easy", "random")]


class Timed:
    """A player that records how long each of its moves took (CPU time of the thread)."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.name = player.name
        self.times: list[float] = []

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        start = time.thread_time()
        try:
            return self.player.choose(view, legal, rng)
        finally:
            self.times.append(time.thread_time() - start)


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def row(game_id: str, players: int, first: str, rest: str, matches: int, seed: int) -> str:
    seats = [first] + [rest] * (players - 1)
    timed: list[Timed] = []

    def wrap(level: str, player: Player) -> Player:
        if level != first:
            return player
        t = Timed(player)
        timed.append(t)
        return t

    start = time.process_time()
    report = contest(get_game(game_id), matches, seats, seed=seed, wrap=wrap)
    seconds = time.process_time() - start
    share = report.results[first].share(matches)
    low, high = wilson_interval(share, matches)
    fair = 1 / players
    moves = [t for p in timed for t in p.times]
    return (
        f"{game_id:<18} {players:>2} {first + ' v ' + rest:<17} {matches:>6} {share:>7.3f} "
        f"[{low:.3f}, {high:.3f}] {fair:>6.3f} {seconds:>7.1f} "
        f"{1000 * percentile(moves, 0.5):>7.1f} {1000 * percentile(moves, 0.99):>7.1f}"
    )


def vulcan_calls(deals: int, seed: int) -> None:
    """Time ``vulcan``'s trump and target calls over fresh deals, per option set."""
    from games.players import bot_player

    game = get_game("parity")
    player = bot_player("parity", "vulcan")
    for options in ({}, {"no_trump": True}):
        times: list[float] = []
        for i in range(deals):
            state: Any = game.start(["A", "B"], options, seed=seed + i)
            rng = random.Random(seed + i)
            while state.phase != "play" and not state.is_over:
                seat = min(state.awaiting())
                begin = time.thread_time()
                action = player.choose(state.view(seat), state.legal_actions(seat), rng)
                times.append(time.thread_time() - begin)
                state.apply(seat, action)
        print(
            f"vulcan calls {options or 'standard'}: {len(times)} calls, median {percentile(times, 0.5):.3f} s, "
            f"p99 {percentile(times, 0.99):.3f} s, max {max(times):.3f} s",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=200, help="matches per contest")
    parser.add_argument("--game", default=None)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pairing", default=None, help="only this contest, e.g. strong,easy")
    parser.add_argument("--vulcan", type=int, default=0, metavar="DEALS", help="time vulcan's calls instead")
    args = parser.parse_args()
    if args.vulcan:
        vulcan_calls(args.vulcan, args.seed)
        return
    games = [(g, n) for g, n in GAMES if args.game in (None, g) and args.players in (None, n)]
    pairings = PAIRINGS if args.pairing is None else [tuple(args.pairing.split(",", 1))]
    print(
        f"{'game':<18} {'n':>2} {'contest':<17} {'matches':>6} {'share':>7} {'95% interval':<16} "
        f"{'fair':>6} {'cpu s':>7} {'ms/move':>7} {'p99 ms':>7}"
    )
    for game_id, players in games:
        for first, rest in pairings:
            print(row(game_id, players, first, rest, args.matches, args.seed), flush=True)


if __name__ == "__main__":
    main()
