"""What the pages of record read, on SQLite and PostgreSQL: the server's secret, its games, a
player's games, rivals and rating history, and the period leaderboard (counted, then rated)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from storage import stats
from storage.pages import ensure_pages_record, pages_record
from storage.sessions import Store
from tests.web.records_data import HOSTILE, fill


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    s = await Store.open(database)
    yield s
    await s.close()


async def test_the_secret_is_made_once_and_kept(store: Store) -> None:
    assert await pages_record(store.conn, "10") is None
    first = await ensure_pages_record(store.conn, "10", "Den")
    again = await ensure_pages_record(store.conn, "10")
    renamed = await ensure_pages_record(store.conn, "10", "Den 2")
    other = await ensure_pages_record(store.conn, "11")
    assert first.secret == again.secret == renamed.secret != other.secret and len(first.secret) == 32
    assert (first.guild_name, again.guild_name, renamed.guild_name, other.guild_name) == ("Den", "Den", "Den 2", None)


async def test_two_admins_turning_pages_on_at_once_make_one_secret(store: Store) -> None:
    made = await asyncio.gather(*(ensure_pages_record(store.conn, "10", f"Den {i}") for i in range(4)))
    assert len({m.secret for m in made}) == 1
    kept = await pages_record(store.conn, "10")
    assert kept is not None and kept.secret == made[0].secret and kept.guild_name in {f"Den {i}" for i in range(4)}


async def test_what_a_player_page_reads(store: Store) -> None:
    await fill(store, "10")
    await fill(store, "99", matches=3)  # another server's record never mixes in
    games = await stats.rated_games(store.conn, "10")
    assert [(g.game, g.players) for g in games] == [("parity", 4), ("spec", 3)]
    name, played = await stats.player_games(store.conn, "10", "101")
    assert name == "Ann"
    # 10 rated Parity matches and 1 with a guest (finished, unrated); the abandoned one is no game
    assert [(g.game, g.games, g.wins, g.rating is not None) for g in played] == [("parity", 11, 9, True), ("spec", 1, 0, True)]
    rivals = await stats.opponents(store.conn, "10", "101")
    assert [(o.name, o.together, o.ahead, o.behind) for o in rivals][:2] == [("Bob", 10, 8, 2), ("Cat", 6, 4, 2)]
    assert all(o.user_id for o in rivals)  # a guest is nobody's rival
    history = await stats.rating_histories(store.conn, "10", "101")
    assert {g: len(h) for g, h in history.items()} == {"parity": 10, "spec": 1}
    assert await stats.has_rating(store.conn, "10", "104") and not await stats.has_rating(store.conn, "10", "105")
    assert sorted(await stats.rated_players(store.conn, "10")) == ["101", "102", "103", "104"]
    assert (await stats.player_games(store.conn, "10", "104"))[0] == HOSTILE


async def test_the_period_leaderboard_counts_the_period(store: Store) -> None:
    await fill(store, "10")
    week = await stats.leaderboard(store.conn, "10", "parity", "week", limit=10)
    everything = await stats.leaderboard(store.conn, "10", "parity", "all", limit=10)
    assert {(r.name, r.games, r.wins) for r in week.rows} == {(r.name, r.games, r.wins) for r in everything.rows}
    assert {r.user_id: r.rating for r in week.rows} == {r.user_id: r.rating for r in everything.rows}
