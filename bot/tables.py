"""The table service: one game session per channel, from lobby to result. Transport-neutral.

Discord and the local console both drive this service and listen to it through a
:class:`~bot.service.model.Notifier`. It is a thin front over small desks in ``bot/service/``
that share one :class:`~bot.service.core.Core` (storage, notifier, the table registry, settings):

- ``restore``: tables rebuilt at start-up, and going on by themselves afterwards;
- ``lobby``: open a table, seats, options, start, cancel;
- ``play``: moves checked, logged, then applied; bots; results; hands by DM;
- ``referee``: entries for people playing with real cards, confirmation, undo, correction;
- ``timers``: reminders and bots playing for the absent;
- ``advising``: hints and analysis.

The one locking rule lives here: every operation that changes a table takes the channel's lock
and only then looks the table up (``registry.locked``), so what it checks is what it acts on.
An action is written to storage before it is applied and acknowledged, so nothing acknowledged
is lost, and a restart rebuilds every open table from its log.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.service import advising
from bot.service.core import Core
from bot.service.entries import SeatEntry, referee_hand
from bot.service.hands import hand_of
from bot.service.lobby import LobbyDesk, require_lobby
from bot.service.model import Clock, HandInfo, Notifier, Table, TableError, User, ranks_with_leaver_last
from bot.service.play import PlayDesk
from bot.service.records import finished_match, record_from_json
from bot.service.referee import RefereeDesk, require_entries, require_member
from bot.service.registry import Serves, everywhere
from bot.service.restore import Restorer
from bot.settings import GuildSettings
from games.engine import Action, Event
from games.verdicts import Analysis
from storage.sessions import Store

__all__ = [
    "Clock",
    "HandInfo",
    "Notifier",
    "SeatEntry",
    "Table",
    "TableError",
    "TableService",
    "User",
    "finished_match",
    "ranks_with_leaver_last",
    "record_from_json",
    "referee_hand",
]

Move = tuple[Action, int | None]
"""An action and the seat it is for (``None``: the mover's own; at a referee table, the seat
the entry fits)."""
Choose = Callable[[Table], Move]
"""Reads what a click or a typed text means at the table as it is (the caller holds the lock);
raises :class:`TableError` to refuse it."""


class TableService:
    def __init__(
        self,
        store: Store,
        notifier: Notifier,
        *,
        rng: random.Random | None = None,
        serves: Serves = everywhere,
        clock: Clock | None = None,
    ) -> None:
        """``serves`` says which servers' tables are this process's (a sharded bot's process: the
        servers of the shards it holds); the others are neither restored nor acted on. ``clock``
        is the turn timers' time (a test drives its own)."""
        self.core = Core(store, notifier, rng, serves, clock)
        self.play = PlayDesk(self.core)
        self.timers = self.play.timers
        self.lobby = LobbyDesk(self.core, self.play)
        self.referee = RefereeDesk(self.core, self.play)
        self.restorer = Restorer(self.core, self.play)

    # -- what the transports read ----------------------------------------------------------------

    @property
    def store(self) -> Store:
        return self.core.store

    @property
    def notifier(self) -> Notifier:
        return self.core.notifier

    @property
    def tables(self) -> dict[tuple[str, str], Table]:
        return self.core.registry.tables

    @property
    def dm_closed(self) -> set[str]:
        return self.core.dm_closed

    @property
    def rng(self) -> random.Random:
        return self.core.rng

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self.core.rng = rng

    async def ready(self, guild_id: str, channel_id: str) -> Table | None:
        """The channel's table with its state, loading a table restored after a restart (call it
        before the synchronous reads below: ``hand``, ``entries``, rendering)."""
        table = self.table(guild_id, channel_id)
        if table is not None and not table.loaded:
            async with self.core.registry.lock(table.key):
                await self.core.registry.settle_channel(guild_id, channel_id)
        return self.table(guild_id, channel_id)

    def table(self, guild_id: str, channel_id: str) -> Table | None:
        return self.core.registry.get(guild_id, channel_id)

    def require_table(self, guild_id: str, channel_id: str) -> Table:
        return self.core.registry.require(guild_id, channel_id)

    async def settings(self, guild_id: str) -> GuildSettings:
        return await self.core.settings(guild_id)

    async def update_settings(self, guild_id: str, settings: GuildSettings) -> None:
        await self.core.update_settings(guild_id, settings)

    async def keep_activity(self, guild_id: str, channel_id: str, instance_id: str, *, session: int | None = None) -> None:
        """Tie the Discord Activity instance launched from a table's message to that table (kept
        in storage, so it outlives a restart); the latest launch wins."""
        async with self.core.registry.locked(guild_id, channel_id, session) as table:
            if not await self.store.keep_activity(table.id, instance_id):
                raise TableError("This table has closed.")

    async def activity_table(self, instance_id: str) -> dict[str, Any] | None:
        """The table an Activity instance was launched for, as storage keeps it (any process)."""
        return await self.store.activity_table(instance_id)

    # -- start-up and shutdown -------------------------------------------------------------------

    async def load(self) -> int:
        """Restore every open table from storage; returns how many (see ``bot/service/restore.py``)."""
        return await self.restorer.load()

    async def wait_resumed(self) -> None:
        """Wait until every table restored by :meth:`load` has gone on as far as it can alone."""
        await self.restorer.wait_resumed()

    async def shutdown(self) -> None:
        """Stop the timers; the turn clocks stop now, and go on from here after a restart."""
        self.restorer.cancel()
        for table in self.tables.values():
            self.timers.stop(table)
        await self.timers.close()

    def let_go(self, gone: Serves) -> int:
        """Forget the tables of the servers ``gone`` names (their shard now belongs to another
        process, which restores them from storage); returns how many."""
        return len(self.core.registry.drop_where(gone))

    # -- the lobby -------------------------------------------------------------------------------

    async def open_table(
        self, guild_id: str, channel_id: str, host: User, game_id: str, option_pairs: Sequence[str] = ()
    ) -> Table:
        async with self.core.registry.lock((guild_id, channel_id)):
            await self.core.registry.settle_channel(guild_id, channel_id)  # a broken table frees its channel
            await self.play.settle_result(self.table(guild_id, channel_id))  # an ended one, once its result is stored
            return await self.lobby.open_table(guild_id, channel_id, host, game_id, option_pairs)

    async def join(self, guild_id: str, channel_id: str, user: User, *, session: int | None = None) -> Table:
        async with self.core.registry.locked(guild_id, channel_id, session) as table:
            await self.lobby.join(table, user)
        return table

    async def add_bot(
        self, guild_id: str, channel_id: str, user: User, level: str = "easy", *, session: int | None = None
    ) -> Table:
        async with self.core.registry.locked(guild_id, channel_id, session) as table:
            await self.lobby.add_bot(table, user, level)
        return table

    async def leave(
        self,
        guild_id: str,
        channel_id: str,
        user: User,
        *,
        session: int | None = None,
        lobby_only: bool = False,
    ) -> Table | None:
        """Leave a lobby (the table closes if it empties), or hand one's seat in play to a bot;
        ``lobby_only``: a lobby's Leave, refused once the game has started (Start may have landed
        while the click waited)."""
        async with self.core.registry.locked(guild_id, channel_id, session) as table:
            if lobby_only:
                require_lobby(table)
            if table.status == "lobby":
                return table if await self.lobby.leave(table, user) else None
            if table.mode == "referee":
                raise TableError(
                    "The cards at a referee table are real, so no bot can take over a seat. "
                    "The host can /abandon the table if the game cannot go on."
                )
            await self.play.hand_over(table, user)
        return table

    async def set_options(
        self,
        guild_id: str,
        channel_id: str,
        user: User,
        pairs: Sequence[str] | Mapping[str, Any],
        *,
        session: int | None = None,
    ) -> Table:
        """Change lobby options: ``key=value`` strings as typed, or a mapping of values (where
        ``None`` clears an optional value, which a typed pair cannot say)."""
        async with self.core.registry.locked(guild_id, channel_id, session) as table:
            await self.lobby.set_options(table, user, pairs)
        return table

    async def start(self, guild_id: str, channel_id: str, user: User, *, session: int | None = None) -> Table:
        async with self.core.registry.locked(guild_id, channel_id, session) as table:
            await self.lobby.start(table, user)
        return table

    async def cancel(self, guild_id: str, channel_id: str, user: User, *, session: int | None = None) -> None:
        async with self.core.registry.locked(guild_id, channel_id, session) as table:
            await self.lobby.cancel(table, user)

    async def abandon(self, guild_id: str, channel_id: str, user: User, *, session: int | None = None) -> None:
        async with self.core.registry.locked(guild_id, channel_id, session) as table:
            if user.id != table.host_id and not user.is_moderator:
                raise TableError("Only the host or a moderator (Manage Messages) can abandon this table.")
            if table.status == "lobby":
                await self.lobby.close(table, "cancelled")
            else:
                await self.play.abandon(table, user)

    # -- play ------------------------------------------------------------------------------------

    def hand(self, guild_id: str, channel_id: str, user: User) -> HandInfo:
        return hand_of(self.require_table(guild_id, channel_id), user)

    async def act(
        self,
        guild_id: str,
        channel_id: str,
        user: User,
        action: Action | dict[str, Any],
        turn: int | None = None,
        seat: int | None = None,
        *,
        session: int | None = None,
        shown_at: int | None = None,
    ) -> list[Event]:
        """Apply a player's action: checked, then logged, then applied; returns the events.

        At a referee table any member may enter for any seat (``seat``, or the one awaited seat).
        ``shown_at`` is the turn the view the choice was made in was drawn at (see ``PlayDesk.act``).
        """
        async with self.core.registry.locked(guild_id, channel_id, session) as table:
            return await self.play.act(table, user, action, turn, seat, shown_at)

    async def act_chosen(
        self,
        guild_id: str,
        channel_id: str,
        user: User,
        choose: Choose,
        *,
        session: int | None = None,
        shown_at: int | None = None,
    ) -> Move:
        """A move read from what ``user`` clicked or typed, read once the channel's lock is held:
        ``choose`` gets the table as it is then and says which action (and seat) that means, or
        refuses; the action is played as :meth:`act` plays it, at the table's turn. Returns the
        move played.

        A transport that read the choice before taking the lock would act on a table another
        move may have changed meanwhile (and refuse a choice that is still open, or misread one).
        """
        async with self.core.registry.locked(guild_id, channel_id, session) as table:
            action, seat = choose(table)
            await self.play.act(table, user, action, table.turn, seat, shown_at)
            return action, seat

    async def timeout_now(self, table: Table, turn: int) -> list[Event]:
        """A bot plays every awaited seat whose player is absent, if the turn has not moved on."""
        return await self.timers.timeout_now(table, turn)

    # -- advice ----------------------------------------------------------------------------------

    async def hint(self, guild_id: str, channel_id: str, user: User) -> list[str]:
        """The game's advice for the asking player's current choice, from their own view only."""
        await self.ready(guild_id, channel_id)
        return await advising.hint(self.require_table(guild_id, channel_id), user)

    async def analyse(
        self, guild_id: str, channel_id: str, user: User, deal: int | None = None, match_id: int | None = None
    ) -> Analysis:
        """Perfect-play analysis of a finished deal: of the table here, or of a finished match.

        Only deals that are over are analysed, so no hidden card of a deal in play is shown."""
        if match_id is not None:
            record = await advising.stored_match_record(self.store, guild_id, match_id)
        else:
            await self.ready(guild_id, channel_id)
            record, deal = await advising.table_record(self.store, self.require_table(guild_id, channel_id), deal)
        return await advising.analyse(record, deal)

    # -- referee mode ----------------------------------------------------------------------------

    async def open_referee(
        self,
        guild_id: str,
        channel_id: str,
        host: User,
        game_id: str,
        players: Sequence[User | str],
        option_pairs: Sequence[str] = (),
    ) -> Table:
        """Open a referee table for people playing with real cards: members or guest names."""
        async with self.core.registry.lock((guild_id, channel_id)):
            await self.core.registry.settle_channel(guild_id, channel_id)  # a broken table frees its channel
            await self.play.settle_result(self.table(guild_id, channel_id))  # an ended one, once its result is stored
            return await self.referee.open(guild_id, channel_id, host, game_id, players, option_pairs)

    def entries(self, guild_id: str, channel_id: str, user: User) -> tuple[int, list[tuple[int, Action]]]:
        """Referee mode: every entry that may be made now, as (seat, entry), and the turn."""
        table = self.require_table(guild_id, channel_id)
        require_member(table, user)
        return self.referee.entries(table)

    async def entry_choices(
        self, guild_id: str, channel_id: str, user: User, entry: int
    ) -> tuple[int, list[Action]]:
        """Referee mode: what could have been entered as entry number ``entry`` (for a correction)."""
        async with self.core.registry.locked(guild_id, channel_id) as table:
            require_member(table, user)
            return await self.referee.entry_choices(table, entry)

    async def confirm(
        self, guild_id: str, channel_id: str, user: User, *, session: int | None = None, entries: str | None = None
    ) -> None:
        """Confirm the last entry. ``entries``: the :func:`~bot.service.referee.entry_mark` of the
        entries the clicker's table showed (a button's or a page's); if the table holds others
        now, the entry it meant is not the last (or not as it showed it)."""
        async with self.core.registry.locked(guild_id, channel_id, session) as table:
            require_member(table, user)
            require_entries(table, entries, "confirmed")
            await self.referee.confirm(table, user)

    async def undo(
        self, guild_id: str, channel_id: str, user: User, *, session: int | None = None, entries: str | None = None
    ) -> None:
        """Take back the last entry (its author, the host or a moderator); ``entries`` as for
        :meth:`confirm` (a double click on Undo takes back one entry, not two)."""
        async with self.core.registry.locked(guild_id, channel_id, session) as table:
            require_member(table, user)
            require_entries(table, entries, "taken back")
            await self.referee.undo(table, user)

    async def correct(
        self,
        guild_id: str,
        channel_id: str,
        user: User,
        entry: int,
        action: Action | dict[str, Any],
        *,
        session: int | None = None,
    ) -> None:
        """Replace entry number ``entry`` (1-based) by ``action``: the host or a moderator, logged."""
        async with self.core.registry.locked(guild_id, channel_id, session) as table:
            require_member(table, user)
            await self.referee.correct(table, user, entry, action)
