"""A Parlour process without Discord, driven over its standard input: the table service on a
database, with the shard leases of a sharded bot. The two-process tests and the shard benchmark
start several of these on one PostgreSQL, kill some, and check what each may do.

    python -m tests.shard_process DATABASE [--count N --ids 0,1] [--lease S] [--journal FILE]
        [--web PORT --prefix /p/0 --public-url URL --discord URL]

With ``--web`` it also serves the live table on that port of 127.0.0.1 (its path prefix recorded
with its leases, the log-in checked at ``--discord``, a stand-in), as the bot does with
``PARLOUR_PUBLIC_URL`` and ``PARLOUR_WEB_PREFIX``.

It prints one JSON line when it is ready (its leases held, its tables restored) and answers each
JSON command line with one JSON line:

- ``{"op": "open", "tables": [[guild, channel, game], ...]}``: open each table with people in
  every seat and start it; answers how many opened and the first refusals. A fourth item, a list
  of ``[user id, name]``, names the people seated.
- ``{"op": "act", "guild": g, "channel": c}``: one random legal move of an awaited seat; answers
  the session and the move's number, or the refusal.
- ``{"op": "play", "seconds": s, "seed": k}``: random moves across this process's tables for
  ``s`` seconds (or until ``"moves": n`` were acknowledged, if given, whichever comes first);
  answers the handler time of each (milliseconds) and how many matches finished.
- ``{"op": "tables"}``: this process's open tables (guild, channel, session, moves logged).
- ``{"op": "claim"}``: what it holds of the database (its lock, and its leases).
- ``{"op": "quit"}``: stop cleanly, giving the leases back.

Every acknowledged move is appended to ``--journal`` (``session seq``) before the next begins,
unbuffered, so that a process killed at any moment leaves a list of what it acknowledged.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.service.registry import everywhere
from bot.shards import ShardKeeper, ShardPlan, lease_plan, parse_shard_ids, shard_of
from bot.tables import TableError, TableService, User
from games.registry import get_game
from storage.postgres import DatabaseLock
from storage.sessions import Store
from tests.bench.bench_tables import QuietNotifier

if TYPE_CHECKING:
    from bot.web.run import LiveSite


def guild_on(shard: int, count: int, k: int = 0) -> str:
    """A server id that Discord puts on ``shard`` of ``count`` (the ``k``-th such)."""
    guild = ((1000 + k) * count + shard) << 22 | 12345
    assert shard_of(guild, count) == shard
    return str(guild)


def people(guild: str, channel: str, count: int) -> list[User]:
    return [User(f"{guild}:{channel}:{s}", f"P{s + 1}") for s in range(count)]


class Process:
    def __init__(self, service: TableService, journal: int | None) -> None:
        self.service = service
        self.journal = journal

    async def open(self, tables: list[list[Any]]) -> dict[str, Any]:
        opened, refused = 0, []
        for guild, channel, game_id, *named in tables:
            game = get_game(game_id)
            seated = [User(*p) for p in named[0]] if named else people(guild, channel, game.player_counts[0])
            try:
                await self.service.open_table(guild, channel, seated[0], game_id)
                for person in seated[1:]:
                    await self.service.join(guild, channel, person)
                await self.service.start(guild, channel, seated[0])
                opened += 1
            except TableError as exc:
                refused.append(str(exc))
        return {"opened": opened, "refused": refused[:3], "refusals": len(refused)}

    async def act(self, guild: str, channel: str, rng: random.Random) -> dict[str, Any]:
        """One random legal move at the channel's table, as the awaited player."""
        try:
            table = await self.service.ready(guild, channel)
            if table is None or table.state is None:
                self.service.require_table(guild, channel)  # says why (another process's server)
                return {"error": "no table in play here"}
            seat = rng.choice(sorted(table.state.actors()))
            action = rng.choice(table.state.legal_actions(seat))
            turn = table.state.turn
            user = User(table.seats[seat].user_id or "", table.seats[seat].name)
            await self.service.act(guild, channel, user, action, turn=turn)
        except TableError as exc:
            return {"error": str(exc)}
        if self.journal is not None:
            os.write(self.journal, f"{table.id} {turn}\n".encode())
        return {"session": table.id, "seq": turn}

    async def play(self, seconds: float, seed: int, moves: int | None = None) -> dict[str, Any]:
        rng = random.Random(seed)
        keys = sorted(self.service.tables)
        timings: list[float] = []
        refused = 0
        end = time.monotonic() + seconds
        while keys and time.monotonic() < end and (moves is None or len(timings) < moves):
            guild, channel = rng.choice(keys)
            start = time.perf_counter()
            answer = await self.act(guild, channel, rng)
            elapsed = time.perf_counter() - start
            if "error" in answer:
                refused += 1
                if self.service.table(guild, channel) is None:
                    keys.remove((guild, channel))  # the match ended
                continue
            timings.append(1000 * elapsed)
        return {"ms": [round(t, 3) for t in timings], "refused": refused}

    def tables(self) -> list[dict[str, Any]]:
        return [
            {"guild": t.guild_id, "channel": t.channel_id, "session": t.id, "moves": t.stored_turn}
            for t in self.service.tables.values()
        ]


def claim(store: Store, keeper: ShardKeeper | None) -> dict[str, Any]:
    """What this process holds of the database: its lock (held now, how many times taken again
    after its connection ended) and its leases."""
    lock = store._process_lock
    holder = lock.holder if isinstance(lock, DatabaseLock) else None
    return {
        "lock": holder is not None and holder.holding,
        "retaken": holder.retaken if holder is not None else 0,
        "shards": sorted(keeper.leases.held) if keeper is not None else [],
    }


async def serve(args: argparse.Namespace) -> None:
    plan = ShardPlan(args.count, parse_shard_ids(args.ids)) if args.ids else None
    store = await Store.open(args.database, shared=plan is not None)
    started = time.monotonic()
    keeper: ShardKeeper | None = None
    serves = everywhere
    leased = lease_plan(store.conn, plan)  # unsharded on PostgreSQL: the whole database, as the bot
    if leased is not None:
        keeper = ShardKeeper(store.conn, leased, seconds=args.lease, address=args.prefix if args.web else None)
        await keeper.acquire(poll=0.05)
        serves = keeper.serves
    service = TableService(store, QuietNotifier(), serves=serves)
    loop = asyncio.get_running_loop()
    if keeper is not None:  # renewing before the restore, as the bot does
        count = keeper.plan.count

        async def lost(shards: list[int]) -> None:
            service.let_go(lambda guild: shard_of(guild, count) in shards)
            print(json.dumps({"event": "lost", "shards": shards}), flush=True)

        keeper.start(lost)
    restored = await service.load()
    site = await live_site(args, service, keeper) if args.web else None
    journal = os.open(args.journal, os.O_WRONLY | os.O_APPEND | os.O_CREAT) if args.journal else None
    process = Process(service, journal)
    owner = keeper.owner if keeper is not None else "alone"
    print(json.dumps({"event": "ready", "restored": restored, "waited": time.monotonic() - started, "owner": owner}), flush=True)
    rng = random.Random(args.seed)
    try:
        while line := await loop.run_in_executor(None, sys.stdin.readline):
            command = json.loads(line)
            op = command["op"]
            if op == "quit":
                break
            if op == "open":
                answer = await process.open(command["tables"])
            elif op == "act":
                answer = await process.act(command["guild"], command["channel"], rng)
            elif op == "play":
                answer = await process.play(command["seconds"], command.get("seed", 0), command.get("moves"))
            elif op == "tables":
                answer = {"tables": process.tables()}
            elif op == "claim":
                answer = claim(store, keeper)
            else:
                answer = {"error": f"unknown op {op}"}
            print(json.dumps(answer), flush=True)
    finally:
        if site is not None:
            await site.close()
        await service.shutdown()
        if keeper is not None:
            await keeper.stop()
        await store.close()
        if journal is not None:
            os.close(journal)


async def live_site(args: argparse.Namespace, service: TableService, keeper: ShardKeeper | None) -> LiveSite:
    """The live table as the bot starts it (its settings from the same variables). Imported here:
    a process without it starts as fast as before (the lease tests time their starts)."""
    from bot.settings import Settings
    from bot.web.run import start_live_table
    from tests.web.discord_stand_in import BOT_TOKEN, CLIENT_ID

    settings = Settings(  # type: ignore[call-arg]
        _env_file=None,
        PARLOUR_PUBLIC_URL=args.public_url,
        DISCORD_CLIENT_SECRET="secret",
        PARLOUR_WEB_PORT=args.web,
        PARLOUR_WEB_PREFIX=args.prefix,
    )

    async def member(guild_id: str, user_id: str) -> bool:
        return True

    return await start_live_table(
        service,
        settings,
        client_id=CLIENT_ID,
        bot_token=BOT_TOKEN,
        membership=member,
        discord_api=args.discord,
        locate=keeper.web_address if keeper is not None else None,
    )


class ShardProcess:
    """The driver's side: starts ``python -m tests.shard_process`` and waits until it is ready
    (which, for a replacement, is once its predecessor's leases have lapsed)."""

    ROOT = Path(__file__).resolve().parents[1]

    def __init__(
        self,
        database: str,
        *,
        count: int = 1,
        ids: str = "",
        lease: float = 30.0,
        journal: Path | None = None,
        web: list[str] | None = None,
    ) -> None:
        """``web``: the live table's options (``--web PORT --prefix ...``), if it serves one."""
        command = [sys.executable, "-m", "tests.shard_process", database, "--count", str(count), "--lease", str(lease)]
        command += (["--ids", ids] if ids else []) + (["--journal", str(journal)] if journal else []) + (web or [])
        self.proc = subprocess.Popen(command, cwd=self.ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.ready = self.read()
        assert self.ready.get("event") == "ready", self.ready

    def read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the process stopped (exit code {self.proc.wait(timeout=30)})")
        return json.loads(line)  # type: ignore[no-any-return]

    def send(self, **command: Any) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(command) + "\n")
        self.proc.stdin.flush()

    def ask(self, **command: Any) -> dict[str, Any]:
        self.send(**command)
        return self.read()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)

    def quit(self) -> None:
        if self.proc.poll() is None:
            self.send(op="quit")
        self.proc.wait(timeout=60)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.shard_process")
    parser.add_argument("database")
    parser.add_argument("--count", type=int, default=1)
    parser.add_argument("--ids", default="", help="this process's shards (0,1 or 0-3); unset: unsharded")
    parser.add_argument("--lease", type=float, default=30.0)
    parser.add_argument("--journal", default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--web", type=int, default=None, help="serve the live table on this port")
    parser.add_argument("--prefix", default=None, help="the live table's own path (PARLOUR_WEB_PREFIX)")
    parser.add_argument("--public-url", default="http://parlour.test")
    parser.add_argument("--discord", default="", help="the Discord API stand-in's address")
    asyncio.run(serve(parser.parse_args(argv)))


if __name__ == "__main__":
    main()
