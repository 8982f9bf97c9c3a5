"""Shard leases: which process owns each shard of a bot sharded across processes on one PostgreSQL.

A guild lives on one shard and its tables, timers and locks live in the process that owns that
shard. Ownership is a row per shard (``shard_leases``): its owner, how many shards the owner
divides the servers into, and when the lease lapses, by the database's clock. A process takes a
shard that is free, lapsed or already its own, renews its leases well inside their time while it
lives, and gives them back when it stops. A live lease is never taken: a second process is
refused until the first stops renewing and the lease lapses, and then exactly one of the
processes that try takes it (the upsert below is one atomic statement).

A lease only says who *should* act; :meth:`ShardLeases.fence` makes it so. Installed on the
database, it opens every write transaction by checking, under a share lock on the lease rows, that
this process still holds every shard it believes it holds. A process that stalled past its lease
(and whose shard another process took) therefore writes nothing more, and since every action is
written before it is acknowledged, it acknowledges nothing more either.

An unsharded process (which serves every server) holds the same kind of lease, as the one shard of
a bot split into one (:data:`WHOLE`), so that the fence guards its writes too, and a restart of
the PostgreSQL server (which frees the advisory lock of ``storage/postgres.py`` but not a lease)
lets no second process act beside it: another unsharded process waits for its lease, and a
sharded one is refused, its count differing.

A SQLite file has one process (its lock file) and no leases: this is PostgreSQL's alone.
"""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterable
from typing import Any

from storage.db import Database
from storage.errors import StorageError
from storage.postgres import PostgresDatabase
from storage.query import POSTGRES, Query

LEASE_SECONDS = 30.0
"""How long a lease lasts unless renewed; the owner renews it every third of that."""


class LeaseLost(StorageError):
    """This process no longer holds a shard it served: nothing was written."""


class ShardCountMismatch(StorageError):
    """Live leases divide the servers into another number of shards than this process does."""


def process_name() -> str:
    """This process, as a lease's owner: host, pid and a random part (a pid may be reused)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


# PostgreSQL's alone (its clock, intervals and arrays): never sent to SQLite
_TAKE = Query(
    "INSERT INTO shard_leases (shard, owner, shard_count, web_prefix, expires_at)"
    " VALUES (:shard, :owner, :shard_count, :web_prefix, clock_timestamp() + make_interval(secs => :seconds))"
    " ON CONFLICT (shard) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at,"
    " shard_count = excluded.shard_count, web_prefix = excluded.web_prefix,"
    " taken_at = CASE WHEN shard_leases.owner = excluded.owner THEN shard_leases.taken_at"
    " ELSE clock_timestamp() END"
    " WHERE shard_leases.owner = excluded.owner OR shard_leases.expires_at < clock_timestamp()"
    " RETURNING shard"
)
_GIVE_BACK = Query("DELETE FROM shard_leases WHERE owner = :owner AND shard = ANY(:shards::int[])")
_OTHER_COUNTS = Query(
    "SELECT DISTINCT shard_count FROM shard_leases WHERE expires_at >= clock_timestamp()"
    " AND owner <> :owner AND shard_count IS NOT NULL AND shard_count <> :shard_count"
)
_RENEW = Query(
    "UPDATE shard_leases SET expires_at = clock_timestamp() + make_interval(secs => :seconds)"
    " WHERE owner = :owner RETURNING shard"
)
_RELEASE = Query("DELETE FROM shard_leases WHERE owner = :owner")
_HOLDERS = Query("SELECT shard, owner FROM shard_leases WHERE expires_at >= clock_timestamp() ORDER BY shard")
_ADDRESS = Query(
    "SELECT web_prefix FROM shard_leases WHERE shard = :shard AND expires_at >= clock_timestamp()"
    " AND shard_count = :shard_count"
)
_FENCE = Query(
    "SELECT shard FROM shard_leases WHERE owner = :owner AND shard = ANY(:shards::int[])"
    " AND expires_at > clock_timestamp() FOR SHARE"
)


class ShardLeases:
    def __init__(
        self,
        db: Database,
        owner: str | None = None,
        seconds: float = LEASE_SECONDS,
        *,
        shard_count: int = 1,
        address: str | None = None,
    ) -> None:
        """``address``: where the owner's web server is reached (its path prefix), kept with its leases."""
        if db.dialect is not POSTGRES:
            raise ValueError("shard leases need PostgreSQL: a SQLite file has one process")
        self.db = db
        self.owner = owner or process_name()
        self.seconds = seconds
        self.shard_count = shard_count
        self.address = address
        self.held: set[int] = set()
        """The shards this process holds, as far as it knows (its last take or renewal)."""

    async def take(self, shard: int) -> bool:
        """Take ``shard`` if it is free, lapsed or ours (ours is renewed); whether we now hold it."""
        async with self.db.execute(
            _TAKE,
            shard=shard,
            owner=self.owner,
            shard_count=self.shard_count,
            web_prefix=self.address,
            seconds=self.seconds,
        ) as cur:
            taken = await cur.fetchone() is not None
        if taken:
            self.held.add(shard)
        return taken

    async def take_all(self, shards: Iterable[int]) -> list[int]:
        """Each of ``shards`` this process could take (or already held), in order. Refuses
        (:class:`ShardCountMismatch`) while another process holds a live lease with another count.

        The count is checked before and again after taking: two processes with different counts
        that take their leases at the same moment cannot both miss each other (each statement
        sees what committed before it), so at least one of them gives its leases back and stops."""
        self._refuse(await self.other_counts())
        taken = [shard for shard in shards if await self.take(shard)]
        others = await self.other_counts()
        if others:
            await self.db.execute(_GIVE_BACK, owner=self.owner, shards=taken)
            self.let_go(taken)
            self._refuse(others)
        return taken

    def _refuse(self, others: set[int]) -> None:
        if not others:
            return
        theirs = (
            "an unsharded Parlour process serves every server from this database"
            if others == {1}
            else f"live shard leases divide the servers into {', '.join(map(str, sorted(others)))} shards"
        )
        mine = (
            "this process would serve every server (unsharded)"
            if self.shard_count == 1
            else f"this process divides them into {self.shard_count}"
        )
        raise ShardCountMismatch(
            f"{theirs}, and {mine}: every process must have the same PARLOUR_SHARD_COUNT and PARLOUR_SHARD_IDS "
            "set (or there is one unsharded process alone). Stop the others (their leases lapse within a minute) "
            "before changing how the bot is split."
        )

    async def other_counts(self) -> set[int]:
        """The shard counts of live leases held by other processes that differ from ours."""
        async with self.db.execute(_OTHER_COUNTS, owner=self.owner, shard_count=self.shard_count) as cur:
            return {row["shard_count"] for row in await cur.fetchall()}

    async def renew(self) -> list[int]:
        """Extend every lease this process holds; the shards still its own. A lease that lapsed
        and was taken by another process is no longer among them: its tables must be dropped, and
        then the shard given up with :meth:`let_go` (until then the fence refuses every write)."""
        async with self.db.execute(_RENEW, seconds=self.seconds, owner=self.owner) as cur:
            return sorted(row["shard"] for row in await cur.fetchall())

    def let_go(self, shards: Iterable[int]) -> None:
        """Stop counting ``shards`` as ours, once nothing of theirs is left in this process."""
        self.held -= set(shards)

    async def release(self) -> None:
        """Give back every shard this process holds (at a clean stop), free to take at once."""
        self.held = set()
        await self.db.execute(_RELEASE, owner=self.owner)

    async def holders(self) -> dict[int, str]:
        """The owner of every shard held by a live lease."""
        async with self.db.execute(_HOLDERS) as cur:
            return {row["shard"]: row["owner"] for row in await cur.fetchall()}

    async def address_of(self, shard: int) -> str | None:
        """Where the live holder of ``shard`` (split as ours) says its web server is, if anywhere."""
        async with self.db.execute(_ADDRESS, shard=shard, shard_count=self.shard_count) as cur:
            row = await cur.fetchone()
        return None if row is None else row["web_prefix"]

    # -- fencing writes --------------------------------------------------------------------------

    def fence_writes(self) -> None:
        """Check :meth:`fence` at the start of every write transaction of this database."""
        if not isinstance(self.db, PostgresDatabase):  # pragma: no cover - the constructor checked
            raise ValueError("shard leases need PostgreSQL")
        self.db.fence = self.fence

    async def fence(self, conn: Any) -> None:
        """Inside a transaction: raise :class:`LeaseLost` unless every shard this process believes
        it holds is still its own and live. The rows stay share-locked until the transaction ends,
        so no other process can take one of them while it writes."""
        held = sorted(self.held)
        if not held:
            raise LeaseLost("this process holds no shard, so it may not write")
        rows = await conn.fetch(_FENCE.text(POSTGRES), *_FENCE.args({"owner": self.owner, "shards": held}))
        if len(rows) != len(held):
            lost = sorted(set(held) - {row["shard"] for row in rows})
            raise LeaseLost(f"this process no longer holds shard(s) {', '.join(map(str, lost))}")
