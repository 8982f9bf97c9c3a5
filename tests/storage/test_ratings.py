"""Ratings: openskill Plackett-Luce updates checked against the formulas worked by hand."""

from __future__ import annotations

import math

import pytest

from storage import stats
from storage.ratings import PROVISIONAL_GAMES, Placing, Rating, is_provisional, rate
from storage.sessions import ResultPlayer, SeatRecord, Store

BETA, KAPPA, TAU = 25 / 6, 1e-4, 25 / 300


def by_hand(players: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """Weng-Lin's Plackett-Luce update written out, one player a team, as openskill defines it."""
    players = [(m, math.sqrt(s * s + TAU * TAU)) for m, s in players]
    c = math.sqrt(sum(s * s + BETA * BETA for _, s in players))
    e = [math.exp(m / c) for m, _ in players]
    n = len(players)
    sum_q = [sum(e[i] for i in range(n) if ranks[i] >= ranks[q]) for q in range(n)]
    ties = [sum(1 for j in range(n) if ranks[j] == ranks[i]) for i in range(n)]
    out = []
    for i, (mu, sigma) in enumerate(players):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] <= ranks[i]:
                quotient = e[i] / sum_q[q]
                omega += ((1 if i == q else 0) - quotient) / ties[q]
                delta += quotient * (1 - quotient) / ties[q]
        omega *= sigma * sigma / c
        delta *= (sigma / c) * sigma * sigma / (c * c)
        out.append((mu + omega, sigma * math.sqrt(max(1 - delta, KAPPA))))
    return out


def test_a_series_matches_the_hand_computation() -> None:
    series = [
        (["a", "b"], [1, 2]),
        (["a", "b", "c"], [2, 1, 3]),
        (["b", "c"], [1, 1]),  # a tie
        (["a", "b", "c"], [1, 2, 2]),
        (["c", "a"], [1, 2]),
    ]
    mine: dict[str, Rating] = {}
    hand: dict[str, tuple[float, float]] = {}
    for users, ranks in series:
        mine.update(rate([Placing(u, r) for u, r in zip(users, ranks, strict=True)], mine))
        new = by_hand([hand.get(u, (25.0, 25 / 3)) for u in users], ranks)
        hand.update(dict(zip(users, new, strict=True)))
        for u in users:
            assert mine[u].mu == pytest.approx(hand[u][0], abs=1e-9)
            assert mine[u].sigma == pytest.approx(hand[u][1], abs=1e-9)
    # first match by hand: the winner of two fresh players gains what the loser drops
    first = by_hand([(25, 25 / 3), (25, 25 / 3)], [1, 2])
    assert first[0][0] - 25 == pytest.approx(25 - first[1][0])


def test_teams_share_one_update() -> None:
    new = rate([Placing("a", 1, team=0), Placing("c", 1, team=0), Placing("b", 2, team=1), Placing("d", 2, team=1)], {})
    assert new["a"] == new["c"] and new["b"] == new["d"]
    assert new["a"].mu > 25 > new["b"].mu


def test_provisional_thresholds() -> None:
    assert is_provisional(PROVISIONAL_GAMES - 1, 5.0)
    assert is_provisional(PROVISIONAL_GAMES, 8.0)
    assert not is_provisional(PROVISIONAL_GAMES, 7.0)


async def record(store: Store, guild: str, game: str, players: list[tuple[str, int, int]], *, rated: bool = True) -> int:
    sid = await store.create_session(
        guild_id=guild, channel_id="c", game=game, options={}, host_id=players[0][0],
        seats=[SeatRecord(name=u.upper(), user_id=u) for u, _, _ in players], seed=1,
    )
    await store.record_result(
        sid, guild_id=guild, game=game, rated=rated, outcome={},
        players=[ResultPlayer(i, u.upper(), u, score, rank) for i, (u, score, rank) in enumerate(players)],
    )
    return sid


async def test_results_update_ratings_leaderboard_and_seasons(database: str) -> None:
    store = await Store.open(database)
    try:
        await record(store, "g", "parity", [("a", 120, 1), ("b", 80, 2)])
        await record(store, "g", "parity", [("a", 100, 1), ("b", 90, 2)])
        await record(store, "g", "parity", [("a", 60, 2), ("b", 100, 1)], rated=False)
        board = await stats.leaderboard(store.conn, "g", "parity")
        assert [r.user_id for r in board.rows] == ["a", "b"]
        assert board.rows[0].games == 2 and board.rows[0].wins == 2 and board.rows[1].wins == 0
        assert all(r.provisional for r in board.rows)
        # a new season starts empty but all-time stays
        assert await stats.new_season(store.conn, "g", "admin") == 2
        assert (await stats.leaderboard(store.conn, "g", "parity", "season")).rows == []
        assert len((await stats.leaderboard(store.conn, "g", "parity", "all")).rows) == 2
        await record(store, "g", "parity", [("b", 100, 1), ("a", 10, 2)])
        season = await stats.leaderboard(store.conn, "g", "parity", "season")
        assert [r.user_id for r in season.rows] == ["b", "a"] and season.season == 2
        week = await stats.leaderboard(store.conn, "g", "parity", "week")
        assert {r.user_id: r.games for r in week.rows} == {"a": 3, "b": 3}
        # another server sees nothing
        assert (await stats.leaderboard(store.conn, "other", "parity")).rows == []
        log = await stats.admin_log(store.conn, "g")
        assert log[0]["action"] == "season new" and log[0]["user_id"] == "admin"
        # stats and head to head
        st = await stats.player_stats(store.conn, "g", "a", "parity")
        assert (st.games, st.wins, st.best_score, st.favourite_game) == (4, 2, 120, "parity")
        assert len(st.history) == 3
        assert await stats.head_to_head(store.conn, "g", "a", "b") == (4, 2, 2)
        # reset is logged and leaves results alone
        await stats.reset_rating(store.conn, "g", "admin", "a")
        assert [r.user_id for r in (await stats.leaderboard(store.conn, "g", "parity")).rows] == ["b"]
        assert (await stats.player_stats(store.conn, "g", "a")).games == 4
        csv_text = await stats.export_csv(store.conn, "g")
        assert csv_text.count("\n") == 1 + 8 and "parity" in csv_text
    finally:
        await store.close()


async def test_tied_ranks_both_count_as_wins(database: str) -> None:
    store = await Store.open(database)
    try:
        await record(store, "g", "hoodwink", [("a", 100, 1), ("b", 100, 1), ("c", 50, 3)])
        board = await stats.leaderboard(store.conn, "g", "hoodwink")
        wins = {r.user_id: r.wins for r in board.rows}
        assert wins == {"a": 1, "b": 1, "c": 0}
        ratings = {r.user_id: r.rating for r in board.rows}
        assert ratings["a"] == ratings["b"] > ratings["c"]
    finally:
        await store.close()


async def test_guests_make_a_match_unrated(database: str) -> None:
    store = await Store.open(database)
    try:
        sid = await store.create_session(
            guild_id="g", channel_id="c", game="parity", options={}, host_id="a",
            seats=[SeatRecord(name="A", user_id="a"), SeatRecord(name="Guest")], seed=1,
        )
        await store.record_result(
            sid, guild_id="g", game="parity", rated=True, outcome={},
            players=[ResultPlayer(0, "A", "a", 100, 1), ResultPlayer(1, "Guest", None, 20, 2)],
        )
        assert (await stats.leaderboard(store.conn, "g", "parity")).rows == []
        assert (await store.results("g"))[0]["rated"] is False
    finally:
        await store.close()
