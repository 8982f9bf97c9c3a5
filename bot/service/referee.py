"""Referee mode: a table for people playing with real cards, where the bot keeps score and checks
each entry; confirmation by a second player, undo of the last entry, correction of an older one.

The methods that change a table expect the caller to hold the channel's lock and to have checked
(:func:`require_member`) that the user belongs at this referee table."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from typing import Any

from bot.service.core import Core
from bot.service.hands import RECENT_EVENTS
from bot.service.lobby import told_apart
from bot.service.model import Table, TableError, User
from bot.service.play import PlayDesk
from bot.service.records import position, stored_record
from games.engine import Action, Event, GameState, MatchRecord, ReplayError, SetupError
from games.registry import referee_game
from storage.sessions import SeatRecord


def require_member(table: Table, user: User) -> None:
    if table.mode != "referee":
        raise TableError("That is only for referee tables (opened with /referee).")
    if not table.is_member(user) and not user.is_moderator:
        raise TableError("Only the players at this table (and its host) can do that.")


ENTRY_MARK = re.compile(r"(?P<count>\d{1,6})(?:-(?P<digest>[0-9a-f]{8}))?")
"""What a Confirm or an Undo names of the entries its clicker's table showed (see :func:`entry_mark`);
a bare count is what buttons and pages drew before the digest was added."""


def entry_mark(table: Table) -> str:
    """The entries as a table message or a page shows them, for its Confirm and Undo to name:
    ``<count>-<digest>``, the digest over who made and who confirmed each entry and the position
    they lead to. A count alone comes back after an undo and a new entry (or a correction); the
    digest does not, unless the entries lead to the very same table. It is read from the table
    alone, so a restart (which replays the same entries) gives the same mark."""
    digest = hashlib.sha256(json.dumps([list(table.actors), list(table.confirmed_by)]).encode())
    if table.state is not None:
        digest.update(table.state.view(None).model_dump_json().encode())
    return f"{len(table.confirmed_by)}-{digest.hexdigest()[:8]}"


def require_entries(table: Table, seen: str | None, done: str) -> None:
    """Refuse a Confirm or an Undo made on a table showing the entries ``seen`` (their
    :func:`entry_mark`, or their count alone from an older button) when it holds others now
    (``None``: not said, as by a typed command, which names no entry)."""
    found = ENTRY_MARK.fullmatch(seen) if seen is not None else None
    if found is None:
        return
    then, made = int(found["count"]), len(table.confirmed_by)
    changed = then != made or (found["digest"] is not None and seen != entry_mark(table))
    if not changed:
        return
    counts = f"{then} then, {made} now" if then != made else f"{made} then and now, but one was taken back and made again, corrected or confirmed"
    raise TableError(
        f"The entries changed since your table showed them ({counts}): nothing was {done}."
        " Look at the table as it stands and press again if you still mean it."
    )


def require_open(table: Table, ended: bool = False) -> None:
    """The table's entries may change; ``ended``: also once the match is over, while its result
    waits for the last entry's confirmation (which may confirm it, or take it back)."""
    if table.status != "playing" or table.state is None or (table.state.is_over and not ended):
        raise TableError("This game is over: its entries are final.")


class RefereeDesk:
    def __init__(self, core: Core, play: PlayDesk) -> None:
        self.core = core
        self.play = play

    async def open(
        self,
        guild_id: str,
        channel_id: str,
        host: User,
        game_id: str,
        players: Sequence[User | str],
        option_pairs: Sequence[str],
    ) -> Table:
        """Open a referee table (members or guest names). The caller holds the channel's lock."""
        self.core.registry.require_free(guild_id, channel_id)
        try:
            game = referee_game(game_id)
            options = game.parse_options(option_pairs)
            names = [p.name if isinstance(p, User) else p.strip() for p in players]
            if not all(names):
                raise SetupError("Every player needs a name.")
            members = [p.id for p in players if isinstance(p, User)]
            twice = next((p for p in players if isinstance(p, User) and members.count(p.id) > 1), None)
            if twice is not None:
                raise SetupError(f"{twice.name} is named twice: each member takes one seat.")
            names = told_apart(names)  # two members may share a display name: "Sam", "Sam (2)"
            seats = [
                SeatRecord(name=name, user_id=p.id if isinstance(p, User) else None)
                for name, p in zip(names, players, strict=True)
            ]
            game.check_players(len(seats), options)
        except SetupError as exc:
            raise TableError(str(exc)) from None
        table = await self.core.new_table(guild_id, channel_id, game, options, host, seats, mode="referee")
        table.state = game.start(names, options, table.seed)
        await self.core.store.set_status(table.id, "playing")
        table.status = "playing"
        self.core.registry.add(table)
        await self.play.after_change(table, [Event(kind="start", text=f"Refereeing {game.title}.")], new_deal=True)
        return table

    @staticmethod
    def entries(table: Table) -> tuple[int, list[tuple[int, Action]]]:
        """Every entry that may be made now, as (seat, entry), and the turn."""
        state = table.state
        assert state is not None
        return state.turn, [(seat, a) for seat in state.actors() for a in state.legal_actions(seat)]

    async def entry_choices(self, table: Table, entry: int) -> tuple[int, list[Action]]:
        """What could have been entered as entry number ``entry`` (for a correction)."""
        record = await stored_record(self.core.store, table)
        if not 1 <= entry <= len(record.actions):
            raise no_entry(entry, len(record.actions))
        state = replayed(table, record.model_copy(update={"actions": record.actions[: entry - 1]}))
        seat = record.actions[entry - 1][0]
        return seat, state.legal_actions(seat)

    async def confirm(self, table: Table, user: User) -> None:
        """Confirm the last entry; the last of a match records its result (then rated, if
        everyone at the table took part: see ``referee_unrated``)."""
        require_open(table, ended=True)
        if not table.confirmed_by:
            raise TableError("There is no entry to confirm yet.")
        if table.confirmed_by[-1] is not None:
            raise TableError("The last entry is already confirmed.")
        if table.actors[-1] == user.id:
            raise TableError("Another player must confirm your entry.")
        await self.core.store.confirm_action(table.id, len(table.confirmed_by) - 1, user.id)
        table.confirmed_by[-1] = user.id
        event = Event(kind="confirm", text=f"{user.name} confirms the last entry.")
        await self.core.notifier.table_changed(table, [event], repost=False)
        if table.state is not None and table.state.is_over:
            await self.play.finish(table)

    async def undo(self, table: Table, user: User) -> None:
        """Take back the last entry (its author, the host or a moderator), the one that ended the
        match included while its result waits for confirmation."""
        require_open(table, ended=True)
        record = await stored_record(self.core.store, table)
        if not record.actions:
            raise TableError("There is nothing to undo.")
        if table.actors[-1] != user.id and user.id != table.host_id and not user.is_moderator:
            raise TableError("Only the player who made the last entry, or the host, can undo it.")
        label = table.game.action_from_json(record.actions[-1][1]).label()
        rebuilt = replayed(table, record.model_copy(update={"actions": record.actions[:-1]}))
        await self.core.store.undo_action(table.id, len(record.actions) - 1, user.id)
        table.state = rebuilt
        table.actors.pop()
        table.confirmed_by.pop()
        event = Event(kind="undo", text=f"{user.name} took back the last entry ({label}).")
        table.recent_from_position(RECENT_EVENTS, event)
        await self.core.notifier.table_changed(table, [event], repost=False)

    async def correct(self, table: Table, user: User, entry: int, action: Action | dict[str, Any]) -> None:
        """Replace entry number ``entry`` (1-based) by ``action``: the host or a moderator, logged."""
        require_open(table)
        if user.id != table.host_id and not user.is_moderator:
            raise TableError("Only the host or a moderator can correct an earlier entry.")
        record = await stored_record(self.core.store, table)
        if not 1 <= entry <= len(record.actions):
            raise no_entry(entry, len(record.actions))
        if not isinstance(action, Action):
            try:
                action = table.game.action_from_json(action)
            except ValueError:
                raise TableError("That entry is not one this game understands.") from None
        actions = list(record.actions)
        seat, stored = actions[entry - 1]
        previous = table.game.action_from_json(stored)
        if previous == action:
            raise TableError(f"Entry {entry} is already {action.label()}: there is nothing to correct.")
        actions[entry - 1] = (seat, table.game.action_to_json(action))
        rebuilt = replayed(table, record.model_copy(update={"actions": actions}), correcting=True)
        await self.core.store.correct_action(
            table.id, entry - 1, table.game.action_to_json(action), table.game.action_to_json(previous), user.id
        )
        table.state = rebuilt
        table.confirmed_by[entry - 1] = None
        text = f"{user.name} corrected entry {entry}: {previous.label()} becomes {action.label()}."
        event = Event(kind="correct", text=text)
        table.recent_from_position(RECENT_EVENTS, event)
        await self.core.notifier.table_changed(table, [event], repost=False)
        if rebuilt.is_over:
            await self.play.after_change(table, [])


def no_entry(entry: int, made: int) -> TableError:
    """The refusal of an entry number that is not one of the ``made`` entries."""
    if made == 0:
        return TableError(f"There is no entry {entry}: no entry has been made yet.")
    if made == 1:
        return TableError(f"There is no entry {entry}: there is only entry 1 so far.")
    return TableError(f"There is no entry {entry}: the entries are numbered 1 to {made}.")


def replayed(table: Table, record: MatchRecord, correcting: bool = False) -> GameState[Any]:
    """The table's match rebuilt from these entries; an entry that no longer fits is refused."""
    try:
        return position(table, record)
    except ReplayError as exc:
        what = "That correction" if correcting else "That change"
        raise TableError(f"{what} makes entry {exc.number} impossible: {exc.reason}") from None
