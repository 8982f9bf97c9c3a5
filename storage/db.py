"""The SQLite connection: pragmas (WAL, foreign keys), numbered migrations applied at start-up,
one writer transaction at a time, and the lock that keeps a second process off the file."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import sqlite3
import weakref
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import IO

import aiosqlite

_MIGRATION_NAME = re.compile(r"^(\d+)_[a-z0-9_]+\.sql$")


class StorageError(Exception):
    """The database cannot be used as configured; the message says what to change."""


class DatabaseInUse(StorageError):
    """Another process holds the database file."""


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


def _check_path(path: str | Path) -> None:
    """Refuse, with a sentence naming the setting, a path SQLite would fail on obscurely."""
    if str(path) == ":memory:":
        return
    file = Path(path)
    folder = file.parent if str(file.parent) else Path(".")
    if not folder.is_dir():
        raise StorageError(f"PARLOUR_DB={path}: the folder {folder} does not exist. Create it, or point PARLOUR_DB elsewhere.")
    if file.is_dir():
        raise StorageError(f"PARLOUR_DB={path} is a folder; it must name a database file.")
    if file.exists() and not os.access(file, os.R_OK | os.W_OK):
        raise StorageError(f"PARLOUR_DB={path}: this process may not read and write that file. Fix its owner or permissions.")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StorageError(
            f"PARLOUR_DB={path}: this process may not write in {folder} (SQLite keeps its journal beside the file). "
            "Fix the folder's permissions, or point PARLOUR_DB at a writable place."
        )


async def connect(path: str | Path, *, upto: int | None = None) -> aiosqlite.Connection:
    """Open the database, set the pragmas and apply pending migrations (up to ``upto``, for tests).

    Raises :class:`StorageError` with a readable reason when the file cannot be used."""
    _check_path(path)
    conn = await aiosqlite.connect(str(path))
    try:
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
    except sqlite3.DatabaseError as exc:
        await conn.close()
        raise StorageError(
            f"PARLOUR_DB={path} cannot be used as Parlour's database ({exc}). "
            "If the file is damaged, restore a backup or point PARLOUR_DB at a new file."
        ) from exc
    return conn


async def schema_version(conn: aiosqlite.Connection) -> int:
    async with conn.execute("PRAGMA user_version") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def migrate(conn: aiosqlite.Connection, upto: int | None = None) -> int:
    """Apply every migration newer than the database's ``user_version``; returns the new version.

    Foreign keys are off while migrations run, as SQLite asks for a table rebuilt with a new
    definition (dropping the old table must not cascade to its children), and checked after."""
    current = await schema_version(conn)
    pending = [m for m in migrations() if m[0] > current and (upto is None or m[0] <= upto)]
    if not pending:
        return current
    await conn.execute("PRAGMA foreign_keys = OFF")
    try:
        for version, _name, sql in pending:
            await conn.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version = {version};\nCOMMIT;")
            current = version
        async with conn.execute("PRAGMA foreign_key_check") as cur:
            broken = list(await cur.fetchall())
        if broken:
            raise sqlite3.DatabaseError(f"a migration left {len(broken)} row(s) with a missing parent")
    finally:
        await conn.execute("PRAGMA foreign_keys = ON")
    return current


# -- one writer at a time ------------------------------------------------------------------------

_write_locks: weakref.WeakKeyDictionary[aiosqlite.Connection, asyncio.Lock] = weakref.WeakKeyDictionary()


@contextlib.asynccontextmanager
async def transaction(conn: aiosqlite.Connection) -> AsyncIterator[aiosqlite.Connection]:
    """Everything written inside the block is committed together, or rolled back if it fails.

    The connection is shared by every coroutine of the process, so writers take turns: another
    coroutine's commit must not land half of this block, nor its rollback undo someone else's
    rows. A failed write never leaves the file inside a transaction ("database is locked")."""
    lock = _write_locks.get(conn)
    if lock is None:
        lock = _write_locks[conn] = asyncio.Lock()
    async with lock:
        try:
            yield conn
        except BaseException:
            with contextlib.suppress(sqlite3.Error, ValueError):  # ValueError: already closed
                await conn.rollback()
            raise
        await conn.commit()


# -- one process per database file -----------------------------------------------------------------

_held: dict[str, tuple[IO[str], int]] = {}


class ProcessLock:
    """An exclusive lock on ``<database>.lock`` for as long as this process uses the database.

    Two bot processes on one SQLite file would both restore the same tables and then fight over
    them; the second is refused at start instead. Within one process the lock is shared (a test
    that restarts the bot opens the new store before it closes the old one)."""

    def __init__(self, path: str | Path) -> None:
        self.key = "" if str(path) == ":memory:" else os.path.realpath(path)
        self.path = path
        self.held = False

    def acquire(self) -> None:
        if not self.key or self.held:
            return
        _check_path(self.path)
        if self.key in _held:
            handle, count = _held[self.key]
            _held[self.key] = (handle, count + 1)
            self.held = True
            return
        try:
            import fcntl
        except ImportError:  # not on Windows: nothing to lock with
            return
        lock_file = self.key + ".lock"
        try:
            handle = open(lock_file, "a+", encoding="utf-8")  # noqa: SIM115 (held open for the process's life)
        except OSError as exc:
            raise StorageError(f"PARLOUR_DB={self.path}: cannot create {lock_file} ({exc.strerror}).") from exc
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise DatabaseInUse(
                f"PARLOUR_DB={self.path} is in use by another Parlour process. Stop that process first, "
                "or give this one its own database (one process per SQLite file)."
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        _held[self.key] = (handle, 1)
        self.held = True

    def release(self) -> None:
        if not self.held:
            return
        self.held = False
        handle, count = _held[self.key]
        if count > 1:
            _held[self.key] = (handle, count - 1)
            return
        del _held[self.key]
        handle.close()  # closing the file releases the lock
