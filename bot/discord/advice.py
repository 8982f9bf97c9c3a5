"""Advice: /hint for the current choice, /analyse of a finished deal against perfect play."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.discord.context import guarded, place_of, service_of, user_of
from bot.discord.limits import clip, clip_lines, fit_embed
from bot.discord.safe import safe_defer, safe_reply


def _advice_embed(title: str, lines: Sequence[str]) -> discord.Embed:
    return fit_embed(discord.Embed(title=title, description=clip_lines(list(lines), 4096, keep="start")))


@guarded
async def hint(interaction: discord.Interaction) -> None:
    key, user = place_of(interaction), user_of(interaction)
    await safe_defer(interaction, ephemeral=True, thinking=True)  # a search may take a moment
    lines = await service_of(interaction).hint(*key, user)
    await safe_reply(interaction, embed=_advice_embed("Hint", lines), ephemeral=True)


@guarded
async def analyse(interaction: discord.Interaction, deal: int | None, match: int | None) -> None:
    await safe_defer(interaction, ephemeral=True, thinking=True)  # perfect play takes a moment
    analysis = await service_of(interaction).analyse(*place_of(interaction), user_of(interaction), deal, match)
    pages = text_pages(analysis.lines(), 4000)
    for number, page in enumerate(pages[:5], 1):
        title = "Analysis" if len(pages) == 1 else f"Analysis ({number}/{len(pages)})"
        await safe_reply(interaction, embed=_advice_embed(title, page), ephemeral=True)


def text_pages(lines: Sequence[str], size: int) -> list[list[str]]:
    """Lines gathered into pages of at most ``size`` characters (a longer line is clipped)."""
    pages: list[list[str]] = [[]]
    used = 0
    for line in lines:
        line = clip(line, size)
        if pages[-1] and used + len(line) + 1 > size:
            pages.append([])
            used = 0
        pages[-1].append(line)
        used += len(line) + 1
    return pages
