"""Restart and memory: many open tables, at match logs of 30, 300 and 3,000 actions, the bot
restarted on their database. Each figure is printed beside its goal.

For each log length, in a fresh process on a copy of the database (so that its memory is its own):
- ready: from opening the database to the service ready to answer (tables restored from their
  rows alone; each log is read and replayed on first use);
- the first click on each table after the restart (its log read and replayed, then the move
  checked, logged and applied), wall and CPU time: p50 and p99 (goal: p99 within 50 ms);
- memory a table in use: once every table has had its first click, less the baseline before the
  clicks (garbage collected before each), per table: traced Python allocations (a second run
  under ``tracemalloc``) and resident memory (goal: at most 64 KiB whatever the log's length).

The tables are written as the bot leaves them: each log with the snapshot of its latest deal start
(``--no-snapshots``: without, every log replayed from its start). Before each measurement the last
move of every table is re-dated to now and the turn timers' clock is paused, so that no timer
comes due during the run; the run counts the reminders and timeouts it saw (it must be 0).

    nice -n 10 python -m tests.bench.bench_restart                 # 1,000 tables; 30, 300, 3,000 actions
    nice -n 10 python -m tests.bench.bench_restart --tables 200 --lengths 300
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from bot.service.model import Clock, Table
from storage.sessions import Snapshot
from tests.bench.bench_tables import QuietNotifier, percentile

GUILD = "bench"
GAMES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("hoodwink", {"target": 1000}),
    ("parity_for_three", {"match_end": "open", "open_deal_cap": 200}),
    ("caterpillar", {"target": 100_000}),
)
"""Games whose matches may run past 3,000 actions, with the options that make them that long."""
DISTINCT = 60
"""Distinct matches played per database (tables beyond these reuse one's seed and log)."""
GOALS = {"ready_ms": 1000.0, "click_p99_ms": 50.0, "traced_kib": 64.0, "rss_kib": 64.0}


class PausedClock(Clock):
    """The turn timers' clock, paused: no timer comes due during a measurement."""

    async def sleep(self, seconds: float) -> None:
        await asyncio.Event().wait()


class CountingNotifier(QuietNotifier):
    """Takes every notification, counting the timers' (none may come during a measurement)."""

    def __init__(self) -> None:
        self.timer_notices = 0

    async def notice(self, table: Table, text: str, mention: str | None = None) -> None:
        if text.startswith(("It is your turn.", "Time is up")):
            self.timer_notices += 1


class Played(NamedTuple):
    log: list[tuple[int, str]]
    snapshot: Snapshot | None
    """The position at the latest deal start, as the bot saves it (``keep_snapshot``)."""


def played_log(game_id: str, options: dict[str, Any], seed: int, actions: int, players: int) -> Played:
    """A match played at random for ``actions`` actions (fewer if it ends: its last move is kept
    unplayed)."""
    from bot.service.hands import DEAL_STARTS
    from games.engine import snapshot_format
    from games.registry import get_game

    game = get_game(game_id)
    state = game.start([f"P{s}" for s in range(players)], game.options(options), seed)
    rng = random.Random(seed)
    out: list[tuple[int, str]] = []
    snapshot = None
    while len(out) < actions:
        seat = rng.choice(sorted(state.awaiting()))
        action = rng.choice(state.legal_actions(seat))
        events = state.apply(seat, action)
        if state.is_over:  # keep the match open: its last move is not logged
            break
        out.append((seat, json.dumps(game.action_to_json(action))))
        state.forget_past()  # as a live table does
        if any(e.kind in DEAL_STARTS for e in events):
            snapshot = Snapshot(state.turn, snapshot_format(), state.snapshot())
    return Played(out, snapshot)


async def build(db: Path, tables: int, actions: int, snapshots: bool = True) -> int:
    """``tables`` open tables of long matches, their logs written straight to storage (with the
    snapshot the bot saves at each deal start, unless not ``snapshots``); the shortest log."""
    from games.registry import get_game
    from storage.db import transaction
    from storage.query import Query
    from storage.sessions import SeatRecord, Store

    logs: dict[int, Played] = {}
    store = await Store.open(db)
    try:
        for i in range(tables):
            game_id, options = GAMES[i % len(GAMES)]
            game = get_game(game_id)
            n = game.min_players
            seats = [SeatRecord(name=f"P{s}", user_id=str(1000 + s)) for s in range(n)]
            seed = 10_000 + i % DISTINCT
            if i % DISTINCT not in logs:
                logs[i % DISTINCT] = played_log(game.id, options, seed, actions, n)
            sid = await store.create_session(
                guild_id=GUILD, channel_id=f"c{i}", game=game.id, options=game.options(options).model_dump(mode="json"),
                host_id=seats[0].user_id or "", seats=seats, seed=seed,
            )
            await store.set_status(sid, "playing")
            played = logs[i % DISTINCT]
            rows = [
                {"sid": sid, "seq": turn, "seat": seat, "action": action, "actor": seats[seat].user_id}
                for turn, (seat, action) in enumerate(played.log)
            ]
            async with transaction(store.conn):
                await store.conn.executemany(
                    Query("INSERT INTO actions (session_id, seq, seat, action, actor_id) VALUES (:sid, :seq, :seat, :action, :actor)"),
                    rows,
                )
            if snapshots and played.snapshot is not None:
                await store.save_snapshot(sid, played.snapshot)
    finally:
        await store.close()
    return min(len(p.log) for p in logs.values())


def redate(db: Path) -> None:
    """Every table's last move made now, its clock never noted: no turn timer is due for minutes."""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE actions SET created_at = ? WHERE seq = (SELECT MAX(seq) FROM actions a WHERE a.session_id = actions.session_id)",
            (stamp,),
        )
        conn.execute("UPDATE sessions SET updated_at = ?, clock_at = NULL", (stamp,))


def rss() -> int:
    """This process's resident memory, in bytes."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


async def measure(db: Path, memory: bool) -> dict[str, float]:
    """Restore, then the first click on every table. With ``memory`` the Python allocations are
    traced (which slows everything down): the timing figures come from a run without it."""
    from bot.tables import TableService, User
    from storage.sessions import Store

    redate(db)
    gc.collect()
    if memory:
        tracemalloc.start()
    started = time.perf_counter()
    store = await Store.open(db)
    notifier = CountingNotifier()
    service = TableService(store, notifier, clock=PausedClock())
    count = await service.load()
    ready = time.perf_counter() - started

    gc.collect()
    base_traced, base_rss = (tracemalloc.get_traced_memory()[0] if memory else 0), rss()
    heads = list(service.tables.values())
    wall: list[float] = []
    cpu: list[float] = []
    for table in heads:
        click, click_cpu = time.perf_counter(), time.process_time()
        live = await service.ready(GUILD, table.channel_id)
        assert live is not None and live.state is not None
        seat = min(live.state.awaiting())
        user = User(live.seats[seat].user_id or "", live.seats[seat].name)
        action = live.state.legal_actions(seat)[0]
        await service.act(GUILD, table.channel_id, user, action, live.turn)
        wall.append((time.perf_counter() - click) * 1000)
        cpu.append((time.process_time() - click_cpu) * 1000)
    gc.collect()
    after_traced, after_rss = (tracemalloc.get_traced_memory()[0] if memory else 0), rss()
    in_use = sum(1 for t in heads if t.state is not None)
    await service.shutdown()
    await store.close()
    return {
        "tables": count,
        "in_use": in_use,
        "ready_ms": ready * 1000,
        "click_p50_ms": percentile(wall, 0.5),
        "click_p99_ms": percentile(wall, 0.99),
        "click_p99_cpu_ms": percentile(cpu, 0.99),
        "click_max_ms": max(wall),
        "traced_kib": (after_traced - base_traced) / max(1, in_use) / 1024,
        "rss_kib": (after_rss - base_rss) / max(1, in_use) / 1024,
        "timer_notices": notifier.timer_notices,
        "gc_frozen": gc.get_freeze_count(),
    }


def _measured(db: Path, memory: bool) -> dict[str, float]:
    """The figures of a fresh process (on a copy of the database, so both runs start alike)."""
    copy = db.with_name(f"{db.stem}-{'memory' if memory else 'time'}.sqlite3")
    copy.write_bytes(db.read_bytes())
    args = [sys.executable, "-m", "tests.bench.bench_restart", "--measure", str(copy)]
    out = subprocess.run([*args, "--memory"] if memory else args, capture_output=True, text=True, check=True)
    figures: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    copy.unlink()
    return figures


def row(actions: int, timed: dict[str, float], traced: dict[str, float]) -> str:
    def mark(value: float, goal: float) -> str:
        return "ok" if value <= goal else "MISSED"

    return (
        f"| {actions:>5,} | {timed['ready_ms']:6.0f} ms ({mark(timed['ready_ms'], GOALS['ready_ms'])})"
        f" | {timed['click_p50_ms']:5.1f} ms | {timed['click_p99_ms']:5.1f} ms ({timed['click_p99_cpu_ms']:.1f} CPU)"
        f" ({mark(timed['click_p99_ms'], GOALS['click_p99_ms'])})"
        f" | {traced['traced_kib']:5.1f} KiB ({mark(traced['traced_kib'], GOALS['traced_kib'])})"
        f" | {timed['rss_kib']:5.1f} KiB ({mark(timed['rss_kib'], GOALS['rss_kib'])})"
        f" | {timed['timer_notices'] + traced['timer_notices']:.0f} |"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--lengths", default="30,300,3000", help="match log lengths, comma-separated")
    parser.add_argument("--no-snapshots", action="store_true", help="replay every log from its start")
    parser.add_argument("--measure", metavar="DB", help=argparse.SUPPRESS)
    parser.add_argument("--memory", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(asyncio.run(measure(Path(args.measure), args.memory))))
        return 0
    lengths = [int(x) for x in args.lengths.split(",")]
    print(f"{args.tables:,} open tables ({', '.join(g for g, _ in GAMES)}), restarted in a fresh process at each log length")
    print(f"goals: ready within {GOALS['ready_ms']:.0f} ms; first click p99 within {GOALS['click_p99_ms']:.0f} ms; "
          f"at most {GOALS['traced_kib']:.0f} KiB a table in use (traced and resident); no timer during the run")
    lines: list[str] = []
    for actions in lengths:
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "restart.sqlite3"
            built = time.perf_counter()
            shortest = asyncio.run(build(db, args.tables, actions, snapshots=not args.no_snapshots))
            print(f"  built {args.tables:,} tables of {shortest:,} to {actions:,} actions in "
                  f"{time.perf_counter() - built:.0f} s", flush=True)
            timed = _measured(db, memory=False)
            traced = _measured(db, memory=True)
        lines.append(row(actions, timed, traced))
        print(f"  {lines[-1]}", flush=True)
    print()
    print("| log of | ready (goal 1,000 ms) | first click p50 | first click p99 (goal 50 ms) "
          "| traced a table (goal 64 KiB) | resident a table (goal 64 KiB) | timers fired |")
    print("|---|---|---|---|---|---|---|")
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
