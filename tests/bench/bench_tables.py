"""Benchmark (not a test): the table service under load.

    .venv/bin/python -m tests.bench.bench_tables [--tables 1000] [--actions 20000]

It opens ``--tables`` tables at once on one service over a file SQLite database (the
games of the catalogue in turn, each at its fewest players, every seat a person) and then
makes ``--actions`` moves, one table after another, each a random legal move of an awaited
seat through ``TableService.act``: the check, the write-ahead log entry in SQLite, the apply
and the notification (to a notifier that does nothing, so Discord's own latency is left out).
It prints the handler time per action (p50, p99, max) and the memory held.

Discord's REST calls per action are measured by ``tests.bench.bench_discord``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Sequence
from pathlib import Path

from bot.tables import Table, TableService, User
from games.engine import Event
from games.registry import all_games
from storage.sessions import Store


class QuietNotifier:
    """Takes every notification and does nothing, so the figures are the service's own."""

    async def table_changed(self, table: Table, events: Sequence[Event], repost: bool) -> None:
        return None

    async def send_private(self, table: Table, seat: int, text: str) -> bool:
        return True

    async def notice(self, table: Table, text: str, mention: str | None = None) -> None:
        return None

    async def tell(self, table: Table, text: str, mention: str) -> bool:
        return True

    async def table_closed(self, table: Table) -> None:
        return None

    async def channel_notice(self, guild_id: str, channel_id: str, text: str) -> None:
        return None


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def load_service(tables: int, actions: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    games = all_games()
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "bench.sqlite3")
        service = TableService(store, QuietNotifier(), rng=random.Random(seed))
        await service.load()
        tracemalloc.start()
        opened = time.perf_counter()
        keys: list[tuple[str, str]] = []
        for t in range(tables):
            game = games[t % len(games)]
            guild, channel = f"g{t % 20}", f"c{t}"
            people = [User(f"u{t}-{s}", f"P{s + 1}") for s in range(game.player_counts[0])]
            await service.open_table(guild, channel, people[0], game.id)
            for person in people[1:]:
                await service.join(guild, channel, person)
            await service.start(guild, channel, people[0])
            keys.append((guild, channel))
        open_seconds = time.perf_counter() - opened
        timings: list[float] = []
        finished = 0
        i = 0
        while len(timings) < actions and keys:
            guild, channel = keys[i % len(keys)]
            i += 1
            table = service.table(guild, channel)
            if table is None or table.state is None:
                keys.remove((guild, channel))
                finished += 1
                continue
            seat = rng.choice(table.state.actors())
            action = rng.choice(table.state.legal_actions(seat))
            user = User(table.seats[seat].user_id or "", table.seats[seat].name)
            start = time.perf_counter()
            await service.act(guild, channel, user, action, turn=table.state.turn)
            timings.append(time.perf_counter() - start)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        await service.shutdown()
        await store.close()
    ms = [1000 * t for t in timings]
    print(f"service: {tables} tables open at once ({len(games)} games in turn), opened in {open_seconds:.1f} s")
    print(
        f"  {len(ms)} actions: p50 {statistics.median(ms):.2f} ms, p99 {percentile(ms, 0.99):.2f} ms, "
        f"max {max(ms):.2f} ms, mean {statistics.fmean(ms):.2f} ms; {finished} matches finished"
    )
    print(f"  peak Python memory while running: {peak / 2**20:.1f} MB")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=20000)
    args = parser.parse_args(argv)
    asyncio.run(load_service(args.tables, args.actions))


if __name__ == "__main__":
    main()
