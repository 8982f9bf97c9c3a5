"""Benchmark (not a test): the Parity solver on random deals.

    .venv/bin/python -m tests.bench.bench_parity_solver [--deals 200] [--seed 1] [--no-trump-share 0.2]

For each random deal (random trumps, or no-trump for a share of them; random target; random
leader), with an empty transposition table each time:

* the exact value of the whole deal from the opening lead (target: median <= 100 ms, max <= 1 s);
* the best move in a mid-game position, reached by random legal play of 3 to 10 tricks and
  sometimes half a trick more (target: <= 50 ms); and, for comparison, in an early position after
  two tricks, which is nearly a whole deal;
* the exact value of every opening lead (target: <= 2 s);

then the peak memory (tracemalloc) of a full-deal solve over the first deals (target: < 50 MB).
Times are CPU seconds of this process (``time.process_time``), the fair measure of one core on a
shared machine; wall-clock medians are printed too.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable
from functools import partial
from typing import Any

from games.cards import SUITS, Card
from games.parity import Parity, ParityOptions, legal_follows, parity_pack
from games.players.parity_solver import ParitySolver, PlayPosition


def random_deal(rng: random.Random, no_trump_share: float) -> PlayPosition:
    pack = parity_pack(ParityOptions())
    rng.shuffle(pack)
    trump = None if rng.random() < no_trump_share else rng.choice(SUITS)
    return PlayPosition(
        hands=(tuple(pack[:15]), tuple(pack[15:])),
        trick=(),
        leader=rng.randrange(2),
        tricks_won=(0, 0),
        trump=trump,
        target=rng.choice(list(Parity)),
    )


def random_play(pos: PlayPosition, rng: random.Random, tricks: int, half: bool) -> PlayPosition:
    """The position after ``tricks`` tricks of random legal play (and a lead more with ``half``)."""
    rules = pos.rules
    hands = [list(pos.hands[0]), list(pos.hands[1])]
    leader, won = pos.leader, list(pos.tricks_won)
    for _ in range(tricks):
        lead = rng.choice(hands[leader])
        hands[leader].remove(lead)
        follower = 1 - leader
        answer = rng.choice(legal_follows(rules, hands[follower], lead, {}))
        hands[follower].remove(answer)
        leader = rules.winner([(leader, lead), (follower, answer)])
        won[leader] += 1
    trick: tuple[tuple[int, Card], ...] = ()
    if half:
        lead = rng.choice(hands[leader])
        hands[leader].remove(lead)
        trick = ((leader, lead),)
    return PlayPosition(
        hands=(tuple(hands[0]), tuple(hands[1])),
        trick=trick,
        leader=leader,
        tricks_won=(won[0], won[1]),
        trump=pos.trump,
        target=pos.target,
    )


def timed(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn()
    return time.process_time() - cpu, time.perf_counter() - wall, out


def summary(name: str, cpu: list[float], wall: list[float], target: str) -> None:
    ordered = sorted(cpu)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    print(
        f"{name:<26} median {1000 * statistics.median(cpu):8.1f} ms  p99 {1000 * p99:8.1f} ms  "
        f"max {1000 * max(cpu):8.1f} ms  (wall median {1000 * statistics.median(wall):7.1f} ms)  target {target}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-trump-share", type=float, default=0.2)
    parser.add_argument("--memory-deals", type=int, default=10)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    deals = [random_deal(rng, args.no_trump_share) for _ in range(args.deals)]

    full_cpu, full_wall, full_nodes = [], [], []
    mid_cpu, mid_wall, mid_nodes = [], [], []
    leads_cpu, leads_wall = [], []
    early_cpu: list[float] = []
    early_wall: list[float] = []
    for deal in deals:
        solver = ParitySolver()
        cpu, wall, _ = timed(partial(solver.value, deal))
        full_cpu.append(cpu)
        full_wall.append(wall)
        full_nodes.append(solver.nodes)

        mid = random_play(deal, rng, rng.randint(3, 10), rng.random() < 0.5)
        solver = ParitySolver()
        cpu, wall, _ = timed(partial(solver.best_move, mid))
        mid_cpu.append(cpu)
        mid_wall.append(wall)
        mid_nodes.append(solver.nodes)

        early = random_play(deal, rng, 2, rng.random() < 0.5)
        cpu, wall, _ = timed(partial(ParitySolver().best_move, early))
        early_cpu.append(cpu)
        early_wall.append(wall)

        solver = ParitySolver()
        cpu, wall, _ = timed(partial(solver.solve, deal))
        leads_cpu.append(cpu)
        leads_wall.append(wall)

    print(f"{args.deals} random deals (seed {args.seed}, no-trump share {args.no_trump_share}), CPU time of one core")
    summary("full deal, opening lead", full_cpu, full_wall, "median <= 100 ms, max <= 1 s")
    summary("best move, mid-game", mid_cpu, mid_wall, "<= 50 ms")
    summary("best move, after 2 tricks", early_cpu, early_wall, "(none: nearly a whole deal)")
    summary("every opening lead", leads_cpu, leads_wall, "<= 2 s")
    print(
        f"nodes (trick starts visited): full deal median {statistics.median(full_nodes):,.0f}, "
        f"max {max(full_nodes):,}; mid-game median {statistics.median(mid_nodes):,.0f}, max {max(mid_nodes):,}"
    )
    no_trump = [c for c, d in zip(full_cpu, deals, strict=True) if d.trump is None]
    trumps = [c for c, d in zip(full_cpu, deals, strict=True) if d.trump is not None]
    if no_trump and trumps:
        print(
            f"full deal by kind: trumps median {1000 * statistics.median(trumps):.1f} ms ({len(trumps)} deals), "
            f"no-trump median {1000 * statistics.median(no_trump):.1f} ms ({len(no_trump)} deals)"
        )

    peak = 0
    for deal in deals[: args.memory_deals]:
        tracemalloc.start()
        solver = ParitySolver()
        solver.solve(deal)
        peak = max(peak, tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    print(f"peak memory of a solve (every opening lead), first {args.memory_deals} deals: {peak / 1e6:.1f} MB (target < 50 MB)")


if __name__ == "__main__":
    main()
