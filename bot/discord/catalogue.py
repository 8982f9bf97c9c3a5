"""The games themselves: /rules, /games, /help, and the game names offered as a command is typed."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.discord.components import PREFIX
from bot.discord.context import guarded
from bot.discord.embeds import RULES_PAGES, games_embed, help_embed, rules_embed, rules_page_keys
from bot.discord.limits import clip
from bot.discord.safe import safe_reply, safe_update
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


class RulesButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{PREFIX}:rules:(?P<game>[a-z0-9_]+):(?P<page>[a-z]+)",
):
    """Show another page of a game's rules (:data:`RULES_PAGES`) in place of the one shown."""

    def __init__(self, game_id: str, page: str, *, current: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=RULES_PAGES.get(page, page),
                style=discord.ButtonStyle.primary if current else discord.ButtonStyle.secondary,
                disabled=current,
                custom_id=f"{PREFIX}:rules:{game_id}:{page}",
            )
        )
        self.game_id, self.page = game_id, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RulesButton:
        return cls(match["game"], match["page"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await rules_page(interaction, self.game_id, self.page)


CATALOGUE_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (RulesButton,)


def rules_view(game: Game[Any], page: str) -> discord.ui.View | None:
    """A button for each page of the rules (the one shown is pressed), or nothing for one page."""
    keys = rules_page_keys(game)
    if len(keys) <= 1:
        return None
    view = discord.ui.View(timeout=None)
    for key in keys:
        view.add_item(RulesButton(game.id, key, current=key == page))
    return view


@guarded
async def rules(interaction: discord.Interaction, game: str) -> None:
    found = get_game(game)
    page = rules_page_keys(found)[0]
    await safe_reply(interaction, embed=rules_embed(found, page), view=rules_view(found, page), ephemeral=True)


@guarded
async def rules_page(interaction: discord.Interaction, game_id: str, page: str) -> None:
    found = get_game(game_id)
    keys = rules_page_keys(found)
    if page not in keys:  # a page the rules no longer have: the first
        page = keys[0]
    await safe_update(interaction, embed=rules_embed(found, page), view=rules_view(found, page))


@guarded
async def games(interaction: discord.Interaction) -> None:
    await safe_reply(interaction, embed=games_embed(available_games()), ephemeral=True)


@guarded
async def help(interaction: discord.Interaction) -> None:
    await safe_reply(interaction, embed=help_embed(), ephemeral=True)
