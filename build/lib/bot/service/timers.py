"""Turn timers: remind an awaited player, then let a bot play for whoever is absent. Counted from
the last action, so a table restored after a restart keeps the time its players already had."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable

from bot.service.core import Core
from bot.service.model import Table
from games.engine import Event

TakeOver = Callable[[Table, list[int]], Awaitable[list[Event]]]
"""Let bots play for these awaited seats now (the caller holds the channel's lock)."""


class Timers:
    def __init__(self, core: Core, take_over: TakeOver) -> None:
        self.core = core
        self.take_over = take_over

    def schedule(self, table: Table) -> None:
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        if table.mode == "referee":  # people at a real table need no reminders from us
            return
        with contextlib.suppress(RuntimeError):  # no running loop (a synchronous test): no timers
            table.timer = asyncio.get_running_loop().create_task(self._run(table, table.turn))

    async def _run(self, table: Table, turn: int) -> None:
        settings = await self.core.settings(table.guild_id)
        remind, timeout = settings.turn_reminder_seconds, settings.turn_timeout_seconds
        waited = min(max(0.0, time.time() - table.last_change_at), float(max(remind, timeout)))
        if remind and (not timeout or remind < timeout):
            await asyncio.sleep(max(0.0, remind - waited))
            if not await self._loaded(table) or table.turn != turn or table.state is None or table.state.is_over:
                return
            for seat in sorted(table.state.awaiting()):
                if table.seats[seat].bot is None:
                    await self.core.notifier.notice(table, "It is your turn.", mention=table.seats[seat].user_id)
            if timeout:
                await asyncio.sleep(timeout - max(remind, waited))
        elif timeout:
            await asyncio.sleep(max(0.0, timeout - waited))
        else:
            return
        await self.timeout_now(table, turn)

    async def _loaded(self, table: Table) -> bool:
        """Load a table restored after a restart, if it still is this channel's open table."""
        if table.loaded:
            return self.core.registry.is_current(table)
        async with self.core.registry.lock(table.key):
            return await self.core.registry.settle(table)

    async def timeout_now(self, table: Table, turn: int) -> list[Event]:
        """A bot plays every awaited seat whose player is absent, if the turn has not moved on."""
        async with self.core.registry.lock(table.key):
            if not await self.core.registry.settle(table) or table.status != "playing":
                return []
            state = table.state
            if state is None or state.is_over or table.turn != turn:
                return []
            absent = [s for s in sorted(state.awaiting()) if table.seats[s].bot is None]
            if not absent:
                return []
            return await self.take_over(table, absent)

    def stop(self, table: Table) -> None:
        if table.timer is not None:
            table.timer.cancel()
