"""What every flow shares: the :func:`guarded` wrapper, and who, where and which table a
command or a click is about.

A flow is what a command or a click does: check it, call the table service, answer. Cogs and
components only parse the interaction and call a flow (SpellBot's "actions"); the flows live in
one module per feature (``lobby``, ``options``, ``play``, ``typed``, ``referee``, ``advice``,
``records``, ``catalogue``) and stray interactions in ``strays``.

Every flow is wrapped by :func:`guarded`: a :class:`~bot.tables.TableError` becomes an
ephemeral reply, and any other exception is logged and answered with an apology, so no click is
left unanswered. Work that may be slow (anything that writes) is preceded by a defer, so the
interaction is acknowledged within Discord's three seconds.
"""

from __future__ import annotations

import functools
import logging
import shlex
from collections.abc import Awaitable, Callable
from typing import Concatenate, ParamSpec, Protocol, cast

import discord

from bot.discord.notifier import DiscordNotifier
from bot.discord.plain import plain
from bot.discord.safe import safe_reply
from bot.render.text import clean_name
from bot.service.model import Table, TableError, User
from bot.service.registry import UNAVAILABLE
from bot.tables import TableService
from games.engine import SetupError
from storage.db import StorageUnavailable

log = logging.getLogger(__name__)

P = ParamSpec("P")
Flow = Callable[Concatenate[discord.Interaction, P], Awaitable[None]]

CLOSED = "That table has closed. Open a new one with /play."
SORRY = "Sorry, something went wrong with that. /table shows where the game stands."


class Parlour(Protocol):
    """What the flows need of the client (``ParlourBot``), named here so that they need not
    import it."""

    @property
    def service(self) -> TableService: ...

    @property
    def notifier(self) -> DiscordNotifier: ...


def guarded(flow: Flow[P]) -> Flow[P]:
    @functools.wraps(flow)
    async def run(interaction: discord.Interaction, *args: P.args, **kwargs: P.kwargs) -> None:
        try:
            if interaction.guild_id is not None and interaction.channel_id is not None:
                # a table restored after a restart reads its log on first use, before any flow looks
                await service_of(interaction).ready(str(interaction.guild_id), str(interaction.channel_id))
            await flow(interaction, *args, **kwargs)
        except (TableError, SetupError) as exc:  # a refusal may echo what was typed, or a name
            await safe_reply(interaction, plain(str(exc)), ephemeral=True)
        except StorageUnavailable as exc:
            log.warning("%s: %s", flow.__name__, exc)
            await safe_reply(interaction, UNAVAILABLE, ephemeral=True)
        except Exception:
            log.exception("%s failed", flow.__name__)
            await safe_reply(interaction, SORRY, ephemeral=True)

    return run


# -- who, where, which table -----------------------------------------------------------------------


def bot_of(interaction: discord.Interaction) -> Parlour:
    return cast(Parlour, interaction.client)


def service_of(interaction: discord.Interaction) -> TableService:
    return bot_of(interaction).service


def user_of(interaction: discord.Interaction) -> User:
    perms = interaction.permissions
    return User(
        id=str(interaction.user.id),
        name=clean_name(interaction.user.display_name),
        is_moderator=bool(perms.manage_messages),
    )


def place_of(interaction: discord.Interaction) -> tuple[str, str]:
    if interaction.guild_id is None or interaction.channel_id is None:
        raise TableError("Tables live in server channels: use me in a channel of your server.")
    return str(interaction.guild_id), str(interaction.channel_id)


def current_table(interaction: discord.Interaction, session: int | None = None) -> Table:
    """The channel's table; with ``session``, refuse a component left over from another table."""
    guild_id, channel_id = place_of(interaction)
    if session is None:
        return service_of(interaction).require_table(guild_id, channel_id)
    table = service_of(interaction).table(guild_id, channel_id)
    if table is None or table.id != session:
        raise TableError(CLOSED)
    return table


def split_options(text: str | None) -> list[str]:
    if not text:
        return []
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()

