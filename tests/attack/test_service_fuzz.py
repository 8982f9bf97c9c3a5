"""A fuzz of the table service, for every registered game, online and in referee mode.

Each run opens tables one after another in a channel, with members (and, online, bot seats); it
throws hostile inputs at the lobby, starts the match, and then a random mix: legal moves for the
awaited seats (and, at a referee table, confirmations, undos and corrections), and hostile or
malformed inputs: another seat's moves, stale and future turns, strangers and moderators, junk
JSON (wrong kinds, missing and extra fields, huge numbers, odd unicode), forged seat entries,
out-of-range seats and entry numbers, clicks for another session, lobby operations after the
start, referee operations at an online table, bad hint and analysis requests, tables opened over
it or elsewhere with malformed options or players. Each match is played to its end. After every
input it checks:

- a refusal is a :class:`~bot.tables.TableError` and nothing else (anything else is counted as
  an unhandled error, and so is an error logged by the service);
- a refusal changed nothing: the game state's fingerprint, the seats, the status, the options,
  the host, the authors and confirmations, what the notifier was told, and the database (the
  session's row, actions, result and entry log; how many sessions, results and ratings exist);
- an accepted input leaves storage and memory agreeing: a shadow state fed only the stored
  actions stands where the table's state stands (the table's recent history is the stored tail),
  and the stored authors, confirmations, status, seats, host, options and result are the table's;
- a restart (a fresh service on the same database: ``load`` then ``wait_resumed``) rebuilds the
  same table and writes nothing, and a finished match replays from its stored actions alone.

The default runs are short (one seed per game and mode, about 150 inputs each); the slow run
plays many seeds with many more inputs and prints a line of figures per game and a total.
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import json
import logging
import math
import pickle
import random
import reprlib
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Literal, cast

import pytest

from bot.settings import GuildSettings
from bot.tables import SeatEntry, Table, TableError, TableService, User
from games.engine import Action, Game, GameState, Pass, PlayCard, SetupError
from games.players import levels
from games.registry import all_games, referee_game
from storage.sessions import Store
from tests.bot.conftest import RecordingNotifier, db_path, notifier, service  # noqa: F401  (fixtures)

G = "g1"
ELSEWHERE = "c-elsewhere"
"""A second channel, where malformed tables are opened (and closed again if they open)."""

HUMANS = [User(str(i + 1), name) for i, name in enumerate(["Ann", "Bob", "Cat", "Dan", "Eve"])]
HOST_ONLY = User("77", "Hugh")
"""A referee table's host who is not seated (a member all the same)."""
STRANGER = User("666", "Stranger")
MOD = User("999", "Mod", is_moderator=True)
NEWCOMER = User("555", "Newcomer")
GUESTS = ["Gus", "Ivy", "Jo", "Kit", "Lou", "Max"]

SHORT_OPTIONS: dict[str, list[str]] = {
    "toy": ["deals=1"],
    "hoodwink": ["target=20"],
    "caterpillar": ["games=1"],
    "costly_colours": ["target=61"],
    "parity_for_three": ["match_end=open", "open_deal_cap=1"],
}
"""Options that make a match short, where a game has them (used in about half the runs)."""

MAX_FINISHING_MOVES = 5_000
"""Legal moves allowed, after the fuzzing budget, to bring a match to its end."""

Expect = Literal["accept", "refuse", "either"]
Op = Callable[[], Awaitable[object]]


def games_and_modes() -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for game in all_games():
        out.append((game.id, "online"))
        try:
            referee_game(game.id)
        except SetupError:
            continue
        out.append((game.id, "referee"))
    return out


# -- figures -------------------------------------------------------------------------------------


@dataclass
class Figures:
    label: str
    inputs: int = 0
    accepted: int = 0
    refused: int = 0
    matches: int = 0
    finished: int = 0
    seconds: float = 0.0
    unhandled: list[str] = field(default_factory=list)
    changed_on_refusal: list[str] = field(default_factory=list)
    wrongly_accepted: list[str] = field(default_factory=list)
    legit_refused: list[str] = field(default_factory=list)
    inconsistent: list[str] = field(default_factory=list)

    def add(self, other: Figures) -> None:
        self.inputs += other.inputs
        self.accepted += other.accepted
        self.refused += other.refused
        self.matches += other.matches
        self.finished += other.finished
        self.seconds += other.seconds
        self.unhandled += other.unhandled
        self.changed_on_refusal += other.changed_on_refusal
        self.wrongly_accepted += other.wrongly_accepted
        self.legit_refused += other.legit_refused
        self.inconsistent += other.inconsistent

    def problems(self) -> list[str]:
        return [
            *(f"unhandled error: {p}" for p in self.unhandled),
            *(f"changed on refusal: {p}" for p in self.changed_on_refusal),
            *(f"accepted, should be refused: {p}" for p in self.wrongly_accepted),
            *(f"legal input refused: {p}" for p in self.legit_refused),
            *(f"inconsistent: {p}" for p in self.inconsistent),
        ]

    def line(self) -> str:
        return (
            f"{self.label:<28} inputs {self.inputs:6d}  accepted {self.accepted:6d}  refused {self.refused:6d}"
            f"  unhandled {len(self.unhandled):3d}  changed-on-refusal {len(self.changed_on_refusal):3d}"
            f"  wrongly-accepted {len(self.wrongly_accepted):3d}  legal-refused {len(self.legit_refused):3d}"
            f"  inconsistent {len(self.inconsistent):3d}  finished {self.finished}/{self.matches}"
            f"  {self.seconds:6.1f} s"
        )


# -- junk ----------------------------------------------------------------------------------------

HUGE = [10**100, 2**63, -(2**63) - 1, 10**18, -1, 0, 2**31]
WEIRD_TEXT = ["", " ", "💥", "Q♠", "🂡", "\x00", "\ud800", "x" * 10_000, "٣", "null", "{", "QS QS", "-0"]


def position(state: GameState[Any] | None) -> Any:
    """Where a match stands, comparable with ``==``: the state's fingerprint without its record of
    the past (which a live state may forget, keeping only its recent history and events)."""
    if state is None:
        return None
    if not hasattr(state, "fingerprint"):
        return (state.turn, state.view(None).model_dump_json())
    past = {"history", "log", "forgotten"}
    return (state.turn, {k: v for k, v in state.fingerprint().items() if k not in past})


class Frozen:
    """A copy of a value as it is now, compared by content: pickled (much faster than a deep copy),
    and unpickled to compare only when the bytes differ."""

    __hash__ = None  # type: ignore[assignment]

    def __init__(self, data: bytes | None, copied: Any = None) -> None:
        self.data = data
        self.copied = copied

    @classmethod
    def of(cls, value: Any) -> Frozen:
        try:
            return cls(pickle.dumps(value))
        except Exception:  # not picklable: a deep copy then
            return cls(None, copy.deepcopy(value))

    def value(self) -> Any:
        return pickle.loads(self.data) if self.data is not None else self.copied

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Frozen):
            return NotImplemented
        if self.data is not None and self.data == other.data:
            return True
        return bool(self.value() == other.value())


def key_of(game: Game[Any], action: Action) -> str:
    return json.dumps(game.action_to_json(action), sort_keys=True)


def in_order(game: Game[Any], actions: Sequence[Action]) -> list[Action]:
    """Actions in a stable order (a game may list them in the order of a set, which varies from one
    process to the next), so that a seed picks the same moves on every run."""
    return sorted(actions, key=lambda a: key_of(game, a))


def short(value: Any) -> str:
    """A short, safe label for any input (however long or deeply nested)."""
    return reprlib.repr(value)[:60]


def deep(depth: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for _ in range(depth):
        out = {"kind": out}
    return out


def junk_value(rng: random.Random) -> Any:
    return rng.choice(
        [
            rng.choice(HUGE),
            rng.choice(WEIRD_TEXT),
            None,
            True,
            1.5,
            math.nan,
            math.inf,
            [],
            {},
            [rng.choice(HUGE)],
            {"kind": "play"},
        ]
    )


def action_kinds(game: Game[Any]) -> list[str]:
    out: list[str] = []
    for t in game.action_types:
        default = t.model_fields["kind"].default
        if isinstance(default, str):
            out.append(default)
    return out


def junk_payload(rng: random.Random, game: Game[Any], sample: Action | None) -> Any:
    """A malformed action: wrong types, missing or extra fields, huge numbers, odd text, wrong kinds."""
    kinds = action_kinds(game) or ["play"]
    base: dict[str, Any] = game.action_to_json(sample) if sample is not None else {"kind": rng.choice(kinds)}
    pick = rng.randrange(12)
    if pick == 0:
        return rng.choice([None, 5, "x", [], b"bytes", 2**70, "{", '{"kind":', "[" * 5_000, ""])
    if pick == 1:
        return {}
    if pick == 2:
        return {"kind": junk_value(rng)}
    if pick == 3:  # a field missing
        keys = [k for k in base if k != "kind"]
        if keys:
            out = dict(base)
            del out[rng.choice(keys)]
            return out
        return {"kind": rng.choice(kinds), "unexpected": 1}
    if pick == 4:  # an extra field
        return {**base, rng.choice(["extra", "seat", "turn", "kind2", "💥"]): junk_value(rng)}
    if pick == 5:  # a field of the wrong type or size
        keys = [k for k in base if k != "kind"] or ["kind"]
        return {**base, rng.choice(keys): junk_value(rng)}
    if pick == 6:  # another kind of this game, with this action's fields
        return {**base, "kind": rng.choice(kinds)}
    if pick == 7:
        return {"kind": rng.choice(["seat_entry", "knock", "pass", "play", "fold", "undo", "x" * 10_000])}
    if pick == 8:
        return {"kind": "seat_entry", "seat": rng.choice(HUGE), "name": "x", "entry": base}
    if pick == 9:
        return deep(rng.choice([50, 500]))  # deeper, pydantic's own error text overflows the stack
    if pick == 10:
        return json.dumps(base)[: rng.randrange(1, len(json.dumps(base)) + 1)]
    return {rng.choice(WEIRD_TEXT): junk_value(rng) for _ in range(rng.randint(1, 4))}


def bad_option_pairs(rng: random.Random, game: Game[Any]) -> tuple[list[str], bool]:
    """Malformed ``key=value`` options and whether they must be refused (a plain mistake)."""
    fields = game.option_fields()
    certain: list[list[str]] = [
        ["x"],
        ["=5"],
        ["target=abc"] if "target" in {f.name for f in fields} else ["no_such_option=1"],
        ["💥=1"],
        ["x" * 10_000],
        ["first_dealer=0"],
        ["first_dealer=abc"],
        ["first_dealer=" + "9" * 5_000],
        [f"{'y' * 10_000}=1"],
    ]
    if rng.random() < 0.5:
        return rng.choice(certain), True
    if rng.random() < 0.3:
        return ["deals=-5"], False
    f = rng.choice(fields)
    value = rng.choice(["-5", "abc", "", "1.5", "9" * 5_000, "x" * 10_000, "💥", "٣", "maybe", "\ud800"])
    must = f.kind in ("bool", "choice") and value not in f.choices
    return [f"{f.name}={value}"], must


# -- the fuzzer ----------------------------------------------------------------------------------


class Fuzzer:
    """Matches of one game in one mode, fuzzed in one channel; its figures say what it found."""

    def __init__(
        self,
        svc: TableService,
        db_file: Path,
        game_id: str,
        mode: str,
        seed: int,
        *,
        channel: str = "c1",
        budget: int = 150,
        bot_levels: Sequence[str] = ("random", "easy"),
        replay_every: int = 0,
        recorder: RecordingNotifier | None = None,
    ) -> None:
        self.svc = svc
        self.notifier = recorder
        """The service's notifier, if the test has it: a refusal tells nobody anything."""
        self.db_file = db_file
        self.game_id = game_id
        self.mode = mode
        self.rng = random.Random(f"{game_id}:{mode}:{seed}")
        self.channel = channel
        self.budget = budget
        self.bot_levels = [lvl for lvl in levels(game_id) if lvl in bot_levels] or levels(game_id)[:1]
        self.replay_every = replay_every
        self.figures = Figures(f"{game_id} {mode}")
        self._table: Table | None = None
        self.stopped = False
        self.shadow: GameState[Any] | None = None
        """The match rebuilt from the stored actions alone, kept up to date as they are stored."""
        self.shadow_rows: list[tuple[int, str]] = []
        self.lobby_options: dict[str, Any] = {}
        self.members: list[User] = []
        self.game: Game[Any] = referee_game(game_id) if mode == "referee" else all_games_by_id()[game_id]
        self.svc.rng = random.Random(self.rng.randrange(2**62))  # the same deals on every run

    # -- the plumbing ------------------------------------------------------------------------

    @property
    def table(self) -> Table:
        assert self._table is not None
        return self._table

    def live(self) -> Table | None:
        return self.svc.table(G, self.channel)

    def user_of_seat(self, seat: int) -> User | None:
        s = self.table.seats[seat]
        if s.bot is not None or s.user_id is None:
            return None
        return next((u for u in [*HUMANS, HOST_ONLY] if u.id == s.user_id), None)

    def human_seats(self) -> list[int]:
        return [i for i in range(len(self.table.seats)) if self.user_of_seat(i) is not None]

    async def rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        """The rows of ``sql`` read straight from the SQLite file's connection."""
        async with self.svc.store.conn.raw.execute(sql, args) as cur:  # type: ignore[attr-defined]
            return [tuple(r) for r in await cur.fetchall()]

    async def db_snapshot(self) -> tuple[Any, ...]:
        """The table's rows, less ``sessions.clock_at``: the note that its turn clock still ran,
        which any service that shuts down writes (a restart goes by it), not a change of the table."""
        sid = self.table.id
        async with self.svc.store.conn.raw.execute("SELECT * FROM sessions WHERE id = ?", (sid,)) as cur:  # type: ignore[attr-defined]
            names = [d[0] for d in cur.description]
            session = [tuple(v for n, v in zip(names, r, strict=True) if n != "clock_at") for r in await cur.fetchall()]
        return (
            session,
            await self.rows("SELECT * FROM actions WHERE session_id = ? ORDER BY seq", sid),
            await self.rows("SELECT * FROM results WHERE session_id = ?", sid),
            await self.rows("SELECT * FROM result_players WHERE session_id = ? ORDER BY seat", sid),
            await self.rows("SELECT * FROM entry_log WHERE session_id = ? ORDER BY id", sid),
        )

    async def global_snapshot(self) -> tuple[Any, ...]:
        return (
            await self.rows("SELECT COUNT(*), MAX(id) FROM sessions"),
            await self.rows("SELECT COUNT(*) FROM results"),
            await self.rows("SELECT COUNT(*) FROM rating_history"),
        )

    def memory_snapshot(self) -> tuple[Any, ...]:
        t = self.table
        state = t.state
        if state is None:
            fingerprint: Any = None
        elif hasattr(state, "fingerprint"):
            fingerprint = Frozen.of(state.fingerprint())
        else:
            fingerprint = (state.turn, state.view(None).model_dump_json())
        return (
            self.live() is t,
            t.status,
            t.turn,
            fingerprint,
            repr(t.seats),
            repr(t.options),
            t.host_id,
            sorted(t.unrated),
            list(t.actors),
            list(t.confirmed_by),
            self.told(),
        )

    def told(self) -> tuple[int, ...]:
        """How much the notifier has been told so far."""
        n = self.notifier
        if n is None:
            return ()
        return (len(n.changes), len(n.private), len(n.notices), len(n.closed))

    async def snapshot(self) -> tuple[Any, ...]:
        return (self.memory_snapshot(), await self.db_snapshot(), await self.global_snapshot())

    @staticmethod
    def difference(before: tuple[Any, ...], after: tuple[Any, ...]) -> str:
        names = ["memory", "session rows", "database"]
        parts = []
        for name, b, a in zip(names, before, after, strict=True):
            if b != a:
                inner = [i for i, (x, y) in enumerate(zip(b, a, strict=True)) if x != y]
                parts.append(f"{name} {inner}")
        return ", ".join(parts)

    async def attempt(self, label: str, op: Op, expect: Expect, *, read_only: bool = False) -> bool:
        """Run one input and check the invariants; ``True`` if it was accepted."""
        before = await self.snapshot()
        self.figures.inputs += 1
        where = f"{self.game_id} {self.mode} turn {self.table.turn}: {label}"
        try:
            await op()
        except TableError:
            self.figures.refused += 1
            after = await self.snapshot()
            if after != before:
                self.figures.changed_on_refusal.append(f"{where} ({self.difference(before, after)})")
            if expect == "accept":
                self.figures.legit_refused.append(where)
            return False
        except Exception as exc:
            self.figures.unhandled.append(f"{where}: {type(exc).__name__}: {str(exc)[:200]}")
            after = await self.snapshot()
            if after != before:
                self.figures.changed_on_refusal.append(f"{where} after {type(exc).__name__} ({self.difference(before, after)})")
            return False
        self.figures.accepted += 1
        if expect == "refuse":
            self.figures.wrongly_accepted.append(where)
        if read_only:
            after = await self.snapshot()
            if after != before:
                self.figures.changed_on_refusal.append(f"{where} (read-only: {self.difference(before, after)})")
        else:
            await self.check_storage(where)
        return True

    async def check_storage(self, where: str) -> None:
        """The stored log is what memory holds: a shadow state fed the stored actions stands where
        the table's state stands, the stored authors and confirmations are the table's, and the
        stored session (status, seats, host, options, result) matches the table."""
        t = self.table
        state = t.state
        rows = await self.rows(
            "SELECT seq, seat, action, actor_id, confirmed_by FROM actions WHERE session_id = ? ORDER BY seq", t.id
        )
        if [r[0] for r in rows] != list(range(len(rows))):
            self.figures.inconsistent.append(f"{where}: the stored actions are not numbered 0 to {len(rows) - 1}")
        if state is not None:
            problem = self.follow(rows)
            if problem:
                self.figures.inconsistent.append(f"{where}: {problem}")
        if [r[3] for r in rows] != t.actors or [r[4] for r in rows] != t.confirmed_by:
            self.figures.inconsistent.append(f"{where}: stored authors or confirmations differ from memory")
        session = await self.rows("SELECT status, seats, host_id, options FROM sessions WHERE id = ?", t.id)
        status, seats, host_id, options = session[0]
        expected_status = {"lobby": ["lobby"], "playing": ["playing"]}.get(t.status, ["finished", "abandoned", "cancelled"])
        if status not in expected_status:
            self.figures.inconsistent.append(f"{where}: stored status {status}, in memory {t.status}")
        if json.loads(seats) != [s.as_json() for s in t.seats] or host_id != t.host_id:
            self.figures.inconsistent.append(f"{where}: stored seats or host differ from memory")
        if json.loads(options) != t.options.model_dump(mode="json"):
            self.figures.inconsistent.append(f"{where}: stored options differ from memory")
        if t.status == "closed" and state is not None and state.is_over:
            results = await self.rows("SELECT outcome FROM results WHERE session_id = ?", t.id)
            if not results or json.loads(results[0][0])["scores"] != list(state.scores):
                self.figures.inconsistent.append(f"{where}: the finished match has no matching result row")

    def follow(self, rows: Sequence[tuple[Any, ...]]) -> str | None:
        """Bring the shadow state up to the stored log (from the start again if an earlier entry
        changed: an undo or a correction) and compare it with the table's state."""
        t = self.table
        assert t.state is not None
        applied = [(r[1], r[2]) for r in rows]
        if self.shadow is None or applied[: len(self.shadow_rows)] != self.shadow_rows:
            self.shadow = t.game.start([s.name for s in t.seats], t.options, t.seed)
            self.shadow_rows = []
        for seat, data in applied[len(self.shadow_rows):]:
            try:
                self.shadow.apply(seat, t.game.action_from_json(json.loads(data)))
            except Exception as exc:
                self.shadow = None
                return f"the stored log does not replay: {type(exc).__name__}: {exc}"
            self.shadow_rows.append((seat, data))
        if self.shadow.turn != t.state.turn:
            return f"{len(rows)} actions stored, the table is at turn {t.state.turn}"
        if position(self.shadow) != position(t.state):
            return "the stored actions replay to another position than the table's"
        recent = t.state.history
        if recent and [(s, t.game.action_to_json(a)) for s, a in recent] != [
            (seat, json.loads(data)) for seat, data in applied[len(applied) - len(recent):]
        ]:
            return "the table's recent history differs from the stored actions"
        return None

    def logged(self, index: int) -> tuple[int, Action]:
        """Stored action number ``index`` (from 0), as the shadow state last read it (a live state
        may have forgotten its past)."""
        if not 0 <= index < len(self.shadow_rows):
            return 0, Pass()
        seat, data = self.shadow_rows[index]
        return seat, self.table.game.action_from_json(json.loads(data))

    async def check_replay(self, where: str) -> None:
        """A fresh service on the same database rebuilds this table as it is (and writes nothing);
        a finished match replays from its stored actions to the same final state."""
        t = self.table
        before = await self.snapshot()
        store = await Store.open(self.db_file)
        fresh = TableService(store, RecordingNotifier())
        try:
            await fresh.load()
            await fresh.wait_resumed()
            restored = fresh.table(G, self.channel)
            ready = getattr(fresh, "ready", None)  # a table restored without its state loads on first use
            if ready is not None:
                restored = await ready(G, self.channel)
            if self.live() is t:
                if restored is None or restored.id != t.id:
                    self.figures.inconsistent.append(f"{where}: the open table was not restored")
                else:
                    a = (position(restored.state), restored.status, repr(restored.seats), restored.actors,
                         restored.confirmed_by, restored.host_id, repr(restored.options), sorted(restored.unrated))
                    b = (position(t.state), t.status, repr(t.seats), t.actors, t.confirmed_by, t.host_id,
                         repr(t.options), sorted(t.unrated))
                    if a != b:
                        diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
                        self.figures.inconsistent.append(f"{where}: the restored table differs (fields {diff})")
            elif restored is not None and restored.id == t.id:
                self.figures.inconsistent.append(f"{where}: a closed table was restored")
            if t.state is not None and self.live() is not t and t.status == "closed":
                rows = await self.rows("SELECT seq, seat, action FROM actions WHERE session_id = ? ORDER BY seq", t.id)
                self.shadow = None  # replay the whole stored log afresh
                problem = self.follow(rows)
                if problem:
                    self.figures.inconsistent.append(f"{where}: {problem}")
        finally:
            await fresh.shutdown()
            await store.close()
        if await self.snapshot() != before:
            self.figures.inconsistent.append(f"{where}: restoring the table changed it")

    # -- setting up -------------------------------------------------------------------------------

    def options(self) -> list[str]:
        chosen = list(SHORT_OPTIONS.get(self.game_id, [])) if self.rng.random() < 0.5 else []
        names = {f.name for f in self.game.option_fields()}
        if "hints" in names and self.rng.random() < 0.5:
            chosen.append("hints=true")
        try:
            self.game.parse_options(chosen)
        except SetupError:
            return []
        return chosen

    def player_count(self) -> int:
        counts = [c for c in self.game.player_counts if c <= 5] or [min(self.game.player_counts)]
        return self.rng.choice(counts)

    async def open_online(self) -> None:
        n = self.player_count()
        bots = self.rng.randint(0, n - 1)
        host = HUMANS[0]
        self._table = await self.svc.open_table(G, self.channel, host, self.game_id, self.options())
        self.lobby_options = self._table.options.model_dump()
        self.members = [host]
        slots = ["human"] * (n - 1 - bots) + ["bot"] * bots
        self.rng.shuffle(slots)
        for slot in slots:
            if self.rng.random() < 0.5:
                await self.lobby_hostile()
            if slot == "human":
                user = HUMANS[len(self.members)]
                await self.attempt("join", partial(self.svc.join, G, self.channel, user), "accept")
                self.members.append(user)
            else:
                level = self.rng.choice(self.bot_levels)
                adder = self.rng.choice(self.members)
                await self.attempt(f"add_bot {level}", partial(self.svc.add_bot, G, self.channel, adder, level), "accept")
        for _ in range(self.rng.randint(1, 4)):
            await self.lobby_hostile()
        await self.attempt("start", lambda: self.svc.start(G, self.channel, host), "accept")

    async def open_refereed(self) -> None:
        n = self.player_count()
        people = self.rng.randint(1, min(3, n))
        players: list[User | str] = [*HUMANS[:people], *GUESTS[: n - people]]
        self.rng.shuffle(players)
        host = HUMANS[0] if self.rng.random() < 0.7 else HOST_ONLY
        if self.rng.random() < 0.3 and people >= 2:
            await self.svc.update_settings(G, GuildSettings(referee_confirmation=True))
        else:
            await self.svc.update_settings(G, GuildSettings())
        self._table = await self.svc.open_referee(G, self.channel, host, self.game_id, players, self.options())
        self.members = [u for u in players if isinstance(u, User)]
        if host not in self.members:
            self.members.append(host)

    # -- the run ----------------------------------------------------------------------------------

    async def run(self) -> Figures:
        """Matches one after another in the channel, until the budget of inputs is spent."""
        started = time.perf_counter()
        while not self.stopped:
            await self.play_match()
            if self.figures.inputs >= self.budget:
                break
        self.figures.seconds = time.perf_counter() - started
        return self.figures

    async def play_match(self) -> None:
        """One match: set up, fuzzed while the budget lasts (at least a few inputs), played to its end."""
        self._table, self.shadow, self.shadow_rows, self.members = None, None, [], []
        self.figures.matches += 1
        if self.mode == "referee":
            await self.open_refereed()
        else:
            await self.open_online()
        t = self.table
        if t.status != "playing" or t.state is None:
            self.figures.inconsistent.append(f"{self.game_id} {self.mode}: the table did not start")
            self.stopped = True
            return
        await self.check_storage("after the start")
        steps = 0
        budget = max(self.budget, self.figures.inputs + 30)
        while self.figures.inputs < budget and self.live() is t and not self.stopped:
            steps += 1
            if self.rng.random() < 0.45:
                await self.legal_input()
            else:
                await self.hostile_input()
            if self.replay_every and steps % self.replay_every == 0:
                await self.check_replay(f"replay at step {steps}")
        if self.live() is t:
            await self.check_replay("replay at the end of the fuzz")
        moves = stuck = 0
        while self.live() is t and moves < MAX_FINISHING_MOVES and not self.stopped:
            refused = len(self.figures.legit_refused)
            await self.legal_input(plain=True)
            moves += 1
            stuck = stuck + 1 if len(self.figures.legit_refused) > refused else 0
            if stuck >= 20:
                self.figures.inconsistent.append(f"{self.game_id} {self.mode}: 20 legal moves in a row refused")
                self.stopped = True
        if self.stopped:
            return  # already reported
        if self.live() is t:
            self.figures.inconsistent.append(f"{self.game_id} {self.mode}: the match did not end in {MAX_FINISHING_MOVES} moves")
            self.stopped = True
            return
        await self.after_the_end()

    async def after_the_end(self) -> None:
        t = self.table
        results = await self.rows("SELECT COUNT(*) FROM results WHERE session_id = ?", t.id)
        if t.state is not None and t.state.is_over and results[0][0] == 1:
            self.figures.finished += 1
        else:
            self.figures.inconsistent.append(f"{self.game_id} {self.mode}: closed without a result row")
        await self.check_storage("after the end")
        await self.check_replay("replay after the end")
        for _ in range(6):  # the channel has no table now: everything is refused
            await self.hostile_after_end()

    # -- legal inputs -----------------------------------------------------------------------------

    async def legal_input(self, plain: bool = False) -> None:
        if self.mode == "referee":
            await self.referee_legal(plain)
        else:
            await self.online_legal(plain)

    async def online_legal(self, plain: bool) -> None:
        t = self.table
        state = t.state
        assert state is not None
        movers = [s for s in self.human_seats() if state.legal_actions(s)]
        if not movers:
            self.figures.inconsistent.append(f"{self.game_id} online turn {t.turn}: no person can move, yet the match goes on")
            self.stopped = True
            return
        awaited = [s for s in movers if s in state.awaiting()]
        seat = self.rng.choice(awaited) if awaited and self.rng.random() < 0.9 else self.rng.choice(movers)
        user = self.user_of_seat(seat)
        assert user is not None
        try:
            info = self.svc.hand(G, self.channel, user)
        except Exception as exc:
            self.figures.inconsistent.append(f"{self.game_id} online turn {t.turn}: {user.name}'s hand: {type(exc).__name__}: {exc}")
            self.stopped = True
            return
        action = self.rng.choice(in_order(self.game, info.legal))
        if plain:
            await self.attempt("move", lambda: self.svc.act(G, self.channel, user, action, info.turn), "accept")
            return
        r = self.rng.random()
        if r < 0.04:
            await self.double_click(user, action, info.turn)
        elif r < 0.05 and len(self.human_seats()) > 1:
            await self.attempt("leave (a player)", lambda: self.svc.leave(G, self.channel, user), "accept")
        else:
            payload: Action | dict[str, Any] = self.game.action_to_json(action) if r < 0.25 else action
            turn = None if r > 0.9 else info.turn
            await self.attempt("move", lambda: self.svc.act(G, self.channel, user, payload, turn), "accept")

    async def double_click(self, user: User, action: Action, turn: int, seat: int | None = None) -> None:
        """The same choice sent twice at once: exactly one goes through."""
        self.figures.inputs += 2
        where = f"{self.game_id} {self.mode} turn {turn}: double click"
        outcomes = await asyncio.gather(
            self.svc.act(G, self.channel, user, action, turn, seat),
            self.svc.act(G, self.channel, user, action, turn, seat),
            return_exceptions=True,
        )
        ok = [o for o in outcomes if not isinstance(o, BaseException)]
        refused = [o for o in outcomes if isinstance(o, TableError)]
        other = [o for o in outcomes if isinstance(o, BaseException) and not isinstance(o, TableError)]
        self.figures.accepted += len(ok)
        self.figures.refused += len(refused)
        self.figures.unhandled += [f"{where}: {type(o).__name__}: {o}" for o in other]
        if len(ok) != 1 or len(refused) != 1:
            self.figures.inconsistent.append(f"{where}: {len(ok)} accepted, {len(refused)} refused")
        await self.check_storage(where)

    async def referee_legal(self, plain: bool) -> None:
        t = self.table
        member = self.rng.choice(self.members)
        if await self.needs_confirming():
            confirmer = self.rng.choice([m for m in self.members if m.id != t.actors[-1]] or [MOD])
            await self.attempt("confirm", lambda: self.svc.confirm(G, self.channel, confirmer), "accept")
            return
        try:
            turn, entries = self.svc.entries(G, self.channel, member)
        except Exception as exc:
            self.figures.inconsistent.append(f"{self.game_id} referee turn {t.turn}: the entries: {type(exc).__name__}: {exc}")
            self.stopped = True
            return
        if not entries:
            self.figures.inconsistent.append(f"{self.game_id} referee turn {turn}: no entry is open, yet the match goes on")
            self.stopped = True
            return
        seat, action = self.rng.choice(sorted(entries, key=lambda e: (e[0], key_of(self.game, e[1]))))
        r = 1.0 if plain else self.rng.random()
        assert t.state is not None
        if r < 0.04:
            await self.double_click(member, action, turn, seat)
        elif r < 0.09 and t.turn > 0:
            undoer = self.rng.choice([u for u in [*self.members, MOD] if u.id in (t.actors[-1], t.host_id) or u.is_moderator])
            await self.attempt("undo", lambda: self.svc.undo(G, self.channel, undoer), "accept")
        elif r < 0.13 and t.turn > 0:
            await self.legal_correction()
        elif r < 0.18 and t.turn > 0 and t.confirmed_by[-1] is None:
            others = [m for m in self.members if m.id != t.actors[-1]]
            if others:
                confirmer = self.rng.choice(others)
                await self.attempt("confirm", lambda: self.svc.confirm(G, self.channel, confirmer), "accept")
        elif r < 0.3:
            entry = SeatEntry(seat=seat, name=t.seats[seat].name, entry=action)
            await self.attempt("seat entry", lambda: self.svc.act(G, self.channel, member, entry, turn), "accept")
        elif r < 0.4:  # no seat said: the service works it out, or asks
            await self.attempt("entry, no seat", lambda: self.svc.act(G, self.channel, member, action, turn), "either")
        elif r < 0.5:
            data = self.game.action_to_json(action)
            await self.attempt("entry as JSON", lambda: self.svc.act(G, self.channel, member, data, turn, seat), "accept")
        else:
            await self.attempt("entry", lambda: self.svc.act(G, self.channel, member, action, turn, seat), "accept")

    async def needs_confirming(self) -> bool:
        t = self.table
        settings = await self.svc.settings(G)
        return settings.referee_confirmation and bool(t.confirmed_by) and t.confirmed_by[-1] is None

    async def legal_correction(self) -> None:
        t = self.table
        assert t.state is not None
        fixer = self.rng.choice([u for u in [*self.members, MOD] if u.id == t.host_id or u.is_moderator])
        entry = self.rng.randint(1, t.turn)
        try:
            _seat, choices = await self.entry_choices(fixer, entry)
        except Exception as exc:
            self.figures.inconsistent.append(f"{self.game_id} referee turn {t.turn}: entry {entry}'s choices: {type(exc).__name__}: {exc}")
            return
        replacement = self.rng.choice(in_order(self.game, choices))
        await self.attempt(
            f"correct entry {entry}", lambda: self.svc.correct(G, self.channel, fixer, entry, replacement), "either"
        )

    # -- hostile inputs ---------------------------------------------------------------------------

    async def hostile_input(self) -> None:
        choices: list[tuple[float, Callable[[], Awaitable[None]]]] = [
            (3, self.h_turns),
            (2, self.h_outsider),
            (4, self.h_junk),
            (3, self.h_other_seat),
            (2, self.h_seat_entry),
            (1, self.h_session),
            (2, self.h_lobby_after_start),
            (1, self.h_leave),
            (2, self.h_referee_ops),
            (1, self.h_advice),
            (1, self.h_open),
            (1, self.h_abandon),
            (1, self.h_read_only),
        ]
        if self.mode == "referee":
            choices.append((0.5, self.h_referee_leave))
        weights = [w for w, _ in choices]
        await self.rng.choices([f for _, f in choices], weights)[0]()

    def some_move(self) -> tuple[int, User, Action, int]:
        """A legal move now: (seat, a user who may send it, the action, the turn)."""
        t = self.table
        state = t.state
        assert state is not None
        if self.mode == "referee":
            actors = state.actors()
            seat = self.rng.choice(actors)
            return seat, self.rng.choice(self.members), self.rng.choice(in_order(self.game, state.legal_actions(seat))), state.turn
        seats = [s for s in self.human_seats() if state.legal_actions(s)] or self.human_seats() or [0]
        seat = self.rng.choice(seats)
        user = self.user_of_seat(seat) or HUMANS[0]
        pool = state.legal_actions(seat) or [PlayCard(play=c) for c in state.view(seat).hand] or [Pass()]
        return seat, user, self.rng.choice(in_order(self.game, pool)), state.turn

    def legal_for(self, seat: int | None, payload: Any) -> bool:
        """Could ``payload`` be a legal move for ``seat`` (any seat at a referee table)?"""
        state = self.table.state
        assert state is not None
        try:
            action = payload if isinstance(payload, Action) else self.game.action_from_json(payload)
        except Exception:
            return False
        if isinstance(action, SeatEntry):
            seat, action = action.seat, action.entry
        seats = [seat] if seat is not None else list(range(state.n))
        return any(0 <= s < state.n and action in state.legal_actions(s) for s in seats)

    async def act(self, label: str, user: User, payload: Any, turn: int | None, seat: int | None, expect: Expect,
                  session: int | None = None) -> None:
        await self.attempt(
            label, lambda: self.svc.act(G, self.channel, user, payload, turn, seat, session=session), expect
        )

    async def h_turns(self) -> None:
        seat, user, action, turn = self.some_move()
        wrong = self.rng.choice([turn - 1, turn - self.rng.randint(2, 40), -1, -(10**18), turn + 1,
                                 turn + self.rng.randint(2, 1000), 2**63, 10**100])
        if wrong == turn:
            wrong = turn + 1
        label = "stale turn" if wrong < turn else "future turn"
        await self.act(f"{label} {wrong}", user, action, wrong, seat, "refuse")

    async def h_outsider(self) -> None:
        seat, _user, action, turn = self.some_move()
        user = self.rng.choice([STRANGER, MOD, NEWCOMER])
        await self.act(f"a move by {user.name}", user, action, self.rng.choice([turn, None]), seat, "refuse")

    async def h_junk(self) -> None:
        seat, user, action, turn = self.some_move()
        payload = junk_payload(self.rng, self.game, action)
        legal = self.legal_for(seat if self.mode == "online" else None, payload)
        await self.act(f"junk {short(payload)}", user, payload, turn, seat if self.mode == "referee" else None,
                       "either" if legal else "refuse")

    async def h_other_seat(self) -> None:
        t = self.table
        state = t.state
        assert state is not None
        n = state.n
        a = self.rng.randrange(n)
        b = self.rng.choice([s for s in range(n) if s != a])
        pool = [*state.legal_actions(b)]
        if self.mode == "online":
            pool += [PlayCard(play=c) for c in state.view(b).hand]
        pool += [self.logged(i)[1] for i in range(max(0, state.turn - 5), state.turn)]
        if not pool:
            return await self.h_junk()
        action = self.rng.choice(in_order(self.game, pool))
        if self.mode == "online":
            user = self.user_of_seat(a) or self.rng.choice(self.members)
            own = t.seat_of(user.id)
            expect: Expect = "either" if own is not None and action in state.legal_actions(own) else "refuse"
            await self.act(f"seat {a} sends seat {b}'s {action.label()}", user, action, state.turn, None, expect)
        else:
            expect = "either" if action in state.legal_actions(a) else "refuse"
            await self.act(f"seat {b}'s {action.label()} entered for seat {a}", self.rng.choice(self.members), action,
                           state.turn, a, expect)

    async def h_seat_entry(self) -> None:
        t = self.table
        state = t.state
        assert state is not None
        _seat, user, action, turn = self.some_move()
        fake_seat = self.rng.choice([*range(state.n), -1, state.n, 10**9, -(10**9)])
        name = self.rng.choice([*(s.name for s in t.seats), "💥", "x" * 10_000])
        entry: Any = SeatEntry(seat=fake_seat, name=name, entry=action)
        if self.rng.random() < 0.2:
            entry = SeatEntry(seat=fake_seat, name=name, entry=entry)  # nested
        if self.rng.random() < 0.3:
            entry = entry.model_dump(mode="json")
        if self.mode == "online":
            expect: Expect = "refuse"
        else:
            expect = "either" if isinstance(entry, SeatEntry) and self.legal_for(fake_seat, entry) else "refuse"
        await self.act(f"seat entry forged for seat {fake_seat}", user, entry, turn, None, expect)

    async def h_session(self) -> None:
        seat, user, action, turn = self.some_move()
        wrong = self.rng.choice([self.table.id - 1, self.table.id + 1, 0, -1, 10**12])
        await self.act(f"a click for session {wrong}", user, action, turn, seat, "refuse", session=wrong)

    async def h_lobby_after_start(self) -> None:
        t = self.table
        host = next((u for u in [*HUMANS, HOST_ONLY] if u.id == t.host_id), HUMANS[0])
        anyone = self.rng.choice([host, STRANGER, MOD, NEWCOMER, *self.members])
        pick = self.rng.randrange(7)
        ch = self.channel
        if pick == 0:
            await self.attempt("join after the start", lambda: self.svc.join(G, ch, anyone), "refuse")
        elif pick == 1:
            level = self.rng.choice([*self.bot_levels, "vulcan", "💥", ""])
            await self.attempt("add_bot after the start", lambda: self.svc.add_bot(G, ch, anyone, level), "refuse")
        elif pick == 2:
            pairs, _ = bad_option_pairs(self.rng, self.game)
            await self.attempt("set_options after the start", lambda: self.svc.set_options(G, ch, host, pairs), "refuse")
        elif pick == 3:
            values: dict[Any, Any] = {self.rng.choice(["first_dealer", "deals", "hints", "x", 1]): junk_value(self.rng)}
            await self.attempt("set_options mapping after the start", lambda: self.svc.set_options(G, ch, host, values), "refuse")
        elif pick == 4:
            starter = self.rng.choice([host, anyone])
            await self.attempt("start again", lambda: self.svc.start(G, ch, starter), "refuse")
        else:
            canceller = self.rng.choice([host, MOD, anyone])
            await self.attempt("cancel after the start", lambda: self.svc.cancel(G, ch, canceller), "refuse")

    async def h_leave(self) -> None:
        t = self.table
        outsiders = [STRANGER, MOD, NEWCOMER]
        if t.host_id == HOST_ONLY.id:
            outsiders.append(HOST_ONLY)
        user = self.rng.choice(outsiders)
        await self.attempt(f"leave by {user.name}", lambda: self.svc.leave(G, self.channel, user), "refuse")

    async def h_referee_leave(self) -> None:
        seated = [u for u in self.members if self.table.seat_of(u.id) is not None]
        if seated:
            user = self.rng.choice(seated)
            # the cards are real: no bot may take the seat over (the host can abandon the table)
            await self.attempt(f"leave by {user.name} at a referee table", lambda: self.svc.leave(G, self.channel, user), "refuse")
            self.members = [m for m in self.members if self.table.is_member(m)]

    async def h_referee_ops(self) -> None:
        t = self.table
        state = t.state
        assert state is not None
        ch = self.channel
        n = state.turn
        user = self.rng.choice([*self.members, STRANGER, MOD])
        bad_entry = self.rng.choice([0, -1, n + 1, n + 2, 10**12, -(10**12)])
        pick = self.rng.randrange(6)
        if self.mode == "online":
            if pick == 0:
                await self.attempt("undo online", lambda: self.svc.undo(G, ch, user), "refuse")
            elif pick == 1:
                await self.attempt("confirm online", lambda: self.svc.confirm(G, ch, user), "refuse")
            elif pick == 2:
                _seat, _user, action, _turn = self.some_move()
                await self.attempt("correct online", lambda: self.svc.correct(G, ch, user, max(n, 1), action), "refuse")
            elif pick == 3:
                await self.attempt("entries online", self.sync(lambda: self.svc.entries(G, ch, user)), "refuse", read_only=True)
            else:
                await self.attempt("entry_choices online", lambda: self.entry_choices(user, 1), "refuse", read_only=True)
            return
        host = next((u for u in [*self.members, HOST_ONLY] if u.id == t.host_id), HUMANS[0])
        if pick == 0:  # undo by someone who may not
            who = self.rng.choice([STRANGER, NEWCOMER, *(m for m in self.members if m.id not in (t.host_id, t.actors[-1] if t.actors else None))])
            await self.attempt(f"undo by {who.name}", lambda: self.svc.undo(G, ch, who), "refuse")
        elif pick == 1:  # confirm by the author, a stranger, or with nothing to confirm
            author = next((m for m in self.members if t.actors and m.id == t.actors[-1]), STRANGER)
            who = self.rng.choice([author, STRANGER, NEWCOMER])
            await self.attempt(f"confirm by {who.name}", lambda: self.svc.confirm(G, ch, who), "refuse")
        elif pick == 2:  # correct an entry that does not exist
            _seat, _user, action, _turn = self.some_move()
            await self.attempt(f"correct entry {bad_entry}", lambda: self.svc.correct(G, ch, host, bad_entry, action), "refuse")
        elif pick == 3 and n:  # correct with junk, or by someone who may not
            if self.rng.random() < 0.5:
                payload = junk_payload(self.rng, self.game, self.logged(n - 1)[1])
                try:
                    parsed: Action | None = self.game.action_from_json(payload)
                except Exception:
                    parsed = None
                expect: Expect = "either" if parsed is not None else "refuse"
                entry = self.rng.randint(1, n)
                await self.attempt(f"correct entry {entry} with junk", lambda: self.svc.correct(G, ch, host, entry, payload), expect)
            else:
                who = self.rng.choice([STRANGER, NEWCOMER, *(m for m in self.members if m.id != t.host_id)])
                action = self.logged(0)[1]
                await self.attempt(f"correct by {who.name}", lambda: self.svc.correct(G, ch, who, 1, action), "refuse")
        elif pick == 4:
            await self.attempt(f"entry_choices {bad_entry}", lambda: self.entry_choices(user, bad_entry), "refuse",
                               read_only=True)
        else:
            who = self.rng.choice([STRANGER, NEWCOMER])
            await self.attempt(f"entries for {who.name}", self.sync(lambda: self.svc.entries(G, ch, who)), "refuse", read_only=True)

    async def h_advice(self) -> None:
        t = self.table
        ch = self.channel
        user = self.rng.choice([*self.members, STRANGER, MOD])
        if self.rng.random() < 0.4:
            if self.rng.random() < 0.6:
                _seat, user, _action, _turn = self.some_move()
            expect_hint: Expect = "refuse" if self.mode == "referee" else "either"  # the bot never saw real cards
            await self.attempt(f"hint for {user.name}", lambda: self.svc.hint(G, ch, user), expect_hint, read_only=True)
            return
        deal = self.rng.choice([None, -5, 0, 1, 2, 10**9, 2**63, -(10**20)])
        choices: list[int | None] = [None, None, -1, 0, t.id, t.id + 1, 10**9, 2**63 - 1, 2**63, 10**30]
        match_id = self.rng.choice(choices)
        expect: Expect = "refuse" if match_id is not None or (deal is not None and deal < 0) else "either"
        await self.attempt(f"analyse deal={deal} match={match_id}", lambda: self.svc.analyse(G, ch, user, deal, match_id), expect,
                           read_only=True)

    async def h_open(self) -> None:
        user = self.rng.choice([*self.members, STRANGER, MOD])
        pick = self.rng.randrange(5)
        if pick == 0:
            await self.attempt("open_table here again", lambda: self.svc.open_table(G, self.channel, user, self.game_id), "refuse")
        elif pick == 1:
            players: list[User | str] = [user, *GUESTS[:3]]
            await self.attempt("open_referee here again",
                               lambda: self.svc.open_referee(G, self.channel, user, self.game_id, players), "refuse")
        elif pick == 2:
            pairs, must = bad_option_pairs(self.rng, self.game)
            await self.elsewhere(f"open_table elsewhere with {short(pairs)}", "refuse" if must else "either",
                                 lambda: self.svc.open_table(G, ELSEWHERE, user, self.game_id, pairs))
        elif pick == 3:
            game_id = self.rng.choice(["chess", "", "x" * 10_000, "💥", "\ud800", self.game_id.upper(), " " + self.game_id])
            must = game_id.strip().lower() != self.game_id
            await self.elsewhere(f"open_table elsewhere, game {game_id[:20]!r}", "refuse" if must else "either",
                                 lambda: self.svc.open_table(G, ELSEWHERE, user, game_id))
        else:
            bad: list[list[User | str]] = [
                [], [user], [user, user.name], ["", "Bo"], ["  ", "Bo"], [user, *GUESTS * 3], ["x" * 10_000, "Bo"],
                ["\x00", "Bo"], [user, "Gus", "Gus"],
            ]
            players = self.rng.choice(bad)
            names = [p.name if isinstance(p, User) else p.strip() for p in players]
            try:
                counts: Sequence[int] = referee_game(self.game_id).player_counts
            except SetupError:
                counts = ()  # no referee mode for this game: refused whoever plays
            must = not all(names) or len(set(names)) != len(names) or len(players) not in counts
            pairs, must_options = bad_option_pairs(self.rng, self.game) if self.rng.random() < 0.3 else ([], False)
            await self.elsewhere(f"open_referee elsewhere with {len(players)} players", "refuse" if must or must_options else "either",
                                 lambda: self.svc.open_referee(G, ELSEWHERE, user, self.game_id, players, pairs))

    async def elsewhere(self, label: str, expect: Expect, op: Op) -> None:
        """An input for another channel: this table is left alone whatever happens; a table that
        opened there is closed again."""
        before = (self.memory_snapshot()[:-1], await self.db_snapshot())  # without the notifier's counts
        opened = await self.attempt(label, op, expect, read_only=False)
        if (self.memory_snapshot()[:-1], await self.db_snapshot()) != before:
            self.figures.changed_on_refusal.append(f"{self.game_id} {self.mode}: {label} changed the table in another channel")
        other = self.svc.table(G, ELSEWHERE)
        if other is not None:
            host = next(u for u in [*HUMANS, HOST_ONLY, STRANGER, MOD, NEWCOMER] if u.id == other.host_id)
            await self.svc.abandon(G, ELSEWHERE, host)
        elif opened and "open" in label:
            self.figures.inconsistent.append(f"{self.game_id} {self.mode}: {label} accepted, yet no table there")

    async def h_abandon(self) -> None:
        t = self.table
        who = self.rng.choice([STRANGER, NEWCOMER, *(m for m in self.members if m.id != t.host_id)])
        await self.attempt(f"abandon by {who.name}", lambda: self.svc.abandon(G, self.channel, who), "refuse")

    async def h_read_only(self) -> None:
        t = self.table
        ch = self.channel
        pick = self.rng.randrange(3)
        if pick == 0:
            who = self.rng.choice([STRANGER, MOD, NEWCOMER])
            await self.attempt(f"hand for {who.name}", self.sync(lambda: self.svc.hand(G, ch, who)), "refuse", read_only=True)
        elif pick == 1:
            turn = t.turn + self.rng.choice([-1, 1, 5])
            await self.attempt(f"timeout for turn {turn}", lambda: self.svc.timeout_now(t, turn), "either", read_only=True)
        else:
            seat = self.rng.randrange(len(t.seats))
            user = self.user_of_seat(seat) or self.rng.choice(self.members)
            await self.attempt(f"hand for seat {seat}", self.sync(lambda: self.svc.hand(G, ch, user)), "either", read_only=True)

    async def entry_choices(self, user: User, entry: int) -> tuple[int, list[Action]]:
        """``TableService.entry_choices``, whether it is a coroutine or a plain call."""
        result: Any = self.svc.entry_choices(G, self.channel, user, entry)
        if inspect.isawaitable(result):
            result = await result
        return cast(tuple[int, list[Action]], result)

    @staticmethod
    def sync(fn: Callable[[], object]) -> Op:
        async def run() -> object:
            return fn()

        return run

    async def lobby_hostile(self) -> None:
        ch = self.channel
        host = HUMANS[0]
        pick = self.rng.randrange(10)
        if pick == 0:
            who = self.rng.choice(self.members)
            await self.attempt("join twice", lambda: self.svc.join(G, ch, who), "refuse")
        elif pick == 1:
            level = self.rng.choice(["vulcan" if "vulcan" not in levels(self.game_id) else "💥", "", "x" * 10_000, "EASY"])
            await self.attempt(f"add_bot {level[:10]!r}", lambda: self.svc.add_bot(G, ch, host, level), "refuse")
        elif pick == 2:
            await self.attempt("add_bot by a stranger", lambda: self.svc.add_bot(G, ch, STRANGER, "easy"), "refuse")
        elif pick == 3:
            pairs, must = bad_option_pairs(self.rng, self.game)
            await self.attempt(f"set_options {short(pairs)}", lambda: self.svc.set_options(G, ch, host, pairs),
                               "refuse" if must else "either")
            await self.restore_options()
        elif pick == 4:
            values: dict[Any, Any] = {self.rng.choice(["first_dealer", "deals", "hints", "x", "target"]): junk_value(self.rng)}
            await self.attempt(f"set_options mapping {short(values)}", lambda: self.svc.set_options(G, ch, host, values),
                               "either")
            await self.restore_options()
        elif pick == 5:
            who = self.rng.choice([STRANGER, MOD, *self.members[1:]])
            await self.attempt("set_options by a non-host", lambda: self.svc.set_options(G, ch, who, ["first_dealer=1"]), "refuse")
        elif pick == 6:
            who = self.rng.choice([STRANGER, MOD, *self.members[1:]])
            await self.attempt(f"start by {who.name}", lambda: self.svc.start(G, ch, who), "refuse")
        elif pick == 7:
            who = self.rng.choice([STRANGER, *self.members[1:]])
            await self.attempt(f"cancel by {who.name}", lambda: self.svc.cancel(G, ch, who), "refuse")
        elif pick == 8:
            who = self.rng.choice([STRANGER, NEWCOMER, MOD])
            await self.attempt(f"leave the lobby by {who.name}", lambda: self.svc.leave(G, ch, who), "refuse")
        else:
            action = junk_payload(self.rng, self.game, None)
            await self.attempt("a move in the lobby", lambda: self.svc.act(G, ch, host, action, 0), "refuse")

    async def restore_options(self) -> None:
        """Put back the options the run was set up with, if a malformed change was accepted."""
        if self.table.options.model_dump() != self.lobby_options:
            await self.attempt("set_options back", lambda: self.svc.set_options(G, self.channel, HUMANS[0], self.lobby_options),
                               "accept")

    async def hostile_after_end(self) -> None:
        t = self.table
        ch = self.channel
        user = self.rng.choice([*self.members, MOD])
        assert t.state is not None
        last: tuple[int, Action] = self.logged(t.turn - 1) if t.turn > 0 else (0, Pass())
        pick = self.rng.randrange(6)
        if pick == 0:
            await self.attempt("a move after the end", lambda: self.svc.act(G, ch, user, last[1], t.turn - 1, last[0]), "refuse")
        elif pick == 1:
            await self.attempt("undo after the end", lambda: self.svc.undo(G, ch, user), "refuse")
        elif pick == 2:
            await self.attempt("correct after the end", lambda: self.svc.correct(G, ch, user, 1, last[1]), "refuse")
        elif pick == 3:
            await self.attempt("leave after the end", lambda: self.svc.leave(G, ch, user), "refuse")
        elif pick == 4:
            await self.attempt("abandon after the end", lambda: self.svc.abandon(G, ch, user), "refuse")
        else:
            await self.attempt("a click for the finished session", lambda: self.svc.join(G, ch, user, session=t.id), "refuse")


def all_games_by_id() -> dict[str, Game[Any]]:
    return {g.id: g for g in all_games()}


def logged_errors(records: Sequence[logging.LogRecord]) -> list[str]:
    return [f"logged {r.levelname}: {r.name}: {r.getMessage()[:200]}" for r in records if r.levelno >= logging.ERROR]


# -- the default runs: one short seed per game and mode ------------------------------------------------


@pytest.mark.parametrize(("game_id", "mode"), games_and_modes())
async def test_service_fuzz(
    game_id: str,
    mode: str,
    service: TableService,  # noqa: F811
    db_path: Path,  # noqa: F811
    notifier: RecordingNotifier,  # noqa: F811
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING)
    figures = await Fuzzer(service, db_path, game_id, mode, seed=1, budget=80, replay_every=40, recorder=notifier).run()
    problems = figures.problems() + logged_errors(caplog.records)
    assert not problems, f"{figures.line()}\n" + "\n".join(problems[:25])
    assert figures.finished == figures.matches >= 1


# -- the long run ----------------------------------------------------------------------------------------

SLOW_SEEDS = 8
SLOW_BUDGET = 500


@pytest.mark.slow
async def test_service_fuzz_long(
    service: TableService,  # noqa: F811
    db_path: Path,  # noqa: F811
    notifier: RecordingNotifier,  # noqa: F811
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
    request: pytest.FixtureRequest,
) -> None:
    """The figures are printed at the end (in a worker of pytest-xdist they are not: ``-n 0`` shows
    them, and so does ``-rA`` in the report's section "figures")."""
    caplog.set_level(logging.WARNING)
    total = Figures("total")
    lines: list[str] = []
    per_game: dict[str, Figures] = {}
    for game_id, mode in games_and_modes():
        figures = per_game.setdefault(game_id, Figures(game_id))
        for seed in range(SLOW_SEEDS):
            run = await Fuzzer(
                service, db_path, game_id, mode, seed, channel=f"c-{game_id}-{mode}-{seed}", budget=SLOW_BUDGET,
                bot_levels=("random", "easy", "strong"), replay_every=100, recorder=notifier,
            ).run()
            figures.add(run)
    for figures in per_game.values():
        lines.append(figures.line())
        total.add(figures)
    lines.append(total.line())
    request.node.add_report_section("call", "figures", "\n".join(lines))
    with capsys.disabled():
        print("\n" + "\n".join(lines))
    problems = total.problems() + logged_errors(caplog.records)
    assert not problems, "\n".join(problems[:40])


# -- regressions: the bugs this fuzz found (fixed since) ------------------------------------------------


G_C = "c1"


async def test_analyse_of_a_match_number_beyond_64_bits_is_refused(service: TableService) -> None:  # noqa: F811
    """It used to hand the number to SQLite, which raised OverflowError instead of a refusal."""
    await service.open_table(G, G_C, HUMANS[0], "parity")
    for match_id in (2**63, 10**30):
        with pytest.raises(TableError):
            await service.analyse(G, G_C, HUMANS[0], None, match_id)


@pytest.mark.parametrize("game_id", ["parity", "spec"])
async def test_no_hints_at_a_referee_table(game_id: str, service: TableService) -> None:  # noqa: F811
    """With hints=true, a referee table used to run the online game's hinter on the referee view:
    Parity's raised IndexError, Spec's gave advice about cards the bot never saw."""
    ann, bob = HUMANS[0], HUMANS[1]
    service.rng = random.Random(1)
    await service.open_referee(G, G_C, ann, game_id, [ann, bob], ["hints=true"])
    for user in (ann, bob):
        with pytest.raises(TableError):
            await service.hint(G, G_C, user)


@pytest.mark.parametrize("game_id", ["spec", "parity"])
async def test_leaving_a_referee_table_hands_no_seat_to_a_bot(game_id: str, service: TableService) -> None:  # noqa: F811
    """Leaving used to hand a real-cards seat to an online bot, which then made up entries (Spec)
    or crashed on the referee game's view (Parity) in every later entry and after a restart."""
    ann, bob = HUMANS[0], HUMANS[1]
    service.rng = random.Random(1)
    await service.open_referee(G, G_C, ann, game_id, [ann, bob])
    table = service.require_table(G, G_C)
    with pytest.raises(TableError):
        await service.leave(G, G_C, bob)
    rng = random.Random(2)
    for _ in range(30):
        if service.table(G, G_C) is None:
            break
        turn, entries = service.entries(G, G_C, ann)
        seat, action = rng.choice([(s, a) for s, a in entries if s == 0] or entries)
        await service.act(G, G_C, ann, action, turn, seat)
    assert all(s.bot is None for s in table.seats), "a bot took over a real-cards seat"
    assert None not in table.actors, "a bot made entries at a referee table"
