"""Benchmark (not a test): leaderboard and stats queries on a server with many matches.

    .venv/bin/python -m tests.bench.bench_leaderboard [--matches 100000] [--players 500]

Builds a database of finished matches (two to four players each, most rated), then times the
leaderboard for every period and a player's stats page.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from storage import stats
from storage.open import connect
from storage.ratings import ALL_TIME, Rating


async def build(path: Path, matches: int, players: int, seed: int = 1) -> None:
    conn = await connect(path)
    rng = random.Random(seed)
    ratings: dict[str, Rating] = {}
    sessions, results, seats = [], [], []
    for sid in range(1, matches + 1):
        n = rng.choice((2, 3, 4))
        users = rng.sample(range(players), n)
        when = f"2026-{1 + sid * 11 // matches:02d}-{1 + sid % 28:02d}T12:00:00.000Z"
        sessions.append((sid, "g", "c", "parity", "{}", str(users[0]), "[]", sid, "finished"))
        results.append((sid, "g", "parity", 1, "{}", when))
        for seat, u in enumerate(users):
            seats.append((sid, seat, str(u), f"Player {u}", rng.randrange(200), seat + 1))
    raw = conn.raw  # type: ignore[attr-defined]  # the SQLite file's own connection: rows written straight in
    await raw.executemany(
        "INSERT INTO sessions (id, guild_id, channel_id, game, options, host_id, seats, seed, status)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        sessions,
    )
    await raw.executemany(
        "INSERT INTO results (session_id, guild_id, game, rated, outcome, finished_at) VALUES (?, ?, ?, ?, ?, ?)",
        results,
    )
    await raw.executemany(
        "INSERT INTO result_players (session_id, seat, user_id, name, score, rank) VALUES (?, ?, ?, ?, ?, ?)", seats
    )
    for u in range(players):
        r = ratings.get(str(u), Rating(25 + rng.gauss(0, 5), 3 + rng.random() * 5))
        await raw.execute(
            "INSERT INTO ratings (guild_id, game, season, user_id, name, mu, sigma, ordinal, games, wins)"
            " VALUES ('g', 'parity', ?, ?, ?, ?, ?, ?, ?, ?)",
            (ALL_TIME, str(u), f"Player {u}", r.mu, r.sigma, r.ordinal, matches * 3 // players, matches // players),
        )
    await conn.commit()
    await conn.close()


async def timed(label: str, fn, repeat: int = 20) -> None:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        await fn()
        times.append(time.perf_counter() - start)
    print(f"{label:<28} median {1000 * statistics.median(times):8.2f} ms   max {1000 * max(times):8.2f} ms")


async def main(matches: int, players: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite3"
        start = time.perf_counter()
        await build(path, matches, players)
        print(f"built {matches} matches, {players} players in {time.perf_counter() - start:.1f} s")
        conn = await connect(path)
        for period in stats.PERIODS:
            await timed(f"leaderboard {period}", lambda p=period: stats.leaderboard(conn, "g", "parity", p))
        await timed("player stats", lambda: stats.player_stats(conn, "g", "7", "parity"))
        await timed("head to head", lambda: stats.head_to_head(conn, "g", "7", "8"))
        await timed("history of a player", lambda: stats.history(conn, "g", user_id="7"))
        await conn.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=500)
    args = parser.parse_args()
    asyncio.run(main(args.matches, args.players))
