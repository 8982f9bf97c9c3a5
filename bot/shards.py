"""Which servers this process serves, when the bot is sharded across processes on one PostgreSQL.

Discord splits a bot's servers into shards by server id, and each process connects the shards it
is given (``PARLOUR_SHARD_IDS`` of ``PARLOUR_SHARD_COUNT``). A server lives on one shard, so its
tables, timers and locks can stay in one process: the one holding the shard's lease
(``storage/leases.py``). :class:`ShardKeeper` takes this process's leases before it serves
anything (waiting for a dead predecessor's to lapse), renews them while it lives, and says so at
once if one is lost: the process must then stop serving that shard.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from storage.db import Database, StorageError, StorageUnavailable
from storage.leases import LEASE_SECONDS, ShardLeases
from storage.postgres import POSTGRES

log = logging.getLogger(__name__)


def shard_of(guild_id: str | int, shard_count: int) -> int:
    """The shard Discord puts a server on: the server id's timestamp part, modulo the count."""
    return (int(guild_id) >> 22) % shard_count


@dataclass(frozen=True)
class ShardPlan:
    """This process's share of the bot: ``ids`` out of ``count`` shards."""

    count: int
    ids: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError("the shard count must be at least 1")
        if not self.ids or len(set(self.ids)) != len(self.ids) or not all(0 <= i < self.count for i in self.ids):
            raise ValueError(f"shard ids must be distinct numbers from 0 to {self.count - 1}")

    def describe(self) -> str:
        return f"shard{'s' if len(self.ids) > 1 else ''} {', '.join(map(str, self.ids))} of {self.count}"


WHOLE = ShardPlan(1, (0,))
"""The lease of a process that serves every server: the one shard of a bot split into one."""


def lease_plan(db: Database, plan: ShardPlan | None) -> ShardPlan | None:
    """The leases a process must hold before it serves: its shards; unsharded on PostgreSQL, the
    whole database (:data:`WHOLE`), so that its writes are fenced as a shard's are and no other
    process acts beside it after the server restarts; none on a SQLite file (one process, its lock file)."""
    if plan is not None:
        return plan
    return WHOLE if db.dialect is POSTGRES else None


Lost = Callable[[list[int]], Awaitable[None]]
"""Called (once) with the shards this process no longer holds: it must stop serving them."""


class ShardKeeper:
    """This process's leases on its shards: taken before it serves, renewed every third of a lease
    while it lives, given back when it stops."""

    def __init__(
        self,
        db: Database,
        plan: ShardPlan,
        *,
        seconds: float = LEASE_SECONDS,
        owner: str | None = None,
        address: str | None = None,
    ) -> None:
        """``address``: this process's web prefix (its live table), recorded with its leases."""
        self.plan = plan
        self.leases = ShardLeases(db, owner, seconds, shard_count=plan.count, address=address)
        self.seconds = seconds
        self._renewal: asyncio.Task[None] | None = None
        self._stopped = asyncio.Event()
        self.valid_until = 0.0
        """By this process's monotonic clock, when its leases lapse unless renewed."""

    @property
    def owner(self) -> str:
        return self.leases.owner

    def serves(self, guild_id: str) -> bool:
        """Whether this process may act for the server now: on one of its shards, and that shard
        held (anything that is not a server id is not served)."""
        try:
            return shard_of(guild_id, self.plan.count) in self.leases.held
        except ValueError:
            return False

    async def web_address(self, guild_id: str) -> str | None:
        """The web prefix of the process that holds the server's shard now (this one's own if it
        does), or ``None``: no live holder, or one without a web server."""
        try:
            shard = shard_of(guild_id, self.plan.count)
        except ValueError:
            return None
        return await self.leases.address_of(shard)

    async def acquire(self, *, poll: float | None = None) -> None:
        """Take every lease of the plan, waiting as long as needed for a live one to lapse (its
        process has died or is stopping); from then on every write is fenced by them."""
        poll = self.seconds / 6 if poll is None else poll
        self.leases.fence_writes()
        waiting: set[int] = set()
        while True:
            if self._stopped.is_set():
                raise StorageError("stopped while waiting for this process's shards")
            started = time.monotonic()
            held = set(await self.leases.take_all(self.plan.ids))
            missing = set(self.plan.ids) - held
            if not missing:
                self.valid_until = started + self.seconds
                log.info("holding %s as %s", self.plan.describe(), self.owner)
                return
            if missing != waiting:
                holders = await self.leases.holders()
                log.warning(
                    "waiting for shard(s) %s, held by %s, until their lease lapses (at most %.0f s)",
                    ", ".join(map(str, sorted(missing))),
                    ", ".join(sorted({holders.get(s, "?") for s in missing})),
                    self.seconds,
                )
                waiting = missing
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopped.wait(), poll)

    @property
    def renewing(self) -> bool:
        """Whether the leases are being renewed in the background now."""
        return self._renewal is not None and not self._renewal.done()

    def start(self, on_lost: Lost) -> None:
        """Renew the leases in the background until :meth:`stop`; ``on_lost`` hears of a loss."""
        self._renewal = asyncio.get_running_loop().create_task(self._renew(on_lost), name="parlour-shard-leases")

    async def _renew(self, on_lost: Lost) -> None:
        while True:
            await asyncio.sleep(self.seconds / 3)
            started = time.monotonic()
            try:
                held = set(await self.leases.renew())
            except Exception as exc:
                if isinstance(exc, StorageUnavailable):  # an outage: it says what it is, no traceback
                    log.warning("could not renew the shard leases: %s", exc)
                else:
                    log.exception("could not renew the shard leases")
                if time.monotonic() < self.valid_until:
                    continue  # try again while they still last
                held = set()
            lost = sorted(set(self.plan.ids) - held)
            if lost:
                log.error("lost the lease on shard(s) %s: another process serves them now", lost)
                await on_lost(lost)
                self.leases.let_go(lost)
                return
            self.valid_until = started + self.seconds

    async def stop(self, *, release: bool = True) -> None:
        """Stop renewing (or waiting, in :meth:`acquire`); give the leases back (so a replacement
        need not wait for them to lapse)."""
        self._stopped.set()
        if self._renewal is not None:
            self._renewal.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._renewal
            self._renewal = None
        if release:
            try:
                await self.leases.release()
            except Exception:
                log.exception("could not give back the shard leases; they lapse in %.0f s", self.seconds)


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """``0,1`` or ``0-3`` or ``0-1,4`` as shard ids, in order."""
    ids: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        low, dash, high = part.partition("-")
        if dash:
            ids.extend(range(int(low), int(high) + 1))
        else:
            ids.append(int(part))
    return tuple(ids)
