"""Turn timers: remind an awaited player, then let a bot play for whoever is absent. Counted from
the last action, so a table restored after a restart keeps the time its players already had.

A table that waits on a write that failed (its bots' turn, or the result of a match that ended)
has its timer try that again instead, sooner at first and then less often, until it is stored:
no table waits for a restart."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from bot.service.core import Core
from bot.service.model import Table
from games.engine import Event

log = logging.getLogger(__name__)

TakeOver = Callable[[Table, list[int]], Awaitable[list[Event]]]
"""Let bots play for these awaited seats now (the caller holds the channel's lock)."""
Resume = Callable[[Table], Awaitable[None]]
"""Try again what a failed write left undone (the caller holds the channel's lock)."""

RETRY_FIRST = 2.0
"""Seconds before a failed write is first tried again; each failure in a row doubles it..."""
RETRY_MOST = 60.0
"""...up to this."""


def waits_for_a_write(table: Table) -> bool:
    """Whether the table waits on a write that failed: its result, or a bot seat's move."""
    state = table.state
    if table.result_due:
        return True
    if table.mode == "referee" or state is None or state.is_over or table.status != "playing":
        return False
    return any(table.seats[s].bot is not None for s in state.awaiting())


def reminder(timeout: float) -> str:
    """The turn reminder: with a timeout, what it costs to let the time run out."""
    if not timeout:
        return "It is your turn."
    return "It is your turn. If the time runs out, a bot plays for you and you rank last."


class Timers:
    def __init__(self, core: Core, take_over: TakeOver, resume: Resume) -> None:
        self.core = core
        self.take_over = take_over
        self.resume = resume
        self.failures: dict[int, int] = {}
        """Per table: how many retries in a row found the write still failing."""

    def schedule(self, table: Table) -> None:
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        if waits_for_a_write(table):
            run = self._retry(table, self.failures.get(table.id, 0))
            self.failures[table.id] = self.failures.get(table.id, 0) + 1
        elif table.mode == "referee":  # people at a real table need no reminders from us
            self.failures.pop(table.id, None)
            return
        else:
            self.failures.pop(table.id, None)
            run = self._run(table, table.turn)
        with contextlib.suppress(RuntimeError):  # no running loop (a synchronous test): no timers
            table.timer = asyncio.get_running_loop().create_task(run)
            return
        run.close()

    async def _retry(self, table: Table, failures: int) -> None:
        await asyncio.sleep(min(RETRY_FIRST * 2**failures, RETRY_MOST))
        async with self.core.registry.lock(table.key):
            if table.timer is asyncio.current_task():
                table.timer = None  # what the retry schedules next must not cancel the retry itself
            if not await self.core.registry.settle(table) or not waits_for_a_write(table):
                return
            try:
                await self.resume(table)
            except Exception as exc:  # still failing (the resume stores nothing it cannot finish)
                log.warning("table %s: trying a failed write again failed too (%s); trying later", table.id, exc)
                self.schedule(table)

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
                    await self.core.notifier.notice(table, reminder(timeout), mention=table.seats[seat].user_id)
            if timeout:
                await asyncio.sleep(timeout - max(remind, waited))
        elif timeout:
            await asyncio.sleep(max(0.0, timeout - waited))
        else:
            return
        failures = 0
        while True:  # a take-over whose writes fail is tried again, less often each time
            try:
                await self.timeout_now(table, turn)
                return
            except Exception as exc:
                log.warning("table %s: a take-over at turn %s could not be stored (%s); trying again", table.id, turn, exc)
            await asyncio.sleep(min(RETRY_FIRST * 2**failures, RETRY_MOST))
            failures += 1

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
        self.failures.pop(table.id, None)
        if table.timer is not None:
            table.timer.cancel()
