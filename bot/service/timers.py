"""Turn timers: remind an awaited player, then let a bot play for whoever is absent.

A turn's clock runs while the bot does. It starts at the last action; across a restart it stops
at the bot's last sign of life (each table in play notes it in storage every
:data:`CLOCK_NOTE_SECONDS`, and once more at shutdown) and goes on from the restart with what was
left (see ``bot/service/restore.py``), so the downtime is nobody's thinking time. A restored turn
whose reminder was due before the downtime is not reminded again, and its timeout is at least a
short grace away, spread over a window so that restored tables are not all loaded at once.

A table that waits on a write that failed (its bots' turn, or the result of a match that ended)
has its timer try that again instead, sooner at first and then less often, until it is stored:
no table waits for a restart."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from bot.service.core import Core
from bot.service.model import Table
from bot.settings import GuildSettings
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


def backoff(failures: int) -> float:
    """Seconds to wait before trying a failed write again, after ``failures`` failures in a row."""
    return min(RETRY_FIRST * 2**failures, RETRY_MOST)


def waits_for_a_write(table: Table) -> bool:
    """Whether the table waits on a write that failed: its result, or a bot seat's move."""
    state = table.state
    if table.result_due:
        return True
    if table.mode == "referee" or state is None or state.is_over or table.status != "playing":
        return False
    return any(table.seats[s].bot is not None for s in state.awaiting())

CLOCK_NOTE_SECONDS = 20.0
"""How often the tables in play note in storage that their clocks still run: a crash counts at
most this much of its downtime as thinking time."""
RESTART_GRACE_SECONDS = 60.0
"""After a restart, a turn's timeout is at least this far away (or the timeout itself, if shorter)."""
RESTART_SPREAD_SECONDS = 60.0
"""...plus a share of this window, by table, so that restored timeouts do not all come at once."""
TIMER_LOADS = 2
"""How many restored tables the timers load at a time (clicks do not wait for this)."""


def deadlines(table: Table, settings: GuildSettings, now: float) -> tuple[float | None, float | None]:
    """When the turn's reminder and its timeout are due (Unix times; ``None``: not at all)."""
    remind, timeout = settings.turn_reminder_seconds, settings.turn_timeout_seconds
    start = table.last_change_at
    remind_at = start + remind if remind and (not timeout or remind < timeout) else None
    timeout_at = start + timeout if timeout else None
    if table.resumed_turn is not None and table.resumed_turn == table.turn:
        if remind_at is not None and remind_at <= now:
            remind_at = None  # due before the downtime: the player was reminded then
        if timeout_at is not None:
            spread = (table.id * 0.6180339887) % 1.0 * RESTART_SPREAD_SECONDS
            timeout_at = max(timeout_at, now + min(RESTART_GRACE_SECONDS, timeout) + spread)
    return remind_at, timeout_at


def reminder(timeout_at: float | None) -> str:
    """The turn reminder: with a timeout (``timeout_at``, a Unix time), when a bot takes the seat
    and what that costs, as a Discord timestamp (each reader sees it in their own time, counting
    down; the console writes it out)."""
    if timeout_at is None:
        return "It is your turn."
    return (
        f"It is your turn. A bot takes your seat <t:{int(timeout_at)}:R> unless you move first,"
        " and then you rank last."
    )


class Timers:
    def __init__(self, core: Core, take_over: TakeOver, resume: Resume) -> None:
        self.core = core
        self.take_over = take_over
        self.resume = resume
        self.failures: dict[int, int] = {}
        """Per table: how many retries in a row found the write still failing."""
        self._loads = asyncio.Semaphore(TIMER_LOADS)
        self._noting: asyncio.Task[None] | None = None

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
        await self.core.clock.sleep(backoff(failures))
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
        clock = self.core.clock
        settings = await self.core.settings(table.guild_id)
        now = clock.now()
        remind_at, timeout_at = deadlines(table, settings, now)
        if remind_at is not None:
            await clock.sleep(max(0.0, remind_at - now))
            now = max(now, remind_at)  # by the sleep, not clock.now(): a simulated loop's time runs apart from it
            if not await self._loaded(table) or table.turn != turn or table.state is None or table.state.is_over:
                return
            for seat in sorted(table.state.awaiting()):
                if table.seats[seat].bot is None:
                    await self.core.notifier.notice(table, reminder(timeout_at), mention=table.seats[seat].user_id)
        if timeout_at is None:
            return
        await clock.sleep(max(0.0, timeout_at - now))
        failures = 0
        while True:  # a take-over whose writes fail is tried again, less often each time
            try:
                await self.timeout_now(table, turn)
                return
            except Exception as exc:
                log.warning("table %s: a take-over at turn %s could not be stored (%s); trying again", table.id, turn, exc)
            await clock.sleep(backoff(failures))
            failures += 1

    async def _loaded(self, table: Table) -> bool:
        """Load a table restored after a restart, if it still is this channel's open table (a few
        at a time: timers that come due together do not load every table at once)."""
        if table.loaded:
            return self.core.registry.is_current(table)
        async with self._loading(table), self.core.registry.lock(table.key):
            return await self.core.registry.settle(table)

    def _loading(self, table: Table) -> contextlib.AbstractAsyncContextManager[object]:
        """A place among the few tables the timers load at a time, if ``table`` needs loading."""
        return contextlib.nullcontext() if table.loaded else self._loads

    async def timeout_now(self, table: Table, turn: int) -> list[Event]:
        """A bot plays every awaited seat whose player is absent, if the turn has not moved on."""
        async with self._loading(table), self.core.registry.lock(table.key):
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

    # -- the clocks' note in storage ------------------------------------------------------------

    def start_noting(self) -> None:
        """Note in storage, every :data:`CLOCK_NOTE_SECONDS`, that the clocks of the tables in play
        still run (what a restart after a crash goes by)."""
        if self._noting is None:
            self._noting = asyncio.get_running_loop().create_task(self._note_forever(), name="parlour-clocks")

    async def _note_forever(self) -> None:
        while True:
            await self.core.clock.sleep(CLOCK_NOTE_SECONDS)
            try:
                await self.note_clocks()
            except Exception:  # storage away for a moment: the next note makes up for it
                log.warning("could not note the turn clocks in storage", exc_info=True)

    async def note_clocks(self) -> None:
        """The tables in play had their clocks running until now."""
        ids = [t.id for t in self.core.registry.tables.values() if t.status == "playing" and t.mode != "referee"]
        if ids:
            await self.core.store.note_clocks(ids, self.core.clock.now())

    async def close(self) -> None:
        """Stop noting, and note the clocks a last time (a shutdown: they stop now)."""
        if self._noting is not None:
            self._noting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._noting
            self._noting = None
        try:
            await self.note_clocks()
        except Exception:
            log.warning("could not note the turn clocks at shutdown", exc_info=True)
