"""The games themselves: /rules, /games, /help, and the game names offered as a command is typed."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.discord.context import guarded
from bot.discord.embeds import games_embed, help_embed, rules_embed
from bot.discord.limits import clip
from bot.discord.safe import safe_reply
from games.engine import Game
from games.registry import all_games, get_game, referee_game, served_ids

log = logging.getLogger(__name__)


def available_games() -> list[Game[Any]]:
    """The catalogue; a game module that fails to load is logged and left out."""
    try:
        return all_games()
    except Exception:
        log.exception("the game catalogue failed to load; listing the games that do")
    games: list[Game[Any]] = []
    for game_id in served_ids():
        try:
            games.append(get_game(game_id))
        except Exception:
            continue
    return games


def game_choices(current: str) -> list[discord.app_commands.Choice[str]]:
    text = current.strip().lower()
    found = [g for g in available_games() if text in g.id or text in g.title.lower()]
    return [discord.app_commands.Choice(name=clip(g.title, 100), value=g.id) for g in found[:25]]


def referee_game_choices(current: str) -> list[discord.app_commands.Choice[str]]:
    """The games that have a referee mode."""
    found = []
    for choice in game_choices(current):
        try:
            referee_game(choice.value)
        except Exception:
            continue
        found.append(choice)
    return found


@guarded
async def rules(interaction: discord.Interaction, game: str) -> None:
    await safe_reply(interaction, embed=rules_embed(get_game(game)), ephemeral=True)


@guarded
async def games(interaction: discord.Interaction) -> None:
    await safe_reply(interaction, embed=games_embed(available_games()), ephemeral=True)


@guarded
async def help(interaction: discord.Interaction) -> None:
    await safe_reply(interaction, embed=help_embed(), ephemeral=True)
