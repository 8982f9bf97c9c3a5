"""One player against the others in any game, seats rotating: the share of matches won (95%
Wilson interval, a tie shared), the points a match ahead of the others' mean, and both sides'
move times. It generalises ``trick_duel.py`` to two players and to more than three.

    nice -n 19 .venv/bin/python -m tests.bench.game_duel --game caterpillar --players 2 --one mc --two strong --matches 100 --seed 997000

``mc`` is the determinized Monte Carlo player of ``tests/bench/game_mc.py`` (the three-hand trick
games' of ``trick_mc.py``, Hoodwink's of ``hoodwink_mc.py``); the others are the shipped levels
(``strong:samples=30`` builds a strong player with other settings). ``--options`` takes the
table's options as JSON (the Monte Carlo player is told them: they are public). Fair share is
one over the number of players.

Measured for issue 29 (MC of 60 samples v strong, seeds from 997000, nice 19 on a machine with a
load of 10 to 19 on 2 cores, so wall times are stretched; the CPU times are the thread's own):

    caterpillar at 2      .230 [.16, .32] of 100, -258.6 points a match; strong CPU p99/max 37/45 ms
    fifty_one at 3        .204 [.15, .28] of 150 (fair .333); strong CPU p99/max 123/157 ms
    costly_colours at 2   .500 [.42, .58] of 150, +0.0 points a match; strong CPU p99/max 22/57 ms
    ninety_nine at 3      .253 [.17, .36] of 75 (stopped early; fair .333); strong CPU p99/max 41/60 ms
    spec at 2             .400 [.26, .55] of 40 (stopped early), -18.0 points a match; strong CPU 9/14 ms
    jubilee at 3          .550 [.34, .74] of 20 (stopped early; fair .333), +12.8 points a match:
                          strong may be behind here; 300 matches are needed to say

Then with the quick playouts (the same choices, a fifth of the CPU), seeds from 998000, a load of
8 to 17 (the Monte Carlo player's CPU a move p99 144 ms at Jubilee, 84 at Hundred, 204 at
Obstacle Race):

    jubilee at 3          .353 [.26, .47] of 75 (fair .333), -0.7 points a match; and .333 of 15
                          from 998150: .350 [.26, .45] of 90; strong CPU p99/max 19/29 ms
    hundred at 2          .395 [.34, .45] of 300, -0.4 points a match; strong CPU p99/max 17/25 ms
    obstacle_race at 2    .673 [.60, .74] of 150, +1.7 points a match, and .654 of 120 from 998150:
                          .665 [.61, .72] of 270: strong is behind here; strong CPU p99/max 22/31 ms

Then Obstacle Race's strong at two playing the deal out (24 deals, ``_strong`` in
games/players/adders.py), fresh seeds, nice 10, a load of 3 to 8:

    obstacle_race at 2    .375 [.29, .47] of 100 from 999500, -1.4 points a match, and .460
                          [.37, .56] of 100 from 999600: .418 [.35, .49] of 200; strong CPU p99/max
                          167/184 ms

Twenty-Nine at 4, teams standard (partners opposite: the MC seat's partner is strong, the other
side two strong; MC in seat i % 4 of match i), nice 10, a load of about 2; both runs stopped at
50 matches of 100. A match won by the MC side counts .5 to MC, a drawn match .25 (the winners
are all four seats), so fair is .25 and the MC side's share of matches is twice the figure:

    twenty_nine at 4      .210 [.12, .34] of 50 from 999800, -0.2 points a match, and .235
                          [.14, .37] of 50 from 999900, -0.3: .223 [.15, .31] of 100 (fair .250);
                          MC CPU p99/max 862/1194 ms, strong CPU p99/max 21/35 ms
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from typing import Any

from games.players import Player
from tests.bench import trick_duel
from tests.bench.game_mc import SIDES, monte_carlo_player
from tests.bench.trick_duel import Timed


def player(game_id: str, level: str, samples: int, options: Mapping[str, Any] | None) -> Player:
    if level == "mc" and game_id in SIDES:
        return monte_carlo_player(game_id, samples, options)  # type: ignore[return-value]
    return trick_duel.player(game_id, level, samples)


def duel(
    game_id: str,
    players: int,
    one: str,
    two: str,
    matches: int,
    seed: int,
    samples: int = 60,
    options: Mapping[str, Any] | None = None,
    every: int = 0,
) -> dict[str, float]:
    """Play the matches, ``one`` in seat ``i % players`` of match ``i`` (``trick_duel.play_duel``);
    with ``every``, print the running share, margin and both sides' move times that often."""
    hero = Timed(player(game_id, one, samples, options))
    rival = Timed(player(game_id, two, samples, options))  # one player object for every other seat
    return trick_duel.play_duel(
        game_id, players, hero, lambda: rival, matches, seed, options, every, timed_rival=rival, names=(one, two)
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--one", required=True)
    parser.add_argument("--two", required=True)
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seed", type=int, default=997000)
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--options", default="", help="the table's options as JSON")
    parser.add_argument("--every", type=int, default=0, help="print the running figures every N matches")
    args = parser.parse_args()
    options = json.loads(args.options) if args.options else None
    r = duel(args.game, args.players, args.one, args.two, args.matches, args.seed, args.samples, options, args.every)
    print(
        f"{args.game} at {args.players}{' ' + args.options if args.options else ''}: {args.one} v {args.two}: "
        f"{r['share']:.3f} [{r['low']:.2f}, {r['high']:.2f}] of {args.matches} matches (fair {1 / args.players:.3f}; "
        f"seeds {args.seed}..{args.seed + args.matches - 1}), {r['margin']:+.1f} points a match; "
        f"{args.one} moves p99 {r['p99']:.0f} ms, max {r['max']:.0f} ms (CPU {r['cpu_p99']:.0f}/{r['cpu_max']:.0f}); "
        f"{args.two} moves p99 {r['two_p99']:.0f} ms, max {r['two_max']:.0f} ms (CPU {r['two_cpu_p99']:.0f}/{r['two_cpu_max']:.0f})",
        flush=True,
    )


if __name__ == "__main__":
    main()
