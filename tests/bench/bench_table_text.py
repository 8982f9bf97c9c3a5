"""Benchmark (not a test): how much text the table message shows, per game, in a simulated Discord.

    .venv/bin/python -m tests.bench.bench_table_text [--actions 120] [--games parity,spec] [--show 2]

Each game is played at a table of people only (the game's fewest players, at most three), in
SimCord, as people play it with live private views (tests/bot/discord/live_play.py), in whole
matches one after another until ``--actions`` game actions. Every table message the bot renders
(each post and each edit, the final result included) is measured as a player reads it: its
content and its embeds' text (title, description, field names and values, footer), mentions
counted as written. Printed per game: messages rendered, the median and the 90th percentile of
their length, and the bot messages left in the channel at the end; ``--show`` prints the last
few messages' text.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord

GOAL = 300


@dataclass
class Texts:
    game: str
    players: int
    lengths: list[int] = field(default_factory=list)
    samples: list[str] = field(default_factory=list)
    left: int = 0
    """Bot messages in the channel after the last match (table messages, pings, notices)."""


def embed_text(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or ""]
    for f in embed.fields:
        parts += [f.name or "", f.value or ""]
    parts.append(embed.footer.text or "" if embed.footer else "")
    return "\n".join(p for p in parts if p)


async def measure(game_id: str, players: int, actions: int) -> Texts:
    import bot.discord.notifier as notifier
    from tests.bot.discord.conftest import World, simulated_world, start_game
    from tests.bot.discord.live_play import LivePlay

    found = Texts(game_id, players)
    real = notifier.table_message

    async def recording(*args: Any, **kwargs: Any) -> Any:
        message = await real(*args, **kwargs)
        embeds = getattr(message, "embeds", None) or [message.embed]
        text = "\n".join(embed_text(e) for e in embeds if e is not None)
        found.lengths.append(len(text))
        found.samples = [*found.samples[-4:], text]
        return message

    done = 0
    notifier.table_message = recording  # type: ignore[assignment]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            async with simulated_world(World, Path(tmp) / "text.sqlite3", seed=11) as world:
                while done < actions:
                    table = await start_game(world, game_id, players)
                    live = LivePlay(world)
                    while world.table is not None:
                        await live.move(pick=live.moves % 3)
                    await world.settle()
                    done += table.turn
                found.left = len(world.bot_messages())
    finally:
        notifier.table_message = real  # type: ignore[assignment]
    return found


def main(argv: Sequence[str] | None = None) -> None:
    from games.registry import all_games

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--actions", type=int, default=120, help="game actions per game, in whole matches")
    parser.add_argument("--games", default="", help="comma-separated game ids (default: every game)")
    parser.add_argument("--show", type=int, default=0, help="print the last few messages' text")
    args = parser.parse_args(argv)
    wanted = [g for g in args.games.split(",") if g]
    games = [g for g in all_games() if not wanted or g.id in wanted]
    print(f"Table message text (characters), people-only tables, whole matches of at least {args.actions} actions")
    print(f"{'game':<18} {'people':>6} {'messages':>8} {'median':>7} {'p90':>6} {'left in channel':>15}")
    medians = []
    for game in games:
        players = min(min(game.player_counts), 3)
        texts = asyncio.run(measure(game.id, players, args.actions))
        median = statistics.median(texts.lengths)
        medians.append(median)
        p90 = statistics.quantiles(texts.lengths, n=10)[-1] if len(texts.lengths) > 1 else median
        print(f"{game.id:<18} {players:>6} {len(texts.lengths):>8} {median:>7.0f} {p90:>6.0f} {texts.left:>15}")
        for sample in texts.samples[-args.show :] if args.show else []:
            print("    | " + sample.replace("\n", "\n    | "))
    print(f"worst median {max(medians):.0f}, mean of medians {statistics.fmean(medians):.0f} (goal: every median at most {GOAL})")


if __name__ == "__main__":
    main()
