"""What the console prints when a table changes: events, the table, turn notices, and private
messages marked ``[to name]``."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence

from bot.render.text import (
    lobby_lines,
    table_lines,
)
from bot.service.model import Table
from games.engine import Event

DISCORD_TIME = re.compile(r"<t:(\d+):R>")


def local_times(text: str) -> str:
    """Discord's relative timestamps (``<t:UNIX:R>``) written out as the local time of day."""
    return DISCORD_TIME.sub(lambda m: time.strftime("at %H:%M:%S", time.localtime(int(m[1]))), text)


class ConsoleNotifier:
    def __init__(self, write: Callable[[str], None]) -> None:
        self.write = write
        self.people: set[str] = set()
        """The users typing here (anyone who has typed a line): they are told when their turn comes."""
        self._table: int | None = None
        self._due: set[int] = set()
        self._actions_seen = 0
        self._awaited: tuple[int, ...] = ()

    async def table_changed(self, table: Table, events: Sequence[Event], repost: bool) -> None:
        for e in events:
            self.write(f"* {e.text}")
        if repost or table.state is None or table.state.is_over:
            self.write("\n".join(table_lines(table) if table.state is not None else lobby_lines(table)))
        self.turn_notices(table)

    def turn_notices(self, table: Table) -> None:
        """Tell the people typing here when their turn comes (once, until they have moved), and
        at a referee table whose entry is due next."""
        state = table.state
        if table.id != self._table:
            self._table, self._due, self._actions_seen, self._awaited = table.id, set(), 0, ()
        if state is None or state.is_over or table.status != "playing":
            return
        awaited = tuple(sorted(state.awaiting()))
        if table.mode == "referee":
            if awaited != self._awaited and awaited:
                names = " and ".join(table.seats[s].name for s in awaited)
                self.write(f"Next entry: {names}.")
            self._awaited = awaited
            return
        due = {
            s for s in awaited
            if table.seats[s].bot is None and table.seats[s].user_id in self.people
        }  # fmt: skip
        acted = set(table.actors[self._actions_seen :])
        for seat in sorted(due):
            if seat not in self._due or table.seats[seat].user_id in acted:
                self.write(f">> {table.seats[seat].name}, it is your turn: /hand shows your choices.")
        self._due, self._actions_seen, self._awaited = due, len(table.actors), awaited

    async def send_private(self, table: Table, seat: int, text: str) -> bool:
        self.write(f"[to {table.seats[seat].name}] " + text.replace("\n", "\n    "))
        return True

    async def notice(self, table: Table, text: str, mention: str | None = None) -> None:
        text = local_times(text)
        self.write(f"@{mention} {text}" if mention else text)

    async def tell(self, table: Table, text: str, mention: str) -> bool:
        await self.notice(table, text, mention)
        return True

    async def table_closed(self, table: Table) -> None:
        if table.state is not None and table.state.is_over:
            self.write("\n".join(table_lines(table)))
        self.write("The table is closed.")

    async def channel_notice(self, guild_id: str, channel_id: str, text: str) -> None:
        self.write(text)
