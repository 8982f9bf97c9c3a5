"""Persistent components: buttons and menus that keep working across restarts.

Every component is a :class:`discord.ui.DynamicItem` whose ``custom_id`` carries what the click
needs: the session (table) id, and for game choices the turn it was offered at and where the
choice sits in that turn's list of legal actions::

    parlour:lobby:<session>:<verb>          Join, Leave, Add bot, Options, Start, Cancel
    parlour:hand:<session>                  Show my hand (on the table message)
    parlour:act:<session>:<turn>:<index>    one action of the clicker's legal list at that turn
    parlour:pick:<session>:<turn>:<path>:<k>  a menu: values "a<index>" (act) or "g<child>" (open a group)
    parlour:nav:<session>:<turn>:<path>     Back (to the menu group at ``path``)
    parlour:pub:<session>:<turn>:<index>    a public optional act on the table message
    parlour:opt:<session>:<field>           an option's menu (host, in the lobby)
    parlour:optpage:<session>:<page>        another page of options
    parlour:optnum:<session>:<chunk>        a form for number and text options
    parlour:addbot:<session>:<level>        seat a bot of that level (host, in the lobby)
    parlour:ref:<session>:<verb>:<entries>  Confirm or Undo the last entry at a referee table (the
                                            message showed the entries <count>-<digest>; older
                                            buttons carry the count alone, or nothing)
    parlour:type:<session>                  a form to type an entry or a move (``parlour:entry:`` submits it)

The items here are drawn by lower modules than the flows that answer them (the table message,
the hand's menu), so their callbacks find their flow in the client's
:class:`~bot.discord.handlers.Handlers` rather than importing it. The options menu's items and
the bot levels' live with their flows (``options``, ``lobby``), as the records' do (``records``).
Every flow re-fetches the table by channel and checks the session and turn, so a button
outliving its turn is refused politely. Every click reaches its item through
:mod:`bot.discord.strays` (by custom id; discord.py's own dispatch of dynamic items is not used).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.discord.handlers import handlers_of
from bot.discord.limits import BUTTON_LABEL, PLACEHOLDER, clip, legible

PREFIX = "parlour"
ROWS = 5
BUTTONS_PER_ROW = 5
MAX_NUMBER = 2**63 - 1
"""The largest number a custom id may carry: SQLite's largest integer (sessions, matches, users)."""
PICK_VALUE = re.compile(r"[ag][0-9]{1,6}")
"""A value of a hand's menu: ``a<index>`` or ``g<child>`` (plain digits, a sane size)."""
LOBBY_VERBS = {
    "join": ("Join", discord.ButtonStyle.success, 0),
    "leave": ("Leave", discord.ButtonStyle.secondary, 0),
    "bot": ("Add bot", discord.ButtonStyle.secondary, 0),
    "options": ("Options", discord.ButtonStyle.secondary, 0),
    "start": ("Start", discord.ButtonStyle.primary, 0),
    "cancel": ("Cancel", discord.ButtonStyle.danger, 1),
}


def _path_text(path: Sequence[int]) -> str:
    return ".".join(map(str, path))


def _parse_path(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split(".") if p)


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{PREFIX}:lobby:(?P<session>\d+):(?P<verb>[a-z]+)",
):
    def __init__(self, session: int, verb: str) -> None:
        label, style, row = LOBBY_VERBS.get(verb, (verb.capitalize(), discord.ButtonStyle.secondary, 1))
        super().__init__(
            discord.ui.Button(label=label, style=style, row=row, custom_id=f"{PREFIX}:lobby:{session}:{verb}")
        )
        self.session, self.verb = session, verb

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        return cls(int(match["session"]), match["verb"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await handlers_of(interaction).lobby(interaction, self.session, self.verb)


class ShowHandButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"{PREFIX}:hand:(?P<session>\d+)"
):
    def __init__(self, session: int, label: str = "Show my hand") -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.primary,
                row=0,
                custom_id=f"{PREFIX}:hand:{session}",
            )
        )
        self.session = session

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ShowHandButton:
        return cls(int(match["session"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await handlers_of(interaction).show_hand(interaction, self.session)


class ActButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{PREFIX}:act:(?P<session>\d+):(?P<turn>\d+):(?P<index>\d+)",
):
    def __init__(
        self,
        session: int,
        turn: int,
        index: int,
        label: str = "?",
        row: int | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=clip(legible(label), BUTTON_LABEL),
                style=style,
                row=row,
                custom_id=f"{PREFIX}:act:{session}:{turn}:{index}",
            )
        )
        self.session, self.turn, self.index = session, turn, index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActButton:
        return cls(int(match["session"]), int(match["turn"]), int(match["index"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await handlers_of(interaction).act(interaction, self.session, self.turn, self.index)


class PickSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=rf"{PREFIX}:pick:(?P<session>\d+):(?P<turn>\d+):(?P<path>[\d.]*):(?P<k>\d+)",
):
    """A menu of the hand: each value is ``a<index>`` (an action) or ``g<child>`` (a group to open)."""

    def __init__(
        self,
        session: int,
        turn: int,
        path: tuple[int, ...],
        k: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        select: discord.ui.Select[Any] | None = None,
    ) -> None:
        custom_id = f"{PREFIX}:pick:{session}:{turn}:{_path_text(path)}:{k}"
        if select is None:
            select = discord.ui.Select(
                custom_id=custom_id,
                options=options or [],
                placeholder=clip(placeholder, PLACEHOLDER) if placeholder else None,
            )
        super().__init__(select)
        self.session, self.turn, self.path = session, turn, path

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PickSelect:
        select = item if isinstance(item, discord.ui.Select) else None
        return cls(
            int(match["session"]),
            int(match["turn"]),
            _parse_path(match["path"]),
            int(match["k"]),
            select=select,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list(self.item.values)
        value = str(values[0]) if values else ""
        if not PICK_VALUE.fullmatch(value):
            value = ""  # not a value we offer: the flow refuses it as an outdated menu
        await handlers_of(interaction).pick(interaction, self.session, self.turn, self.path, value)


class NavButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{PREFIX}:nav:(?P<session>\d+):(?P<turn>\d+):(?P<path>[\d.]*)",
):
    def __init__(self, session: int, turn: int, path: tuple[int, ...], label: str = "Back") -> None:
        super().__init__(
            discord.ui.Button(
                label=clip(label, BUTTON_LABEL),
                style=discord.ButtonStyle.secondary,
                custom_id=f"{PREFIX}:nav:{session}:{turn}:{_path_text(path)}",
            )
        )
        self.session, self.turn, self.path = session, turn, path

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> NavButton:
        return cls(int(match["session"]), int(match["turn"]), _parse_path(match["path"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await handlers_of(interaction).navigate(interaction, self.session, self.turn, self.path)


class PublicActButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{PREFIX}:pub:(?P<session>\d+):(?P<turn>\d+):(?P<index>\d+)",
):
    def __init__(self, session: int, turn: int, index: int, label: str = "?") -> None:
        super().__init__(
            discord.ui.Button(
                label=clip(label, BUTTON_LABEL),
                style=discord.ButtonStyle.danger,
                custom_id=f"{PREFIX}:pub:{session}:{turn}:{index}",
            )
        )
        self.session, self.turn, self.index = session, turn, index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PublicActButton:
        return cls(int(match["session"]), int(match["turn"]), int(match["index"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await handlers_of(interaction).public_act(interaction, self.session, self.turn, self.index)


REFEREE_VERBS = {
    "confirm": ("Confirm last entry", discord.ButtonStyle.success),
    "undo": ("Undo last entry", discord.ButtonStyle.secondary),
}


class TypeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"{PREFIX}:type:(?P<session>\d+)"
):
    """Type an entry or a move as text (a form): the quick way through long menus."""

    def __init__(self, session: int, label: str = "Type it") -> None:
        super().__init__(
            discord.ui.Button(
                label=clip(label, BUTTON_LABEL),
                style=discord.ButtonStyle.primary,
                custom_id=f"{PREFIX}:type:{session}",
            )
        )
        self.session = session

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TypeButton:
        return cls(int(match["session"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await handlers_of(interaction).type_entry(interaction, self.session)


class RefereeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{PREFIX}:ref:(?P<session>\d+):(?P<verb>[a-z]+)(?::(?P<entries>\d{{1,6}}(?:-[0-9a-f]{{8}})?))?",
):
    """Confirm or Undo on a referee table's message, naming the entries it showed (their
    :func:`~bot.service.referee.entry_mark`): a second click on Undo, or a click on a message a
    newer entry, an undo or a correction outdated, does not reach an entry its clicker has not seen."""

    def __init__(self, session: int, verb: str, entries: str | None = None) -> None:
        label, style = REFEREE_VERBS.get(verb, (verb.capitalize(), discord.ButtonStyle.secondary))
        seen = "" if entries is None else f":{entries}"
        super().__init__(
            discord.ui.Button(label=label, style=style, row=0, custom_id=f"{PREFIX}:ref:{session}:{verb}{seen}")
        )
        self.session, self.verb, self.entries = session, verb, entries

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RefereeButton:
        return cls(int(match["session"]), match["verb"], match["entries"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await handlers_of(interaction).referee(interaction, self.session, self.verb, self.entries)


class OpenTableButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"{PREFIX}:live:(?P<session>\d+)"
):
    """Open the live table (the Activity, or the page in a browser), when the host turned it on."""

    def __init__(self, session: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Open the table", style=discord.ButtonStyle.success, row=0, custom_id=f"{PREFIX}:live:{session}"
            )
        )
        self.session = session

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> OpenTableButton:
        return cls(int(match["session"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await handlers_of(interaction).open_live(interaction, self.session)


TABLE_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton,
    ShowHandButton,
    ActButton,
    PickSelect,
    NavButton,
    PublicActButton,
    RefereeButton,
    TypeButton,
    OpenTableButton,
)
"""The items of the table message and of a player's private view."""
