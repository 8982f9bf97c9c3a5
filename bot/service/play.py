"""Play: a player's move (or a referee-table entry) checked, logged, then applied; bots' replies;
what the transport is told after a change; hands delivered at a new deal; the result recorded.

Every method that changes a table expects the caller to hold the channel's lock."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
from collections.abc import Sequence
from typing import Any

from bot.render.text import private_text
from bot.service.core import Core
from bot.service.entries import (
    SeatEntry,
    awaits_last_confirmation,
    referee_seat,
    referee_unrated,
)
from bot.service.hands import DEAL_STARTS, has_secrets, this_deal
from bot.service.model import Table, TableError, User, ranks_with_leaver_last
from bot.service.records import keep_snapshot
from bot.service.timers import Timers
from games.engine import Action, Event, IllegalAction, rank_scores
from games.players import Player, bot_player
from storage.errors import Conflict
from storage.sessions import ResultPlayer, SessionClosed

log = logging.getLogger(__name__)

DMS_CLOSED = "I could not send you a DM: use the Show my hand button (or /hand) to see your cards."
MAX_BOT_STEPS = 10_000
RESULT_DUE = (
    "The game is over, but its result could not be saved yet (the database did not answer). "
    "I keep trying; the table closes once it is saved."
)
RESULT_STILL_DUE = (
    "That game has ended, and its result is still being saved (the database did not answer): "
    "it will be recorded as played, not abandoned. Nothing was changed; try again in a moment."
)
EARLIER_TURN = "That choice is from an earlier turn. Press Show my hand for the current one."


def refusal(table: Table, seat: int, action: Action) -> str | None:
    """The rules' reason why ``action`` is not open to ``seat`` now (a referee table's entry
    names its own seat), or ``None`` when they give none."""
    state = table.state
    if isinstance(action, SeatEntry):
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


LAST_ENTRY = (
    "The game is over. Its result is recorded, rated, once another player confirms the last entry "
    "(Confirm last entry); Undo takes it back, and /abandon records the result unrated."
)


def unrated_reasons(table: Table, referee: bool = True) -> set[str]:
    """Why the match, as it stands, would not be rated (none: it would be). A player who left,
    or whose seat a bot took over after a timeout, keeps it rated: they rank last instead."""
    reasons = set(table.unrated)
    if any(s.bot is not None and s.left_at is None for s in table.seats):
        reasons.add("bot seats")
    if getattr(table.options, "hints", False):
        reasons.add("hints allowed")
    if referee and table.mode == "referee":
        reasons |= referee_unrated(table)
    return reasons


class PlayDesk:
    def __init__(self, core: Core) -> None:
        self.core = core
        self.timers = Timers(core, self.take_over, self.resume)

    async def act(
        self,
        table: Table,
        user: User,
        action: Action | dict[str, Any],
        turn: int | None,
        seat: int | None,
        shown_at: int | None = None,
    ) -> list[Event]:
        """A move by ``user`` (online: their own seat; referee: any seat's entry).

        ``turn`` is the turn the choice was read at (refused if the table has moved since);
        ``shown_at``, the turn the view it was made in was drawn at: a view drawn before the
        user's own last move (or at a turn taken back) is not theirs to click any more."""
        if table.mode != "referee":
            seat = table.seat_of(user.id)
            if seat is None:
                raise TableError("You are not playing at this table.")
        elif not table.is_member(user):
            raise TableError("Only the players at this table (and its host) can make entries.")
        if table.status != "playing" or table.state is None:
            raise TableError("The game has not started yet." if table.status == "lobby" else "This game is over.")
        if table.state.is_over:  # a referee match waiting for its last entry's confirmation
            raise TableError(LAST_ENTRY)
        if turn is not None and turn != table.state.turn:
            raise TableError(EARLIER_TURN)
        if shown_at is not None and (shown_at > table.state.turn or user.id in table.actors[shown_at:]):
            raise TableError(EARLIER_TURN)
        if not isinstance(action, Action):
            try:
                action = table.game.action_from_json(action)
            except ValueError:
                raise TableError("That choice is not one this game understands.") from None
        if table.mode == "referee":
            if isinstance(action, SeatEntry):
                seat, action = action.seat, action.entry
            seat = referee_seat(table, await self.core.settings(table.guild_id), user, action, seat)
        assert seat is not None
        events = await self.apply(table, seat, action, user.id)
        events += await self.run_bots(table)
        await self.after_change(table, events)
        return events

    async def apply(self, table: Table, seat: int, action: Action, actor_id: str | None) -> list[Event]:
        """Check, persist, apply."""
        state = table.state
        assert state is not None
        try:
            state.check(seat, action)
        except IllegalAction as exc:
            raise TableError(str(exc)) from None
        try:
            await self.core.store.append_action(table.id, state.turn, seat, table.game.action_to_json(action), actor_id)
        except Conflict:
            raise TableError("That turn was already played.") from None
        except SessionClosed:
            raise TableError("This game is over.") from None
        table.actors.append(actor_id)
        table.confirmed_by.append(None)
        table.last_change_at = self.core.clock.now()
        events = state.apply(seat, action)
        state.forget_past()  # the stored log is the match's memory; the live state keeps the position
        return events

    async def run_bots(self, table: Table, extra: Sequence[int] = ()) -> list[Event]:
        """Let bot seats (and ``extra`` seats taken over after a timeout) move while they are awaited."""
        state = table.state
        assert state is not None
        events: list[Event] = []
        if table.mode == "referee":  # the cards are real: only the people at the table make entries
            return events
        rng = random.Random(f"{table.seed}:{state.turn}")
        steps = 0
        while not state.is_over and steps < MAX_BOT_STEPS:
            bots = [s for s in sorted(state.awaiting()) if table.seats[s].bot is not None or s in extra]
            if not bots:
                break
            seat = bots[0]
            player = self._player_for(table, seat)
            try:
                # in a worker thread, so a bot that thinks for a while (a solver) leaves the event
                # loop free; the channel's lock keeps everything else off this state meanwhile
                action = await asyncio.to_thread(player.choose, state.view(seat), state.legal_actions(seat), rng)
                events += await self.apply(table, seat, action, None)
            except TableError:
                raise
            except Exception as exc:  # what was played stands; the table's timer tries the bot again
                log.warning("table %s: a bot's move at turn %s could not be stored (%s); trying again shortly",
                            table.id, state.turn, exc)
                break
            steps += 1
            if extra and not (set(extra) & state.awaiting()):
                extra = ()
        return events

    def _player_for(self, table: Table, seat: int) -> Player:
        return bot_player(table.game.id, table.seats[seat].bot or "easy")

    async def take_over(self, table: Table, absent: list[int]) -> list[Event]:
        """Time is up: bots play for the absent awaited seats, whose players rank last as if they
        had left (idling never spares a loser a rated result); they may still come back and play."""
        seats = list(table.seats)
        for s in absent:
            if seats[s].left_at is None:
                seats[s] = dataclasses.replace(seats[s], left_at=table.turn)
        if seats != table.seats:
            await self.core.store.set_seats(table.id, seats)
            table.seats = seats
        names = ", ".join(table.seats[s].name for s in absent)
        turn = table.turn
        played = await self.run_bots(table, extra=absent)
        if table.turn == turn:  # nothing could be stored: the turn timer tries again later
            raise RuntimeError("no move of the take-over could be stored")
        events = [Event(kind="timeout", text=f"Time is up: a bot plays for {names} (who rank last)."), *played]
        await self.after_change(table, events)
        return events

    async def hand_over(self, table: Table, user: User) -> None:
        """A player leaves a game in progress: a bot plays their seat from now on."""
        seat = table.seat_of(user.id)
        if seat is None:
            raise TableError("You are not seated at this table.")
        if table.status != "playing" or table.state is None or table.state.is_over:
            raise TableError("This game is over.")
        seats = list(table.seats)
        left_at = seats[seat].left_at if seats[seat].left_at is not None else table.turn  # a timeout came first
        seats[seat] = dataclasses.replace(seats[seat], bot="easy", left_at=left_at)
        await self.core.store.set_seats(table.id, seats)
        table.seats = seats
        await self.core.notifier.notice(table, f"{user.name} left; a bot plays their seat from now on (and they rank last).")
        await self.after_change(table, await self.run_bots(table))

    async def after_change(self, table: Table, events: Sequence[Event], new_deal: bool = False) -> None:
        """Tell the transport, deliver hands at a new deal, record the result at the end.

        Runs under the channel's lock, so a transport's notifier should hand slow work (message
        edits) to a background task rather than wait for it.
        """
        state = table.state
        assert state is not None
        public = [e for e in events if e.to is None]
        table.recent = this_deal(table.recent + public)
        new_deal = new_deal or any(e.kind in DEAL_STARTS for e in events)
        await self.core.notifier.table_changed(table, public, repost=new_deal)
        if state.is_over:
            if awaits_last_confirmation(table, unrated_reasons(table, referee=False)):
                await self.core.notifier.notice(table, LAST_ENTRY)
                return
            await self.finish(table)
            return
        if new_deal:
            await self._deliver_hands(table)
            try:  # a restart replays from here; without it, from the start
                await keep_snapshot(self.core.store, table)
            except Exception:
                log.warning("table %s: its position at this deal was not saved", table.id, exc_info=True)
        self.timers.schedule(table)

    async def _deliver_hands(self, table: Table) -> None:
        settings = await self.core.settings(table.guild_id)
        if not settings.dms_enabled or table.mode == "referee":
            return
        assert table.state is not None
        for seat in table.human_seats():
            user_id = table.seats[seat].user_id
            if user_id is None or not has_secrets(table.state, seat):
                continue
            if user_id not in self.core.dm_closed:
                if await self.core.notifier.send_private(table, seat, private_text(table, table.state.view(seat))):
                    continue
                self.core.dm_closed.add(user_id)
                self.core.dm_untold.add(user_id)
                await self.core.store.mark_dm_closed(user_id)
            if user_id in self.core.dm_untold and await self.core.notifier.tell(table, DMS_CLOSED, user_id):
                self.core.dm_untold.discard(user_id)  # told once; until then, at every deal
                await self.core.store.mark_dm_told(user_id)

    async def finish(self, table: Table) -> None:
        state = table.state
        assert state is not None and state.outcome is not None
        outcome = state.outcome
        team_of = {seat: t for t, team in enumerate(outcome.teams or []) for seat in team}
        ranks = ranks_with_leaver_last(outcome.ranks, table.first_leaver())
        players = [
            ResultPlayer(i, s.name, s.user_id, outcome.scores[i], ranks[i], team_of.get(i))
            for i, s in enumerate(table.seats)
        ]
        reasons = unrated_reasons(table)
        rated = not reasons  # every seat a person, or a person who left mid-game (see "bot seats")
        try:
            await self.core.store.record_result(
                table.id,
                guild_id=table.guild_id,
                game=table.game.id,
                rated=rated,
                outcome=outcome.model_dump(mode="json"),
                players=players,
                unrated=sorted(reasons),
                mode=table.mode,
            )
        except SessionClosed:  # stored already (a write whose answer was lost): what is stored stands
            pass
        except Exception as exc:  # kept open and tried again until stored; never abandoned
            log.warning("table %s: the result could not be stored (%s); trying again shortly", table.id, exc)
            if not table.result_due:
                table.result_due = True
                await self.core.notifier.notice(table, RESULT_DUE)
            self.timers.schedule(table)
            return
        table.result_due = False
        table.unrated = reasons
        self.timers.stop(table)
        self.core.registry.drop(table)
        await self.core.notifier.table_closed(table)

    async def resume(self, table: Table) -> None:
        """Try again what a failed write left undone: the result of a match that ended, or the
        bots' turn (the caller holds the channel's lock)."""
        if table.result_due:
            await self.finish(table)
            return
        await self.after_change(table, await self.run_bots(table))

    async def settle_result(self, table: Table | None) -> None:
        """Before the channel is used for something else: store the result of its ended match
        now, if it is still due (the caller holds the channel's lock)."""
        if table is not None and table.result_due:
            await self.finish(table)

    async def abandon(self, table: Table, user: User) -> None:
        """End a match in play without a result of record (the host or a moderator). A player
        may not end a rated match they are playing once it is under way: that would spare a loser
        their result (they may /leave, and rank last). A referee match that is over but waits for
        its last entry's confirmation is recorded as it stands (unrated), never as abandoned."""
        assert table.state is not None
        state = table.state
        if state.is_over or table.result_due:  # an ended match is stored as played, never abandoned
            await self.finish(table)
            if table.result_due:
                raise TableError(RESULT_STILL_DUE)
            return
        seat = table.seat_of(user.id)
        others = [i for i, s in enumerate(table.seats) if i != seat and s.bot is None and s.left_at is None]
        if seat is not None and others and state.turn > 0 and not unrated_reasons(table):
            raise TableError(
                "You are playing in this rated match, so ending it would spare you its result. "
                "Play on, or /leave: a bot takes your seat and you rank last. A moderator who is "
                "not playing can end it."
            )
        ranks = rank_scores(state.scores)
        players = [ResultPlayer(i, s.name, s.user_id, state.scores[i], ranks[i]) for i, s in enumerate(table.seats)]
        reasons = {*table.unrated, "abandoned"}
        await self.core.store.record_result(
            table.id,
            guild_id=table.guild_id,
            game=table.game.id,
            rated=False,
            outcome={"scores": state.scores, "abandoned_by": user.id},
            players=players,
            status="abandoned",
            unrated=sorted(reasons),
            mode=table.mode,
        )
        table.unrated = reasons
        self.core.registry.drop(table)
        await self.core.notifier.notice(table, f"{user.name} abandoned the game of {table.game.title}.")
        await self.core.notifier.table_closed(table)
