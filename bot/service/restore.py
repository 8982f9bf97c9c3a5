"""Restoring open tables at start-up without replaying the world: each table comes back from its
session row alone, and its log is read and replayed on first use (a click, its turn timer, or a
bot's turn). A session whose log no longer replays is marked broken (its log kept for a bug
report), and its channel is freed and told once. Tables in play go on by themselves: a bot whose
turn it is moves, a match whose last move was logged has its result recorded, and each turn's
clock goes on with the time it had left when the bot stopped (see :func:`resumed_clock`)."""

from __future__ import annotations

import asyncio
import gc
import logging
from typing import Any

from bot.service.core import Core
from bot.service.hands import this_deal
from bot.service.model import Column, Table, TableError
from bot.service.play import PlayDesk
from bot.service.records import position, session_record
from games.engine import GameState
from games.registry import get_game, referee_game
from storage.sessions import SessionRecord

log = logging.getLogger(__name__)


class Restorer:
    def __init__(self, core: Core, play: PlayDesk) -> None:
        self.core = core
        self.play = play
        self.resuming: set[asyncio.Task[None]] = set()
        core.registry.loader = self.load_table

    async def load(self) -> int:
        """Restore every open table; returns how many. Its state is rebuilt on first use; a table
        where a bot may be due to move is rebuilt now, in the background."""
        self.core.dm_closed = await self.core.store.dm_closed_users()
        self.core.dm_untold = await self.core.store.dm_untold_users()
        count = 0
        now = self.core.clock.now()
        for record in await self.core.store.open_session_heads():
            if not self.core.registry.serves(record.guild_id):
                continue  # another process's server (a sharded bot)
            try:
                table = table_from_record(record)
            except Exception as exc:  # an unknown game or options: a corrupt session must not stop the bot
                log.exception("could not restore session %s; marking it broken", record.id)
                await self._mark_broken(record.id, record.guild_id, record.channel_id, exc)
                continue
            self.core.registry.add(table)
            count += 1
            if table.status != "playing":
                continue
            table.last_change_at, table.resumed_turn = resumed_clock(record, now), table.turn
            behind = left_behind(record)
            if behind or any(s.bot is not None for s in table.seats):
                task = asyncio.get_running_loop().create_task(
                    self._resume(table, show=behind), name=f"parlour-resume-{table.id}"
                )
                self.resuming.add(task)
                task.add_done_callback(self.resuming.discard)
            else:
                self.play.timers.schedule(table)
        self.play.timers.start_noting()
        settle_memory()
        return count

    async def wait_resumed(self) -> None:
        """Wait until every restored table that may go on by itself has done so."""
        while self.resuming:
            await asyncio.gather(*self.resuming, return_exceptions=True)

    def cancel(self) -> None:
        for task in list(self.resuming):
            task.cancel()

    async def load_table(self, table: Table) -> None:
        """Rebuild a restored table from its stored log (the caller holds the channel's lock); the
        first time a table is loaded, a match whose last move was logged but not its result is
        recorded. A log that no longer replays closes the table as broken."""
        start = await self._snapshot(table)
        record = await self.core.store.session(table.id, from_seq=start.turn if start else 0)
        try:
            if record is None:
                raise LookupError("the session row is gone")
            if start is not None and start.turn > record.action_count:  # never expected: the log is written first
                start, record = None, await self.core.store.session(table.id)
                assert record is not None
            table.state = position(
                table, session_record(table, record), checked=False, start=start, from_turn=record.actions_from
            )
        except Exception as exc:
            log.exception("could not restore session %s; marking it broken", table.id)
            self.core.registry.drop(table)
            await self._mark_broken(table.id, table.guild_id, table.channel_id, exc)
            raise TableError(
                f"The game in this channel (match #{table.id}) could not be restored after a restart; "
                "it has been closed and the channel is free for a new /play."
            ) from None
        table.actors, table.confirmed_by = Column(record.actors), Column(record.confirmed_by)
        settle_memory()
        table.recent = this_deal([e for e in table.state.log if e.to is None])  # as before the restart
        if table.state.is_over:
            await self.play.after_change(table, [])

    async def _snapshot(self, table: Table) -> GameState[Any] | None:
        """The table's position saved at its latest deal start, if this code saved it."""
        if table.mode != "online":
            return None
        saved = await self.core.store.snapshot(table.id)
        return table.game.from_snapshot(saved.state, saved.format) if saved is not None else None

    async def _resume(self, table: Table, show: bool = False) -> None:
        """Let bots whose turn it is move; ``show``: tell the transport of the table as it is even
        if none does (its message was left behind, see :func:`left_behind`)."""
        try:
            async with self.core.registry.lock(table.key):
                if not await self.core.registry.settle(table):  # closed, broken, or finished on loading
                    return
                dealt = show and await self._dealt_since_shown(table)
                events = await self.play.run_bots(table)
                if events or show:
                    await self.play.after_change(table, events, new_deal=dealt)
                else:
                    self.play.timers.schedule(table)
        except Exception:
            log.exception("table %s could not go on after the restart", table.id)

    async def _dealt_since_shown(self, table: Table) -> bool:
        """Whether a deal began after the turn the table's message shows (a process killed on the
        move that ended a deal): then the table is shown as at a new deal (its own message, the
        hands, the deal's snapshot), not edited into the last deal's message. Known from the
        latest deal-start snapshot: taken after that turn, or of an earlier deal than the table's."""
        shown, state = table.shown_turn, table.state
        if shown is None or state is None:
            return False
        saved = await self._snapshot(table)
        return saved is not None and (saved.turn > shown or saved.deal_no != state.deal_no)

    async def _mark_broken(self, session_id: int, guild_id: str, channel_id: str, exc: Exception) -> None:
        reason = f"{type(exc).__name__}: {exc}"[:500]
        await self.core.store.mark_broken(session_id, reason)
        text = (
            f"Sorry: the game in this channel (match #{session_id}) could not be restored after the bot "
            "restarted, so it has been closed and the channel is free for a new /play. Its log is kept "
            "for a bug report."
        )
        try:
            await self.core.notifier.channel_notice(guild_id, channel_id, text)
        except Exception:
            log.exception("could not tell channel %s about broken session %s", channel_id, session_id)


def settle_memory() -> None:
    """Take what is alive now (restored tables, a position just loaded) out of the garbage
    collector's generations: a table in use lives long, and full collections that walked every
    loaded position stalled clicks (about 120-185 ms with 1,000 in memory). The young garbage is
    collected first; a garbage cycle older than that is left until the next restart (rare: the
    service's own objects hold no cycles)."""
    gc.collect(1)
    gc.freeze()


def resumed_clock(record: SessionRecord, now: float) -> float:
    """When the turn's clock of a session restored at ``now`` is taken to have started: the time
    its player had used when the bot stopped (from the last action to the bot's last note that the
    clock ran, see :meth:`storage.sessions.Store.note_clocks`) is kept; the downtime after it is not counted."""
    began = record.last_change_at
    stopped = min(now, max(began, record.clock_at or began))
    return now - max(0.0, stopped - began)


def left_behind(record: SessionRecord) -> bool:
    """Whether a table in play holds moves its message had not shown when the process stopped:
    one killed between acknowledging a move (stored first) and its follow-ups (the message's
    edit, the next player's ping). Known only where the transport notes what it showed; a
    referee table, whose players enter every move themselves at the table, is left as it is."""
    shown = record.shown_turn
    return record.mode == "online" and record.status == "playing" and shown is not None and shown < record.action_count


def table_from_record(record: SessionRecord) -> Table:
    """A stored session as a table; one in play waits for its state (see ``Table.loaded``)."""
    game = referee_game(record.game) if record.mode == "referee" else get_game(record.game)
    return Table(
        id=record.id,
        guild_id=record.guild_id,
        channel_id=record.channel_id,
        game=game,
        options=game.options(record.options),
        host_id=record.host_id,
        seats=record.seats,
        seed=record.seed,
        status=record.status,
        message_id=record.message_id,
        turn_pings=record.turn_pings,
        shown_turn=record.shown_turn,
        unrated=set(record.unrated),
        mode=record.mode,
        stored_turn=record.action_count,
        last_change_at=record.last_change_at,
    )
