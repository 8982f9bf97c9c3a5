"""Benchmark (not a test): how many moves a second one bot process serves, pictures on.

    nice -n 10 .venv/bin/python -m tests.bench.bench_capacity [--tables 20,40,80,160] [--seconds 30] [--workers 2]
        [--pace 2-6] [--picture-wait 0.1] [--profile] [--old REV]

Two processes. This one is Discord: SimCord's simulated Discord served over the wire
(``tests/bench/simdiscord.py``: REST over HTTP, a gateway websocket) and the people at the tables.
The other is the bot, started as production starts it (``tests/bench/capacity_bot.py``: the real
``run_bot``, discord.py's own HTTP client and gateway reader, a SQLite database), with its
pictures drawn by ``--workers`` processes of its own (0: in a thread of its process). So the
simulator's CPU is not the bot's: it is measured apart and printed, and a step where this process
was the one short of CPU says so.

One table per channel, two people a table (three where a game needs them), the games of the
catalogue in turn. Every person opens their private view once (Show my hand); then, for
``--seconds`` at each step, each table's awaited person clicks a choice in their live view every
2 to 6 seconds (uniformly at random), as people at ``--tables`` tables would. Who is awaited is
read from what the people see: the view showing choices for the latest turn. The clicks go to the
bot through the gateway as real interactions, without waiting for the bot between them; the bot's
own flows answer them, move, edit the table message (its picture) and bring the other person's
view up to date (the hand's picture), all as in production.

Printed per step: moves a second served (rows added to the bot's action log), clicks a second,
click-to-answer p50, p99 and max (from the interaction leaving Discord to the bot's answer
arriving, the call Discord times against its three seconds), the share of answers over 3 s or
missing, the bot's CPU per move (its event loop's thread, its whole process, and its picture
workers), and this process's share of a core. The knee is the step serving the most moves with
click-to-answer p99 under a second.

``--old REV``: the bot of git revision ``REV`` (its tree extracted to a temporary folder, its
process started from there; the simulated Discord and the people are today's) runs beside
today's, at the same time, each with its own simulated Discord, tables and people, clicked at the
same pace; the CPU a move of each is printed with their ratio. A figure that depends on the
machine (and on what else it runs), compared under the same load in one run. Each bot then has
half the machine: read the knee from a run without ``--old``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import os
import pstats
import random
import re
import resource
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import simcord
from simcord import actors as simcord_actors
from simcord import interactions as simcord_interactions
from simcord.backend import serializers
from simcord.backend.models import Message
from simcord.components import walk_components
from simcord.enums import SELECT_TYPES, AppCommandType, ComponentType, InteractionType

from bot.render import pool
from games.registry import all_games
from tests.bench.simdiscord import SimDiscord

DEADLINE = 3.0
"""Seconds Discord gives a bot to answer an interaction."""
GOAL_MOVES = 150.0
GOAL_P99 = 1.0
GUILD_ID = 424242424242424242
ROOT = Path(__file__).resolve().parents[2]
CHOICE = re.compile(r"parlour:(act|pick):\d+:(\d+):")
"""A choice in a private view, and the turn it was drawn at."""
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def embed_words(message: Message) -> str:
    """The text of a message's embeds (titles, descriptions, fields)."""
    parts: list[str] = []
    for embed in message.embeds:
        parts += [str(embed.get("title", "")), str(embed.get("description", ""))]
        parts += [f"{f.get('name', '')} {f.get('value', '')}" for f in embed.get("fields", [])]
    return "\n".join(parts)


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


class Answers:
    """When the bot answered each interaction (its first callback, as it arrives at Discord), and
    when the answer first carried a picture (the callback itself, or an edit of it)."""

    def __init__(self) -> None:
        self.waiting: dict[str, asyncio.Future[float]] = {}
        self.pictures: dict[str, asyncio.Future[float]] = {}
        """By interaction token: the answer's picture."""

    def seen(self, method: str, path: str, pictured: bool) -> None:
        parts = path.strip("/").split("/")
        if method == "POST" and parts[0] == "interactions" and parts[-1] == "callback":
            waiter = self.waiting.pop(parts[1], None)  # interactions/{id}/{token}/callback
            if waiter is not None and not waiter.done():
                waiter.set_result(time.perf_counter())
            token = parts[2]
        elif method == "PATCH" and parts[0] == "webhooks" and parts[-1] == "@original":
            token = parts[2]  # webhooks/{application}/{token}/messages/@original
        else:
            return
        if pictured and (picture := self.pictures.pop(token, None)) is not None and not picture.done():
            picture.set_result(time.perf_counter())

    def expect(self, interaction_id: int) -> asyncio.Future[float]:
        waiter: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.waiting[str(interaction_id)] = waiter
        return waiter

    def expect_picture(self, token: str) -> asyncio.Future[float]:
        picture: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.pictures[token] = picture
        return picture


def send_interaction(
    env: simcord.Env, actor: simcord.MemberActor, channel_id: int, kind: int, data: dict[str, Any],
    source: Message | None = None,
) -> Any:
    """An interaction sent to the bot through the gateway, as SimCord's own actors send one, but
    without waiting for the bot to settle; returns SimCord's record of it."""
    backend = env.backend
    record, payload = simcord_interactions.base_payload(
        backend, type=kind, channel_id=channel_id, guild_id=actor.guild.id, user_id=actor.id, data=data
    )
    if source is not None:
        payload["message"] = dict(serializers.message_payload(backend, source))
        record.source_message_id = source.id
    backend.emit("INTERACTION_CREATE", payload)
    return record


def click(
    env: simcord.Env, actor: simcord.MemberActor, message: Message, *, custom_id: str | None = None,
    label: str | None = None, values: list[str] | None = None,
) -> Any:
    """A click on a button of ``message`` (by custom id or label), or a choice in its select."""
    types = (ComponentType.BUTTON,) if values is None else SELECT_TYPES
    component = simcord_actors._find_component(message.components, types=types, custom_id=custom_id, label=label)
    data: dict[str, Any] = {"custom_id": component["custom_id"], "component_type": component["type"]}
    if component.get("id") is not None:
        data["id"] = component["id"]
    if values is not None:
        data["values"] = values
    return send_interaction(env, actor, message.channel_id, InteractionType.MESSAGE_COMPONENT, data, message)


def slash(env: simcord.Env, actor: simcord.MemberActor, channel_id: int, name: str, **options: Any) -> Any:
    """A slash command the bot registered, as a person types it."""
    root = env.backend.find_command(name, actor.guild.id, type=AppCommandType.CHAT_INPUT)
    assert root is not None, f"the bot has not registered /{name}"
    leaf, nesting = simcord_interactions.walk_to_subcommand(root, [])
    leaf_options, resolved = simcord_interactions.build_options(actor, name, leaf, options, channel_id=channel_id)
    data: dict[str, Any] = {
        "id": root["id"], "name": root["name"], "type": root.get("type", AppCommandType.CHAT_INPUT),
        "options": simcord_interactions.nest_options(root, nesting, leaf_options),
    }
    if resolved:
        data["resolved"] = resolved
    if root.get("guild_id"):
        data["guild_id"] = root["guild_id"]
    return send_interaction(env, actor, channel_id, InteractionType.APPLICATION_COMMAND, data)


@dataclass
class Seated:
    channel_id: int
    game_id: str
    actors: list[simcord.MemberActor]
    views: dict[int, int] = field(default_factory=dict)
    """Each person's private view: its message id."""
    pictured: bool = True
    """Whether a move's answer shows a picture: the mover's hand. In a game where no seat holds
    one (Spec, Wit and Reason II) a waiting player's view is text alone (the table message shows
    the rest), so its answer has no picture to time."""


@dataclass
class Step:
    tables: int
    seconds: float
    clicks: int = 0
    moves: int = 0
    latencies: list[float] = field(default_factory=list)
    pictured: list[float] = field(default_factory=list)
    """Click to the answer showing its picture."""
    unanswered: int = 0
    loop_cpu: float = 0.0
    """CPU of the bot's main thread: its event loop, where every flow runs."""
    bot_cpu: float = 0.0
    workers_cpu: float = 0.0
    discord_cpu: float = 0.0
    calls: int = 0

    @property
    def p99(self) -> float:
        return percentile(self.latencies, 0.99)

    def line(self) -> str:
        lat = self.latencies
        late = sum(x > DEADLINE for x in lat) + self.unanswered
        moves = max(self.moves, 1)
        return (
            f"{self.tables:>6} {self.moves / self.seconds:>8.1f} {self.clicks / self.seconds:>8.1f} "
            f"{1000 * percentile(lat, 0.5):>7.0f} {1000 * self.p99:>7.0f} {1000 * max(lat, default=0):>7.0f} "
            f"{100 * late / max(self.clicks, 1):>6.1f} {1000 * percentile(self.pictured, 0.99):>7.0f} "
            f"{self.calls / moves:>6.2f} {1000 * self.loop_cpu / moves:>8.2f} {1000 * self.bot_cpu / moves:>8.2f} "
            f"{1000 * self.workers_cpu / moves:>8.2f} {100 * self.bot_cpu / self.seconds:>6.0f}% "
            f"{100 * self.discord_cpu / self.seconds:>6.0f}%"
        )


HEADER = (
    f"{'tables':>6} {'moves/s':>8} {'clicks/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} "
    f"{'late %':>6} {'pic p99':>7} {'calls':>6} {'loop ms':>8} {'bot ms':>8} {'draw ms':>8} {'bot':>7} {'discord':>7}"
)
LEGEND = (
    "late: answers over 3 s or missing; pic p99: click to its answer showing the new picture; "
    "calls: REST calls a move; loop ms / bot ms / draw ms: CPU a move of the bot's main thread (its event "
    "loop), of its whole process (with the threads: SQLite's, bots', charts') and of its picture workers; "
    "bot / discord: share of one core used by the bot's process and by this one"
)


def process_cpu(pid: int) -> float:
    """CPU seconds (user and system) a process has used, from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def thread_cpu(pid: int, tid: int) -> float:
    """CPU seconds (user and system) one thread of a process has used, from /proc."""
    try:
        fields = Path(f"/proc/{pid}/task/{tid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def children_cpu(pid: int) -> float:
    """CPU seconds of ``pid``'s live child processes (the bot's picture workers)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    return total


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def stored_moves(db: Path) -> int:
    """Moves the bot has written to its action log."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30) as conn:
        return int(conn.execute("SELECT count(*) FROM actions").fetchone()[0])


class Harness:
    """The simulated Discord, its people, and the bot process it serves."""

    def __init__(
        self, tmp: Path, workers: int, seed: int, profile: Path | None, pace: tuple[float, float] = (2.0, 6.0),
        picture_wait: float | None = None, root: Path = ROOT,
    ) -> None:
        self.picture_wait = picture_wait
        self.root = root
        """The tree the bot process runs from (today's, or ``--old``'s)."""
        self.rng = random.Random(seed)
        self.pace = pace
        self.env = simcord.Env(discord.Client(intents=discord.Intents.none()))  # never started: the bot is elsewhere
        self.guild = self.env.create_guild("Capacity", id=GUILD_ID)
        self.answers = Answers()
        self.server = SimDiscord(self.env.backend, self.answers.seen)
        self.db = tmp / "capacity.sqlite3"
        self.workers = workers
        self.profile = profile
        self.process: subprocess.Popen[bytes] | None = None
        self.channels: list[int] = []
        self.people: list[list[simcord.MemberActor]] = []

    def prepare(self, tables: int) -> None:
        """Channels and people for ``tables`` tables, before the bot connects (its Guild Create
        carries them; members are not sent to a bot without the members intent)."""
        for i in range(tables):
            self.channels.append(self.guild.create_text_channel(f"table-{i}").id)
            self.people.append([self.guild.add_member(self.env.create_user(f"p{i}x{k}")) for k in range(3)])

    async def start_bot(self) -> None:
        url = await self.server.start()
        env = {
            **os.environ,
            "DISCORD_TOKEN": "capacity.bench.token",
            "PARLOUR_DB": str(self.db),
            "PARLOUR_DEV_GUILD": str(GUILD_ID),
            "PARLOUR_PICTURE_WORKERS": str(self.workers),
            "PARLOUR_LOG_LEVEL": "WARNING",
            "PYTHONPATH": os.pathsep.join(str(p) for p in (self.root, self.root / HIDDEN) if p.is_dir()),
        }
        for name in ("PARLOUR_DATABASE_URL", "PARLOUR_SHARD_COUNT", "PARLOUR_SHARD_IDS", "PARLOUR_PUBLIC_URL"):
            env.pop(name, None)
        argv = [sys.executable, "-m", "tests.bench.capacity_bot", url]
        if self.profile is not None:
            argv += ["--profile", str(self.profile)]
        if self.picture_wait is not None:
            argv += ["--picture-wait", str(self.picture_wait)]
        self.process = subprocess.Popen(argv, cwd=self.root, env=env)
        deadline = time.monotonic() + 60
        # its commands registered (before it connects) and its gateway identified: an interaction
        # sent before then would reach no one
        while (
            self.env.backend.find_command("play", GUILD_ID, type=AppCommandType.CHAT_INPUT) is None
            or not self.server.connected
        ):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the bot process did not start (its errors are above)")
            await asyncio.sleep(0.1)

    async def stop_bot(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            for _ in range(300):
                if self.process.poll() is not None:
                    break
                await asyncio.sleep(0.1)
            else:
                self.process.kill()
        await self.server.close()

    async def answer_to(self, record: Any, timeout: float = 30.0) -> Message | None:
        """Wait for the bot's answer to an interaction; the message it answered with."""
        await asyncio.wait_for(self.answers.expect(record.id), timeout)
        await asyncio.sleep(0)  # the callback is stored right after it is seen
        for _ in range(100):
            if record.message_id is not None:
                return self.env.backend.get_message(record.channel_id, record.message_id)
            await asyncio.sleep(0.01)
        return None

    def message(self, channel_id: int, message_id: int) -> Message:
        return self.env.backend.get_message(channel_id, message_id)

    def table_message(self, channel_id: int) -> Message | None:
        for message in reversed(list(self.env.backend.messages.get(channel_id, {}).values())):
            if any(str(c.get("custom_id", "")).startswith("parlour:hand:") for c in walk_components(message.components)):
                return message
        return None

    async def seat(self, index: int) -> Seated:
        """Table ``index``: opened with /play, joined, started, and every person's view open."""
        games = all_games()
        game = games[index % len(games)]
        players = min(n for n in game.player_counts if n >= 2)
        channel_id, actors = self.channels[index], self.people[index][:players]
        env = self.env
        lobby = await self.answer_to(slash(env, actors[0], channel_id, "play", game=game.id))
        assert lobby is not None, f"/play {game.id} was not answered with a lobby"
        for actor in actors[1:]:
            await self.answer_to(click(env, actor, self.message(channel_id, lobby.id), label="Join"))
        await self.answer_to(click(env, actors[0], self.message(channel_id, lobby.id), label="Start"))
        table = None
        for _ in range(500):
            if (table := self.table_message(channel_id)) is not None:
                break
            await asyncio.sleep(0.02)
        assert table is not None, f"the {game.id} table in channel {channel_id} has no table message"
        seated = Seated(channel_id, game.id, actors, pictured=bool(game.start([a.name for a in actors], None, seed=0).view(0).hand))
        for actor in actors:
            view = await self.answer_to(click(env, actor, self.message(channel_id, table.id), label="Show my hand"))
            assert view is not None, "Show my hand was not answered with a view"
            seated.views[actor.id] = view.id
        return seated

    def awaited(self, seated: Seated) -> tuple[simcord.MemberActor, Message] | None:
        """The person to move, with their view, read as people read it: the view that says it is
        their turn; else, among views offering choices, the one whose owner the table message's
        title names as to play (a ready hand kept for its turn says nothing of whose it is); else
        the view offering choices at the latest turn."""
        best: tuple[int, simcord.MemberActor, Message] | None = None
        table = self.table_message(seated.channel_id)
        title = str(table.embeds[0].get("title", "")) if table is not None and table.embeds else ""
        named = None
        for actor in seated.actors:
            view = self.message(seated.channel_id, seated.views[actor.id])
            turns = [int(m.group(2)) for c in walk_components(view.components) if (m := CHOICE.match(str(c.get("custom_id", ""))))]
            if not turns:
                continue
            if "Your turn" in embed_words(view):
                return actor, view
            if f" {actor.name} to " in f" {title}":
                named = (actor, view)
            if best is None or max(turns) > best[0]:
                best = (max(turns), actor, view)
        if named is not None:
            return named
        return None if best is None else (best[1], best[2])

    def choose(self, actor: simcord.MemberActor, view: Message) -> Any:
        """Click one of the view's one-tap buttons, or an act in its menu (a group when it has only groups)."""
        components = list(walk_components(view.components))
        buttons = [c for c in components if str(c.get("custom_id", "")).startswith("parlour:act:")]
        if buttons:
            return click(self.env, actor, view, custom_id=self.rng.choice(buttons)["custom_id"])
        menus = [c for c in components if str(c.get("custom_id", "")).startswith("parlour:pick:")]
        options = [o["value"] for o in menus[0].get("options", [])] if menus else []
        if not options:
            return None
        acts = [v for v in options if v.startswith("a")] or options
        return click(self.env, actor, view, custom_id=menus[0]["custom_id"], values=[self.rng.choice(acts)])

    @staticmethod
    def _pictured(step: Step, sent: float, picture: asyncio.Future[float]) -> None:
        step.pictured.append(picture.result() - sent)

    async def drive(self, seated: Seated, step: Step, until: float) -> None:
        """One table's people: every 2 to 6 seconds the awaited person clicks in their view."""
        while True:
            await asyncio.sleep(self.rng.uniform(*self.pace))
            if time.perf_counter() >= until:
                return
            found = self.awaited(seated)
            if found is None:
                continue
            sent = time.perf_counter()
            record = self.choose(*found)
            if record is None:
                continue
            step.clicks += 1
            answer = self.answers.expect(record.id)
            picture = self.answers.expect_picture(record.token) if seated.pictured else None
            try:
                answered = await asyncio.wait_for(answer, 4 * DEADLINE)
            except TimeoutError:
                step.unanswered += 1
                self.answers.pictures.pop(record.token, None)
                continue
            step.latencies.append(answered - sent)
            if picture is None:
                continue
            # its picture is noted when it comes, without holding up the next click (a refused
            # click is answered without one): forgotten after a while
            picture.add_done_callback(functools.partial(self._pictured, step, sent))
            asyncio.get_running_loop().call_later(4 * DEADLINE, self.answers.pictures.pop, record.token, None)

    async def measure(self, tables: list[Seated], seconds: float) -> Step:
        assert self.process is not None
        pid = self.process.pid
        step = Step(len(tables), seconds)
        moves, bot, workers, mine = stored_moves(self.db), process_cpu(pid), children_cpu(pid), own_cpu()
        loop = thread_cpu(pid, pid)
        calls = self.server.calls
        if self.profile is not None:  # the profile starts here (the last step's, in the end)
            self.process.send_signal(signal.SIGUSR1)
        until = time.perf_counter() + seconds
        await asyncio.gather(*(self.drive(t, step, until) for t in tables))
        step.moves = stored_moves(self.db) - moves
        step.bot_cpu = process_cpu(pid) - bot
        step.loop_cpu = thread_cpu(pid, pid) - loop
        step.workers_cpu = children_cpu(pid) - workers
        step.discord_cpu = own_cpu() - mine
        step.calls = self.server.calls - calls
        return step


def print_shares(path: Path) -> None:
    """The bot process's profiled CPU (each function's own time) by where its code lives."""
    shares: Counter[str] = Counter()
    stats = pstats.Stats(str(path)).stats  # type: ignore[attr-defined]
    for (filename, _line, name), (_cc, _nc, own, _cum, _callers) in stats.items():
        parts = filename.replace("\\", "/").split("/")
        if "aiohttp" in parts or "multidict" in parts or "yarl" in parts:
            where = "aiohttp (HTTP and the gateway's websocket)"
        elif "discord" in parts and "site-packages" in parts:
            where = "discord.py"
        elif "bot" in parts and "render" in parts:
            where = "bot/render (pictures, this process)"
        elif "bot" in parts and "site-packages" not in parts:
            where = "bot (adapter and service)"
        elif "games" in parts and "site-packages" not in parts:
            where = "games"
        elif "storage" in parts or "aiosqlite" in parts or "sqlite3" in parts:
            where = "storage and SQLite"
        elif "PIL" in parts:
            where = "Pillow"
        elif "json" in parts or name.startswith("<method 'encode'") or "json" in name:
            where = "JSON"
        elif name.startswith(("<method 'poll'", "<method 'acquire'")):
            where = "(waiting)"
        else:
            where = "Python and others (asyncio, ssl, copy...)"
        shares[where] += own
    busy = sum(v for k, v in shares.items() if not k.startswith("("))
    print("the bot process's main thread, the last step, by package (own time):")
    for where, own in shares.most_common():
        if not where.startswith("("):
            print(f"  {100 * own / busy:5.1f}%  {own:7.2f} s  {where}")


async def run(
    sizes: Sequence[int], seconds: float, workers: int, seed: int, profile: Path | None,
    pace: tuple[float, float] = (2.0, 6.0), picture_wait: float | None = None, root: Path = ROOT,
) -> list[Step]:
    """The steps with one bot (run from ``root``), each printed as it ends."""
    return (await run_bots([root], sizes, seconds, workers, seed, profile, pace, picture_wait))[0]


async def run_bots(
    roots: Sequence[Path], sizes: Sequence[int], seconds: float, workers: int, seed: int, profile: Path | None,
    pace: tuple[float, float] = (2.0, 6.0), picture_wait: float | None = None, labels: Sequence[str] = (),
) -> list[list[Step]]:
    """The steps with a bot from each of ``roots`` at once, side by side: each bot with its own
    simulated Discord, database, tables and people (this process serves them all), clicked at
    the same pace in the same steps, so that the machine's load falls on all of them alike.
    ``profile``: the last bot's. ``labels``: printed before each bot's line."""
    steps: list[list[Step]] = [[] for _ in roots]
    with contextlib.ExitStack() as stack:
        harnesses = [
            Harness(
                Path(stack.enter_context(tempfile.TemporaryDirectory())), workers, seed,
                profile if k == len(roots) - 1 else None, pace, picture_wait, root,
            )
            for k, root in enumerate(roots)
        ]
        for harness in harnesses:
            harness.prepare(max(sizes))
        try:
            await asyncio.gather(*(harness.start_bot() for harness in harnesses))
            tables: list[list[Seated]] = [[] for _ in roots]
            failed: list[list[int]] = [[] for _ in roots]
            for size in sizes:
                await asyncio.gather(*(seat_upto(h, tables[k], failed[k], size) for k, h in enumerate(harnesses)))
                measured = await asyncio.gather(*(h.measure(tables[k], seconds) for k, h in enumerate(harnesses)))
                for k, step in enumerate(measured):
                    steps[k].append(step)
                    print(f"{labels[k]:<8}" if labels else "", step.line(), sep="", flush=True)
                if measured[0].discord_cpu / seconds > 0.9:
                    print("       (this process, the simulated Discord, was short of CPU: the step measures it, not the bot)")
                await asyncio.sleep(3)  # answers still due land before the next step
        finally:
            await asyncio.gather(*(harness.stop_bot() for harness in harnesses))
    return steps


async def seat_upto(harness: Harness, tables: list[Seated], failed: list[int], size: int) -> None:
    """Open tables until ``size`` have been tried (ten at a time)."""
    for start in range(len(tables) + len(failed), size, 10):
        for i, seated in enumerate(
            await asyncio.gather(
                *(harness.seat(i) for i in range(start, min(start + 10, size))), return_exceptions=True
            )
        ):
            if isinstance(seated, BaseException):
                failed.append(start + i)
                print(f"       table {start + i} could not be opened: {seated!r}", flush=True)
            else:
                tables.append(seated)


HIDDEN = "_hidden_from_this_revision"
"""A folder of an old tree whose modules stand in front of the installed ones of the same name."""
OPTIONAL_SPEED_UPS = ("orjson",)
"""Installed modules that libraries use when present (discord.py: orjson): an old revision that
did not depend on one runs without it, as it was deployed."""


def old_tree(rev: str, into: Path) -> Path:
    """Revision ``rev`` of this repository, extracted under ``into`` (``git archive``), with the
    optional speed-ups it did not depend on hidden from it."""
    tree = into / f"old-{rev}"
    tree.mkdir()
    archive = subprocess.run(["git", "archive", rev], cwd=ROOT, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    needs = (tree / "pyproject.toml").read_text()
    for module in OPTIONAL_SPEED_UPS:
        if f'"{module}' not in needs:
            (tree / HIDDEN).mkdir(exist_ok=True)
            (tree / HIDDEN / f"{module}.py").write_text(f'raise ModuleNotFoundError("{rev} did not depend on {module}")\n')
    return tree


@dataclass
class CpuPerMove:
    """The bot's CPU a move, median over the steps that served moves (ms)."""

    loop: float
    process: float
    drawing: float
    simulator: float

    @classmethod
    def of(cls, steps: Sequence[Step]) -> CpuPerMove | None:
        busy = [s for s in steps if s.moves]
        if not busy:
            return None
        return cls(*(
            1000 * statistics.median(getattr(s, name) / s.moves for s in busy)
            for name in ("loop_cpu", "bot_cpu", "workers_cpu", "discord_cpu")
        ))


def summary(steps: Sequence[Step]) -> None:
    good = [s for s in steps if s.latencies and s.p99 < GOAL_P99]
    if good:
        knee = max(good, key=lambda s: s.moves)
        print(
            f"knee: {knee.tables} tables, {knee.moves / knee.seconds:.1f} moves/s with click-to-answer p99 "
            f"{1000 * knee.p99:.0f} ms (goal {GOAL_MOVES:.0f} moves/s, p99 under {GOAL_P99:.0f} s)"
        )
    else:
        print("no step kept its p99 under a second")
    cpu = CpuPerMove.of(steps)
    if cpu is not None:  # what a capacity plan needs: CPU a move, apart from the simulated Discord's
        print(
            f"CPU a move, median over steps: the bot's event loop {cpu.loop:.2f} ms (one core serves at most "
            f"{1000 / cpu.loop:.0f} moves/s), its whole process {cpu.process:.2f} ms, its picture workers "
            f"{cpu.drawing:.2f} ms" + (f" ({1000 / cpu.drawing:.0f} moves/s a core)" if cpu.drawing else "")
            + f"; the simulated Discord {cpu.simulator:.2f} ms"
        )


def compare(old: CpuPerMove | None, new: CpuPerMove | None, rev: str) -> None:
    """The CPU a move of ``rev``'s bot and of today's, side by side, with today's as a share of the old."""
    if old is None or new is None:
        print("no CPU a move to compare: a run served no moves")
        return
    print(f"CPU a move (ms, median over steps)   {rev:>10} {'today':>10} {'ratio':>7}")
    for label, name in (
        ("the bot's event loop (main thread)", "loop"),
        ("the bot's whole process", "process"),
        ("its picture workers", "drawing"),
    ):
        before, after = getattr(old, name), getattr(new, name)
        ratio = f"{after / before:7.2f}" if before else f"{'-':>7}"
        print(f"{label:<36} {before:>10.2f} {after:>10.2f} {ratio}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--tables", default="20,40,80,160", help="table counts, rising (comma-separated)")
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds of clicking at each count")
    parser.add_argument(
        "--workers", type=int, default=None, help="the bot's picture processes (default: one per core; 0: none)"
    )
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument(
        "--pace", default="2-6", help="seconds between a table's clicks, from-to (uniformly at random; default 2-6)"
    )
    parser.add_argument("--profile", action="store_true", help="profile the bot process and print its CPU by package")
    parser.add_argument(
        "--picture-wait",
        type=float,
        default=None,
        help="seconds a click's answer waits for its picture (the bot's default: 0.1; 0: answered at once, "
        "the picture in an edit)",
    )
    parser.add_argument(
        "--old", default=None, metavar="REV",
        help="also run the bot of this git revision first, and compare the CPU a move (e.g. main)",
    )
    args = parser.parse_args(argv)
    sizes = sorted({int(n) for n in args.tables.split(",") if n})
    workers = pool.default_workers() if args.workers is None else args.workers
    low, high = (float(x) for x in args.pace.split("-"))
    print(
        f"tables clicked every {args.pace} s; the bot in its own process, pictures drawn by {workers} process(es) "
        f"of its own; {args.seconds:.0f} s a step; {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}"
    )
    with tempfile.TemporaryDirectory() as keep:
        profile = Path(keep) / "bot.pstats" if args.profile else None
        if args.old is not None:  # the old bot and today's side by side, in the same steps
            roots, labels = [old_tree(args.old, Path(keep)), ROOT], [args.old[:7], "today"]
            print(f"{'bot':<8}{HEADER}")
        else:
            roots, labels = [ROOT], []
            print(HEADER)
        runs = asyncio.run(
            run_bots(roots, sizes, args.seconds, workers, args.seed, profile, (low, high), args.picture_wait, labels)
        )
        steps = runs[-1]
        print(LEGEND + ("; discord: this process, serving both bots" if args.old is not None else ""))
        if profile is not None and profile.exists():
            print_shares(profile)
            if os.environ.get("BENCH_KEEP_PROFILE"):
                shutil.copy(profile, os.environ["BENCH_KEEP_PROFILE"])
    if labels:
        for label, run_steps in zip(labels, runs, strict=True):
            print(f"{label}:")
            summary(run_steps)
    else:
        summary(steps)
    if args.old is not None:
        compare(CpuPerMove.of(runs[0]), CpuPerMove.of(steps), args.old)


if __name__ == "__main__":
    main()
