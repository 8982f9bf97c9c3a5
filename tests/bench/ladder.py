"""The bot ladder (run on demand, not a test): how every bot level of every game fares against
the others, written into each game's declaration (``ladder=``) so that ``/rules`` can show it.

    .venv/bin/python -m tests.bench.ladder [--matches 60] [--game ID] [--seed 0] [--dry-run]
    .venv/bin/python -m tests.bench.ladder --write-from LADDER.txt   # write what a dry run printed

For each game, at the player count in ``PLAYERS`` (its smallest otherwise), every pair of levels
plays ``--matches`` matches, the higher level holding one seat and the lower the rest, seats
rotating each match (as ``bench_bots`` does). The matches are rated with Parlour's own rating code
(openskill's Plackett-Luce model, ``storage.ratings.rate``): each seat a player starting from its
level's rating (partners a team), a level holding several seats taking the average of their new
ratings. The figure written is the displayed rating (1000 + 40 x the conservative ordinal) and
the win share against the level below.
"""

from __future__ import annotations

import argparse
import itertools
import re
from pathlib import Path

from games.players import levels
from games.registry import CATALOGUE, get_game
from games.simulate import play_match, seat_policies
from storage.ratings import Placing, Rating, display_rating, rate

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


def measure(game_id: str, matches: int, seed: int) -> dict[str, str]:
    """Each level of the game with its ladder text."""
    game = get_game(game_id)
    n = PLAYERS.get(game_id, game.player_counts[0])
    order = levels(game_id)
    ratings: dict[str, Rating] = {}
    shares: dict[tuple[str, str], float] = {}
    for low, high in itertools.combinations(order, 2):
        seats = [high] + [low] * (n - 1)
        policies = seat_policies(game_id, seats)
        wins = 0.0
        for i in range(matches):
            shift = i % n
            where = [(s + shift) % n for s in range(n)]  # seat s is played by policy where[s]
            state = play_match(game, n, None, seed + i, [policies[k] for k in where])
            assert state.outcome is not None
            mine = next(s for s in range(n) if where[s] == 0)
            winners = state.outcome.winners
            if mine in winners:
                wins += 1 / len(winners)
            _rate_match(ratings, [seats[k] for k in where], list(state.outcome.ranks), state.outcome.teams)
        shares[(high, low)] = wins / matches
    out: dict[str, str] = {}
    for k, level in enumerate(order):
        rating = display_rating(ratings.get(level, Rating()).ordinal)
        if k == 0:
            out[level] = f"rated {rating}; plays any legal move"
            continue
        below = order[k - 1]
        share = shares[(level, below)]
        rest = f"{_count(n)} {below} bot{'s' if n > 2 else ''}"
        out[level] = f"rated {rating}; wins {round(100 * share)}% of matches against {rest} (a fair share is {round(100 / n)}%)"
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
    parser.add_argument("--matches", type=int, default=60, help="matches per pair of levels")
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
        ladder = measure(game_id, args.matches, args.seed)
        for level, words in ladder.items():
            print(f"{game_id:<18} {level:<7} {words}", flush=True)
        if not args.dry_run:
            write_ladder(game_id, ladder)


if __name__ == "__main__":
    main()
