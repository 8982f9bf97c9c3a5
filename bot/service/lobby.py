"""The lobby: open a table, take seats (people and bots), choose options, start, cancel.

Every change is stored first and taken in memory after, so a failed write changes nothing."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from bot.service.core import Core
from bot.service.model import Table, TableError, User
from bot.service.play import PlayDesk
from games.engine import Event, Game, SetupError
from games.players import levels
from games.registry import get_game
from storage.sessions import SeatRecord


class LobbyDesk:
    def __init__(self, core: Core, play: PlayDesk) -> None:
        self.core = core
        self.play = play

    async def open_table(
        self, guild_id: str, channel_id: str, host: User, game_id: str, option_pairs: Sequence[str]
    ) -> Table:
        """Open a table in its lobby. The caller holds the channel's lock."""
        self.core.registry.require_free(guild_id, channel_id)
        settings = await self.core.settings(guild_id)
        if settings.allowed_channels and channel_id not in settings.allowed_channels:
            raise TableError("Tables cannot be opened in this channel; ask an admin which channels allow them.")
        try:
            game = get_game(game_id)
            defaults = dict(settings.default_options.get(game.id, {}))
            given = game.parse_options(option_pairs).model_dump(exclude_unset=True)
            options = game.options({**defaults, **given})
            check_first_dealer(game, options, given)
        except SetupError as exc:
            raise TableError(str(exc)) from None
        table = await self.core.new_table(
            guild_id, channel_id, game, options, host, [SeatRecord(name=host.name, user_id=host.id)]
        )
        self.core.registry.add(table)
        await self.core.notifier.table_changed(table, [], repost=True)
        return table

    async def join(self, table: Table, user: User) -> None:
        require_lobby(table)
        if table.seat_of(user.id) is not None:
            raise TableError("You are already seated at this table.")
        require_room(table)
        seat = SeatRecord(name=unique_name(table, user.name), user_id=user.id)
        await self._save(table, seats=[*table.seats, seat])

    async def add_bot(self, table: Table, user: User, level: str) -> None:
        require_lobby(table)
        if table.seat_of(user.id) is None and user.id != table.host_id:
            raise TableError("Only players at this table can do that.")
        require_room(table)
        offered = levels(table.game.id)
        if level not in offered:
            raise TableError(f"There is no {level!r} bot for {table.game.title}; choose one of {', '.join(offered)}.")
        number = sum(1 for s in table.seats if s.bot is not None) + 1
        name = f"Bot {number}" if level == "easy" else f"Bot {number} ({level})"
        await self._save(table, seats=[*table.seats, SeatRecord(name=unique_name(table, name), bot=level)])

    async def leave(self, table: Table, user: User) -> bool:
        """Leave the lobby; returns whether the table stays open (it closes when no person is left)."""
        seat = table.seat_of(user.id)
        if seat is None:
            raise TableError("You are not seated at this table.")
        seats = [s for i, s in enumerate(table.seats) if i != seat]
        people = [s.user_id for s in seats if s.bot is None and s.user_id is not None]
        if not people:
            await self.close(table, "cancelled")
            return False
        host = people[0] if table.host_id == user.id else table.host_id
        await self._save(table, seats=seats, host_id=host)
        return True

    async def set_options(self, table: Table, user: User, pairs: Sequence[str] | Mapping[str, Any]) -> None:
        require_lobby(table)
        require_host(table, user)
        try:
            if isinstance(pairs, Mapping):
                given = dict(pairs)
            else:
                given = table.game.parse_options(pairs).model_dump(exclude_unset=True)
            options = table.game.options({**table.options.model_dump(), **given})
            check_first_dealer(table.game, options, given)
        except SetupError as exc:
            raise TableError(str(exc)) from None
        await self._save(table, options=options)

    async def start(self, table: Table, user: User) -> None:
        require_lobby(table)
        require_host(table, user)
        try:
            table.game.check_players(len(table.seats), table.options)
        except SetupError as exc:
            raise TableError(str(exc)) from None
        await self.core.store.set_status(table.id, "playing")
        table.state = table.game.start([s.name for s in table.seats], table.options, table.seed)
        table.status = "playing"
        table.last_change_at = self.core.clock.now()
        events = [Event(kind="start", text=f"{table.game.title} begins.")]
        events += await self.play.run_bots(table)
        await self.play.after_change(table, events, new_deal=True)

    async def cancel(self, table: Table, user: User) -> None:
        require_lobby(table)
        if user.id != table.host_id and not user.is_moderator:
            raise TableError("Only the host can cancel this table.")
        await self.close(table, "cancelled")

    async def close(self, table: Table, status: str) -> None:
        await self.core.store.set_status(table.id, status)
        self.core.registry.drop(table)
        await self.core.notifier.table_closed(table)

    async def _save(
        self,
        table: Table,
        *,
        seats: list[SeatRecord] | None = None,
        options: BaseModel | None = None,
        host_id: str | None = None,
    ) -> None:
        """Store the lobby's new seats, options or host, then take them, and show the table."""
        seats = table.seats if seats is None else seats
        options = table.options if options is None else options
        host_id = table.host_id if host_id is None else host_id
        await self.core.store.update_lobby(
            table.id, options=options.model_dump(mode="json"), seats=seats, host_id=host_id
        )
        table.seats, table.options, table.host_id = seats, options, host_id
        await self.core.notifier.table_changed(table, [], repost=False)


def check_first_dealer(game: Game[Any], options: BaseModel, given: Mapping[str, Any]) -> None:
    """A first dealer chosen in the lobby must be a seat this game can have (it is checked
    against the players seated at Start); blank means a random first dealer."""
    first = getattr(options, "first_dealer", None)
    if "first_dealer" in given and first is not None and first > game.max_players:
        seats = "1" if game.max_players == 1 else f"1 to {game.max_players}"
        raise SetupError(
            f"There is no seat {first} at {game.title}: it seats at most {game.max_players} players. "
            f"Choose a first dealer from {seats}, or leave it blank for a random one."
        )


def require_lobby(table: Table) -> None:
    if table.status != "lobby":
        raise TableError("The game has already started.")


def require_host(table: Table, user: User) -> None:
    if user.id != table.host_id:
        raise TableError("Only the host can do that.")


def require_room(table: Table) -> None:
    if len(table.seats) >= table.game.max_players:
        raise TableError(f"The table is full: {table.game.title} seats at most {table.game.max_players}.")


def unique_name(table: Table, name: str) -> str:
    """``name``, or "name (2)", "name (3)"... if a seat already has it: two seats never share a
    name, so the table's text and pictures tell them apart."""
    return numbered_name({s.name for s in table.seats}, name)


def numbered_name(taken: Collection[str], name: str) -> str:
    if name not in taken:
        return name
    i = 2
    while f"{name} ({i})" in taken:
        i += 1
    return f"{name} ({i})"


def told_apart(names: Sequence[str]) -> list[str]:
    """``names`` in seat order, each one an earlier seat already has numbered as a lobby numbers
    a second "Sam" who joins ("Sam", "Sam (2)"); names that do not collide are left alone."""
    taken = set(names)
    out: list[str] = []
    for name in names:
        if name in out:
            name = numbered_name(taken, name)
            taken.add(name)
        out.append(name)
    return out
