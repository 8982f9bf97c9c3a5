"""Migrations: a database made by the first schema upgrades in place and keeps its data."""

from __future__ import annotations

import json
from pathlib import Path

from storage.db import connect, migrations, schema_version
from storage.sessions import Store


async def test_upgrade_from_the_first_schema(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = await connect(path, upto=1)
    assert await schema_version(old) == 1
    await old.execute(
        "INSERT INTO sessions (guild_id, channel_id, game, options, host_id, seats, seed, status)"
        " VALUES ('g', 'c', 'parity', '{}', 'a', ?, 7, 'playing')",
        (json.dumps([{"name": "A", "user_id": "a", "bot": None}, {"name": "B", "user_id": "b", "bot": None}]),),
    )
    await old.execute("INSERT INTO actions (session_id, seq, seat, action) VALUES (1, 0, 1, '{\"kind\": \"x\"}')")
    await old.commit()
    await old.close()

    store = await Store.open(path)
    try:
        assert await schema_version(store.conn) == len(migrations())
        [head] = await store.open_session_heads()
        session = await store.session(head.id)
        assert session is not None and head.action_count == 1
        assert session.seats[0].left_at is None and session.actions == [(1, {"kind": "x"})]
        async with store.conn.execute("SELECT mode, unrated FROM results") as cur:
            assert await cur.fetchall() == []
        async with store.conn.execute("PRAGMA journal_mode") as cur:
            assert (await cur.fetchone())[0] == "wal"  # type: ignore[index]
    finally:
        await store.close()


async def test_migrating_twice_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    for _ in range(2):
        conn = await connect(path)
        assert await schema_version(conn) == len(migrations())
        await conn.close()
