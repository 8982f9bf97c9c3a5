"""A crash soak: random play at many tables in a child process that is killed with SIGKILL at
random moments and started again on the same database.

The child prints a line for every action the table service acknowledged (``act`` returned), so
the parent knows exactly what a player was told had happened. After the last kill a final child
plays every table to its end. The parent then checks that every acknowledged action is in the
stored log as acknowledged, and that no table was left unable to finish.

    python -m tests.attack.crash_soak --tables 30 --kills 12      # prints its figures
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.bench.bench_tables import QuietNotifier

ROOT = Path(__file__).resolve().parents[2]
GUILD = "soak"
MAX_FINAL_ACTIONS = 200_000
FINAL_PHASE_SECONDS = 600
READY_SECONDS = 120


# -- the child: random play through the table service ---------------------------------------------------


def _games() -> list[str]:
    from games.registry import game_ids

    return [g for g in game_ids() if g != "toy"]


async def child(db: str, seed: int, tables: int, finish: bool) -> int:
    """Play at ``tables`` channels; with ``finish`` play every open table to its end, then stop."""
    from storage.sessions import Store

    rng = random.Random(seed)
    store = await Store.open(db)
    try:
        return await play(store, rng, seed, tables, finish)
    finally:  # an open connection's thread would keep a failed child alive
        await store.close()


async def play(store: Any, rng: random.Random, seed: int, tables: int, finish: bool) -> int:
    from bot.tables import TableError, TableService, User
    from games.registry import get_game

    service = TableService(store, QuietNotifier(), rng=random.Random(seed * 7919))
    await service.load()
    await service.wait_resumed()
    print("ready", flush=True)
    games = _games()
    people = [User(str(100 + i), f"P{i}") for i in range(8)]
    stuck: list[int] = []
    steps = 0

    async def open_one(channel: str) -> None:
        game = get_game(rng.choice(games))
        count = rng.randint(game.min_players, min(game.max_players, 4))
        await service.open_table(GUILD, channel, people[0], game.id)
        for i in range(1, count):
            if rng.random() < 0.25:
                await service.add_bot(GUILD, channel, people[0], "random")
            else:
                await service.join(GUILD, channel, people[i])
        try:
            await service.start(GUILD, channel, people[0])
        except TableError:  # this game wants other numbers under its default options
            await service.cancel(GUILD, channel, people[0])

    while True:
        open_channels = [key[1] for key in service.tables if key[0] == GUILD]
        if finish and not open_channels:
            break
        if not finish:
            free = [f"c{i}" for i in range(tables) if f"c{i}" not in open_channels]
            if free and (rng.random() < 0.2 or not open_channels):
                await open_one(rng.choice(free))
                continue
        channel = rng.choice(open_channels)
        table = await service.ready(GUILD, channel)  # a restored table reads its log on first use
        if table is None:  # it could not be restored: closed as broken
            continue
        state = table.state
        if state is None:  # a lobby left by a kill: start it or drop it
            await service.cancel(GUILD, channel, people[0])
            continue
        humans = [s for s in sorted(state.awaiting()) if table.seats[s].bot is None]
        if not humans:  # nobody can move, the bots have not: this table cannot finish
            stuck.append(table.id)
            print(f"stuck {table.id}", flush=True)
            service.tables.pop(table.key)
            continue
        seat = rng.choice(humans)
        user = next(u for u in people if u.id == table.seats[seat].user_id)
        legal = state.legal_actions(seat)
        action = rng.choice(legal)
        turn = table.turn
        try:
            await service.act(GUILD, channel, user, action, turn)
        except TableError as exc:
            print(f"refused {table.id} {turn}: {exc}", file=sys.stderr, flush=True)
            continue
        # acknowledged: the player has been told this happened
        print(f"ack {table.id} {turn} {seat} {json.dumps(table.game.action_to_json(action))}", flush=True)
        steps += 1
        if finish and steps > MAX_FINAL_ACTIONS:
            break
    await service.shutdown()
    print("done", flush=True)
    return 0


# -- the parent: kills and checks ---------------------------------------------------------------------


@dataclass
class Soak:
    kills: int = 0
    acked: list[tuple[int, int, int, dict[str, Any]]] = field(default_factory=list)
    lost: list[tuple[int, int]] = field(default_factory=list)
    stuck: list[int] = field(default_factory=list)
    unfinished: list[int] = field(default_factory=list)
    tables: int = 0
    restart_seconds: list[float] = field(default_factory=list)

    def figures(self) -> str:
        worst = max(self.restart_seconds, default=0.0)
        return (
            f"kills {self.kills} / acknowledged actions {len(self.acked)} / actions lost {len(self.lost)} / "
            f"tables {self.tables} / tables that could not finish {len(self.stuck) + len(self.unfinished)} / "
            f"slowest restart to ready {worst:.2f} s"
        )


def _spawn(db: Path, seed: int, tables: int, finish: bool) -> subprocess.Popen[str]:
    args = [sys.executable, "-m", "tests.attack.crash_soak", "--child", str(db), "--seed", str(seed),
            "--tables", str(tables)]
    if finish:
        args.append("--finish")
    return subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})


def _reader(proc: subprocess.Popen[str], soak: Soak) -> threading.Thread:
    """Collect the child's lines as they come, until it ends (or dies)."""

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            _take(line.rstrip("\n"), soak)

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


def _take(line: str, soak: Soak) -> None:
    if line.startswith("ack "):
        _, session, turn, seat, action = line.split(" ", 4)
        soak.acked.append((int(session), int(turn), int(seat), json.loads(action)))
    elif line.startswith("stuck "):
        soak.stuck.append(int(line.split()[1]))


def _wait_ready(proc: subprocess.Popen[str], soak: Soak) -> None:
    assert proc.stdout is not None
    start = time.monotonic()
    readable, _, _ = select.select([proc.stdout], [], [], READY_SECONDS)
    line = proc.stdout.readline() if readable else ""
    if line.strip() != "ready":
        proc.kill()
        proc.wait()
        raise RuntimeError(f"the child did not start within {READY_SECONDS} s: {line!r}")
    soak.restart_seconds.append(time.monotonic() - start)


def _wait_for_acks(proc: subprocess.Popen[str], soak: Soak, count: int) -> None:
    """Until the child has acknowledged ``count`` actions in all (or has died): the kill comes
    after so much play, however slowly a busy machine runs it."""
    deadline = time.monotonic() + FINAL_PHASE_SECONDS
    while len(soak.acked) < count and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)


def run(tables: int, kills: int, seed: int = 1, *, min_acks: int = 30, max_acks: int = 150) -> Soak:
    """Kill the child ``kills`` times, each after a random number of acknowledged actions (from
    ``min_acks`` to ``max_acks``; it is killed wherever it is then, often in the middle of one)."""
    rng = random.Random(seed)
    soak = Soak()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "soak.sqlite3"
        for k in range(kills):
            proc = _spawn(db, seed * 1000 + k, tables, finish=False)
            _wait_ready(proc, soak)
            reader = _reader(proc, soak)
            _wait_for_acks(proc, soak, len(soak.acked) + rng.randint(min_acks, max_acks))
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            reader.join()  # what it printed before it died was acknowledged
            soak.kills += 1
        proc = _spawn(db, seed * 1000 + kills, tables, finish=True)
        _wait_ready(proc, soak)
        reader = _reader(proc, soak)
        try:
            proc.wait(timeout=FINAL_PHASE_SECONDS)
        except subprocess.TimeoutExpired:  # a table that never ends: the check below counts it
            proc.kill()
            proc.wait()
        reader.join()
        _check(db, soak)
    return soak


def _check(db: Path, soak: Soak) -> None:
    import sqlite3

    conn = sqlite3.connect(db)
    try:
        stored = {
            (s, q): (seat, json.loads(a))
            for s, q, seat, a in conn.execute("SELECT session_id, seq, seat, action FROM actions")
        }
        for session, turn, seat, action in soak.acked:
            if stored.get((session, turn)) != (seat, action):
                soak.lost.append((session, turn))
        rows = conn.execute("SELECT id, status FROM sessions WHERE guild_id = ?", (GUILD,)).fetchall()
        soak.tables = sum(1 for _, status in rows if status != "cancelled")
        soak.unfinished = [i for i, status in rows if status in ("lobby", "playing", "broken")]
    finally:
        conn.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--child", metavar="DB")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--kills", type=int, default=12)
    parser.add_argument("--finish", action="store_true")
    args = parser.parse_args(argv)
    if args.child:
        return asyncio.run(child(args.child, args.seed, args.tables, args.finish))
    soak = run(args.tables, args.kills, args.seed)
    print(soak.figures())
    return 0 if not (soak.lost or soak.stuck or soak.unfinished) else 1


if __name__ == "__main__":
    raise SystemExit(main())
