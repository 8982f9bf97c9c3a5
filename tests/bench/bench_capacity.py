"""Benchmark (not a test): how many moves a second one bot process serves, pictures on.

    nice -n 10 .venv/bin/python -m tests.bench.bench_capacity [--tables 20,40,80,160] [--seconds 30] [--workers 2]

A real ParlourBot in a simulated Discord (SimCord), one table per channel, two people a table (three
where a game needs them), the games of the catalogue in turn. Every person opens their private view
once (Show my hand); then, for ``--seconds`` at each step, each table's awaited person clicks a
choice in their live view every 2 to 6 seconds (uniformly at random), as people at
``--tables`` tables would. The clicks go in through Discord's gateway as real interactions, without
waiting for the bot between them: the bot's own flows answer them, move, edit the table message
(its picture) and bring the other person's view up to date (the hand's picture), all as in
production, with pictures drawn by ``--workers`` processes (0: in a thread of the bot's process).

Printed per step: moves a second served, clicks a second, click-to-answer p50, p99 and max (from
the interaction arriving to the bot's answer to it, the call Discord times against its three
seconds), the share of answers over 3 s, and the bot process's CPU per move. The knee is the
largest step whose p99 stays under a second while serving the moves asked of it.

SimCord's simulated Discord runs in the same process as the bot and costs CPU of its own (each
REST call is parsed, stored and answered in Python), so these figures are a floor on what a
process serves against the real Discord.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import random
import resource
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import simcord
from simcord import actors as simcord_actors
from simcord import interactions as simcord_interactions
from simcord.backend import serializers
from simcord.enums import SELECT_TYPES, ComponentType, InteractionType
from simcord.http import router
from simcord.results import to_discord_message

from bot.render import pool
from games.registry import all_games
from tests.bot.discord.conftest import World, components_of, selects, simulated_world

DEADLINE = 3.0
"""Seconds Discord gives a bot to answer an interaction."""
GOAL_MOVES = 150.0
GOAL_P99 = 1.0


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


class Answers:
    """When the bot answered each interaction: its first callback, seen as the REST call is made."""

    def __init__(self) -> None:
        self.waiting: dict[str, asyncio.Future[float]] = {}
        self._real = router.dispatch

    def __enter__(self) -> Answers:
        def watching(backend: Any, method: str, path: str, *args: Any, **kwargs: Any) -> Any:
            if method == "POST" and path.endswith("/callback"):
                parts = path.strip("/").split("/")  # interactions/{id}/{token}/callback
                waiter = self.waiting.pop(parts[1], None)
                if waiter is not None and not waiter.done():
                    waiter.set_result(time.perf_counter())
            return self._real(backend, method, path, *args, **kwargs)

        router.dispatch = watching
        return self

    def __exit__(self, *exc: object) -> None:
        router.dispatch = self._real

    def expect(self, interaction_id: int) -> asyncio.Future[float]:
        waiter: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.waiting[str(interaction_id)] = waiter
        return waiter


def emit_component(
    env: simcord.Env, actor: simcord.MemberActor, message: Any, custom_id: str, values: list[str] | None
) -> int:
    """A click on a button (or a choice in a select) of ``message``, sent to the bot through the
    gateway as SimCord's own ``click`` does, but without waiting for the bot to settle; returns
    the interaction's id."""
    backend = env.backend
    stored = simcord_actors._visible_message(actor, message)
    types = (ComponentType.BUTTON,) if values is None else SELECT_TYPES
    component = simcord_actors._find_component(
        stored.components, types=types, custom_id=custom_id, label=None
    )
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"]}
    if component.get("id") is not None:
        data["id"] = component["id"]
    if values is not None:
        data["values"] = values
    record, payload = simcord_interactions.base_payload(
        backend,
        type=InteractionType.MESSAGE_COMPONENT,
        channel_id=stored.channel_id,
        guild_id=actor.guild.id,
        user_id=actor.id,
        data=data,
    )
    payload["message"] = dict(serializers.message_payload(backend, stored))
    record.source_message_id = stored.id
    env._notify_dispatch_observers(record)
    backend.emit("INTERACTION_CREATE", payload)
    return int(record.id)


@dataclass
class Seated:
    channel: simcord.ChannelHandle
    game_id: str
    actors: dict[str, simcord.MemberActor]
    views: dict[str, simcord.InteractionResult] = field(default_factory=dict)


@dataclass
class Step:
    tables: int
    seconds: float
    clicks: int = 0
    moves: int = 0
    latencies: list[float] = field(default_factory=list)
    unanswered: int = 0
    cpu: float = 0.0

    def line(self) -> str:
        lat = self.latencies
        late = sum(x > DEADLINE for x in lat) + self.unanswered
        return (
            f"{self.tables:>6} {self.moves / self.seconds:>8.1f} {self.clicks / self.seconds:>8.1f} "
            f"{1000 * percentile(lat, 0.5):>8.0f} {1000 * percentile(lat, 0.99):>8.0f} {1000 * max(lat, default=0):>8.0f} "
            f"{100 * late / max(self.clicks, 1):>6.1f} {1000 * self.cpu / max(self.moves, 1):>8.1f}"
        )


async def seat_tables(world: World, count: int, rng: random.Random) -> list[Seated]:
    """``count`` tables, each in its own channel, started and with every person's view open."""
    games = [g for g in all_games()]
    tables: list[Seated] = []
    for i in range(count):
        game = games[i % len(games)]
        players = min(n for n in game.player_counts if n >= 2)
        channel = world.guild.create_text_channel(f"table-{i}")
        actors = [world.guild.add_member(world.env.create_user(f"p{i}x{k}")) for k in range(players)]
        lobby = (await actors[0].slash(channel, "play", game=game.id)).response
        assert lobby is not None
        for actor in actors[1:]:
            await actor.click(lobby, label="Join")
        await actors[0].click(lobby, label="Start")
        await world.settle()
        table = world.bot.service.table(str(world.guild.id), str(channel.id))
        assert table is not None and table.message_id is not None
        seated = Seated(channel, game.id, {str(a.id): a for a in actors})
        for actor in actors:
            message = to_discord_message(
                world.env, world.env.backend.get_message(channel.id, int(table.message_id))
            )
            seated.views[str(actor.id)] = await actor.click(message, label="Show my hand")
        tables.append(seated)
    await world.settle()
    return tables


def choice(message: Any, rng: random.Random) -> tuple[str, list[str] | None] | None:
    """A choice in a private view: one of its one-tap buttons, or an act in its menu (a group of
    the menu when it has only groups)."""
    buttons = [c for c in components_of(message) if str(c.get("custom_id", "")).startswith("parlour:act:")]
    if buttons:
        return rng.choice(buttons)["custom_id"], None
    menus = [c for c in selects(message) if str(c.get("custom_id", "")).startswith("parlour:pick:")]
    if menus:
        options = [o["value"] for o in menus[0]["options"]]
        acts = [v for v in options if v.startswith("a")] or options
        return menus[0]["custom_id"], [rng.choice(acts)]
    return None


async def drive(
    world: World, seated: Seated, answers: Answers, step: Step, until: float, rng: random.Random
) -> None:
    """One table's people: every 2 to 6 seconds the awaited person clicks in their view."""
    while True:
        await asyncio.sleep(rng.uniform(2.0, 6.0))
        if time.perf_counter() >= until:
            return
        table = world.bot.service.table(str(world.guild.id), str(seated.channel.id))
        if table is None or table.state is None or table.state.is_over:
            return
        awaited = [s for s in table.state.awaiting() if table.seats[s].user_id in seated.actors]
        if not awaited:
            continue
        user_id = table.seats[awaited[0]].user_id
        assert user_id is not None
        message = seated.views[user_id].response
        picked = choice(message, rng) if message is not None else None
        if picked is None:
            continue
        turn = table.turn
        sent = time.perf_counter()
        interaction = emit_component(world.env, seated.actors[user_id], message, *picked)
        waiter = answers.expect(interaction)
        step.clicks += 1
        try:
            answered = await asyncio.wait_for(waiter, 4 * DEADLINE)
        except TimeoutError:
            step.unanswered += 1
            continue
        step.latencies.append(answered - sent)
        # the move is counted when the table moved on (the answer comes after it)
        if table.turn > turn:
            step.moves += 1


def print_shares(profiler: cProfile.Profile) -> None:
    """The profiled CPU (each function's own time) by where its code lives: the simulated Discord,
    discord.py, the bot's adapter, its pictures, the games, storage, Python's own."""
    shares: Counter[str] = Counter()
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    for (filename, _line, name), (_cc, _nc, own, _cum, _callers) in stats.items():
        parts = filename.replace("\\", "/").split("/")
        if "simcord" in parts:
            where = "simcord (the simulated Discord)"
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
        elif name.startswith("<method 'poll'") or "epoll" in name:
            where = "(waiting for events)"
        else:
            where = "Python and others (asyncio, copy, json...)"
        shares[where] += own
    busy = sum(v for k, v in shares.items() if not k.startswith("("))
    print("CPU of the event loop's thread while clicking, by package (own time):")
    for where, own in shares.most_common():
        if not where.startswith("("):
            print(f"  {100 * own / busy:5.1f}%  {own:6.2f} s  {where}")


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def run(
    sizes: Sequence[int], seconds: float, workers: int, seed: int, profiler: cProfile.Profile | None = None
) -> list[Step]:
    rng = random.Random(seed)
    steps: list[Step] = []
    with tempfile.TemporaryDirectory() as tmp:
        async with simulated_world(World, Path(tmp) / "capacity.sqlite3", seed=seed) as world:
            drawer = pool.configure(workers)
            tables: list[Seated] = []
            for size in sizes:
                tables += await seat_tables(world, size - len(tables), rng)
                live = [
                    t
                    for t in tables
                    if (tb := world.bot.service.table(str(world.guild.id), str(t.channel.id))) is not None
                    and tb.state is not None
                    and not tb.state.is_over
                ]
                step = Step(len(live), seconds)
                with Answers() as answers:
                    if profiler is not None:
                        profiler.enable()
                    start_cpu = cpu_seconds()
                    until = time.perf_counter() + seconds
                    await asyncio.gather(*(drive(world, t, answers, step, until, rng) for t in live))
                    step.cpu = cpu_seconds() - start_cpu
                    if profiler is not None:
                        profiler.disable()
                steps.append(step)
                print(step.line(), flush=True)
                await world.settle()
            drawer.close()
            pool.configure(0)
    return steps


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--tables", default="20,40,80,160", help="table counts, rising (comma-separated)")
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds of clicking at each count")
    parser.add_argument(
        "--workers", type=int, default=None, help="picture processes (default: one per core; 0: none)"
    )
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument(
        "--profile",
        action="store_true",
        help="profile the clicking (the event loop's thread) and print CPU by package",
    )
    args = parser.parse_args(argv)
    sizes = sorted({int(n) for n in args.tables.split(",") if n})
    workers = pool.default_workers() if args.workers is None else args.workers
    print(f"tables clicked every 2-6 s; pictures drawn by {workers} process(es); {args.seconds:.0f} s a step")
    print(
        f"{'tables':>6} {'moves/s':>8} {'clicks/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'>3 s %':>6} {'CPU ms/move':>8}"
    )
    profiler = cProfile.Profile() if args.profile else None
    steps = asyncio.run(run(sizes, args.seconds, workers, args.seed, profiler))
    if profiler is not None:
        print_shares(profiler)
    good = [s for s in steps if s.latencies and percentile(s.latencies, 0.99) < GOAL_P99 and not s.unanswered]
    if good:
        knee = max(good, key=lambda s: s.moves)
        print(
            f"knee: {knee.tables} tables, {knee.moves / knee.seconds:.1f} moves/s with click-to-answer p99 "
            f"{1000 * percentile(knee.latencies, 0.99):.0f} ms (goal {GOAL_MOVES:.0f} moves/s, p99 under {GOAL_P99:.0f} s)"
        )
    else:
        print("no step kept its p99 under a second")
    print(
        f"bot process CPU per move (its own, without the picture workers): median over steps "
        f"{statistics.median(1000 * s.cpu / max(s.moves, 1) for s in steps):.1f} ms"
    )


if __name__ == "__main__":
    main()
