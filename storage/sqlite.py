"""The SQLite backend: pragmas (WAL, foreign keys), its numbered migrations applied at start-up
(the version kept in ``PRAGMA user_version``), one writer transaction at a time, and the lock that
keeps a second process off the file."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

import aiosqlite

from storage.db import Database, Pending
from storage.errors import Conflict, DatabaseInUse, StorageError, StorageUnavailable
from storage.migrations import migrations, refuse_newer
from storage.query import SQLITE, Query

_UNAVAILABLE_CODES = {
    sqlite3.SQLITE_BUSY: "another program holds the file locked",
    sqlite3.SQLITE_LOCKED: "the file is locked",
    sqlite3.SQLITE_READONLY: "the file cannot be written",
    sqlite3.SQLITE_IOERR: "the disk failed to read or write",
    sqlite3.SQLITE_FULL: "the disk is full",
    sqlite3.SQLITE_CANTOPEN: "the file cannot be opened",
}
"""SQLite's primary result codes that say the file cannot be used just now, rather than that a
statement was wrong (both arrive as ``sqlite3.OperationalError``)."""


_AIOSQLITE_CLOSED = ("Connection closed", "no active connection")


@contextlib.contextmanager
def _translated(setting: str) -> Iterator[None]:
    """sqlite3's errors as storage's: :class:`Conflict` for a write a constraint refused,
    :class:`StorageUnavailable` for a file that cannot be read or written just now or a
    connection already closed. Any other error (a statement that is wrong) stays as it is."""
    try:
        yield
    except sqlite3.IntegrityError as exc:
        raise Conflict(f"{setting}: the write was refused ({exc})") from exc
    except sqlite3.OperationalError as exc:
        reason = _UNAVAILABLE_CODES.get(getattr(exc, "sqlite_errorcode", 0) & 0xFF)
        if reason is None:
            raise
        raise StorageUnavailable(f"{setting}: {reason} ({exc})") from exc
    except sqlite3.ProgrammingError as exc:
        if "closed" not in str(exc):
            raise
        raise StorageUnavailable(f"{setting}: the database is closed ({exc})") from exc
    except ValueError as exc:  # aiosqlite's, once the connection is closed (its thread stopped)
        if str(exc) not in _AIOSQLITE_CLOSED:
            raise
        raise StorageUnavailable(f"{setting}: the database is closed ({exc})") from exc


def _write_now(raw: aiosqlite.Connection, sql: str, args: tuple[Any, ...]) -> int:
    """On aiosqlite's connection thread: run one write and commit it, or roll it back if either
    fails; the number of rows it changed."""
    conn = raw._conn
    try:
        cursor = conn.execute(sql, args)
        count = cursor.rowcount
        cursor.close()
        conn.commit()
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            conn.rollback()
        raise
    return count


def _check_path(path: str | Path, setting: str) -> None:
    """Refuse, with a sentence naming the setting, a path SQLite would fail on obscurely."""
    if str(path) == ":memory:":
        return
    file = Path(path)
    folder = file.parent if str(file.parent) else Path(".")
    name = setting.split("=", 1)[0]
    if not folder.is_dir():
        raise StorageError(f"{setting}: the folder {folder} does not exist. Create it, or point {name} elsewhere.")
    if file.is_dir():
        raise StorageError(f"{setting} is a folder; it must name a database file.")
    if file.exists() and not os.access(file, os.R_OK | os.W_OK):
        raise StorageError(f"{setting}: this process may not read and write that file. Fix its owner or permissions.")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StorageError(
            f"{setting}: this process may not write in {folder} (SQLite keeps its journal beside the file). "
            f"Fix the folder's permissions, or point {name} at a writable place."
        )


class SqliteDatabase(Database):
    dialect = SQLITE

    def __init__(self, raw: aiosqlite.Connection, setting: str) -> None:
        self.raw = raw
        """The aiosqlite connection underneath."""
        self.setting = setting
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path, *, upto: int | None = None, setting: str | None = None) -> SqliteDatabase:
        setting = setting or f"PARLOUR_DB={path}"
        _check_path(path, setting)
        raw = await aiosqlite.connect(str(path))
        db = cls(raw, setting)
        try:
            raw.row_factory = aiosqlite.Row
            pragmas = ["foreign_keys = ON", "busy_timeout = 5000"]
            if str(path) != ":memory:":
                pragmas[1:1] = ["journal_mode = WAL", "synchronous = NORMAL"]
            for pragma in pragmas:
                # close each cursor at once: an unread PRAGMA result left open until garbage collection
                # keeps a statement in progress, and the migration's COMMIT then fails
                async with raw.execute(f"PRAGMA {pragma}"):
                    pass
            await db.migrate(upto)
        except BaseException as exc:
            await raw.close()  # else its thread keeps the process alive
            if not isinstance(exc, sqlite3.DatabaseError):
                raise
            name = setting.split("=", 1)[0]
            raise StorageError(
                f"{setting} cannot be used as Parlour's database ({exc}). "
                f"If the file is damaged, restore a backup or point {name} at a new file."
            ) from exc
        return db

    # -- statements ----------------------------------------------------------------------------

    def execute(self, query: Query, /, **params: Any) -> Pending:
        return Pending(self._execute(query.text(SQLITE), query.args(params)))

    async def _execute(self, sql: str, args: tuple[Any, ...]) -> aiosqlite.Cursor:
        # sqlite3 steps a statement once as it is executed: a refused write (an INSERT ...
        # RETURNING's too) fails here, inside the translation
        with _translated(self.setting):
            return await self.raw.execute(sql, args)

    async def executemany(self, query: Query, rows: Iterable[Mapping[str, Any]]) -> None:
        with _translated(self.setting):
            await self.raw.executemany(query.text(SQLITE), [query.args(row) for row in rows])

    async def write(self, query: Query, /, **params: Any) -> int:
        """The statement and its commit (or its rollback) as one function on aiosqlite's
        connection thread: one hop between the event loop and that thread where
        :meth:`transaction` around :meth:`execute` takes two (the statement, then the commit),
        each a wake-up of the thread and a callback back on the loop (measured: about a tenth
        of the bot's event loop at a move, most of it in these hops). Nothing else runs on the
        connection meanwhile: aiosqlite runs its calls one after another on that thread, and
        other writers wait for the write lock.

        Once queued on that thread the write lands even if the caller is cancelled while it waits
        (as a write cancelled just after its commit would): a cancelled write's outcome is not
        known to its caller. The service never cancels a move's write; at shutdown, a move that
        landed this way is replayed from the log on restart like any other."""
        sql, args = query.text(SQLITE), query.args(params)
        async with self._write_lock:
            with _translated(self.setting):
                # aiosqlite's own way of running a call on its thread (what its execute and commit use)
                count: int = await self.raw._execute(_write_now, self.raw, sql, args)
                return count

    # -- transactions ------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Database]:
        # A failed write (or a failed commit: a full disk) never leaves the file inside a
        # transaction ("database is locked").
        async with self._write_lock:
            try:
                yield self
                with _translated(self.setting):
                    await self.raw.commit()
            except BaseException:
                with contextlib.suppress(sqlite3.Error, ValueError):  # ValueError: already closed
                    await self.raw.rollback()
                raise

    @property
    def in_transaction(self) -> bool:
        return self.raw.in_transaction

    async def commit(self) -> None:
        with _translated(self.setting):
            await self.raw.commit()

    async def rollback(self) -> None:
        with _translated(self.setting):
            await self.raw.rollback()

    async def close(self) -> None:
        await self.raw.close()

    # -- migrations ----------------------------------------------------------------------------

    async def schema_version(self) -> int:
        async with self.raw.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self, upto: int | None = None) -> int:
        """Foreign keys are off while migrations run, as SQLite asks for a table rebuilt with a new
        definition (dropping the old table must not cascade to its children), and checked after."""
        current = await self.schema_version()
        refuse_newer(self.setting, current, "sqlite")
        pending = [m for m in migrations("sqlite") if m[0] > current and (upto is None or m[0] <= upto)]
        if not pending:
            return current
        await self.raw.execute("PRAGMA foreign_keys = OFF")
        try:
            for version, _name, sql in pending:
                await self.raw.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version = {version};\nCOMMIT;")
                current = version
            async with self.raw.execute("PRAGMA foreign_key_check") as cur:
                broken = list(await cur.fetchall())
            if broken:
                raise sqlite3.DatabaseError(f"a migration left {len(broken)} row(s) with a missing parent")
        finally:
            await self.raw.execute("PRAGMA foreign_keys = ON")
        return current


# -- one process per database file -----------------------------------------------------------------

_held: dict[str, tuple[IO[str], int]] = {}
_database_locks: dict[str, int] = {}
"""The descriptor holding the lock on each database file this process uses."""


class ProcessLock:
    """An exclusive lock on ``<database>.lock`` and on the database file itself for as long as this
    process uses the database (the lock file names the holder's pid; the file's own lock holds even
    if the lock file is deleted). The kernel holds both until the process closes them or dies:
    there is no server whose restart could drop them.

    Two bot processes on one SQLite file would both restore the same tables and then fight over
    them; the second is refused at start instead. Within one process the lock is shared (a test
    that restarts the bot opens the new store before it closes the old one)."""

    def __init__(self, path: str | Path, setting: str | None = None) -> None:
        self.key = "" if str(path) == ":memory:" else os.path.realpath(path)
        self.path = path
        self.setting = setting or f"PARLOUR_DB={path}"
        self.held = False

    async def acquire(self) -> None:
        if not self.key or self.held:
            return
        _check_path(self.path, self.setting)
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
            raise StorageError(f"{self.setting}: cannot create {lock_file} ({exc.strerror}).") from exc
        database: int | None = None
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            # the database file itself too: a lock file deleted under a running process (taken
            # for a stale one) would otherwise let a second process in beside it. flock() and
            # SQLite's own fcntl() locks do not meet on a local file system.
            database = os.open(self.key, os.O_RDWR | os.O_CREAT, 0o644)
            fcntl.flock(database, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            if database is not None:
                os.close(database)
            raise DatabaseInUse(
                f"{self.setting} is in use by another Parlour process. Stop that process first, "
                "or give this one its own database (one process per SQLite file)."
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        _held[self.key] = (handle, 1)
        _database_locks[self.key] = database
        self.held = True

    async def release(self) -> None:
        if not self.held:
            return
        self.held = False
        handle, count = _held[self.key]
        if count > 1:
            _held[self.key] = (handle, count - 1)
            return
        del _held[self.key]
        handle.close()  # closing the file releases the lock
        database = _database_locks.pop(self.key, None)
        if database is not None:
            os.close(database)
