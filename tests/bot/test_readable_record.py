"""The record people read: options in words, ratings on a scale without negative numbers for
newcomers, and plurals that agree with their numbers."""

from __future__ import annotations

from pathlib import Path

from bot.render.records import leaderboard_lines, plural, stats_lines
from bot.render.text import lobby_lines, options_text
from games.registry import get_game
from storage import stats
from storage.ratings import display_rating
from storage.sessions import ResultPlayer, Store


def test_options_read_as_words() -> None:
    parity = get_game("parity")
    lines = options_text(parity, parity.options({"no_trump": False, "hints": True, "first_dealer": 2}))
    assert "No trump: off" in lines and "Hints: on" in lines and "First dealer: seat 2" in lines
    assert "First dealer: random" in options_text(parity, parity.options())
    assert not any("=" in line or "False" in line or "True" in line or "_" in line for line in lines)
    hoodwink = get_game("hoodwink")
    words = options_text(hoodwink, hoodwink.options())
    assert "Tie break: extra deal" in words and "Variation 2 scenario: off" in words
    assert "Variation 2 by suit: none" in words  # an empty text is a word too


def test_the_lobby_lists_options_in_words() -> None:
    from types import SimpleNamespace

    toy = get_game("parity")
    table = SimpleNamespace(game=toy, options=toy.options({"no_trump": True}), seats=[], host_id="1", state=None)
    assert "No trump: on" in "\n".join(lobby_lines(table))  # type: ignore[arg-type]


def test_display_rating_starts_newcomers_at_1000_and_stays_positive() -> None:
    assert display_rating(0.0) == 1000  # mu 25, sigma 25/3: a newcomer
    assert display_rating(-1.833) == 927  # a two-player newcomer after one loss
    assert display_rating(3.44) == 1138  # ...and after one win
    assert display_rating(-25.0) == 0 and display_rating(-40.0) == 0  # never negative
    assert display_rating(1.0) - display_rating(0.0) == 40


def test_plurals_agree() -> None:
    assert plural(1, "game") == "1 game" and plural(2, "game") == "2 games" and plural(0, "win") == "0 wins"


async def test_leaderboard_and_stats_show_the_display_rating_and_plurals(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "r.sqlite3")
    try:
        sid = await store.create_session(
            guild_id="g", channel_id="c", game="parity", options={}, host_id="a",
            seats=[], seed=1,
        )
        await store.set_status(sid, "playing")
        await store.record_result(
            sid, guild_id="g", game="parity", rated=True, outcome={},
            players=[ResultPlayer(0, "ann", "a", 10, 1), ResultPlayer(1, "bob", "b", 3, 2)],
        )
        board = await stats.leaderboard(store.conn, "g", "parity")
        text = "\n".join(leaderboard_lines(board))
        assert "ann - 1138 - 1 game, 1 win (100%)" in text
        assert "bob - 927 - 1 game, 0 wins (0%)" in text
        assert "-" + "1.8" not in text and " games" not in text
        bob = await stats.player_stats(store.conn, "g", "b", "parity")
        lines = stats_lines("bob", bob, "parity", ("ann", 1, 0, 1))
        assert "Rating 927 (provisional)" in lines and "Against ann: 1 game together, ahead 0, behind 1" in lines
    finally:
        await store.close()
