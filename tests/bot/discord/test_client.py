"""The client itself: intents, command registration (the `sync` path), run_bot's refusals, the
garbage collector's settings of a running bot."""

from __future__ import annotations

import gc
from pathlib import Path

import discord
import simcord

from bot.discord.client import GC_THRESHOLDS, ParlourBot, bot_intents, make_bot, run_bot
from bot.settings import Settings
from tests.bot.discord.conftest import World

COMMANDS = {
    "play", "table", "hand", "pings", "leave", "abandon", "rules", "games", "help", "referee", "correct", "hint", "analyse",
    "leaderboard", "stats", "history", "replay", "export",
}
ADMIN = {"admin season new", "admin rating reset", "admin settings", "admin log"}
"""Shown only to members who may manage the server."""


def test_no_privileged_intents() -> None:
    intents = bot_intents()
    assert not intents.message_content and not intents.members and not intents.presences
    assert intents.guilds
    assert not intents.guild_messages and not intents.dm_messages, "no message events: it never reads them"


def test_run_bot_needs_a_token(tmp_path: Path) -> None:
    settings = Settings(DISCORD_TOKEN=None, PARLOUR_DB=str(tmp_path / "db.sqlite3"))
    assert run_bot(settings, sync_only=True) == 2


async def test_dev_guild_gets_every_command(world: World) -> None:
    available = set(world.ann.available_commands(world.channel))
    assert available == COMMANDS
    assert available | {"admin"} == {c.name for c in world.bot.tree.get_commands()}
    role = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[role])
    assert set(boss.available_commands(world.channel)) == COMMANDS | ADMIN


async def test_sync_only_registers_global_commands(tmp_path: Path) -> None:
    settings = Settings(DISCORD_TOKEN=None, PARLOUR_DB=str(tmp_path / "db.sqlite3"))
    bot = ParlourBot(settings, sync_only=True)
    async with simcord.run(bot) as env:
        guild = env.create_guild("Elsewhere")
        channel = guild.create_text_channel("general")
        member = guild.add_member(env.create_user("dan"))
        assert member.available_commands(channel) == ()
        synced = await bot.sync_commands(None)
        assert {c.name for c in synced} == COMMANDS | {"admin"}
        assert set(member.available_commands(channel)) == COMMANDS
        assert bot._service is None and not (tmp_path / "db.sqlite3").exists()  # no database in sync mode
        await bot.dispose()


async def test_a_running_bot_settles_the_heap_once_connected(tmp_path: Path) -> None:
    settings = Settings(DISCORD_TOKEN=None, PARLOUR_DB=str(tmp_path / "db.sqlite3"))
    assert not make_bot(settings).settles_heap, "only run_bot tunes the process's collector"
    bot = ParlourBot(settings, sync_only=True)
    bot.settles_heap = True  # as run_bot sets it
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    try:
        await bot.on_ready()
        assert gc.get_threshold() == GC_THRESHOLDS and gc.get_freeze_count() > frozen
        gc.set_threshold(*before)
        await bot.on_ready()  # a reconnection: once is enough
        assert gc.get_threshold() == before and not bot.settles_heap
    finally:
        gc.set_threshold(*before)
