"""The table service on the toy game: lobby, play, refusals, persistence and restart, concurrency."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.settings import GuildSettings
from bot.tables import TableError, TableService, User
from games.engine import PlayCard
from storage.sessions import Store
from tests.bot.conftest import RecordingNotifier
from tests.bot.toy_game import Knock

G, C = "g1", "c1"
ANN, BOB, CAT = User("1", "Ann"), User("2", "Bob"), User("3", "Cat")


async def started(service: TableService, *options: str) -> None:
    await service.open_table(G, C, ANN, "toy", ["first_dealer=2", *options])
    await service.join(G, C, BOB)
    await service.start(G, C, ANN)


async def play_current(service: TableService) -> None:
    table = service.require_table(G, C)
    assert table.state is not None
    seat = min(table.state.awaiting())
    user = [ANN, BOB][seat]
    legal = [a for a in service.hand(G, C, user).legal if isinstance(a, PlayCard)]
    await service.act(G, C, user, legal[0], table.turn)


async def test_lobby_refusals(service: TableService) -> None:
    await service.open_table(G, C, ANN, "toy")
    with pytest.raises(TableError, match="already has a table"):
        await service.open_table(G, C, BOB, "toy")
    with pytest.raises(TableError, match="already seated"):
        await service.join(G, C, ANN)
    with pytest.raises(TableError, match="Only the host"):
        await service.start(G, C, BOB)
    with pytest.raises(TableError, match="for 2, 3 players|not 1"):
        await service.start(G, C, ANN)
    with pytest.raises(TableError, match="no option"):
        await service.set_options(G, C, ANN, ["speed=fast"])
    await service.join(G, C, BOB)
    await service.join(G, C, CAT)
    with pytest.raises(TableError, match="full"):
        await service.join(G, C, User("4", "Dan"))


async def test_unknown_game_and_bad_option(service: TableService) -> None:
    with pytest.raises(TableError, match="no game called 'chess'"):
        await service.open_table(G, C, ANN, "chess")
    with pytest.raises(TableError, match="name=value"):
        await service.open_table(G, C, ANN, "toy", ["deals"])
    with pytest.raises(TableError, match="deals"):
        await service.open_table(G, C, ANN, "toy", ["deals=many"])
    assert service.table(G, C) is None


async def test_play_refusals_change_nothing(service: TableService) -> None:
    await started(service)
    table = service.require_table(G, C)
    assert table.state is not None
    before = table.state.fingerprint()
    # Ann is the dealer (seat 0 dealt... first_dealer=2 -> Bob deals, Ann leads)
    bob_card = service.hand(G, C, BOB).view.hand[0]
    with pytest.raises(TableError, match="not your turn"):
        await service.act(G, C, BOB, PlayCard(play=bob_card), table.turn)
    with pytest.raises(TableError, match="not playing at this table"):
        await service.act(G, C, CAT, PlayCard(play=bob_card), table.turn)
    with pytest.raises(TableError, match="earlier turn"):
        await service.act(G, C, ANN, PlayCard(play=service.hand(G, C, ANN).view.hand[0]), table.turn - 1)
    with pytest.raises(TableError, match="cannot"):
        await service.act(G, C, ANN, PlayCard(play=bob_card), table.turn)
    with pytest.raises(TableError, match="understands"):
        await service.act(G, C, ANN, {"kind": "fly"}, table.turn)
    assert table.state.fingerprint() == before
    assert (await service.store.session(table.id)).actions == []  # type: ignore[union-attr]


async def test_whole_match_records_a_result(service: TableService, notifier: RecordingNotifier) -> None:
    await started(service)
    table = service.require_table(G, C)
    while service.table(G, C) is not None:
        await play_current(service)
    assert table.state is not None and table.state.is_over
    results = await service.store.results(G)
    assert len(results) == 1 and results[0]["rated"] is True
    assert sum(p.score for p in results[0]["players"]) == 12
    assert notifier.closed == [table.id]
    # each player got a DM at each of the two deals
    assert sorted(u for u, _ in notifier.private) == ["1", "1", "2", "2"]


async def test_optional_act_out_of_turn(service: TableService) -> None:
    await started(service, "first_dealer=1")
    table = service.require_table(G, C)
    assert table.state is not None and table.state.awaiting() == {1}
    await service.act(G, C, ANN, Knock(), table.turn)
    assert table.state.knocked  # type: ignore[attr-defined]


async def test_dm_closed_player_is_told_once(service: TableService, notifier: RecordingNotifier) -> None:
    notifier.dm_blocked.add("2")
    await started(service)
    while service.table(G, C) is not None:
        await play_current(service)
    told = [n for n in notifier.notices if n[1] == "2"]
    assert len(told) == 1 and "Show my hand" in told[0][0]
    assert "2" in await service.store.dm_closed_users()


async def test_restart_replays_open_tables(db_path: Path, service: TableService) -> None:
    await started(service)
    await play_current(service)
    await play_current(service)
    old = service.require_table(G, C)
    assert old.state is not None
    store2 = await Store.open(db_path)
    service2 = TableService(store2, RecordingNotifier())
    assert await service2.load() == 1
    new = service2.require_table(G, C)
    assert new.state is None and new.turn == old.turn  # restored from its row; the log is read on first use
    assert await service2.ready(G, C) is new
    assert new.state is not None and new.state.fingerprint() == old.state.fingerprint()
    # "Recent" as it was (but the service's own "begins" line, which the game's log does not hold)
    assert [e.text for e in new.recent] == [e.text for e in old.recent if e.kind != "start"]
    await play_current(service2)
    assert new.turn == old.turn + 1
    await service2.shutdown()
    await store2.close()


async def test_simultaneous_clicks_apply_once(service: TableService) -> None:
    await started(service)
    table = service.require_table(G, C)
    info = service.hand(G, C, ANN)
    card = next(a for a in info.legal if isinstance(a, PlayCard))
    results = await asyncio.gather(
        *(service.act(G, C, ANN, card, info.turn) for _ in range(100)), return_exceptions=True
    )
    assert sum(1 for r in results if not isinstance(r, Exception)) == 1
    assert all(isinstance(r, TableError) for r in results if isinstance(r, Exception))
    session = await service.store.session(table.id)
    assert session is not None and len(session.actions) == 1


async def test_bots_fill_seats_and_game_is_unrated(service: TableService) -> None:
    await service.open_table(G, C, ANN, "toy")
    await service.add_bot(G, C, ANN)
    await service.start(G, C, ANN)
    while service.table(G, C) is not None:
        info = service.hand(G, C, ANN)
        await service.act(G, C, ANN, next(a for a in info.legal if isinstance(a, PlayCard)), info.turn)
    results = await service.store.results(G)
    assert results[0]["rated"] is False


async def test_timeout_lets_a_bot_play(service: TableService, notifier: RecordingNotifier) -> None:
    await service.update_settings(G, GuildSettings(turn_reminder_seconds=0, turn_timeout_seconds=0))
    await started(service)
    table = service.require_table(G, C)
    turn = table.turn
    events = await service.timeout_now(table, turn)
    assert events and "Time is up" in events[0].text
    assert table.turn > turn and not table.unrated  # the absent player ranks last instead
    assert [s.left_at for s in table.seats].count(turn) == 1
    assert await service.timeout_now(table, turn) == []  # a stale timer does nothing


async def test_timer_reminds_then_plays(service: TableService, notifier: RecordingNotifier) -> None:
    await service.update_settings(G, GuildSettings(turn_reminder_seconds=0, turn_timeout_seconds=0))
    await started(service)
    table = service.require_table(G, C)
    await service.update_settings(G, GuildSettings(turn_reminder_seconds=1, turn_timeout_seconds=2))
    service.timers.schedule(table)
    turn = table.turn
    await asyncio.sleep(2.3)
    assert any(t.startswith("It is your turn.") for t, _ in notifier.notices)
    assert table.turn > turn


async def test_abandon_needs_host_or_moderator(service: TableService) -> None:
    await started(service)
    with pytest.raises(TableError, match="Only the host or a moderator"):
        await service.abandon(G, C, BOB)
    await service.abandon(G, C, User("9", "Mod", is_moderator=True))
    assert service.table(G, C) is None
    assert (await service.store.results(G))[0]["rated"] is False


def test_who_made_each_action_is_kept_a_byte_an_action() -> None:
    from bot.service.model import Column

    actors = Column(["1", "2", None] * 1000)
    assert len(actors) == 3000 and actors[-3:] == ["1", "2", None] and actors[1] == "2"
    actors.append("3")
    actors[0] = None
    assert actors.pop() == "3" and actors[:2] == [None, "2"] and actors == [None, "2", None, *(["1", "2", None] * 999)]
    assert actors._codes.itemsize == 1
    many = Column(str(i) for i in range(300))  # more than 255 people: two bytes an action
    assert list(many) == [str(i) for i in range(300)]
