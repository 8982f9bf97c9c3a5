"""A database written by a newer Parlour is refused at start, in one line naming both versions,
and left as it was: this version would misread its tables, and then write into them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg
import pytest

from storage.errors import NewerDatabase
from storage.migrations import migrations
from storage.open import connect
from storage.sessions import Store
from tests.conftest import new_postgres_database
from tests.postgres_server import PostgresServer
from tests.test_startup import one_line_error, run_bot

KNOWN = len(migrations("sqlite"))


async def test_a_newer_sqlite_file_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "parlour.sqlite3"
    db = await connect(str(path))
    await db.close()
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {KNOWN + 1}")
        conn.execute("INSERT INTO guild_settings (guild_id, settings) VALUES ('g', '{\"newer\": true}')")

    result = run_bot("console", env={"PARLOUR_DB": str(path)}, stdin="ann: /play toy\n")
    line = one_line_error(result, f"schema version {KNOWN + 1}", f"knows up to {KNOWN}", f"PARLOUR_DB={path}")
    assert line.startswith("Parlour cannot start: ")
    assert result.stdout == ""  # no console, no table opened

    with sqlite3.connect(path) as conn:  # left as it was
        assert conn.execute("PRAGMA user_version").fetchone()[0] == KNOWN + 1
        assert conn.execute("SELECT settings FROM guild_settings").fetchall() == [('{"newer": true}',)]
        assert conn.execute("SELECT COUNT(*) FROM sessions").fetchone()[0] == 0


async def test_a_newer_postgres_database_is_refused_in_one_line(postgres_server: PostgresServer) -> None:
    url = await new_postgres_database(postgres_server)
    store = await Store.open(url)
    await store.close()
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("INSERT INTO schema_version (version, name) VALUES ($1, 'from_the_future.sql')", KNOWN + 1)
    finally:
        await conn.close()

    with pytest.raises(NewerDatabase, match=f"schema version {KNOWN + 1}; this version knows up to {KNOWN}"):
        await Store.open(url)
    result = run_bot("console", env={"PARLOUR_DATABASE_URL": url}, stdin="ann: /play toy\n")
    one_line_error(result, f"schema version {KNOWN + 1}", f"knows up to {KNOWN}", "PARLOUR_DATABASE_URL=")
    assert result.stdout == ""

    conn = await asyncpg.connect(url)
    try:
        assert await conn.fetchval("SELECT MAX(version) FROM schema_version") == KNOWN + 1
        assert await conn.fetchval("SELECT COUNT(*) FROM sessions") == 0
    finally:
        await conn.close()
