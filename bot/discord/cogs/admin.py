"""/admin: seasons, rating resets, the server's settings and the admin log (Manage Server)."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.admin import SettingsChange
from bot.discord import records
from bot.discord.catalogue import game_choices
from bot.discord.context import split_options


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class AdminCog(commands.GroupCog, group_name="admin", group_description="Server administration (Manage Server)."):
    season = app_commands.Group(name="season", description="Leaderboard seasons.")
    rating = app_commands.Group(name="rating", description="Members' ratings.")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @season.command(name="new", description="Start a new season; all-time ratings and results stay.")
    async def season_new(self, interaction: discord.Interaction) -> None:
        await records.season_new(interaction)

    @rating.command(name="reset", description="Forget a member's ratings on this server (asks to confirm).")
    @app_commands.describe(member="Whose ratings")
    async def rating_reset(self, interaction: discord.Interaction, member: discord.Member) -> None:
        await records.rating_reset(interaction, member)

    @app_commands.command(name="settings", description="Show or change this server's settings.")
    @app_commands.describe(
        reminder_seconds="Remind an awaited player after this many seconds (0: never)",
        timeout_seconds="A bot plays for an absent player after this many seconds (0: never)",
        dms="Send each player their hand by DM at every deal",
        referee_confirmation="Referee entries need a second player's confirmation",
        turn_ping="How a player is told their turn has started (players with their view open are not)",
        allow_channel="Let tables open in this channel (once any is listed, only listed channels)",
        disallow_channel="Take this channel off the list",
        game="The game whose default options to set",
        default_options="Default options for that game as name=value pairs; 'standard' clears them",
        pages="Show this server's leaderboards, players and finished matches as web pages",
        page_names="Let those pages show members' display names (otherwise neutral labels)",
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        reminder_seconds: app_commands.Range[int, 0, 86400] | None = None,
        timeout_seconds: app_commands.Range[int, 0, 86400] | None = None,
        dms: bool | None = None,
        referee_confirmation: bool | None = None,
        turn_ping: Literal["mention", "dm", "off"] | None = None,
        allow_channel: discord.TextChannel | None = None,
        disallow_channel: discord.TextChannel | None = None,
        game: str | None = None,
        default_options: str | None = None,
        pages: bool | None = None,
        page_names: bool | None = None,
    ) -> None:
        defaults = None
        if game is not None:
            pairs = [] if (default_options or "").strip().lower() in ("", "standard") else split_options(default_options)
            defaults = (game, pairs)
        change = SettingsChange(
            turn_reminder_seconds=reminder_seconds,
            turn_timeout_seconds=timeout_seconds,
            dms_enabled=dms,
            referee_confirmation=referee_confirmation,
            turn_ping=turn_ping,
            allow_channels=[str(allow_channel.id)] if allow_channel else [],
            disallow_channels=[str(disallow_channel.id)] if disallow_channel else [],
            default_options=defaults,
            pages=pages,
            page_names=page_names,
        )
        await records.admin_settings(interaction, change)

    @settings.autocomplete("game")
    async def settings_game(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return game_choices(current)

    @app_commands.command(name="log", description="Recent admin actions on this server, and who made them.")
    async def log(self, interaction: discord.Interaction) -> None:
        await records.admin_log(interaction)
