"""The live table under load: many tables in play at once, each watched over websockets by its two
players and a spectator; a player clicks about once a second at every table. Prints the time from
a click to the moment every viewer of that table has the new frame (p50, p99), the frames each
viewer gets per move, and the frame sizes.

    python -m tests.bench.bench_live [--tables 100] [--seconds 20]

Everything runs in one process on this machine (the bot's service, its web server on a real port,
SQLite, and the clients), so the figure includes the clients' own work.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

import aiohttp

from bot.tables import User
from bot.web.identity import DiscordIdentity
from bot.web.server import Bucket
from bot.web.sessions import WebUser
from tests.web.conftest import Site, free_port
from tests.web.discord_stand_in import BOT_TOKEN, CLIENT_ID, StandIn

GUILD = "10"


class Viewer:
    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.turn = -1
        self.frames = 0
        self.bytes: list[int] = []
        self.changed = asyncio.Event()
        self.last: dict[str, object] = {}

    async def read(self) -> None:
        async for message in self.ws:
            data = json.loads(message.data)
            if data.get("type") != "table":
                continue
            self.frames += 1
            self.bytes.append(len(message.data.encode()))
            self.turn = int(data["turn"])
            self.last = data
            self.changed.set()

    async def until(self, turn: int) -> None:
        while self.turn < turn:
            self.changed.clear()
            await self.changed.wait()


async def run(tables: int, seconds: float) -> None:
    users = {f"u{i}": str(1000 + i) for i in range(2 * tables + 1)}
    stand_in = StandIn(users, GUILD, "0")
    with tempfile.TemporaryDirectory() as tmp:
        http = aiohttp.ClientSession()
        identity = DiscordIdentity(http, client_id=CLIENT_ID, client_secret="secret", bot_token=BOT_TOKEN)
        site = Site(Path(tmp) / "bench.sqlite3", free_port(), identity, stand_in)
        site.members.add(users[f"u{2 * tables}"])
        await site.start()
        site.server.hellos = Bucket(rate=1e9, burst=1e9)  # one watcher opens a socket at each of the tables
        service = site.service
        for t in range(tables):
            channel = str(100 + t)
            a, b = (User(users[f"u{2 * t + k}"], f"p{2 * t + k}") for k in (0, 1))
            await service.open_table(GUILD, channel, a, "fifty_one")
            await service.join(GUILD, channel, b)
            await service.start(GUILD, channel, a)
        client = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
        viewers: dict[int, list[Viewer]] = {}
        readers = []
        watcher = WebUser(users[f"u{2 * tables}"], "watcher")
        for t in range(tables):
            viewers[t] = []
            for who in (WebUser(users[f"u{2 * t}"], "a"), WebUser(users[f"u{2 * t + 1}"], "b"), watcher):
                ws = await client.ws_connect(f"{site.url}/ws", headers={"Origin": site.url})
                token = site.server.sessions.issue(who)
                await ws.send_str(json.dumps({"session": token, "table": [GUILD, str(100 + t)]}))
                viewer = Viewer(ws)
                viewers[t].append(viewer)
                readers.append(asyncio.create_task(viewer.read()))
        for group in viewers.values():
            for viewer in group:
                await viewer.until(0)
        latencies: list[float] = []
        moves = 0
        frames_before = sum(v.frames for g in viewers.values() for v in g)
        stop_at = time.perf_counter() + seconds

        async def play(t: int) -> None:
            nonlocal moves
            rng = random.Random(t)
            await asyncio.sleep(rng.random())
            while time.perf_counter() < stop_at:
                group = viewers[t]
                frame = group[2].last
                awaiting = frame.get("awaiting") or []
                if frame.get("over") or not awaiting:
                    return
                mover = group[int(awaiting[0])]  # type: ignore[index]
                if mover.turn != group[2].turn or not mover.last.get("choices"):
                    await asyncio.sleep(0.05)
                    continue
                turn = mover.turn
                began = time.perf_counter()
                choices = mover.last["choices"]
                assert isinstance(choices, list)
                await mover.ws.send_str(json.dumps({"act": {"turn": turn, "choice": rng.randrange(len(choices))}}))
                await asyncio.gather(*(v.until(turn + 1) for v in group))
                latencies.append(time.perf_counter() - began)
                moves += 1
                await asyncio.sleep(0.5 + rng.random())

        await asyncio.gather(*(play(t) for t in range(tables)))
        frames = sum(v.frames for g in viewers.values() for v in g) - frames_before
        sizes = [n for g in viewers.values() for v in g for n in v.bytes]
        for task in readers:
            task.cancel()
        await client.close()
        await site.stop()
        await http.close()
    latencies.sort()
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000  # noqa: E731
    print(f"live tables: {tables}, viewers: {3 * tables}, moves: {moves} in {seconds:.0f} s ({moves / seconds:.1f}/s)")
    print(f"click to every viewer's frame: p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms, max {latencies[-1] * 1000:.1f} ms")
    print(f"frames per viewer per move: {frames / max(1, moves) / 3:.2f}")
    print(f"frame size: median {statistics.median(sizes) / 1024:.1f} KiB, max {max(sizes) / 1024:.1f} KiB")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    asyncio.run(run(args.tables, args.seconds))


if __name__ == "__main__":
    main()
