"""The storage backend interface: a :class:`Database`, with two implementations.

- SQLite through aiosqlite (``storage/sqlite.py``): the default, one file beside the bot and
  nothing to install; one process per file.
- PostgreSQL through asyncpg (``storage/postgres.py``): one database that the processes of a
  sharded bot share.

:func:`connect` picks the backend from one setting: a ``postgresql://`` URL
(``PARLOUR_DATABASE_URL``), else a SQLite file given as a path or as ``sqlite:///path``
(``PARLOUR_DB``, as before). Each backend applies its own numbered migrations
(``storage/migrations/<dialect>/NNN_name.sql``: the same numbers and names for both) at start-up.

The queries are written once, in the SQL both databases accept. Where they disagree the queries
use SQLite's spelling and the PostgreSQL dialect rewrites it (see
:meth:`storage.postgres.PostgresDialect.translate`): ``?`` placeholders become ``$1, $2...``, and
:data:`NOW` (the UTC time stamp the tables store as text) becomes PostgreSQL's expression. The few
other differences are avoided in the SQL itself: ``ON CONFLICT DO NOTHING`` rather than
``INSERT OR IGNORE``, a ``CASE`` rather than summing a comparison, a table-qualified column in an
upsert, and :meth:`Database.insert` for a new row's id.

The interface keeps the shape of aiosqlite's connection that the rest of the bot already uses
(``execute`` awaited or used with ``async with``, rows by name or position, ``commit``), so that
``Store`` and the functions of ``storage.stats`` and ``storage.ratings`` read the same on both.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Coroutine, Generator, Iterable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit, urlunsplit

_MIGRATION_NAME = re.compile(r"^(\d+)_[a-z0-9_]+\.sql$")

NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
"""The current UTC time as the tables store it (``2026-11-24T10:00:00.123Z``), in SQLite's words."""

Row = Any
"""A result row: by column name (``row["id"]``) or position (``row[0]``), and ``dict(row)`` or
``list(row)`` (sqlite3's rows and asyncpg's records both are such rows)."""


class StorageError(Exception):
    """The database cannot be used as configured; the message says what to change."""


class DatabaseInUse(StorageError):
    """Another process holds the database."""


class IntegrityError(sqlite3.IntegrityError):
    """A write refused by a constraint (a unique key, a foreign key), with nothing written.

    SQLite raises ``sqlite3.IntegrityError`` itself; PostgreSQL's refusals are raised as this
    subclass of it, so a caller catches ``sqlite3.IntegrityError`` on either backend."""


class Cursor(Protocol):
    """The rows (or the count of rows changed) of one statement."""

    @property
    def rowcount(self) -> int: ...

    async def fetchone(self) -> Row | None: ...

    async def fetchall(self) -> Iterable[Row]: ...

    def __aiter__(self) -> AsyncIterator[Row]: ...

    async def close(self) -> None: ...


class Pending:
    """A statement on its way: ``await`` it for its cursor, or use it as ``async with ... as cur``
    (the cursor is closed at the end of the block), as with aiosqlite."""

    def __init__(self, run: Coroutine[Any, Any, Cursor]) -> None:
        self._run = run
        self._cursor: Cursor | None = None

    def __await__(self) -> Generator[Any, None, Cursor]:
        return self._run.__await__()

    async def __aenter__(self) -> Cursor:
        self._cursor = await self._run
        return self._cursor

    async def __aexit__(self, *exc: object) -> None:
        if self._cursor is not None:
            await self._cursor.close()


class Dialect:
    """What differs between the SQL of two databases; SQLite's needs no change."""

    name = "sqlite"

    def translate(self, sql: str) -> str:
        return sql


class Database(ABC):
    """One open database. Every coroutine of the process shares it; writes go through
    :meth:`transaction`, one at a time (within a process; across processes each database keeps
    its own rows: a SQLite file has one process, a PostgreSQL shard one owner)."""

    dialect: Dialect
    setting: str
    """The setting that named this database, with its value (a password hidden), for messages."""

    @abstractmethod
    def execute(self, sql: str, params: Sequence[Any] = ()) -> Pending:
        """Run one statement; outside :meth:`transaction` a write is committed by :meth:`commit`
        (SQLite) or at once (PostgreSQL)."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    async def execute_fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self.execute(sql, params) as cur:
            return list(await cur.fetchall())

    @abstractmethod
    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one ``INSERT`` of one row into a table with an ``id`` key; returns the new id."""

    @abstractmethod
    def transaction(self) -> contextlib.AbstractAsyncContextManager[Database]:
        """Everything written inside the block is committed together, or rolled back if it fails.

        The database is shared by every coroutine of the process, so writers take turns: another
        coroutine's commit must not land half of this block, nor its rollback undo someone else's
        rows."""

    @property
    @abstractmethod
    def in_transaction(self) -> bool: ...

    @abstractmethod
    async def commit(self) -> None: ...

    @abstractmethod
    async def rollback(self) -> None: ...

    @abstractmethod
    async def schema_version(self) -> int:
        """The number of the last migration applied (0 for a new database)."""

    @abstractmethod
    async def migrate(self, upto: int | None = None) -> int:
        """Apply every migration newer than :meth:`schema_version` (up to ``upto``, for tests),
        each in its own transaction with its version; returns the new version."""

    @abstractmethod
    async def close(self) -> None: ...


class Ownership(Protocol):
    """What keeps a second process off the rows this one acts on, taken before the database is
    opened and given up when it closes: on SQLite a lock on the file
    (:class:`storage.sqlite.ProcessLock`); on PostgreSQL a lock on the database
    (:class:`storage.postgres.DatabaseLock`), exclusive for a process that serves every server and
    shared by the processes of a sharded bot, which split the servers by shard lease."""

    async def acquire(self) -> None: ...

    async def release(self) -> None: ...


# -- choosing the backend -------------------------------------------------------------------------


def is_postgres(target: str | Path) -> bool:
    return isinstance(target, str) and target.split(":", 1)[0].lower() in ("postgresql", "postgres")


def sqlite_path(target: str | Path) -> str:
    """The file of a SQLite target: a path, or ``sqlite:///relative/path``, ``sqlite:////absolute/path``."""
    text = str(target)
    if text.lower().startswith("sqlite:"):
        rest = text[len("sqlite:") :]
        if not rest.startswith("///"):
            raise StorageError(
                f"PARLOUR_DATABASE_URL={text}: a SQLite URL is sqlite:///relative/path or sqlite:////absolute/path."
            )
        return rest[3:] or ":memory:"
    return text


def setting_for(target: str | Path) -> str:
    """``NAME=value`` of the setting that gives this target, the password hidden."""
    text = str(target)
    if "://" not in text:
        return f"PARLOUR_DB={text}"
    parts = urlsplit(text)
    if parts.password is not None:
        user = parts.username or ""
        host = parts.netloc.rsplit("@", 1)[1]
        parts = parts._replace(netloc=f"{user}:***@{host}")
    return f"PARLOUR_DATABASE_URL={urlunsplit(parts)}"


def migrations(dialect: str = "sqlite") -> list[tuple[int, str, str]]:
    """(version, name, sql) for every file in ``storage/migrations/<dialect>``, in order."""
    out = []
    for entry in resources.files("storage.migrations").joinpath(dialect).iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            out.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    out.sort()
    versions = [v for v, _, _ in out]
    assert versions == list(range(1, len(out) + 1)), f"migrations must be numbered 1..n: {versions}"
    return out


async def connect(target: str | Path, *, upto: int | None = None) -> Database:
    """Open the database ``target`` names and apply pending migrations (up to ``upto``, for tests).

    Raises :class:`StorageError` with a readable reason when it cannot be used. Takes no
    :class:`Ownership`: :meth:`storage.sessions.Store.open` does."""
    if is_postgres(target):
        from storage.postgres import PostgresDatabase

        return await PostgresDatabase.open(str(target), upto=upto)
    from storage.sqlite import SqliteDatabase

    return await SqliteDatabase.open(sqlite_path(target), upto=upto, setting=setting_for(target))


def ownership(target: str | Path, *, shared: bool = False) -> Ownership:
    """The guard for ``target``: the process lock of a SQLite file, or of a PostgreSQL database
    (``shared`` by the processes of a sharded bot: PostgreSQL only)."""
    if is_postgres(target):
        from storage.postgres import DatabaseLock

        return DatabaseLock(str(target), shared=shared)
    if shared:
        raise StorageError(
            f"{setting_for(target)}: processes that split the shards between them share one PostgreSQL "
            "database; a SQLite file has one process. Set PARLOUR_DATABASE_URL=postgresql://..."
        )
    from storage.sqlite import ProcessLock

    return ProcessLock(sqlite_path(target), setting=setting_for(target))


# -- the same calls as before, for any backend ------------------------------------------------------


async def schema_version(conn: Database) -> int:
    return await conn.schema_version()


async def migrate(conn: Database, upto: int | None = None) -> int:
    return await conn.migrate(upto)


def transaction(conn: Database) -> contextlib.AbstractAsyncContextManager[Database]:
    """See :meth:`Database.transaction`."""
    return conn.transaction()
