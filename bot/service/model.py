"""The plain types of the table service, shared by the service, the transports and the
renderers: a table, a user, what a player sees privately, a refusal, and how the service talks
back to a transport (:class:`Notifier`). Nothing here imports the service or a renderer."""

from __future__ import annotations

import asyncio
import time
from array import array
from collections.abc import Iterable, Iterator, MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, overload

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


class Clock:
    """Wall-clock time and sleeping, as the turn timers see them (a test drives its own)."""

    def now(self) -> float:
        """The Unix time now."""
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class Column(MutableSequence[str | None]):
    """One entry per logged action (who made it, who confirmed it), a byte each: a match of
    thousands of actions has a handful of distinct people, so each entry is a number standing for
    one of them rather than a string object of its own (two bytes past 255 people). Compares equal
    to a list of the same."""

    __slots__ = ("_codes", "_index", "_values")

    def __init__(self, items: Iterable[str | None] = ()) -> None:
        self._values: list[str | None] = [None]
        self._index: dict[str | None, int] = {None: 0}
        self._codes = array("B")
        codes = [self._code(v) for v in items]
        self._codes.extend(codes)

    def _code(self, value: str | None) -> int:
        code = self._index.get(value)
        if code is None:
            code = self._index[value] = len(self._values)
            self._values.append(value)
            if code > 255 and self._codes.typecode == "B":
                self._codes = array("H", self._codes)
        return code

    @overload
    def __getitem__(self, index: int) -> str | None: ...
    @overload
    def __getitem__(self, index: slice) -> list[str | None]: ...
    def __getitem__(self, index: int | slice) -> str | list[str | None] | None:
        if isinstance(index, slice):
            return [self._values[c] for c in self._codes[index]]
        return self._values[self._codes[index]]

    @overload
    def __setitem__(self, index: int, value: str | None) -> None: ...
    @overload
    def __setitem__(self, index: slice, value: Iterable[str | None]) -> None: ...
    def __setitem__(self, index: int | slice, value: Any) -> None:
        if isinstance(index, slice):
            codes = [self._code(v) for v in value]
            self._codes[index] = array(self._codes.typecode, codes)
        else:
            self._codes[index] = self._code(value)

    def __delitem__(self, index: int | slice) -> None:
        del self._codes[index]

    def __len__(self) -> int:
        return len(self._codes)

    def __iter__(self) -> Iterator[str | None]:
        values = self._values
        return (values[c] for c in self._codes)

    def insert(self, index: int, value: str | None) -> None:
        self._codes.insert(index, self._code(value))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Column | list | tuple):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Column({list(self)!r})"


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
    turn_pings: str | None = None
    """The turn pings left up in the channel, as last kept in storage (read at the load, then kept
    in step by the Discord notifier, whose own record it is: it takes them down after a restart)."""
    shown_turn: int | None = None
    """The turn the transport's table message shows (kept in storage by a transport that shows
    one, once shown): a restart shows again a table whose message was left behind."""
    actors: Column = field(default_factory=Column)
    """Who made each action of the log (``None``: a bot)."""
    confirmed_by: Column = field(default_factory=Column)
    """Referee mode: who confirmed each entry."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    """The channel's lock (the service hands every table of a channel the same one)."""
    timer: asyncio.Task[None] | None = field(default=None, repr=False)
    stored_turn: int = 0
    """How many actions the stored log holds, for a table not loaded yet (see ``loaded``)."""
    last_change_at: float = field(default_factory=time.time)
    """When the turn's clock started (Unix time): the last action, or, for a table restored after
    a restart, that moved on by the downtime (see ``bot/service/restore.py``)."""
    resumed_turn: int | None = None
    """The turn a table restored after a restart was at: its clock resumed then (see the timers)."""
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
    ready: list[Action] = field(default_factory=list)
    """While they wait with nothing to do: what they could do if their turn came with the table
    as it stands (:meth:`~games.engine.GameState.ready_actions`), shown as their choices."""
    public: View | None = None
    """The table's public view at the same moment as ``view``: a view drawn later (its picture
    queued) leaves out what the table message shows as of then, not as of its drawing."""

    @property
    def choices(self) -> list[Action]:
        """What their view offers: what they may do now, else their ready choices."""
        return self.legal or self.ready

    @property
    def is_ready(self) -> bool:
        """Whether their view offers ready choices (they wait; a click now is refused)."""
        return not self.legal and bool(self.ready)


def public_view(table: Table) -> View:
    """The table's public view as everyone is shown it: once the match is over, a player who
    walked out (or whose seat a bot took after a timeout) ranks last, as the stored result says."""
    assert table.state is not None
    view = table.state.view(None)
    outcome = view.outcome
    leaver = table.first_leaver()
    if outcome is None or leaver is None:
        return view
    ranks = ranks_with_leaver_last(outcome.ranks, leaver)
    return view.model_copy(update={"outcome": outcome.model_copy(update={"ranks": ranks})})


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
        """Post a short public line in the table's channel, optionally mentioning a user (a line
        that mentions a player is their turn reminder: a transport may take it down once the turn
        has passed)."""

    async def tell(self, table: Table, text: str, mention: str) -> bool:
        """Post a public line mentioning a user now, not queued; ``False`` if it did not arrive
        (the service tries again later with what must reach them)."""

    async def table_closed(self, table: Table) -> None:
        """The table finished or was cancelled; the transport may tidy up its message."""

    async def channel_notice(self, guild_id: str, channel_id: str, text: str) -> None:
        """Post a short public line in a channel that has no table (one that could not be restored)."""
