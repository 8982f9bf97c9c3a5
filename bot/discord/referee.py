"""Referee mode on Discord: /referee opens a table for people playing with real cards, Confirm and
Undo on its message, /correct (with the choices it offers as it is typed). Entries themselves
are made in the private view (``play``) or typed (``typed``)."""

from __future__ import annotations

import contextlib
import re
from typing import Any

import discord

from bot.discord.context import bot_of, current_table, guarded, place_of, service_of, split_options, user_of
from bot.discord.limits import clip
from bot.discord.plain import plain
from bot.discord.safe import safe_defer, safe_reply
from bot.render.text import clean_name
from bot.service.model import TableError, User
from games.engine import IllegalAction
from games.notation import read_choice

MENTION = re.compile(r"<@!?(\d+)>")


async def table_players(interaction: discord.Interaction, text: str) -> list[User | str]:
    """The players named in ``/referee``: mentions become members, anything else a guest's name.

    Names are separated by commas when there is one (``Ann Smith, Bob``), else by spaces."""
    tokens = [t.strip() for t in (text.split(",") if "," in text else split_options(text))]
    players: list[User | str] = []
    for token in filter(None, tokens):
        found = MENTION.fullmatch(token)
        if found is None:
            players.append(clean_name(token))
            continue
        member: discord.Member | None = None
        if interaction.guild is not None:
            member = interaction.guild.get_member(int(found[1]))
            if member is None:
                with contextlib.suppress(discord.HTTPException):
                    member = await interaction.guild.fetch_member(int(found[1]))
        if member is None:
            raise TableError(f"I cannot find {token} in this server; type a name instead for a guest.")
        players.append(User(str(member.id), clean_name(member.display_name)))
    if not players:
        raise TableError("Name the players, in seat order: mentions for members, names for guests.")
    return players


@guarded
async def referee(interaction: discord.Interaction, game: str, players: str, options: str | None) -> None:
    """Open a referee table; its message (standings and entry buttons) answers the command."""
    key = place_of(interaction)
    bot = bot_of(interaction)
    seated = await table_players(interaction, players)
    responder = bot.notifier.respond_with(key, interaction)
    done = False
    try:
        await bot.service.open_referee(*key, user_of(interaction), game, seated, split_options(options))
        done = True
    finally:
        bot.notifier.release(key, responder, done)
    if not responder.used:
        await safe_reply(interaction, "Your referee table is open.", ephemeral=True)


@guarded
async def referee_action(
    interaction: discord.Interaction, session: int, verb: str, entries: str | None = None
) -> None:
    current_table(interaction, session)
    service, key, user = service_of(interaction), place_of(interaction), user_of(interaction)
    if verb not in ("confirm", "undo"):
        raise TableError("That button does nothing any more.")
    await safe_defer(interaction, ephemeral=True, thinking=True)
    if verb == "confirm":
        await service.confirm(*key, user, session=session, entries=entries)
        await safe_reply(interaction, "You confirmed the last entry.", ephemeral=True)
    else:
        await service.undo(*key, user, session=session, entries=entries)
        await safe_reply(interaction, "The last entry is taken back.", ephemeral=True)


async def correction_choices(interaction: discord.Interaction, entry: int | None, current: str) -> list[Any]:
    """Autocomplete for ``/correct``: what entry number ``entry`` could have been."""
    if entry is None:
        return []
    try:
        _seat, legal = await service_of(interaction).entry_choices(*place_of(interaction), user_of(interaction), entry)
    except TableError:
        return []
    text = current.strip().lower()
    found = [(i, a) for i, a in enumerate(legal) if text in " / ".join(a.choice_path()).lower()]
    return [
        discord.app_commands.Choice(name=clip(" / ".join(a.choice_path()), 100), value=f"#{i + 1}")
        for i, a in found[:25]
    ]


@guarded
async def correct(interaction: discord.Interaction, entry: int, choice: str) -> None:
    """Replace an earlier entry by what ``choice`` says: one of the offered list (``#N``, as the
    autocomplete fills in) or typed as any entry is ("10" is ten tricks, "KH" the King of Hearts)."""
    service, key, user = service_of(interaction), place_of(interaction), user_of(interaction)
    _seat, legal = await service.entry_choices(*key, user, entry)
    try:
        picked = read_choice(legal, choice)
    except IllegalAction as exc:
        raise TableError(f"Entry {entry} was not changed. {exc}") from None
    await safe_defer(interaction, ephemeral=True, thinking=True)
    await service.correct(*key, user, entry, picked)
    await safe_reply(interaction, plain(f"Entry {entry} is now {picked.label()}."), ephemeral=True)
