"""The bot ladder (run on demand, not a test): how every bot level of every game fares against
the level below it, written into each game's declaration (``ladder=``) so that ``/rules`` can show it.

    nice -n 10 .venv/bin/python -m tests.bench.ladder [--game ID] [--seed 0] [--dry-run]
    .venv/bin/python -m tests.bench.ladder --write-from LADDER.txt   # write what a dry run printed

For each game, at the player count in ``PLAYERS`` (its smallest otherwise), each level plays the
level just below it, the higher level holding one seat and the lower the rest, seats rotating each
match (as ``bench_bots`` does). A pair plays batches of ``BATCH`` matches until the 95% (Wilson)
interval of the share is within ``HALF_WIDTH`` either side (at least ``MIN_MATCHES``, at most
``--max-matches``); the share is printed rounded, with the match count and the interval.

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


def _count(n: int) -> str:
    return {2: "one", 3: "two", 4: "three", 5: "four"}.get(n, str(n))


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


def _percent(x: float) -> str:
    return f"{round(100 * x)}%"


def measure(game_id: str, seed: int, max_matches: int = 1000) -> dict[str, str]:
    """Each level of the game with its ladder text."""
    game = get_game(game_id)
    n = PLAYERS.get(game_id, game.player_counts[0])
    order = levels(game_id)
    ratings: dict[str, Rating] = {}
    results: dict[str, PairResult] = {}
    for below, level in itertools.pairwise(order):
        results[level] = play_pair(game_id, n, level, below, seed, max_matches, ratings)
    sigma = sum(ratings[level].sigma for level in order) / len(order)
    rated = ladder_ratings(order, results, n, ratings[order[0]], sigma)
    out: dict[str, str] = {}
    for k, level in enumerate(order):
        if k == 0:
            out[level] = f"rated {rated[level]}; plays any legal move"
            continue
        r = results[level]
        rest = f"{_count(n)} {order[k - 1]} bot{'s' if n > 2 else ''}"
        out[level] = (
            f"rated {rated[level]}; wins {_percent(r.share)} of {r.matches} matches against {rest} "
            f"(95% interval {_percent(r.low)} to {_percent(r.high)}; a fair share is {round(100 / n)}%)"
        )
    return out


def module_path(game_id: str) -> Path:
    module = next(m for m in CATALOGUE if m.rpartition(".")[2] == game_id)
    return ROOT / (module.replace(".", "/") + ".py")


_LADDER = re.compile(r"\n    ladder=\{\n(?:        .*\n)*?    \},\n")


def write_ladder(game_id: str, ladder: dict[str, str]) -> None:
    """Put ``ladder=`` into the game's ``declare(...)`` call (replacing one already there)."""
    path = module_path(game_id)
    text = path.read_text()
    body = "".join(f"        {level!r}: {words!r},\n".replace("'", '"') for level, words in ladder.items())
    block = f"\n    ladder={{\n{body}    }},\n"
    if _LADDER.search(text):
        text = _LADDER.sub(lambda _: block, text, count=1)
    else:
        start = text.rindex("= declare(")
        end = text.index("\n)\n", start)
        text = text[:end] + block.rstrip("\n") + text[end:]
    path.write_text(text)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-matches", type=int, default=1000, help="most matches a pair plays")
    parser.add_argument("--game", default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dry-run", action="store_true", help="print the ladder, write nothing")
    parser.add_argument("--write-from", default=None, metavar="FILE", help="write a ladder printed earlier")
    args = parser.parse_args()
    if args.write_from:
        printed: dict[str, dict[str, str]] = {}
        for line in Path(args.write_from).read_text().splitlines():
            game_id, level, words = line.split(maxsplit=2)
            printed.setdefault(game_id, {})[level] = words
        for game_id, ladder in printed.items():
            write_ladder(game_id, ladder)
        return
    ids = [m.rpartition(".")[2] for m in CATALOGUE]
    for game_id in ids if args.game is None else [args.game]:
        ladder = measure(game_id, args.seed, args.max_matches)
        for level, words in ladder.items():
            print(f"{game_id:<18} {level:<7} {words}", flush=True)
        if not args.dry_run:
            write_ladder(game_id, ladder)


if __name__ == "__main__":
    main()
