"""Shard leases: which process owns each shard of a bot sharded across processes on one PostgreSQL.

A guild lives on one shard and its tables, timers and locks live in the process that owns that
shard. Ownership is a row per shard (``shard_leases``): its owner and when the lease lapses, by the
database's clock. A process takes a shard that is free, lapsed or already its own, renews its
leases well inside their time while it lives, and gives them back when it stops. A live lease
is never taken: a second process is refused until the first stops renewing and the lease lapses,
and then exactly one of the processes that try takes it (the upsert below is one atomic statement).

A SQLite file has one process (its lock file) and no leases: this is PostgreSQL's alone.
"""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterable

from storage.db import Database
from storage.postgres import POSTGRES

LEASE_SECONDS = 30.0
"""How long a lease lasts unless renewed; the owner renews it every third of that."""


def process_name() -> str:
    """This process, as a lease's owner: host, pid and a random part (a pid may be reused)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class ShardLeases:
    def __init__(self, db: Database, owner: str | None = None, seconds: float = LEASE_SECONDS) -> None:
        if db.dialect is not POSTGRES:
            raise ValueError("shard leases need PostgreSQL: a SQLite file has one process")
        self.db = db
        self.owner = owner or process_name()
        self.seconds = seconds

    async def take(self, shard: int) -> bool:
        """Take ``shard`` if it is free, lapsed or ours (ours is renewed); whether we now hold it."""
        async with self.db.execute(
            "INSERT INTO shard_leases (shard, owner, expires_at)"
            " VALUES (?, ?, clock_timestamp() + make_interval(secs => ?))"
            " ON CONFLICT (shard) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at,"
            " taken_at = CASE WHEN shard_leases.owner = excluded.owner THEN shard_leases.taken_at"
            " ELSE clock_timestamp() END"
            " WHERE shard_leases.owner = excluded.owner OR shard_leases.expires_at < clock_timestamp()"
            " RETURNING shard",
            (shard, self.owner, self.seconds),
        ) as cur:
            return await cur.fetchone() is not None

    async def take_all(self, shards: Iterable[int]) -> list[int]:
        """Each of ``shards`` this process could take (or already held), in order."""
        return [shard for shard in shards if await self.take(shard)]

    async def renew(self) -> list[int]:
        """Extend every lease this process holds; the shards still its own. A lease that lapsed
        and was taken by another process is no longer among them: its tables must be let go."""
        async with self.db.execute(
            "UPDATE shard_leases SET expires_at = clock_timestamp() + make_interval(secs => ?)"
            " WHERE owner = ? RETURNING shard",
            (self.seconds, self.owner),
        ) as cur:
            return sorted(row["shard"] for row in await cur.fetchall())

    async def release(self) -> None:
        """Give back every shard this process holds (at a clean stop), free to take at once."""
        await self.db.execute("DELETE FROM shard_leases WHERE owner = ?", (self.owner,))

    async def holders(self) -> dict[int, str]:
        """The owner of every shard held by a live lease."""
        async with self.db.execute(
            "SELECT shard, owner FROM shard_leases WHERE expires_at >= clock_timestamp() ORDER BY shard"
        ) as cur:
            return {row["shard"]: row["owner"] for row in await cur.fetchall()}
