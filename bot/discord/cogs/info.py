"""Commands about the games themselves: /rules, /games, /help."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import catalogue


class InfoCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="rules", description="A game's rules and options.")
    @app_commands.describe(game="The game")
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        await catalogue.rules(interaction, game)

    @rules.autocomplete("game")
    async def rules_game(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return catalogue.game_choices(current)

    @app_commands.command(name="games", description="The games I can referee.")
    async def games(self, interaction: discord.Interaction) -> None:
        await catalogue.games(interaction)

    @app_commands.command(name="help", description="How to play with Parlour.")
    async def help(self, interaction: discord.Interaction) -> None:
        await catalogue.help(interaction)
