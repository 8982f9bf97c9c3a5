"""The host's options in the lobby: a menu of selects for yes/no and short lists of choices,
paged, and forms for numbers and text (blank restores the default). The menu's components live
here with the flows that answer them; a submitted form comes back through ``strays``."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.discord.components import BUTTONS_PER_ROW, PREFIX
from bot.discord.context import current_table, guarded, place_of, service_of, user_of
from bot.discord.embeds import options_embed
from bot.discord.hand_menu import chunks
from bot.discord.limits import (
    BUTTON_LABEL,
    LABEL_DESCRIPTION,
    LABEL_TEXT,
    MODAL_TITLE,
    OPTION_LABEL,
    PLACEHOLDER,
    SELECT_OPTIONS,
    TEXT_INPUT_PLACEHOLDER,
    clip,
)
from bot.discord.safe import safe_defer, safe_modal, safe_reply, safe_update
from bot.service.model import Table, TableError, User
from games.engine import OptionInfo

OPTION_SELECTS_PER_PAGE = 4
MODAL_FIELDS = 5
FORM_PREFIX = "parlour:form:"


# -- the items ---------------------------------------------------------------------------------------


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
        await option_chosen(interaction, self.session, self.field, values[0] if values else "")


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
        await option_page(interaction, self.session, self.page)


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
        await option_numbers(interaction, self.session, self.chunk)


OPTION_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (OptionSelect, OptionPageButton, OptionNumbersButton)


# -- the menu ------------------------------------------------------------------------------------------


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
    return chunks(select_fields(fields), OPTION_SELECTS_PER_PAGE) or [[]]


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
    typed = chunks(form_fields(fields), MODAL_FIELDS)
    for chunk, indices in enumerate(typed[: BUTTONS_PER_ROW - len(buttons)]):
        label = "Numbers and text" if len(typed) == 1 else f"Numbers and text {chunk + 1}"
        buttons.append(OptionNumbersButton(table.id, chunk, label))
        if page == 0 or not pages[page]:
            names += [fields[i].name for i in indices]
    for b in buttons:
        view.add_item(b)
    return view, names


def form_chunk(fields: Sequence[OptionInfo], chunk: int) -> list[int]:
    typed = chunks(form_fields(fields), MODAL_FIELDS)
    return typed[chunk] if 0 <= chunk < len(typed) else []


# -- the flows -----------------------------------------------------------------------------------------


def _require_host_in_lobby(table: Table, user: User) -> None:
    if table.status != "lobby":
        raise TableError("The game has already started: options are fixed now.")
    if user.id != table.host_id:
        raise TableError("Only the host can change the options.")


async def open_options(interaction: discord.Interaction, table: Table, user: User) -> None:
    _require_host_in_lobby(table, user)
    view, names = options_view(table, 0)
    await safe_reply(interaction, embed=options_embed(table, names), view=view, ephemeral=True)


def _page_of(fields: Sequence[OptionInfo], index: int) -> int:
    for page, indices in enumerate(option_pages(fields)):
        if index in indices:
            return page
    return 0


async def _show_options(
    interaction: discord.Interaction, table: Table, page: int, note: str | None = None
) -> None:
    view, names = options_view(table, page)
    embed = options_embed(table, names)
    if note:
        embed.add_field(name="Note", value=clip(note, 1024), inline=False)
    await safe_update(interaction, embed=embed, view=view)


@guarded
async def option_chosen(interaction: discord.Interaction, session: int, field: int, value: str) -> None:
    table = current_table(interaction, session)
    user = user_of(interaction)
    _require_host_in_lobby(table, user)
    fields = table.game.option_fields()
    if not 0 <= field < len(fields):
        raise TableError("That option menu is out of date: press Options again.")
    await safe_defer(interaction)
    page = _page_of(fields, field)
    try:
        await service_of(interaction).set_options(
            *place_of(interaction), user, [f"{fields[field].name}={value}"], session=session
        )
    except TableError:
        await _show_options(interaction, table, page)  # put the menu back to the values in force
        raise
    await _show_options(interaction, table, page, f"{fields[field].name} is now {value}.")


@guarded
async def option_page(interaction: discord.Interaction, session: int, page: int) -> None:
    table = current_table(interaction, session)
    _require_host_in_lobby(table, user_of(interaction))
    await _show_options(interaction, table, page)


class OptionsForm(discord.ui.Modal):
    """A form for options typed as text (numbers above all). Blank restores the default.

    Its submission is handled by :func:`bot.discord.strays.form_submitted` from the custom id and the values Discord
    sends, not by this object, so a form opened before a restart still works after it.
    """

    def __init__(self, table: Table, chunk: int) -> None:
        super().__init__(
            title=clip(f"Options - {table.game.title}", MODAL_TITLE),
            timeout=None,
            custom_id=f"{FORM_PREFIX}{table.id}:{chunk}",
        )
        fields = table.game.option_fields()
        values = table.options.model_dump(mode="json")
        for index in form_chunk(fields, chunk):
            f = fields[index]
            current = values.get(f.name)
            default = "blank" if f.default is None else str(f.default)
            text_input: discord.ui.TextInput[Any] = discord.ui.TextInput(
                custom_id=f"option:{f.name}",
                default="" if current is None else str(current),
                required=False,
                placeholder=clip(f"blank: {default}", TEXT_INPUT_PLACEHOLDER),
                max_length=100,
            )
            self.add_item(
                discord.ui.Label(
                    text=clip(f.name, LABEL_TEXT),
                    description=clip(f.description, LABEL_DESCRIPTION) if f.description else None,
                    component=text_input,
                )
            )

    async def on_submit(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        """Nothing: :func:`bot.discord.strays.form_submitted` answers (see the class docstring)."""


@guarded
async def option_numbers(interaction: discord.Interaction, session: int, chunk: int) -> None:
    table = current_table(interaction, session)
    _require_host_in_lobby(table, user_of(interaction))
    if not form_chunk(table.game.option_fields(), chunk):
        raise TableError("That option menu is out of date: press Options again.")
    await safe_modal(interaction, OptionsForm(table, chunk))


@guarded
async def options_submitted(interaction: discord.Interaction, session: int, typed: dict[str, str]) -> None:
    table = current_table(interaction, session)
    user = user_of(interaction)
    _require_host_in_lobby(table, user)
    defaults = {f.name: f.default for f in table.game.option_fields()}
    values = {name: (text.strip() or defaults.get(name)) for name, text in typed.items() if name in defaults}
    await safe_defer(interaction)
    try:
        await service_of(interaction).set_options(*place_of(interaction), user, values, session=session)
    except TableError:
        await _show_options(interaction, table, 0)
        raise
    await _show_options(interaction, table, 0, "Options saved.")
