"""The table service: one game session per channel, from lobby to result. Transport-neutral.

Discord and the local console both drive this service and listen to it through a
:class:`Notifier`. Every action goes through a per-channel lock, is checked against the rules,
is written to storage, and only then applied and acknowledged; so nothing acknowledged is lost,
and a restart rebuilds every open table by replaying its log.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
import secrets
import sqlite3
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from pydantic import BaseModel

from bot.settings import GuildSettings
from games import advice
from games.cards import parse_card
from games.engine import (
    Action,
    Event,
    Game,
    GameState,
    IllegalAction,
    MatchRecord,
    SetupError,
    View,
    rank_scores,
)
from games.players import Player, bot_player, levels
from games.registry import get_game, referee_game
from storage.sessions import ResultPlayer, SeatRecord, SessionClosed, SessionRecord, Store

log = logging.getLogger(__name__)

RECENT_EVENTS = 8
MAX_BOT_STEPS = 10_000


class TableError(Exception):
    """A refusal to show the user who asked; nothing was changed."""


@dataclass(frozen=True)
class User:
    id: str
    name: str
    is_moderator: bool = False
    """May abandon any table in the channel (Discord: Manage Messages)."""


@dataclass
class Table:
    id: int
    guild_id: str
    channel_id: str
    game: Game[Any]
    options: BaseModel
    host_id: str
    seats: list[SeatRecord]
    seed: int
    status: str = "lobby"
    state: GameState[Any] | None = None
    message_id: str | None = None
    unrated: set[str] = field(default_factory=set)
    recent: list[Event] = field(default_factory=list)
    mode: str = "online"
    """``online`` (the bot deals) or ``referee`` (real cards; people enter what happens)."""
    actors: list[str | None] = field(default_factory=list)
    """Who made each action of the log (``None``: a bot)."""
    confirmed_by: list[str | None] = field(default_factory=list)
    """Referee mode: who confirmed each entry."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    """The channel's lock (the service hands every table of a channel the same one)."""
    timer: asyncio.Task[None] | None = field(default=None, repr=False)
    last_change_at: float = field(default_factory=time.time)
    """When the last action was applied (Unix time): turn timers count from it, across restarts."""

    @property
    def key(self) -> tuple[str, str]:
        return (self.guild_id, self.channel_id)

    @property
    def turn(self) -> int:
        return self.state.turn if self.state is not None else -1

    def is_member(self, user: User) -> bool:
        """Seated, or the host: may make entries at a referee table."""
        return self.seat_of(user.id) is not None or user.id == self.host_id

    def seat_of(self, user_id: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s.user_id == user_id and s.bot is None:
                return i
        return None

    def human_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.bot is None]

    def public_view(self) -> View:
        assert self.state is not None
        return self.state.view(None)

    @property
    def rated(self) -> bool:
        """No reason against it, and every seat a person (or a person who left mid-game)."""
        return not self.unrated and all(s.bot is None or s.left_at is not None for s in self.seats)

    def first_leaver(self) -> int | None:
        left = [(s.left_at, i) for i, s in enumerate(self.seats) if s.left_at is not None]
        return min(left)[1] if left else None


@dataclass
class HandInfo:
    """What a seated player sees privately: their view, what they may do, and at which turn."""

    seat: int
    view: View
    legal: list[Action]
    turn: int
    private_events: list[Event]


class SeatEntry(Action):
    """Referee mode: one entry for a named seat, so that everyone's possible entries can share
    one menu ("Ann / Hearts / Q♥"). The table service unwraps it before the game sees it."""

    kind: Literal["seat_entry"] = "seat_entry"
    seat: int
    name: str
    entry: Action

    @property
    def card(self) -> Any:
        return self.entry.card

    def label(self) -> str:
        return f"{self.name}: {self.entry.label()}"

    def choice_path(self) -> tuple[str, ...]:
        return (self.name, *self.entry.choice_path()[:-1], self.label())


def referee_hand(table: Table, user: User) -> HandInfo:
    """Referee mode: the entries open now, for every seat, as one menu (and the open view)."""
    if not table.is_member(user) and not user.is_moderator:
        raise TableError("Only the players at this table (and its host) can make entries.")
    state = table.state
    if state is None:
        raise TableError("The game has not started yet.")
    legal: list[Action] = []
    if table.status == "playing":
        legal = [
            SeatEntry(seat=seat, name=table.seats[seat].name, entry=a)
            for seat in state.actors()
            for a in state.legal_actions(seat)
        ]
    own = table.seat_of(user.id)
    return HandInfo(own if own is not None else -1, state.view(None), legal, state.turn, [])


def ranks_with_leaver_last(ranks: Sequence[int], leaver: int | None) -> list[int]:
    """The final ranks, except that the first player to walk out of a match is ranked last."""
    if leaver is None:
        return list(ranks)
    others = [i for i in range(len(ranks)) if i != leaver]
    out = [0] * len(ranks)
    for i in others:
        out[i] = 1 + sum(1 for j in others if ranks[j] < ranks[i])
    out[leaver] = len(ranks)
    return out


class Notifier(Protocol):
    """How the service talks back to a transport (Discord, the console, a test)."""

    async def table_changed(self, table: Table, events: Sequence[Event], repost: bool) -> None:
        """Show the table's current public state; ``repost`` asks for a fresh message (new deal)."""

    async def send_private(self, table: Table, seat: int, text: str) -> bool:
        """Send a read-only private message (a DM) to a seat; ``False`` if it cannot be delivered."""

    async def notice(self, table: Table, text: str, mention: str | None = None) -> None:
        """Post a short public line in the table's channel, optionally mentioning a user."""

    async def table_closed(self, table: Table) -> None:
        """The table finished or was cancelled; the transport may tidy up its message."""

    async def channel_notice(self, guild_id: str, channel_id: str, text: str) -> None:
        """Post a short public line in a channel that has no table (one that could not be restored)."""


class TableService:
    """Every operation that changes a table takes its channel's lock first and only then looks the
    table up, so what it checks (status, seats, turn) is what it acts on."""

    def __init__(self, store: Store, notifier: Notifier, *, rng: random.Random | None = None) -> None:
        self.store = store
        self.notifier = notifier
        self.tables: dict[tuple[str, str], Table] = {}
        self.dm_closed: set[str] = set()
        self.rng: random.Random = rng or secrets.SystemRandom()
        """Where match seeds come from: the operating system's secure source unless a test
        injects a seeded generator (a published seed must not help predict the next one)."""
        self._settings: dict[str, GuildSettings] = {}
        self._locks: dict[tuple[str, str], asyncio.Lock] = {}
        self._resuming: set[asyncio.Task[None]] = set()

    # -- start-up ------------------------------------------------------------------------------

    async def load(self) -> int:
        """Rebuild every open table from storage by replaying its log; returns how many.

        A session whose log no longer replays is marked broken (its log is kept), its channel is
        freed and told once. Tables in play then go on by themselves in the background: a bot
        whose turn it is moves, a finished match is recorded, turn timers count from the last
        action (see :meth:`wait_resumed`)."""
        self.dm_closed = await self.store.dm_closed_users()
        count = 0
        for record in await self.store.open_sessions():
            try:
                table = self._table_from_record(record)
            except Exception as exc:  # a corrupt session must not keep the bot from starting
                log.exception("could not restore session %s; marking it broken", record.id)
                await self._mark_broken(record, exc)
                continue
            self._register(table)
            count += 1
            if table.status == "playing":
                task = asyncio.get_running_loop().create_task(self._resume(table), name=f"parlour-resume-{table.id}")
                self._resuming.add(task)
                task.add_done_callback(self._resuming.discard)
        return count

    async def wait_resumed(self) -> None:
        """Wait until every table restored by :meth:`load` has gone on as far as it can alone."""
        while self._resuming:
            await asyncio.gather(*self._resuming, return_exceptions=True)

    async def _resume(self, table: Table) -> None:
        try:
            async with self._channel_lock(table.key):
                if self.tables.get(table.key) is not table or table.status != "playing":
                    return
                assert table.state is not None
                if table.state.is_over:  # the last move was logged, the result was not
                    await self._after_change(table, [])
                    return
                events = await self._run_bots(table)
                if events:
                    await self._after_change(table, events)
                else:
                    self._schedule_timer(table)
        except Exception:
            log.exception("table %s could not go on after the restart", table.id)

    async def _mark_broken(self, record: SessionRecord, exc: Exception) -> None:
        reason = f"{type(exc).__name__}: {exc}"[:500]
        await self.store.mark_broken(record.id, reason)
        text = (
            f"Sorry: the game in this channel (match #{record.id}) could not be restored after the bot "
            "restarted, so it has been closed and the channel is free for a new /play. Its log is kept "
            "for a bug report."
        )
        try:
            await self.notifier.channel_notice(record.guild_id, record.channel_id, text)
        except Exception:
            log.exception("could not tell channel %s about broken session %s", record.channel_id, record.id)

    def _table_from_record(self, record: SessionRecord) -> Table:
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

    async def settings(self, guild_id: str) -> GuildSettings:
        if guild_id not in self._settings:
            self._settings[guild_id] = GuildSettings.model_validate(
                await self.store.guild_settings(guild_id)
            )
        return self._settings[guild_id]

    async def update_settings(self, guild_id: str, settings: GuildSettings) -> None:
        await self.store.set_guild_settings(guild_id, settings.model_dump(mode="json"))
        self._settings[guild_id] = settings

    # -- lookups and the locking rule ----------------------------------------------------------

    def table(self, guild_id: str, channel_id: str) -> Table | None:
        return self.tables.get((guild_id, channel_id))

    def require_table(self, guild_id: str, channel_id: str) -> Table:
        table = self.table(guild_id, channel_id)
        if table is None:
            raise TableError("There is no table in this channel. Open one with /play.")
        return table

    def _channel_lock(self, key: tuple[str, str]) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    def _register(self, table: Table) -> None:
        table.lock = self._channel_lock(table.key)
        self.tables[table.key] = table

    @contextlib.asynccontextmanager
    async def _locked(self, guild_id: str, channel_id: str, session: int | None = None) -> AsyncIterator[Table]:
        """The channel's table, looked up once its lock is held; ``session`` refuses a click meant
        for an earlier table of the channel."""
        async with self._channel_lock((guild_id, channel_id)):
            table = self.require_table(guild_id, channel_id)
            if session is not None and table.id != session:
                raise TableError("That was for an earlier table in this channel, which has closed. /table shows the one here now.")
            try:
                yield table
            except SessionClosed:  # storage knows better than memory (never expected; never a traceback)
                log.warning("table %s: storage refused a write to a closed session", table.id)
                raise TableError("This game is over.") from None

    # -- the lobby -----------------------------------------------------------------------------

    async def open_table(
        self, guild_id: str, channel_id: str, host: User, game_id: str, option_pairs: Sequence[str] = ()
    ) -> Table:
        async with self._channel_lock((guild_id, channel_id)):
            self._require_free(guild_id, channel_id)
            settings = await self.settings(guild_id)
            if settings.allowed_channels and channel_id not in settings.allowed_channels:
                raise TableError("Tables cannot be opened in this channel; ask an admin which channels allow them.")
            try:
                game = get_game(game_id)
                defaults = dict(settings.default_options.get(game.id, {}))
                parsed = game.parse_options(option_pairs)
                given = parsed.model_dump(exclude_unset=True)
                options = game.options({**defaults, **given})
            except SetupError as exc:
                raise TableError(str(exc)) from None
            seats = [SeatRecord(name=host.name, user_id=host.id)]
            seed = self.rng.randrange(2**62)
            session_id = await self._create_session(
                guild_id=guild_id,
                channel_id=channel_id,
                game=game.id,
                options=options.model_dump(mode="json"),
                host_id=host.id,
                seats=seats,
                seed=seed,
            )
            table = Table(session_id, guild_id, channel_id, game, options, host.id, seats, seed)
            self._register(table)
            await self.notifier.table_changed(table, [], repost=True)
        return table

    def _require_free(self, guild_id: str, channel_id: str) -> None:
        existing = self.table(guild_id, channel_id)
        if existing is not None:
            raise TableError(
                f"This channel already has a table of {existing.game.title}. "
                "Use /table to see it, or finish or /abandon it first."
            )

    async def _create_session(self, **fields: Any) -> int:
        try:
            return await self.store.create_session(**fields)
        except sqlite3.IntegrityError:  # another process, or a session this one could not restore
            raise TableError(
                "This channel already has an open table that I could not load. Ask an admin to check the bot's log."
            ) from None

    async def join(self, guild_id: str, channel_id: str, user: User, *, session: int | None = None) -> Table:
        async with self._locked(guild_id, channel_id, session) as table:
            self._require_lobby(table)
            if table.seat_of(user.id) is not None:
                raise TableError("You are already seated at this table.")
            if len(table.seats) >= table.game.max_players:
                raise TableError(f"The table is full: {table.game.title} seats at most {table.game.max_players}.")
            seat = SeatRecord(name=self._unique_name(table, user.name), user_id=user.id)
            await self._save_lobby(table, seats=[*table.seats, seat])
            await self.notifier.table_changed(table, [], repost=False)
        return table

    async def add_bot(
        self, guild_id: str, channel_id: str, user: User, level: str = "easy", *, session: int | None = None
    ) -> Table:
        async with self._locked(guild_id, channel_id, session) as table:
            self._require_lobby(table)
            self._require_seated_or_host(table, user)
            if len(table.seats) >= table.game.max_players:
                raise TableError(f"The table is full: {table.game.title} seats at most {table.game.max_players}.")
            offered = levels(table.game.id)
            if level not in offered:
                raise TableError(f"There is no {level!r} bot for {table.game.title}; choose one of {', '.join(offered)}.")
            number = sum(1 for s in table.seats if s.bot is not None) + 1
            name = f"Bot {number}" if level == "easy" else f"Bot {number} ({level})"
            seat = SeatRecord(name=self._unique_name(table, name), bot=level)
            await self._save_lobby(table, seats=[*table.seats, seat])
            await self.notifier.table_changed(table, [], repost=False)
        return table

    async def leave(
        self, guild_id: str, channel_id: str, user: User, *, session: int | None = None
    ) -> Table | None:
        """Leave a lobby (the table closes if it empties), or hand one's seat in play to a bot."""
        async with self._locked(guild_id, channel_id, session) as table:
            seat = table.seat_of(user.id)
            if seat is None:
                raise TableError("You are not seated at this table.")
            if table.status == "lobby":
                seats = [s for i, s in enumerate(table.seats) if i != seat]
                humans = [s.user_id for s in seats if s.bot is None and s.user_id is not None]
                if not humans:
                    await self._close(table, "cancelled")
                    return None
                host = humans[0] if table.host_id == user.id else table.host_id
                await self._save_lobby(table, seats=seats, host_id=host)
                await self.notifier.table_changed(table, [], repost=False)
                return table
            if table.status != "playing":
                raise TableError("This game is over.")
            seats = list(table.seats)
            seats[seat] = dataclasses.replace(seats[seat], bot="easy", left_at=table.turn)
            await self.store.set_seats(table.id, seats)
            table.seats = seats
            await self.notifier.notice(
                table, f"{user.name} left; a bot plays their seat from now on (and they rank last)."
            )
            await self._after_change(table, await self._run_bots(table))
        return table

    async def set_options(
        self,
        guild_id: str,
        channel_id: str,
        user: User,
        pairs: Sequence[str] | Mapping[str, Any],
        *,
        session: int | None = None,
    ) -> Table:
        """Change lobby options: ``key=value`` strings as typed, or a mapping of values (where
        ``None`` clears an optional value, which a typed pair cannot say)."""
        async with self._locked(guild_id, channel_id, session) as table:
            self._require_lobby(table)
            self._require_host(table, user)
            try:
                if isinstance(pairs, Mapping):
                    given = dict(pairs)
                else:
                    given = table.game.parse_options(pairs).model_dump(exclude_unset=True)
                options = table.game.options({**table.options.model_dump(), **given})
            except SetupError as exc:
                raise TableError(str(exc)) from None
            await self._save_lobby(table, options=options)
            await self.notifier.table_changed(table, [], repost=False)
        return table

    async def start(self, guild_id: str, channel_id: str, user: User, *, session: int | None = None) -> Table:
        async with self._locked(guild_id, channel_id, session) as table:
            self._require_lobby(table)
            self._require_host(table, user)
            try:
                table.game.check_players(len(table.seats), table.options)
            except SetupError as exc:
                raise TableError(str(exc)) from None
            await self.store.set_status(table.id, "playing")
            table.state = table.game.start([s.name for s in table.seats], table.options, table.seed)
            table.status = "playing"
            table.last_change_at = time.time()
            events = [Event(kind="start", text=f"{table.game.title} begins.")]
            events += await self._run_bots(table)
            await self._after_change(table, events, new_deal=True)
        return table

    async def cancel(self, guild_id: str, channel_id: str, user: User, *, session: int | None = None) -> None:
        async with self._locked(guild_id, channel_id, session) as table:
            self._require_lobby(table)
            if user.id != table.host_id and not user.is_moderator:
                raise TableError("Only the host can cancel this table.")
            await self._close(table, "cancelled")

    async def abandon(self, guild_id: str, channel_id: str, user: User, *, session: int | None = None) -> None:
        async with self._locked(guild_id, channel_id, session) as table:
            if user.id != table.host_id and not user.is_moderator:
                raise TableError("Only the host or a moderator (Manage Messages) can abandon this table.")
            if table.status == "lobby":
                await self._close(table, "cancelled")
                return
            assert table.state is not None
            state = table.state
            ranks = rank_scores(state.scores)
            players = [
                ResultPlayer(i, s.name, s.user_id, state.scores[i], ranks[i]) for i, s in enumerate(table.seats)
            ]
            await self.store.record_result(
                table.id,
                guild_id=table.guild_id,
                game=table.game.id,
                rated=False,
                outcome={"scores": state.scores, "abandoned_by": user.id},
                players=players,
                status="abandoned",
                unrated=sorted({*table.unrated, "abandoned"}),
            )
            table.unrated.add("abandoned")
            self._drop(table)
            await self.notifier.notice(table, f"{user.name} abandoned the game of {table.game.title}.")
            await self.notifier.table_closed(table)

    # -- play ----------------------------------------------------------------------------------

    def hand(self, guild_id: str, channel_id: str, user: User) -> HandInfo:
        table = self.require_table(guild_id, channel_id)
        seat = table.seat_of(user.id)
        if seat is None:
            raise TableError("You are not playing at this table.")
        if table.state is None:
            raise TableError("The game has not started yet.")
        state = table.state
        private = [e for e in state.log[-30:] if e.to == seat][-5:]
        return HandInfo(seat, state.view(seat), state.legal_actions(seat), state.turn, private)

    async def hint(self, guild_id: str, channel_id: str, user: User) -> list[str]:
        """The game's advice for the asking player's current choice, from their own view only.

        Offered where the game has a hinter and the table's ``hints`` option is on (such a match
        is not rated)."""
        table = self.require_table(guild_id, channel_id)
        if not advice.has_hints(table.game.id):
            raise TableError(f"There are no hints for {table.game.title}.")
        if not getattr(table.options, "hints", False):
            raise TableError(
                "Hints are off at this table. The host can turn them on in the lobby "
                "(option hints=true); the match is then not rated."
            )
        info = self.hand(guild_id, channel_id, user)
        if not info.legal:
            raise TableError("You have nothing to choose right now; ask again when it is your turn.")
        # a search may take a moment (Parity solves the deal): think in a worker thread
        lines = await asyncio.to_thread(advice.hint, table.game.id, info.view, info.legal)
        return lines or ["No advice for this position."]

    async def analyse(
        self, guild_id: str, channel_id: str, user: User, deal: int | None = None, match_id: int | None = None
    ) -> list[str]:
        """Perfect-play analysis of a finished deal: of the table here, or of a finished match.

        Only deals that are over are analysed, so no hidden card of a deal in play is shown."""
        if match_id is not None:
            from storage import stats

            data = finished_match(await stats.match_json(self.store.conn, guild_id, match_id), match_id)
            if data["mode"] == "referee":
                raise TableError("That match was played with real cards, so the bot never saw the hands.")
            record = record_from_json(data)
        else:
            table = self.require_table(guild_id, channel_id)
            if table.state is None:
                raise TableError("The game has not started yet.")
            if table.mode == "referee":
                raise TableError("This game is played with real cards, so the bot never sees the hands.")
            record = table.game.record(table.state)
            if not table.state.is_over:
                finished = table.state.deal_no - 1
                if finished < 1:
                    raise TableError("No deal has finished yet: ask again after the first one.")
                if deal is not None and deal > finished:
                    raise TableError(f"Deal {deal} is not over yet; deals 1 to {finished} can be analysed.")
                deal = deal or finished
        if not advice.has_analysis(record.game):
            raise TableError(f"There is no analysis for {get_game(record.game).title}.")
        try:
            # a search that may take a second or two: in a worker thread, off the event loop
            return await asyncio.to_thread(advice.analyse, record, deal) or []
        except advice.AnalysisError as exc:
            raise TableError(str(exc)) from None

    async def act(
        self,
        guild_id: str,
        channel_id: str,
        user: User,
        action: Action | dict[str, Any],
        turn: int | None = None,
        seat: int | None = None,
        *,
        session: int | None = None,
    ) -> list[Event]:
        """Apply a player's action: checked, then logged, then applied; returns the events.

        At a referee table any member may enter for any seat (``seat``, or the one awaited seat).
        """
        async with self._locked(guild_id, channel_id, session) as table:
            if table.mode != "referee":
                seat = table.seat_of(user.id)
                if seat is None:
                    raise TableError("You are not playing at this table.")
            elif not table.is_member(user):
                raise TableError("Only the players at this table (and its host) can make entries.")
            if table.status != "playing" or table.state is None:
                raise TableError("The game has not started yet." if table.status == "lobby" else "This game is over.")
            if turn is not None and turn != table.state.turn:
                raise TableError("That choice is from an earlier turn. Press Show my hand for the current one.")
            if not isinstance(action, Action):
                try:
                    action = table.game.action_from_json(action)
                except ValueError:
                    raise TableError("That choice is not one this game understands.") from None
            if table.mode == "referee":
                if isinstance(action, SeatEntry):
                    seat, action = action.seat, action.entry
                seat = await self._referee_seat(table, user, action, seat)
            assert seat is not None
            events = await self._apply(table, seat, action, user.id)
            events += await self._run_bots(table)
            await self._after_change(table, events)
        return events

    async def _apply(self, table: Table, seat: int, action: Action, actor_id: str | None) -> list[Event]:
        """Check, persist, apply. Must hold the table's lock."""
        state = table.state
        assert state is not None
        try:
            state.check(seat, action)
        except IllegalAction as exc:
            raise TableError(str(exc)) from None
        try:
            await self.store.append_action(
                table.id, state.turn, seat, table.game.action_to_json(action), actor_id
            )
        except sqlite3.IntegrityError:
            raise TableError("That turn was already played.") from None
        except SessionClosed:
            raise TableError("This game is over.") from None
        table.actors.append(actor_id)
        table.confirmed_by.append(None)
        table.last_change_at = time.time()
        return state.apply(seat, action)

    async def _run_bots(self, table: Table, extra: Sequence[int] = ()) -> list[Event]:
        """Let bot seats (and ``extra`` seats taken over after a timeout) move while they are awaited."""
        state = table.state
        assert state is not None
        events: list[Event] = []
        rng = random.Random(f"{table.seed}:{state.turn}")
        steps = 0
        while not state.is_over and steps < MAX_BOT_STEPS:
            bots = [s for s in sorted(state.awaiting()) if table.seats[s].bot is not None or s in extra]
            if not bots:
                break
            seat = bots[0]
            player = self._player_for(table, seat)
            # in a worker thread, so a bot that thinks for a while (a solver) leaves the event loop
            # free; the table's lock keeps everything else off this state meanwhile
            action = await asyncio.to_thread(player.choose, state.view(seat), state.legal_actions(seat), rng)
            events += await self._apply(table, seat, action, None)
            steps += 1
            if extra and not (set(extra) & state.awaiting()):
                extra = ()
        return events

    def _player_for(self, table: Table, seat: int) -> Player:
        return bot_player(table.game.id, table.seats[seat].bot or "easy")

    async def _after_change(self, table: Table, events: Sequence[Event], new_deal: bool = False) -> None:
        """Tell the transport, deliver hands at a new deal, record the result at the end.

        Runs under the table's lock, so a transport's notifier should hand slow work (message
        edits) to a background task rather than wait for it.
        """
        state = table.state
        assert state is not None
        public = [e for e in events if e.to is None]
        table.recent = (table.recent + public)[-RECENT_EVENTS:]
        new_deal = new_deal or any(e.kind in ("deal", "new_deal") for e in events)
        await self.notifier.table_changed(table, public, repost=new_deal)
        if state.is_over:
            await self._finish(table)
            return
        if new_deal:
            await self._deliver_hands(table)
        self._schedule_timer(table)

    async def _deliver_hands(self, table: Table) -> None:
        settings = await self.settings(table.guild_id)
        if not settings.dms_enabled or table.mode == "referee":
            return
        from bot.render.text import private_text

        assert table.state is not None
        for seat in table.human_seats():
            user_id = table.seats[seat].user_id
            if user_id is None or user_id in self.dm_closed:
                continue
            text = private_text(table, table.state.view(seat))
            if not await self.notifier.send_private(table, seat, text):
                self.dm_closed.add(user_id)
                await self.store.mark_dm_closed(user_id)
                await self.notifier.notice(
                    table,
                    "I could not send you a DM: use the Show my hand button (or /hand) to see your cards.",
                    mention=user_id,
                )

    async def _finish(self, table: Table) -> None:
        state = table.state
        assert state is not None and state.outcome is not None
        outcome = state.outcome
        team_of = {seat: t for t, team in enumerate(outcome.teams or []) for seat in team}
        ranks = ranks_with_leaver_last(outcome.ranks, table.first_leaver())
        players = [
            ResultPlayer(i, s.name, s.user_id, outcome.scores[i], ranks[i], team_of.get(i))
            for i, s in enumerate(table.seats)
        ]
        if any(s.bot is not None and s.left_at is None for s in table.seats):
            table.unrated.add("bot seats")
        if getattr(table.options, "hints", False):
            table.unrated.add("hints allowed")
        if table.mode == "referee" and any(c is None for c in table.confirmed_by):
            table.unrated.add("referee-mode entries not confirmed")
        await self.store.record_result(
            table.id,
            guild_id=table.guild_id,
            game=table.game.id,
            rated=table.rated,
            outcome=outcome.model_dump(mode="json"),
            players=players,
            unrated=sorted(table.unrated),
            mode=table.mode,
        )
        self._drop(table)
        await self.notifier.table_closed(table)

    # -- referee mode --------------------------------------------------------------------------

    async def open_referee(
        self,
        guild_id: str,
        channel_id: str,
        host: User,
        game_id: str,
        players: Sequence[User | str],
        option_pairs: Sequence[str] = (),
    ) -> Table:
        """Open a referee table for people playing with real cards: members or guest names."""
        async with self._channel_lock((guild_id, channel_id)):
            return await self._open_referee(guild_id, channel_id, host, game_id, players, option_pairs)

    async def _open_referee(
        self,
        guild_id: str,
        channel_id: str,
        host: User,
        game_id: str,
        players: Sequence[User | str],
        option_pairs: Sequence[str],
    ) -> Table:
        self._require_free(guild_id, channel_id)
        try:
            game = referee_game(game_id)
            options = game.parse_options(option_pairs)
            seats = [
                SeatRecord(name=p.name, user_id=p.id) if isinstance(p, User) else SeatRecord(name=p.strip())
                for p in players
            ]
            if any(not s.name for s in seats):
                raise SetupError("Every player needs a name.")
            names = [s.name for s in seats]
            if len(set(names)) != len(names):
                raise SetupError("Two players have the same name: give each a different one.")
            game.check_players(len(seats), options)
        except SetupError as exc:
            raise TableError(str(exc)) from None
        seed = self.rng.randrange(2**62)
        session_id = await self._create_session(
            guild_id=guild_id,
            channel_id=channel_id,
            game=game.id,
            options=options.model_dump(mode="json"),
            host_id=host.id,
            seats=seats,
            seed=seed,
            mode="referee",
        )
        table = Table(session_id, guild_id, channel_id, game, options, host.id, seats, seed, mode="referee")
        table.state = game.start(names, options, seed)
        await self.store.set_status(table.id, "playing")
        table.status = "playing"
        self._register(table)
        await self._after_change(table, [Event(kind="start", text=f"Refereeing {game.title}.")], new_deal=True)
        return table

    def entries(self, guild_id: str, channel_id: str, user: User) -> tuple[int, list[tuple[int, Action]]]:
        """Referee mode: every entry that may be made now, as (seat, entry), and the turn."""
        table = self._referee_table(guild_id, channel_id, user)
        state = table.state
        assert state is not None
        return state.turn, [(seat, a) for seat in state.actors() for a in state.legal_actions(seat)]

    def entry_choices(self, guild_id: str, channel_id: str, user: User, entry: int) -> tuple[int, list[Action]]:
        """Referee mode: what could have been entered as entry number ``entry`` (for a correction)."""
        table = self._referee_table(guild_id, channel_id, user)
        assert table.state is not None
        history = table.state.history
        if not 1 <= entry <= len(history):
            raise TableError(f"There is no entry {entry}: the entries are numbered 1 to {len(history)}.")
        state = self._replayed(table, [a for _, a in history[: entry - 1]], [s for s, _ in history[: entry - 1]])
        seat = history[entry - 1][0]
        return seat, state.legal_actions(seat)

    async def _referee_seat(self, table: Table, user: User, action: Action, seat: int | None) -> int:
        state = table.state
        assert state is not None
        settings = await self.settings(table.guild_id)
        if settings.referee_confirmation and table.confirmed_by and table.confirmed_by[-1] is None:
            raise TableError("The last entry needs confirming by another player first (Confirm).")
        actors = state.actors()
        if seat is not None:
            if seat not in actors:
                raise TableError(f"There is no entry to make for {table.seats[seat].name} now." if 0 <= seat < len(table.seats) else "There is no such player.")
            return seat
        own = table.seat_of(user.id)
        if own is not None and action in state.legal_actions(own):
            return own
        fitting = [s for s in actors if action in state.legal_actions(s)]
        if len(fitting) == 1:
            return fitting[0]
        awaited = sorted(state.awaiting())
        if len(awaited) == 1:
            return awaited[0]
        raise TableError("Say which player this entry is for.")

    async def confirm(self, guild_id: str, channel_id: str, user: User, *, session: int | None = None) -> None:
        async with self._locked_referee(guild_id, channel_id, user, session) as table:
            if not table.confirmed_by:
                raise TableError("There is no entry to confirm yet.")
            if table.confirmed_by[-1] is not None:
                raise TableError("The last entry is already confirmed.")
            if table.actors[-1] == user.id:
                raise TableError("Another player must confirm your entry.")
            seq = len(table.confirmed_by) - 1
            await self.store.confirm_action(table.id, seq, user.id)
            table.confirmed_by[-1] = user.id
            await self.notifier.table_changed(table, [Event(kind="confirm", text=f"{user.name} confirms the last entry.")], repost=False)

    async def undo(self, guild_id: str, channel_id: str, user: User, *, session: int | None = None) -> None:
        """Take back the last entry (its author, the host or a moderator)."""
        async with self._locked_referee(guild_id, channel_id, user, session) as table:
            assert table.state is not None
            if not table.state.history:
                raise TableError("There is nothing to undo.")
            if table.actors[-1] != user.id and user.id != table.host_id and not user.is_moderator:
                raise TableError("Only the player who made the last entry, or the host, can undo it.")
            seq = len(table.state.history) - 1
            label = table.state.history[-1][1].label()
            rebuilt = self._replayed(table, [a for _, a in table.state.history[:-1]], [s for s, _ in table.state.history[:-1]])
            await self.store.undo_action(table.id, seq, user.id)
            table.state = rebuilt
            table.actors.pop()
            table.confirmed_by.pop()
            await self.notifier.table_changed(table, [Event(kind="undo", text=f"{user.name} took back the last entry ({label}).")], repost=False)

    async def correct(
        self,
        guild_id: str,
        channel_id: str,
        user: User,
        entry: int,
        action: Action | dict[str, Any],
        *,
        session: int | None = None,
    ) -> None:
        """Replace entry number ``entry`` (1-based) by ``action``: the host or a moderator, logged."""
        async with self._locked_referee(guild_id, channel_id, user, session) as table:
            if user.id != table.host_id and not user.is_moderator:
                raise TableError("Only the host or a moderator can correct an earlier entry.")
            state = table.state
            assert state is not None
            if not 1 <= entry <= len(state.history):
                raise TableError(f"There is no entry {entry}: the entries are numbered 1 to {len(state.history)}.")
            if not isinstance(action, Action):
                try:
                    action = table.game.action_from_json(action)
                except ValueError:
                    raise TableError("That entry is not one this game understands.") from None
            seats = [s for s, _ in state.history]
            actions = [a for _, a in state.history]
            previous = actions[entry - 1]
            actions[entry - 1] = action
            rebuilt = self._replayed(table, actions, seats, correcting=entry)
            await self.store.correct_action(
                table.id, entry - 1, table.game.action_to_json(action), table.game.action_to_json(previous), user.id
            )
            table.state = rebuilt
            table.confirmed_by[entry - 1] = None
            text = f"{user.name} corrected entry {entry}: {previous.label()} becomes {action.label()}."
            await self.notifier.table_changed(table, [Event(kind="correct", text=text)], repost=False)
            if rebuilt.is_over:
                await self._after_change(table, [])

    def _replayed(self, table: Table, actions: Sequence[Action], seats: Sequence[int], correcting: int | None = None) -> GameState[Any]:
        state = table.game.start([s.name for s in table.seats], table.options, table.seed)
        for i, (seat, action) in enumerate(zip(seats, actions, strict=True), 1):
            try:
                state.apply(seat, action)
            except IllegalAction as exc:
                what = "That correction" if correcting is not None else "That change"
                raise TableError(f"{what} makes entry {i} impossible: {exc}") from None
        return state

    def _referee_table(self, guild_id: str, channel_id: str, user: User) -> Table:
        table = self.require_table(guild_id, channel_id)
        self._require_referee_member(table, user)
        return table

    @contextlib.asynccontextmanager
    async def _locked_referee(
        self, guild_id: str, channel_id: str, user: User, session: int | None
    ) -> AsyncIterator[Table]:
        """A referee table in play, looked up and checked once the channel's lock is held."""
        async with self._locked(guild_id, channel_id, session) as table:
            self._require_referee_member(table, user)
            if table.status != "playing" or table.state is None or table.state.is_over:
                raise TableError("This game is over: its entries are final.")
            yield table

    def _require_referee_member(self, table: Table, user: User) -> None:
        if table.mode != "referee":
            raise TableError("That is only for referee tables (opened with /referee).")
        if not table.is_member(user) and not user.is_moderator:
            raise TableError("Only the players at this table (and its host) can do that.")

    # -- timers --------------------------------------------------------------------------------

    def _schedule_timer(self, table: Table) -> None:
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        if table.mode == "referee":  # people at a real table need no reminders from us
            return
        with contextlib.suppress(RuntimeError):  # no running loop (a synchronous test): no timers
            table.timer = asyncio.get_running_loop().create_task(self._turn_timer(table, table.turn))

    async def _turn_timer(self, table: Table, turn: int) -> None:
        """Remind, then let a bot play for the absent: counted from the last action, so a table
        restored after a restart keeps the time its players already had."""
        settings = await self.settings(table.guild_id)
        remind, timeout = settings.turn_reminder_seconds, settings.turn_timeout_seconds
        waited = min(max(0.0, time.time() - table.last_change_at), float(max(remind, timeout)))
        if remind and (not timeout or remind < timeout):
            await asyncio.sleep(max(0.0, remind - waited))
            if table.turn != turn or table.state is None or table.state.is_over:
                return
            for seat in sorted(table.state.awaiting()):
                if table.seats[seat].bot is None:
                    await self.notifier.notice(table, "It is your turn.", mention=table.seats[seat].user_id)
            if timeout:
                await asyncio.sleep(timeout - max(remind, waited))
        elif timeout:
            await asyncio.sleep(max(0.0, timeout - waited))
        else:
            return
        await self.timeout_now(table, turn)

    async def timeout_now(self, table: Table, turn: int) -> list[Event]:
        """A bot plays every awaited seat whose player is absent, if the turn has not moved on."""
        async with self._channel_lock(table.key):
            state = table.state
            if self.tables.get(table.key) is not table or table.status != "playing":
                return []
            if state is None or state.is_over or table.turn != turn:
                return []
            absent = [s for s in sorted(state.awaiting()) if table.seats[s].bot is None]
            if not absent:
                return []
            table.unrated.add("a bot played for an absent player")
            await self.store.set_unrated(table.id, sorted(table.unrated))
            names = ", ".join(table.seats[s].name for s in absent)
            events = [Event(kind="timeout", text=f"Time is up: a bot plays for {names}.")]
            events += await self._run_bots(table, extra=absent)
            await self._after_change(table, events)
        return events

    # -- helpers -------------------------------------------------------------------------------

    def _require_lobby(self, table: Table) -> None:
        if table.status != "lobby":
            raise TableError("The game has already started.")

    def _require_host(self, table: Table, user: User) -> None:
        if user.id != table.host_id:
            raise TableError("Only the host can do that.")

    def _require_seated_or_host(self, table: Table, user: User) -> None:
        if table.seat_of(user.id) is None and user.id != table.host_id:
            raise TableError("Only players at this table can do that.")

    def _unique_name(self, table: Table, name: str) -> str:
        taken = {s.name for s in table.seats}
        if name not in taken:
            return name
        i = 2
        while f"{name} ({i})" in taken:
            i += 1
        return f"{name} ({i})"

    async def _save_lobby(
        self,
        table: Table,
        *,
        seats: list[SeatRecord] | None = None,
        options: BaseModel | None = None,
        host_id: str | None = None,
    ) -> None:
        """Store the lobby's new seats, options or host, then take them: a failed write changes nothing."""
        seats = table.seats if seats is None else seats
        options = table.options if options is None else options
        host_id = table.host_id if host_id is None else host_id
        await self.store.update_lobby(table.id, options=options.model_dump(mode="json"), seats=seats, host_id=host_id)
        table.seats, table.options, table.host_id = seats, options, host_id

    async def _close(self, table: Table, status: str) -> None:
        await self.store.set_status(table.id, status)
        self._drop(table)
        await self.notifier.table_closed(table)

    def _drop(self, table: Table) -> None:
        table.status = "closed"
        if table.timer is not None and table.timer is not asyncio.current_task():
            table.timer.cancel()
        table.timer = None
        self.tables.pop(table.key, None)

    async def shutdown(self) -> None:
        for task in list(self._resuming):
            task.cancel()
        for table in self.tables.values():
            if table.timer is not None:
                table.timer.cancel()


def finished_match(data: dict[str, Any] | None, match_id: int) -> dict[str, Any]:
    """A stored match (``storage.stats.match_json``) that may be shown in full: it exists on this
    server and is no longer live. A live match's seed, deck and log would rebuild every hidden hand."""
    if data is None:
        raise TableError(f"There is no match #{match_id} on this server. /history lists them.")
    if data.get("live", data["status"] in ("lobby", "playing")):
        raise TableError(
            f"Match #{match_id} is still being played: its record is sealed until it ends (the table message shows where it stands)."
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
