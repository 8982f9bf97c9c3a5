"""The store's whole contract, on SQLite and on PostgreSQL alike: sessions and their logs, referee
entries, results, flags and settings, the records read back, and transactions that leave nothing
behind when they fail."""

from __future__ import annotations

import asyncio
import csv
import io
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from storage import stats
from storage.db import transaction
from storage.errors import Conflict
from storage.query import Query
from storage.sessions import ResultPlayer, SeatRecord, SessionClosed, Store

SEATS = [SeatRecord("Ann", "a"), SeatRecord("Bob", "b")]


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    s = await Store.open(database)
    yield s
    await s.close()


async def new_session(store: Store, channel: str = "c", *, playing: bool = True, guild: str = "g") -> int:
    sid = await store.create_session(
        guild_id=guild, channel_id=channel, game="parity", options={"target": 3}, host_id="a",
        seats=SEATS, seed=2**62 + 5, deck=[["AS", "KH"]],
    )
    if playing:
        await store.set_status(sid, "playing")
    return sid


async def finish(store: Store, sid: int, ranks: tuple[int, int] = (1, 2), *, rated: bool = True) -> None:
    await store.record_result(
        sid, guild_id="g", game="parity", rated=rated, outcome={"winner": 0},
        players=[ResultPlayer(0, "Ann", "a", 120, ranks[0]), ResultPlayer(1, "Bob", "b", 80, ranks[1])],
    )


async def test_a_session_and_its_log_round_trip(store: Store) -> None:
    sid = await new_session(store, playing=False)
    await store.update_lobby(sid, options={"target": 5}, seats=[*SEATS, SeatRecord("Cat", bot="easy")], host_id="b")
    with pytest.raises(SessionClosed):  # a lobby logs no action
        await store.append_action(sid, 0, 0, {"card": "AS"}, "a")
    await store.set_status(sid, "playing")
    await store.append_action(sid, 0, 0, {"card": "AS"}, "a")
    await store.append_action(sid, 1, 2, {"card": "KH"}, None)
    with pytest.raises(Conflict):  # a double click racing: the same seq twice
        await store.append_action(sid, 1, 1, {"card": "QS"}, "b")
    await store.set_message(sid, "m1")
    await store.set_unrated(sid, ["hints", "hints", "bots"])

    session = await store.session(sid)
    assert session is not None
    assert (session.options, session.host_id, session.seed, session.deck) == ({"target": 5}, "b", 2**62 + 5, [["AS", "KH"]])
    assert [s.name for s in session.seats] == ["Ann", "Bob", "Cat"] and session.seats[2].bot == "easy"
    assert session.actions == [(0, {"card": "AS"}), (2, {"card": "KH"})] and session.actors == ["a", None]
    assert (session.message_id, session.unrated, session.status) == ("m1", ["bots", "hints"], "playing")
    assert session.last_change_at > 1.7e9
    [head] = await store.open_session_heads()
    assert head.id == sid and head.action_count == 2 and head.actions == []
    assert await store.session(sid + 1000) is None


async def test_one_open_table_per_channel(store: Store) -> None:
    sid = await new_session(store)
    with pytest.raises(Conflict):
        await new_session(store)
    await new_session(store, "other")
    await store.mark_broken(sid, "its log no longer replays")
    assert (await store.session(sid)).status == "broken"  # type: ignore[union-attr]
    again = await new_session(store)  # the channel is free again
    assert again > sid
    assert [h.channel_id for h in await store.open_session_heads()] == ["other", "c"]


async def test_referee_entries_are_confirmed_undone_and_corrected(store: Store) -> None:
    sid = await new_session(store)
    for seq in range(3):
        await store.append_action(sid, seq, seq % 2, {"n": seq}, "a")
    await store.confirm_action(sid, 0, "b")
    await store.correct_action(sid, 1, {"n": 10}, {"n": 1}, "b")
    await store.undo_action(sid, 2, "a")
    session = await store.session(sid)
    assert session is not None
    assert session.actions == [(0, {"n": 0}), (1, {"n": 10})] and session.confirmed_by == ["b", None]
    log = await store.entry_log(sid)
    assert [(e["seq"], e["kind"], e["by_user"]) for e in log] == [(0, "confirm", "b"), (1, "correct", "b"), (2, "undo", "a")]
    assert log[2]["action"] == '{"n": 2}' and log[1]["previous"] == '{"n": 1}'
    await finish(store, sid)
    with pytest.raises(SessionClosed):  # a finished match's log is final
        await store.undo_action(sid, 1, "a")
    with pytest.raises(SessionClosed):
        await store.correct_action(sid, 0, {"n": 5}, {"n": 0}, "a")


async def test_a_result_closes_its_session_once(store: Store) -> None:
    sid = await new_session(store)
    await store.append_action(sid, 0, 0, {"card": "AS"}, "a")
    await finish(store, sid)
    with pytest.raises(SessionClosed):
        await finish(store, sid)
    with pytest.raises(SessionClosed):
        await store.append_action(sid, 1, 1, {"card": "KH"}, "b")
    [result] = await store.results("g")
    assert result["session_id"] == sid and result["rated"] is True and result["game"] == "parity"
    assert [(p.name, p.score, p.rank) for p in result["players"]] == [("Ann", 120, 1), ("Bob", 80, 2)]
    assert await store.open_session_heads() == []
    assert await store.results("elsewhere") == []


async def test_records_of_a_server(store: Store) -> None:
    first = await new_session(store)
    await store.append_action(first, 0, 0, {"card": "AS"}, "a")
    await finish(store, first)
    second = await new_session(store)
    await finish(store, second, (2, 1))
    live = await new_session(store, "live")

    assert await stats.most_played_game(store.conn, "g") == "parity"
    assert await stats.head_to_head(store.conn, "g", "a", "b") == (2, 1, 1)
    st = await stats.player_stats(store.conn, "g", "a", "parity")
    assert (st.games, st.wins, st.average_score, st.best_score) == (2, 1, 120.0, 120)
    assert isinstance(st.average_score, float) and st.rating is not None and len(st.history) == 2
    week = await stats.leaderboard(store.conn, "g", "parity", "week")
    assert {r.user_id: (r.games, r.wins) for r in week.rows} == {"a": (2, 1), "b": (2, 1)}

    # the week ends to the second: a match finished 7 days less a second ago is in it, 7 days and
    # a second ago not
    now = datetime(2026, 11, 24, 10, 0, 30, 500_000, tzinfo=UTC)
    for session, age in ((first, timedelta(days=7, seconds=1.5)), (second, timedelta(days=7, seconds=-0.5))):
        await store.conn.execute(
            Query("UPDATE results SET finished_at = :at WHERE session_id = :sid"), at=stats.stamp(now - age), sid=session
        )
    await store.conn.commit()
    week = await stats.leaderboard(store.conn, "g", "parity", "week", now=now)
    assert {r.user_id: r.games for r in week.rows} == {"a": 1, "b": 1}
    [stored] = await store.conn.execute_fetchall(Query("SELECT created_at FROM sessions WHERE id = :sid"), sid=live)
    same_shape = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"  # as the database writes it
    assert re.fullmatch(same_shape, stored["created_at"]) and re.fullmatch(same_shape, stats.stamp(datetime.now(UTC)))

    matches = await stats.history(store.conn, "g", user_id="b", channel_id="c")
    assert [m["session_id"] for m in matches] == [second, first]
    assert matches[0]["status"] == "finished" and [p["name"] for p in matches[0]["players"]] == ["Ann", "Bob"]

    data = await stats.match_json(store.conn, "g", first)
    assert data is not None and data["actions"] == [[0, {"card": "AS"}]] and data["seed"] == 2**62 + 5
    assert data["rated"] is True and data["outcome"] == {"winner": 0} and not data["live"]
    hidden = await stats.match_json(store.conn, "g", live)
    assert hidden is not None and hidden["live"] and hidden["seed"] is None and hidden["deck"] is None
    assert await stats.match_json(store.conn, "other guild", first) is None
    assert await stats.match_json(store.conn, "g", 2**63) is None

    rows = list(csv.reader(io.StringIO(await stats.export_csv(store.conn, "g"))))
    assert rows[0][0] == "match" and len(rows) == 1 + 4 and rows[1][:2] == [str(first), "parity"]

    await stats.log_admin(store.conn, "g", "admin", "settings", "timers")
    assert await stats.reset_rating(store.conn, "g", "admin", "a") == 2  # all-time and season 1
    assert [e["action"] for e in await stats.admin_log(store.conn, "g")] == ["rating reset", "settings"]


async def test_flags_and_settings(store: Store) -> None:
    await store.mark_dm_closed("a")
    await store.mark_dm_closed("a")  # twice is once
    assert await store.dm_closed_users() == {"a"} and await store.dm_untold_users() == {"a"}
    await store.mark_dm_told("a")
    assert await store.dm_untold_users() == set()
    await store.set_quiet("b", True)
    await store.set_quiet("b", True)
    assert await store.quiet_players() == {"b"}
    await store.set_quiet("b", False)
    assert await store.quiet_players() == set()
    assert await store.guild_settings("g") == {}
    await store.set_guild_settings("g", {"dms_enabled": False})
    await store.set_guild_settings("g", {"dms_enabled": True, "turn_ping": "dm"})
    assert await store.guild_settings("g") == {"dms_enabled": True, "turn_ping": "dm"}


async def test_a_failed_transaction_leaves_nothing(store: Store) -> None:
    sid = await new_session(store)
    with pytest.raises(Conflict):
        async with transaction(store.conn):
            await store.conn.execute(Query("UPDATE sessions SET message_id = 'half' WHERE id = :sid"), sid=sid)
            await store.conn.execute(
                Query("INSERT INTO actions (session_id, seq, seat, action) VALUES (:sid, 0, 0, '{}')"), sid=sid + 99
            )  # no such session: the foreign key refuses it
    assert not store.conn.in_transaction
    assert (await store.session(sid)).message_id is None  # type: ignore[union-attr]
    await store.append_action(sid, 0, 0, {"card": "AS"}, "a")  # and the next write goes through


async def test_writers_take_turns(store: Store) -> None:
    """Many coroutines writing at once: every write lands, none is lost or half done."""
    sids = [await new_session(store, f"c{i}") for i in range(8)]

    async def play(sid: int) -> None:
        for seq in range(10):
            await store.append_action(sid, seq, seq % 2, {"n": seq}, "a")
            await asyncio.sleep(0)

    async def read() -> None:
        for _ in range(20):
            await store.open_session_heads()

    await asyncio.gather(*(play(s) for s in sids), read(), read())
    assert {h.id: h.action_count for h in await store.open_session_heads()} == dict.fromkeys(sids, 10)
