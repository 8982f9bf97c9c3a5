"""Records of this server: /leaderboard, /stats, /history, /replay, /export."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import records
from bot.discord.catalogue import game_choices

PeriodChoice = Literal["all", "season", "month", "week"]


@app_commands.guild_only()
class RecordsCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description="This server's ratings for a game.")
    @app_commands.describe(
        game="The game (default: the most played here)",
        period="All time, this season, the last 30 days or the last 7 days",
    )
    async def leaderboard(
        self, interaction: discord.Interaction, game: str | None = None, period: PeriodChoice | None = None
    ) -> None:
        await records.leaderboard(interaction, game, period)

    @app_commands.command(name="stats", description="A member's games, wins, scores and rating.")
    @app_commands.describe(
        member="Whose (default: yours)", game="One game only", versus="Add the head-to-head against this member"
    )
    async def stats(
        self,
        interaction: discord.Interaction,
        member: discord.Member | None = None,
        game: str | None = None,
        versus: discord.Member | None = None,
    ) -> None:
        await records.player_stats(interaction, member, game, versus)

    @app_commands.command(name="history", description="Recent finished matches, with their scores.")
    @app_commands.describe(member="Only this member's matches", channel="Only matches played in this channel")
    async def history(
        self,
        interaction: discord.Interaction,
        member: discord.Member | None = None,
        channel: discord.TextChannel | discord.Thread | None = None,
    ) -> None:
        await records.history(interaction, member, channel)

    @app_commands.command(name="replay", description="A finished match's events, deal by deal.")
    @app_commands.describe(match="The match's number (from /history)")
    async def replay(self, interaction: discord.Interaction, match: app_commands.Range[int, 1]) -> None:
        await records.replay(interaction, match)

    @app_commands.command(name="export", description="This server's results as CSV, or one match as JSON.")
    @app_commands.describe(match="One match's number, for its full record as JSON")
    async def export(
        self, interaction: discord.Interaction, match: app_commands.Range[int, 1] | None = None
    ) -> None:
        await records.export(interaction, match)

    @leaderboard.autocomplete("game")
    @stats.autocomplete("game")
    async def game_choice(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return game_choices(current)
