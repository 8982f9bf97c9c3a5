"""What every desk of the table service shares: storage, the transport's notifier, the table
registry, the servers' settings, where seeds come from, and who cannot be sent a DM."""

from __future__ import annotations

import random
import secrets
from typing import Any

from pydantic import BaseModel

from bot.service.model import Clock, Notifier, Table, TableError, User
from bot.service.registry import MOVED, Serves, TableRegistry, everywhere
from bot.settings import GuildSettings
from games.engine import Game
from storage.errors import Conflict
from storage.leases import LeaseLost
from storage.sessions import SeatRecord, Store


class Core:
    def __init__(
        self,
        store: Store,
        notifier: Notifier,
        rng: random.Random | None = None,
        serves: Serves = everywhere,
        clock: Clock | None = None,
    ) -> None:
        self.store = store
        self.clock = clock or Clock()
        """Wall-clock time for the turn clocks (a test drives its own)."""
        self.notifier = notifier
        self.registry = TableRegistry(serves)
        self.rng: random.Random = rng or secrets.SystemRandom()
        """Where match seeds come from: the operating system's secure source unless a test
        injects a seeded generator (a published seed must not help predict the next one)."""
        self.dm_closed: set[str] = set()
        self.dm_untold: set[str] = set()
        """Players whose DMs are closed and who have not yet been told so (that notice failed)."""
        self._settings: dict[str, GuildSettings] = {}

    def new_seed(self) -> int:
        return self.rng.randrange(2**62)

    async def settings(self, guild_id: str) -> GuildSettings:
        if guild_id not in self._settings:
            self._settings[guild_id] = GuildSettings.model_validate(await self.store.guild_settings(guild_id))
        return self._settings[guild_id]

    async def update_settings(self, guild_id: str, settings: GuildSettings) -> None:
        self.registry.require_served(guild_id)
        try:
            await self.store.set_guild_settings(guild_id, settings.model_dump(mode="json"))
        except LeaseLost:
            raise TableError(MOVED) from None
        self._settings[guild_id] = settings

    async def new_table(
        self,
        guild_id: str,
        channel_id: str,
        game: Game[Any],
        options: BaseModel,
        host: User,
        seats: list[SeatRecord],
        mode: str = "online",
    ) -> Table:
        """A new session in its lobby, stored with a fresh seed, as a table not yet registered."""
        seed = self.new_seed()
        try:
            session_id = await self.store.create_session(
                guild_id=guild_id,
                channel_id=channel_id,
                game=game.id,
                options=options.model_dump(mode="json"),
                host_id=host.id,
                seats=seats,
                seed=seed,
                mode=mode,
            )
        except Conflict:  # another process, or a session this one could not restore
            raise TableError(
                "This channel already has an open table that I could not load. Ask an admin to check the bot's log."
            ) from None
        except LeaseLost:
            raise TableError(MOVED) from None
        return Table(session_id, guild_id, channel_id, game, options, host.id, seats, seed, mode=mode)
