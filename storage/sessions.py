# Over 400 lines: the one Store the bot talks to (sessions, their action logs, results of record, guild settings); each method is one query or one transaction on the same connection and ownership fence.
"""Sessions (a table in a channel), their action logs, results of record and per-user flags.

Over 400 lines because :class:`Store` is one class with every write the bot makes, and each of
its statements stands beside the method that runs it."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from storage.db import Database, Ownership, Row, transaction
from storage.open import connect, ownership
from storage.query import Query, cached
from storage.ratings import Placing, update_ratings

OPEN_STATUSES = ("lobby", "playing")
"""A match with either status is live: nothing hidden of it may leave the bot."""


def unix_time(stamp: str) -> float:
    """A stored UTC time stamp (``2026-11-24T10:00:00.123Z``) as a Unix time."""
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


class SessionClosed(Exception):
    """A write that only an open session may take, refused because the session is closed."""


@dataclass
class SeatRecord:
    name: str
    user_id: str | None = None
    bot: str | None = None
    """The bot level playing this seat, or ``None`` for a person."""
    left_at: int | None = None
    """The turn at which the person left a game in progress (a bot plays on for them), or was
    first taken over by a bot after a timeout (they may play on, but rank last all the same)."""

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "user_id": self.user_id, "bot": self.bot, "left_at": self.left_at}


@dataclass
class SessionRecord:
    id: int
    guild_id: str
    channel_id: str
    game: str
    options: dict[str, Any]
    host_id: str
    seats: list[SeatRecord]
    seed: int
    deck: list[list[str]] | None
    status: str
    mode: str = "online"
    message_id: str | None = None
    unrated: list[str] = field(default_factory=list)
    actions: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    actors: list[str | None] = field(default_factory=list)
    """Who entered each action (``None`` for a bot), parallel to ``actions``."""
    confirmed_by: list[str | None] = field(default_factory=list)
    """Who confirmed each referee-mode entry, parallel to ``actions``."""
    last_change_at: float = 0.0
    """When the last action was logged (or the session last changed), as a Unix time."""
    action_count: int = 0
    """How many actions the log holds (``actions`` may be left unread)."""
    clock_at: float | None = None
    """When the bot last noted that this table's turn clock ran (a Unix time; see
    :meth:`Store.note_clocks`), or ``None``."""
    turn_pings: str | None = None
    """The turn pings its Discord messages left up (JSON, the Discord notifier's own; ``None``: none)."""
    shown_turn: int | None = None
    """The turn its table message last showed (``None``: not known, or no transport notes it)."""
    actions_from: int = 0
    """``actions`` holds the log from this action on (``session(..., from_seq=)``); ``actors`` and
    ``confirmed_by`` always hold every action's."""


@dataclass(frozen=True)
class Snapshot:
    """A session's position after its first ``turn`` actions, as the game code ``format`` saved it."""

    turn: int
    format: str
    state: bytes


@dataclass
class ResultPlayer:
    seat: int
    name: str
    user_id: str | None
    score: int
    rank: int
    team: int | None = None


class Store:
    """All reads and writes of sessions. Every write is committed before the method returns, or
    rolled back if it fails (see :func:`storage.db.transaction`)."""

    def __init__(self, conn: Database, process_lock: Ownership | None = None) -> None:
        self.conn = conn
        self._process_lock = process_lock

    @classmethod
    async def open(cls, target: str | Path, *, shared: bool = False) -> Store:
        """Open (and migrate) the database ``target`` names (a SQLite file, or a ``postgresql://``
        URL: see :func:`storage.open.connect`); refuses a database another process is using, unless
        it is ``shared`` by the processes of a sharded bot (which then take shard leases)."""
        lock = ownership(target, shared=shared)
        await lock.acquire()
        try:
            return cls(await connect(target), lock)
        except BaseException:
            await lock.release()
            raise

    async def close(self) -> None:
        try:
            await self.conn.close()
        finally:
            if self._process_lock is not None:
                await self._process_lock.release()

    # -- sessions ------------------------------------------------------------------------------

    _CREATE_SESSION = Query(
        "INSERT INTO sessions (guild_id, channel_id, game, options, host_id, seats, seed, deck, status, mode)"
        " VALUES (:guild_id, :channel_id, :game, :options, :host_id, :seats, :seed, :deck, 'lobby', :mode)"
        " RETURNING id"
    )

    async def create_session(
        self,
        *,
        guild_id: str,
        channel_id: str,
        game: str,
        options: dict[str, Any],
        host_id: str,
        seats: list[SeatRecord],
        seed: int,
        deck: list[list[str]] | None = None,
        mode: str = "online",
    ) -> int:
        """A new session in its lobby. A channel with an open session already raises
        :class:`storage.errors.Conflict` (the unique open-table index), with nothing written."""
        async with transaction(self.conn):
            return await self.conn.insert(
                self._CREATE_SESSION,
                guild_id=guild_id,
                channel_id=channel_id,
                game=game,
                options=json.dumps(options),
                host_id=host_id,
                seats=json.dumps([s.as_json() for s in seats]),
                seed=seed,
                deck=json.dumps(deck) if deck is not None else None,
                mode=mode,
            )

    async def update_lobby(
        self, session_id: int, *, options: dict[str, Any], seats: list[SeatRecord], host_id: str
    ) -> None:
        await self._update(
            session_id,
            options=json.dumps(options),
            seats=json.dumps([s.as_json() for s in seats]),
            host_id=host_id,
        )

    async def set_status(self, session_id: int, status: str) -> None:
        await self._update(session_id, status=status)

    async def mark_broken(self, session_id: int, reason: str) -> None:
        """The session's log no longer replays: close it (freeing its channel), keep its log."""
        await self._update(session_id, status="broken", broken_because=reason)
        await self.drop_snapshot(session_id)

    _SAVE_SNAPSHOT = Query(
        "INSERT INTO snapshots (session_id, turn, format, state)"
        " SELECT :session_id, :turn, :format, :state"
        " WHERE EXISTS (SELECT 1 FROM sessions WHERE id = :session_id AND status = 'playing')"
        " ON CONFLICT (session_id) DO UPDATE SET turn = excluded.turn, format = excluded.format,"
        " state = excluded.state"
    )

    async def save_snapshot(self, session_id: int, snapshot: Snapshot) -> None:
        """Keep ``snapshot`` as the session's (in place of an earlier one) while it is in play."""
        await self.conn.write(
            self._SAVE_SNAPSHOT, session_id=session_id, turn=snapshot.turn, format=snapshot.format, state=snapshot.state
        )

    _SNAPSHOT = Query("SELECT turn, format, state FROM snapshots WHERE session_id = :session_id")

    async def snapshot(self, session_id: int) -> Snapshot | None:
        async with self.conn.execute(self._SNAPSHOT, session_id=session_id) as cur:
            row = await cur.fetchone()
        return Snapshot(row["turn"], row["format"], bytes(row["state"])) if row else None

    _DROP_SNAPSHOT = Query("DELETE FROM snapshots WHERE session_id = :session_id")

    async def drop_snapshot(self, session_id: int) -> None:
        await self.conn.write(self._DROP_SNAPSHOT, session_id=session_id)

    async def set_message(self, session_id: int, message_id: str | None, shown_turn: int | None = None) -> None:
        """The table's message (and, if given, the turn it shows)."""
        if shown_turn is None:
            await self._update(session_id, message_id=message_id)
        else:
            await self._update(session_id, message_id=message_id, shown_turn=shown_turn)

    async def set_turn_pings(self, session_id: int, pings: str | None) -> None:
        """Keep the turn pings a table's messages left up (see ``SessionRecord.turn_pings``)."""
        await self._update(session_id, touch=False, turn_pings=pings)

    async def set_shown_turn(self, session_id: int, turn: int) -> None:
        """The turn the table's message shows now (see ``SessionRecord.shown_turn``)."""
        await self._update(session_id, touch=False, shown_turn=turn)

    async def set_unrated(self, session_id: int, reasons: list[str]) -> None:
        await self._update(session_id, unrated=json.dumps(sorted(set(reasons))))

    async def set_seats(self, session_id: int, seats: list[SeatRecord]) -> None:
        await self._update(session_id, seats=json.dumps([s.as_json() for s in seats]))

    async def _update(self, session_id: int, touch: bool = True, **values: Any) -> None:
        """Set the columns ``values`` names (the few shapes the methods above use, each one query).
        ``touch``: the table changed (``updated_at``, from which a turn's clock runs before the
        first action); not for what only the messages' bookkeeping notes (pings up, the turn shown)."""
        sets = ", ".join(f"{column} = :{column}" for column in values)
        stamp = ", updated_at = {now}" if touch else ""
        query = cached(f"UPDATE sessions SET {sets}{stamp} WHERE id = :session_id")
        await self.conn.write(query, session_id=session_id, **values)

    _KEEP_ACTIVITY = Query(
        "UPDATE sessions SET activity_instance = :instance_id, updated_at = {now}"
        " WHERE id = :session_id AND status IN ('lobby', 'playing')"
    )
    _ACTIVITY_TABLE = Query(
        "SELECT id, guild_id, channel_id, status FROM sessions WHERE activity_instance = :instance_id"
        " ORDER BY id DESC LIMIT 1"
    )

    async def keep_activity(self, session_id: int, instance_id: str) -> bool:
        """Tie the Discord Activity instance launched for a table to it (the latest launch wins);
        whether the table was still open to take it."""
        return await self.conn.write(self._KEEP_ACTIVITY, instance_id=instance_id, session_id=session_id) == 1

    async def activity_table(self, instance_id: str) -> dict[str, Any] | None:
        """The table an Activity instance was launched for (its ``id``, ``guild_id``,
        ``channel_id`` and ``status``), or ``None`` if none was."""
        async with self.conn.execute(self._ACTIVITY_TABLE, instance_id=instance_id) as cur:
            row = await cur.fetchone()
        return None if row is None else {k: row[k] for k in ("id", "guild_id", "channel_id", "status")}

    _NOTE_CLOCK = Query("UPDATE sessions SET clock_at = :at WHERE status = 'playing' AND id = :session_id")

    async def note_clocks(self, session_ids: list[int], at: float) -> None:
        """The turn clocks of these sessions in play ran until ``at`` (a Unix time): a restart
        resumes them from there rather than counting the downtime."""
        async with transaction(self.conn):
            await self.conn.executemany(self._NOTE_CLOCK, [{"at": at, "session_id": sid} for sid in session_ids])

    _APPEND_ACTION = Query(
        "INSERT INTO actions (session_id, seq, seat, action, actor_id)"
        " SELECT :session_id, :seq, :seat, :action, :actor_id"
        " WHERE EXISTS (SELECT 1 FROM sessions WHERE id = :session_id AND status = 'playing')"
    )

    async def append_action(
        self, session_id: int, seq: int, seat: int, action: dict[str, Any], actor_id: str | None
    ) -> None:
        """Log one action durably; a duplicate ``seq`` (a double click racing) raises
        :class:`storage.errors.Conflict` and leaves nothing behind (the failed write is rolled back).
        One statement, committed in one step (:meth:`storage.db.Database.write`): this is the write
        of every move."""
        added = await self.conn.write(
            self._APPEND_ACTION, session_id=session_id, seq=seq, seat=seat, action=json.dumps(action), actor_id=actor_id
        )
        if added != 1:
            raise SessionClosed(f"session {session_id} is not in play: no action can be logged")

    # -- referee-mode entries -----------------------------------------------------------------------

    _CONFIRM_ACTION = Query("UPDATE actions SET confirmed_by = :user_id WHERE session_id = :session_id AND seq = :seq")

    async def confirm_action(self, session_id: int, seq: int, user_id: str) -> None:
        async with transaction(self.conn):
            await self.conn.execute(self._CONFIRM_ACTION, user_id=user_id, session_id=session_id, seq=seq)
            await self._log_entry(session_id, seq, "confirm", user_id)

    _ACTION = Query("SELECT action FROM actions WHERE session_id = :session_id AND seq = :seq")
    _DELETE_ACTION = Query("DELETE FROM actions WHERE session_id = :session_id AND seq = :seq")

    async def undo_action(self, session_id: int, seq: int, user_id: str) -> None:
        """Remove the last entry (the caller checks it is the last), keeping a log of it."""
        async with transaction(self.conn):
            await self._require_playing(session_id)
            async with self.conn.execute(self._ACTION, session_id=session_id, seq=seq) as cur:
                row = await cur.fetchone()
            await self.conn.execute(self._DELETE_ACTION, session_id=session_id, seq=seq)
            await self._log_entry(session_id, seq, "undo", user_id, action=row["action"] if row else None)

    _CORRECT_ACTION = Query(
        "UPDATE actions SET action = :action, confirmed_by = NULL WHERE session_id = :session_id AND seq = :seq"
    )

    async def correct_action(
        self, session_id: int, seq: int, action: dict[str, Any], previous: dict[str, Any], user_id: str
    ) -> None:
        """Replace an earlier entry; the correction and what it replaced are logged."""
        async with transaction(self.conn):
            await self._require_playing(session_id)
            await self.conn.execute(self._CORRECT_ACTION, action=json.dumps(action), session_id=session_id, seq=seq)
            await self._log_entry(
                session_id, seq, "correct", user_id, action=json.dumps(action), previous=json.dumps(previous)
            )

    _STATUS = Query("SELECT status FROM sessions WHERE id = :session_id")

    async def _require_playing(self, session_id: int) -> None:
        """A finished match's log is final: undo and correction stop with its result."""
        async with self.conn.execute(self._STATUS, session_id=session_id) as cur:
            row = await cur.fetchone()
        if row is None or row["status"] != "playing":
            raise SessionClosed(f"session {session_id} is not in play: its log is final")

    _ENTRY_LOG = Query(
        "SELECT seq, kind, action, previous, by_user, at FROM entry_log WHERE session_id = :session_id ORDER BY id"
    )

    async def entry_log(self, session_id: int) -> list[dict[str, Any]]:
        async with self.conn.execute(self._ENTRY_LOG, session_id=session_id) as cur:
            return [dict(r) for r in await cur.fetchall()]

    _LOG_ENTRY = Query(
        "INSERT INTO entry_log (session_id, seq, kind, action, previous, by_user)"
        " VALUES (:session_id, :seq, :kind, :action, :previous, :user_id)"
    )

    async def _log_entry(
        self, session_id: int, seq: int, kind: str, user_id: str, *, action: str | None = None, previous: str | None = None
    ) -> None:
        await self.conn.execute(
            self._LOG_ENTRY, session_id=session_id, seq=seq, kind=kind, action=action, previous=previous, user_id=user_id
        )

    _OPEN_SESSION_HEADS = Query(
        "SELECT s.*,"
        " COALESCE((SELECT MAX(seq) + 1 FROM actions a WHERE a.session_id = s.id), 0) AS action_count,"
        " (SELECT created_at FROM actions a WHERE a.session_id = s.id ORDER BY seq DESC LIMIT 1)"
        " AS last_action_at"
        " FROM sessions s WHERE s.status IN ('lobby', 'playing') ORDER BY s.id"
    )

    async def open_session_heads(self) -> list[SessionRecord]:
        """Every table still in its lobby or in play, oldest first, without its log: how many
        actions it has and when the last was logged (a restart reads each log on first use)."""
        # the log's last row by its primary key (seq runs 0..n-1): no scan of the whole log
        async with self.conn.execute(self._OPEN_SESSION_HEADS) as cur:
            rows = await cur.fetchall()
        return [
            self._record(row, [], action_count=row["action_count"], last=row["last_action_at"] or row["updated_at"])
            for row in rows
        ]

    _SESSION = Query("SELECT * FROM sessions WHERE id = :session_id")

    async def session(self, session_id: int, from_seq: int = 0) -> SessionRecord | None:
        """The session with its log (the actions from ``from_seq`` on: see ``actions_from``)."""
        async with self.conn.execute(self._SESSION, session_id=session_id) as cur:
            row = await cur.fetchone()
        return await self._with_actions(row, from_seq) if row else None

    _ACTIONS = Query(
        "SELECT seat, CASE WHEN seq >= :from_seq THEN action END AS action, actor_id, confirmed_by, created_at"
        " FROM actions WHERE session_id = :session_id ORDER BY seq"
    )

    async def _with_actions(self, row: Row, from_seq: int = 0) -> SessionRecord:
        async with self.conn.execute(self._ACTIONS, from_seq=from_seq, session_id=row["id"]) as cur:
            rows = list(await cur.fetchall())
        last = rows[-1]["created_at"] if rows else row["updated_at"]
        return self._record(row, rows, action_count=len(rows), last=last, from_seq=from_seq)

    @staticmethod
    def _record(row: Row, actions: list[Row], *, action_count: int, last: str, from_seq: int = 0) -> SessionRecord:
        return SessionRecord(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            game=row["game"],
            options=json.loads(row["options"]),
            host_id=row["host_id"],
            seats=[SeatRecord(**s) for s in json.loads(row["seats"])],
            seed=row["seed"],
            deck=json.loads(row["deck"]) if row["deck"] else None,
            status=row["status"],
            mode=row["mode"],
            message_id=row["message_id"],
            unrated=json.loads(row["unrated"]),
            actions=[(int(a["seat"]), json.loads(a["action"])) for a in actions[from_seq:]],
            actors=[a["actor_id"] for a in actions],
            confirmed_by=[a["confirmed_by"] for a in actions],
            action_count=action_count,
            last_change_at=unix_time(last),
            clock_at=row["clock_at"],
            turn_pings=row["turn_pings"],
            shown_turn=row["shown_turn"],
            actions_from=min(from_seq, action_count),
        )

    # -- results -------------------------------------------------------------------------------

    _RECORD_RESULT = Query(
        "INSERT INTO results (session_id, guild_id, game, rated, outcome, mode, unrated)"
        " VALUES (:session_id, :guild_id, :game, :rated, :outcome, :mode, :unrated)"
    )
    _RESULT_PLAYER = Query(
        "INSERT INTO result_players (session_id, seat, user_id, name, score, rank, team)"
        " VALUES (:session_id, :seat, :user_id, :name, :score, :rank, :team)"
    )
    _CLOSE_SESSION = Query(
        "UPDATE sessions SET status = :status, unrated = :unrated, updated_at = {now} WHERE id = :session_id"
    )

    async def record_result(
        self,
        session_id: int,
        *,
        guild_id: str,
        game: str,
        rated: bool,
        outcome: dict[str, Any],
        players: list[ResultPlayer],
        status: str = "finished",
        mode: str = "online",
        unrated: list[str] | None = None,
    ) -> None:
        """Store a finished (or abandoned) match, close its session and, when it is rated, update
        the ratings: all in one transaction."""
        reasons = sorted(set(unrated or []))
        if rated and any(p.user_id is None for p in players):
            rated, reasons = False, sorted({*reasons, "guest or bot players"})
        async with transaction(self.conn):
            async with self.conn.execute(self._STATUS, session_id=session_id) as cur:
                row = await cur.fetchone()
            if row is None or row["status"] not in OPEN_STATUSES:
                raise SessionClosed(f"session {session_id} is not open: its result cannot be recorded again")
            await self.conn.execute(
                self._RECORD_RESULT,
                session_id=session_id,
                guild_id=guild_id,
                game=game,
                rated=int(rated),
                outcome=json.dumps(outcome),
                mode=mode,
                unrated=json.dumps(reasons),
            )
            await self.conn.executemany(
                self._RESULT_PLAYER,
                [
                    {"session_id": session_id, "seat": p.seat, "user_id": p.user_id, "name": p.name,
                     "score": p.score, "rank": p.rank, "team": p.team}
                    for p in players
                ],
            )
            await self.conn.execute(self._CLOSE_SESSION, status=status, unrated=json.dumps(reasons), session_id=session_id)
            await self.conn.execute(self._DROP_SNAPSHOT, session_id=session_id)
            if rated:
                await update_ratings(
                    self.conn,
                    session_id=session_id,
                    guild_id=guild_id,
                    game=game,
                    placings=[Placing(p.user_id or "", p.rank, p.team) for p in players],
                    names={p.user_id or "": p.name for p in players},
                )

    _RESULTS = Query(
        "SELECT r.session_id, r.game, r.rated, r.finished_at, p.seat, p.name, p.user_id, p.score,"
        " p.rank FROM results r JOIN result_players p USING (session_id)"
        " WHERE r.session_id IN (SELECT session_id FROM results WHERE guild_id = :guild_id"
        " ORDER BY finished_at DESC, session_id DESC LIMIT :limit)"
        " ORDER BY r.finished_at DESC, r.session_id DESC, p.seat"
    )

    async def results(self, guild_id: str, limit: int = 20) -> list[dict[str, Any]]:
        """The most recent results of a server, newest first, with their players."""
        async with self.conn.execute(self._RESULTS, guild_id=guild_id, limit=limit) as cur:
            rows = await cur.fetchall()
        out: dict[int, dict[str, Any]] = {}
        for row in rows:
            entry = out.setdefault(
                row["session_id"],
                {
                    "session_id": row["session_id"],
                    "game": row["game"],
                    "rated": bool(row["rated"]),
                    "finished_at": row["finished_at"],
                    "players": [],
                },
            )
            entry["players"].append(
                ResultPlayer(row["seat"], row["name"], row["user_id"], row["score"], row["rank"])
            )
        return list(out.values())

    # -- per-user and per-server flags -----------------------------------------------------------

    _DM_CLOSED = Query("SELECT user_id FROM dm_closed")
    _DM_UNTOLD = Query("SELECT user_id FROM dm_closed WHERE told = 0")
    _MARK_DM_CLOSED = Query("INSERT INTO dm_closed (user_id, told) VALUES (:user_id, 0) ON CONFLICT DO NOTHING")
    _MARK_DM_TOLD = Query("UPDATE dm_closed SET told = 1 WHERE user_id = :user_id")

    async def dm_closed_users(self) -> set[str]:
        async with self.conn.execute(self._DM_CLOSED) as cur:
            return {row["user_id"] for row in await cur.fetchall()}

    async def dm_untold_users(self) -> set[str]:
        """Players whose DMs are closed and who have not been told so yet."""
        async with self.conn.execute(self._DM_UNTOLD) as cur:
            return {row["user_id"] for row in await cur.fetchall()}

    async def mark_dm_closed(self, user_id: str) -> None:
        await self.conn.write(self._MARK_DM_CLOSED, user_id=user_id)

    async def mark_dm_told(self, user_id: str) -> None:
        await self.conn.write(self._MARK_DM_TOLD, user_id=user_id)

    _QUIET = Query("SELECT user_id FROM quiet_players")
    _SET_QUIET = Query("INSERT INTO quiet_players (user_id) VALUES (:user_id) ON CONFLICT DO NOTHING")
    _SET_LOUD = Query("DELETE FROM quiet_players WHERE user_id = :user_id")

    async def quiet_players(self) -> set[str]:
        """Players who turned their turn pings off."""
        async with self.conn.execute(self._QUIET) as cur:
            return {row["user_id"] for row in await cur.fetchall()}

    async def set_quiet(self, user_id: str, quiet: bool) -> None:
        await self.conn.write(self._SET_QUIET if quiet else self._SET_LOUD, user_id=user_id)

    _GUILD_SETTINGS = Query("SELECT settings FROM guild_settings WHERE guild_id = :guild_id")
    _SET_GUILD_SETTINGS = Query(
        "INSERT INTO guild_settings (guild_id, settings) VALUES (:guild_id, :settings)"
        " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings"
    )

    async def guild_settings(self, guild_id: str) -> dict[str, Any]:
        async with self.conn.execute(self._GUILD_SETTINGS, guild_id=guild_id) as cur:
            row = await cur.fetchone()
        return json.loads(row["settings"]) if row else {}

    async def set_guild_settings(self, guild_id: str, settings: dict[str, Any]) -> None:
        await self.conn.write(self._SET_GUILD_SETTINGS, guild_id=guild_id, settings=json.dumps(settings))
