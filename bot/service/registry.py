"""The open tables of this process and the one locking rule every operation keeps: take the
channel's lock, then look the table up (it may have changed while the caller waited)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable

from bot.service.model import Table, TableError
from storage.db import StorageUnavailable
from storage.leases import LeaseLost
from storage.sessions import SessionClosed

log = logging.getLogger(__name__)

Key = tuple[str, str]


Serves = Callable[[str], bool]
"""Whether this process serves a server (a sharded bot's process serves its shards' servers)."""

MOVED = (
    "This server's tables are served by another Parlour process just now (the bot is moving them "
    "between its processes); nothing was changed. Try again in a minute."
)

UNAVAILABLE = "The database is not answering just now, so nothing was changed. Try again in a moment."
"""What a person is told when storage is unavailable (its server down, its disk full)."""


def everywhere(guild_id: str) -> bool:
    return True


Loader = Callable[[Table], Awaitable[None]]
"""Rebuild a restored table's state from its stored log (the caller holds the channel's lock);
a table whose log no longer replays is closed as broken and a TableError says so."""


class TableRegistry:
    def __init__(self, serves: Serves = everywhere) -> None:
        self.tables: dict[Key, Table] = {}
        self._locks: dict[Key, asyncio.Lock] = {}
        self.loader: Loader | None = None
        self.serves = serves

    def get(self, guild_id: str, channel_id: str) -> Table | None:
        return self.tables.get((guild_id, channel_id))

    def require_served(self, guild_id: str) -> None:
        if not self.serves(guild_id):
            raise TableError(MOVED)

    def require(self, guild_id: str, channel_id: str) -> Table:
        self.require_served(guild_id)
        table = self.get(guild_id, channel_id)
        if table is None:
            raise TableError("There is no table in this channel. Open one with /play.")
        return table

    def require_free(self, guild_id: str, channel_id: str) -> None:
        self.require_served(guild_id)
        existing = self.get(guild_id, channel_id)
        if existing is not None and existing.result_due:
            raise TableError(
                f"The game of {existing.game.title} here has ended, and its result is still being saved "
                "(the database did not answer). Nothing was opened: try again in a moment."
            )
        if existing is not None:
            raise TableError(
                f"This channel already has a table of {existing.game.title}. "
                "Use /table to see it, or finish or /abandon it first."
            )

    def lock(self, key: Key) -> asyncio.Lock:
        """The channel's lock: opening a table takes it too, so two /play cannot both open one."""
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    def add(self, table: Table) -> None:
        table.lock = self.lock(table.key)
        self.tables[table.key] = table

    def is_current(self, table: Table) -> bool:
        """Still this channel's open table (not closed or replaced while someone waited)."""
        return self.tables.get(table.key) is table and table.status in ("lobby", "playing")

    def drop(self, table: Table) -> None:
        """Close ``table`` in memory: its timer stops (unless it is the caller), its channel frees."""
        table.status = "closed"
        if table.timer is not None and table.timer is not asyncio.current_task():
            table.timer.cancel()
        table.timer = None
        if self.tables.get(table.key) is table:
            del self.tables[table.key]

    async def load(self, table: Table) -> None:
        """Make sure a restored table has its state (the caller holds the channel's lock)."""
        if not table.loaded and self.loader is not None:
            await self.loader(table)

    async def settle(self, table: Table) -> bool:
        """Load ``table`` if it waits to be (the caller holds the channel's lock); whether it is
        still the channel's open table afterwards (a broken one has been closed and its channel
        freed; a finished one recorded). Refusals are the caller's to make."""
        if not self.is_current(table):
            return False
        with contextlib.suppress(TableError):
            await self.load(table)
        return self.is_current(table)

    async def settle_channel(self, guild_id: str, channel_id: str) -> None:
        """:meth:`settle` the channel's table, if it has one (the caller holds the channel's lock)."""
        table = self.get(guild_id, channel_id)
        if table is not None:
            await self.settle(table)

    @contextlib.asynccontextmanager
    async def locked(self, guild_id: str, channel_id: str, session: int | None = None) -> AsyncIterator[Table]:
        """The channel's table, looked up (and loaded, after a restart) once its lock is held;
        ``session`` refuses a click meant for an earlier table of the channel."""
        async with self.lock((guild_id, channel_id)):
            table = self.require(guild_id, channel_id)
            await self.load(table)
            if session is not None and table.id != session:
                raise TableError(
                    "That was for an earlier table in this channel, which has closed. /table shows the one here now."
                )
            try:
                yield table
            except SessionClosed:  # storage knows better than memory (never expected; never a traceback)
                log.warning("table %s: storage refused a write to a closed session", table.id)
                raise TableError("This game is over.") from None
            except LeaseLost as exc:  # another process took this server's shard: write nothing more
                log.warning("table %s: not written, %s", table.id, exc)
                raise TableError(MOVED) from None
            except StorageUnavailable as exc:  # the write was refused whole: memory is as it was
                log.warning("table %s: not written, %s", table.id, exc)
                raise TableError(UNAVAILABLE) from None

    def drop_where(self, gone: Serves) -> list[Table]:
        """Let go of every table of the servers ``gone`` names (their shard moved to another
        process): their timers stop; nothing is written. The tables dropped."""
        dropped = [t for t in self.tables.values() if gone(t.guild_id)]
        for table in dropped:
            self.drop(table)
        return dropped
