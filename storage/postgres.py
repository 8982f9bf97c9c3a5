# Over 400 lines: the whole PostgreSQL backend: the pool, the fenced ownership lease, migrations and the error mapping, which depend on one another's connection handling.
"""The PostgreSQL backend, through asyncpg: one database shared by the processes of a sharded bot.

Why asyncpg rather than psycopg 3: the bot is asyncio from end to end and asyncpg is an asyncio
driver and nothing else, with PostgreSQL's protocol written in it (no libpq to install beside the
wheel), a pool, and a cache of prepared statements per connection, which suits a bot that runs the
same few dozen statements all day. Its placeholders are PostgreSQL's own (``$1, $2``), which
:class:`storage.query.Query` renders from a statement's named parameters when it is defined;
psycopg's ``%s`` would also need every literal ``%`` in the SQL doubled. What it costs: asyncpg
is strict about parameter types (an ``int`` is not accepted for a ``TEXT`` column), which the
queries already respect.

Statements outside :meth:`PostgresDatabase.transaction` run on any connection of the pool and
commit at once; a transaction holds one connection, and the statements of the coroutine inside it
(found through a context variable) run on that connection. Writers take turns within a process, as
on SQLite: the rating update reads then writes, and a server's rows are written by one process
only (the one that owns its shard).

Over 400 lines because it holds both halves of what PostgreSQL means to Parlour, as
``storage/sqlite.py`` does for a file: the database, and the lock that says which processes may
use it (:class:`DatabaseLock`), which share the connection errors and the setting.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Mapping
from contextvars import ContextVar
from typing import Any

import asyncpg

from storage.db import Database, Pending, Row
from storage.errors import Conflict, DatabaseInUse, StorageError, StorageUnavailable
from storage.migrations import migrations, refuse_newer
from storage.query import POSTGRES, Query
from storage.target import setting_for

__all__ = ["POSTGRES", "DatabaseLock", "PostgresDatabase"]

log = logging.getLogger(__name__)

POOL_SIZE = 10
CONNECT_TIMEOUT = 10.0
OWNER_LOCK = 0x7061726C6F7572
"""The advisory lock a bot process holds on its database ("parlour" in ASCII)."""
MIGRATION_LOCK = OWNER_LOCK + 1
"""The advisory lock taken while migrations run, so that processes starting together apply each once."""

def _count(status: str) -> int:
    """The rows a command changed, from its status (``UPDATE 3``, ``INSERT 0 1``)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


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

_OUTAGES = (
    OSError,  # the server's socket is gone or refuses (stopped, restarting)
    TimeoutError,
    asyncpg.PostgresConnectionError,  # the connection broke (class 08)
    asyncpg.exceptions.OperatorInterventionError,  # shutting down, starting up (class 57)
    asyncpg.exceptions.InsufficientResourcesError,  # disk full, too many connections (class 53)
    asyncpg.exceptions.ReadOnlySQLTransactionError,  # a server in recovery or made read-only
    asyncpg.exceptions.InternalClientError,  # a connection left mid-operation when the server went
)


def is_outage(exc: BaseException) -> bool:
    """Whether ``exc`` says the server cannot be used just now, rather than that a statement was wrong."""
    if isinstance(exc, asyncpg.InterfaceError):  # "connection is closed", "pool is closing"; not DataError
        return not isinstance(exc, asyncpg.DataError) and "clos" in str(exc)
    return isinstance(exc, _OUTAGES)


@contextlib.contextmanager
def _translated(setting: str) -> Iterator[None]:
    """asyncpg's errors as storage's: :class:`Conflict` for a write a constraint refused,
    :class:`StorageUnavailable` for a server that cannot be used just now or a pool already
    closed. Any other error (a statement that is wrong) stays as it is."""
    try:
        yield
    except StorageError:
        raise
    except asyncpg.IntegrityConstraintViolationError as exc:
        raise Conflict(f"{setting}: the write was refused ({exc})") from exc
    except Exception as exc:
        if not is_outage(exc):
            raise
        raise StorageUnavailable(f"{setting}: PostgreSQL is not answering ({type(exc).__name__}: {exc})") from exc


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

    def execute(self, query: Query, /, **params: Any) -> Pending:
        return Pending(self._execute(query, query.args(params)))

    async def _execute(self, query: Query, args: tuple[Any, ...]) -> PostgresCursor:
        with _translated(self.setting):
            async with self._connection() as conn:
                if query.returns_rows:
                    rows = await conn.fetch(query.text(POSTGRES), *args)
                    return PostgresCursor(rows, len(rows))
                return PostgresCursor([], _count(await conn.execute(query.text(POSTGRES), *args)))

    async def executemany(self, query: Query, rows: Iterable[Mapping[str, Any]]) -> None:
        with _translated(self.setting):
            async with self._connection() as conn:
                await conn.executemany(query.text(POSTGRES), [query.args(row) for row in rows])

    # -- transactions ------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Database]:
        # an outage met on the way in or at the commit is StorageUnavailable, as the statements'
        async with self._write_lock:
            with _translated(self.setting):
                async with self.pool.acquire() as conn:
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
        refuse_newer(self.setting, current, "postgres")
        async with self.pool.acquire() as conn:
            for version, name, sql in migrations("postgres"):
                if version <= current or (upto is not None and version > upto):
                    continue
                async with conn.transaction():
                    await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                    await conn.execute(
                        "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY,"
                        f" name TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT ({POSTGRES.now}))"
                    )
                    done = await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")
                    if version > done:  # else another process applied it meanwhile
                        await conn.execute(sql)
                        await conn.execute("INSERT INTO schema_version (version, name) VALUES ($1, $2)", version, name)
                current = version
        return await self.schema_version()


# -- who may use the database: one process, or processes that split it by shard --------------------

LOCK_RETRY_SECONDS = 0.5
"""How often a process tries to take its database lock again while the server is not answering."""


class _Holder:
    """This process's hold on a database lock: the connection it is held on, and how many stores
    of the process share it.

    When that connection ends (the server restarted or cut it: asyncpg hears of it at once),
    PostgreSQL has freed the lock, and it is taken again as soon as the server answers. Until then
    another process could take it, but not act: what fences writes is the lease
    (``storage/leases.py``), which outlives a restart. (Nothing waits in the background meanwhile:
    a bot under a simulated clock must be able to settle.)"""

    def __init__(self, conn: Any, lock: DatabaseLock) -> None:
        self.lock = lock
        self.conn = conn
        self.count = 1
        self.lost_at: float | None = None
        """When the lock was found lost (by the loop's clock), until it is taken again."""
        self.retaken = 0
        """How many times the lock was taken again after its connection ended."""
        self.task: asyncio.Task[None] | None = None
        self.closing = False
        conn.add_termination_listener(self._ended)

    def _ended(self, conn: Any) -> None:
        if self.closing or conn is not self.conn or (self.task is not None and not self.task.done()):
            return
        self.lost_at = asyncio.get_running_loop().time()
        self.task = asyncio.get_running_loop().create_task(self._take_again(), name="parlour-database-lock")

    @property
    def holding(self) -> bool:
        """Whether the lock is held now, as far as this process can tell."""
        return self.lost_at is None and not self.conn.is_closed()

    async def _take_again(self) -> None:
        setting = self.lock.setting
        log.warning("%s: the connection holding the database lock ended; taking it again", setting)
        told = False
        while True:
            try:
                conn = await self.lock.take()
            except DatabaseInUse as exc:
                if not told:
                    log.error("%s: could not take the database lock again: %s", setting, exc)
                    told = True
            except StorageError:
                pass  # not answering yet
            else:
                break
            await asyncio.sleep(LOCK_RETRY_SECONDS)
        self.conn = conn
        self.lost_at = None
        self.retaken += 1
        conn.add_termination_listener(self._ended)
        log.warning("%s: took the database lock again", setting)

    async def close(self) -> None:
        self.closing = True
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        with contextlib.suppress(*_CONNECT_ERRORS):
            await self.conn.close()  # ending the session frees the lock


_held: dict[tuple[str, bool], _Holder] = {}


class DatabaseLock:
    """Who may use a PostgreSQL database, as a lock on the database held on a connection of its own
    for as long as the process uses it. PostgreSQL frees it when that connection ends, so a process
    that dies frees it at once. Within one process the lock is shared (a restart opens the new
    store before it closes the old one).

    - A process that serves every server (unsharded, the console) holds it exclusively, as a SQLite
      file's lock file does: no other Parlour process may use the database meanwhile.
    - The processes of a sharded bot hold it ``shared``: together, and never beside an exclusive
      holder. Among themselves a lease per shard (``storage/leases.py``) says who serves what.

    The lock refuses a second process at once, but it is not what keeps one off the tables: a
    restart of the server frees it (and the process takes it again as soon as it can, see
    :class:`_Holder`). The lease does: every process on PostgreSQL holds one (the unsharded, the
    whole database's), it outlives a restart, and it fences every write.
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
            _held[key].count += 1
            self.held = True
            return
        _held[key] = _Holder(await self.take(), self)
        self.held = True

    async def take(self) -> Any:
        """A new connection holding the lock; :class:`DatabaseInUse` if another process holds it."""
        try:
            conn = await asyncpg.connect(self.url, timeout=CONNECT_TIMEOUT)
        except _CONNECT_ERRORS as exc:
            raise _unreachable(self.setting, exc) from exc
        take = "pg_try_advisory_lock_shared" if self.shared else "pg_try_advisory_lock"
        try:
            taken = await conn.fetchval(f"SELECT {take}($1)", OWNER_LOCK)
        except BaseException as exc:
            conn.terminate()
            if isinstance(exc, _CONNECT_ERRORS):
                raise _unreachable(self.setting, exc) from exc
            raise
        if taken:
            return conn
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

    @property
    def holder(self) -> _Holder | None:
        """This process's hold on the lock, while it has one."""
        return _held.get((self.url, self.shared)) if self.held else None

    async def release(self) -> None:
        if not self.held:
            return
        self.held = False
        key = (self.url, self.shared)
        holder = _held[key]
        holder.count -= 1
        if holder.count > 0:
            return
        del _held[key]
        await holder.close()
