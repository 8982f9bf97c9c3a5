"""The PostgreSQL backend, through asyncpg: one database shared by the processes of a sharded bot.

Why asyncpg rather than psycopg 3: the bot is asyncio from end to end and asyncpg is an asyncio
driver and nothing else, with PostgreSQL's protocol written in it (no libpq to install beside the
wheel), a pool, and a cache of prepared statements per connection, which suits a bot that runs the
same few dozen statements all day. Its placeholders are PostgreSQL's own (``$1, $2``), which the
dialect below gets from SQLite's ``?`` by counting; psycopg's ``%s`` would also need every literal
``%`` in the SQL doubled. What it costs: asyncpg is strict about parameter types (an ``int`` is
not accepted for a ``TEXT`` column), which the queries already respect.

Statements outside :meth:`PostgresDatabase.transaction` run on any connection of the pool and
commit at once; a transaction holds one connection, and the statements of the coroutine inside it
(found through a context variable) run on that connection. Writers take turns within a process, as
on SQLite: the rating update reads then writes, and a server's rows are written by one process
only (the one that owns its shard).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextvars import ContextVar
from typing import Any

import asyncpg

from storage.db import (
    NOW,
    Database,
    DatabaseInUse,
    Dialect,
    IntegrityError,
    Pending,
    Row,
    StorageError,
    migrations,
    setting_for,
)

POOL_SIZE = 10
CONNECT_TIMEOUT = 10.0
OWNER_LOCK = 0x7061726C6F7572
"""The advisory lock a bot process holds on its database ("parlour" in ASCII)."""
MIGRATION_LOCK = OWNER_LOCK + 1
"""The advisory lock taken while migrations run, so that processes starting together apply each once."""

NOW_POSTGRES = "to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
""":data:`storage.db.NOW` in PostgreSQL's words: the same text, to the millisecond."""


class PostgresDialect(Dialect):
    name = "postgres"

    def translate(self, sql: str) -> str:
        """SQLite's spelling of a query made PostgreSQL's: ``?`` placeholders numbered ``$1, $2...``
        and :data:`storage.db.NOW`. A query only SQLite understands is refused here, at once."""
        return _translate(sql)


@functools.lru_cache(maxsize=2048)
def _translate(sql: str) -> str:
    text = sql.replace(NOW, NOW_POSTGRES)
    upper = text.upper()
    for word in ("STRFTIME(", "INSERT OR ", "PRAGMA ", "AUTOINCREMENT"):
        if word in upper:
            raise ValueError(f"SQLite-only SQL ({word.strip()}) sent to PostgreSQL: {sql}")
    out: list[str] = []
    number = 0
    quoted = False
    for ch in text:
        if ch == "'":
            quoted = not quoted
        elif ch == "?" and not quoted:
            number += 1
            out.append(f"${number}")
            continue
        out.append(ch)
    return "".join(out)


@functools.lru_cache(maxsize=2048)
def _returns_rows(sql: str) -> bool:
    words = sql.lstrip().split(None, 1)
    return (bool(words) and words[0].upper() in ("SELECT", "WITH", "VALUES", "SHOW")) or " RETURNING " in sql.upper()


def _count(status: str) -> int:
    """The rows a command changed, from its status (``UPDATE 3``, ``INSERT 0 1``)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


POSTGRES = PostgresDialect()

_current: ContextVar[tuple[PostgresDatabase, Any] | None] = ContextVar("parlour_postgres_transaction", default=None)
"""The database and connection of the transaction the running coroutine is inside, if any."""


class PostgresCursor:
    """The rows of one statement, already fetched (or only the count of rows it changed)."""

    def __init__(self, rows: list[Row], rowcount: int) -> None:
        self._rows = rows
        self._next = 0
        self._rowcount = rowcount

    @property
    def rowcount(self) -> int:
        return self._rowcount

    @property
    def lastrowid(self) -> None:
        return None  # use Database.insert

    async def fetchone(self) -> Row | None:
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    async def fetchall(self) -> list[Row]:
        rows, self._next = self._rows[self._next :], len(self._rows)
        return rows

    async def __aiter__(self) -> AsyncIterator[Row]:
        while (row := await self.fetchone()) is not None:
            yield row

    async def close(self) -> None:
        self._rows = []


def _unreachable(setting: str, exc: BaseException) -> StorageError:
    reason = str(exc) or type(exc).__name__
    return StorageError(
        f"{setting}: cannot connect to PostgreSQL ({reason}). Check the server is running and the "
        "address, user, password and database name in the URL."
    )


_CONNECT_ERRORS = (OSError, asyncio.TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError)


async def _init_connection(conn: Any) -> None:
    # AVG() and other numeric results come back as float, as SQLite's REAL does (not Decimal)
    await conn.set_type_codec("numeric", encoder=str, decoder=float, schema="pg_catalog", format="text")


class PostgresDatabase(Database):
    dialect = POSTGRES

    def __init__(self, pool: Any, setting: str) -> None:
        self.pool = pool
        """The asyncpg pool underneath."""
        self.setting = setting
        self._write_lock = asyncio.Lock()
        self.fence: Callable[[Any], Awaitable[None]] | None = None
        """Run at the start of every :meth:`transaction` on its connection; raising refuses the
        whole transaction. Shard leases use it so that a process that has lost a shard writes
        nothing more (see :meth:`storage.leases.ShardLeases.fence`)."""

    @classmethod
    async def open(cls, url: str, *, upto: int | None = None) -> PostgresDatabase:
        setting = setting_for(url)
        try:
            pool = await asyncpg.create_pool(
                url, min_size=1, max_size=POOL_SIZE, timeout=CONNECT_TIMEOUT, init=_init_connection
            )
        except _CONNECT_ERRORS as exc:
            raise _unreachable(setting, exc) from exc
        db = cls(pool, setting)
        try:
            await db.migrate(upto)
        except BaseException as exc:
            pool.terminate()
            if isinstance(exc, asyncpg.PostgresError):  # say, a user who may not create tables
                raise StorageError(f"{setting} cannot be used as Parlour's database ({exc}).") from exc
            raise
        return db

    # -- statements ----------------------------------------------------------------------------

    def _own_connection(self) -> Any | None:
        current = _current.get()
        return current[1] if current is not None and current[0] is self else None

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[Any]:
        conn = self._own_connection()
        if conn is not None:
            yield conn
        else:
            async with self.pool.acquire() as conn:
                yield conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Pending:
        return Pending(self._execute(POSTGRES.translate(sql), params))

    async def _execute(self, sql: str, params: Sequence[Any]) -> PostgresCursor:
        async with self._connection() as conn:
            try:
                if _returns_rows(sql):
                    rows = await conn.fetch(sql, *params)
                    return PostgresCursor(rows, len(rows))
                return PostgresCursor([], _count(await conn.execute(sql, *params)))
            except asyncpg.IntegrityConstraintViolationError as exc:
                raise IntegrityError(str(exc)) from exc

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        async with self._connection() as conn:
            try:
                await conn.executemany(POSTGRES.translate(sql), list(rows))
            except asyncpg.IntegrityConstraintViolationError as exc:
                raise IntegrityError(str(exc)) from exc

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self._connection() as conn:
            try:
                return int(await conn.fetchval(POSTGRES.translate(sql) + " RETURNING id", *params))
            except asyncpg.IntegrityConstraintViolationError as exc:
                raise IntegrityError(str(exc)) from exc

    # -- transactions ------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Database]:
        async with self._write_lock, self.pool.acquire() as conn:
            token = _current.set((self, conn))
            try:
                async with conn.transaction():  # commits at the end, rolls back on an exception
                    if self.fence is not None:
                        await self.fence(conn)
                    yield self
            finally:
                _current.reset(token)

    @property
    def in_transaction(self) -> bool:
        return self._write_lock.locked()

    async def commit(self) -> None:
        """Nothing to do: outside :meth:`transaction` each statement has committed already."""

    async def rollback(self) -> None:
        """Nothing to do: a transaction rolls itself back when its block fails."""

    async def close(self) -> None:
        await self.pool.close()

    # -- migrations ----------------------------------------------------------------------------

    async def schema_version(self) -> int:
        async with self._connection() as conn:
            if await conn.fetchval("SELECT to_regclass('schema_version')") is None:
                return 0
            return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))

    async def migrate(self, upto: int | None = None) -> int:
        """Each migration and its row in ``schema_version`` commit together (PostgreSQL's DDL is
        transactional), under an advisory lock: processes that start together apply each once."""
        current = await self.schema_version()
        async with self.pool.acquire() as conn:
            for version, name, sql in migrations("postgres"):
                if version <= current or (upto is not None and version > upto):
                    continue
                async with conn.transaction():
                    await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                    await conn.execute(
                        "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY,"
                        f" name TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT ({NOW_POSTGRES}))"
                    )
                    done = await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")
                    if version > done:  # else another process applied it meanwhile
                        await conn.execute(sql)
                        await conn.execute("INSERT INTO schema_version (version, name) VALUES ($1, $2)", version, name)
                current = version
        return await self.schema_version()


# -- who may use the database: one process, or processes that split it by shard --------------------

_held: dict[tuple[str, bool], tuple[Any, int]] = {}


class DatabaseLock:
    """Who may use a PostgreSQL database, as a lock on the database held on a connection of its own
    for as long as the process uses it. PostgreSQL frees it when that connection ends, so a process
    that dies frees it at once. Within one process the lock is shared (a restart opens the new
    store before it closes the old one).

    - A process that serves every server (unsharded, the console) holds it exclusively, as a SQLite
      file's lock file does: no other Parlour process may use the database meanwhile.
    - The processes of a sharded bot hold it ``shared``: together, and never beside an exclusive
      holder. Among themselves a lease per shard (``storage/leases.py``) says who serves what.
    """

    def __init__(self, url: str, *, shared: bool = False) -> None:
        self.url = url
        self.shared = shared
        self.setting = setting_for(url)
        self.held = False

    async def acquire(self) -> None:
        if self.held:
            return
        key = (self.url, self.shared)
        if key in _held:
            conn, count = _held[key]
            _held[key] = (conn, count + 1)
            self.held = True
            return
        try:
            conn = await asyncpg.connect(self.url, timeout=CONNECT_TIMEOUT)
        except _CONNECT_ERRORS as exc:
            raise _unreachable(self.setting, exc) from exc
        take = "pg_try_advisory_lock_shared" if self.shared else "pg_try_advisory_lock"
        if not await conn.fetchval(f"SELECT {take}($1)", OWNER_LOCK):
            await conn.close()
            if self.shared:
                raise DatabaseInUse(
                    f"{self.setting} is in use by an unsharded Parlour process, which serves every server. "
                    "Stop it before starting sharded processes (PARLOUR_SHARD_IDS) on this database."
                )
            raise DatabaseInUse(
                f"{self.setting} is in use by another Parlour process. Stop that process first, or give "
                "this one its own database; processes share one database only when sharded (PARLOUR_SHARD_IDS)."
            )
        _held[key] = (conn, 1)
        self.held = True

    async def release(self) -> None:
        if not self.held:
            return
        self.held = False
        key = (self.url, self.shared)
        conn, count = _held[key]
        if count > 1:
            _held[key] = (conn, count - 1)
            return
        del _held[key]
        await conn.close()  # ending the session frees the lock
