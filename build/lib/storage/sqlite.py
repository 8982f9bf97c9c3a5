"""The SQLite backend: pragmas (WAL, foreign keys), its numbered migrations applied at start-up
(the version kept in ``PRAGMA user_version``), one writer transaction at a time, and the lock that
keeps a second process off the file."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from pathlib import Path
from typing import IO, Any

import aiosqlite

from storage.db import Database, DatabaseInUse, Dialect, Pending, StorageError, migrations

SQLITE = Dialect()


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
        except sqlite3.DatabaseError as exc:
            await raw.close()
            name = setting.split("=", 1)[0]
            raise StorageError(
                f"{setting} cannot be used as Parlour's database ({exc}). "
                f"If the file is damaged, restore a backup or point {name} at a new file."
            ) from exc
        return db

    # -- statements ----------------------------------------------------------------------------

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Pending:
        return Pending(self._execute(sql, params))

    async def _execute(self, sql: str, params: Sequence[Any]) -> aiosqlite.Cursor:
        return await self.raw.execute(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.raw.executemany(sql, rows)

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        cur = await self.raw.execute(sql, params)
        assert cur.lastrowid is not None
        return cur.lastrowid

    # -- transactions ------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Database]:
        # A failed write never leaves the file inside a transaction ("database is locked").
        async with self._write_lock:
            try:
                yield self
            except BaseException:
                with contextlib.suppress(sqlite3.Error, ValueError):  # ValueError: already closed
                    await self.raw.rollback()
                raise
            await self.raw.commit()

    @property
    def in_transaction(self) -> bool:
        return self.raw.in_transaction

    async def commit(self) -> None:
        await self.raw.commit()

    async def rollback(self) -> None:
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


class ProcessLock:
    """An exclusive lock on ``<database>.lock`` for as long as this process uses the database.

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
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise DatabaseInUse(
                f"{self.setting} is in use by another Parlour process. Stop that process first, "
                "or give this one its own database (one process per SQLite file)."
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        _held[self.key] = (handle, 1)
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
