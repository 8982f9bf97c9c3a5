"""Link buttons from Discord to the pages of record: shown when the host serves the web pages
(``PARLOUR_PUBLIC_URL``) and the server turned its pages on; otherwise nothing is added."""

from __future__ import annotations

from typing import Any

import discord

from bot.settings import GuildSettings
from bot.web.records.access import player_key
from storage import stats
from storage.db import Database
from storage.pages import pages_record


def public_url_of(client: discord.Client) -> str | None:
    url = getattr(getattr(client, "settings", None), "public_url", None)
    return url if isinstance(url, str) else None


def server_address(public_url: str, guild_id: str, path: str = "") -> str:
    return f"{public_url.rstrip('/')}/servers/{guild_id}/{path}"


def match_address(public_url: str, guild_id: str, match_id: int) -> str:
    return server_address(public_url, guild_id, f"matches/{match_id}")


async def player_address(conn: Database, public_url: str, guild_id: str, user_id: str) -> str:
    """A member's page, or the server's index for a member with no rating here (who has none)."""
    record = await pages_record(conn, guild_id)
    if record is None or not await stats.has_rating(conn, guild_id, user_id):
        return server_address(public_url, guild_id)
    return server_address(public_url, guild_id, f"players/{player_key(record.secret, user_id)}")


def link_button(label: str, url: str) -> discord.ui.Button[Any]:
    return discord.ui.Button(label=label, url=url, style=discord.ButtonStyle.link)


def with_link(view: discord.ui.View | None, label: str, url: str) -> discord.ui.View:
    """``view`` (or a new one) with a link button added."""
    view = view or discord.ui.View(timeout=None)
    view.add_item(link_button(label, url))
    return view


def pages_url(client: discord.Client, settings: GuildSettings) -> str | None:
    """The public address when this server's pages are shown, else ``None``."""
    public_url = public_url_of(client)
    return public_url if public_url is not None and settings.pages else None
