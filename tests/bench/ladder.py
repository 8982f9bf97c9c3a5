"""The bot ladder (run on demand, not a test): how every bot level of every game fares against
the level below it, written as data beside the games (``games/ladders/<id>.json``, read by
``games.ladder``) so that ``/rules`` can show it. A game without that file shows no ladder.

    nice -n 10 .venv/bin/python -m tests.bench.ladder [--game ID] [--seed 0] [--dry-run]
    .venv/bin/python -m tests.bench.ladder --write-from LADDER.txt   # write what a dry run printed

For each game, at the player count in ``PLAYERS`` (its smallest otherwise), each level plays the
level just below it, the higher level holding one seat and the lower the rest, seats rotating each
match (as ``bench_bots`` does). A pair plays batches of ``BATCH`` matches until the 95% (Wilson)
interval of the share is within ``HALF_WIDTH`` either side (at least ``MIN_MATCHES``, at most
``--max-matches``); the file keeps the share, the match count, the interval and the seed, and the
rules print the share rounded with them.

Ratings follow the shares. The matches are rated with Parlour's own rating code (openskill's
Plackett-Luce model, ``storage.ratings.rate``) only to anchor the weakest level and settle the
uncertainty; each level above is then placed from its share against the level below as the
Plackett-Luce model reads a share (``share = e^(d/c) / (e^(d/c) + n - 1)`` for a gap ``d`` in mu),
so a level that wins more than a fair share is rated above the level below, and never otherwise.
The figure written is the displayed rating (1000 + 40 x the conservative ordinal).
"""

from __future__ import annotations

import argparse
import itertools
import math
import re
from dataclasses import dataclass
from pathlib import Path

from games.ladder import FOLDER, Ladder, Rung, dumps
from games.players import levels
from games.registry import CATALOGUE, get_game
from games.simulate import play_match, seat_policies, wilson_interval
from storage.ratings import MODEL, Placing, Rating, display_rating, rate

PLAYERS: dict[str, int] = {
    "hoodwink": 3,
    "parity_for_three": 3,
    "spec": 3,
    "fifty_one": 3,
    "jubilee": 3,
    "ninety_nine": 4,
    "twenty_nine": 4,
    "hundred": 3,
    "obstacle_race": 3,
}
"""The player count each game's ladder is measured at (others: the game's smallest)."""

ROOT = Path(__file__).resolve().parents[2]

HALF_WIDTH = 0.05
"""The widest a printed share's 95% interval may reach either side of it."""
MIN_MATCHES = 100
BATCH = 50


def _rate_match(ratings: dict[str, Rating], seats: list[str], ranks: list[int], teams: list[list[int]] | None) -> None:
    """Update the levels' ratings from one match: every seat is a player of its own (partners a
    team, as the bot rates partnerships), starting from its level's rating; a level that held
    several seats takes the average of their new ratings."""
    team_of = {s: k for k, team in enumerate(teams or []) for s in team}
    names = [f"{level}@{s}" for s, level in enumerate(seats)]
    current = {name: ratings.get(level, Rating()) for name, level in zip(names, seats, strict=True)}
    placings = [Placing(name, ranks[s], team_of.get(s)) for s, name in enumerate(names)]
    new = rate(placings, current)
    for level in set(seats):
        mine = [new[name] for name, lv in zip(names, seats, strict=True) if lv == level]
        ratings[level] = Rating(sum(r.mu for r in mine) / len(mine), sum(r.sigma for r in mine) / len(mine))


@dataclass(frozen=True)
class PairResult:
    """How a level fared against ``n - 1`` copies of the level below."""

    share: float
    matches: int
    low: float
    high: float


def play_pair(
    game_id: str, n: int, high: str, low: str, seed: int, max_matches: int, ratings: dict[str, Rating]
) -> PairResult:
    """Play ``high`` against ``low`` until the share's interval is narrow enough (see the module)."""
    game = get_game(game_id)
    seats = [high] + [low] * (n - 1)
    policies = seat_policies(game_id, seats)
    wins, played = 0.0, 0
    while played < max_matches:
        for _ in range(BATCH):
            i = played
            shift = i % n
            where = [(s + shift) % n for s in range(n)]  # seat s is played by policy where[s]
            state = play_match(game, n, None, seed + i, [policies[k] for k in where])
            assert state.outcome is not None
            mine = next(s for s in range(n) if where[s] == 0)
            winners = state.outcome.winners
            if mine in winners:
                wins += 1 / len(winners)
            _rate_match(ratings, [seats[k] for k in where], list(state.outcome.ranks), state.outcome.teams)
            played += 1
        low_end, high_end = wilson_interval(wins / played, played)
        if played >= MIN_MATCHES and max(wins / played - low_end, high_end - wins / played) <= HALF_WIDTH:
            break
    share = wins / played
    low_end, high_end = wilson_interval(share, played)
    return PairResult(share, played, low_end, high_end)


def mu_gap(share: float, n: int, matches: int, sigma: float) -> float:
    """The gap in mu that makes a level win ``share`` of matches against ``n - 1`` copies of
    another under the Plackett-Luce model (shares of 0 or 1 are taken as half a match short)."""
    edge = 1 / (2 * matches)
    s = min(max(share, edge), 1 - edge)
    c = math.sqrt(n * (sigma**2 + MODEL.beta**2))
    return c * math.log(s * (n - 1) / (1 - s))


def ladder_ratings(order: list[str], results: dict[str, PairResult], n: int, anchor: Rating, sigma: float) -> dict[str, int]:
    """Displayed ratings: the weakest level at its measured rating, each level above placed by its
    share against the level below (:func:`mu_gap`), all with the same settled uncertainty."""
    mu = anchor.mu
    out = {order[0]: display_rating(anchor.mu - 3 * sigma)}
    for level in order[1:]:
        r = results[level]
        mu += mu_gap(r.share, n, r.matches, sigma)
        out[level] = display_rating(mu - 3 * sigma)
    return out


def measure(game_id: str, seed: int, max_matches: int = 1000) -> Ladder:
    """The game's ladder, measured (see the module)."""
    game = get_game(game_id)
    n = PLAYERS.get(game_id, game.player_counts[0])
    order = levels(game_id)
    ratings: dict[str, Rating] = {}
    results: dict[str, PairResult] = {}
    for below, level in itertools.pairwise(order):
        results[level] = play_pair(game_id, n, level, below, seed, max_matches, ratings)
    sigma = sum(ratings[level].sigma for level in order) / len(order)
    rated = ladder_ratings(order, results, n, ratings[order[0]], sigma)
    rungs = [Rung(order[0], rated[order[0]])]
    for level in order[1:]:
        r = results[level]
        rungs.append(Rung(level, rated[level], r.share, r.matches, r.low, r.high))
    return Ladder(game_id, n, seed, tuple(rungs))


def ladder_path(game_id: str) -> Path:
    return ROOT / "games" / FOLDER / f"{game_id}.json"


def write_ladder(ladder: Ladder) -> None:
    """Write the game's ladder file (replacing one already there)."""
    path = ladder_path(ladder.game)
    path.parent.mkdir(exist_ok=True)
    path.write_text(dumps(ladder))


PRINTED = re.compile(
    r"rated (\d+); wins (\d+)% of (?:(\d+) )?matches against (\w+) (\w+) bots? "
    r"\((?:95% interval (\d+)% to (\d+)%; )?a fair share is (\d+)%\)"
)
"""A level's words as printed (and shown with the rules), to read back a dry run's output."""

_OTHERS = {"one": 2, "two": 3, "three": 4, "four": 5}


def read_printed(game_id: str, words: dict[str, str], seed: int | None) -> Ladder:
    """The ladder a dry run printed, its figures as printed (shares and intervals in whole
    percents); ``seed`` is the run's, if known."""
    first, *rest = words.items()
    bottom = re.fullmatch(r"rated (\d+); plays any legal move", first[1])
    if bottom is None:
        raise ValueError(f"{game_id} {first[0]}: not a ladder's weakest level: {first[1]!r}")
    rungs = [Rung(first[0], int(bottom.group(1)))]
    players = 0
    for level, text in rest:
        m = PRINTED.fullmatch(text)
        if m is None:
            raise ValueError(f"{game_id} {level}: not a ladder entry: {text!r}")
        players = _OTHERS[m.group(4)]

        def part(g: int, m: re.Match[str] = m) -> float | None:
            return None if m.group(g) is None else int(m.group(g)) / 100

        matches = None if m.group(3) is None else int(m.group(3))
        rungs.append(Rung(level, int(m.group(1)), part(2), matches, part(6), part(7)))
    return Ladder(game_id, players, seed, tuple(rungs))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-matches", type=int, default=1000, help="most matches a pair plays")
    parser.add_argument("--game", default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dry-run", action="store_true", help="print the ladder, write nothing")
    parser.add_argument(
        "--write-from", default=None, metavar="FILE", help="write a ladder printed earlier (with the --seed it ran with)"
    )
    args = parser.parse_args()
    if args.write_from:
        printed: dict[str, dict[str, str]] = {}
        for line in Path(args.write_from).read_text().splitlines():
            game_id, level, words = line.split(maxsplit=2)
            printed.setdefault(game_id, {})[level.removesuffix(":")] = words
        for game_id, words in printed.items():
            write_ladder(read_printed(game_id, words, args.seed))
        return
    ids = [m.rpartition(".")[2] for m in CATALOGUE]
    for game_id in ids if args.game is None else [args.game]:
        ladder = measure(game_id, args.seed, args.max_matches)
        for level in ladder.levels():
            print(f"{game_id:<18} {level:<7} {ladder.words(level)}", flush=True)
        if not args.dry_run:
            write_ladder(ladder)


if __name__ == "__main__":
    main()
