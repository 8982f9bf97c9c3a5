"""Opening a database: the backend a setting names (a ``postgresql://`` URL,
``PARLOUR_DATABASE_URL``; else a SQLite file given as a path or as ``sqlite:///path``,
``PARLOUR_DB``), and the guard that keeps a second process off it. Beside the backends, which it
alone chooses between; the interface (``storage/db.py``) knows neither."""

from __future__ import annotations

from pathlib import Path

from storage.db import Database, Ownership
from storage.errors import StorageError
from storage.postgres import DatabaseLock, PostgresDatabase
from storage.sqlite import ProcessLock, SqliteDatabase
from storage.target import is_postgres, setting_for, sqlite_path


async def connect(target: str | Path, *, upto: int | None = None) -> Database:
    """Open the database ``target`` names and apply pending migrations (up to ``upto``, for tests).

    Raises :class:`StorageError` with a readable reason when it cannot be used. Takes no
    :class:`Ownership`: :meth:`storage.sessions.Store.open` does."""
    if is_postgres(target):
        return await PostgresDatabase.open(str(target), upto=upto)
    return await SqliteDatabase.open(sqlite_path(target), upto=upto, setting=setting_for(target))


def ownership(target: str | Path, *, shared: bool = False) -> Ownership:
    """The guard for ``target``: the process lock of a SQLite file, or of a PostgreSQL database
    (``shared`` by the processes of a sharded bot: PostgreSQL only)."""
    if is_postgres(target):
        return DatabaseLock(str(target), shared=shared)
    if shared:
        raise StorageError(
            f"{setting_for(target)}: processes that split the shards between them share one PostgreSQL "
            "database; a SQLite file has one process. Set PARLOUR_DATABASE_URL=postgresql://..."
        )
    return ProcessLock(sqlite_path(target), setting=setting_for(target))
