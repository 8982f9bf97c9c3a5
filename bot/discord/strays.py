"""How a click and a submitted form reach their flow.

Every click reaches :func:`dispatch_component` (the client's ``on_interaction``), keyed by its
custom id alone: the client registers no DynamicItem with discord.py, whose own dispatch rebuilt
the clicked message's every component (``View.from_message``) on each click only to find the one
clicked. A plausible id of ours goes through its item's flow, also when the message no longer
shows it (a click sent just before an edit, a stale copy in a client): the flows refuse it
politely or refresh the hand. Anything else (an id from an older version of the bot, a forged one)
is answered with :data:`UNRECOGNISED`. A submitted form (options, a typed entry) is answered by
:func:`form_submitted` from its custom id, whatever process opened it. No interaction is left
unanswered.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.discord.catalogue import CATALOGUE_ITEMS
from bot.discord.components import MAX_NUMBER, PREFIX, TABLE_ITEMS, ActButton, NavButton, PickSelect
from bot.discord.context import SORRY
from bot.discord.limits import CUSTOM_ID
from bot.discord.lobby import LOBBY_ITEMS, AddBotButton
from bot.discord.options import (
    FORM_PREFIX,
    OPTION_ITEMS,
    OptionNumbersButton,
    OptionPageButton,
    OptionSelect,
    options_submitted,
)
from bot.discord.records import RECORD_ITEMS
from bot.discord.safe import safe_reply
from bot.discord.typed import ENTRY_FIELD, ENTRY_PREFIX, entry_submitted, typed_values
from bot.numbers import plain_int
from bot.service.registry import UNAVAILABLE
from storage.db import StorageUnavailable

log = logging.getLogger(__name__)

UNRECOGNISED = (
    "That button is not one I recognise (it may be from an older version of the bot). "
    "Use /table to see the table as it is now."
)

GAME_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (*TABLE_ITEMS, *OPTION_ITEMS, *LOBBY_ITEMS)
"""The components of a table: its message's, a player's private view's, the lobby's menus."""
DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (*GAME_ITEMS, *RECORD_ITEMS, *CATALOGUE_ITEMS)
"""Every DynamicItem of the bot: a table's components, the records' and the rules' pages."""
EPHEMERAL_ITEMS: frozenset[type[discord.ui.DynamicItem[Any]]] = frozenset(
    {ActButton, PickSelect, NavButton, OptionSelect, OptionPageButton, OptionNumbersButton, AddBotButton}
)
"""Components only ever shown on the clicker's own ephemeral message (a hand, the options menus)."""


def _kind_of(cls: type[discord.ui.DynamicItem[Any]]) -> str:
    """The word after ``parlour:`` that every custom id of this item starts with."""
    kind = cls.__discord_ui_compiled_template__.pattern.split(":")[1]
    assert kind.isalpha(), f"{cls.__name__}'s template has no fixed kind"
    return kind


ITEMS_BY_KIND: dict[str, type[discord.ui.DynamicItem[Any]]] = {_kind_of(cls): cls for cls in DYNAMIC_ITEMS}
"""Each item by the kind its custom ids name (``parlour:<kind>:...``)."""
assert len(ITEMS_BY_KIND) == len(DYNAMIC_ITEMS), "two items share a kind"


def match_custom_id(custom_id: str) -> tuple[type[discord.ui.DynamicItem[Any]], re.Match[str]] | None:
    """The item a custom id is for and its fields, or ``None`` if it is not a plausible id of ours.

    Plausible: within Discord's length, plain ASCII (``\\d`` in a template would also take other
    scripts' digits), matching a template, every number small enough for the database, and a
    replay page naming a match by number.
    """
    if len(custom_id) > CUSTOM_ID or not custom_id.isascii():
        return None
    prefix, _, rest = custom_id.partition(":")
    cls = ITEMS_BY_KIND.get(rest.partition(":")[0]) if prefix == PREFIX else None
    match = cls.__discord_ui_compiled_template__.fullmatch(custom_id) if cls is not None else None
    if cls is None or match is None:
        return None
    fields = match.groupdict()
    if any(v.isdigit() and int(v) > MAX_NUMBER for v in fields.values() if v):
        return None
    if fields.get("kind") == "replay" and not str(fields.get("key", "")).isdigit():
        return None
    return cls, match


def message_components(message: discord.Message) -> set[tuple[int, str]]:
    """The (component type, custom id) pairs of a message: how discord.py looks a click up."""
    found: set[tuple[int, str]] = set()
    stack: list[Any] = list(message.components)
    while stack:
        component = stack.pop()
        custom_id = getattr(component, "custom_id", None)
        kind = getattr(component, "type", None)
        if custom_id and isinstance(kind, discord.ComponentType):
            found.add((kind.value, custom_id))
        stack.extend(getattr(component, "children", []) or [])
    return found


def _fits_message(cls: type[discord.ui.DynamicItem[Any]], message: discord.Message | None) -> bool:
    """Whether a click of this kind can have come from ``message``.

    A hand's choices and the options menus answer by replacing the message they sit on, which is
    always the clicker's own ephemeral message: forged onto the table message they would replace
    it for everyone. The records' pagers and confirmations likewise replace their message: they
    come from an ephemeral message or one that shows a component of the same kind. The table
    message's own components (lobby, Show my hand, public acts, referee) only answer the clicker.
    """
    if message is None:
        return False
    if cls in EPHEMERAL_ITEMS:
        return message.flags.ephemeral
    if cls in GAME_ITEMS:
        return True
    template = cls.__discord_ui_compiled_template__
    return message.flags.ephemeral or any(
        template.fullmatch(custom_id) for _kind, custom_id in message_components(message)
    )


def _claimed_by_a_view(interaction: discord.Interaction, custom_id: str) -> bool:
    """Whether a persistent view registered with the client answers this id (none does today:
    every view the bot sends is detached, see :func:`bot.discord.safe.detached`)."""
    return any(
        getattr(item, "custom_id", None) == custom_id
        for view in interaction.client.persistent_views
        for item in view.walk_children()
    )


async def dispatch_component(interaction: discord.Interaction) -> bool:
    """Answer a click; returns whether it was answered here (``False``: a persistent view's).

    The item is made from the custom id alone (its ``from_custom_id``, with a bare button or menu
    carrying the chosen values), whether or not the message still shows the component: a click
    sent just before the message was edited (a double click, a stale copy in a client) goes
    through the same flows, which refuse it politely or refresh the hand. A custom id that is no
    plausible id of ours (a button of an older version, a forged or mangled one), or a kind of
    component the message it came from cannot carry, is answered with :data:`UNRECOGNISED`, and
    changes nothing.
    """
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    kind = data.get("component_type")
    found = match_custom_id(custom_id)
    if found is None:
        if not custom_id.startswith(f"{PREFIX}:") and _claimed_by_a_view(interaction, custom_id):
            return False
        await safe_reply(interaction, UNRECOGNISED, ephemeral=True)
        return True
    cls, match = found
    if not _fits_message(cls, interaction.message):
        await safe_reply(interaction, UNRECOGNISED, ephemeral=True)
        return True
    base: discord.ui.Item[Any]
    if kind == discord.ComponentType.select.value:
        base = discord.ui.Select(custom_id=custom_id)
    else:
        base = discord.ui.Button(custom_id=custom_id)
    try:
        item = await cls.from_custom_id(interaction, base, match)
        item._refresh_state(interaction, data)  # type: ignore[arg-type]  # chosen values of a select
        await item.callback(interaction)
    except StorageUnavailable as exc:
        log.warning("component %r: %s", custom_id[:CUSTOM_ID], exc)
        await safe_reply(interaction, UNAVAILABLE, ephemeral=True)
    except Exception:  # the flows answer their own failures; this is for anything before them
        log.exception("component %r failed", custom_id[:CUSTOM_ID])
        await safe_reply(interaction, SORRY, ephemeral=True)
    return True


async def form_submitted(interaction: discord.Interaction) -> bool:
    """Handle a submitted form (options, or a typed entry); ``False`` if the form is not ours."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    if custom_id.startswith(ENTRY_PREFIX):
        session = plain_int(custom_id.removeprefix(ENTRY_PREFIX))
        if session is None:
            return False
        await entry_submitted(interaction, session, typed_values(data.get("components") or []).get(ENTRY_FIELD, ""))
        return True
    if not custom_id.startswith(FORM_PREFIX):
        return False
    session_text, _, _chunk = custom_id.removeprefix(FORM_PREFIX).partition(":")
    session = plain_int(session_text)
    if session is None:
        return False
    await options_submitted(interaction, session, typed_values(data.get("components") or []))
    return True
