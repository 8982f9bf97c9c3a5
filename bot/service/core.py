"""What every desk of the table service shares: storage, the transport's notifier, the table
registry, the servers' settings, where seeds come from, and who cannot be sent a DM."""

from __future__ import annotations

import random
import secrets
import sqlite3
from typing import Any

from bot.service.model import Notifier, TableError
from bot.service.registry import TableRegistry
from bot.settings import GuildSettings
from storage.sessions import Store


class Core:
    def __init__(self, store: Store, notifier: Notifier, rng: random.Random | None = None) -> None:
        self.store = store
        self.notifier = notifier
        self.registry = TableRegistry()
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
        await self.store.set_guild_settings(guild_id, settings.model_dump(mode="json"))
        self._settings[guild_id] = settings

    async def create_session(self, **fields: Any) -> int:
        try:
            return await self.store.create_session(**fields)
        except sqlite3.IntegrityError:  # another process, or a session this one could not restore
            raise TableError(
                "This channel already has an open table that I could not load. Ask an admin to check the bot's log."
            ) from None
