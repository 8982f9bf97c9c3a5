"""The bot ladder: measured figures kept as data beside the games (``games/ladders/<id>.json``,
written by tests/bench/ladder.py), shown with the rules where a game has them and nowhere else.
A game without figures shows no ladder and fails nothing here."""

from __future__ import annotations

import itertools
import json
import re
from importlib import resources

import discord
import pytest

from bot.discord.embeds import rules_embed
from games.__main__ import main as console_main
from games.ladder import FOLDER, Ladder, Rung, dumps, load
from games.registry import catalogue, declaration, game_ids, ladder, ladder_lines, register, unregister
from storage.ratings import Rating
from tests.bench.ladder import PRINTED, PairResult, ladder_path, ladder_ratings, read_printed
from tests.games import demo_game


def measured() -> list[Ladder]:
    found = [ladder(d.id) for d in catalogue()]
    return [x for x in found if x is not None]


def test_every_ladder_file_is_a_served_game_with_each_of_its_levels() -> None:
    folder = resources.files("games") / FOLDER
    names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".json"))
    assert names, "the catalogue's ladders are measured"
    for name in names:
        game_id = name.removesuffix(".json")
        assert game_id in game_ids(), f"{FOLDER}/{name} is not a served game's ladder"
        found = load(game_id)
        assert found is not None and found.levels() == declaration(game_id).levels(), game_id
        assert [line.split(":")[0] for line in ladder_lines(game_id)] == found.levels()
        assert found.players in declaration(game_id).game.player_counts, game_id


def test_every_level_reads_as_measured() -> None:
    for found in measured():
        for k, level in enumerate(found.levels()):
            words = found.words(level)
            assert words.startswith(f"rated {found.rungs[k].rating}; "), (found.game, level)
            if k == 0:
                assert words.endswith("plays any legal move")
            else:
                assert PRINTED.fullmatch(words), (found.game, level, words)


def test_the_ladder_order_shares_and_ratings_agree() -> None:
    """A level that wins more than a fair share against the level below is rated above it, and
    one that wins less is rated below it (in the whole percents the rules show)."""
    for found in measured():
        fair = round(100 / found.players)
        for below, rung in itertools.pairwise(found.rungs):
            assert rung.share is not None
            share = round(100 * rung.share)
            if share > fair:
                assert rung.rating > below.rating, (found.game, rung)
            elif share < fair:
                assert rung.rating < below.rating, (found.game, rung)


def test_measured_intervals_are_within_five_points_of_the_share() -> None:
    """Where the ladder was measured with its interval, it reaches at most five points either
    side of the share (six with rounding)."""
    for found in measured():
        for rung in found.rungs[1:]:
            if rung.low is None or rung.high is None or rung.share is None:
                continue
            assert rung.low <= rung.share <= rung.high, (found.game, rung)
            assert rung.share - rung.low <= 0.06 and rung.high - rung.share <= 0.06, (found.game, rung)


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


def test_the_file_the_bench_writes_reads_back_the_same() -> None:
    measured_now = Ladder(
        "hoodwink",
        3,
        12,
        (Rung("random", 1700), Rung("easy", 1900, 171.5 / 400, 400, 0.38, 0.477), Rung("strong", 2100, 0.5, 350, 0.45, 0.55)),
    )
    text = dumps(measured_now)
    assert Ladder.from_json(json.loads(text)) == measured_now
    assert measured_now.words("easy") == (
        "rated 1900; wins 43% of 400 matches against two random bots (95% interval 38% to 48%; a fair share is 33%)"
    )
    for found in measured():
        assert ladder_path(found.game).read_text() == dumps(found), f"{found.game}: written as the bench writes it"
        printed = {level: found.words(level) for level in found.levels()}
        again = read_printed(found.game, printed, found.seed)
        assert [again.words(level) for level in found.levels()] == list(printed.values())


def test_a_ladder_file_of_another_shape_is_refused() -> None:
    data = Ladder("x", 2, None, (Rung("random", 1000), Rung("easy", 1200, 0.7))).to_json()
    data["levels"][1]["against"] = "strong"
    try:
        Ladder.from_json(data)
    except ValueError as exc:
        assert "easy must be measured against random" in str(exc)
    else:
        raise AssertionError("a ladder measured against the wrong level was read")


def test_a_game_without_figures_shows_no_ladder(capsys: pytest.CaptureFixture[str]) -> None:
    """The demonstration game has no ladder file: its rules, on Discord and in the console, say
    nothing of bot levels, and a measured game's rules do."""
    register(demo_game.GAME)
    try:
        assert ladder(demo_game.GAME.id) is None and ladder_lines(demo_game.GAME.id) == []
        embed = rules_embed(demo_game.GAME)
        assert "Bot levels" not in [f.name for f in embed.fields]
        assert console_main(["rules", demo_game.GAME.id]) == 0
    finally:
        unregister(demo_game.GAME.id)
    shown = capsys.readouterr().out
    assert "High Card" in shown and "Bot levels" not in shown and "rated" not in shown
    measured_embed: discord.Embed = rules_embed(declaration("hoodwink").game, "bots")  # a page of its own
    assert measured_embed.description is not None
    assert re.search(r"^strong: rated \d+; wins", measured_embed.description, re.M)
