"""One owner of a PostgreSQL database, through a restart of the server.

A restart ends every connection, and with them the advisory lock that kept a second process off
the database. The attack: restart the server under a running process, then start another beside
it. Neither a second unsharded process nor an unsharded one beside sharded ones (nor the reverse)
may act: the first notices its lock is gone and takes it back, and its lease, which outlives the
restart, fences every write and keeps the newcomer waiting or refuses it. The module runs its own
throwaway server, since its tests restart it. A SQLite file has no server; its claim must hold through
what an operator might do to it instead.
"""

from __future__ import annotations

import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.service.registry import MOVED, UNAVAILABLE
from tests.conftest import new_postgres_database, running_postgres
from tests.postgres_server import PostgresServer
from tests.shard_process import ShardProcess, guild_on
from tests.test_startup import HOLD, one_line_error, run_bot

ROOT = Path(__file__).resolve().parents[2]
LEASE = 3.0


@pytest.fixture(scope="module")
def server() -> Iterator[PostgresServer]:
    """A server of this module's own, since its tests restart it (each on a database of its own)."""
    yield from running_postgres()


@pytest.fixture
def started() -> Iterator[list[Any]]:
    """Every process a test starts, killed at its end."""
    procs: list[Any] = []
    yield procs
    for proc in procs:
        if isinstance(proc, ShardProcess):
            proc.kill()
        elif proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)


def newcomer(url: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.shard_process", url, "--lease", str(LEASE), *args],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def first_line(proc: subprocess.Popen[str], seconds: float) -> str | None:
    """The first line the process prints within ``seconds`` ("" if it ended first; None if it is
    still running without a word)."""
    assert proc.stdout is not None
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        if not sel.select(seconds):
            return None
    return proc.stdout.readline()


def until(check: Any, seconds: float = 30.0) -> Any:
    """Ask ``check`` every tenth of a second until it answers something true; that answer."""
    end = time.monotonic() + seconds
    while True:
        answer = check()
        if answer or time.monotonic() > end:
            return answer
        time.sleep(0.1)


async def moves_of(url: str) -> dict[int, int]:
    """Each session's stored moves, read on a plain connection (an onlooker, not a Parlour process)."""
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT session_id, COUNT(*) AS n FROM actions GROUP BY session_id")
        return {row["session_id"]: row["n"] for row in rows}
    finally:
        await conn.close()


def acts(process: ShardProcess, guild: str, channel: str) -> dict[str, Any]:
    """A move at the process's table, tried again while the server is still coming back."""
    return until(lambda: (answer := process.ask(op="act", guild=guild, channel=channel)) and "seq" in answer and answer)  # type: ignore[no-any-return]


async def test_a_second_unsharded_process_cannot_act_after_a_restart(
    server: PostgresServer, started: list[Any]
) -> None:
    url = await new_postgres_database(server)
    first = ShardProcess(url, lease=LEASE)
    started.append(first)
    guild = guild_on(0, 1)
    assert first.ask(op="open", tables=[[guild, "c1", "parity"], [guild, "c2", "hoodwink"]])["opened"] == 2
    session = acts(first, guild, "c1")["session"]

    server.restart()  # the first's lock is gone with its connection; its lease is not
    second = newcomer(url)  # at once, racing the first to the lock
    started.append(second)

    # the second never gets to serve while the first lives: refused at the lock, or waiting for the lease
    line = first_line(second, 3 * LEASE)
    assert line is None or line == "", f"a second process started beside the first: {line}"
    if line == "":
        assert second.wait(timeout=30) != 0
        assert second.stderr is not None and "in use by another Parlour process" in second.stderr.read()
        # the first noticed within a few seconds and holds its lock again
        claim = until(lambda: (c := first.ask(op="claim"))["retaken"] and c)
        assert claim == {"lock": True, "retaken": 1, "shards": [0]}

    # the first acts on as before, and its moves are the ones stored
    before = (await moves_of(url))[session]
    moved = acts(first, guild, "c1")
    assert moved["session"] == session and moved["seq"] == before
    assert (await moves_of(url))[session] == before + 1

    # a third, started now, is refused at once: the first holds the lock again (or the waiting second does)
    third = newcomer(url)
    started.append(third)
    assert first_line(third, 60) == ""
    assert third.wait(timeout=30) != 0
    assert third.stderr is not None and "in use by another Parlour process" in third.stderr.read()

    # once the first stops, a waiting second takes over its tables, with every move
    first.quit()
    if second.poll() is None:
        ready = first_line(second, 60)
        assert ready is not None and '"ready"' in ready and '"restored": 2' in ready


@pytest.mark.parametrize("sharded_first", [True, False], ids=["unsharded-after-sharded", "sharded-after-unsharded"])
async def test_sharded_and_unsharded_processes_never_mix_after_a_restart(
    server: PostgresServer, started: list[Any], sharded_first: bool
) -> None:
    url = await new_postgres_database(server)
    first = ShardProcess(url, count=2, ids="0,1", lease=LEASE) if sharded_first else ShardProcess(url, lease=LEASE)
    started.append(first)
    guild = guild_on(1, 2)
    assert first.ask(op="open", tables=[[guild, "c1", "parity"]])["opened"] == 1
    session = acts(first, guild, "c1")["session"]

    server.restart()
    other = newcomer(url) if sharded_first else newcomer(url, "--count", "2", "--ids", "0")
    started.append(other)
    assert first_line(other, 3 * LEASE) == "", "a process of the other kind started beside the first"
    assert other.wait(timeout=30) != 0
    assert other.stderr is not None
    refusal = other.stderr.read().strip().splitlines()[-1]
    assert "in use by" in refusal or "unsharded" in refusal, refusal

    # the first serves on, and noticed its lock was gone
    before = (await moves_of(url))[session]
    assert acts(first, guild, "c1")["seq"] == before
    claim = until(lambda: (c := first.ask(op="claim"))["retaken"] and c)
    assert claim == {"lock": True, "retaken": 1, "shards": [0, 1] if sharded_first else [0]}


async def test_a_process_stalled_through_a_restart_is_fenced_once_another_took_over(
    server: PostgresServer, started: list[Any]
) -> None:
    """The split brain itself: the first process is paused (a long GC, a frozen VM) while the
    server restarts, so it cannot take its lock back; a second one starts, waits for the first's
    lease to lapse and takes the tables over. When the first wakes, it writes nothing more and
    says it has lost the database."""
    url = await new_postgres_database(server)
    first = ShardProcess(url, lease=LEASE)
    started.append(first)
    guild = guild_on(0, 1)
    assert first.ask(op="open", tables=[[guild, "c1", "parity"]])["opened"] == 1
    session = acts(first, guild, "c1")["session"]

    first.proc.send_signal(signal.SIGSTOP)
    try:
        server.restart()
        second = ShardProcess(url, lease=LEASE)  # ready once the first's lease has lapsed
        started.append(second)
        # no bound on how long it waited: on a busy machine the restart alone can outlast the
        # lease; what matters is below (it holds the tables, and the first writes nothing more)
        assert second.ready["restored"] == 1
        moved = acts(second, guild, "c1")
    finally:
        first.proc.send_signal(signal.SIGCONT)
    assert moved["session"] == session

    # the first's tries are refused (its pool's connections may still be found dead first), until
    # it says the tables are another process's; it notices by itself that its lease is gone
    answers: list[dict[str, Any]] = []
    for _ in range(50):
        first.send(op="act", guild=guild, channel="c1")
        while (answer := first.read()).get("event"):
            answers.append(answer)
        answers.append(answer)
        if answer == {"error": MOVED}:
            break
        assert answer == {"error": UNAVAILABLE}, answers
        time.sleep(0.1)
    assert answers[-1] == {"error": MOVED}
    if {"event": "lost", "shards": [0]} not in answers:
        assert first.read() == {"event": "lost", "shards": [0]}
    assert (await moves_of(url))[session] == moved["seq"] + 1  # the second's moves only
    assert "seq" in second.ask(op="act", guild=guild, channel="c1")  # which serves on


def test_a_sqlite_file_stays_claimed_when_its_lock_file_is_deleted(tmp_path: Path) -> None:
    """SQLite has no server to restart; what could drop its claim is an operator deleting the lock
    file of a running bot as a stale one. The file itself stays locked: a second process is refused."""
    path = tmp_path / "parlour.sqlite3"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        Path(f"{path}.lock").unlink()
        result = run_bot("console", env={"PARLOUR_DB": str(path)}, stdin="ann: /play toy\n")
        one_line_error(result, "in use by another Parlour process", f"PARLOUR_DB={path}")
        assert result.stdout == ""
    finally:
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.flush()
        holder.wait(timeout=60)
    assert run_bot("console", env={"PARLOUR_DB": str(path)}, stdin="").returncode == 0  # free once it stopped
