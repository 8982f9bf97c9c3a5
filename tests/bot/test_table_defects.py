"""Small defects of the table service and the records, each pinned by a test: "Recent" after an
undo or a correction, abandoned matches in /stats and /history, a first dealer the game cannot
seat, and a correction that changes nothing."""

from __future__ import annotations

import pytest

from bot.render.records import history_lines, stats_lines
from bot.render.text import table_lines
from bot.tables import TableError, TableService, User
from games.engine import PlayCard
from games.registry import register_referee
from storage import stats
from storage.query import Query
from tests.bot.toy_game import TOY

register_referee(TOY)

G, C = "g1", "c1"
ANN, BOB = User("1", "Ann"), User("2", "Bob")
MOD = User("9", "Mod", is_moderator=True)


def cards(service: TableService, seat: int) -> list[PlayCard]:
    table = service.require_table(G, C)
    assert table.state is not None
    return [a for a in table.state.legal_actions(seat) if isinstance(a, PlayCard)]


async def referee_table(service: TableService) -> None:
    await service.open_referee(G, C, ANN, "toy", [ANN, BOB], ["first_dealer=2", "deals=1"])


def recent_texts(service: TableService) -> list[str]:
    return [e.text for e in service.require_table(G, C).recent]


async def test_recent_forgets_an_undone_entry_and_shows_a_reentered_one_once(service: TableService) -> None:
    await referee_table(service)
    first = cards(service, 0)
    await service.act(G, C, ANN, first[0], seat=0)
    undone = cards(service, 1)[0]
    await service.act(G, C, ANN, undone, seat=1)
    played = f"Bob plays {undone.play.short}."
    assert played in recent_texts(service)
    await service.undo(G, C, ANN)
    texts = recent_texts(service)
    assert played not in texts
    assert texts[-1].startswith("Ann took back the last entry")
    assert f"Ann plays {first[0].play.short}." in texts  # what still stands stays
    lines = "\n".join(table_lines(service.require_table(G, C)))
    assert played not in lines.split("took back")[0]  # only the undo notice names the card
    await service.act(G, C, ANN, undone, seat=1)
    assert recent_texts(service).count(played) == 1


async def test_recent_after_a_correction_shows_the_corrected_entry(service: TableService) -> None:
    await referee_table(service)
    first, other = cards(service, 0)[:2]
    await service.act(G, C, ANN, first, seat=0)
    await service.correct(G, C, ANN, 1, other)
    texts = recent_texts(service)
    assert f"Ann plays {first.play.short}." not in texts
    assert f"Ann plays {other.play.short}." in texts
    assert texts[-1] == f"Ann corrected entry 1: {first.play.short} becomes {other.play.short}."


async def test_a_correction_that_changes_nothing_is_refused(service: TableService) -> None:
    await referee_table(service)
    first = cards(service, 0)[0]
    await service.act(G, C, ANN, first, seat=0)
    with pytest.raises(TableError, match=f"Entry 1 is already {first.play.short}: there is nothing to correct"):
        await service.correct(G, C, ANN, 1, first)
    assert [e["kind"] for e in await service.store.entry_log(service.require_table(G, C).id)] == []


async def play_out(service: TableService) -> None:
    table = service.require_table(G, C)
    while service.table(G, C) is not None:
        assert table.state is not None
        seat = min(table.state.awaiting())
        await service.act(G, C, [ANN, BOB][seat], cards(service, seat)[0], table.turn)


async def test_an_abandoned_match_is_no_game_played_and_is_marked_in_the_history(service: TableService) -> None:
    await service.open_table(G, C, ANN, "toy", ["first_dealer=2", "deals=1"])
    await service.join(G, C, BOB)
    await service.start(G, C, ANN)
    await play_out(service)  # match 1: finished
    await service.open_table(G, C, ANN, "toy", ["first_dealer=2", "deals=1"])
    await service.join(G, C, BOB)
    await service.start(G, C, ANN)
    await service.act(G, C, ANN, cards(service, 0)[0])
    await service.abandon(G, C, MOD)  # match 2: abandoned after one card (by a moderator not playing)

    conn = service.store.conn
    mine = await stats.player_stats(conn, G, ANN.id, "toy")
    assert mine.games == 1
    assert (await stats.head_to_head(conn, G, ANN.id, BOB.id))[0] == 1
    assert (await stats.player_stats(conn, G, ANN.id)).games == 1
    assert "Games 1," in "\n".join(stats_lines("Ann", mine, "toy"))

    lines = history_lines(await stats.history(conn, G))
    assert len(lines) == 2
    abandoned, finished = lines  # newest first
    assert abandoned.startswith("#2 Toy Tricks") and abandoned.endswith("(abandoned)")
    assert finished.startswith("#1 Toy Tricks") and "abandoned" not in finished


async def test_a_first_dealer_the_game_cannot_seat_is_refused_when_set(service: TableService) -> None:
    with pytest.raises(TableError, match="no seat 5 at Toy Tricks: it seats at most 3 players.*1 to 3.*blank"):
        await service.open_table(G, C, ANN, "toy", ["first_dealer=5"])
    await service.open_table(G, C, ANN, "toy")
    with pytest.raises(TableError, match="no seat 4 at Toy Tricks"):
        await service.set_options(G, C, ANN, ["first_dealer=4"])
    table = service.require_table(G, C)
    assert table.options.first_dealer is None  # type: ignore[attr-defined]
    await service.set_options(G, C, ANN, ["first_dealer=3"])  # a third player may still join
    assert table.options.first_dealer == 3  # type: ignore[attr-defined]
    await service.set_options(G, C, ANN, {"first_dealer": None})  # blank: a random first dealer
    assert table.options.first_dealer is None  # type: ignore[attr-defined]
    await service.set_options(G, C, ANN, ["first_dealer=2"])
    await service.set_options(G, C, ANN, ["first_dealer="])  # typed blank: random too
    assert table.options.first_dealer is None  # type: ignore[attr-defined]


async def test_an_abandoned_referee_match_is_recorded_as_refereed(service: TableService) -> None:
    await referee_table(service)
    await service.act(G, C, ANN, cards(service, 0)[0], seat=0)
    table = service.require_table(G, C)
    await service.abandon(G, C, ANN)
    async with service.store.conn.execute(Query("SELECT mode FROM results WHERE session_id = :sid"), sid=table.id) as cur:
        row = await cur.fetchone()
    assert row is not None and row["mode"] == "referee"


async def test_the_csv_export_says_which_matches_were_abandoned(service: TableService) -> None:
    import csv
    import io

    await service.open_table(G, C, ANN, "toy")
    await service.join(G, C, BOB)
    await service.start(G, C, ANN)
    await service.abandon(G, C, ANN)
    rows = list(csv.DictReader(io.StringIO(await stats.export_csv(service.store.conn, G))))
    assert rows and {r["status"] for r in rows} == {"abandoned"}
