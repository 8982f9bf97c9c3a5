"""Which servers show pages, and how each shows its players: by display name where the server
allows it, else by a neutral label derived from the server's secret (never from the id alone)."""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass

from bot.settings import GuildSettings
from storage.db import Database
from storage.pages import pages_record
from storage.sessions import Store

GUILD_ID = re.compile(r"\d{1,20}")
PLAYER_KEY = re.compile(r"[0-9a-f]{16}")
SERVER_LABEL = "This server"


def player_key(secret: str, user_id: str) -> str:
    """A player's address on the pages: stable, and no Discord id in it."""
    return hmac.new(secret.encode(), user_id.encode(), hashlib.sha256).hexdigest()[:16]


def player_label(secret: str, user_id: str) -> str:
    """A neutral name such as ``Player 4821`` for a server that keeps names off its pages."""
    return f"Player {int(player_key(secret, user_id)[:8], 16) % 9000 + 1000}"


@dataclass(frozen=True)
class RecordServer:
    """A server whose pages are on, as its pages show it."""

    guild_id: str
    secret: str
    names: bool
    """Members' display names (and the server's name) may be shown."""
    guild_name: str | None
    conn: Database

    @property
    def title(self) -> str:
        return self.guild_name if self.names and self.guild_name else SERVER_LABEL

    def key(self, user_id: str) -> str:
        return player_key(self.secret, user_id)

    def name(self, user_id: str | None, stored: str) -> str:
        """How a player is named on the pages: ``stored`` is the name kept with their result."""
        if self.names:
            return stored
        return player_label(self.secret, user_id) if user_id else "A guest"

    def base(self, public_url: str) -> str:
        return f"{public_url.rstrip('/')}/servers/{self.guild_id}"


async def open_server(store: Store, guild_id: str) -> RecordServer | None:
    """The server as its pages show it, or ``None`` when it shows none (pages off, or no such
    server: callers answer both alike, so that nobody learns which servers use Parlour)."""
    if not GUILD_ID.fullmatch(guild_id):
        return None
    settings = GuildSettings.model_validate(await store.guild_settings(guild_id))
    if not settings.pages:
        return None
    record = await pages_record(store.conn, guild_id)
    if record is None:
        return None
    return RecordServer(guild_id, record.secret, settings.page_names, record.guild_name, store.conn)
