"""The plain types of the table service, shared by the service, the transports and the
renderers: a table, a user, what a player sees privately, a refusal, and how the service talks
back to a transport (:class:`Notifier`). Nothing here imports the service or a renderer."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import BaseModel

from games.engine import Action, Event, Game, GameState, View
from storage.sessions import SeatRecord


class TableError(Exception):
    """A refusal to show the user who asked; nothing was changed."""


@dataclass(frozen=True)
class User:
    id: str
    name: str
    is_moderator: bool = False
    """May abandon any table in the channel (Discord: Manage Messages)."""


@dataclass
class Table:
    id: int
    guild_id: str
    channel_id: str
    game: Game[Any]
    options: BaseModel
    host_id: str
    seats: list[SeatRecord]
    seed: int
    status: str = "lobby"
    state: GameState[Any] | None = None
    message_id: str | None = None
    unrated: set[str] = field(default_factory=set)
    recent: list[Event] = field(default_factory=list)
    mode: str = "online"
    """``online`` (the bot deals) or ``referee`` (real cards; people enter what happens)."""
    actors: list[str | None] = field(default_factory=list)
    """Who made each action of the log (``None``: a bot)."""
    confirmed_by: list[str | None] = field(default_factory=list)
    """Referee mode: who confirmed each entry."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    """The channel's lock (the service hands every table of a channel the same one)."""
    timer: asyncio.Task[None] | None = field(default=None, repr=False)
    stored_turn: int = 0
    """How many actions the stored log holds, for a table not loaded yet (see ``loaded``)."""
    last_change_at: float = field(default_factory=time.time)
    """When the last action was applied (Unix time): turn timers count from it, across restarts."""
    result_due: bool = False
    """The match has ended but its result failed to write: it is retried until stored (the
    table stays open meanwhile, and is never abandoned)."""

    @property
    def key(self) -> tuple[str, str]:
        return (self.guild_id, self.channel_id)

    @property
    def turn(self) -> int:
        if self.state is not None:
            return self.state.turn
        return self.stored_turn if self.status == "playing" else -1

    @property
    def loaded(self) -> bool:
        """A table in play restored after a restart has no state until first used."""
        return self.state is not None or self.status != "playing"

    def is_member(self, user: User) -> bool:
        """Seated, or the host: may make entries at a referee table."""
        return self.seat_of(user.id) is not None or user.id == self.host_id

    def seat_of(self, user_id: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s.user_id == user_id and s.bot is None:
                return i
        return None

    def human_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.bot is None]

    def recent_from_position(self, keep: int, *then: Event) -> None:
        """"Recent" as the position now stands, then ``then``: after an undo or a correction the
        events of entries taken back are gone, and an entry made again is not shown twice."""
        past = [e for e in self.state.log if e.to is None] if self.state is not None else []
        self.recent = [*past, *then][-keep:]

    def first_leaver(self) -> int | None:
        left = [(s.left_at, i) for i, s in enumerate(self.seats) if s.left_at is not None]
        return min(left)[1] if left else None


@dataclass
class HandInfo:
    """What a seated player sees privately: their view, what they may do, and at which turn."""

    seat: int
    view: View
    legal: list[Action]
    turn: int
    private_events: list[Event]


def ranks_with_leaver_last(ranks: Sequence[int], leaver: int | None) -> list[int]:
    """The final ranks, except that the first player to walk out of a match is ranked last."""
    if leaver is None:
        return list(ranks)
    others = [i for i in range(len(ranks)) if i != leaver]
    out = [0] * len(ranks)
    for i in others:
        out[i] = 1 + sum(1 for j in others if ranks[j] < ranks[i])
    out[leaver] = len(ranks)
    return out


class Notifier(Protocol):
    """How the service talks back to a transport (Discord, the console, a test)."""

    async def table_changed(self, table: Table, events: Sequence[Event], repost: bool) -> None:
        """Show the table's current public state; ``repost`` asks for a fresh message (new deal)."""

    async def send_private(self, table: Table, seat: int, text: str) -> bool:
        """Send a read-only private message (a DM) to a seat; ``False`` if it cannot be delivered."""

    async def notice(self, table: Table, text: str, mention: str | None = None) -> None:
        """Post a short public line in the table's channel, optionally mentioning a user."""

    async def tell(self, table: Table, text: str, mention: str) -> bool:
        """Post a public line mentioning a user now, not queued; ``False`` if it did not arrive
        (the service tries again later with what must reach them)."""

    async def table_closed(self, table: Table) -> None:
        """The table finished or was cancelled; the transport may tidy up its message."""

    async def channel_notice(self, guild_id: str, channel_id: str, text: str) -> None:
        """Post a short public line in a channel that has no table (one that could not be restored)."""
