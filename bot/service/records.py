"""Stored matches as shown to people: sealed while live, replayable once over."""

from __future__ import annotations

from typing import Any

from bot.service.model import Table, TableError
from games.engine import GameState, MatchRecord, snapshot_format
from storage.sessions import SessionRecord, Snapshot, Store


def finished_match(data: dict[str, Any] | None, match_id: int) -> dict[str, Any]:
    """A stored match (``storage.stats.match_json``) that may be shown in full: it exists on this
    server and is no longer live. A live match's seed, deck and log would rebuild every hidden hand."""
    if data is None:
        raise TableError(f"There is no match #{match_id} on this server. /history lists them.")
    if data["live"]:
        raise TableError(
            f"Match #{match_id} is still being played: its record is sealed until it ends "
            "(the table message shows where it stands)."
        )
    return data


def record_from_json(data: dict[str, Any]) -> MatchRecord:
    """A stored match (as ``storage.stats.match_json`` gives it) as a replayable record."""
    return MatchRecord(
        game=data["game"],
        options=data["options"],
        players=data["players"],
        seed=data["seed"],
        deck=data["deck"],
        actions=[(seat, action) for seat, action in data["actions"]],
    )


def session_record(table: Table, session: SessionRecord) -> MatchRecord:
    """A stored session of ``table`` as a replayable record."""
    return MatchRecord(
        game=table.game.id,
        options=session.options,
        players=[s.name for s in session.seats],
        seed=session.seed,
        deck=session.deck,
        actions=session.actions,
    )


async def stored_record(store: Store, table: Table) -> MatchRecord:
    """The table's whole match from storage: a live state keeps only its recent past."""
    session = await store.session(table.id)
    if session is None:
        raise TableError("This table's record is missing.")
    return session_record(table, session)


def position(
    table: Table, record: MatchRecord, *, checked: bool = True, start: GameState[Any] | None = None, from_turn: int = 0
) -> GameState[Any]:
    """The position after ``record``, as a live table keeps it (no history; the log is stored).
    Raises :class:`~games.engine.ReplayError` naming an action that no longer applies. Unless
    ``checked``, the actions are taken as legal (a stored log as it was logged, every action
    checked then); ``start`` is a position part-way (a snapshot) and the record holds the actions
    from ``from_turn`` on (see :meth:`~games.engine.Game.replay_steps`)."""
    if start is None:
        start = table.game.start(record.players, record.options, record.seed, record.deck)
    for _ in table.game.replay_steps(record, start, checked=checked, from_turn=from_turn):
        pass
    start.forget_past()
    return start


async def keep_snapshot(store: Store, table: Table) -> None:
    """Save the position of a table in play (at a deal start), so that a restart replays only the
    actions after it. Online mode only: a referee table's entries may be corrected."""
    if table.mode != "online" or table.state is None or table.state.is_over:
        return
    state = table.state
    await store.save_snapshot(table.id, Snapshot(state.turn, snapshot_format(), state.snapshot()))
