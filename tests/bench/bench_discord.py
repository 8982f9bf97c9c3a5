"""Benchmark (not a test): Discord REST calls per game action, per game, in a simulated Discord.

    .venv/bin/python -m tests.bench.bench_discord [--actions 120] [--games parity,spec] [--kinds people] [--causes]

Each game is played twice in SimCord (which runs the real discord.py against a simulated API):
at a table of people only (the game's fewest players, at most three) and at a table of one
person and bots. People play as they would with live views: each opens their private view once
(Show my hand) and then makes every move in it. Every REST call the bot makes from the press of
Start on is counted (the answers to clicks and Show my hand, table message posts and edits, live
view refreshes, turn pings and their deletion, DMs, retired deal messages, the final result), over whole
matches played one after another until ``--actions`` game actions; the lobby's calls are left out. Printed per game: calls per game action (every seat's, bots'
included), calls per move of a person, DMs sent and the goal; with ``--causes``, every route's
calls split by the bot's functions that made them (which edit, refresh, ping or answer), and the
calls per action by what they were for: each move's own three (its answer, the table message, the
next person's view), then the starts, deals and ends.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

GOALS = {"people": 3.0, "bots": 2.0}


@dataclass
class Count:
    game: str
    kind: str
    players: int
    calls: int
    actions: int
    moves: int
    dms: int
    routes: Counter[str]
    matches: int
    causes: Counter[str]
    """Calls by route and by the bot's functions that made them (innermost first)."""

    @property
    def per_action(self) -> float:
        return self.calls / max(self.actions, 1)

    @property
    def per_move(self) -> float:
        return self.calls / max(self.moves, 1)


async def count_calls(game_id: str, kind: str, players: int, actions: int) -> Count:
    from simcord.http import router

    from tests.bot.discord.conftest import World, simulated_world, start_game
    from tests.bot.discord.live_play import LivePlay

    seen: Counter[str] = Counter()
    causes: Counter[str] = Counter()
    real_dispatch = router.dispatch

    def counting(backend: Any, method: str, path: str, *args: Any, **kwargs: Any) -> Any:
        route = f"{method} {re.sub(r'[0-9]{6,}|/[A-Za-z0-9_.-]{40,}', lambda m: '/*' if m[0].startswith('/') else '*', path)}"
        seen[route] += 1
        causes[f"{route}  <- {cause(sys._getframe(1))}"] += 1
        return real_dispatch(backend, method, path, *args, **kwargs)

    def count_from_here() -> None:  # from the press of Start on: the game's calls, not the lobby's
        router.dispatch = counting

    done = moves = matches = dms = 0
    with tempfile.TemporaryDirectory() as tmp:
        async with simulated_world(World, Path(tmp) / "rest.sqlite3", seed=11) as world:
            try:
                while done < actions:  # whole matches, one after another, until enough actions
                    if kind == "people":
                        table = await start_game(world, game_id, players, before_start=count_from_here)
                    else:
                        table = await start_game(world, game_id, 1, players - 1, before_start=count_from_here)
                    live = LivePlay(world)
                    while world.table is not None:
                        await live.move(pick=live.moves % 3)
                    await world.settle()
                    router.dispatch = real_dispatch
                    done, moves, matches = done + table.turn, moves + live.moves, matches + 1
            finally:
                router.dispatch = real_dispatch
            dms = sum(len(world.dms(a)) for a in (world.ann, world.bob, world.cat))
    return Count(game_id, kind, players, sum(seen.values()), done, moves, dms, seen, matches, causes)


SHARES = {
    "the move's answer": ("._act_in_hand", ".navigate"),
    "table edits": ("._edit <",),
    "turn refreshes": ("._refresh_view",),
    "views opened": (".show_hand", "._open_view"),
    "DMs": (".safe_dm",),
    "pings": ("._ping", "._unping", "._remind"),
    "posts, retired": ("._post", "._retire", "lobby."),
    "ends": ("._close", "._shut_view", "._lapse"),
}
"""What the calls were for, by the functions that made them: the first three are each move's own
(its answer, the table message, the next person's view), the rest the starts, deals and ends."""


def shares(count: Count) -> dict[str, float]:
    """Calls per action by what they were for (``SHARES``), and "other" for the rest."""
    out = dict.fromkeys([*SHARES, "other"], 0.0)
    for line, n in count.causes.items():
        made_by = line.split("<-", 1)[1]
        share = next((name for name, marks in SHARES.items() if any(m in made_by for m in marks)), "other")
        out[share] += n / max(count.actions, 1)
    return out


def cause(frame: FrameType | None) -> str:
    """Who made a call: the chain of the bot's own functions on the stack, innermost first (the
    simulated HTTP call runs in the caller's task, so its coroutines are all on the stack)."""
    chain: list[str] = []
    while frame is not None and len(chain) < 3:
        parts = Path(frame.f_code.co_filename).parts
        helper = frame.f_code.co_name in ("safe_call", "safe_outcome", "_as_awaitable")
        if "bot" in parts and "tests" not in parts and "site-packages" not in parts and not helper:
            name = f"{Path(frame.f_code.co_filename).stem}.{frame.f_code.co_name}"
            if not chain or chain[-1] != name:
                chain.append(name)
        frame = frame.f_back
    return " < ".join(chain) or "discord.py"


def main(argv: Sequence[str] | None = None) -> None:
    from games.registry import all_games

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--actions", type=int, default=200, help="game actions per table, in whole matches")
    parser.add_argument("--games", default="", help="comma-separated game ids (default: every game)")
    parser.add_argument("--routes", action="store_true", help="also print the calls by route")
    parser.add_argument("--causes", action="store_true", help="also print the calls by route and by what made them")
    parser.add_argument("--kinds", default="people,bots", help="which tables: people, bots or both")
    args = parser.parse_args(argv)
    wanted = [g for g in args.games.split(",") if g]
    games = [g for g in all_games() if not wanted or g.id in wanted]
    print(f"REST calls per game action, whole matches of at least {args.actions} actions in all per table")
    print(
        f"{'game':<18} {'table':<22} {'matches':>7} {'calls':>6} {'actions':>7} {'per action':>10} {'per move':>9}"
        f" {'DMs':>4}"
    )
    results: dict[str, list[float]] = {"people": [], "bots": []}
    for game in games:
        fewest = min(game.player_counts)
        for kind in ("people", "bots"):
            players = min(fewest, 3) if kind == "people" else fewest
            if (kind == "people" and fewest > 3) or kind not in args.kinds.split(","):
                continue
            count = asyncio.run(count_calls(game.id, kind, players, args.actions))
            results[kind].append(count.per_action)
            label = f"{players} people" if kind == "people" else f"1 person, {players - 1} bot(s)"
            print(
                f"{game.id:<18} {label:<22} {count.matches:>7} {count.calls:>6} {count.actions:>7} {count.per_action:>10.2f}"
                f" {count.per_move:>9.2f} {count.dms:>4}"
            )
            if args.routes:
                for route, n in count.routes.most_common():
                    print(f"    {n:>5}  {route}")
            if args.causes:
                for route, n in count.causes.most_common():
                    print(f"    {n:>5}  {route}")
                print("    per action: " + ", ".join(f"{k} {v:.2f}" for k, v in shares(count).items() if v))
    for kind, values in results.items():
        if values:
            print(
                f"mean over games, {kind}: {statistics.fmean(values):.2f} calls per action "
                f"(worst {max(values):.2f}; goal at most {GOALS[kind]:.1f})"
            )


if __name__ == "__main__":
    main()
