"""Referee mode on Discord: /referee opens a table for people playing with real cards, /correct
fixes an earlier entry. Entries, Confirm and Undo are buttons on the table message."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import referee as referee_flows
from bot.discord.catalogue import referee_game_choices


@app_commands.guild_only()
class RefereeCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="referee", description="Keep score and referee a game played with real cards.")
    @app_commands.describe(
        game="The game being played",
        players="The players in seat order: mentions for members, names for guests (commas if names have spaces)",
        options="Options as name=value pairs",
    )
    async def referee(
        self, interaction: discord.Interaction, game: str, players: str, options: str | None = None
    ) -> None:
        await referee_flows.referee(interaction, game, players, options)

    @referee.autocomplete("game")
    async def referee_game(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return referee_game_choices(current)

    @app_commands.command(name="correct", description="Correct an earlier entry at this referee table (host).")
    @app_commands.describe(entry="The entry's number (1 is the first)", choice="What it should have been")
    async def correct(self, interaction: discord.Interaction, entry: app_commands.Range[int, 1], choice: str) -> None:
        await referee_flows.correct(interaction, entry, choice)

    @correct.autocomplete("choice")
    async def correct_choice(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        entry = getattr(interaction.namespace, "entry", None)
        return await referee_flows.correction_choices(interaction, entry if isinstance(entry, int) else None, current)
