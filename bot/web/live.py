"""Live viewers of tables, and the notifier that tells them of every change.

The table service has one notifier. :class:`Broadcast` wraps the transport's own (Discord's, the
console's) and tells the :class:`LiveTables` of every change and close as well, so a move made in
chat, at the console or in a browser reaches every open browser of that table.

Frames are built while the service holds the table's lock (it calls the notifier from inside its
locked operations), so what a frame shows is the table as it is. They are sent afterwards by each
viewer's own writer: a slow browser never holds the lock, and it keeps only the newest frame
waiting (a frame is the whole table, so an older one is worth nothing once a newer exists).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.service.model import Notifier, Table
from bot.service.referee import entry_mark
from bot.service.timers import deadlines
from bot.settings import GuildSettings
from bot.web.frames import frame
from bot.web.sessions import WebUser
from games.engine import Action, Event, GameState

log = logging.getLogger(__name__)

Send = Callable[[str], Awaitable[None]]


@dataclass(eq=False)
class Viewer:
    """One open browser: who it is, and how to reach it."""

    user: WebUser
    send: Send
    key: tuple[str, str]
    pending: str | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    sent: int = 0
    """Frames sent (the tests count them: one per viewer per change)."""

    def post(self, text: str) -> None:
        self.pending = text  # a newer frame replaces one not yet sent
        self.wake.set()

    async def run(self) -> None:
        """Send the newest frame whenever there is one, until cancelled."""
        while True:
            await self.wake.wait()
            self.wake.clear()
            text, self.pending = self.pending, None
            if text is not None:
                await self.send(text)
                self.sent += 1


def referee_entries(state: GameState[Any]) -> list[tuple[int, Action]]:
    """A referee table's entries as the page numbers them: each awaited seat's, in seat order."""
    return [(s, a) for s in sorted(state.awaiting()) for a in state.legal_actions(s)]


def viewer_frame(table: Table, user: WebUser, deadline: float | None = None) -> dict[str, Any]:
    """The frame for ``user``: their seat's view if they sit at the table, the public view if not.
    At a referee table every member sees the entries any awaited seat may take. ``deadline`` is
    when a bot takes the awaited seats (Unix time), if it will."""
    seat = table.seat_of(user.id)
    if table.mode == "referee" and table.state is not None and table.status == "playing":
        entries = None
        if seat is not None or user.id == table.host_id:
            entries = referee_entries(table.state)
        last = table.confirmed_by[-1:]  # the entries are public: typed lines show them in chat
        marks = {"entered": len(table.confirmed_by), "seen": entry_mark(table), "unconfirmed": last == [None]}
        return {**frame(table, None, entries=entries), **marks}
    return {**frame(table, seat), "deadline": deadline}


def encode(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


class LiveTables:
    """The viewers of every table, by channel. ``settings`` gives a server's settings (the turn
    timeout, for the clock each frame shows)."""

    def __init__(self, settings: Callable[[str], Awaitable[GuildSettings]] | None = None) -> None:
        self._viewers: dict[tuple[str, str], set[Viewer]] = {}
        self._settings = settings

    async def deadline(self, table: Table) -> float | None:
        """When a bot plays for the awaited seats, if it will (the turn timers' own reckoning)."""
        state = table.state
        if self._settings is None or table.mode == "referee" or table.status != "playing":
            return None
        if state is None or state.is_over or not any(table.seats[s].bot is None for s in state.awaiting()):
            return None
        return deadlines(table, await self._settings(table.guild_id), time.time())[1]

    def viewers(self, key: tuple[str, str]) -> set[Viewer]:
        return self._viewers.get(key, set())

    def add(self, viewer: Viewer) -> None:
        self._viewers.setdefault(viewer.key, set()).add(viewer)

    def remove(self, viewer: Viewer) -> None:
        watching = self._viewers.get(viewer.key)
        if watching is not None:
            watching.discard(viewer)
            if not watching:
                del self._viewers[viewer.key]

    async def show(self, table: Table) -> None:
        """Post the table's current frame to each of its viewers (call it holding the lock)."""
        if not self.viewers(table.key):
            return
        deadline = await self.deadline(table)
        for viewer in list(self.viewers(table.key)):
            try:
                viewer.post(encode(viewer_frame(table, viewer.user, deadline)))
            except Exception:  # one viewer's frame must not break the move for everyone
                log.exception("Could not build a live frame for table %s", table.id)

    def closed(self, table: Table) -> None:
        for viewer in list(self.viewers(table.key)):
            viewer.post(encode({**viewer_frame(table, viewer.user), "closed": True}))


class Broadcast:
    """A :class:`Notifier` that tells the transport's own notifier, then the live viewers."""

    def __init__(self, primary: Notifier, live: LiveTables) -> None:
        self.primary = primary
        self.live = live

    async def table_changed(self, table: Table, events: Sequence[Event], repost: bool) -> None:
        await self.live.show(table)  # first: the browser's frame does not wait for Discord's REST calls
        await self.primary.table_changed(table, events, repost)

    async def send_private(self, table: Table, seat: int, text: str) -> bool:
        return await self.primary.send_private(table, seat, text)

    async def notice(self, table: Table, text: str, mention: str | None = None) -> None:
        await self.primary.notice(table, text, mention)

    async def tell(self, table: Table, text: str, mention: str) -> bool:
        return await self.primary.tell(table, text, mention)

    async def table_closed(self, table: Table) -> None:
        self.live.closed(table)
        await self.primary.table_closed(table)

    async def channel_notice(self, guild_id: str, channel_id: str, text: str) -> None:
        await self.primary.channel_notice(guild_id, channel_id, text)


async def drain(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, ConnectionError):
        await task
