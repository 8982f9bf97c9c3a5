"""The SQLite connection: pragmas (WAL, foreign keys) and numbered migrations applied at start-up."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import aiosqlite

_MIGRATION_NAME = re.compile(r"^(\d+)_[a-z0-9_]+\.sql$")


def migrations() -> list[tuple[int, str, str]]:
    """(version, name, sql) for every file in ``storage/migrations``, in order."""
    out = []
    for entry in resources.files("storage.migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            out.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    out.sort()
    versions = [v for v, _, _ in out]
    assert versions == list(range(1, len(out) + 1)), f"migrations must be numbered 1..n: {versions}"
    return out


async def connect(path: str | Path, *, upto: int | None = None) -> aiosqlite.Connection:
    """Open the database, set the pragmas and apply pending migrations (up to ``upto``, for tests)."""
    conn = await aiosqlite.connect(str(path))
    conn.row_factory = aiosqlite.Row
    pragmas = ["foreign_keys = ON", "busy_timeout = 5000"]
    if str(path) != ":memory:":
        pragmas[1:1] = ["journal_mode = WAL", "synchronous = NORMAL"]
    for pragma in pragmas:
        # close each cursor at once: an unread PRAGMA result left open until garbage collection
        # keeps a statement in progress, and the migration's COMMIT then fails
        async with conn.execute(f"PRAGMA {pragma}"):
            pass
    await migrate(conn, upto)
    return conn


async def schema_version(conn: aiosqlite.Connection) -> int:
    async with conn.execute("PRAGMA user_version") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def migrate(conn: aiosqlite.Connection, upto: int | None = None) -> int:
    """Apply every migration newer than the database's ``user_version``; returns the new version."""
    current = await schema_version(conn)
    for version, _name, sql in migrations():
        if version <= current or (upto is not None and version > upto):
            continue
        await conn.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version = {version};\nCOMMIT;")
        current = version
    return current
