"""Benchmark (not a test): the match page of record, over HTTP, for a long match of each game.

    .venv/bin/python -m tests.bench.bench_match_page [--steps 200] [--seeds 6] [--games parity,spec]

For each game, the longest of a few random-played matches (``--seeds``) is stored in a SQLite file
and served by the match pages on a real port. Timed, from the client's side:

* ``first``: the match's first page (one replay of the whole match, the first step, the analysis
  of its first deal where the game has an analyser);
* ``step p50/p99``: ``--steps`` steps asked in a random order across the whole match, each for the
  first time (each drawn and, on a deal's first visit, analysed);
* ``again p50/p99``: the same steps asked again (from the cache: a finished match never changes).

The goal is a match page under 200 ms p99.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from bot.web.records.match_page import PATIENCE
from games.engine import GameState
from storage.sessions import Store
from tests.web.matches_of_record import GUILD, SHORT, RecordSite, played, show_pages, store_match


def longest(game_id: str, seeds: int) -> GameState[Any]:
    matches = [played(game_id, seed=seed, options={}) for seed in range(1, seeds + 1)]
    return max(matches, key=lambda s: s.turn)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def timed(http: aiohttp.ClientSession, url: str) -> float:
    start = time.perf_counter()
    async with http.get(url) as response:
        await response.read()
        assert response.status == 200, url
    return (time.perf_counter() - start) * 1000


async def bench_game(site: RecordSite, http: aiohttp.ClientSession, game_id: str, steps: int, seeds: int) -> str:
    state = longest(game_id, seeds)
    match = await store_match(site.store, state)
    base = f"{site.url}/servers/{GUILD}/matches/{match}"
    first = await timed(http, base)
    assert site.pages is not None
    view, _ = await site.pages.view(GUILD, match)
    replay = view.replay
    every = [(d, m) for d in replay.deals for m in range(len(replay.by_deal[d]) + 1) if (d, m) != (replay.deals[0], 0)]
    chosen = random.Random(game_id).sample(every, min(steps, len(every)))
    urls = [f"{base}?deal={d}&move={m}" for d, m in chosen]
    cold = [await timed(http, u) for u in urls]
    warm = [await timed(http, u) for u in urls]
    return (
        f"{game_id:18} {len(replay.deals):4} {len(replay.moves):6} {first:8.1f} "
        f"{statistics.median(cold):8.1f} {pct(cold, 0.99):8.1f} {max(cold):8.1f} "
        f"{statistics.median(warm):8.2f} {pct(warm, 0.99):8.2f}"
    )


async def main(steps: int, seeds: int, games: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3")
        await show_pages(store, GUILD)
        site = RecordSite(store, patience=PATIENCE, analysts=1, ahead=True)
        await site.start()
        try:
            async with aiohttp.ClientSession() as http:
                print(f"{'game':18} {'deals':>4} {'moves':>6} {'first':>8} {'step p50':>8} {'step p99':>8} {'max':>8} {'again p50':>8} {'p99':>8}  (ms)")
                for game_id in games:
                    print(await bench_game(site, http, game_id, steps, seeds), flush=True)
        finally:
            await site.stop()
            await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--seeds", type=int, default=6)
    parser.add_argument("--games", default=",".join(sorted(SHORT)))
    args = parser.parse_args()
    asyncio.run(main(args.steps, args.seeds, args.games.split(",")))
