"""Play: a player's private view (Show my hand, /hand) and the choices in it, the table
message's optional acts, and /pings. A click is answered with the player's view as it is after
the move; the view stays live (the notifier refreshes it) while the table plays."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

import discord

from bot.discord.context import CLOSED, bot_of, current_table, guarded, place_of, service_of, user_of
from bot.discord.hand_menu import menu_node, resolve_path
from bot.discord.live import LiveViews
from bot.discord.messages import hand_message, public_choices
from bot.discord.plain import plain
from bot.discord.safe import safe_defer, safe_reply, safe_update
from bot.numbers import plain_int
from bot.render.text import action_menu
from bot.service.hands import hand_info
from bot.service.model import HandInfo, Table, TableError, User
from bot.service.play import refusal
from bot.tables import Choose, Move
from games.engine import Action

log = logging.getLogger(__name__)

STALE_HAND = "That choice was from an earlier turn; here are your choices now."
BOT_PLAYED = "Your time ran out and a bot played that turn for you, so nothing more was played; here are your choices now."
QUICK_ANSWER = 2.0
"""Seconds a move may take (bots' replies included) before its click is deferred: Discord wants an
answer within three, and a click answered at once costs one call instead of two."""
PICTURE_WAIT = 0.1
"""Seconds a click's answer waits for the picture of the hand: one not drawn by then (pictures
queued behind other tables') follows in an edit, so the click is answered in text at once. A
picture drawn in time costs no second call."""


def live_views(interaction: discord.Interaction) -> LiveViews:
    return bot_of(interaction).notifier.live


async def _answer_with_hand(
    interaction: discord.Interaction,
    table: Table,
    user: User,
    note: str | None,
    *,
    fresh: bool,
    info: HandInfo | None = None,
    path: Sequence[int] = (),
    refused: bool = False,
) -> None:
    """Answer with the player's current private view (``info``, when the caller has it), opened
    at the menu group ``path``, as a new ephemeral message (``fresh``) or in place of the one they
    clicked on; while the table plays, that view becomes their live one (``refused``: ``note``
    refuses their click, which is true only of this turn)."""
    if info is None:
        try:
            info = hand_info(table, user)
        except TableError as exc:
            if fresh:
                raise
            await safe_update(interaction, content=str(exc), embed=None, view=None, attachments=[])
            return
    views = live_views(interaction)
    live = None
    if table.status == "playing":  # registered before the picture and the edit: no click reads an older one
        live = views.open(
            table.id, user.id, interaction, seat=info.seat, turn=info.turn, deal=info.view.deal,
            legal=info.choices, ready=info.is_ready, refused=refused and info.is_ready, hand=info.view.hand,
        )
        views.begin_click(table.id, user.id)  # not refreshed by the notifier before this answer is out
    try:
        message = await hand_message(table, info, note, path, wait=PICTURE_WAIT)
        if fresh:
            answered = await safe_reply(interaction, ephemeral=True, **message.send_fields()) is not None
        else:
            answered = await safe_update(interaction, **message.edit_fields())
        if message.later is not None:  # answered in text; the picture follows in an edit
            pictured = await message.later
            if answered and pictured is not None:
                await safe_update(interaction, **pictured.edit_fields())
    finally:
        if live is not None:
            views.end_click(table.id, user.id)
    if not answered and live is not None:
        views.drop(table.id, user.id, live)
    elif live is not None:
        bot_of(interaction).notifier.catch_up(table, user.id)


@guarded
async def show_hand(interaction: discord.Interaction, session: int | None = None) -> None:
    table = current_table(interaction, session)
    await _answer_with_hand(interaction, table, user_of(interaction), None, fresh=True)


async def _hand_table(interaction: discord.Interaction, session: int) -> Table | None:
    """The table a click in a private view is about, or ``None`` once it has closed (the view is
    then replaced by the closed-table line)."""
    try:
        return current_table(interaction, session)
    except TableError as exc:
        if str(exc) != CLOSED:
            raise
    await safe_update(interaction, content=CLOSED, embed=None, view=None, attachments=[])
    return None


async def _act_in_hand(
    interaction: discord.Interaction, table: Table, user: User, choose: Choose, shown_at: int
) -> None:
    """Play what ``choose`` reads a click in a view drawn at ``shown_at`` to mean (the service
    asks it once the channel's lock is held) and answer with the player's view as it is
    afterwards (bots' replies included). The click is deferred only when the move takes long."""
    views = live_views(interaction)
    views.begin_click(table.id, user.id)  # the answer brings the view up to date: no refresh job
    dealt: list[int] = []
    refused = False

    def choosing(now: Table) -> Move:  # under the lock: the deal the move is made in
        chosen = choose(now)
        dealt.append(now.state.deal_no if now.state is not None else 0)
        return chosen

    try:
        move = asyncio.ensure_future(
            service_of(interaction).act_chosen(
                *place_of(interaction), user, choosing, session=table.id, shown_at=shown_at
            )
        )
        done, _ = await asyncio.wait({move}, timeout=QUICK_ANSWER)
        if not done:
            await safe_defer(interaction)
        try:
            action, _seat = await move
            note = chosen_note(action, dealt[-1] if dealt else None, table)
        except TableError as exc:  # refused: the reason goes in the player's own (ephemeral) view
            note, refused = str(exc), True
        await _answer_with_hand(interaction, table, user, note, fresh=False, refused=refused)
    finally:
        views.end_click(table.id, user.id)
        bot_of(interaction).notifier.catch_up(table, user.id)


NOT_YET = "That tap came before your turn, so nothing was played: tap again when the table message shows it is your turn."
"""The note on a ready hand tapped too soon: said in the past, so it stays true as the table moves
(the engine's "the table is waiting for cat" would not, once cat had played)."""


def chosen_note(action: Action, deal: int | None, table: Table) -> str:
    """What a private view says of the choice just made: also that its deal is over, when the
    view now shows the next deal (the choice ended it, or the bots' replies did)."""
    now = table.state.deal_no if table.state is not None else deal
    if deal is not None and now != deal and table.state is not None and not table.state.is_over:
        return f"You chose {action.label()}; deal {deal} is over."
    return f"You chose {action.label()}."


def chosen_in_view(views: LiveViews, user: User, turn: int, index: int) -> Choose:
    """What a click on the ``index``-th choice of a view drawn at ``turn`` means at the table as
    it is (read under the channel's lock): the action, if still legal; else a refusal saying why
    (the engine's own reason where it has one; a ready hand, whose owner has nothing to do yet, in
    the words of :data:`NOT_YET`)."""

    def choose(table: Table) -> Move:
        info = hand_info(table, user)
        if table.status != "playing":
            raise TableError(CLOSED)
        if turn == info.turn:
            if not 0 <= index < len(info.choices):
                raise TableError(STALE_HAND)
            offered: Action | None = info.choices[index]
            shown = views.offered(table.id, user.id, turn, index, info.view.deal)
            if shown is not None and shown != offered:
                # a referee table's turn numbers repeat: an undo takes the turn back and another
                # entry brings it forward again, with other entries at the same numbers
                raise TableError(STALE_HAND)
        else:
            offered = views.offered(table.id, user.id, turn, index, info.view.deal)
        if offered is None:
            live = views.get(table.id, user.id)
            raise TableError(BOT_PLAYED if live is not None and live.passed and live.turn == turn else STALE_HAND)
        if offered not in info.legal:
            raise TableError(NOT_YET if info.is_ready else refusal(table, info.seat, offered) or STALE_HAND)
        return offered, None

    return choose


@guarded
async def act_from_hand(interaction: discord.Interaction, session: int, turn: int, index: int) -> None:
    """A choice in a player's private view: the ``index``-th of their legal actions at ``turn``."""
    table = await _hand_table(interaction, session)
    if table is None:
        return
    user = user_of(interaction)
    await _act_in_hand(interaction, table, user, chosen_in_view(live_views(interaction), user, turn, index), turn)


@guarded
async def pick(
    interaction: discord.Interaction, session: int, turn: int, path: tuple[int, ...], value: str
) -> None:
    number = plain_int(value[1:])
    if value.startswith("a") and number is not None:
        await act_from_hand(interaction, session, turn, number)
    elif value.startswith("g") and number is not None:
        await navigate(interaction, session, turn, (*path, number))
    else:
        raise TableError("That menu is out of date: press Show my hand again.")


@guarded
async def navigate(interaction: discord.Interaction, session: int, turn: int, path: tuple[int, ...]) -> None:
    """Open a group of choices (or go Back) in a player's private view."""
    table = await _hand_table(interaction, session)
    if table is None:
        return
    user = user_of(interaction)
    info = hand_info(table, user)
    kept = live_views(interaction).shows(table.id, user.id, turn, info.choices)  # a ready hand kept for the turn
    if (turn != info.turn and not kept) or table.status != "playing":
        await _answer_with_hand(interaction, table, user, STALE_HAND, fresh=False)
        return
    menu = action_menu(info.choices)
    _node, path = resolve_path(menu, path)
    labels = [n.label for n in (menu_node(menu, path[: d + 1]) for d in range(len(path))) if n is not None]
    note = f"Choose in {' / '.join(labels)}." if labels else None
    await _answer_with_hand(interaction, table, user, note, fresh=False, info=info, path=path)


def public_acts(table: Table, user: User, turn: int, index: int, earlier: Action | None) -> list[Action]:
    """The clicker's own acts that button ``index`` of the table message, offered at ``turn``
    (``earlier``: the act it offered then), stands for at the table as it is; refused with the
    rules' reason when there are none."""
    info = hand_info(table, user)
    offered = public_choices(table)
    if turn != table.turn or not 0 <= index < len(offered):
        reason = refusal(table, info.seat, earlier) if earlier is not None else None
        raise TableError(reason or "That button is from an earlier turn: the table message shows the choices open now.")
    label = offered[index].label()
    mine = [a for a in info.legal if a.card is None and a.label() == label]
    if not mine:
        raise TableError(refusal(table, info.seat, offered[index]) or f"{label} is not open to you now.")
    return mine


@guarded
async def public_act(interaction: discord.Interaction, session: int, turn: int, index: int) -> None:
    """An optional act offered on the table message to everyone it is open to. Several of the
    clicker's own choices of that name open their private view; one is played, read again once
    the channel's lock is held."""
    table = current_table(interaction, session)
    user = user_of(interaction)
    earlier = bot_of(interaction).notifier.public_offered(table.id, turn, index)
    if len(public_acts(table, user, turn, index, earlier)) > 1:  # what to show, not what to play
        await _answer_with_hand(interaction, table, user, None, fresh=True)
        return

    def choose(now: Table) -> Move:
        mine = public_acts(now, user, turn, index, earlier)
        if len(mine) > 1:
            raise TableError("You have several choices of that name now: press Show my hand to pick one.")
        return mine[0], None

    move = asyncio.ensure_future(
        service_of(interaction).act_chosen(*place_of(interaction), user, choose, session=session)
    )
    done, _ = await asyncio.wait({move}, timeout=QUICK_ANSWER)
    if not done:  # a quick move is answered in one call: the reply itself, not a defer and a followup
        await safe_defer(interaction, ephemeral=True, thinking=True)
    action, _seat = await move
    await safe_reply(interaction, plain(f"You chose {action.label()}."), ephemeral=True)


@guarded
async def pings(interaction: discord.Interaction, on: bool) -> None:
    """A player's own choice: a mention when their turn starts, or none."""
    await bot_of(interaction).notifier.set_quiet(str(interaction.user.id), not on)
    text = (
        "I will mention you when your turn starts (unless your private view is open: it updates itself)."
        if on
        else "I will not mention you when your turn starts; the table message still shows whose turn it is."
    )
    await safe_reply(interaction, text, ephemeral=True)
