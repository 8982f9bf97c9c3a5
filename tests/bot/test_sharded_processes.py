"""A bot split across processes on one PostgreSQL: each process serves the servers of its own
shards and cannot act on another's tables; a killed process's shards are taken over by its
replacement without losing an acknowledged move; and a process that stalled past its lease writes
nothing once its shard has moved on."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.service.registry import MOVED
from bot.shards import ShardKeeper, ShardPlan, shard_of
from bot.tables import TableError, TableService, User
from storage.errors import DatabaseInUse, StorageError
from storage.query import Query
from storage.sessions import Store
from tests.attack.support import until
from tests.bench.bench_tables import QuietNotifier
from tests.conftest import new_postgres_database
from tests.postgres_server import PostgresServer
from tests.shard_process import ShardProcess, guild_on

ROOT = Path(__file__).resolve().parents[2]
LEASE = 2.0


class Child(ShardProcess):
    def __init__(self, url: str, ids: str, journal: Path | None = None, count: int = 2) -> None:
        super().__init__(url, count=count, ids=ids, lease=LEASE, journal=journal)


@pytest.fixture
async def url(postgres_server: PostgresServer) -> str:
    return await new_postgres_database(postgres_server)


@pytest.fixture
def children() -> Iterator[list[Child]]:
    started: list[Child] = []
    yield started
    for child in started:
        child.kill()


async def stored(url: str) -> tuple[dict[int, int], set[int]]:
    """Each session's logged moves, and the sessions still in play, as the database holds them."""
    store = await Store.open(url, shared=True)
    try:
        rows = await store.conn.execute_fetchall(Query("SELECT session_id, COUNT(*) AS n FROM actions GROUP BY session_id"))
        playing = await store.conn.execute_fetchall(Query("SELECT id FROM sessions WHERE status = 'playing'"))
        return {row["session_id"]: row["n"] for row in rows}, {row["id"] for row in playing}
    finally:
        await store.close()


async def test_each_process_serves_its_own_servers_and_no_other(url: str, children: list[Child]) -> None:
    first = Child(url, "0")
    children.append(first)
    second = Child(url, "1")
    children.append(second)
    mine, theirs = guild_on(0, 2), guild_on(1, 2)

    assert first.ask(op="open", tables=[[mine, "c1", "parity"], [mine, "c2", "hoodwink"]])["opened"] == 2
    refused = first.ask(op="open", tables=[[theirs, "c1", "parity"]])
    assert refused["opened"] == 0 and refused["refused"] == [MOVED]
    assert second.ask(op="open", tables=[[theirs, "c1", "parity"]])["opened"] == 1

    # neither moves at the other's tables; each moves at its own
    assert first.ask(op="act", guild=theirs, channel="c1") == {"error": MOVED}
    assert second.ask(op="act", guild=mine, channel="c1") == {"error": MOVED}
    assert "seq" in first.ask(op="act", guild=mine, channel="c1")
    assert "seq" in second.ask(op="act", guild=theirs, channel="c1")
    assert {t["guild"] for t in first.ask(op="tables")["tables"]} == {mine}
    assert {t["guild"] for t in second.ask(op="tables")["tables"]} == {theirs}

    # a third process for shard 0 waits: it cannot start while the first is alive
    waiting = subprocess.Popen(
        [sys.executable, "-m", "tests.shard_process", url, "--count", "2", "--ids", "0", "--lease", str(LEASE)],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        time.sleep(2 * LEASE + 1)
        assert waiting.poll() is None  # still waiting, having printed nothing
        assert "seq" in first.ask(op="act", guild=mine, channel="c1")  # the first still serves
    finally:
        waiting.kill()
        waiting.wait(timeout=30)


async def test_a_killed_process_is_replaced_and_loses_no_acknowledged_move(
    url: str, tmp_path: Path, children: list[Child]
) -> None:
    journal = tmp_path / "acknowledged"
    victim = Child(url, "0", journal)
    children.append(victim)
    other = Child(url, "1")
    children.append(other)
    games = ["parity", "hoodwink", "spec", "jubilee", "caterpillar", "twenty_nine"] * 4
    tables = [[guild_on(0, 2, k % 3), f"c{k}", game] for k, game in enumerate(games)]
    assert victim.ask(op="open", tables=tables)["opened"] == len(games)
    assert other.ask(op="open", tables=[[guild_on(1, 2), "c", "parity"]])["opened"] == 1
    played = victim.ask(op="play", moves=11, seconds=120, seed=3)  # the seconds bound a hang only
    assert len(played["ms"]) == 11

    # killed in the middle of a move: what it acknowledged was journalled
    victim.send(op="play", seconds=30, seed=4)
    time.sleep(0.3)
    victim.kill()
    acknowledged: dict[int, int] = {}
    for line in journal.read_text().splitlines():
        session, seq = map(int, line.split())
        acknowledged[session] = max(acknowledged.get(session, -1), seq)
    assert acknowledged

    replacement = Child(url, "0")  # ready once it took the shard, when the dead one's lease lapsed
    children.append(replacement)
    moves, playing = await stored(url)
    for session, last in acknowledged.items():
        assert moves.get(session, 0) >= last + 1, f"session {session} lost an acknowledged move"
    restored = {t["session"] for t in replacement.ask(op="tables")["tables"]}
    assert restored == playing - {t["session"] for t in other.ask(op="tables")["tables"]}
    assert restored, "every match finished before the kill: nothing to take over"
    for table in replacement.ask(op="tables")["tables"]:  # the tables answer again, and go on
        answer = replacement.ask(op="act", guild=table["guild"], channel=table["channel"])
        assert answer.get("seq") == table["moves"], answer
    # the other process never stopped serving its own
    assert "seq" in other.ask(op="act", guild=guild_on(1, 2), channel="c")


@pytest.fixture
async def two_services(url: str) -> AsyncIterator[tuple[TableService, ShardKeeper, TableService, ShardKeeper]]:
    """Two processes for shard 0 in this one (each its own pool of connections): the first holds
    it, the second waits."""
    plan = ShardPlan(2, (0,))
    stores = [await Store.open(url, shared=True) for _ in range(2)]
    keepers = [ShardKeeper(store.conn, plan, seconds=LEASE, owner=f"p{i}") for i, store in enumerate(stores)]
    services = [TableService(store, QuietNotifier(), serves=k.serves) for store, k in zip(stores, keepers, strict=True)]
    await keepers[0].acquire()
    try:
        yield services[0], keepers[0], services[1], keepers[1]
    finally:
        for keeper in keepers:
            await keeper.stop()
        for store in stores:
            await store.close()


async def test_a_process_that_stalled_past_its_lease_writes_nothing(
    two_services: tuple[TableService, ShardKeeper, TableService, ShardKeeper],
) -> None:
    stalled, stalled_keeper, successor, successor_keeper = two_services
    guild, ann, bob = guild_on(0, 2), User("a", "Ann"), User("b", "Bob")
    await stalled.open_table(guild, "c", ann, "parity")
    await stalled.join(guild, "c", bob)
    await stalled.start(guild, "c", ann)
    table = stalled.require_table(guild, "c")
    assert table.state is not None

    # the first process stops renewing (a long pause); the second takes the shard once it lapses
    await asyncio.wait_for(successor_keeper.acquire(poll=0.05), timeout=LEASE + 120)  # a hang only
    assert await successor.load() == 1
    moved = successor.require_table(guild, "c")
    assert moved.id == table.id

    # the stalled process wakes up and tries a move: refused, and nothing was written
    seat = sorted(table.state.actors())[0]
    player = [ann, bob][seat]
    with pytest.raises(TableError, match="another Parlour process"):
        await stalled.act(guild, "c", player, table.state.legal_actions(seat)[0], turn=table.state.turn)
    assert await stalled.store.conn.execute_fetchall(Query("SELECT * FROM actions")) == []
    with pytest.raises(TableError, match="another Parlour process"):
        await stalled.open_table(guild, "d", ann, "parity")

    # its renewal finds the loss: it lets go of the shard's tables
    lost: list[list[int]] = []

    async def on_lost(shards: list[int]) -> None:
        lost.append(shards)
        stalled.let_go(lambda g: shard_of(g, 2) in shards)

    stalled_keeper.start(on_lost)
    await until(lambda: bool(lost), "the renewal to find the lease lost")
    assert lost == [[0]] and stalled.table(guild, "c") is None and not stalled_keeper.serves(guild)

    # the successor plays on
    await successor.ready(guild, "c")
    state = moved.state
    assert state is not None
    seat = sorted(state.actors())[0]
    await successor.act(guild, "c", [ann, bob][seat], state.legal_actions(seat)[0], turn=state.turn)
    assert len(await successor.store.conn.execute_fetchall(Query("SELECT * FROM actions"))) == 1


async def test_a_process_for_every_server_excludes_sharded_ones(url: str) -> None:
    alone = await Store.open(url)
    try:
        with pytest.raises(DatabaseInUse, match="unsharded"):
            await Store.open(url, shared=True)
    finally:
        await alone.close()
    sharded = await Store.open(url, shared=True)
    try:
        with pytest.raises(DatabaseInUse, match="only when sharded"):
            await Store.open(url)
    finally:
        await sharded.close()


async def test_a_process_stopped_while_it_waits_for_its_shards_gives_up(url: str) -> None:
    plan = ShardPlan(2, (0, 1))
    holder_store, waiter_store = await Store.open(url, shared=True), await Store.open(url, shared=True)
    holder = ShardKeeper(holder_store.conn, ShardPlan(2, (1,)), seconds=60, owner="holder")
    waiter = ShardKeeper(waiter_store.conn, plan, seconds=60, owner="waiter")
    try:
        await holder.acquire()
        waiting = asyncio.create_task(waiter.acquire(poll=30))
        await asyncio.sleep(0.3)
        assert not waiting.done() and waiter.leases.held == {0}  # it took what was free
        await waiter.stop()  # SIGTERM while waiting: gives back shard 0 and stops at once
        with pytest.raises(StorageError, match="stopped while waiting"):
            await asyncio.wait_for(waiting, timeout=20)  # not the 30 s poll: the stop woke it
        assert await holder.leases.holders() == {1: "holder"}
    finally:
        await holder.stop()
        await holder_store.close()
        await waiter_store.close()


async def test_a_move_waiting_for_the_lock_when_its_shard_moves_is_refused(tmp_path: Path) -> None:
    """The shard check is made once the channel's lock is held: a move queued behind another is
    refused if the server's shard left this process meanwhile, and nothing is written."""
    served = {"yes": True}
    store = await Store.open(tmp_path / "p.sqlite3")
    service = TableService(store, QuietNotifier(), serves=lambda guild: served["yes"])
    try:
        ann, bob = User("a", "Ann"), User("b", "Bob")
        await service.open_table("g", "c", ann, "parity")
        await service.join("g", "c", bob)
        await service.start("g", "c", ann)
        table = service.require_table("g", "c")
        assert table.state is not None and table.lock is not None
        seat = sorted(table.state.actors())[0]
        action, turn = table.state.legal_actions(seat)[0], table.state.turn
        async with table.lock:  # another operation holds the channel
            waiting = asyncio.create_task(service.act("g", "c", [ann, bob][seat], action, turn=turn))
            await asyncio.sleep(0.05)
            served["yes"] = False  # the shard moves while the move waits (its tables not yet let go)
        with pytest.raises(TableError, match="another Parlour process"):
            await waiting
        assert await store.conn.execute_fetchall(Query("SELECT * FROM actions")) == []
    finally:
        await service.shutdown()
        await store.close()
