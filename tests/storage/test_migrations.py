"""Migrations, on both backends: a database made by an earlier schema upgrades in place at start-up
and keeps its data; a SQLite file made before there were two backends is recognised as it is."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from storage.db import schema_version
from storage.errors import StorageError
from storage.migrations import migrations
from storage.open import connect
from storage.query import Query
from storage.sessions import SeatRecord, Store
from storage.target import is_postgres
from tests.conftest import new_postgres_database
from tests.postgres_server import PostgresServer

LATEST = len(migrations("sqlite"))
SEATS = json.dumps([{"name": "A", "user_id": "a", "bot": None}, {"name": "B", "user_id": "b", "bot": None}])


def test_both_dialects_have_the_same_migrations() -> None:
    sqlite_names = [(v, name) for v, name, _ in migrations("sqlite")]
    assert sqlite_names == [(v, name) for v, name, _ in migrations("postgres")]
    assert LATEST >= 6


async def old_database(database: str, version: int, seat: int, kind: str, *more: str) -> None:
    """A database of schema ``version`` with one table in play and one move logged (``seat`` plays
    an action of ``kind``), and ``more`` statements."""
    old = await connect(database, upto=version)
    assert await schema_version(old) == version
    await old.execute(
        Query(
            "INSERT INTO sessions (guild_id, channel_id, game, options, host_id, seats, seed, status)"
            " VALUES ('g', 'c', 'parity', '{}', 'a', :seats, 7, 'playing')"
        ),
        seats=SEATS,
    )
    await old.execute(
        Query("INSERT INTO actions (session_id, seq, seat, action) VALUES (1, 0, :seat, :action)"),
        seat=seat,
        action=json.dumps({"kind": kind}),
    )
    for sql in more:
        await old.execute(Query(sql))
    await old.commit()
    await old.close()


async def test_upgrade_from_the_first_schema(database: str) -> None:
    await old_database(database, 1, 1, "x")

    store = await Store.open(database)
    try:
        assert await schema_version(store.conn) == LATEST
        [head] = await store.open_session_heads()
        session = await store.session(head.id)
        assert session is not None and head.action_count == 1
        assert session.seats[0].left_at is None and session.actions == [(1, {"kind": "x"})]
        async with store.conn.execute(Query("SELECT mode, unrated FROM results")) as cur:
            assert list(await cur.fetchall()) == []
        # the next session takes the next id, whatever the migrations rebuilt
        new = await store.create_session(
            guild_id="g", channel_id="d", game="parity", options={}, host_id="a",
            seats=[SeatRecord("A", "a"), SeatRecord("B", "b")], seed=1,
        )
        assert new == head.id + 1
        if not is_postgres(database):
            async with store.conn.execute(Query("PRAGMA journal_mode")) as cur:
                assert (await cur.fetchone())[0] == "wal"
    finally:
        await store.close()


async def test_upgrade_from_the_previous_version(database: str) -> None:
    """A database one migration behind, with a live table and a player's flag in it."""
    await old_database(database, LATEST - 1, 0, "y", "INSERT INTO dm_closed (user_id, told) VALUES ('b', 0)")

    store = await Store.open(database)
    try:
        assert await schema_version(store.conn) == LATEST
        [head] = await store.open_session_heads()
        assert head.action_count == 1 and head.status == "playing"
        assert await store.dm_untold_users() == {"b"}
        await store.set_quiet("a", True)
        assert await store.quiet_players() == {"a"}
        if is_postgres(database):  # the newest migration's column (SQLite's 008 adds nothing)
            assert await store.conn.execute_fetchall(Query("SELECT shard_count FROM shard_leases")) == []
    finally:
        await store.close()


async def test_migrating_twice_changes_nothing(database: str) -> None:
    for _ in range(2):
        conn = await connect(database)
        assert await schema_version(conn) == LATEST
        await conn.close()


async def test_a_file_made_by_the_single_backend_code_is_recognised(tmp_path: Path) -> None:
    """Before there were two backends, the migrations were applied one by one and the version kept
    in SQLite's ``user_version``; such a file opens without a migration run again."""
    path = tmp_path / "before.sqlite3"
    with sqlite3.connect(path) as raw:
        for version, _name, sql in migrations("sqlite"):
            raw.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version = {version};\nCOMMIT;")
        raw.execute("INSERT INTO quiet_players (user_id) VALUES ('q')")
    raw.close()

    store = await Store.open(path)
    try:
        assert await schema_version(store.conn) == LATEST
        assert await store.quiet_players() == {"q"}
    finally:
        await store.close()


async def test_a_user_who_may_not_create_tables_is_told_so(postgres_server: PostgresServer) -> None:
    """Since PostgreSQL 15 nobody but the owner creates tables in a new database's public schema."""
    url = await new_postgres_database(postgres_server)
    admin = await asyncpg.connect(url)
    try:
        await admin.execute("DO $$ BEGIN CREATE ROLE visitor LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$")
        await admin.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC")
    finally:
        await admin.close()
    visitor = url.replace("postgresql://postgres@", "postgresql://visitor@")
    with pytest.raises(StorageError, match=r"PARLOUR_DATABASE_URL=postgresql://visitor@.*cannot be used.*permission denied"):
        await Store.open(visitor)
    store = await Store.open(url)  # nothing was left half made
    try:
        assert await schema_version(store.conn) == LATEST
    finally:
        await store.close()
