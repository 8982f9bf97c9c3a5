"""Restoring open tables at start-up: each rebuilt by replaying its stored log; a session whose
log no longer replays is marked broken (its log kept for a bug report) and its channel freed and
told once. Tables in play then go on by themselves: a bot whose turn it is moves, a match whose
last move was logged has its result recorded, turn timers count from the last action."""

from __future__ import annotations

import asyncio
import logging

from bot.service.core import Core
from bot.service.model import Table
from bot.service.play import PlayDesk
from games.cards import parse_card
from games.registry import get_game, referee_game
from storage.sessions import SessionRecord

log = logging.getLogger(__name__)


class Restorer:
    def __init__(self, core: Core, play: PlayDesk) -> None:
        self.core = core
        self.play = play
        self.resuming: set[asyncio.Task[None]] = set()

    async def load(self) -> int:
        """Restore every open table; returns how many. Tables in play resume in the background."""
        self.core.dm_closed = await self.core.store.dm_closed_users()
        count = 0
        for record in await self.core.store.open_sessions():
            try:
                table = table_from_record(record)
            except Exception as exc:  # a corrupt session must not keep the bot from starting
                log.exception("could not restore session %s; marking it broken", record.id)
                await self._mark_broken(record, exc)
                continue
            self.core.registry.add(table)
            count += 1
            if table.status == "playing":
                task = asyncio.get_running_loop().create_task(self._resume(table), name=f"parlour-resume-{table.id}")
                self.resuming.add(task)
                task.add_done_callback(self.resuming.discard)
        return count

    async def wait_resumed(self) -> None:
        """Wait until every restored table has gone on as far as it can by itself."""
        while self.resuming:
            await asyncio.gather(*self.resuming, return_exceptions=True)

    def cancel(self) -> None:
        for task in list(self.resuming):
            task.cancel()

    async def _resume(self, table: Table) -> None:
        try:
            async with self.core.registry.lock(table.key):
                if not self.core.registry.is_current(table) or table.status != "playing":
                    return
                assert table.state is not None
                if table.state.is_over:  # the last move was logged, the result was not
                    await self.play.after_change(table, [])
                    return
                events = await self.play.run_bots(table)
                if events:
                    await self.play.after_change(table, events)
                else:
                    self.play.timers.schedule(table)
        except Exception:
            log.exception("table %s could not go on after the restart", table.id)

    async def _mark_broken(self, record: SessionRecord, exc: Exception) -> None:
        reason = f"{type(exc).__name__}: {exc}"[:500]
        await self.core.store.mark_broken(record.id, reason)
        text = (
            f"Sorry: the game in this channel (match #{record.id}) could not be restored after the bot "
            "restarted, so it has been closed and the channel is free for a new /play. Its log is kept "
            "for a bug report."
        )
        try:
            await self.core.notifier.channel_notice(record.guild_id, record.channel_id, text)
        except Exception:
            log.exception("could not tell channel %s about broken session %s", record.channel_id, record.id)


def table_from_record(record: SessionRecord) -> Table:
    """A stored session as a table; one in play is rebuilt by replaying its log."""
    game = referee_game(record.game) if record.mode == "referee" else get_game(record.game)
    table = Table(
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
        unrated=set(record.unrated),
        mode=record.mode,
        actors=list(record.actors),
        confirmed_by=list(record.confirmed_by),
        last_change_at=record.last_change_at,
    )
    if record.status == "playing":
        deck = [[parse_card(c) for c in d] for d in record.deck] if record.deck else None
        state = game.start([s.name for s in record.seats], table.options, record.seed, deck)
        for seat, data in record.actions:
            state.apply(seat, game.action_from_json(data))
        table.state = state
    return table
