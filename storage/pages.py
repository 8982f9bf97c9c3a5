"""What the pages of record keep besides the server's settings: each server's secret (from which a
player's neutral label and page address derive) and its name as an admin last saw it."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from storage.db import Database, transaction
from storage.query import Query


@dataclass(frozen=True)
class PagesRecord:
    guild_id: str
    secret: str
    guild_name: str | None


_GET = Query("SELECT guild_id, secret, guild_name FROM record_pages WHERE guild_id = :guild_id")
_ADD = Query(
    "INSERT INTO record_pages (guild_id, secret, guild_name) VALUES (:guild_id, :secret, :guild_name)"
    " ON CONFLICT (guild_id) DO NOTHING"
)
_NAME = Query("UPDATE record_pages SET guild_name = :guild_name WHERE guild_id = :guild_id")


async def pages_record(conn: Database, guild_id: str) -> PagesRecord | None:
    async with conn.execute(_GET, guild_id=guild_id) as cur:
        row = await cur.fetchone()
    return PagesRecord(row["guild_id"], row["secret"], row["guild_name"]) if row else None


async def ensure_pages_record(conn: Database, guild_id: str, guild_name: str | None = None) -> PagesRecord:
    """The server's record, made with a fresh secret the first time (kept ever after, so that
    labels and addresses stay the same); ``guild_name``, when given, replaces the stored name."""
    async with transaction(conn):
        await conn.execute(_ADD, guild_id=guild_id, secret=secrets.token_hex(16), guild_name=guild_name)
        if guild_name is not None:
            await conn.execute(_NAME, guild_id=guild_id, guild_name=guild_name)
    found = await pages_record(conn, guild_id)
    assert found is not None
    return found
