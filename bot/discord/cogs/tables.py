"""Commands about the table in this channel: /play, /table, /hand, /pings, /leave, /abandon."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import advice, lobby
from bot.discord import play as play_flows
from bot.discord.catalogue import game_choices


@app_commands.guild_only()
class TablesCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="play", description="Open a table for a game in this channel.")
    @app_commands.describe(game="The game to play", options="Options as name=value pairs, e.g. deals=3")
    async def play(self, interaction: discord.Interaction, game: str, options: str | None = None) -> None:
        await lobby.play(interaction, game, options)

    @play.autocomplete("game")
    async def play_game(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return game_choices(current)

    @app_commands.command(name="table", description="Post this channel's table message again, at the bottom.")
    async def table(self, interaction: discord.Interaction) -> None:
        await lobby.repost_table(interaction)

    @app_commands.command(name="hand", description="Your cards and choices, seen only by you.")
    async def hand(self, interaction: discord.Interaction) -> None:
        await play_flows.show_hand(interaction)

    @app_commands.command(name="pings", description="Whether I mention you when your turn starts.")
    @app_commands.describe(setting="on: a short mention when your turn starts; off: no mention")
    async def pings(self, interaction: discord.Interaction, setting: Literal["on", "off"]) -> None:
        await play_flows.pings(interaction, setting == "on")

    @app_commands.command(name="leave", description="Leave the lobby, or hand your seat in a game to a bot.")
    async def leave(self, interaction: discord.Interaction) -> None:
        await lobby.leave(interaction)

    @app_commands.command(name="abandon", description="End the game in this channel (host or moderators).")
    async def abandon(self, interaction: discord.Interaction) -> None:
        await lobby.abandon(interaction)

    @app_commands.command(name="hint", description="Advice for your current choice (where the host allowed hints).")
    async def hint(self, interaction: discord.Interaction) -> None:
        await advice.hint(interaction)

    @app_commands.command(name="analyse", description="A finished deal against perfect play.")
    @app_commands.describe(
        deal="The deal's number (default: the last one finished)",
        match="A finished match's number (from /history), instead of this table",
    )
    async def analyse(
        self,
        interaction: discord.Interaction,
        deal: app_commands.Range[int, 1] | None = None,
        match: app_commands.Range[int, 1] | None = None,
    ) -> None:
        await advice.analyse(interaction, deal, match)
