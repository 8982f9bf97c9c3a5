"""Benchmark (not a test): the bot split across processes on one PostgreSQL, under load.

    .venv/bin/python -m tests.bench.bench_shards                 # 10,000 tables, 4 processes
    .venv/bin/python -m tests.bench.bench_shards --tables 2000 --seconds 20 --lease 10

In one run, on a throwaway PostgreSQL server started from the installed one:

1. **SQLite, one process**: ``--tables`` open tables in one process on a SQLite file, then
   random legal moves through the table service for ``--seconds``.
2. **PostgreSQL, one process**: the same on PostgreSQL, to tell the database's cost from the
   cost of sharing the machine.
3. **PostgreSQL, 4 processes**: the same number of tables split across four processes by server
   (each holds one of four shards' leases), all playing at once. Half way through, one process
   is killed with SIGKILL and a replacement for its shard is started at once: it waits for the
   dead one's lease to lapse (``--lease``, the production default 30 s), restores the shard's
   tables and answers again. Every move the dead process acknowledged (it journals each one
   after the service returns) must be in the database.

The server keeps PostgreSQL's default durability (fsync, synchronous commits); SQLite runs as
the bot runs it (WAL, synchronous NORMAL). Each process is ``tests.shard_process``: the table service with a notifier that does nothing,
so the handler time per move is the service's own (the check, the write-ahead log entry in the
database, the apply). It prints p50/p99 per phase, moves per second, what the database wrote
per move (its write-ahead log bytes and commits), its size per table and per move, and the
takeover figures.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import asyncpg

from games.registry import all_games
from tests.bench.bench_tables import percentile
from tests.conftest import new_postgres_database
from tests.postgres_server import INSTALL_HINT, PostgresServer
from tests.shard_process import ShardProcess, guild_on

PROCESSES = 4
CHANNELS_PER_SERVER = 4


def tables_for(shard: int | None, count: int, tables: int) -> list[list[str]]:
    """``tables`` tables (the catalogue's games in turn) on servers of ``shard`` (any: None)."""
    games = [g.id for g in all_games()]
    out = []
    for t in range(tables):
        server = t // CHANNELS_PER_SERVER
        guild = guild_on(shard, count, server) if shard is not None else guild_on(server % count, count, server)
        out.append([guild, f"c{t}", games[t % len(games)]])
    return out


def open_all(processes: Sequence[ShardProcess], shares: Sequence[list[list[str]]], batch: int = 250) -> float:
    """Open every process's tables, the processes at once; the seconds it took."""
    started = time.perf_counter()
    for start in range(0, max(len(s) for s in shares), batch):
        busy = [(p, s[start : start + batch]) for p, s in zip(processes, shares, strict=True) if s[start : start + batch]]
        for process, chunk in busy:
            process.send(op="open", tables=chunk)
        for process, chunk in busy:
            answer = process.read()
            assert answer["opened"] == len(chunk), answer
    return time.perf_counter() - started


def summary(name: str, ms: list[float], seconds: float) -> str:
    return (
        f"{name}: {len(ms)} moves in {seconds:.0f} s ({len(ms) / seconds:.0f}/s); handler time p50 "
        f"{statistics.median(ms):.2f} ms, p99 {percentile(ms, 0.99):.2f} ms, mean {statistics.fmean(ms):.2f} ms"
    )


async def pg_counters(url: str) -> dict[str, float]:
    conn = await asyncpg.connect(url)
    try:
        row = await conn.fetchrow(
            "SELECT pg_current_wal_lsn() - '0/0'::pg_lsn AS wal, pg_database_size(current_database()) AS size,"
            " (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()) AS commits,"
            " (SELECT COUNT(*) FROM actions) AS actions, (SELECT COUNT(*) FROM sessions) AS sessions"
        )
        return {k: float(v) for k, v in dict(row).items()}
    finally:
        await conn.close()


def single(name: str, database: str, tables: int, seconds: float, size: Any) -> list[float]:
    process = ShardProcess(database)
    try:
        opened = open_all([process], [tables_for(None, PROCESSES, tables)])
        before = size()
        answer = process.ask(op="play", seconds=seconds, seed=1)
        after = size()
    finally:
        process.quit()
    print(f"{name}: {tables} tables opened in {opened:.0f} s")
    print("  " + summary("moves", answer["ms"], seconds))
    if before is not None:
        print(f"  database grew {(after - before) / max(1, len(answer['ms'])):.0f} bytes per move")
    return list(answer["ms"])


async def sharded(url: str, tables: int, seconds: float, lease: float, tmp: Path) -> None:
    ids = [str(s) for s in range(PROCESSES)]
    journals = [tmp / f"journal-{s}" for s in ids]
    processes = [ShardProcess(url, count=PROCESSES, ids=s, lease=lease, journal=j) for s, j in zip(ids, journals, strict=True)]
    shares = [tables_for(s, PROCESSES, tables // PROCESSES) for s in range(PROCESSES)]
    opened = open_all(processes, shares)
    print(f"PostgreSQL, {PROCESSES} processes (one shard each): {tables} tables opened in {opened:.0f} s")
    before = await pg_counters(url)

    # everyone plays; half way through the last process is killed and replaced
    victim = PROCESSES - 1
    for s, process in enumerate(processes):
        process.send(op="play", seconds=seconds / 2 if s == victim else seconds, seed=s)
    started = time.monotonic()
    time.sleep(seconds / 2 - 0.5)
    processes[victim].kill()
    killed = time.monotonic()
    replacement = ShardProcess(url, count=PROCESSES, ids=ids[victim], lease=lease, journal=journals[victim])
    ready = time.monotonic() - killed
    probe = shares[victim][0]
    while "seq" not in (answer := replacement.ask(op="act", guild=probe[0], channel=probe[1])):
        assert answer.get("error") == "There is no table in this channel. Open one with /play.", answer
        probe = shares[victim][shares[victim].index(probe) + 1]  # that match ended: the next table
    answering = time.monotonic() - killed
    remaining = max(1.0, seconds - (time.monotonic() - started))
    replacement.send(op="play", seconds=remaining, seed=99)
    results = [p.read() for s, p in enumerate(processes) if s != victim] + [replacement.read()]
    elapsed = time.monotonic() - started
    after = await pg_counters(url)

    ms = [t for r in results for t in r["ms"]]
    moves = after["actions"] - before["actions"]
    print("  " + summary("moves, all processes", ms, elapsed))
    print(
        f"  per move: {(after['wal'] - before['wal']) / moves:.0f} bytes of write-ahead log, "
        f"{(after['commits'] - before['commits']) / moves:.2f} commits (reads included); database "
        f"{after['size'] / 2**20:.0f} MB for {after['sessions']:.0f} sessions and {after['actions']:.0f} moves"
    )
    print(
        f"  process {victim} killed with SIGKILL mid-load: its replacement held the shard and had restored "
        f"{replacement.ready['restored']} tables {ready:.1f} s later (lease {lease:.0f} s), and its tables "
        f"answered moves {answering:.1f} s after the kill"
    )

    acknowledged: dict[int, int] = {}
    for line in journals[victim].read_text().splitlines():
        session, seq = map(int, line.split())
        acknowledged[session] = max(acknowledged.get(session, -1), seq)
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT session_id, MAX(seq) AS last FROM actions GROUP BY session_id")
    finally:
        await conn.close()
    stored = {r["session_id"]: r["last"] for r in rows}
    lost = [s for s, seq in acknowledged.items() if stored.get(s, -1) < seq]
    print(
        f"  acknowledged moves lost: {len(lost)} (of {sum(1 for _ in journals[victim].read_text().splitlines())} "
        f"acknowledged on shard {victim}, checked against the database)"
    )
    for process in [*processes[:victim], replacement]:
        process.quit()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=30.0, help="of play in each phase")
    parser.add_argument("--lease", type=float, default=30.0, help="PARLOUR_LEASE_SECONDS of the processes")
    args = parser.parse_args(argv)
    server = PostgresServer.find()
    if server is None:
        raise SystemExit(f"bench_shards needs PostgreSQL: {INSTALL_HINT}")
    server.start(durable=True)  # fsync and synchronous commits on, as in production
    try:
        with tempfile.TemporaryDirectory() as tmp:
            sqlite = Path(tmp) / "bench.sqlite3"
            single(
                "SQLite, one process", str(sqlite), args.tables, args.seconds,
                lambda: sum(p.stat().st_size for p in Path(tmp).glob("bench.sqlite3*")),
            )
            url = asyncio.run(new_postgres_database(server))
            single(
                "PostgreSQL, one process", url, args.tables, args.seconds,
                lambda: asyncio.run(pg_counters(url))["size"],
            )
            url = asyncio.run(new_postgres_database(server))
            asyncio.run(sharded(url, args.tables, args.seconds, args.lease, Path(tmp)))
    finally:
        server.stop()


if __name__ == "__main__":
    main()
