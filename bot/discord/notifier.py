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
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot.discord.components import table_view
from bot.discord.embeds import closed_embed, table_embed
from bot.discord.safe import Outcome, safe_dm, safe_edit_message, safe_reply, safe_send
from bot.render.charts import score_chart, score_progression
from bot.service.model import Table
from bot.service.records import stored_record
from games.engine import Event, Game, MatchRecord

if TYPE_CHECKING:
    from storage.sessions import Store

log = logging.getLogger(__name__)

DM_TIMEOUT = 10.0
Kind = Literal["post", "edit", "notice", "close"]


@dataclass
class Job:
    kind: Kind
    table: Table
    text: str = ""
    mention: str | None = None
    responder: discord.Interaction | None = None


class Responder:
    """Lets a command's own response become the table message (``/play``, ``/table``)."""

    def __init__(self, interaction: discord.Interaction) -> None:
        self.interaction = interaction
        self.used = False


class Outbox:
    """One channel's queue of Discord work, run in order by a single background task."""

    def __init__(self, notifier: DiscordNotifier) -> None:
        self.notifier = notifier
        self.queue: deque[Job] = deque()
        self.task: asyncio.Task[None] | None = None

    def push(self, job: Job) -> None:
        if job.responder is None and self._covered(job):
            return
        if job.kind == "post":
            self.queue = deque(j for j in self.queue if not (j.kind == "edit" and j.table is job.table))
        self.queue.append(job)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run(), name="parlour-outbox")

    def _covered(self, job: Job) -> bool:
        """Whether a waiting job already shows what ``job`` would (it renders later anyway)."""
        if job.kind == "edit":
            return any(j.table is job.table and j.kind in ("edit", "post") for j in self.queue)
        if job.kind == "post":
            return any(j.table is job.table and j.kind == "post" for j in self.queue)
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

    # -- the Notifier protocol -------------------------------------------------------------------

    async def table_changed(self, table: Table, events: Sequence[Event], repost: bool) -> None:
        responder = self.responders.get(table.key) if repost else None
        if responder is not None and not responder.used:
            responder.used = True
            self._push(Job("post", table, responder=responder.interaction))
        else:
            self._push(Job("post" if repost else "edit", table))

    async def send_private(self, table: Table, seat: int, text: str) -> bool:
        user_id = table.seats[seat].user_id
        if user_id is None:
            return True
        try:
            return await asyncio.wait_for(safe_dm(self.client, int(user_id), text), DM_TIMEOUT)
        except TimeoutError:
            log.warning("DM to %s timed out", user_id)
            return True

    async def notice(self, table: Table, text: str, mention: str | None = None) -> None:
        self._push(Job("notice", table, text=text, mention=mention))

    async def table_closed(self, table: Table) -> None:
        self._push(Job("close", table))

    async def channel_notice(self, guild_id: str, channel_id: str, text: str) -> None:
        channel = self.client.get_partial_messageable(int(channel_id), guild_id=int(guild_id))
        await safe_send(channel, content=text, allowed_mentions=discord.AllowedMentions.none())

    # -- helpers for the cogs ----------------------------------------------------------------------

    def respond_with(self, key: tuple[str, str], interaction: discord.Interaction) -> Responder:
        """Make the next repost of this channel's table the answer to ``interaction``."""
        responder = Responder(interaction)
        self.responders[key] = responder
        return responder

    def release(self, key: tuple[str, str], responder: Responder) -> None:
        if self.responders.get(key) is responder:
            del self.responders[key]

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
        outbox = self.outboxes.get(job.table.key)
        if outbox is None:
            outbox = self.outboxes[job.table.key] = Outbox(self)
        outbox.push(job)

    # -- the jobs ------------------------------------------------------------------------------------

    def channel(self, table: Table) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(int(table.channel_id), guild_id=int(table.guild_id))

    async def perform(self, job: Job) -> None:
        if job.kind == "post":
            await self._post(job.table, job.responder)
        elif job.kind == "edit":
            await self._edit(job.table)
        elif job.kind == "notice":
            await self._notice(job.table, job.text, job.mention)
        else:
            await self._close(job.table)

    async def _post(self, table: Table, responder: discord.Interaction | None) -> None:
        embed, view = table_embed(table), table_view(table)
        message_id: int | None = None
        if responder is not None:
            message_id = await safe_reply(responder, embed=embed, view=view, ephemeral=False)
        if message_id is None:
            message = await safe_send(self.channel(table), embed=embed, view=view)
            message_id = message.id if message is not None else None
        if message_id is None:
            return
        old = table.message_id
        table.message_id = str(message_id)
        self.message_phase[table.message_id] = "lobby" if table.state is None else "play"
        await self.store.set_message(table.id, table.message_id)
        if old is not None and old != table.message_id:
            await self._retire(table, old)

    async def _retire(self, table: Table, message_id: str) -> None:
        """Tidy a replaced table message: no buttons; a lobby says the game went on below."""
        partial = self.channel(table).get_partial_message(int(message_id))
        if self.message_phase.pop(message_id, None) == "lobby" and table.state is not None:
            embed = closed_embed(table, "The game has started: the table is below.")
            embed.title = f"{table.game.title} - started"
            await safe_edit_message(partial, embed=embed, view=None)
        else:
            await safe_edit_message(partial, view=None)

    async def _edit(self, table: Table) -> None:
        if table.message_id is None:
            await self._post(table, None)
            return
        partial = self.channel(table).get_partial_message(int(table.message_id))
        outcome = await safe_edit_message(partial, embed=table_embed(table), view=table_view(table))
        if outcome is Outcome.GONE:  # someone deleted the table message: post a new one
            table.message_id = None
            await self._post(table, None)

    async def tell(self, table: Table, text: str, mention: str) -> bool:
        return await self._notice(table, text, mention)

    async def _notice(self, table: Table, text: str, mention: str | None) -> bool:
        content = f"<@{mention}> {text}" if mention else text
        allowed = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(id=int(mention))] if mention else False
        )
        return await safe_send(self.channel(table), content=content, allowed_mentions=allowed) is not None

    async def _close(self, table: Table) -> None:
        if table.message_id is None:
            return
        files: list[discord.File] = []
        if table.state is None:
            embed = closed_embed(table, "This table was cancelled.")
        elif table.state.is_over:
            embed = table_embed(table)
            chart = await score_chart_file(table, self.store)
            if chart is not None:
                embed.set_image(url=f"attachment://{chart.filename}")
                files.append(chart)
        else:
            embed = closed_embed(table, "This game was abandoned.")
        partial = self.channel(table).get_partial_message(int(table.message_id))
        extra = {"attachments": files} if files else {}
        await safe_edit_message(partial, embed=embed, view=None, **extra)
        with contextlib.suppress(KeyError):
            del self.message_phase[table.message_id]


async def score_chart_file(table: Table, store: Store) -> discord.File | None:
    """The running scores of a finished match as a PNG, when it had more than one deal."""
    if table.state is None:
        return None
    record = await stored_record(store, table)
    players = [seat.name for seat in table.seats]
    try:  # replaying the match and drawing take a moment: not on the event loop
        png = await asyncio.to_thread(_score_chart_png, table.game, record, players)
    except Exception:  # a chart is a nicety: never let it stop the end of a match
        log.exception("score chart for table %s failed", table.id)
        return None
    return None if png is None else discord.File(io.BytesIO(png), filename="scores.png")


def _score_chart_png(game: Game[Any], record: MatchRecord, players: list[str]) -> bytes | None:
    progression = score_progression(game, record)
    if len(progression) < 3:  # the start and one deal: the final scores say it all
        return None
    return score_chart(f"{game.title} - running scores", players, progression)
