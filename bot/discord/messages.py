"""The messages the bot keeps up to date, as Discord messages: the table message (its embed,
buttons and the picture of the table) and each player's private view (the embed, the choices and
the picture of the hand), built the same way for a new message, an answer to a click and an edit.
Also the short messages around them: how a deal ended, and the turn signal."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.components import (
    BUTTONS_PER_ROW,
    LOBBY_VERBS,
    REFEREE_VERBS,
    ROWS,
    LobbyButton,
    OpenTableButton,
    PublicActButton,
    RefereeButton,
    ShowHandButton,
    TypeButton,
)
from bot.discord.embeds import OVER_COLOUR, hand_embed, is_scores, table_embed
from bot.discord.hand_menu import hand_view
from bot.discord.limits import clip_lines, fit_embed
from bot.discord.plain import plain
from bot.discord.safe import detached
from bot.render import pictures, pool
from bot.render.text import entry_status_lines
from bot.service.entries import referee_hand
from bot.service.hands import DEAL_STARTS, hand_of
from bot.service.model import HandInfo, Table, User, public_view
from bot.service.referee import entry_mark
from games.engine import Action, Event, View
from games.layout import Layout

if TYPE_CHECKING:
    from storage.sessions import Store

log = logging.getLogger(__name__)

HAND_FILE = "hand.png"
TABLE_FILE = "table.png"


def hand_info(table: Table, user: User) -> HandInfo:
    """What ``user`` sees and may do at ``table``, also once the table has closed.

    At a referee table that is everyone's possible entries, for anyone at the table."""
    return referee_hand(table, user) if table.mode == "referee" else hand_of(table, user)


def lobby_view(table: Table) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for verb in LOBBY_VERBS:
        view.add_item(LobbyButton(table.id, verb))
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


def table_view(table: Table, live: bool = False, entries: str | None = None) -> discord.ui.View | None:
    """Components of the table message: the lobby's buttons, or Show my hand and public acts
    (and Open the table, when the live table is on). ``entries``: at a referee table, the
    :func:`~bot.service.referee.entry_mark` of the entries the message shows (as they stand, if not said)."""
    if table.status == "lobby":
        return lobby_view(table)
    if table.state is None or table.status != "playing":
        return None
    view = discord.ui.View(timeout=None)
    if live and not table.state.is_over:
        view.add_item(OpenTableButton(table.id))
    if table.mode == "referee" and table.state.is_over:  # the result waits for the last entry's confirmation
        for verb in REFEREE_VERBS:
            view.add_item(RefereeButton(table.id, verb, entries or entry_mark(table)))
        return view
    if table.state.is_over:
        return None
    if table.mode == "referee":  # people enter what happened; anyone at the table may enter for anyone
        view.add_item(ShowHandButton(table.id, "Make an entry"))
        view.add_item(TypeButton(table.id, "Type an entry"))
        for verb in REFEREE_VERBS:
            view.add_item(RefereeButton(table.id, verb, entries or entry_mark(table)))
        return view
    view.add_item(ShowHandButton(table.id))
    for i, label in enumerate(public_labels(table)[: ROWS * BUTTONS_PER_ROW - len(view.children)]):
        view.add_item(PublicActButton(table.id, table.turn, i, label))
    return view


@dataclass
class Message:
    embed: discord.Embed
    view: discord.ui.View | None
    files: list[discord.File] = field(default_factory=list)
    later: asyncio.Future[Message | None] | None = None
    """The same message with its picture, when it was built before the picture was ready (see
    :func:`hand_message`): ``None`` once done if the picture failed (this message says it all)."""

    def edit_fields(self) -> dict[str, Any]:
        """Keyword arguments replacing a whole message (an answer to a click, a refresh). The view
        is detached (:func:`~bot.discord.safe.detached`) whichever call sends it (a live view's
        followup too): a view discord.py tracks would hand its clicks to discord.py's own
        dispatch as well as to ``on_interaction``, and play them twice."""
        return {"content": None, "embed": self.embed, "view": detached(self.view), "attachments": self.files}

    def send_fields(self) -> dict[str, Any]:
        """Keyword arguments of a new message (its view detached, as in :meth:`edit_fields`)."""
        fields: dict[str, Any] = {"embed": self.embed, "view": detached(self.view)}
        if self.files:
            fields["files"] = self.files
        return fields


async def hand_message(
    table: Table,
    info: HandInfo,
    note: str | None = None,
    path: Sequence[int] = (),
    *,
    wait: float | None = None,
    urgent: bool = False,
) -> Message:
    """The private view as a message, its choices opened at the menu group ``path``. The picture
    is drawn away from the event loop (:mod:`bot.render.pool`); a picture that fails is left out
    (the text says everything the picture shows).

    ``wait``: seconds the picture may take. A picture not ready by then is left out of the
    message returned, which says everything in text, and comes in its ``later``, so a click is
    answered at once whatever the pictures queued before it. ``urgent``: drawn before pictures
    queued for others even without a ``wait`` (a view a player is told is on its way)."""
    view = hand_view(table.id, info, path) if table.status == "playing" else None
    if table.mode == "referee" or info.seat < 0:
        return Message(hand_embed(table, info, note, pictured=False), view)

    # both texts now, from the table as it is: the picture may come after the table has moved on
    pictured = hand_embed(table, info, note, pictured=True)
    pictured.set_image(url=f"attachment://{HAND_FILE}")

    # laid out once, for the picture and its description; a view kept while others play (no
    # choice now) shows the hand alone: the pile and the trick change with their moves
    context = bool(info.legal) or info.view.over
    layout = laid_out(lambda: pictures.hand_layout(info.view, info.choices, context))
    if layout is not None and not layout.areas:  # nothing of its own to draw (no hand): text only
        layout = None

    def message(png: io.BytesIO | None) -> Message:
        if png is None or layout is None:
            return Message(hand_embed(table, info, note, pictured=False), view)
        alt = pictures.hand_alt_text(info.view, info.choices, layout, waiting=info.is_ready)
        return Message(pictured, view, [discord.File(png, filename=HAND_FILE, description=alt)])  # one message gets it

    # a click's answer waits for this picture (``wait``): it goes before pictures queued for others
    drawing = asyncio.ensure_future(draw(lambda: layout, compact=True, urgent=urgent or wait is not None))
    if wait is not None:
        done, _ = await asyncio.wait({drawing}, timeout=wait)
        if not done:
            text_only = message(None)

            async def with_picture() -> Message | None:
                png = await drawing
                return message(png) if png is not None else None

            text_only.later = asyncio.ensure_future(with_picture())
            return text_only
    return message(await drawing)


def laid_out(layout: Callable[[], Layout | None]) -> Layout | None:
    """``layout()``, or ``None`` (logged) when the game could not lay its picture out."""
    try:
        return layout()
    except Exception:  # a picture is a nicety: the message goes out without it
        log.exception("laying out a picture failed")
        return None


async def draw(layout: Callable[[], Layout | None], compact: bool = False, urgent: bool = False) -> io.BytesIO | None:
    """The picture of ``layout()`` drawn away from the event loop (:func:`bot.render.pool.drawer`),
    as a file for an attachment; ``None`` when it could not be laid out (or was not: ``None``) or
    drawn. ``urgent``: an answer waits for it (it is drawn before pictures queued for others)."""
    laid = laid_out(layout)
    if laid is None:
        return None
    try:
        data = await pool.drawer().png(laid, compact, urgent)
    except Exception:  # a picture is a nicety: the message goes out without it
        log.exception("drawing a picture failed")
        return None
    return io.BytesIO(data)


async def table_message(table: Table, store: Store | None = None, *, live: bool = False) -> Message:
    """The table message: the embed and buttons, with the picture of the table once it plays
    (and, at a referee table, its last entries with their status, read from ``store``).
    ``live``: the live table is on (its button is shown)."""
    files: list[discord.File] = []
    entries: list[str] = []
    # read before any await: the message lists the entries as they stand now or later, never
    # fewer or others than its Confirm and Undo name (a Confirm refused as outdated is harmless)
    mark = entry_mark(table) if table.mode == "referee" and table.state is not None else None
    if table.state is not None and table.mode == "referee" and store is not None:
        record = await store.session(table.id)
        if record is not None:
            entries = entry_status_lines(table, record.actions, await store.entry_log(table.id))
    if table.state is not None:
        picture = await table_picture(public_view(table))
        if picture is not None:
            files.append(picture)
    embed = table_embed(table, entries, pictured=bool(files))
    if files:
        embed.set_image(url=f"attachment://{TABLE_FILE}")
    return Message(embed, table_view(table, live, mark), files)


async def table_picture(view: View) -> discord.File | None:
    """The picture of the table as the public ``view`` shows it, with its description, as the
    table message's attachment; ``None`` if it could not be drawn."""
    layout = laid_out(lambda: pictures.table_layout(view))  # once, for the picture and its description
    png = await draw(lambda: layout)
    if png is None or layout is None:
        return None
    return discord.File(png, filename=TABLE_FILE, description=pictures.table_alt_text(view, layout))


def deal_end_embed(table: Table, before: View, after: View, events: Sequence[Event]) -> discord.Embed:
    """What the message of a finished deal shows once the next deal has its own message: the
    last things that happened in it (the last trick or total, the deal's scoring) and the scores."""
    ended: list[str] = []
    for event in events:
        if event.kind in DEAL_STARTS:
            break
        if event.to is None and not is_scores(event.text):  # the scores are said once, below
            ended.append(plain(event.text))
    scores = ", ".join(f"{plain(p)} {s}" for p, s in zip(after.players, after.scores, strict=True))
    embed = discord.Embed(
        title=f"{table.game.title} - deal {before.deal} is over",
        description=clip_lines([*ended[-8:], f"**Scores:** {scores}"], 4096),
        colour=OVER_COLOUR,
    )
    embed.set_footer(text=f"Table #{table.id} - deal {after.deal} is below")
    return fit_embed(embed)


def turn_text(table: Table, users: Sequence[str]) -> str:
    who = " ".join(f"<@{u}>" for u in users)
    return f"{who} - your turn at {table.game.title}."


def turn_view(table: Table) -> discord.ui.View:
    """The turn signal's one button: open your private view."""
    view = discord.ui.View(timeout=None)
    view.add_item(ShowHandButton(table.id))
    return view
