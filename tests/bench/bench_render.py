"""Benchmark (not a test): drawing the pictures of tables and hands, per game.

    .venv/bin/python -m tests.bench.bench_render [--positions 60] [--game ID] [--referee] [--save DIR]

For each game, random matches at its largest player count (more than one where a match is shorter
than ``--positions``); at up to ``--positions`` of their positions the public table and the hand of
the seat to play are drawn three ways:

* cold: every cache emptied first (the first picture after a start: fonts, pips, card faces);
* new: a position not drawn before, card faces already cached (the usual case during play);
* cached: the same picture again (a refreshed message, another viewer).

Prints p50 and p99 in milliseconds for each, and the PNG sizes (median and largest, in KB).

Then, per game, the CPU time (``time.process_time``, so other load on the machine counts less) of
a table and a hand picture together at a new position, p99, against the goal of
:data:`GOAL_PAIR_MS`: "now" as drawn and encoded today; "before" either ``--old REV``'s renderer
(its ``bot/render`` from git, loaded beside today's and timed position by position in the same
process) or, without it, today's drawing encoded the old way (quantized, zlib level 7). The
objects alive before the timed pictures (the sampled matches' states, above all) are frozen out of
the garbage collector, whose full collections over them took up to 43 ms inside a picture's time
(a p99 of 57-67 ms for one game a run, in either renderer); so are, after each pair, the caches'
new entries, as a picture worker freezes them after each picture (a full collection over them,
4-6 ms, was the slowest pair of a run). The p99 of 200 pairs is the second
slowest; the wall-clock columns above, unlike the CPU ones, grow with the machine's load (printed).

    nice -n 10 .venv/bin/python -m tests.bench.bench_render --positions 200 --old e2c4247
"""

from __future__ import annotations

import argparse
import gc
import io
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

from PIL import Image

from bot.render import pictures
from bot.render.tableau import Style, compact_style, draw_layout
from games.engine import Game, GameState
from games.layout import Layout
from games.registry import all_games, get_game, referee_game
from games.simulate import play_match


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


MATCHES_AT_MOST = 8
"""Matches played for a game's positions: more where one match is shorter than ``--positions``
(Caterpillar's two-player match has about 50), so a p99 is not just the slowest pair or two."""


def sample_positions(game: Game[Any], players: int, count: int, seed: int = 1) -> list[GameState[Any]]:
    """``count`` positions spread over random matches (seeds ``seed``, ``seed + 100``, ...: as
    many as it takes, up to :data:`MATCHES_AT_MOST`)."""
    kept: list[GameState[Any]] = []
    for k in range(MATCHES_AT_MOST):
        play_match(game, players, seed=seed + 100 * k, on_action=lambda s: kept.append(s.clone()))
        if len(kept) >= count:
            break
    if len(kept) <= count:
        return kept
    step = len(kept) / count
    return [kept[int(i * step)] for i in range(count)]


def timed(fn: Callable[[], bytes]) -> tuple[float, bytes]:
    start = time.perf_counter()
    out = fn()
    return (time.perf_counter() - start) * 1000, out


GOAL_PAIR_MS = 4.0
"""Issue 28's goal: a table and a hand picture together in at most this much CPU, p99."""


def old_encode(img: Image.Image) -> bytes:
    """How pictures were encoded before issue 28: quantized to 96 colours, zlib level 7."""
    small = img.quantize(colors=96, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, format="PNG", optimize=False, compress_level=7)
    return out.getvalue()


def cpu(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return (time.process_time() - start) * 1000


def layouts(states: list[GameState[Any]]) -> list[tuple[Layout, Layout]]:
    out = []
    for state in states:
        seat = seat_of(state)
        table = pictures.table_layout(state.view(None))
        out.append((table, pictures.hand_layout(state.view(seat), state.legal_actions(seat))))
    return out


def old_render(rev: str) -> Callable[[Layout, bool], bytes]:
    """``render_png`` of ``bot/render`` as it was at git revision ``rev``, loaded beside today's
    (as the package ``old_render``), so both are timed in one process, position by position."""
    import importlib
    import pathlib
    import subprocess
    import sys
    import tempfile

    root = pathlib.Path(tempfile.mkdtemp(prefix="old_render_"))
    archive = subprocess.run(["git", "archive", rev, "bot/render"], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(root)], input=archive, check=True)
    package = root / "old_render"
    (root / "bot" / "render").rename(package)
    for module in package.glob("*.py"):
        module.write_text(module.read_text().replace("bot.render", "old_render"))
    sys.path.insert(0, str(root))
    old = importlib.import_module("old_render.pictures")
    return lambda layout, compact: old.render_png(layout, compact)  # type: ignore[no-any-return]


def pair_cpu(
    game: Game[Any], players: int, count: int, old: Callable[[Layout, bool], bytes] | None
) -> tuple[list[float], list[float]]:
    """CPU ms of a table and a hand picture together at each position of a match, each drawn once,
    in a process that has drawn another match of the game before (its card faces and recurring
    words cached, as in a process serving for a while): today's drawing and encoding, and before
    it, position by position, ``old`` (another revision's; without it, today's drawing encoded
    the old way)."""

    def new(layout: Layout, compact: bool) -> bytes:
        return pictures.render_png(layout, compact)

    def old_encoded(layout: Layout, compact: bool) -> bytes:
        return old_encode(draw_layout(layout, compact_style(layout) if compact else Style()))

    before_fn = old or old_encoded
    pictures.clear_caches()
    for table, hand in layouts(sample_positions(game, players, count, seed=2)):
        for fn in (new, before_fn):
            fn(table, False)
            fn(hand, True)
    now: list[float] = []
    before: list[float] = []
    measured = layouts(sample_positions(game, players, count))
    gc.collect()
    gc.freeze()  # the matches' states held here are not the renderer's: no full collection over them
    for table, hand in measured:
        before.append(cpu(lambda: (before_fn(table, False), before_fn(hand, True))))  # noqa: B023
        now.append(cpu(lambda: (new(table, False), new(hand, True))))  # noqa: B023
        gc.freeze()  # as a picture worker does after each picture (bot.render.pool._serve)
    gc.unfreeze()
    return now, before


def load() -> str:
    """The machine's load averages: a p99 of CPU time grows with other work on the same cores."""
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def seat_of(state: GameState[Any]) -> int:
    waiting = sorted(state.awaiting())
    return waiting[0] if waiting else 0


def bench(game: Game[Any], players: int, count: int, save: str | None, tag: str) -> dict[str, list[float]]:
    states = sample_positions(game, players, count)
    out: dict[str, list[float]] = {k: [] for k in ("t_cold", "t_new", "t_hit", "h_cold", "h_new", "h_hit", "t_kb", "h_kb")}
    for state in states:
        seat = seat_of(state)
        public, mine, legal = state.view(None), state.view(seat), state.legal_actions(seat)
        table = pictures.table_layout(public)
        hand = pictures.hand_layout(mine, legal)
        pictures.clear_caches()
        ms, data = timed(lambda: pictures.render_png(table))  # noqa: B023
        out["t_cold"].append(ms)
        out["t_kb"].append(len(data) / 1024)
        pictures.clear_caches()
        ms, data = timed(lambda: pictures.render_png(hand, compact=True))  # noqa: B023
        out["h_cold"].append(ms)
        out["h_kb"].append(len(data) / 1024)
    pictures.clear_caches()
    for state in states:  # faces warm, each position new
        seat = seat_of(state)
        public, mine, legal = state.view(None), state.view(seat), state.legal_actions(seat)
        ms, _ = timed(lambda: pictures.table_png(public))  # noqa: B023
        out["t_new"].append(ms)
        ms, _ = timed(lambda: pictures.hand_png(mine, legal))  # noqa: B023
        out["h_new"].append(ms)
        ms, _ = timed(lambda: pictures.table_png(public))  # noqa: B023
        out["t_hit"].append(ms)
        ms, _ = timed(lambda: pictures.hand_png(mine, legal))  # noqa: B023
        out["h_hit"].append(ms)
    if save:
        state = states[len(states) // 2]
        seat = seat_of(state)
        os.makedirs(save, exist_ok=True)
        with open(os.path.join(save, f"{tag}{game.id}_table.png"), "wb") as f:
            f.write(pictures.table_png(state.view(None)))
        with open(os.path.join(save, f"{tag}{game.id}_hand.png"), "wb") as f:
            f.write(pictures.hand_png(state.view(seat), state.legal_actions(seat)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=60, help="positions drawn per game")
    parser.add_argument("--game", default=None)
    parser.add_argument("--referee", action="store_true", help="the referee-mode games instead")
    parser.add_argument("--players", type=int, default=None, help="player count (default: the largest)")
    parser.add_argument("--save", default=None, help="a directory for one table and one hand picture per game")
    parser.add_argument(
        "--old", default=None, help="a git revision whose bot/render is timed beside today's (e.g. 34f7892)"
    )
    args = parser.parse_args()
    load_at_start = load()
    old = old_render(args.old) if args.old else None
    games = [get_game(args.game)] if args.game else all_games()
    if args.referee:
        games = [referee_game(g.id) for g in games]
    tag = "referee_" if args.referee else ""
    print("milliseconds: p50/p99; cold = every cache empty, new = a new position, hit = drawn before; sizes in KB")
    print(
        f"{'game':<18} {'n':>2} | {'table cold':>11} {'table new':>11} {'hit p99':>7} | "
        f"{'hand cold':>11} {'hand new':>11} {'hit p99':>7} | {'table KB':>9} {'hand KB':>9}"
    )
    worst: dict[str, float] = {}
    pairs: list[tuple[str, int, float, float, float, float]] = []
    for g in games:
        players = args.players if args.players in g.player_counts else max(g.player_counts)
        r = bench(g, players, args.positions, args.save, tag)
        now, before = pair_cpu(g, players, args.positions, old)
        pairs.append(
            (g.id, len(now), percentile(before, 0.99), percentile(now, 0.99), percentile(before, 0.5), percentile(now, 0.5))
        )

        def pair(key: str, r: dict[str, list[float]] = r) -> str:
            return f"{percentile(r[key], 0.5):>5.1f}/{percentile(r[key], 0.99):<5.1f}"

        def size(key: str, r: dict[str, list[float]] = r) -> str:
            return f"{statistics.median(r[key]):>4.0f}/{max(r[key]):<4.0f}"

        print(
            f"{g.id:<18} {players:>2} | {pair('t_cold')} {pair('t_new')} {percentile(r['t_hit'], 0.99):>7.2f} | "
            f"{pair('h_cold')} {pair('h_new')} {percentile(r['h_hit'], 0.99):>7.2f} | {size('t_kb')} {size('h_kb')}"
        )
        for key in ("t_cold", "t_new", "h_cold", "h_new"):
            worst[key] = max(worst.get(key, 0.0), percentile(r[key], 0.99))
    print(
        "worst p99 (ms): table cold {t_cold:.1f}, table new {t_new:.1f}, hand cold {h_cold:.1f}, hand new {h_new:.1f}".format(
            **worst
        )
    )
    print(f"\nCPU ms of a table and a hand picture together, p99 (goal {GOAL_PAIR_MS:.0f} ms)")
    print(f"{'game':<18} {'pairs':>5} {'before':>7} {'now':>7} {'ratio':>6} {'before p50':>10} {'now p50':>8}")
    for gid, n, before_ms, now_ms, before_p50, now_p50 in pairs:
        print(
            f"{gid:<18} {n:>5} {before_ms:>7.1f} {now_ms:>7.1f} {before_ms / now_ms:>6.2f} {before_p50:>10.1f} {now_p50:>8.1f}"
        )
    print(
        f"worst p99: before {max(p[2] for p in pairs):.1f}, now {max(p[3] for p in pairs):.1f} ms "
        f"(goal {GOAL_PAIR_MS:.0f})"
    )
    print(f"load average (1, 5, 15 min) at the start {load_at_start}, at the end {load()}: other work on the machine")


if __name__ == "__main__":
    main()
