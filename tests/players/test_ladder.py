"""The bot ladder: every level of every game says how it fares (measured by tests/bench/ladder.py;
this checks the words are there and shown with the rules, and that ratings and shares agree)."""

from __future__ import annotations

import itertools
import re

from games.registry import catalogue, ladder_lines
from storage.ratings import Rating
from tests.bench.ladder import _LADDER, PairResult, ladder_ratings, module_path

ENTRY = re.compile(r"rated (\d+); wins (\d+)% of (?:(\d+) )?matches against .*a fair share is (\d+)%\)")


def test_every_level_of_every_game_has_its_ladder_entry() -> None:
    for found in catalogue():
        assert set(found.ladder) == set(found.levels()), found.id
        for level in found.levels():
            assert found.ladder[level].startswith("rated "), (found.id, level)
            if level != "random":
                assert ENTRY.fullmatch(found.ladder[level]), (found.id, level)
        lines = ladder_lines(found.id)
        assert [line.split(":")[0] for line in lines] == found.levels()


def test_the_ladder_order_shares_and_ratings_agree() -> None:
    """A level that wins more than a fair share against the level below is rated above it, and
    one that wins less is rated below it."""
    for found in catalogue():
        order = found.levels()
        rating = {order[0]: int(found.ladder[order[0]].split(";")[0].removeprefix("rated "))}
        for below, level in itertools.pairwise(order):
            m = ENTRY.fullmatch(found.ladder[level])
            assert m is not None, (found.id, level)
            rating[level] = int(m.group(1))
            share, fair = int(m.group(2)), int(m.group(4))
            if share > fair:
                assert rating[level] > rating[below], (found.id, level, found.ladder[level])
            elif share < fair:
                assert rating[level] < rating[below], (found.id, level, found.ladder[level])


def test_measured_ladders_print_their_match_counts_within_five_points() -> None:
    """Where the ladder was measured with its match count, the interval printed is within
    five points either side of the share (rounding allowed)."""
    for found in catalogue():
        for level in found.levels()[1:]:
            text = found.ladder[level]
            m = re.search(r"wins (\d+)% of (\d+) matches .*\(95% interval (\d+)% to (\d+)%", text)
            if m is None:
                continue
            share, low, high = int(m.group(1)), int(m.group(3)), int(m.group(4))
            assert share - low <= 6 and high - share <= 6, (found.id, level, text)


def test_ratings_follow_the_shares() -> None:
    order = ["random", "easy", "strong"]
    anchor = Rating(20.0, 1.0)
    # easy wins less than a fair share of three, strong more: easy below random, strong above easy
    results = {"easy": PairResult(0.30, 400, 0.26, 0.35), "strong": PairResult(0.50, 400, 0.45, 0.55)}
    rated = ladder_ratings(order, results, 3, anchor, 1.0)
    assert rated["easy"] < rated["random"] < rated["strong"]
    assert rated["strong"] > rated["easy"]
    fair = ladder_ratings(order, {"easy": PairResult(0.5, 200, 0.4, 0.6), "strong": PairResult(1.0, 200, 0.98, 1.0)}, 2, anchor, 1.0)
    assert fair["easy"] == fair["random"] < fair["strong"]


def test_the_script_finds_the_ladder_it_writes() -> None:
    for found in catalogue():
        assert _LADDER.search(module_path(found.id).read_text()), found.id
