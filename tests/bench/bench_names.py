"""Benchmark (not a test): how wide each game's pictures grow with players' real names.

    .venv/bin/python -m tests.bench.bench_names [--names short,long,ten,32,cjk] [--game ID] [--save DIR]

For each game, a random match at its largest player count (seed 7, the positions of
``tests/bot/test_pictures.py``) with each set of names; prints, per set, the widest picture (table
or hand) and its smallest text at a phone's 320 px. A picture at most 464 px wide keeps text at
least 11 px there. ``--save DIR`` writes each game's widest table and hand picture of each set as
sent (PNG) and, per game and set, a sheet of them as sent (top) and at 320 px wide (below).

The sets (:data:`tests.bot.test_pictures.NAME_SETS`): ``short`` P1, P2...; ``long`` the test's
:data:`tests.bot.test_pictures.LONG_NAMES`; ``ten`` ten letters, wide and narrow; ``32`` 32
characters; ``cjk`` Chinese, Korean, emoji.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import Any

from PIL import Image

from bot.render import drawlog, pictures
from bot.render.tableau import Style, compact_style, draw_layout
from games.engine import GameState
from games.layout import Layout
from games.registry import CATALOGUE, get_game
from games.simulate import play_match
from tests.bot.test_pictures import NAME_SETS as SETS
from tests.bot.test_pictures import PHONE, POSITIONS


def pictures_of(state: GameState[Any]) -> list[tuple[str, Layout, bool]]:
    out = [("table", pictures.table_layout(state.view(None)), False)]
    for seat in sorted(state.awaiting()) or [0]:
        out.append(("hand", pictures.hand_layout(state.view(seat), state.legal_actions(seat)), True))
    return out


def widest(game_id: str, names: Callable[[int], list[str]]) -> dict[str, tuple[int, float, int, Layout, bool]]:
    """The widest table and hand picture of the match: width, smallest text at 320 px, turn, layout."""
    game = get_game(game_id)
    kept: list[GameState[Any]] = []

    def keep(state: GameState[Any]) -> None:
        if state.turn in POSITIONS:
            kept.append(state.clone())

    final = play_match(game, names(max(game.player_counts)), seed=7, on_action=keep)
    found: dict[str, tuple[int, float, int, Layout, bool]] = {}
    for state in [*kept, final]:
        for kind, layout, compact in pictures_of(state):
            with drawlog.recording() as log:
                draw_layout(layout, compact_style(layout) if compact else Style())
            if kind not in found or log.width > found[kind][0]:
                found[kind] = (log.width, log.smallest_text(PHONE), state.turn, layout, compact)
    return found


def sheet(files: list[str], path: str) -> None:
    """The pictures as sent, side by side, over the same at a phone's 320 px."""
    drawn = [Image.open(f).convert("RGB") for f in files]
    phone = [i.resize((PHONE, round(i.height * PHONE / i.width)), Image.Resampling.LANCZOS) for i in drawn]
    width = max(sum(i.width + 10 for i in drawn), (PHONE + 10) * len(drawn))
    top = max(i.height for i in drawn) + 10
    out = Image.new("RGB", (width, top + max(p.height for p in phone)), (255, 255, 255))
    for k, (big, small) in enumerate(zip(drawn, phone, strict=True)):
        out.paste(big, (sum(i.width + 10 for i in drawn[:k]), 0))
        out.paste(small, (k * (PHONE + 10), top))
    out.save(path)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--names", default="short,long,ten,32,cjk")
    parser.add_argument("--game", action="append")
    parser.add_argument("--save")
    args = parser.parse_args()
    keys = args.names.split(",")
    games = args.game or [module.rpartition(".")[2] for module in CATALOGUE]
    print(f"{'game':18} " + " ".join(f"{k + ' (px, text)':>22}" for k in keys))
    for game_id in games:
        row = []
        for key in keys:
            found = widest(game_id, SETS[key])
            width, text, turn, _, _ = max(found.values(), key=lambda f: f[0])
            row.append(f"{width:>4} {text:4.1f} px t{turn:<4}")
            if args.save:
                os.makedirs(args.save, exist_ok=True)
                files = []
                for kind, (w, _, t, layout, compact) in sorted(found.items()):
                    files.append(f"{args.save}/{game_id}-{key}-{kind}-t{t}-{w}.png")
                    with open(files[-1], "wb") as f:
                        f.write(pictures.render_png(layout, compact))
                sheet(files, f"{args.save}/{game_id}-{key}-sheet.png")
        print(f"{game_id:18} " + " ".join(f"{r:>22}" for r in row), flush=True)


if __name__ == "__main__":
    main()
