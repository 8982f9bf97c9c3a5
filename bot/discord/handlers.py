"""What a click on one of our persistent components calls.

The table's components (``components.py``) are drawn by modules below the flows that answer
them (the table message, the hand's menu), so they cannot import those flows without an import
circle. The client hands them the flows instead: it builds one :class:`Handlers` from the flow
modules and keeps it as ``client.handlers``, and a component's callback looks its flow up there
(:func:`handlers_of`). Components drawn only by their own flows (the options menu, the bot
levels, the records' buttons) live with those flows and call them directly.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import discord

Interaction = discord.Interaction


@dataclass(frozen=True)
class Handlers:
    """One flow per kind of component, with the fields its custom id carries."""

    lobby: Callable[[Interaction, int, str], Awaitable[None]]
    """(session, verb): Join, Leave, Add bot, Options, Start, Cancel."""
    show_hand: Callable[[Interaction, int], Awaitable[None]]
    """(session)."""
    act: Callable[[Interaction, int, int, int], Awaitable[None]]
    """(session, turn, index of the clicker's legal list at that turn)."""
    pick: Callable[[Interaction, int, int, tuple[int, ...], str], Awaitable[None]]
    """(session, turn, menu path, value chosen)."""
    navigate: Callable[[Interaction, int, int, tuple[int, ...]], Awaitable[None]]
    """(session, turn, menu path)."""
    public_act: Callable[[Interaction, int, int, int], Awaitable[None]]
    """(session, turn, index of the table message's optional acts)."""
    referee: Callable[[Interaction, int, str, str | None], Awaitable[None]]
    """(session, verb, the entries the message showed, if it said): Confirm or Undo."""
    type_entry: Callable[[Interaction, int], Awaitable[None]]
    """(session): the form to type an entry or a move."""
    open_live: Callable[[Interaction, int], Awaitable[None]]
    """(session): the live table (the Activity, or its page)."""


def handlers_of(interaction: discord.Interaction) -> Handlers:
    found = getattr(interaction.client, "handlers", None)
    if not isinstance(found, Handlers):
        raise RuntimeError("this client answers no Parlour components (it has no handlers)")
    return found
