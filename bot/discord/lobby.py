"""Opening a table and seating people: /play, the lobby's buttons (Join, Leave, Add bot and its
levels, Options, Start, Cancel), /leave, /abandon and /table."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Sequence
from typing import Any

import discord

from bot.discord.components import BUTTONS_PER_ROW, PREFIX, ROWS
from bot.discord.context import bot_of, current_table, guarded, place_of, service_of, split_options, user_of
from bot.discord.limits import BUTTON_LABEL, clip
from bot.discord.options import open_options
from bot.discord.safe import safe_defer, safe_reply, safe_update
from bot.service.model import Table, TableError
from games.players import levels


@guarded
async def play(interaction: discord.Interaction, game: str, options: str | None) -> None:
    """Open a table; its lobby message is the answer to the command."""
    key = place_of(interaction)
    bot = bot_of(interaction)
    responder = bot.notifier.respond_with(key, interaction)
    done = False
    try:
        await bot.service.open_table(*key, user_of(interaction), game, split_options(options))
        done = True
    finally:
        bot.notifier.release(key, responder, done)
    if not responder.used:
        await safe_reply(interaction, "Your table is open.", ephemeral=True)


@guarded
async def repost_table(interaction: discord.Interaction) -> None:
    table = current_table(interaction)
    bot_of(interaction).notifier.repost(table, interaction)


@guarded
async def leave(interaction: discord.Interaction) -> None:
    current_table(interaction)
    user = user_of(interaction)
    await safe_defer(interaction, ephemeral=True, thinking=True)
    left = await service_of(interaction).leave(*place_of(interaction), user)
    handed_over = left is not None and any(s.user_id == user.id and s.bot is not None for s in left.seats)
    text = (  # what the service did under the lock, not what the table looked like before it
        "You left the game: a bot plays your seat from now on, and you rank last."
        if handed_over
        else "You left the table."
    )
    await safe_reply(interaction, text, ephemeral=True)


@guarded
async def abandon(interaction: discord.Interaction) -> None:
    current_table(interaction)
    await safe_defer(interaction, ephemeral=True, thinking=True)
    await service_of(interaction).abandon(*place_of(interaction), user_of(interaction))
    await safe_reply(interaction, "The game is abandoned; it counts for no rating.", ephemeral=True)


@guarded
async def lobby_action(interaction: discord.Interaction, session: int, verb: str) -> None:
    table = current_table(interaction, session)
    user = user_of(interaction)
    service = service_of(interaction)
    key = place_of(interaction)
    if verb == "options":
        await open_options(interaction, table, user)
        return
    if table.status != "lobby":  # a quick refusal: the service checks again under the lock
        raise TableError("The game has already started.")
    if verb == "bot":
        await safe_reply(
            interaction,
            "Which kind of bot? Random plays any legal card; easy and strong think harder.",
            view=bot_levels_view(table, levels(table.game.id)),
            ephemeral=True,
        )
        return
    if verb == "start":
        await answered_by_change(interaction, key, service.start(*key, user, session=session))
    elif verb == "join":
        await answered_by_change(interaction, key, service.join(*key, user, session=session), edits=True)
    elif verb == "leave":  # never a seat handed over in play
        leaving = service.leave(*key, user, session=session, lobby_only=True)
        await answered_by_change(interaction, key, leaving, edits=True)
    elif verb == "cancel":
        await safe_defer(interaction)
        await service.cancel(*key, user, session=session)
    else:
        raise TableError("That button does nothing any more.")


async def answered_by_change(
    interaction: discord.Interaction, key: tuple[str, str], change: Awaitable[Any], edits: bool = False
) -> None:
    """Make a change whose table message answers the click: Start's click is answered with the
    new table message itself, as ``/play`` is with the lobby; with ``edits`` (Join, Leave), the
    lobby's edit is the click's own update of the message it is on. One call each, where a
    defer and then a post or an edit were two."""
    notifier = bot_of(interaction).notifier
    responder = notifier.respond_with(key, interaction, edits)
    done = False
    try:
        await change
        done = True
    finally:
        notifier.release(key, responder, done)
    if not responder.used:  # no message was posted or edited for it: acknowledge the click
        await safe_defer(interaction)


@guarded
async def add_bot(interaction: discord.Interaction, session: int, level: str) -> None:
    """A level chosen after Add bot: seat that bot, and keep the chooser for another one."""
    table = current_table(interaction, session)
    if table.status != "lobby":  # a quick refusal: the service checks again under the lock
        raise TableError("The game has already started.")
    await safe_defer(interaction)
    await service_of(interaction).add_bot(*place_of(interaction), user_of(interaction), level, session=session)
    await safe_update(interaction, content=f"A {level} bot takes a seat. Add another, or press Start.")


# -- the bot levels offered after Add bot --------------------------------------------------------------


class AddBotButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{PREFIX}:addbot:(?P<session>\d+):(?P<level>[a-z]+)",
):
    """One bot level, offered (ephemerally) after Add bot in the lobby."""

    def __init__(self, session: int, level: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=clip(level.capitalize(), BUTTON_LABEL),
                style=discord.ButtonStyle.secondary,
                custom_id=f"{PREFIX}:addbot:{session}:{level}",
            )
        )
        self.session, self.level = session, level

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AddBotButton:
        return cls(int(match["session"]), match["level"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await add_bot(interaction, self.session, self.level)


def bot_levels_view(table: Table, levels: Sequence[str]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for level in levels[: BUTTONS_PER_ROW * ROWS]:
        view.add_item(AddBotButton(table.id, level))
    return view


LOBBY_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (AddBotButton,)
