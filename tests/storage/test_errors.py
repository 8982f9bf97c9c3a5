"""Each backend turns its driver's errors into storage's own at its boundary, on SQLite and on
PostgreSQL alike: a write a unique key refuses is a :class:`Conflict`, a database that cannot be
written or is closed is :class:`StorageUnavailable`. Either leaves nothing written, and the bot
(which catches only these) never meets sqlite3's or asyncpg's errors."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

import asyncpg
import pytest

from storage.db import Database
from storage.errors import Conflict, StorageError, StorageUnavailable
from storage.open import connect
from storage.query import Query
from storage.sessions import SeatRecord, Store
from storage.target import is_postgres

DRIVER_ERRORS = (sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError)
CLOSE_DM = Query("INSERT INTO dm_closed (user_id, told) VALUES (:user_id, 0)")
CLOSED_DMS = Query("SELECT user_id FROM dm_closed ORDER BY user_id")


@pytest.fixture
async def db(database: str) -> AsyncIterator[Database]:
    conn = await connect(database)
    yield conn
    await conn.close()


async def closed_dms(db: Database) -> list[str]:
    return [row["user_id"] for row in await db.execute_fetchall(CLOSED_DMS)]


def ours(exc: BaseException, kind: type[StorageError]) -> None:
    """``exc`` is storage's ``kind`` and no driver's error, with the driver's kept as its cause."""
    assert type(exc) is kind, type(exc)
    assert not isinstance(exc, DRIVER_ERRORS)
    assert isinstance(exc.__cause__, (*DRIVER_ERRORS, ValueError)), repr(exc.__cause__)


async def test_a_duplicate_key_is_a_conflict_and_writes_nothing(db: Database) -> None:
    await db.execute(CLOSE_DM, user_id="ann")
    await db.commit()
    with pytest.raises(Conflict) as refused:
        async with db.transaction():
            await db.execute(CLOSE_DM, user_id="bob")
            await db.execute(CLOSE_DM, user_id="ann")  # the same primary key again
    ours(refused.value, Conflict)
    assert db.setting in str(refused.value)
    assert await closed_dms(db) == ["ann"]  # bob's row went with the transaction
    assert not db.in_transaction
    async with db.transaction():  # and the next write goes through
        await db.execute(CLOSE_DM, user_id="cat")
    assert await closed_dms(db) == ["ann", "cat"]


async def test_a_second_open_table_in_a_channel_is_a_conflict(database: str) -> None:
    store = await Store.open(database)
    try:
        made = {"guild_id": "g", "channel_id": "c", "game": "parity", "options": {}, "host_id": "a", "seed": 1}
        first = await store.create_session(**made, seats=[SeatRecord("A", "a")])
        with pytest.raises(Conflict) as refused:
            await store.create_session(**made, seats=[SeatRecord("B", "b")])
        ours(refused.value, Conflict)
        assert [head.id for head in await store.open_session_heads()] == [first]
    finally:
        await store.close()


async def test_a_closed_database_is_unavailable(db: Database) -> None:
    await db.execute(CLOSE_DM, user_id="ann")
    await db.commit()
    await db.close()
    for attempt in (db.execute(CLOSE_DM, user_id="bob"), db.execute(CLOSED_DMS)):
        with pytest.raises(StorageUnavailable, match="closed") as refused:
            await attempt
        ours(refused.value, StorageUnavailable)
    with pytest.raises(StorageUnavailable):
        async with db.transaction():
            await db.execute(CLOSE_DM, user_id="cat")


async def test_a_store_whose_database_closed_says_so(database: str) -> None:
    store = await Store.open(database)
    await store.close()
    with pytest.raises(StorageUnavailable):
        await store.mark_dm_closed("ann")
    with pytest.raises(StorageUnavailable):
        await store.dm_closed_users()


async def read_only(database: str, db: Database, on: bool) -> Database:
    """``db`` (or a new connection, for PostgreSQL) refusing every write as a database that cannot
    be written just now does: SQLite's connection made query-only (what a file made read-only
    answers too), PostgreSQL's database made read-only for every new session (as a server in
    recovery answers)."""
    if not is_postgres(database):
        async with db.raw.execute(f"PRAGMA query_only = {'ON' if on else 'OFF'}"):  # type: ignore[attr-defined]
            pass
        return db
    name = urlsplit(database).path.lstrip("/")
    admin = await asyncpg.connect(database.replace(f"/{name}?", "/postgres?"))
    try:
        await admin.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = {"on" if on else "off"}')
    finally:
        await admin.close()
    await db.close()
    return await connect(database)


async def test_a_database_that_cannot_be_written_is_unavailable(database: str) -> None:
    db = await connect(database)
    await db.execute(CLOSE_DM, user_id="ann")
    await db.commit()
    db = await read_only(database, db, True)
    try:
        with pytest.raises(StorageUnavailable) as refused:
            async with db.transaction():
                await db.execute(CLOSE_DM, user_id="bob")
        ours(refused.value, StorageUnavailable)
        assert db.setting in str(refused.value)
        assert await closed_dms(db) == ["ann"]  # still read
        db = await read_only(database, db, False)
        async with db.transaction():
            await db.execute(CLOSE_DM, user_id="bob")
        assert await closed_dms(db) == ["ann", "bob"]
    finally:
        await db.close()


TELL_DM = Query("UPDATE dm_closed SET told = 1 WHERE user_id = :user_id")


async def test_one_write_in_one_step_commits_or_leaves_nothing(db: Database) -> None:
    """``write``: one statement committed on its own (SQLite does it in one call on its
    connection's thread), its count of rows changed; a refused one is a Conflict that leaves
    nothing half done, a closed database is unavailable, and the connection goes on after either."""
    assert await db.write(CLOSE_DM, user_id="ann") == 1
    assert not db.in_transaction
    assert await closed_dms(db) == ["ann"]
    assert await db.write(TELL_DM, user_id="nobody") == 0  # changed nothing: said so, not refused
    with pytest.raises(Conflict) as refused:
        await db.write(CLOSE_DM, user_id="ann")
    ours(refused.value, Conflict)
    assert db.setting in str(refused.value)
    assert not db.in_transaction
    async with db.transaction():  # the refused write left no transaction open behind it
        await db.execute(CLOSE_DM, user_id="bob")
    assert await db.write(TELL_DM, user_id="bob") == 1
    rows = await db.execute_fetchall(Query("SELECT user_id, told FROM dm_closed ORDER BY user_id"))
    assert [(r["user_id"], r["told"]) for r in rows] == [("ann", 0), ("bob", 1)]
    await db.close()
    with pytest.raises(StorageUnavailable, match="closed") as closed:
        await db.write(CLOSE_DM, user_id="cat")
    ours(closed.value, StorageUnavailable)


async def test_a_write_in_one_step_to_a_database_that_cannot_be_written_is_unavailable(database: str) -> None:
    db = await connect(database)
    await db.write(CLOSE_DM, user_id="ann")
    db = await read_only(database, db, True)
    try:
        with pytest.raises(StorageUnavailable) as refused:
            await db.write(CLOSE_DM, user_id="bob")
        ours(refused.value, StorageUnavailable)
        assert not db.in_transaction
        db = await read_only(database, db, False)
        assert await db.write(CLOSE_DM, user_id="bob") == 1
        assert await closed_dms(db) == ["ann", "bob"]
    finally:
        await db.close()
