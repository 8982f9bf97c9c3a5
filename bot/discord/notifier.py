# Over 400 lines: the Discord side of every table event (table message, private views and their freshness, pings, deal and match ends), which share one per-table message state; the seam for a split is the private views' freshness (live views, lapse) from the table message.
"""The table service's :class:`~bot.tables.Notifier` for Discord.

The service calls the notifier while it holds a table's lock, so nothing here waits for Discord
except a DM (whose answer the service needs). Table messages and notices go into a per-channel
outbox worked by one background task: posts, edits and notices keep their order, and an edit
asked for while another edit of the same table is still waiting is dropped, since every job
renders the table as it is when the job runs (rapid edits coalesce into one).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol, cast

import discord

from bot.discord.embeds import OVER_COLOUR, closed_embed
from bot.discord.limits import legible
from bot.discord.live import MARGIN, TOKEN_LIFETIME, LiveView, LiveViews
from bot.discord.messages import (
    TABLE_FILE,
    Message,
    deal_end_embed,
    hand_info,
    hand_message,
    public_choices,
    table_message,
    table_picture,
    turn_text,
    turn_view,
)
from bot.discord.plain import plain
from bot.discord.record_links import match_address, pages_url, with_link
from bot.discord.safe import (
    Outcome,
    safe_defer,
    safe_dm,
    safe_edit_message,
    safe_outcome,
    safe_reply,
    safe_send,
    safe_update,
)
from bot.discord.turns import TurnSignals
from bot.render import pool
from bot.render.charts import game_name, match_chart_png
from bot.render.text import private_text
from bot.service.hands import has_secrets
from bot.service.model import HandInfo, Table, User
from bot.service.records import stored_record
from bot.settings import GuildSettings
from games.engine import Action, Event, View
from storage.errors import StorageError

if TYPE_CHECKING:
    from bot.tables import TableService
    from storage.sessions import Store

log = logging.getLogger(__name__)

QUIET_REFRESH_SECONDS = 30.0

DM_TIMEOUT = 10.0
POST_WAIT = 5.0
"""How long a hand's DM waits for the table message on its way, to link to it (else to the channel)."""
PUBLIC_TURNS_KEPT = 4
"""How many turns back a click on the table message's optional acts is still understood."""
Kind = Literal["post", "edit", "notice", "close", "view", "ping", "unping", "shut", "open"]
TIMED_OUT = "A bot played for you while this view waited (your time ran out)."
"""The note of a live view redrawn after a bot played the turn it offered."""
ABANDONED_VIEW = "This game was abandoned, so this view is out of date. /play opens a new table."
"""What a live private view says once its table is abandoned (in place of its choices and its
promise to update itself)."""
FINISHED_VIEW = "This match is over, so this view is out of date: the result is on the table message."
"""What a live private view says once its match has ended."""
LEFT_VIEW = "You left this table and a bot plays your seat, so this view is out of date."
"""What the live view of a player who left a game in play says (no choice left on it)."""
LAPSED_VIEW = (
    "This view is out of date (Discord lets me update it for 15 minutes): "
    "press Show my hand on the table message for a fresh one."
)
"""What a live private view says just before Discord stops letting the bot edit it."""
OPEN_AT_LEAST = 120.0
"""A view is sent at the start on a lobby click's token only if the token has this long left."""


@dataclass
class Job:
    kind: Kind
    table: Table
    text: str = ""
    mention: str | None = None
    responder: discord.Interaction | None = None
    """For a post: the command to answer with it; for "shut": the live view's interaction."""
    users: tuple[str, ...] = ()
    message_id: str | None = None
    since: int = 0
    """For a turn reminder: how many actions the table's log held when it was asked for."""
    live: LiveView | None = None
    """For "shut" and "open": the live view to say is out of date, or to send."""
    greets: tuple[str, ...] = ()
    """For the start's post: players to tell that the game began and their view is below."""


class _Served(Protocol):
    """The client, as the notifier sees it: the table service it serves (built after the
    notifier, which the service needs)."""

    @property
    def service(self) -> TableService: ...


class Responder:
    """Lets a command's own response become the table message (``/play``, ``/table``, Start), or,
    for a click on the table message itself (``edits``), the table message's next edit (Join)."""

    def __init__(self, interaction: discord.Interaction, edits: bool = False) -> None:
        self.interaction = interaction
        self.used = False
        self.edits = edits
        self.started = False
        """Its click started the table: its token already carries its clicker's view."""


class Outbox:
    """One channel's queue of Discord work, run in order by a single background task."""

    def __init__(self, notifier: DiscordNotifier) -> None:
        self.notifier = notifier
        self.queue: deque[Job] = deque()
        self.task: asyncio.Task[None] | None = None

    def push(self, job: Job) -> None:
        if job.responder is None and self._covered(job):
            return
        if job.kind == "post" or (job.kind == "edit" and job.responder is not None):  # it shows them
            self.queue = deque(
                j for j in self.queue if not (j.kind == "edit" and j.table is job.table and j.responder is None)
            )
        self.queue.append(job)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run(), name="parlour-outbox")

    def _covered(self, job: Job) -> bool:
        """Whether a waiting job already shows what ``job`` would (it renders later anyway)."""
        if job.kind == "edit":
            return any(j.table is job.table and j.kind in ("edit", "post") for j in self.queue)
        if job.kind == "post":
            return any(j.table is job.table and j.kind == "post" for j in self.queue)
        if job.kind == "view":
            return any(j.table is job.table and j.kind == "view" and j.users == job.users for j in self.queue)
        return False

    async def _run(self) -> None:
        while self.queue:
            job = self.queue.popleft()
            try:
                await self.notifier.perform(job)
            except Exception:  # one failed job must not stop the channel's later ones
                log.exception("table message job %s for table %s failed", job.kind, job.table.id)


class DiscordNotifier:
    def __init__(self, client: discord.Client, store: Store) -> None:
        self.client = client
        self.store = store
        self.outboxes: dict[tuple[str, str], Outbox] = {}
        self.responders: dict[tuple[str, str], Responder] = {}
        self.message_phase: dict[str, str] = {}
        """The phase a table message was posted in ("lobby" or "play"), to tidy it when replaced."""
        self._quiet: set[str] | None = None
        self._quiet_read = 0.0
        self.live = LiveViews()
        self.live.opened = self._watch_lapse
        self._lapses: dict[tuple[int, str], asyncio.Task[None]] = {}
        """Per live view, the task that says it is out of date just before its token lapses."""
        self.live_table = False
        """Whether the live table is on (the table message offers Open the table)."""
        self.turns = TurnSignals()
        self.pictured: dict[str, bool] = {}
        """Whether each table message in play carries the picture of the table (kept when it retires)."""
        self.retired: dict[str, tuple[discord.Embed, View | None]] = {}
        """Table messages of ended deals, with how their deal ended and the table as it left it
        (``GameState.deal_end``), shown when they are retired."""
        self.shown: dict[int, View] = {}
        """Each table's public view as last reported, to tell how a deal ended."""
        self.public: dict[int, dict[int, list[Action]]] = {}
        """The optional acts each table message offered, by turn (a few turns back)."""
        self.posting: dict[int, asyncio.Future[bool]] = {}
        """Per table, a table message on its way (a hand's DM links to it once it is out): whether
        it went out."""
        self.lobby_clicks: dict[tuple[tuple[str, str], str], discord.Interaction] = {}
        """Per channel and person, their last click or command in the lobby (Join, Start, /play):
        at the start, its token sends them their view. Only clicks whose change was made are kept (a refused one is not)."""
        self.pending_clicks: dict[tuple[tuple[str, str], str], Responder] = {}
        """Per channel and person, their lobby click being handled (kept once its change is made;
        the one that starts the table carries its clicker's view at once)."""

    # -- the Notifier protocol -------------------------------------------------------------------

    async def table_changed(self, table: Table, events: Sequence[Event], repost: bool) -> None:
        view = table.state.view(None) if table.state is not None else None
        shown = self.shown.get(table.id)
        if view is not None:
            self.shown[table.id] = view
            self._remember_public(table)
        ended = shown is not None and view is not None and shown.deal != view.deal and not view.over
        if repost and ended and table.message_id is not None:
            assert shown is not None and view is not None and table.state is not None
            last = table.state.deal_end  # public: the table as the deal left it, none of the next
            self.retired[table.message_id] = (
                deal_end_embed(table, shown, view, events),
                last if last is not None and last.deal == shown.deal else None,
            )
        calls = self.turns.follow(table, self.live, view, timed_out=any(e.kind == "timeout" for e in events))
        responder = self.responders.get(table.key)
        if responder is not None and (responder.used or not (repost or responder.edits)):
            responder = None
        mentions = calls.pings if repost else ()
        starting = (  # the lobby's message is replaced by the first deal's
            repost
            and table.mode == "online"
            and table.message_id is not None
            and self.message_phase.get(table.message_id) == "lobby"
        )
        opened = self._open_views(table) if starting and view is not None else []
        if repost:
            greets = tuple(u for u in opened if u not in mentions and not (responder and _by(responder.interaction, u)))
            self._push(
                Job("post", table, responder=responder.interaction if responder else None, users=mentions, greets=greets)
            )
        elif view is None or not view.over or table.mode == "referee":
            # at the end, the closing edit shows the final result; a referee table's result may
            # wait for the last entry's confirmation, and its message says so meanwhile
            self._push(Job("edit", table, responder=responder.interaction if responder else None))
        else:
            responder = None
        if responder is not None:
            responder.used = True
        if calls.pings and not repost:
            self._push(Job("ping", table, users=calls.pings))
        for message_id in calls.unpings:
            self._push(Job("unping", table, message_id=message_id))
        for user_id in calls.refreshes:
            self._push(Job("view", table, users=(user_id,)))
        for user_id in calls.leavers:  # a bot plays their seat now: their view says so, and is let go
            gone = self.live.current(table.id, user_id)
            self.live.drop(table.id, user_id)
            if gone is not None:
                self._push(Job("shut", table, text=LEFT_VIEW, users=(user_id,), live=gone))
        for user_id in opened:
            self._push(Job("open", table, users=(user_id,), live=self.live.current(table.id, user_id)))

    def _open_views(self, table: Table) -> list[str]:
        """At the start, take each seated person's last click in the lobby whose token has
        :data:`OPEN_AT_LEAST` left for a live view, to be sent as its followup (the "open" job):
        their hand is in the channel at once, with no DM and no Show my hand. Registered now,
        under the lock, so the hands' DMs skip them; busy until sent (nothing edits it before)."""
        assert table.state is not None
        clicks = {u: c for (k, u), c in self.lobby_clicks.items() if k == table.key}
        for key in [k for k in self.lobby_clicks if k[0] == table.key]:
            del self.lobby_clicks[key]
        for (k, user_id), pending in self.pending_clicks.items():  # the click starting it (Start), any in flight
            if k == table.key:
                pending.started = True
                clicks[user_id] = pending.interaction
        opened: list[str] = []
        for seat, person in enumerate(table.seats):
            click = clicks.get(person.user_id or "")
            if person.bot is not None or person.user_id is None or click is None:
                continue
            left = TOKEN_LIFETIME - age(click)
            if left - MARGIN < OPEN_AT_LEAST or self.live.watching(table.id, person.user_id):
                continue
            live = self.live.open(
                table.id, person.user_id, click, seat=seat, turn=-1, deal=table.state.deal_no, legal=(), lifetime=left
            )
            live.followup = True
            self.live.begin_click(table.id, person.user_id)
            opened.append(person.user_id)
        return opened

    def _remember_public(self, table: Table) -> None:
        offered = self.public.setdefault(table.id, {})
        offered[table.turn] = public_choices(table)
        for turn in [t for t in offered if t <= table.turn - PUBLIC_TURNS_KEPT]:
            del offered[turn]

    def public_offered(self, table_id: int, turn: int, index: int) -> Action | None:
        """The optional act the table message offered as button ``index`` at ``turn``."""
        offered = self.public.get(table_id, {}).get(turn, [])
        return offered[index] if 0 <= index < len(offered) else None

    async def send_private(self, table: Table, seat: int, text: str) -> bool:
        user_id = table.seats[seat].user_id
        if user_id is None:
            return True
        if self.live.watching(table.id, user_id):
            return True  # their live view shows the new hand: no DM needed
        link = await self.table_link(table)
        try:
            return await asyncio.wait_for(safe_dm(self.client, int(user_id), hand_dm(table, text, link)), DM_TIMEOUT)
        except TimeoutError:
            log.warning("DM to %s timed out", user_id)
            return True

    async def table_link(self, table: Table) -> str:
        """A link to the table message, once one on its way is out (a new deal's); to the
        channel if it is not out within :data:`POST_WAIT` (or could not be posted) or there is none."""
        posting = self.posting.get(table.id)
        if posting is not None:
            try:
                out = await asyncio.wait_for(asyncio.shield(posting), POST_WAIT)
            except TimeoutError:
                return channel_link(table)
            if not out:  # not posted: the message there is an older one
                return channel_link(table)
        return channel_link(table) if table.message_id is None else f"{channel_link(table)}/{table.message_id}"

    async def notice(self, table: Table, text: str, mention: str | None = None) -> None:
        self._push(Job("notice", table, text=text, mention=mention, since=len(table.actors)))

    async def table_closed(self, table: Table) -> None:
        self.turns.take_over(table)  # pings left up before a restart go too
        for message_id in self.turns.forget(table.id):
            self._push(Job("unping", table, message_id=message_id))
        if table.state is not None:  # abandoned or over: open views say so
            text = FINISHED_VIEW if table.state.is_over else ABANDONED_VIEW
            for user_id, live in self.live.of_table(table.id):
                if not self.live.busy(table.id, user_id):  # a view being answered is answered with the end itself
                    self._push(Job("shut", table, text=text, users=(user_id,), live=live))
        self.live.forget_table(table.id)
        for key in [k for k in self._lapses if k[0] == table.id]:
            self._lapses.pop(key).cancel()
        self.shown.pop(table.id, None)
        self.public.pop(table.id, None)
        for click in [k for k in self.lobby_clicks if k[0] == table.key]:  # a lobby cancelled
            del self.lobby_clicks[click]
        self._push(Job("close", table))

    async def channel_notice(self, guild_id: str, channel_id: str, text: str) -> None:
        channel = self.client.get_partial_messageable(int(channel_id), guild_id=int(guild_id))
        await safe_send(channel, content=plain(text), allowed_mentions=discord.AllowedMentions.none())

    # -- what the service knows that the notifier needs ------------------------------------------

    async def guild_settings(self, guild_id: str) -> GuildSettings:
        return await cast(_Served, self.client).service.settings(guild_id)

    def client_dm_closed(self) -> set[str]:
        return cast(_Served, self.client).service.dm_closed

    async def quiet_users(self) -> set[str]:
        """Players who turned their own turn pings off: kept up to date by ``set_quiet`` here, and
        read again every half minute, for a player who changed it through another process of a
        sharded bot (the choice is theirs in every server)."""
        if self._quiet is None or time.monotonic() - self._quiet_read > QUIET_REFRESH_SECONDS:
            self._quiet = await self.store.quiet_players()
            self._quiet_read = time.monotonic()
        return self._quiet

    async def set_quiet(self, user_id: str, quiet: bool) -> None:
        await self.store.set_quiet(user_id, quiet)
        users = await self.quiet_users()
        if quiet:
            users.add(user_id)
        else:
            users.discard(user_id)

    # -- helpers for the cogs ----------------------------------------------------------------------

    def respond_with(self, key: tuple[str, str], interaction: discord.Interaction, edits: bool = False) -> Responder:
        """Make the next repost of this channel's table the answer to ``interaction`` (with
        ``edits``, a click on the table message: also its next edit, as the click's update)."""
        responder = Responder(interaction, edits)
        self.responders[key] = responder
        self.pending_clicks[(key, str(interaction.user.id))] = responder
        return responder

    def release(self, key: tuple[str, str], responder: Responder, done: bool = False) -> None:
        """The change ``responder`` answers is over; ``done``: it was made (not refused), so its
        click is kept for the start (unless it started the table itself)."""
        if self.responders.get(key) is responder:
            del self.responders[key]
        click = (key, str(responder.interaction.user.id))
        if self.pending_clicks.get(click) is responder:
            del self.pending_clicks[click]
        if done and not responder.started:
            self._keep_click(key, responder.interaction)

    def _keep_click(self, key: tuple[str, str], interaction: discord.Interaction) -> None:
        """Remember a person's last lobby click made good, dropping clicks whose tokens have lapsed."""
        for old in [k for k, click in self.lobby_clicks.items() if age(click) >= TOKEN_LIFETIME]:
            del self.lobby_clicks[old]
        self.lobby_clicks[(key, str(interaction.user.id))] = interaction

    def repost(self, table: Table, interaction: discord.Interaction | None = None) -> None:
        self._push(Job("post", table, responder=interaction))

    async def drain(self) -> None:
        """Wait until every outbox is empty (at shutdown, and in tests)."""
        while True:
            tasks = [o.task for o in self.outboxes.values() if o.task is not None and not o.task.done()]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    def _push(self, job: Job) -> None:
        if job.kind == "post" and (job.table.id not in self.posting or self.posting[job.table.id].done()):
            self.posting[job.table.id] = asyncio.get_running_loop().create_future()
        outbox = self.outboxes.get(job.table.key)
        if outbox is None:
            outbox = self.outboxes[job.table.key] = Outbox(self)
        outbox.push(job)

    # -- the jobs ------------------------------------------------------------------------------------

    def channel(self, table: Table) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(int(table.channel_id), guild_id=int(table.guild_id))

    async def perform(self, job: Job) -> None:
        if job.kind == "post":
            out = False
            try:
                out = await self._post(job.table, job.responder, job.users, job.greets)
            finally:  # out, or failed: a DM waiting for it goes now
                posting = self.posting.pop(job.table.id, None)
                if posting is not None and not posting.done():
                    posting.set_result(out)
        elif job.kind == "edit":
            await self._edit(job.table, job.responder)
        elif job.kind == "notice":
            if job.mention:
                await self._remind(job)
            else:
                await self._notice(job.table, job.text, None)
        elif job.kind == "view":
            await self._refresh_view(job.table, job.users[0])
        elif job.kind == "ping":
            await self._ping(job.table, job.users)
        elif job.kind == "unping":
            await self._unping(job.table, job.message_id)
        elif job.kind == "shut":
            await self._shut_view(job)
        elif job.kind == "open":
            await self._open_view(job)
        else:
            await self._close(job.table)

    async def _post(
        self,
        table: Table,
        responder: discord.Interaction | None,
        mentions: Sequence[str] = (),
        greets: Sequence[str] = (),
    ) -> bool:
        """Post the table message (or make the start's lobby it, :meth:`_start_in_place`): whether
        it is out."""
        turn = table.turn  # what the message shows at least (a restart shows again a table behind it)
        message = await table_message(table, self.store, live=self.live_table)
        pinged = await self._allowed_pings(table, mentions)
        greeted = await self._allowed_greetings(table, greets)
        content = " ".join(
            [*([turn_text(table, pinged)] if pinged else []), *([start_text(table, greeted)] if greeted else [])]
        ) or None
        allowed = _mentions([*pinged, *greeted])
        if responder is not None and await self._start_in_place(table, responder, message, [*pinged, *greeted]):
            await self._shown(table, turn)
            return True
        message_id: int | None = None
        if responder is not None:
            message_id = await safe_reply(
                responder, content, ephemeral=False, allowed_mentions=allowed, **message.send_fields()
            )
        if message_id is None:
            sent = await safe_send(self.channel(table), content=content, allowed_mentions=allowed, **message.send_fields())
            message_id = sent.id if sent is not None else None
        if message_id is None:
            return False
        old = table.message_id
        table.message_id = str(message_id)
        self.message_phase[table.message_id] = "lobby" if table.state is None else "play"
        table.shown_turn = turn
        await self.store.set_message(table.id, table.message_id, shown_turn=turn)
        self.pictured[table.message_id] = bool(message.files)
        if old is not None and old != table.message_id:
            await self._retire(table, old)
        return True

    async def _start_in_place(
        self, table: Table, responder: discord.Interaction, message: Message, mentions: Sequence[str]
    ) -> bool:
        """Start's click on the lobby message, where the start mentions nobody but its clicker (a
        person with bots, or a server that does not mention players): the click's own update
        turns the lobby into the first deal's table message, one call where a new message and the
        lobby's retiring edit were two. A start that tells others it began (their turn, their
        hand below) is a new message: a message's edit notifies nobody. Whether it was done."""
        clicked = responder.message.id if responder.message is not None else None
        if (
            table.state is None
            or table.message_id is None
            or str(clicked) != table.message_id
            or self.message_phase.get(table.message_id) != "lobby"
            or any(not _by(responder, u) for u in mentions)
        ):
            return False
        if not await safe_update(responder, **message.edit_fields()):
            return False
        self.message_phase[table.message_id] = "play"
        self.pictured[table.message_id] = bool(message.files)
        return True

    async def _retire(self, table: Table, message_id: str) -> None:
        """Tidy a replaced table message: no buttons; a lobby says the game went on below, and a
        deal's message shows how that deal ended."""
        partial = self.channel(table).get_partial_message(int(message_id))
        ended = self.retired.pop(message_id, None)
        pictured = self.pictured.pop(message_id, False)
        if self.message_phase.pop(message_id, None) == "lobby" and table.state is not None:
            embed = closed_embed(table, "The game has started: the table is below.")
            embed.title = f"{table.game.title} - started"
            await safe_edit_message(partial, content=None, embed=embed, view=None)
        elif ended is not None:  # with the picture of the table as the deal left it
            embed, last = ended
            picture = await table_picture(last) if last is not None else None
            if picture is not None or pictured:  # else the picture it has: the deal as last drawn
                embed.set_image(url=f"attachment://{TABLE_FILE}")
            kept = {} if picture is None else {"attachments": [picture]}
            await safe_edit_message(partial, content=None, embed=embed, view=None, **kept)
        else:
            await safe_edit_message(partial, content=None, view=None)

    async def _edit(self, table: Table, responder: discord.Interaction | None = None) -> None:
        """Show the table as it is in its message: as the answer to ``responder`` (a click on that
        very message), one call where a defer and an edit would be two."""
        if table.message_id is None:
            if responder is not None:
                await safe_defer(responder)
            await self._post(table, None)
            return
        turn = table.turn
        message = await table_message(table, self.store, live=self.live_table)
        if responder is not None:
            clicked = responder.message.id if responder.message is not None else None
            if str(clicked) == table.message_id and await safe_update(responder, **message.edit_fields()):
                self.pictured[table.message_id] = bool(message.files)
                await self._shown(table, turn)
                return
            await safe_defer(responder)  # a message since replaced: acknowledged, and the table edited
        partial = self.channel(table).get_partial_message(int(table.message_id))
        outcome = await safe_edit_message(partial, **message.edit_fields())
        if outcome is Outcome.OK:
            self.pictured[table.message_id] = bool(message.files)
            await self._shown(table, turn)
        if outcome is Outcome.GONE:  # someone deleted the table message: post a new one
            table.message_id = None
            await self._post(table, None)

    async def _shown(self, table: Table, turn: int) -> None:
        """The table message shows the table at ``turn`` now: kept in storage (after the edit, off
        the table's lock; one small write beside each edit's call to Discord), so that a process
        killed before its message caught up with a move shows it again at start-up."""
        if table.shown_turn == turn:
            return
        table.shown_turn = turn
        try:
            await self.store.set_shown_turn(table.id, turn)
        except StorageError as exc:  # the worst of it: one needless edit after a crash
            log.info("Could not note the turn table %s shows: %s", table.id, exc)

    # -- live views and turn signals -----------------------------------------------------------

    def catch_up(self, table: Table, user_id: str) -> None:
        """A player's live view was marked out of date while its own answer was being drawn:
        bring it up to date now that the answer is out."""
        live = self.live.get(table.id, user_id)
        if live is not None and live.stale and not self.live.busy(table.id, user_id):
            self._push(Job("view", table, users=(user_id,)))

    async def _refresh_view(self, table: Table, user_id: str) -> None:
        """Bring a player's live view up to date in place (their choices came back, a new deal)."""
        live = self.live.get(table.id, user_id)
        if live is None or self.live.busy(table.id, user_id) or table.status != "playing" or table.state is None:
            return
        seat = table.seat_of(user_id)
        if seat is None:
            return
        info = hand_info(table, User(user_id, table.seats[seat].name))
        if not self.turns.due(table, live, seat, user_id, info.view.deal, seat in info.view.awaiting):
            live.stale = False  # the table came back to what the view shows (an entry taken back)
            return
        note = TIMED_OUT if live.passed else "Your turn." if seat in info.view.awaiting else None  # a bot's move first
        passed = live.passed
        message = await hand_message(table, info, note)
        if live.reachable:
            outcome = await safe_outcome(f"refresh the live view of {user_id}", live.edit(**message.edit_fields()))
        else:  # a followup never sent: nothing to edit
            outcome = Outcome.GONE
        if outcome is Outcome.OK:
            self._redrawn(table, user_id, live, info, passed)
            return
        self.live.drop(table.id, user_id, live)  # its token ran out: tell them the usual way
        if seat in info.view.awaiting and self.turns.is_awaited(table.id, user_id):
            await self._ping(table, (user_id,))

    def _redrawn(self, table: Table, user_id: str, live: LiveView, info: HandInfo, passed: bool) -> None:
        """``live`` now shows ``info`` (``passed``: whether a bot had played its turn when it was
        drawn). The table may have moved while it was drawn and sent, and what the follows marked
        meanwhile is undone by the redraw: it is checked again against the table as it is, and
        redrawn once more if that is out of date (their turn came with other choices, or a bot
        played it)."""
        again = live.passed and not passed  # a bot played for them meanwhile
        self.live.redrawn(
            live, turn=info.turn, deal=info.view.deal, legal=info.choices, ready=info.is_ready, hand=info.view.hand
        )
        live.passed = again
        state = table.state
        if not again and (table.turn == info.turn or table.status != "playing" or state is None or state.is_over):
            return
        assert state is not None
        if self.turns.due(table, live, info.seat, user_id, state.view(None).deal, info.seat in state.awaiting()):
            self._push(Job("view", table, users=(user_id,)))

    async def _shut_view(self, job: Job) -> None:
        """A live view that can no longer be kept up to date (its table abandoned or over, its
        token about to lapse): its choices go, and one line (``job.text``) says it is out of date."""
        if job.live is not None:
            await self._say_out_of_date(job.live, job.users[0], job.text)

    async def _say_out_of_date(self, live: LiveView, user_id: str, text: str) -> None:
        await safe_outcome(
            f"say the live view of {user_id} is out of date",
            live.edit(content=text, embed=None, view=None, attachments=[]),
        )

    async def _open_view(self, job: Job) -> None:
        """Send a player the live view registered for them at the start (:meth:`_open_views`),
        as an ephemeral followup of their last click in the lobby, drawn as the table is now. If
        it cannot go (whatever the reason), the view is forgotten and the hand goes by DM, as to
        anyone not watching. One they replaced meanwhile (Show my hand) is not sent at all."""
        live, table, user_id = job.live, job.table, job.users[0]
        try:
            seat = table.seat_of(user_id)
            if live is None or self.live.current(table.id, user_id) is not live or seat is None or table.state is None:
                return
            try:
                info = hand_info(table, User(user_id, table.seats[seat].name))
                note = "Your turn." if seat in info.view.awaiting else None
                message = await hand_message(table, info, note, urgent=True)
                if self.live.current(table.id, user_id) is not live:  # replaced while it was drawn
                    return
                fields = {k: v for k, v in message.send_fields().items() if v is not None}
                sent = await live.interaction.followup.send(ephemeral=True, wait=True, **fields)
            except Exception:  # a view that did not go must not count as watched
                log.info("the view of %s at table %s could not be sent at the start", user_id, table.id, exc_info=True)
                self.live.drop(table.id, user_id, live)
                await self._hand_by_dm(table, seat)
                return
            live.message_id = sent.id
            self._redrawn(table, user_id, live, info, passed=False)
        finally:
            self.live.end_click(table.id, user_id)
        self.catch_up(table, user_id)

    async def _hand_by_dm(self, table: Table, seat: int) -> None:
        """A player's hand by DM, as the service sends it at a new deal to anyone not watching."""
        user_id = table.seats[seat].user_id
        state = table.state
        if state is None or user_id is None or user_id in self.client_dm_closed() or not has_secrets(state, seat):
            return
        if (await self.guild_settings(table.guild_id)).dms_enabled:
            await self.send_private(table, seat, private_text(table, state.view(seat)))

    def _watch_lapse(self, table_id: int, user_id: str, live: LiveView) -> None:
        """Say in ``live`` that it is out of date just before its token lapses (by the service's
        clock), unless a newer view has replaced it by then."""
        key = (table_id, user_id)
        old = self._lapses.pop(key, None)
        if old is not None:
            old.cancel()
        self._lapses[key] = asyncio.get_running_loop().create_task(self._lapse(key, live), name="parlour-lapse")

    async def _lapse(self, key: tuple[int, str], live: LiveView) -> None:
        await cast(_Served, self.client).service.core.clock.sleep(live.lifetime - MARGIN)
        if self._lapses.get(key) is asyncio.current_task():
            del self._lapses[key]
        if self.live.current(*key) is not live:
            return
        self.live.drop(*key, live)  # its owner is pinged from now on, as for any view the bot cannot edit
        await self._say_out_of_date(live, key[1], LAPSED_VIEW)

    def stop(self) -> None:
        """Stop watching live views (at shutdown)."""
        for task in self._lapses.values():
            task.cancel()
        self._lapses.clear()

    async def _allowed_pings(self, table: Table, users: Sequence[str]) -> tuple[str, ...]:
        """The users of ``users`` to be pinged in the channel, by the server's setting and their own."""
        if not users:
            return ()
        mode = (await self.guild_settings(table.guild_id)).turn_ping
        if mode == "off":
            return ()
        quiet = await self.quiet_users()
        wanted = tuple(u for u in users if u not in quiet)
        if mode == "dm":
            for user_id in wanted:
                await self._dm_turn(table, user_id)
            return ()
        return wanted

    async def _allowed_greetings(self, table: Table, users: Sequence[str]) -> tuple[str, ...]:
        """The players of ``users`` to be mentioned at the start (their view is below): as for
        turn pings, only where the server mentions players in the channel and they have not
        turned their own pings off."""
        if not users or (await self.guild_settings(table.guild_id)).turn_ping != "mention":
            return ()
        quiet = await self.quiet_users()
        return tuple(u for u in users if u not in quiet)

    async def _ping(self, table: Table, users: Sequence[str]) -> None:
        """Tell players their turn has started, with one short mention (removed once they moved)."""
        still = [u for u in users if self.turns.is_awaited(table.id, u)]  # they may have moved meanwhile
        pinged = await self._allowed_pings(table, still)
        if not pinged:
            return
        message = await safe_send(
            self.channel(table), content=turn_text(table, pinged), allowed_mentions=_mentions(pinged),
            view=turn_view(table),
        )
        if message is None:
            return
        if any(self.turns.is_awaited(table.id, u) for u in pinged):
            self.turns.pinged(table, str(message.id), pinged)
            await self._keep_pings(table)  # whichever job sent it (a view that could not be redrawn too)
        else:  # they moved while the ping was on its way
            await self._unping(table, str(message.id))

    async def _dm_turn(self, table: Table, user_id: str) -> None:
        if user_id in self.client_dm_closed():
            return
        await safe_dm(self.client, int(user_id), f"Your turn at {table.game.title}: {channel_link(table)}")

    async def _unping(self, table: Table, message_id: str | None) -> None:
        if message_id is None:
            return
        partial = self.channel(table).get_partial_message(int(message_id))
        await safe_outcome(f"delete turn ping {message_id}", partial.delete())
        await self._keep_pings(table)

    async def tell(self, table: Table, text: str, mention: str) -> bool:
        return await self._notice(table, text, mention) is not None

    async def _remind(self, job: Job) -> None:
        """A turn reminder: a notice mentioning the player, deleted (like a turn ping) once the
        turn has passed."""
        assert job.mention is not None
        message = await self._notice(job.table, job.text, job.mention)
        if message is not None and not self.turns.reminded(job.table, str(message.id), job.mention, job.since):
            await self._unping(job.table, str(message.id))  # the turn passed while it was on its way
        await self._keep_pings(job.table)

    async def _keep_pings(self, table: Table) -> None:
        """Keep the table's pings still up in storage, so that after a restart or a crash the next
        process takes each down once its players have moved (and pings nobody twice)."""
        pings = self.turns.stored(table.id)
        if table.turn_pings == pings:  # as stored (read at the load, then kept in step)
            return
        try:
            await self.store.set_turn_pings(table.id, pings)
        except StorageError as exc:  # a ping left up after a crash is the worst of it
            log.info("Could not keep the turn pings of table %s: %s", table.id, exc)
            return
        table.turn_pings = pings

    async def _notice(self, table: Table, text: str, mention: str | None) -> discord.Message | None:
        content = f"<@{mention}> {plain(text)}" if mention else plain(text)  # the text may hold names
        allowed = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(id=int(mention))] if mention else False
        )
        return await safe_send(self.channel(table), content=content, allowed_mentions=allowed)

    async def _close(self, table: Table) -> None:
        if table.message_id is None:
            return
        files: list[discord.File] = []
        view: discord.ui.View | None = None
        embeds: list[discord.Embed] = []
        if table.state is None:
            embeds = [closed_embed(table, "This table was cancelled.")]
        elif table.state.is_over:
            message = await table_message(table, self.store, live=self.live_table)
            embeds, files = [message.embed], message.files  # the final table, with its picture
            chart = await score_chart_file(table, self.store)
            if chart is not None:  # and the chart of the whole match below it
                embeds.append(chart_embed(table, chart.filename))
                files = [*files, chart]
            public_url = pages_url(self.client, await self.guild_settings(table.guild_id))
            if public_url is not None:  # the match is over: its page may show everything
                view = with_link(None, "Match page", match_address(public_url, table.guild_id, table.id))
        else:
            embeds = [closed_embed(table, "This game was abandoned.")]
        partial = self.channel(table).get_partial_message(int(table.message_id))
        await safe_edit_message(partial, content=None, embeds=embeds, view=view, attachments=files)
        self.pictured.pop(table.message_id, None)
        with contextlib.suppress(KeyError):
            del self.message_phase[table.message_id]


async def score_chart_file(table: Table, store: Store) -> discord.File | None:
    """The running scores of a finished match as a PNG, when it had more than one deal."""
    if table.state is None:
        return None
    record = await stored_record(store, table)
    players = [seat.name for seat in table.seats]
    try:  # replaying the match and drawing take a moment: in a picture worker, as pictures are
        png = await pool.drawer().call(match_chart_png, game_name(table.game, table.mode), record, players)
    except Exception:  # a chart is a nicety: never let it stop the end of a match
        log.exception("score chart for table %s failed", table.id)
        return None
    return discord.File(io.BytesIO(png), filename="scores.png") if png else None


def start_text(table: Table, users: Sequence[str]) -> str:
    """The start's word to players whose view was sent to them with it (not to play yet)."""
    who = " ".join(f"<@{u}>" for u in users)
    return f"{who} - {table.game.title} has started: your hand is below, only you can see it."


def age(interaction: discord.Interaction) -> float:
    """Seconds since Discord created ``interaction`` (its token's age counts from then, not from
    when the bot got round to it)."""
    return min(max((discord.utils.utcnow() - interaction.created_at).total_seconds(), 0.0), TOKEN_LIFETIME)


def _by(interaction: discord.Interaction, user_id: str) -> bool:
    return str(interaction.user.id) == user_id


def channel_link(table: Table) -> str:
    return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}"


def hand_dm(table: Table, text: str, link: str) -> str:
    """A hand's DM (the service's text: a heading line, then the seat's view), its heading naming
    the channel, with a link to the table message (:meth:`DiscordNotifier.table_link`)."""
    _heading, _, view = text.partition("\n")
    return legible(f"{table.game.title} at <#{table.channel_id}> ({link}) - your view:\n{plain(view)}")


def chart_embed(table: Table, filename: str) -> discord.Embed:
    """The second embed of a finished match's message: the running scores, deal by deal."""
    embed = discord.Embed(title=f"{table.game.title} - the scores deal by deal", colour=OVER_COLOUR)
    embed.set_image(url=f"attachment://{filename}")
    return embed


def _mentions(users: Sequence[str]) -> discord.AllowedMentions:
    """Allow exactly these users to be pinged (nobody else, no roles, no everyone)."""
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(id=int(u)) for u in users] if users else False
    )
