"""Typed forms: a move (online) or an entry (at a referee table) typed as people write it, the
quick way through long menus. The form's submission comes back through ``strays``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.discord.context import current_table, guarded, place_of, service_of, user_of
from bot.discord.limits import LABEL_DESCRIPTION, LABEL_TEXT, MODAL_TITLE, TEXT_INPUT_PLACEHOLDER, clip
from bot.discord.plain import plain
from bot.discord.safe import safe_defer, safe_modal, safe_reply
from bot.render.text import entry_label
from bot.service.model import Table, TableError, User
from bot.tables import Move
from games.engine import IllegalAction
from games.notation import MAX_ENTRY, entry_menu, read_action, typed_form

ENTRY_PREFIX = "parlour:entry:"
ENTRY_FIELD = "entry"


def typed_values(components: Sequence[Any]) -> dict[str, str]:
    """``{option name: text}`` from a submitted form's components (Discord's JSON); a typed
    entry's text under :data:`ENTRY_FIELD`."""
    out: dict[str, str] = {}
    stack = list(components)
    while stack:
        c = stack.pop()
        if not isinstance(c, dict):
            continue
        custom_id = str(c.get("custom_id", ""))
        if custom_id.startswith("option:") and "value" in c:
            out[custom_id.removeprefix("option:")] = str(c.get("value") or "")
        elif custom_id == ENTRY_FIELD and "value" in c:
            out[ENTRY_FIELD] = str(c.get("value") or "")
        stack.extend(c.get("components") or [])
        if isinstance(c.get("component"), dict):
            stack.append(c["component"])
    return out


class EntryForm(discord.ui.Modal):
    """One line of text: a move (online) or an entry (at a referee table), read as people write
    them ("KH 7H QH", "bob: 3 tricks", "A1 KH", "AS 12"). Answered by :func:`entry_submitted`."""

    def __init__(self, table: Table, example: str) -> None:
        referee = table.mode == "referee"
        super().__init__(
            title=clip(f"{'An entry' if referee else 'Your move'} - {table.game.title}", MODAL_TITLE),
            timeout=None,
            custom_id=f"{ENTRY_PREFIX}{table.id}",
        )
        text_input: discord.ui.TextInput[Any] = discord.ui.TextInput(
            custom_id=ENTRY_FIELD, required=True, max_length=MAX_ENTRY, placeholder=clip(example, TEXT_INPUT_PLACEHOLDER)
        )
        what = "What happened at the table" if referee else "Your move"
        hint = "Cards as KH, 10h or king of hearts; a player by name (bob: 3 tricks); #N for a list position."
        self.add_item(discord.ui.Label(text=clip(what, LABEL_TEXT), description=clip(hint, LABEL_DESCRIPTION), component=text_input))

    async def on_submit(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        """Nothing: :func:`entry_submitted` answers (see :class:`bot.discord.options.OptionsForm`)."""


def _typing_seat(table: Table, user: User) -> tuple[int | None, int | None]:
    """(the seat whose move is typed, or ``None`` at a referee table; the typist's own seat)."""
    own = table.seat_of(user.id)
    if table.mode == "referee":
        if not table.is_member(user):
            raise TableError("Only the players at this table (and its host) can make entries.")
        return None, own
    if own is None:
        raise TableError("You are not playing at this table.")
    return own, own


@guarded
async def open_entry_form(interaction: discord.Interaction, session: int) -> None:
    table = current_table(interaction, session)
    if table.status != "playing" or table.state is None:
        raise TableError("There is nothing to enter: the game is not in play.")
    seat, _own = _typing_seat(table, user_of(interaction))
    entries = entry_menu(table.state, seat)
    ready = table.state.ready_actions(seat) if seat is not None and not entries else []  # a ready hand's Type it
    if entries:
        example = f"for example {typed_form(entries[len(entries) // 2][1])}"
    else:
        example = f"on your turn, for example {typed_form(ready[len(ready) // 2])}" if ready else "nothing to enter now"
    await safe_modal(interaction, EntryForm(table, example))


@guarded
async def entry_submitted(interaction: discord.Interaction, session: int, text: str) -> None:
    """A typed move or entry: read it, then play it; a refusal says what was understood and why,
    and changes nothing. The text is read once the channel's lock is held, against the table as
    it is then."""
    table = current_table(interaction, session)
    user = user_of(interaction)

    def choose(now: Table) -> Move:
        if now.status != "playing" or now.state is None:
            raise TableError("This game is not in play: nothing was entered.")
        seat, own = _typing_seat(now, user)
        try:
            seat, action = read_action(now.state, text, seat=seat, speaker=own)
        except IllegalAction as exc:
            raise TableError(f"Nothing was entered. {exc}") from None
        return action, seat

    await safe_defer(interaction, ephemeral=True, thinking=True)
    action, seat = await service_of(interaction).act_chosen(*place_of(interaction), user, choose, session=session)
    said = entry_label(table, seat, action) if table.mode == "referee" and seat is not None else action.label()
    await safe_reply(interaction, plain(f"Entered {said}."), ephemeral=True)
