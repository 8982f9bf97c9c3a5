"""The storage backend interface: a :class:`Database`, with two implementations.

- SQLite through aiosqlite (``storage/sqlite.py``): the default, one file beside the bot and
  nothing to install; one process per file.
- PostgreSQL through asyncpg (``storage/postgres.py``): one database that the processes of a
  sharded bot share.

:func:`storage.open.connect` picks the backend from one setting (see ``storage/target.py``). Each
backend applies its own numbered migrations (``storage/migrations/<dialect>/NNN_name.sql``: the
same numbers and names for both) at start-up.

Statements are :class:`storage.query.Query` objects, written once in SQL both databases accept
and rendered for each when defined; each backend runs its rendering and turns its driver's errors
into storage's own (``storage/errors.py``: re-exported here, as the interface's callers meet them).

The interface keeps the shape of aiosqlite's connection that the rest of the bot already uses
(``execute`` awaited or used with ``async with``, rows by name or position, ``commit``), so that
``Store`` and the functions of ``storage.stats`` and ``storage.ratings`` read the same on both.
"""

from __future__ import annotations

import contextlib
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Coroutine, Generator, Iterable, Mapping
from typing import Any, Protocol

from storage.errors import Conflict, DatabaseInUse, NewerDatabase, StorageError, StorageUnavailable
from storage.query import Dialect, Query

__all__ = [
    "Conflict",
    "Cursor",
    "Database",
    "DatabaseInUse",
    "NewerDatabase",
    "Ownership",
    "Pending",
    "Row",
    "StorageError",
    "StorageUnavailable",
    "migrate",
    "schema_version",
    "transaction",
]

Row = Any
"""A result row: by column name (``row["id"]``) or position (``row[0]``), and ``dict(row)`` or
``list(row)`` (sqlite3's rows and asyncpg's records both are such rows)."""


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


class Database(ABC):
    """One open database. Every coroutine of the process shares it; writes go through
    :meth:`transaction`, one at a time (within a process; across processes each database keeps
    its own rows: a SQLite file has one process, a PostgreSQL shard one owner)."""

    dialect: Dialect
    setting: str
    """The setting that named this database, with its value (a password hidden), for messages."""

    @abstractmethod
    def execute(self, query: Query, /, **params: Any) -> Pending:
        """Run one statement with its parameters by name; outside :meth:`transaction` a write is
        committed by :meth:`commit` (SQLite) or at once (PostgreSQL). A write refused by a
        constraint raises :class:`Conflict`; a database that cannot be used just now,
        :class:`StorageUnavailable`."""

    @abstractmethod
    async def executemany(self, query: Query, rows: Iterable[Mapping[str, Any]]) -> None: ...

    async def execute_fetchall(self, query: Query, /, **params: Any) -> list[Row]:
        async with self.execute(query, **params) as cur:
            return list(await cur.fetchall())

    async def insert(self, query: Query, /, **params: Any) -> int:
        """Run one ``INSERT ... RETURNING id`` of one row; returns the new id."""
        async with self.execute(query, **params) as cur:
            row = await cur.fetchone()
        assert row is not None, f"no id returned by: {query.source}"
        return int(row[0])

    async def write(self, query: Query, /, **params: Any) -> int:
        """One write statement in a transaction of its own: committed, or rolled back if it fails
        (:class:`Conflict` for a refused write, as from :meth:`execute`); returns the number of
        rows it changed. The same as :meth:`execute` inside :meth:`transaction`; a backend may do
        it in one step (SQLite: one call on its connection's thread, where that took two)."""
        async with self.transaction():
            cur = await self.execute(query, **params)
            return cur.rowcount

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


# -- the same calls as before, for any backend ------------------------------------------------------


async def schema_version(conn: Database) -> int:
    return await conn.schema_version()


async def migrate(conn: Database, upto: int | None = None) -> int:
    return await conn.migrate(upto)


def transaction(conn: Database) -> contextlib.AbstractAsyncContextManager[Database]:
    """See :meth:`Database.transaction`."""
    return conn.transaction()
