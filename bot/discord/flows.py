"""What a command or a click does: check it, call the table service, answer.

Cogs and components only parse the interaction and call a flow here (SpellBot's "actions").
Every flow is wrapped by :func:`guarded`: a :class:`~bot.tables.TableError` becomes an
ephemeral reply, and any other exception is logged and answered with an apology, so no click is
left unanswered. Work that may be slow (anything that writes) is preceded by a defer, so the
interaction is acknowledged within Discord's three seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
import shlex
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, cast

import discord

from bot.discord.components import (
    bot_levels_view,
    form_chunk,
    menu_node,
    option_pages,
    options_view,
    public_choices,
    resolve_path,
)
from bot.discord.embeds import games_embed, help_embed, options_embed, rules_embed
from bot.discord.limits import (
    LABEL_DESCRIPTION,
    LABEL_TEXT,
    MODAL_TITLE,
    TEXT_INPUT_PLACEHOLDER,
    clip,
    clip_lines,
    fit_embed,
)
from bot.discord.live import LiveViews
from bot.discord.messages import hand_info, hand_message
from bot.discord.plain import plain
from bot.discord.safe import safe_defer, safe_modal, safe_reply, safe_update
from bot.numbers import plain_int
from bot.render.text import action_menu, clean_name, entry_label
from bot.service.entries import SeatEntry
from bot.service.model import HandInfo, Table, TableError, User
from bot.service.registry import UNAVAILABLE
from bot.tables import TableService
from games.engine import Action, Game, IllegalAction, OptionInfo, SetupError
from games.notation import MAX_ENTRY, entry_menu, read_action, read_choice, typed_form
from games.players import levels
from games.registry import all_games, get_game
from storage.db import StorageUnavailable

if TYPE_CHECKING:
    from bot.discord.client import ParlourBot

log = logging.getLogger(__name__)

P = ParamSpec("P")
Flow = Callable[Concatenate[discord.Interaction, P], Awaitable[None]]

STALE_HAND = "That choice was from an earlier turn; here are your choices now."
CLOSED = "That table has closed. Open a new one with /play."
SORRY = "Sorry, something went wrong with that. /table shows where the game stands."


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


def bot_of(interaction: discord.Interaction) -> ParlourBot:
    return cast("ParlourBot", interaction.client)


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


def available_games() -> list[Game[Any]]:
    """The catalogue; a game module that fails to load is logged and left out."""
    try:
        return all_games()
    except Exception:
        log.exception("the game catalogue failed to load; listing the games that do")
    from games import registry

    games: list[Game[Any]] = []
    for game_id in [*getattr(registry, "_MODULES", {}), *getattr(registry, "_EXTRA", {})]:
        try:
            games.append(get_game(game_id))
        except Exception:
            continue
    return games


def game_choices(current: str) -> list[discord.app_commands.Choice[str]]:
    text = current.strip().lower()
    found = [g for g in available_games() if text in g.id or text in g.title.lower()]
    return [discord.app_commands.Choice(name=clip(g.title, 100), value=g.id) for g in found[:25]]


def referee_game_choices(current: str) -> list[discord.app_commands.Choice[str]]:
    """The games that have a referee mode."""
    from games.registry import referee_game

    found = []
    for choice in game_choices(current):
        try:
            referee_game(choice.value)
        except Exception:
            continue
        found.append(choice)
    return found


def split_options(text: str | None) -> list[str]:
    if not text:
        return []
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


# -- commands ----------------------------------------------------------------------------------------


@guarded
async def play(interaction: discord.Interaction, game: str, options: str | None) -> None:
    """Open a table; its lobby message is the answer to the command."""
    key = place_of(interaction)
    bot = bot_of(interaction)
    responder = bot.notifier.respond_with(key, interaction)
    try:
        await bot.service.open_table(*key, user_of(interaction), game, split_options(options))
    finally:
        bot.notifier.release(key, responder)
    if not responder.used:
        await safe_reply(interaction, "Your table is open.", ephemeral=True)


@guarded
async def repost_table(interaction: discord.Interaction) -> None:
    table = current_table(interaction)
    bot_of(interaction).notifier.repost(table, interaction)


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


@guarded
async def leave(interaction: discord.Interaction) -> None:
    table = current_table(interaction)
    await safe_defer(interaction, ephemeral=True, thinking=True)
    playing = table.status == "playing"
    await service_of(interaction).leave(*place_of(interaction), user_of(interaction))
    text = (
        "You left the game: a bot plays your seat from now on, and you rank last."
        if playing
        else "You left the table."
    )
    await safe_reply(interaction, text, ephemeral=True)


@guarded
async def abandon(interaction: discord.Interaction) -> None:
    current_table(interaction)
    await safe_defer(interaction, ephemeral=True, thinking=True)
    await service_of(interaction).abandon(*place_of(interaction), user_of(interaction))
    await safe_reply(interaction, "The game is abandoned; it counts for no rating.", ephemeral=True)


@guarded
async def rules(interaction: discord.Interaction, game: str) -> None:
    await safe_reply(interaction, embed=rules_embed(get_game(game)), ephemeral=True)


@guarded
async def games(interaction: discord.Interaction) -> None:
    await safe_reply(interaction, embed=games_embed(available_games()), ephemeral=True)


@guarded
async def help(interaction: discord.Interaction) -> None:
    await safe_reply(interaction, embed=help_embed(), ephemeral=True)


# -- the lobby ---------------------------------------------------------------------------------------


@guarded
async def lobby_action(interaction: discord.Interaction, session: int, verb: str) -> None:
    table = current_table(interaction, session)
    user = user_of(interaction)
    service = service_of(interaction)
    key = place_of(interaction)
    if verb == "options":
        await open_options(interaction, table, user)
        return
    if table.status != "lobby":
        raise TableError("The game has already started.")
    if verb == "bot":
        await safe_reply(
            interaction,
            "Which kind of bot? Random plays any legal card; easy and strong think harder.",
            view=bot_levels_view(table, levels(table.game.id)),
            ephemeral=True,
        )
        return
    await safe_defer(interaction)
    if verb == "join":
        await service.join(*key, user, session=session)
    elif verb == "leave":
        await service.leave(*key, user, session=session)
    elif verb == "start":
        await service.start(*key, user, session=session)
    elif verb == "cancel":
        await service.cancel(*key, user, session=session)
    else:
        raise TableError("That button does nothing any more.")


@guarded
async def add_bot(interaction: discord.Interaction, session: int, level: str) -> None:
    """A level chosen after Add bot: seat that bot, and keep the chooser for another one."""
    table = current_table(interaction, session)
    if table.status != "lobby":
        raise TableError("The game has already started.")
    await safe_defer(interaction)
    await service_of(interaction).add_bot(*place_of(interaction), user_of(interaction), level, session=session)
    await safe_update(interaction, content=f"A {level} bot takes a seat. Add another, or press Start.")


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


FORM_PREFIX = "parlour:form:"


class OptionsForm(discord.ui.Modal):
    """A form for options typed as text (numbers above all). Blank restores the default.

    Its submission is handled by :func:`form_submitted` from the custom id and the values Discord
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
        """Nothing: :func:`form_submitted` answers (see the class docstring)."""


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


# -- typed entries and moves ------------------------------------------------------------------------

ENTRY_PREFIX = "parlour:entry:"
ENTRY_FIELD = "entry"


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
        """Nothing: :func:`entry_submitted` answers (see :class:`OptionsForm`)."""


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
    example = f"for example {typed_form(entries[len(entries) // 2][1])}" if entries else "nothing to enter now"
    await safe_modal(interaction, EntryForm(table, example))


@guarded
async def entry_submitted(interaction: discord.Interaction, session: int, text: str) -> None:
    """A typed move or entry: read it, then play it; a refusal says what was understood and why,
    and changes nothing."""
    table = current_table(interaction, session)
    user = user_of(interaction)
    if table.status != "playing" or table.state is None:
        raise TableError("This game is not in play: nothing was entered.")
    seat, own = _typing_seat(table, user)
    turn = table.state.turn
    try:
        seat, action = read_action(table.state, text, seat=seat, speaker=own)
    except IllegalAction as exc:
        raise TableError(f"Nothing was entered. {exc}") from None
    await safe_defer(interaction, ephemeral=True, thinking=True)
    await service_of(interaction).act(*place_of(interaction), user, action, turn, seat=seat, session=session)
    said = entry_label(table, seat, action) if table.mode == "referee" else action.label()
    await safe_reply(interaction, plain(f"Entered {said}."), ephemeral=True)


# -- play ---------------------------------------------------------------------------------------------

QUICK_ANSWER = 2.0
"""Seconds a move may take (bots' replies included) before its click is deferred: Discord wants an
answer within three, and a click answered at once costs one call instead of two."""


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
) -> None:
    """Answer with the player's current private view (``info``, when the caller has it), opened
    at the menu group ``path``, as a new ephemeral message (``fresh``) or in place of the one they
    clicked on; while the table plays, that view becomes their live one."""
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
            table.id, user.id, interaction, seat=info.seat, turn=info.turn, deal=info.view.deal, legal=info.legal
        )
        live.busy += 1  # not refreshed by the notifier before this answer is out
    try:
        message = await hand_message(table, info, note, path)
        if fresh:
            answered = await safe_reply(interaction, ephemeral=True, **message.send_fields()) is not None
        else:
            answered = await safe_update(interaction, **message.edit_fields())
    finally:
        if live is not None:
            live.busy = max(live.busy - 1, 0)
    if not answered and live is not None:
        views.drop(table.id, user.id, live)
    elif live is not None:
        bot_of(interaction).notifier.catch_up(table, user.id)


@guarded
async def show_hand(interaction: discord.Interaction, session: int | None = None) -> None:
    table = current_table(interaction, session)
    await _answer_with_hand(interaction, table, user_of(interaction), None, fresh=True)


async def _closed_hand(interaction: discord.Interaction) -> None:
    await safe_update(interaction, content=CLOSED, embed=None, view=None, attachments=[])


async def _act_in_hand(
    interaction: discord.Interaction, table: Table, user: User, action: Action, turn: int, shown_at: int
) -> None:
    """Play ``action`` (read at ``turn`` from a view drawn at ``shown_at``) and answer with the
    player's view as it is afterwards (bots' replies included). The click is deferred only when
    the move takes long."""
    views = live_views(interaction)
    views.begin_click(table.id, user.id)  # the answer brings the view up to date: no refresh job
    try:
        move = asyncio.ensure_future(
            service_of(interaction).act(
                *place_of(interaction), user, action, turn, session=table.id, shown_at=shown_at
            )
        )
        done, _ = await asyncio.wait({move}, timeout=QUICK_ANSWER)
        if not done:
            await safe_defer(interaction)
        try:
            await move
            note = f"You chose {action.label()}."
        except TableError as exc:  # refused: the reason goes in the player's own (ephemeral) view
            note = str(exc)
        await _answer_with_hand(interaction, table, user, note, fresh=False)
    finally:
        views.end_click(table.id, user.id)
        bot_of(interaction).notifier.catch_up(table, user.id)


def _chosen(interaction: discord.Interaction, table: Table, user: User, turn: int, index: int) -> Action | str:
    """What a click on the ``index``-th choice of a view drawn at ``turn`` means now: the action
    (still legal), or why it cannot be played (the engine's own reason where it has one)."""
    info = hand_info(table, user)
    if table.status != "playing":
        return CLOSED
    if turn == info.turn:
        return info.legal[index] if 0 <= index < len(info.legal) else STALE_HAND
    offered = live_views(interaction).offered(table.id, user.id, turn, index)
    if offered is None:
        return STALE_HAND
    if offered in info.legal:
        return offered
    return _refusal(table, info.seat, offered) or STALE_HAND


def _refusal(table: Table, seat: int, action: Action) -> str | None:
    """The engine's reason why ``action`` is not open to ``seat`` now."""
    state = table.state
    if isinstance(action, SeatEntry):  # a referee table's entry names its own seat
        seat, action = action.seat, action.entry
    if state is None or seat < 0:
        return None
    try:
        state.check(seat, action)
    except IllegalAction as exc:
        return str(exc)
    except Exception:  # an explanation is a courtesy: never let it stop the answer
        log.exception("explaining a refusal failed")
    return None


@guarded
async def act_from_hand(interaction: discord.Interaction, session: int, turn: int, index: int) -> None:
    """A choice in a player's private view: the ``index``-th of their legal actions at ``turn``."""
    try:
        table = current_table(interaction, session)
    except TableError as exc:
        if str(exc) == CLOSED:
            await _closed_hand(interaction)
            return
        raise
    user = user_of(interaction)
    chosen = _chosen(interaction, table, user, turn, index)
    if isinstance(chosen, str):
        await _answer_with_hand(interaction, table, user, chosen, fresh=False)
        return
    await _act_in_hand(interaction, table, user, chosen, table.turn, turn)


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
    try:
        table = current_table(interaction, session)
    except TableError as exc:
        if str(exc) == CLOSED:
            await _closed_hand(interaction)
            return
        raise
    user = user_of(interaction)
    info = hand_info(table, user)
    if turn != info.turn or table.status != "playing":
        await _answer_with_hand(interaction, table, user, STALE_HAND, fresh=False)
        return
    menu = action_menu(info.legal)
    _node, path = resolve_path(menu, path)
    labels = [n.label for n in (menu_node(menu, path[: d + 1]) for d in range(len(path))) if n is not None]
    note = f"Choose in {' / '.join(labels)}." if labels else None
    await _answer_with_hand(interaction, table, user, note, fresh=False, info=info, path=path)


@guarded
async def public_act(interaction: discord.Interaction, session: int, turn: int, index: int) -> None:
    """An optional act offered on the table message to everyone it is open to."""
    table = current_table(interaction, session)
    user = user_of(interaction)
    info = hand_info(table, user)
    offered = public_choices(table)
    if turn != table.turn or not 0 <= index < len(offered):
        earlier = bot_of(interaction).notifier.public_offered(table.id, turn, index)
        reason = _refusal(table, info.seat, earlier) if earlier is not None else None
        raise TableError(reason or "That button is from an earlier turn: the table message shows the choices open now.")
    label = offered[index].label()
    mine = [a for a in info.legal if a.card is None and a.label() == label]
    if not mine:
        raise TableError(_refusal(table, info.seat, offered[index]) or f"{label} is not open to you now.")
    if len(mine) > 1:
        await _answer_with_hand(interaction, table, user, None, fresh=True)
        return
    await safe_defer(interaction, ephemeral=True, thinking=True)
    await service_of(interaction).act(*place_of(interaction), user, mine[0], turn, session=session)
    await safe_reply(interaction, plain(f"You chose {label}."), ephemeral=True)


# -- referee mode ---------------------------------------------------------------------------------------

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
    try:
        await bot.service.open_referee(*key, user_of(interaction), game, seated, split_options(options))
    finally:
        bot.notifier.release(key, responder)
    if not responder.used:
        await safe_reply(interaction, "Your referee table is open.", ephemeral=True)


@guarded
async def referee_action(interaction: discord.Interaction, session: int, verb: str) -> None:
    current_table(interaction, session)
    service, key, user = service_of(interaction), place_of(interaction), user_of(interaction)
    if verb not in ("confirm", "undo"):
        raise TableError("That button does nothing any more.")
    await safe_defer(interaction, ephemeral=True, thinking=True)
    if verb == "confirm":
        await service.confirm(*key, user, session=session)
        await safe_reply(interaction, "You confirmed the last entry.", ephemeral=True)
    else:
        await service.undo(*key, user, session=session)
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


# -- advice -------------------------------------------------------------------------------------------


def _advice_embed(title: str, lines: Sequence[str]) -> discord.Embed:
    return fit_embed(discord.Embed(title=title, description=clip_lines(list(lines), 4096, keep="start")))


@guarded
async def hint(interaction: discord.Interaction) -> None:
    key, user = place_of(interaction), user_of(interaction)
    await safe_defer(interaction, ephemeral=True, thinking=True)  # a search may take a moment
    lines = await service_of(interaction).hint(*key, user)
    await safe_reply(interaction, embed=_advice_embed("Hint", lines), ephemeral=True)


@guarded
async def analyse(interaction: discord.Interaction, deal: int | None, match: int | None) -> None:
    await safe_defer(interaction, ephemeral=True, thinking=True)  # perfect play takes a moment
    lines = await service_of(interaction).analyse(*place_of(interaction), user_of(interaction), deal, match)
    pages = text_pages(lines, 4000)
    for number, page in enumerate(pages[:5], 1):
        title = "Analysis" if len(pages) == 1 else f"Analysis ({number}/{len(pages)})"
        await safe_reply(interaction, embed=_advice_embed(title, page), ephemeral=True)


def text_pages(lines: Sequence[str], size: int) -> list[list[str]]:
    """Lines gathered into pages of at most ``size`` characters (a longer line is clipped)."""
    pages: list[list[str]] = [[]]
    used = 0
    for line in lines:
        line = clip(line, size)
        if pages[-1] and used + len(line) + 1 > size:
            pages.append([])
            used = 0
        pages[-1].append(line)
        used += len(line) + 1
    return pages
