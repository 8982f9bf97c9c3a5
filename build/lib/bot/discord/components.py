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
    parlour:ref:<session>:<verb>            Confirm or Undo the last entry at a referee table
    parlour:type:<session>                  a form to type an entry or a move (``parlour:entry:`` submits it)

The callbacks only parse and hand over to :mod:`bot.discord.flows`, which re-fetches the table by
channel and checks the session and turn, so a button outliving its turn is refused politely.

A click discord.py does not dispatch (its custom id is not on the message as it is now, or matches
no template) reaches :func:`dispatch_orphan`: a plausible id of ours goes through the same flows,
anything else (an id from an older version of the bot, a forged one) is answered with
:data:`UNRECOGNISED`. No component interaction is left unanswered.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.limits import (
    BUTTON_LABEL,
    CUSTOM_ID,
    OPTION_DESCRIPTION,
    OPTION_LABEL,
    PLACEHOLDER,
    SELECT_OPTIONS,
    clip,
    legible,
)
from bot.discord.safe import safe_reply
from bot.render.text import MenuNode, action_menu
from games.engine import Action, OptionInfo

if TYPE_CHECKING:
    from bot.service.model import HandInfo, Table

log = logging.getLogger(__name__)

PREFIX = "parlour"
ROWS = 5
BUTTONS_PER_ROW = 5
OPTION_SELECTS_PER_PAGE = 4
MODAL_FIELDS = 5
MAX_NUMBER = 2**63 - 1
"""The largest number a custom id may carry: SQLite's largest integer (sessions, matches, users)."""
PICK_VALUE = re.compile(r"[ag][0-9]{1,6}")
"""A value of a hand's menu: ``a<index>`` or ``g<child>`` (plain digits, a sane size)."""

UNRECOGNISED = (
    "That button is not one I recognise (it may be from an older version of the bot). "
    "Use /table to see the table as it is now."
)

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



# -- the items ---------------------------------------------------------------------------------------


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
        from bot.discord import flows  # it builds these components: imported on use, typed

        await flows.lobby_action(interaction, self.session, self.verb)


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
        from bot.discord import flows  # it builds these components: imported on use, typed

        await flows.show_hand(interaction, self.session)


class ActButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{PREFIX}:act:(?P<session>\d+):(?P<turn>\d+):(?P<index>\d+)",
):
    def __init__(self, session: int, turn: int, index: int, label: str = "?", row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=clip(legible(label), BUTTON_LABEL),
                style=discord.ButtonStyle.secondary,
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
        from bot.discord import flows  # it builds these components: imported on use, typed

        await flows.act_from_hand(interaction, self.session, self.turn, self.index)


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
        from bot.discord import flows  # it builds these components: imported on use, typed

        await flows.pick(interaction, self.session, self.turn, self.path, value)


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
        from bot.discord import flows  # it builds these components: imported on use, typed

        await flows.navigate(interaction, self.session, self.turn, self.path)


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
        from bot.discord import flows  # it builds these components: imported on use, typed

        await flows.public_act(interaction, self.session, self.turn, self.index)


class OptionSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"{PREFIX}:opt:(?P<session>\d+):(?P<field>\d+)"
):
    def __init__(
        self,
        session: int,
        field: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        select: discord.ui.Select[Any] | None = None,
    ) -> None:
        if select is None:
            select = discord.ui.Select(
                custom_id=f"{PREFIX}:opt:{session}:{field}",
                options=options or [],
                placeholder=clip(placeholder, PLACEHOLDER) if placeholder else None,
            )
        super().__init__(select)
        self.session, self.field = session, field

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> OptionSelect:
        select = item if isinstance(item, discord.ui.Select) else None
        return cls(int(match["session"]), int(match["field"]), select=select)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list(self.item.values)
        from bot.discord import flows  # it builds these components: imported on use, typed

        await flows.option_chosen(interaction, self.session, self.field, values[0] if values else "")


class OptionPageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{PREFIX}:optpage:(?P<session>\d+):(?P<page>\d+)",
):
    def __init__(self, session: int, page: int, label: str = "More", disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                row=4,
                disabled=disabled,
                custom_id=f"{PREFIX}:optpage:{session}:{page}",
            )
        )
        self.session, self.page = session, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> OptionPageButton:
        return cls(int(match["session"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        from bot.discord import flows  # it builds these components: imported on use, typed

        await flows.option_page(interaction, self.session, self.page)


class OptionNumbersButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{PREFIX}:optnum:(?P<session>\d+):(?P<chunk>\d+)",
):
    def __init__(self, session: int, chunk: int, label: str = "Numbers") -> None:
        super().__init__(
            discord.ui.Button(
                label=clip(label, BUTTON_LABEL),
                style=discord.ButtonStyle.primary,
                row=4,
                custom_id=f"{PREFIX}:optnum:{session}:{chunk}",
            )
        )
        self.session, self.chunk = session, chunk

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> OptionNumbersButton:
        return cls(int(match["session"]), int(match["chunk"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        from bot.discord import flows  # it builds these components: imported on use, typed

        await flows.option_numbers(interaction, self.session, self.chunk)


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
        from bot.discord import flows  # it builds these components: imported on use, typed

        await flows.add_bot(interaction, self.session, self.level)


REFEREE_VERBS = {
    "confirm": ("Confirm last entry", discord.ButtonStyle.success),
    "undo": ("Undo last entry", discord.ButtonStyle.secondary),
}
TYPED_CHOICES = 26
"""From this many choices on (more than one menu holds), a private view also offers to type one."""


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
        from bot.discord import flows  # it builds these components: imported on use, typed

        await flows.open_entry_form(interaction, self.session)


class RefereeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{PREFIX}:ref:(?P<session>\d+):(?P<verb>[a-z]+)",
):
    """Confirm or Undo on a referee table's message."""

    def __init__(self, session: int, verb: str) -> None:
        label, style = REFEREE_VERBS.get(verb, (verb.capitalize(), discord.ButtonStyle.secondary))
        super().__init__(
            discord.ui.Button(label=label, style=style, row=0, custom_id=f"{PREFIX}:ref:{session}:{verb}")
        )
        self.session, self.verb = session, verb

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RefereeButton:
        return cls(int(match["session"]), match["verb"])

    async def callback(self, interaction: discord.Interaction) -> None:
        from bot.discord import flows  # it builds these components: imported on use, typed

        await flows.referee_action(interaction, self.session, self.verb)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton,
    ShowHandButton,
    ActButton,
    PickSelect,
    NavButton,
    PublicActButton,
    OptionSelect,
    OptionPageButton,
    OptionNumbersButton,
    AddBotButton,
    RefereeButton,
    TypeButton,
)
EPHEMERAL_ITEMS: frozenset[type[discord.ui.DynamicItem[Any]]] = frozenset(
    {ActButton, PickSelect, NavButton, OptionSelect, OptionPageButton, OptionNumbersButton, AddBotButton}
)
"""Components only ever shown on the clicker's own ephemeral message (a hand, the options menus)."""


def registered_items() -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
    """Every DynamicItem the client registers: the table's and the records' components."""
    from bot.discord.record_components import RECORD_ITEMS  # it imports this module: import late

    return (*DYNAMIC_ITEMS, *RECORD_ITEMS)


def match_custom_id(custom_id: str) -> tuple[type[discord.ui.DynamicItem[Any]], re.Match[str]] | None:
    """The item a custom id is for and its fields, or ``None`` if it is not a plausible id of ours.

    Plausible: within Discord's length, plain ASCII (``\\d`` in a template would also take other
    scripts' digits), matching a template, every number small enough for the database, and a
    replay page naming a match by number.
    """
    if len(custom_id) > CUSTOM_ID or not custom_id.isascii():
        return None
    for cls in registered_items():
        match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is None:
            continue
        fields = match.groupdict()
        if any(v.isdigit() and int(v) > MAX_NUMBER for v in fields.values() if v):
            return None
        if fields.get("kind") == "replay" and not str(fields.get("key", "")).isdigit():
            return None
        return cls, match
    return None


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
    if cls in DYNAMIC_ITEMS:
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


async def dispatch_orphan(interaction: discord.Interaction) -> bool:
    """Answer a click discord.py leaves unanswered; returns whether it was answered here.

    discord.py only dispatches a dynamic item whose custom id matches a template and sits, as the
    same kind of component, on the message as it is now. A click sent just before the message was
    edited (a double click, a stale copy in a client) would be dropped unanswered: it goes through
    the same flows, which refuse it politely or refresh the hand. A custom id that is no plausible
    id of ours (a button of an older version, a forged or mangled one) is answered with
    :data:`UNRECOGNISED`, and changes nothing.
    """
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    kind = data.get("component_type")
    found = match_custom_id(custom_id)
    message = interaction.message
    if found is not None and message is not None and (kind, custom_id) in message_components(message):
        return False  # discord.py dispatches it
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
    except Exception:  # the flows answer their own failures; this is for anything before them
        log.exception("component %r failed", custom_id[:CUSTOM_ID])
        from bot.discord.flows import SORRY

        await safe_reply(interaction, SORRY, ephemeral=True)
    return True


# -- the table message ------------------------------------------------------------------------------


def lobby_view(table: Table) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for verb in LOBBY_VERBS:
        view.add_item(LobbyButton(table.id, verb))
    return view


def bot_levels_view(table: Table, levels: Sequence[str]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for level in levels[: BUTTONS_PER_ROW * ROWS]:
        view.add_item(AddBotButton(table.id, level))
    return view


def public_choices(table: Table) -> list[Action]:
    """Optional acts open to people out of turn: non-card acts a seat not awaited may choose now,
    one per label (the table message offers each as a button)."""
    state = table.state
    if state is None or state.is_over:
        return []
    awaited = state.awaiting()
    found: dict[str, Action] = {}
    for seat in table.human_seats():
        if seat in awaited:
            continue
        for action in state.legal_actions(seat):
            if action.card is None:
                found.setdefault(action.label(), action)
    return list(found.values())


def public_labels(table: Table) -> list[str]:
    return [a.label() for a in public_choices(table)]


def table_view(table: Table) -> discord.ui.View | None:
    """Components of the table message: the lobby's buttons, or Show my hand and public acts."""
    if table.status == "lobby":
        return lobby_view(table)
    if table.state is None or table.state.is_over or table.status != "playing":
        return None
    view = discord.ui.View(timeout=None)
    if table.mode == "referee":  # people enter what happened; anyone at the table may enter for anyone
        view.add_item(ShowHandButton(table.id, "Make an entry"))
        view.add_item(TypeButton(table.id, "Type an entry"))
        for verb in REFEREE_VERBS:
            view.add_item(RefereeButton(table.id, verb))
        return view
    view.add_item(ShowHandButton(table.id))
    for i, label in enumerate(public_labels(table)[: ROWS * BUTTONS_PER_ROW - 1]):
        view.add_item(PublicActButton(table.id, table.turn, i, label))
    return view


# -- the hand menu ------------------------------------------------------------------------------------


def menu_node(menu: MenuNode, path: Sequence[int]) -> MenuNode | None:
    """The group at ``path`` (indices of children in order), or ``None`` if it is not there."""
    node = menu
    for i in path:
        children = list(node.children.values())
        if not 0 <= i < len(children):
            return None
        node = children[i]
    return node


def _leaf_option(index: int, action: Action) -> discord.SelectOption:
    path = action.choice_path()
    description = " / ".join(path) if len(path) > 1 else None
    return discord.SelectOption(
        label=clip(legible(action.label()), OPTION_LABEL),
        value=f"a{index}",
        description=clip(legible(description), OPTION_DESCRIPTION) if description else None,
    )


def _group_option(k: int, node: MenuNode) -> discord.SelectOption:
    count = node.count()
    return discord.SelectOption(
        label=clip(legible(node.label), OPTION_LABEL),
        value=f"g{k}",
        description=f"{count} choice{'s' * (count != 1)}...",
    )


def _chunks(items: list[Any], size: int) -> list[list[Any]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def resolve_path(menu: MenuNode, path: Sequence[int]) -> tuple[MenuNode, tuple[int, ...]]:
    """The group at ``path`` (the whole menu if it is not there), skipping groups that would only
    offer one way on (a suit holding one card that opens into many ways to play it)."""
    node = menu_node(menu, path)
    if node is None:
        node, path = menu, ()
    path = tuple(path)
    while not node.actions and len(node.children) == 1:
        node = next(iter(node.children.values()))
        path = (*path, 0)
    return node, path


def back_path(menu: MenuNode, path: tuple[int, ...]) -> tuple[int, ...] | None:
    """Where Back leads from ``path``: the nearest group above that offers a real choice."""
    target = path[:-1]
    while target and resolve_path(menu, target)[1] == path:
        target = target[:-1]
    if resolve_path(menu, target)[1] == path:
        return None
    return target


def hand_view(session: int, info: HandInfo, path: Sequence[int] = ()) -> discord.ui.View | None:
    """The choices of a hand as components, within five rows.

    A level of the menu that fits is shown flat: cards in a select, up to five other choices as
    buttons. When there are groups (more than 25 choices), each group gets its own select if all
    fit; otherwise the first select lists the groups and picking one opens it (two steps), with
    a Back button.
    """
    if not info.legal:
        return None
    menu = action_menu(info.legal, SELECT_OPTIONS)
    node, resolved = resolve_path(menu, path)
    back = back_path(menu, resolved) if resolved else None
    rows = _node_rows(session, info.turn, resolved, node, back)
    if len(info.legal) >= TYPED_CHOICES:  # a long menu: typing the choice is quicker
        typing: Row = [TypeButton(session)]
        if rows and len(rows[-1]) < BUTTONS_PER_ROW and all(isinstance(i, (ActButton, NavButton)) for i in rows[-1]):
            rows[-1] = [*rows[-1], *typing]
        else:  # in a row of its own, in place of the last menu if the view is full (typing reaches all)
            rows = [*rows[: ROWS - 1], typing]
    view = discord.ui.View(timeout=None)
    for row in rows[:ROWS]:  # discord.py lays items out in order: a select fills a row
        for item in row:
            view.add_item(item)
    return view


Row = list[discord.ui.DynamicItem[Any]]


def _lone_action(node: MenuNode) -> tuple[int, Action] | None:
    """The only action inside ``node``, if it holds just one."""
    if node.count() != 1:
        return None
    while not node.actions:
        node = next(iter(node.children.values()))
    return node.actions[0]


def _node_rows(
    session: int, turn: int, path: tuple[int, ...], node: MenuNode, back_to: tuple[int, ...] | None
) -> list[Row]:
    cards = [(i, a) for i, a in node.actions if a.card is not None]
    others = [(i, a) for i, a in node.actions if a.card is None]
    children = list(node.children.values())
    counter = iter(range(1000))

    def select(entries: list[discord.SelectOption], placeholder: str) -> Row:
        return [PickSelect(session, turn, path, next(counter), entries, placeholder)]

    def leaf_selects(items: list[tuple[int, Action]], placeholder: str) -> list[Row]:
        return [
            select([_leaf_option(i, a) for i, a in chunk], placeholder)
            for chunk in _chunks(items, SELECT_OPTIONS)
        ]

    button_row: Row = []
    other_rows: list[Row] = []
    if len(others) <= BUTTONS_PER_ROW:
        button_row = [ActButton(session, turn, i, a.label()) for i, a in others]
    else:
        other_rows = leaf_selects(others, "Choose")
    back: Row = [NavButton(session, turn, back_to, "Back")] if back_to is not None else []

    def assemble(middle: list[Row]) -> list[Row]:
        rows = [*middle, *other_rows]
        tail = [*button_row, *back]
        if len(tail) <= BUTTONS_PER_ROW:
            rows += [tail] if tail else []
        else:
            rows += [button_row, back]
        return rows

    card_rows = leaf_selects(cards, "Play a card" if not children else "Other cards")
    if not children:
        return assemble(card_rows)
    if all(not c.children and len(c.actions) <= SELECT_OPTIONS for c in children):
        per_group = [select([_leaf_option(i, a) for i, a in c.actions], c.label) for c in children]
        rows = assemble([*per_group, *card_rows])
        if len(rows) <= ROWS:
            return rows
        counter = iter(range(len(per_group), 1000))  # keep custom ids unique in any case
    entries: list[discord.SelectOption] = []
    for k, c in enumerate(children):
        lone = _lone_action(c)
        entries.append(_leaf_option(*lone) if lone is not None else _group_option(k, c))
    entries += [_leaf_option(i, a) for i, a in cards]
    group_rows = [select(chunk, "Choose a group first") for chunk in _chunks(entries, SELECT_OPTIONS)]
    rows = assemble(group_rows)
    if len(rows) > ROWS:  # far more choices than Discord can show at once: keep what fits
        keep = ROWS - (len(rows) - len(group_rows))
        rows = assemble(group_rows[: max(keep, 1)])
    return rows


# -- the options menu -----------------------------------------------------------------------------------


def select_fields(fields: Sequence[OptionInfo]) -> list[int]:
    """Options shown as a select (yes/no and short lists of choices), by their index."""
    return [
        i
        for i, f in enumerate(fields)
        if f.kind in ("bool", "choice") and 0 < len(f.choices) <= SELECT_OPTIONS
    ]


def form_fields(fields: Sequence[OptionInfo]) -> list[int]:
    """Options typed in a form (numbers, text, long lists), by their index."""
    shown = set(select_fields(fields))
    return [i for i in range(len(fields)) if i not in shown]


def option_pages(fields: Sequence[OptionInfo]) -> list[list[int]]:
    return _chunks(select_fields(fields), OPTION_SELECTS_PER_PAGE) or [[]]


def options_view(table: Table, page: int) -> tuple[discord.ui.View, list[str]]:
    """The host's option menu, page ``page``; also the names of the options it shows."""
    fields = table.game.option_fields()
    values = table.options.model_dump(mode="json")
    pages = option_pages(fields)
    page = min(max(page, 0), len(pages) - 1)
    view = discord.ui.View(timeout=None)
    names: list[str] = []
    for row, index in enumerate(pages[page]):
        f = fields[index]
        current = values.get(f.name)
        current_text = str(current).lower() if isinstance(current, bool) else str(current)
        entries = [
            discord.SelectOption(label=clip(c, OPTION_LABEL), value=c, default=c == current_text)
            for c in f.choices
        ]
        select = OptionSelect(table.id, index, entries, f"{f.name}: {f.description}")
        select.row = row
        view.add_item(select)
        names.append(f.name)
    buttons: list[discord.ui.DynamicItem[Any]] = []
    if len(pages) > 1:
        last = len(pages) - 1
        buttons.append(OptionPageButton(table.id, max(page - 1, 0), "Previous", disabled=page == 0))
        buttons.append(OptionPageButton(table.id, min(page + 1, last), "Next", disabled=page == last))
    typed = _chunks(form_fields(fields), MODAL_FIELDS)
    for chunk, indices in enumerate(typed[: BUTTONS_PER_ROW - len(buttons)]):
        label = "Numbers and text" if len(typed) == 1 else f"Numbers and text {chunk + 1}"
        buttons.append(OptionNumbersButton(table.id, chunk, label))
        if page == 0 or not pages[page]:
            names += [fields[i].name for i in indices]
    for b in buttons:
        view.add_item(b)
    return view, names


def form_chunk(fields: Sequence[OptionInfo], chunk: int) -> list[int]:
    chunks = _chunks(form_fields(fields), MODAL_FIELDS)
    return chunks[chunk] if 0 <= chunk < len(chunks) else []
