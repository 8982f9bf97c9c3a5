"""Hoodwink: one player against two others, seats rotating, with the share of matches won (95%
Wilson interval), the points a match ahead of the others' mean, and the move times of the one.

    nice -n 10 .venv/bin/python -m tests.bench.hoodwink_duel --one strong --two easy --matches 300 --seed 913000
    nice -n 10 .venv/bin/python -m tests.bench.hoodwink_duel --one mc --two strong --matches 90 --seed 913000

The same as ``tests.bench.trick_duel --game hoodwink`` (which plays it), kept under this name for
the commands quoted in earlier notes. ``mc`` is the determinized Monte Carlo player of
``tests/bench/hoodwink_mc.py``; the others are the shipped levels. Fair share at three is 1/3.
"""

from __future__ import annotations

from tests.bench import trick_duel


def duel(one: str, two: str, matches: int, seed: int, samples: int = 60, every: int = 0) -> dict[str, float]:
    return trick_duel.duel("hoodwink", one, two, matches, seed, samples, every)


if __name__ == "__main__":
    trick_duel.main(game="hoodwink", seed=913000)
