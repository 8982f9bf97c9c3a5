"""Benchmark (not a test): the pages of record for a server with many matches, over HTTP.

    nice -n 10 .venv/bin/python -m tests.bench.bench_pages [--matches 100000] [--players 500] [--requests 200]

Builds a SQLite database of finished matches (as ``bench_leaderboard`` does, plus a rating
history row per player and match), turns the server's pages on, serves them with the real web
routes on a local port and times whole requests (p50 and p99): the index, the leaderboard for each
period, and a player's page. Goal: a leaderboard page under 100 ms p99. PostgreSQL is not measured
here (the builder writes SQLite's file directly).
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
from aiohttp import web

from bot.web.records.access import player_key
from bot.web.records.routes import add_record_routes
from storage.open import connect
from storage.sessions import Store
from tests.bench.bench_leaderboard import build

GUILD = "555"
"""A server id as Discord writes them (the builder's ``g`` is renamed: the pages take only digits)."""


async def add_history_and_pages(path: Path, seed: int = 2) -> str:
    """Rating history for every rated placing, and the server's pages turned on; returns its secret."""
    conn = await connect(path)
    raw = conn.raw  # type: ignore[attr-defined]
    rng = random.Random(seed)
    for table in ("sessions", "results", "ratings"):
        await raw.execute(f"UPDATE {table} SET guild_id = ?", (GUILD,))
    rows = []
    async with raw.execute(
        "SELECT p.session_id, p.user_id, r.finished_at FROM result_players p JOIN results r USING (session_id)"
    ) as cur:
        async for sid, user, at in cur:
            mu, sigma = 25 + rng.gauss(0, 4), 3 + rng.random() * 4
            rows.append((sid, GUILD, "parity", user, mu, sigma, mu, sigma, at))
    await raw.executemany(
        "INSERT INTO rating_history (session_id, guild_id, game, user_id, mu_before, sigma_before, mu, sigma, at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    await raw.execute(
        "INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?)",
        (GUILD, json.dumps({"pages": True, "page_names": True})),
    )
    secret = "0123456789abcdef0123456789abcdef"
    await raw.execute("INSERT INTO record_pages (guild_id, secret, guild_name) VALUES (?, ?, 'Bench')", (GUILD, secret))
    await conn.commit()
    await conn.close()
    return secret


def percentile(times: list[float], p: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def timed(http: aiohttp.ClientSession, label: str, url: str, repeat: int) -> None:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        async with http.get(url) as response:
            await response.read()
            assert response.status == 200, (url, response.status)
        times.append(time.perf_counter() - start)
    print(
        f"{label:<26} p50 {1000 * statistics.median(times):7.2f} ms   p99 {1000 * percentile(times, 99):7.2f} ms"
        f"   max {1000 * max(times):7.2f} ms"
    )


async def main(matches: int, players: int, repeat: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite3"
        start = time.perf_counter()
        await build(path, matches, players)
        secret = await add_history_and_pages(path)
        print(f"built {matches} matches, {players} players in {time.perf_counter() - start:.1f} s")
        store = await Store.open(path)
        app = web.Application()
        add_record_routes(app, store, "http://127.0.0.1", {})
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        base = f"http://127.0.0.1:{port}/servers/{GUILD}"
        try:
            async with aiohttp.ClientSession() as http:
                await timed(http, "index", f"{base}/", repeat)
                for period in ("all", "season", "month", "week"):
                    await timed(http, f"leaderboard {period}", f"{base}/games/parity?period={period}", repeat)
                await timed(http, "leaderboard all, page 5", f"{base}/games/parity?page=5", repeat)
                await timed(http, "player page", f"{base}/players/{player_key(secret, '7')}", repeat)
        finally:
            await runner.cleanup()
            await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    asyncio.run(main(args.matches, args.players, args.requests))
