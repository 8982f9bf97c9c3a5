"""Regressions for the holes an attack on the bot found: hidden cards in stored records, tables
that froze after a crash or a log that no longer replays, writes left half done, and races.

Each test here failed before its fix."""

from __future__ import annotations

import asyncio
import io
import json
import random
import sqlite3
from pathlib import Path

import pytest

from bot.console import run_console
from bot.service.timers import RESTART_GRACE_SECONDS, RESTART_SPREAD_SECONDS, deadlines, reminder
from bot.settings import GuildSettings
from bot.tables import Clock, Table, TableError, TableService, User, finished_match
from games.engine import PlayCard
from games.registry import register_referee
from storage import stats
from storage.errors import Conflict
from storage.query import Query
from storage.sessions import Store
from tests.bot.conftest import ManualClock, RecordingNotifier, stored_actions
from tests.bot.toy_game import TOY

register_referee(TOY)

G, C = "g1", "c1"
ANN, BOB, CAT = User("1", "Ann"), User("2", "Bob"), User("3", "Cat")
MOD = User("9", "Mod", is_moderator=True)


async def started(service: TableService, *options: str, bot: bool = False) -> Table:
    await service.open_table(G, C, ANN, "toy", ["first_dealer=2", *options])
    if bot:
        await service.add_bot(G, C, ANN)
    else:
        await service.join(G, C, BOB)
    await service.start(G, C, ANN)
    return service.require_table(G, C)


def a_card(table: Table, seat: int) -> PlayCard:
    assert table.state is not None
    return next(a for a in table.state.legal_actions(seat) if isinstance(a, PlayCard))


async def play_until_one_action_left(service: TableService, user_of_seat: dict[int, User]) -> Table:
    """Play the toy match until its last action is due (the table is still open)."""
    table = service.require_table(G, C)
    assert table.state is not None
    while True:
        seat = min(table.state.awaiting())
        card = a_card(table, seat)
        probe = table.game.start([s.name for s in table.seats], table.options, table.seed)
        for s, a in [*await stored_actions(service, table), (seat, card)]:
            probe.apply(s, a)
        if probe.is_over:
            return table
        where = {"seat": seat} if table.mode == "referee" else {}
        await service.act(G, C, user_of_seat[seat], card, table.turn, **where)


async def play_one(service: TableService, table: Table) -> None:
    assert table.state is not None
    seat = min(table.state.awaiting())
    await service.act(G, C, [ANN, BOB][seat], a_card(table, seat), table.turn)


async def restarted(db_path: Path, clock: Clock | None = None) -> tuple[TableService, Store, RecordingNotifier]:
    store = await Store.open(db_path)
    notifier = RecordingNotifier()
    service = TableService(store, notifier, clock=clock)
    await service.load()
    await service.wait_resumed()
    return service, store, notifier


# -- hidden cards -------------------------------------------------------------------------------------


async def test_a_live_match_record_has_no_seed_deck_or_log(service: TableService) -> None:
    table = await started(service)
    await play_one(service, table)
    data = await stats.match_json(service.store.conn, G, table.id)
    assert data is not None and data["live"] is True
    assert data["seed"] is None and data["deck"] is None and data["actions"] == []
    assert str(table.seed) not in json.dumps(data)
    with pytest.raises(TableError, match="still being played"):
        finished_match(data, table.id)
    await service.abandon(G, C, MOD)  # a moderator not playing: a player may not end a rated match
    data = await stats.match_json(service.store.conn, G, table.id)
    assert data is not None and data["live"] is False and data["seed"] == table.seed and data["actions"]


async def test_the_console_will_not_replay_a_live_match(db_path: Path) -> None:
    out: list[str] = []
    lines = ["ann: /play toy", "bob: /join", "ann: /start", "cat: /replay 1"]
    await run_console(str(db_path), io.StringIO("\n".join(lines) + "\n"), out.append)
    assert "Match #1 is still being played" in out[-1]


async def test_seeds_come_from_the_operating_systems_secure_source(db_path: Path) -> None:
    store = await Store.open(db_path)
    try:
        service = TableService(store, RecordingNotifier())
        assert isinstance(service.rng, random.SystemRandom)
        await service.open_referee(G, C, ANN, "toy", [ANN, BOB])
        await service.open_table(G, "c2", ANN, "toy")
        seeds = {service.require_table(G, c).seed for c in (C, "c2")}
        assert len(seeds) == 2
    finally:
        await store.close()


# -- tables that froze ---------------------------------------------------------------------------------


async def test_after_a_crash_the_bot_whose_turn_it_is_moves(db_path: Path, service: TableService) -> None:
    table = await started(service, bot=True)
    assert table.state is not None and table.state.awaiting() == {0}
    # the crash: Ann's move is logged, the bot's reply never happened
    turn, card = table.turn, a_card(table, 0)
    await service.store.append_action(table.id, turn, 0, table.game.action_to_json(card), ANN.id)
    service2, store2, _ = await restarted(db_path)
    try:
        table2 = service2.require_table(G, C)
        assert table2.turn >= turn + 2 and table2.state is not None and 1 not in table2.state.awaiting()
        session = await store2.session(table.id)
        assert session is not None and session.actors[turn:turn + 2] == [ANN.id, None]
    finally:
        await service2.shutdown()
        await store2.close()


async def match_whose_last_move_is_only_logged(service: TableService) -> Table:
    """The crash: the match's last move is in the log, its result is not recorded."""
    table = await started(service, "deals=1")
    await play_until_one_action_left(service, {0: ANN, 1: BOB})
    assert table.state is not None
    seat = min(table.state.awaiting())
    await service.store.append_action(
        table.id, table.turn, seat, table.game.action_to_json(a_card(table, seat)), [ANN, BOB][seat].id
    )
    return table


async def test_after_a_crash_a_match_whose_last_move_was_logged_is_recorded(db_path: Path, service: TableService) -> None:
    table = await match_whose_last_move_is_only_logged(service)
    await service.update_settings(G, GuildSettings(turn_reminder_seconds=0, turn_timeout_seconds=0))
    service2, store2, _ = await restarted(db_path)
    try:  # no timer will load it: its first use (here, someone looking at the table) does
        assert await service2.ready(G, C) is None
        assert [r["session_id"] for r in await store2.results(G)] == [table.id]
    finally:
        await service2.shutdown()
        await store2.close()


async def test_a_restored_table_whose_match_ended_is_recorded_by_its_timer(db_path: Path, service: TableService) -> None:
    table = await match_whose_last_move_is_only_logged(service)
    await service.update_settings(G, GuildSettings(turn_reminder_seconds=0, turn_timeout_seconds=1))
    clock = ManualClock()
    service2, store2, _ = await restarted(db_path, clock)
    try:
        assert service2.table(G, C) is not None and await store2.results(G) == []
        await clock.advance(200)  # its timeout: at least a short grace after the restart
        assert service2.table(G, C) is None
        assert [r["session_id"] for r in await store2.results(G)] == [table.id]
    finally:
        await service2.shutdown()
        await store2.close()


REMIND, TIMEOUT = 120, 600


async def first_service(db_path: Path, clock: ManualClock) -> tuple[TableService, Store, RecordingNotifier]:
    """A bot (on ``clock``) with a table whose turn has been Bob's for 90 s, not yet reminded."""
    service, store, notifier = await restarted(db_path, clock)
    await service.update_settings(G, GuildSettings(turn_reminder_seconds=REMIND, turn_timeout_seconds=TIMEOUT))
    table = await started(service)
    await play_one(service, table)
    assert table.state is not None and table.state.awaiting() == {1}
    await clock.advance(90)
    assert notifier.notices == []
    return service, store, notifier


@pytest.mark.parametrize("stop", ["shutdown", "crash"])
async def test_a_downtime_longer_than_the_reminder_and_the_timeout_is_nobodys_fault(db_path: Path, stop: str) -> None:
    """An hour's downtime, then the turn goes on with the time it had left: its reminder 30 s after
    the restart (40 s after a crash: the clocks were last noted 80 s into the turn), the bot plays
    for Bob only once his 600 s are used: nobody ranks last for the downtime."""
    clock = ManualClock()
    service, store, _ = await first_service(db_path, clock)
    turn = service.require_table(G, C).turn
    if stop == "shutdown":
        await service.shutdown()
        await store.close()
    later = ManualClock(clock.now() + 3600)  # a crashed bot's clock never moves again
    left = 30 if stop == "shutdown" else 40
    service2, store2, notifier2 = await restarted(db_path, later)
    try:
        table2 = service2.require_table(G, C)
        await later.advance(left - 5)
        assert notifier2.notices == [] and not table2.loaded  # nothing due: not even loaded
        await later.advance(10)
        due = table2.last_change_at + TIMEOUT  # the reminder names the moment the bot takes over
        assert notifier2.notices == [(reminder(due), BOB.id)]
        await later.advance(TIMEOUT - REMIND - 10)
        assert table2.turn == turn and not table2.unrated  # no bot move, nobody ranked last
        assert all(s.left_at is None for s in table2.seats)
        await later.advance(10)
        assert table2.turn > turn and [s.left_at for s in table2.seats] == [None, turn]  # Bob's time ran out
        assert later.now() - 10 < due <= later.now()  # ...when it did take over
        assert notifier2.notices.count((reminder(due), BOB.id)) == 1
    finally:
        await service2.shutdown()
        await store2.close()
        if stop == "crash":
            await service.shutdown()
            await store.close()


async def test_a_turn_reminded_before_the_downtime_is_not_reminded_again(db_path: Path) -> None:
    """Bob was reminded 120 s into his turn; 500 s in, the bot went down for an hour. After the
    restart: no second reminder, and his last 100 s (at least the grace) before a bot plays."""
    clock = ManualClock()
    service, store, notifier = await first_service(db_path, clock)
    turn = service.require_table(G, C).turn
    await clock.advance(410)
    assert notifier.notices == [(reminder(service.require_table(G, C).last_change_at + TIMEOUT), BOB.id)]
    await service.shutdown()
    await store.close()
    later = ManualClock(clock.now() + 3600)
    service2, store2, notifier2 = await restarted(db_path, later)
    try:
        table2 = service2.require_table(G, C)
        await later.advance(95)
        assert notifier2.notices == [] and table2.turn == turn and all(s.left_at is None for s in table2.seats)
        await later.advance(RESTART_GRACE_SECONDS + RESTART_SPREAD_SECONDS)
        assert notifier2.notices == [] and table2.turn > turn
    finally:
        await service2.shutdown()
        await store2.close()


def test_timeouts_due_at_a_restart_are_spread_out() -> None:
    """Tables whose time ran out while the bot was down time out over a window after a grace,
    not all at once."""
    now, settings = 1e9, GuildSettings(turn_reminder_seconds=REMIND, turn_timeout_seconds=TIMEOUT)
    due = []
    for table_id in range(1, 101):
        table = Table(table_id, G, f"c{table_id}", TOY, TOY.options(), ANN.id, [], 1, status="playing",
                      last_change_at=now - 5000, resumed_turn=0)
        remind_at, timeout_at = deadlines(table, settings, now)
        assert remind_at is None and timeout_at is not None
        due.append(timeout_at - now)
    assert min(due) >= RESTART_GRACE_SECONDS and max(due) <= RESTART_GRACE_SECONDS + RESTART_SPREAD_SECONDS
    assert len({round(d) for d in due}) > 50  # most tables in a second of their own


async def test_a_session_that_no_longer_replays_is_marked_broken_and_frees_its_channel(
    db_path: Path, service: TableService
) -> None:
    table = await started(service)
    await play_one(service, table)
    await service.store.conn.execute(
        Query("UPDATE actions SET action = :action WHERE session_id = :sid"),
        action=json.dumps({"kind": "no such move"}),
        sid=table.id,
    )
    await service.store.conn.commit()
    service2, store2, notifier2 = await restarted(db_path)
    try:
        with pytest.raises(TableError, match="could not be restored"):  # found at its first use
            await service2.act(G, C, ANN, {"kind": "knock"})
        assert service2.table(G, C) is None
        assert sum("could not be restored" in text for text, _ in notifier2.notices) == 1
        session = await store2.session(table.id)
        assert session is not None and session.status == "broken" and len(session.actions) == 1  # log kept
        await service2.open_table(G, C, CAT, "toy")  # the channel is free again
        assert service2.require_table(G, C).host_id == CAT.id
    finally:
        await service2.shutdown()
        await store2.close()
    service3, store3, notifier3 = await restarted(db_path)  # told once, not at every start
    await service3.ready(G, C)
    try:
        assert not any("could not be restored" in text for text, _ in notifier3.notices)
    finally:
        await service3.shutdown()
        await store3.close()


async def test_a_refused_duplicate_action_leaves_no_open_write(db_path: Path, service: TableService) -> None:
    table = await started(service)
    seat = min(table.state.awaiting()) if table.state else 0
    card = table.game.action_to_json(a_card(table, seat))
    await service.store.append_action(table.id, table.turn, seat, card, ANN.id)
    with pytest.raises(Conflict):
        await service.store.append_action(table.id, table.turn, seat, card, ANN.id)
    assert not service.store.conn.in_transaction
    other = sqlite3.connect(db_path, timeout=0.2)  # another writer to the file is not locked out
    try:
        other.execute("INSERT INTO dm_closed (user_id) VALUES ('someone')")
        other.commit()
    finally:
        other.close()


# -- races: both coroutines started together, in both orders -----------------------------------------


async def test_two_play_commands_at_once_open_one_table(service: TableService) -> None:
    results = await asyncio.gather(
        service.open_table(G, C, ANN, "toy"), service.open_table(G, C, BOB, "toy"), return_exceptions=True
    )
    assert sum(isinstance(r, Table) for r in results) == 1
    assert [str(r) for r in results if isinstance(r, Exception)] == [
        "This channel already has a table of Toy Tricks. Use /table to see it, or finish or /abandon it first."
    ]
    async with service.store.conn.execute(Query("SELECT COUNT(*) FROM sessions WHERE channel_id = :c"), c=C) as cur:
        assert (await cur.fetchone())[0] == 1  # type: ignore[index]


@pytest.mark.parametrize("order", [0, 1])
async def test_two_members_leaving_a_lobby_at_once_each_leave(service: TableService, order: int) -> None:
    await service.open_table(G, C, ANN, "toy")
    await service.join(G, C, BOB)
    await service.join(G, C, CAT)
    leavers = [BOB, CAT] if order == 0 else [CAT, BOB]
    # the host's change holds the lock while both leavers wait: each must find their seat after it
    results = await asyncio.gather(
        service.set_options(G, C, ANN, ["deals=3"]), *(service.leave(G, C, u) for u in leavers),
        return_exceptions=True,
    )
    assert not [r for r in results if isinstance(r, Exception)]
    table = service.require_table(G, C)
    assert [s.name for s in table.seats] == ["Ann"]
    session = await service.store.session(table.id)
    assert session is not None and [s.name for s in session.seats] == ["Ann"]


async def open_ref_near_end(service: TableService) -> Table:
    await service.open_referee(G, C, ANN, "toy", [ANN, BOB], ["first_dealer=2", "deals=1"])
    return await play_until_one_action_left(service, {0: ANN, 1: ANN})


async def stored_log(service: TableService, table: Table) -> tuple[int, str, int]:
    async with service.store.conn.execute(Query("SELECT COUNT(*) FROM actions WHERE session_id = :sid"), sid=table.id) as cur:
        (actions,) = await cur.fetchone()  # type: ignore[misc]
    async with service.store.conn.execute(Query("SELECT status FROM sessions WHERE id = :sid"), sid=table.id) as cur:
        (status,) = await cur.fetchone()  # type: ignore[misc]
    async with service.store.conn.execute(Query("SELECT COUNT(*) FROM results WHERE session_id = :sid"), sid=table.id) as cur:
        (results,) = await cur.fetchone()  # type: ignore[misc]
    return actions, status, results


@pytest.mark.parametrize("order", [0, 1])
async def test_an_undo_racing_the_last_entry_never_rewrites_a_finished_match(service: TableService, order: int) -> None:
    table = await open_ref_near_end(service)
    assert table.state is not None
    seat = min(table.state.awaiting())
    entries = table.turn
    last = service.act(G, C, ANN, a_card(table, seat), seat=seat)
    undo = service.undo(G, C, ANN)
    results = await asyncio.gather(*([last, undo] if order == 0 else [undo, last]), return_exceptions=True)
    unexpected = [r for r in results if isinstance(r, Exception) and not isinstance(r, TableError)]
    assert not unexpected
    actions, status, recorded = await stored_log(service, table)
    if order == 0:  # the last entry ended the match: the undo is refused, the log is final
        assert isinstance(results[1], TableError)
        assert (actions, status, recorded) == (entries + 1, "finished", 1)
    else:  # the undo came first; the card entered after it was checked against the new position
        assert results[0] is None
        open_table = service.require_table(G, C)
        if isinstance(results[1], TableError):
            assert (actions, status, recorded) == (entries - 1, "playing", 0) and open_table.turn == entries - 1
        else:
            assert (actions, status, recorded) == (entries, "playing", 0) and open_table.turn == entries


@pytest.mark.parametrize("order", [0, 1])
async def test_a_correction_racing_the_last_entry_is_kept_only_if_the_user_is_told(
    service: TableService, order: int
) -> None:
    table = await open_ref_near_end(service)
    assert table.state is not None
    seat = min(table.state.awaiting())
    _seat, first = (await stored_actions(service, table))[0]
    last = service.act(G, C, ANN, a_card(table, seat), seat=seat)
    fix = service.correct(G, C, ANN, 1, first)  # the same card again: always a legal correction
    results = await asyncio.gather(*([last, fix] if order == 0 else [fix, last]), return_exceptions=True)
    assert not [r for r in results if isinstance(r, Exception) and not isinstance(r, TableError)]
    log = await service.store.entry_log(table.id)
    corrected = any(e["kind"] == "correct" for e in log)
    refused = any(isinstance(r, TableError) for r in results)
    assert corrected != refused  # kept exactly when nobody saw an error
    _, status, recorded = await stored_log(service, table)
    assert (status, recorded) == ("finished", 1)


@pytest.mark.parametrize("order", [0, 1])
async def test_two_abandons_at_once_record_one_result(service: TableService, order: int) -> None:
    table = await started(service)
    who = [ANN, MOD] if order == 0 else [MOD, ANN]
    results = await asyncio.gather(*(service.abandon(G, C, u) for u in who), return_exceptions=True)
    assert results[0] is None and isinstance(results[1], TableError)
    assert "no table" in str(results[1])
    assert (await stored_log(service, table))[1:] == ("abandoned", 1)


@pytest.mark.parametrize("order", [0, 1])
async def test_an_abandon_racing_the_finishing_move_records_one_result(service: TableService, order: int) -> None:
    table = await started(service, "deals=1")
    await play_until_one_action_left(service, {0: ANN, 1: BOB})
    assert table.state is not None
    seat = min(table.state.awaiting())
    finish = service.act(G, C, [ANN, BOB][seat], a_card(table, seat), table.turn)
    abandon = service.abandon(G, C, MOD)  # a player may not end a rated match under way
    results = await asyncio.gather(*([finish, abandon] if order == 0 else [abandon, finish]), return_exceptions=True)
    assert not [r for r in results if isinstance(r, Exception) and not isinstance(r, TableError)]
    _, status, recorded = await stored_log(service, table)
    assert recorded == 1 and status == ("finished" if order == 0 else "abandoned")


@pytest.mark.parametrize("order", [0, 1])
async def test_leaving_racing_an_abandon_never_seats_a_bot_after_the_end(
    service: TableService, notifier: RecordingNotifier, order: int
) -> None:
    table = await started(service)
    leave, abandon = service.leave(G, C, BOB), service.abandon(G, C, ANN)
    results = await asyncio.gather(*([leave, abandon] if order == 0 else [abandon, leave]), return_exceptions=True)
    assert not [r for r in results if isinstance(r, Exception) and not isinstance(r, TableError)]
    session = await service.store.session(table.id)
    assert session is not None and session.status == "abandoned"
    left = [t for t, _ in notifier.notices if "left; a bot plays" in t]
    if order == 0:
        assert session.seats[1].bot == "easy" and len(left) == 1
    else:
        assert isinstance(results[1], TableError) and session.seats[1].bot is None and not left


async def test_a_play_command_in_a_channel_whose_table_no_longer_replays_opens_a_new_one(
    db_path: Path, service: TableService
) -> None:
    table = await started(service)
    await play_one(service, table)
    await service.store.conn.execute(Query("UPDATE actions SET seat = 7 WHERE session_id = :sid"), sid=table.id)
    await service.store.conn.commit()
    service2, store2, notifier2 = await restarted(db_path)
    try:
        await service2.open_table(G, C, CAT, "toy")  # not "this channel already has a table"
        assert service2.require_table(G, C).host_id == CAT.id
        assert sum("could not be restored" in text for text, _ in notifier2.notices) == 1
    finally:
        await service2.shutdown()
        await store2.close()


async def test_a_player_not_yet_told_their_dms_are_closed_is_still_owed_it_after_a_restart(
    db_path: Path, service: TableService, notifier: RecordingNotifier
) -> None:
    notifier.dm_blocked.add(BOB.id)

    async def lost(table: Table, text: str, mention: str) -> bool:
        return False  # the channel post failed

    notifier.tell = lost  # type: ignore[method-assign]
    await started(service)
    assert BOB.id in await service.store.dm_closed_users()
    assert await service.store.dm_untold_users() == {BOB.id}
    service2, store2, _ = await restarted(db_path)
    try:
        assert service2.core.dm_untold == {BOB.id}
    finally:
        await service2.shutdown()
        await store2.close()


@pytest.mark.parametrize("order", [0, 1])
async def test_two_typed_entries_for_one_turn_enter_one(service: TableService, order: int) -> None:
    """Two people type an entry for the same moment (as Discord's Type an entry does: the text is
    read against the position, then entered at that turn): one is entered, the other refused."""
    from games.notation import read_action

    await service.open_referee(G, C, ANN, "toy", [ANN, BOB], ["first_dealer=2"])
    table = service.require_table(G, C)
    assert table.state is not None
    turn = table.state.turn
    cards = [a.play.short for a in table.state.legal_actions(0) if isinstance(a, PlayCard)][:2]
    readings = [read_action(table.state, f"ann: {text}", seat=None) for text in cards]
    typists = [ANN, BOB] if order == 0 else [BOB, ANN]
    results = await asyncio.gather(
        *(service.act(G, C, who, action, turn, seat=seat) for who, (seat, action) in zip(typists, readings, strict=True)),
        return_exceptions=True,
    )
    assert sum(1 for r in results if not isinstance(r, BaseException)) == 1
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(refused) == 1 and isinstance(refused[0], TableError) and "earlier turn" in str(refused[0])
    assert len(await stored_actions(service, table)) == 1 and table.state.turn == turn + 1


async def test_a_restart_resumes_from_the_latest_deal_start(db_path: Path, service: TableService) -> None:
    """The position saved at the second deal's start is what a restart replays from: an action
    before it is not read again (here it is made unreadable, and the table still comes back as it
    was); a snapshot of other game code is not used (the whole log is replayed instead)."""
    table = await started(service, "deals=3")
    assert table.state is not None
    while table.state.deal_no < 2:
        await play_one(service, table)
    saved = await service.store.snapshot(table.id)
    assert saved is not None and 0 < saved.turn <= table.turn
    await play_one(service, table)
    before = table.state.fingerprint()

    await service.store.conn.execute(
        Query("UPDATE actions SET action = :action WHERE session_id = :sid AND seq = 0"),
        action=json.dumps({"kind": "no such move"}),
        sid=table.id,
    )
    await service.store.conn.commit()
    service2, store2, _ = await restarted(db_path)
    try:
        table2 = await service2.ready(G, C)
        assert table2 is not None and table2.state is not None and table2.state.fingerprint() == before
        assert list(table2.actors) == list(table.actors)
    finally:
        await service2.shutdown()
        await store2.close()

    await service.store.conn.execute(
        Query("UPDATE snapshots SET format = 'other code' WHERE session_id = :sid"), sid=table.id
    )
    await service.store.conn.commit()
    service3, store3, _ = await restarted(db_path)
    try:  # replayed from the start, it meets the unreadable action
        with pytest.raises(TableError, match="could not be restored"):
            await service3.act(G, C, ANN, {"kind": "knock"})
    finally:
        await service3.shutdown()
        await store3.close()


async def test_a_finished_match_keeps_no_snapshot(service: TableService) -> None:
    table = await started(service, "deals=2")
    assert table.state is not None
    while table.state.deal_no < 2:
        await play_one(service, table)
    assert await service.store.snapshot(table.id) is not None
    while service.table(G, C) is not None:
        await play_one(service, table)
    assert await service.store.snapshot(table.id) is None
