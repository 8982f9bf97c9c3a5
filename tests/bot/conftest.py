from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.tables import Clock, Table, TableService
from games.engine import Action, Event
from games.registry import register
from storage.sessions import Store
from tests.bot.toy_game import TOY

register(TOY)


class RecordingNotifier:
    """Keeps every notification, and can pretend some users have their DMs closed."""

    def __init__(self) -> None:
        self.changes: list[tuple[int, list[str], bool]] = []
        self.private: list[tuple[str, str]] = []
        self.notices: list[tuple[str, str | None]] = []
        self.closed: list[int] = []
        self.dm_blocked: set[str] = set()

    async def table_changed(self, table: Table, events: Sequence[Event], repost: bool) -> None:
        self.changes.append((table.turn, [e.text for e in events], repost))

    async def send_private(self, table: Table, seat: int, text: str) -> bool:
        user = table.seats[seat].user_id or ""
        if user in self.dm_blocked:
            return False
        self.private.append((user, text))
        return True

    async def notice(self, table: Table, text: str, mention: str | None = None) -> None:
        self.notices.append((text, mention))

    async def tell(self, table: Table, text: str, mention: str) -> bool:
        self.notices.append((text, mention))
        return True

    async def table_closed(self, table: Table) -> None:
        self.closed.append(table.id)

    async def channel_notice(self, guild_id: str, channel_id: str, text: str) -> None:
        self.notices.append((text, None))


class ManualClock(Clock):
    """Wall-clock time that moves only when the test moves it: a timer sleeping on it wakes when
    :meth:`advance` passes its deadline, and runs until it sleeps again or ends."""

    def __init__(self, now: float | None = None) -> None:
        self.time = time.time() if now is None else now
        self._sleepers: dict[asyncio.Task[object], tuple[float, asyncio.Future[None]]] = {}

    def now(self) -> float:
        return self.time

    async def sleep(self, seconds: float) -> None:
        task = asyncio.current_task()
        assert task is not None
        wake: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers[task] = (self.time + max(0.0, seconds), wake)
        try:
            if seconds <= 0:
                wake.set_result(None)
            await wake
        finally:
            self._sleepers.pop(task, None)

    async def advance(self, seconds: float) -> None:
        """Move time on by ``seconds``, waking each sleeper in the order of its deadline."""
        until = self.time + seconds
        while True:
            await self.settle()
            due = [(at, wake) for at, wake in self._sleepers.values() if at <= until and not wake.done()]
            if not due:
                break
            at, wake = min(due, key=lambda d: d[0])
            self.time = max(self.time, at)
            wake.set_result(None)
        self.time = until
        await self.settle()

    async def settle(self, patience: float = 5.0) -> None:
        """Let every other task run until it sleeps on this clock or ends (or ``patience`` real
        seconds pass: a task waiting on something else is left waiting)."""
        give_up = time.monotonic() + patience
        me = asyncio.current_task()
        while time.monotonic() < give_up:
            await asyncio.sleep(0.005)
            if all(t is me or t.done() or sleeps_on_a_clock(t) for t in asyncio.all_tasks()):
                return


CLOCK_SLEEPS = {Clock.sleep.__code__, ManualClock.sleep.__code__}


def sleeps_on_a_clock(task: asyncio.Task[object]) -> bool:
    """Whether ``task`` waits in a service clock's sleep: this test's clock, or another service's
    (a second service in the test, or one on the real clock), which no settle of this one wakes."""
    coro: Any = task.get_coro()
    while coro is not None:
        if getattr(coro, "cr_code", None) in CLOCK_SLEEPS:
            return True
        coro = getattr(coro, "cr_await", None)
    return False


async def stored_actions(service: TableService, table: Table) -> list[tuple[int, Action]]:
    """A table's actions as stored: a live state keeps only its recent past, the log is in storage."""
    session = await service.store.session(table.id)
    assert session is not None
    return [(seat, table.game.action_from_json(data)) for seat, data in session.actions]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "parlour.sqlite3"


@pytest.fixture
def notifier() -> RecordingNotifier:
    return RecordingNotifier()


@pytest.fixture
async def service(db_path: Path, notifier: RecordingNotifier) -> AsyncIterator[TableService]:
    store = await Store.open(db_path)
    svc = TableService(store, notifier)
    await svc.load()
    yield svc
    await svc.shutdown()
    await store.close()
