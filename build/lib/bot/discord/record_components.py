"""Persistent buttons of the records and admin commands: page turners and the reset confirmation.

Like the table's components they are DynamicItems: their custom id says everything needed to
answer a click, so they work after a restart. A page is recomputed from the database on each
click, so a leaderboard page is always current.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.discord.components import PREFIX


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{PREFIX}:page:(?P<kind>board|replay):(?P<key>[a-z0-9_.]+):(?P<page>\d+)",
):
    """Go to page ``page`` of a leaderboard (key ``game.period``) or a replay (key: match id)."""

    def __init__(self, kind: str, key: str, page: int, label: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"{PREFIX}:page:{kind}:{key}:{page}",
            )
        )
        self.kind, self.key, self.page = kind, key, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PageButton:
        return cls(match["kind"], match["key"], int(match["page"]), "")

    async def callback(self, interaction: discord.Interaction) -> None:
        from bot.discord import record_flows  # it builds these buttons: imported on use, typed

        await record_flows.turn_page(interaction, self.kind, self.key, self.page)


def pager(kind: str, key: str, page: int, pages: int) -> discord.ui.View | None:
    """Previous / page n of m / Next buttons, or nothing for a single page."""
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(PageButton(kind, key, max(page - 1, 0), "Previous", disabled=page == 0))
    view.add_item(PageButton(kind, key, page + 1, "Next", disabled=page >= pages - 1))
    return view


RESET_VERBS = {"confirm": ("Reset the rating", discord.ButtonStyle.danger), "cancel": ("Keep it", discord.ButtonStyle.secondary)}


class ResetRatingButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{PREFIX}:reset:(?P<user>\d+):(?P<verb>confirm|cancel)",
):
    """The confirmation asked by ``/admin rating reset``."""

    def __init__(self, user_id: str, verb: str) -> None:
        label, style = RESET_VERBS[verb]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"{PREFIX}:reset:{user_id}:{verb}"))
        self.user_id, self.verb = user_id, verb

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ResetRatingButton:
        return cls(match["user"], match["verb"])

    async def callback(self, interaction: discord.Interaction) -> None:
        from bot.discord import record_flows  # it builds these buttons: imported on use, typed

        await record_flows.reset_decided(interaction, self.user_id, self.verb == "confirm")


def reset_view(user_id: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ResetRatingButton(user_id, "confirm"))
    view.add_item(ResetRatingButton(user_id, "cancel"))
    return view


RECORD_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (PageButton, ResetRatingButton)
