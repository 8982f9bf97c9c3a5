"""Restart and memory: many open tables with long logs, the bot restarted on their database.

Prints, for a fresh process (so that memory figures are its own):
- how long until the service is ready to answer (tables restored from their rows alone);
- the first click on each table after the restart (its log read and replayed, then the move
  checked, logged and applied): p50, p99 and max;
- memory: traced Python allocations after the restore (before any click), and per open table
  once every table has been used (a live state keeps its position, not its history);
- for comparison in the same run: the time the old start-up spent replaying every log first.

    python -m tests.bench.bench_restart                      # 1,000 tables, 300 actions each
    python -m tests.bench.bench_restart --tables 200 --actions 100
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from tests.bench.bench_tables import QuietNotifier, percentile

GUILD = "bench"
GAMES = ("parity", "hoodwink", "parity_for_three")


async def build(db: Path, tables: int, actions: int) -> None:
    """``tables`` open tables of long matches, their logs written straight to storage."""
    from games.registry import get_game
    from storage.db import transaction
    from storage.sessions import SeatRecord, Store

    store = await Store.open(db)
    try:
        for i in range(tables):
            game = get_game(GAMES[i % len(GAMES)])
            n = game.min_players
            seats = [SeatRecord(name=f"P{s}", user_id=str(1000 + s)) for s in range(n)]
            seed = 10_000 + i
            options = game.options({})
            sid = await store.create_session(
                guild_id=GUILD, channel_id=f"c{i}", game=game.id, options=options.model_dump(mode="json"),
                host_id=seats[0].user_id or "", seats=seats, seed=seed,
            )
            await store.set_status(sid, "playing")
            state = game.start([s.name for s in seats], options, seed)
            rng = random.Random(i)
            rows: list[tuple[Any, ...]] = []
            for turn in range(actions):
                seat = rng.choice(sorted(state.awaiting()))
                action = rng.choice(state.legal_actions(seat))
                state.apply(seat, action)
                if state.is_over:  # keep the match open: its last move is not logged
                    break
                rows.append((sid, turn, seat, json.dumps(game.action_to_json(action)), seats[seat].user_id))
            async with transaction(store.conn):
                await store.conn.executemany(
                    "INSERT INTO actions (session_id, seq, seat, action, actor_id) VALUES (?, ?, ?, ?, ?)", rows
                )
    finally:
        await store.close()


async def measure(db: Path, memory: bool) -> dict[str, float]:
    """Restore, then the first click on every table. With ``memory`` the Python allocations are
    traced (which slows everything down): the timing figures come from a run without it."""
    from bot.service.records import position, session_record
    from bot.tables import TableService, User
    from storage.sessions import Store

    if memory:
        tracemalloc.start()
    started = time.perf_counter()
    store = await Store.open(db)
    service = TableService(store, QuietNotifier())
    count = await service.load()
    ready = time.perf_counter() - started
    before_clicks = tracemalloc.get_traced_memory()[0] if memory else 0

    # what the old start-up did before answering anyone: replay every log (timed on a sample)
    heads = list(service.tables.values())
    sample = heads[: min(len(heads), 100)]
    replay_started = time.perf_counter()
    for table in sample:
        record = await store.session(table.id)
        assert record is not None
        position(table, session_record(table, record))
    replay_all = (time.perf_counter() - replay_started) / max(1, len(sample)) * len(heads)

    latencies: list[float] = []
    base = tracemalloc.get_traced_memory()[0] if memory else 0
    for table in heads:
        click = time.perf_counter()
        live = await service.ready(GUILD, table.channel_id)
        assert live is not None and live.state is not None
        seat = min(live.state.awaiting())
        user = User(live.seats[seat].user_id or "", live.seats[seat].name)
        action = live.state.legal_actions(seat)[0]
        await service.act(GUILD, table.channel_id, user, action, live.turn)
        latencies.append((time.perf_counter() - click) * 1000)
    after = tracemalloc.get_traced_memory()[0] if memory else 0
    await service.shutdown()
    await store.close()
    return {
        "tables": count,
        "ready_s": ready,
        "old_replay_all_s": replay_all,
        "click_p50_ms": percentile(latencies, 0.5),
        "click_p99_ms": percentile(latencies, 0.99),
        "click_max_ms": max(latencies),
        "memory_before_clicks_mib": before_clicks / 2**20,
        "memory_per_table_kib": (after - base) / max(1, len(heads)) / 1024,
    }


def _measured(db: Path, memory: bool) -> dict[str, float]:
    """The figures of a fresh process (a copy of the database, so both runs start alike)."""
    copy = db.with_name(f"{db.stem}-{'memory' if memory else 'time'}.sqlite3")
    copy.write_bytes(db.read_bytes())
    args = [sys.executable, "-m", "tests.bench.bench_restart", "--measure", str(copy)]
    out = subprocess.run([*args, "--memory"] if memory else args, capture_output=True, text=True, check=True,
                         env={**os.environ})
    figures: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--measure", metavar="DB", help=argparse.SUPPRESS)
    parser.add_argument("--memory", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(asyncio.run(measure(Path(args.measure), args.memory))))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "restart.sqlite3"
        built = time.perf_counter()
        asyncio.run(build(db, args.tables, args.actions))
        print(f"built {args.tables} open tables ({', '.join(GAMES)}), up to {args.actions} actions each, "
              f"in {time.perf_counter() - built:.1f} s")
        figures = _measured(db, memory=False)
        traced = _measured(db, memory=True)
    print(f"restored {figures['tables']:.0f} tables; ready to answer after {figures['ready_s'] * 1000:.0f} ms "
          f"(replaying every log first, as before, would take {figures['old_replay_all_s']:.1f} s)")
    print(f"first click on each table: p50 {figures['click_p50_ms']:.1f} ms, p99 {figures['click_p99_ms']:.1f} ms, "
          f"max {figures['click_max_ms']:.1f} ms")
    print(f"memory: {traced['memory_before_clicks_mib']:.1f} MiB traced before any click; "
          f"{traced['memory_per_table_kib']:.1f} KiB per open table once all are in use")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
