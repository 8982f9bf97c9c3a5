"""Benchmark (not a test): how long the entry reader takes over a 200-character line, per game.

    .venv/bin/python -m tests.bench.bench_reader [--positions 30] [--games jubilee,ninety_nine]

For each game's referee table (and its online game, where one player's moves are read) it plays
random legal entries and, at each position, times :func:`games.notation.read_action` on lines of
up to 200 characters (the typed form's limit): the next entries of the match written in their
typed forms and joined (a line that reads); the same line with its last entry replaced by one that
cannot be made (a line refused at its end, the most searching); and card codes at random (junk).
It prints the p50, p99 and worst time per game in milliseconds of CPU time (what the reader
itself costs, whatever else the machine runs: on a shared machine the wall time is larger by the
load), and the p99 of the wall time.

    .venv/bin/python -m tests.bench.bench_reader --property [--wide]

prints instead what the reader's property test reads (tests/games/reader_property.py): positions,
texts, distinct forms, and how many read back exactly, as a listed ambiguity, wrongly or not at all
(the default suite's run; ``--wide`` the slow run's).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import time
from typing import Any

from games.engine import Action, GameState, Seat
from games.notation import MAX_ENTRY, EntryError, read_action, typed_form
from games.registry import catalogue, get_game, referee_game

PLAYERS = {"ninety_nine": 5, "twenty_nine": 4, "fifty_one": 4, "hundred": 4, "jubilee": 3}
"""Player counts (the game's smallest otherwise)."""

CODES = [f"{r}{s}" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2") for s in "SHDC"]


def _line(entries: list[tuple[Seat, Action]], state: GameState[Any], named: bool) -> str:
    parts = [f"{state.name(s)}: {typed_form(a)}" if named else typed_form(a) for s, a in entries]
    out = ""
    for part in parts:
        if len(out) + len(part) + 1 > MAX_ENTRY:
            break
        out = f"{out} {part}".strip()
    return out


def lines_at(state: GameState[Any], rng: random.Random) -> list[str]:
    """The lines timed at this position."""
    twin = state.clone()
    entries: list[tuple[Seat, Action]] = []
    for _ in range(60):
        if twin.is_over or not twin.actors():
            break
        seat = rng.choice(sorted(twin.actors()))
        action = rng.choice(twin.legal_actions(seat))
        entries.append((seat, action))
        twin.apply(seat, action)
    texts = [_line(entries, state, named=False), _line(entries, state, named=True)]
    good = texts[0]
    if " " in good:
        texts.append(good.rsplit(" ", 1)[0] + " ZZ")
    junk = ""
    while len(junk) < MAX_ENTRY - 4:
        junk = f"{junk} {rng.choice(CODES)}".strip()
    texts.append(junk)
    return [t for t in texts if t]


def bench(game_id: str, referee: bool, positions: int, seed: int = 1) -> list[tuple[float, float]]:
    game = referee_game(game_id) if referee else get_game(game_id)
    count = PLAYERS.get(game_id, game.player_counts[0])
    names = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jo", "kit", "lou", "max"][:count]
    state = game.start(names, {}, seed=seed)
    rng = random.Random(f"{game_id}-{referee}-{seed}")
    times: list[tuple[float, float]] = []  # (CPU ms, wall ms)
    for _ in range(positions):
        if state.is_over or not state.actors():
            break
        seat = rng.choice(sorted(state.actors()))
        for text in lines_at(state, rng):
            cpu, wall = time.process_time(), time.perf_counter()
            with contextlib.suppress(EntryError):
                read_action(state, text, seat=None if referee else seat)
            times.append(((time.process_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000))
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return times


def property_figures(wide: bool) -> None:
    from tests.games.reader_property import Tally, check_config, configs

    total = Tally()
    runs = configs(wide)
    for config in runs:
        total.add(check_config(config, *((2, 30, 2) if wide else (1, 5, 1))))
    print(
        f"{len(runs)} tables, {total.positions} positions, {total.read} texts read ({total.lines} of them lines) "
        f"in {len(total.forms)} distinct forms: {total.exact} exactly, {total.ambiguous} refused as ambiguous "
        f"(readings listed), {len(total.wrong)} wrong, {len(total.refused)} refused otherwise"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=30, help="positions per game and mode")
    parser.add_argument("--games", default=",".join(d.id for d in catalogue()), help="comma-separated game ids")
    parser.add_argument("--property", action="store_true", help="print what the property test reads instead")
    parser.add_argument("--wide", action="store_true", help="with --property: the slow run's tables")
    args = parser.parse_args()
    if args.property:
        property_figures(args.wide)
        return
    print(f"{'game':18} {'mode':8} {'lines':>6} {'p50 ms':>8} {'p99 ms':>8} {'worst':>8} {'p99 wall':>9}")
    every: list[tuple[float, float]] = []
    for game_id in args.games.split(","):
        for referee in (True, False):
            times = bench(game_id, referee, args.positions)
            every += times
            mode = "referee" if referee else "online"
            print(f"{game_id:18} {mode:8} {_row(times)}", flush=True)
    print(f"{'all':18} {'':8} {_row(every)}")


def _row(times: list[tuple[float, float]]) -> str:
    cpu = sorted(c for c, _ in times)
    wall = sorted(w for _, w in times)
    at = min(len(cpu) - 1, int(len(cpu) * 0.99))
    return f"{len(cpu):6} {statistics.median(cpu):8.1f} {cpu[at]:8.1f} {cpu[-1]:8.1f} {wall[at]:9.1f}"


if __name__ == "__main__":
    main()
