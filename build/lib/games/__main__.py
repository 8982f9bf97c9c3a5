"""The ``games`` command line: ``list``, ``rules GAME`` and ``simulate GAME``.

The one place in ``games/`` that prints.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from games.engine import SetupError
from games.registry import all_games, get_game, ladder_lines
from games.simulate import contest, simulate


def _players_text(counts: Sequence[int]) -> str:
    lo, hi = min(counts), max(counts)
    if len(counts) == hi - lo + 1:
        return str(lo) if lo == hi else f"{lo}-{hi}"
    return ", ".join(map(str, counts))


def cmd_list(_: argparse.Namespace) -> int:
    for g in all_games():
        print(f"{g.id:<18} {g.title:<24} {_players_text(g.player_counts)} players")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    g = get_game(args.game)
    print(f"{g.title} ({g.id}), {_players_text(g.player_counts)} players\n")
    print(g.summary.strip())
    fields = g.option_fields()
    if fields:
        print("\nOptions (name=value):")
        for f in fields:
            choices = f" [{'|'.join(f.choices)}]" if f.choices else ""
            print(f"  {f.name}={f.default}{choices}  {f.description}")
    ladder = ladder_lines(g.id)
    if ladder:
        print("\nBot levels (measured in bot-against-bot matches):")
        for line in ladder:
            print(f"  {line}")
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    g = get_game(args.game)
    if args.seats:
        return _contest(args)
    players = args.players if args.players is not None else g.player_counts[0]
    options = g.parse_options(args.option or [])
    g.check_players(players, options)
    if args.n < 1:
        raise SetupError("-n must be at least 1.")
    report = simulate(g, args.n, players, options, seed=args.seed)
    data = report.as_dict()
    if args.json:
        print(json.dumps(data))
        return 0
    print(f"{g.title}: {players} players, options {options.model_dump(mode='json')}")
    print(f"matches  {data['matches']}")
    print(f"deals    {data['deals']}")
    print(f"actions  {data['actions']}")
    print(f"seconds  {data['seconds']:.3f}")
    print(f"matches/s {data['matches_per_second']:.1f}  ({data['microseconds_per_action']:.1f} us/action)")
    print("mean score per seat: " + ", ".join(f"{s:.2f}" for s in data["mean_score"]))
    print("win share per seat:  " + ", ".join(f"{w:.3f}" for w in data["win_share"]))
    return 0


def _contest(args: argparse.Namespace) -> int:
    g = get_game(args.game)
    seats = [s.strip() for s in args.seats.split(",") if s.strip()]
    if args.players is not None and args.players != len(seats):
        raise SetupError(f"--seats names {len(seats)} seats but --players says {args.players}.")
    options = g.parse_options(args.option or [])
    g.check_players(len(seats), options)
    if args.n < 1:
        raise SetupError("-n must be at least 1.")
    data = contest(g, args.n, seats, options, seed=args.seed, rotate=not args.no_rotate).as_dict()
    if args.json:
        print(json.dumps(data))
        return 0
    rotation = "fixed seats" if args.no_rotate else "seats rotated each match"
    print(f"{g.title}: {len(seats)} players, {data['matches']} matches, {rotation}, {data['seconds']:.1f} s")
    print(f"{'level':<10} {'seats':>5} {'wins':>7} {'95% interval':>15} {'fair':>6} {'mean score':>10}")
    for row in data["levels"]:
        low, high = row["interval_95"]
        print(
            f"{row['level']:<10} {row['seats']:>5} {row['win_share']:>7.1%} "
            f"{f'{low:.1%}-{high:.1%}':>15} {row['fair_share']:>6.1%} {row['mean_score_per_seat']:>10.2f}"
        )
    return 0


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"games: {message}", file=sys.stderr)
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m games", description="Parlour's games, offline.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    sub.add_parser("list", help="list the games").set_defaults(func=cmd_list)
    rules = sub.add_parser("rules", help="show a game's rules summary and options")
    rules.add_argument("game")
    rules.set_defaults(func=cmd_rules)
    sim = sub.add_parser("simulate", help="play whole matches by random moves, or pit bot levels")
    sim.add_argument("game")
    sim.add_argument("-n", type=int, default=100, help="number of matches (default 100)")
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--players", type=int, default=None, help="player count (default: the fewest)")
    sim.add_argument("--option", action="append", metavar="KEY=VALUE", help="a game option; repeatable")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.add_argument(
        "--seats",
        metavar="LEVEL,LEVEL,...",
        help="one bot level per seat (random, easy, strong, ...): prints each level's win share",
    )
    sim.add_argument("--no-rotate", action="store_true", help="with --seats, keep every level in its seat")
    sim.set_defaults(func=cmd_simulate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except SetupError as exc:
        print(f"games: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
