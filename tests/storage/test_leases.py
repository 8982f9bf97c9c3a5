"""Shard leases on a real PostgreSQL: a live lease is never taken, a lapsed one is, by exactly one
of the processes that try, and a process that is killed loses its shards once its leases lapse."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage.db import Database
from storage.leases import LeaseLost, ShardCountMismatch, ShardLeases
from storage.open import connect
from storage.query import Query
from tests.conftest import new_postgres_database
from tests.postgres_server import PostgresServer

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def url(postgres_server: PostgresServer) -> str:
    return await new_postgres_database(postgres_server)


@pytest.fixture
async def databases(url: str) -> AsyncIterator[list[Database]]:
    """Three connections to one database, as three processes would have (each its own pool)."""
    dbs = [await connect(url) for _ in range(3)]
    yield dbs
    for db in dbs:
        await db.close()


async def test_a_live_lease_is_kept_and_a_lapsed_one_taken(databases: list[Database]) -> None:
    first = ShardLeases(databases[0], "first", seconds=1.5)
    second = ShardLeases(databases[1], "second", seconds=1.5)
    assert await first.take_all([0, 1]) == [0, 1]
    assert await first.take(0)  # its own: renewed
    assert not await second.take(0) and not await second.take(1)
    assert await second.take(2)
    assert await first.holders() == {0: "first", 1: "first", 2: "second"}

    await asyncio.sleep(1.7)  # neither renews: every lease lapses
    assert await second.holders() == {}
    assert await second.take(0)
    assert not await first.take(0)
    # the first process renews what is still its own: shard 1 (lapsed, but nobody took it)
    assert await first.renew() == [1]
    assert await second.renew() == [0, 2]
    await second.release()
    assert await first.take(0)
    assert await first.holders() == {0: "first", 1: "first"}


async def test_one_of_many_takes_a_lapsed_shard(databases: list[Database]) -> None:
    contenders = [ShardLeases(db, f"p{i}") for i, db in enumerate(databases)]
    for _ in range(10):
        won = await asyncio.gather(*(c.take(7) for c in contenders))
        assert sum(won) == 1
        winner = contenders[won.index(True)]
        await winner.release()


HOLD = textwrap.dedent(
    """
    import asyncio, sys
    from storage.open import connect
    from storage.leases import ShardLeases
    async def main():
        db = await connect(sys.argv[1])
        leases = ShardLeases(db, "holder", seconds=2.0)
        assert await leases.take(0)
        print("holding", flush=True)
        while True:
            await asyncio.sleep(0.2)
            assert await leases.renew() == [0]
    asyncio.run(main())
    """
)


async def test_a_killed_process_loses_its_shard_when_the_lease_lapses(url: str, databases: list[Database]) -> None:
    holder = subprocess.Popen([sys.executable, "-c", HOLD, url], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        mine = ShardLeases(databases[0], "replacement", seconds=2.0)
        await asyncio.sleep(2.5)  # longer than the lease: the holder has been renewing it
        assert not await mine.take(0)
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=30)
        killed = time.monotonic()
        while not await mine.take(0):  # it lapses by the database's clock, however busy this machine is
            assert time.monotonic() - killed < 120, "the dead process's lease never lapsed"
            await asyncio.sleep(0.05)
        assert await mine.holders() == {0: "replacement"}
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait(timeout=30)


async def test_leases_are_postgres_only(tmp_path: Path) -> None:
    db = await connect(tmp_path / "p.sqlite3")
    try:
        with pytest.raises(ValueError, match="need PostgreSQL"):
            ShardLeases(db)
    finally:
        await db.close()


async def test_processes_must_agree_on_the_shard_count(databases: list[Database]) -> None:
    four = ShardLeases(databases[0], "four", shard_count=4)
    two = ShardLeases(databases[1], "two", shard_count=2)
    assert await four.take_all([0, 1]) == [0, 1]
    with pytest.raises(ShardCountMismatch, match="into 4 shards, and this process divides them into 2"):
        await two.take_all([1])
    await four.release()
    assert await two.take_all([0, 1]) == [0, 1]  # once the others have gone, a new count may start


async def test_the_fence_refuses_a_write_once_a_shard_is_taken(databases: list[Database]) -> None:
    first = ShardLeases(databases[0], "first", seconds=1.0)
    second = ShardLeases(databases[1], "second", seconds=1.0)
    assert await first.take_all([0])
    first.fence_writes()
    async with databases[0].transaction() as db:  # held: written
        await db.execute(Query("INSERT INTO dm_closed (user_id, told) VALUES ('a', 0)"))
    await asyncio.sleep(1.2)
    assert await second.take(0)
    with pytest.raises(LeaseLost, match="no longer holds shard"):
        async with databases[0].transaction() as db:
            await db.execute(Query("INSERT INTO dm_closed (user_id, told) VALUES ('b', 0)"))
    rows = await databases[1].execute_fetchall(Query("SELECT user_id FROM dm_closed"))
    assert [r["user_id"] for r in rows] == ["a"]
    assert await first.renew() == []  # the process finds out, and lets the shard go
    first.let_go([0])
    with pytest.raises(LeaseLost, match="holds no shard"):
        async with databases[0].transaction() as db:
            await db.execute(Query("INSERT INTO dm_closed (user_id, told) VALUES ('c', 0)"))


async def test_an_unsharded_and_a_sharded_process_starting_together_never_both_hold(
    databases: list[Database],
) -> None:
    """The race beside the count check: both look (no other count yet), both take, and each checks
    again after taking, so at most one of them keeps its leases. An unsharded process's lease is
    the one shard of a bot split into one."""
    for round_ in range(20):
        whole = ShardLeases(databases[0], f"whole{round_}", shard_count=1)
        split = ShardLeases(databases[1], f"split{round_}", shard_count=2)
        results = await asyncio.gather(whole.take_all([0]), split.take_all([1]), return_exceptions=True)
        holding = [lease for lease, result in zip((whole, split), results, strict=True) if isinstance(result, list)]
        for result in results:
            assert result in ([0], [1]) or isinstance(result, ShardCountMismatch), result
        assert len(holding) <= 1, f"round {round_}: both hold leases of different counts"
        live = await databases[2].execute_fetchall(
            Query("SELECT DISTINCT shard_count FROM shard_leases WHERE expires_at >= clock_timestamp()")
        )
        assert len(live) <= 1, live
        for lease in (whole, split):
            await lease.release()
    # Both may be refused in a round (each saw the other's lease after taking): safe, and each
    # process then exits in one line. One that starts alone afterwards takes its lease.
    alone = ShardLeases(databases[0], "alone", shard_count=1)
    assert await alone.take_all([0]) == [0]
    await alone.release()
