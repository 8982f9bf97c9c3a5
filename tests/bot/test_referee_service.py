"""Referee mode in the table service: entries for any seat, confirmation, undo, corrections, results."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.settings import GuildSettings
from bot.tables import TableError, TableService, User
from games.engine import PlayCard
from games.registry import register_referee
from storage.query import Query
from storage.sessions import Store
from tests.bot.conftest import RecordingNotifier, stored_actions
from tests.bot.toy_game import TOY

register_referee(TOY)  # the toy game doubles as its own referee game: every card is entered

G, C = "g1", "c1"
ANN, BOB, MOD = User("1", "Ann"), User("2", "Bob"), User("9", "Mod", is_moderator=True)


async def open_ref(service: TableService) -> None:
    await service.open_referee(G, C, ANN, "toy", [ANN, BOB, "Gus"], ["first_dealer=3", "deals=1"])


def legal_card(service: TableService, seat: int) -> PlayCard:
    table = service.require_table(G, C)
    assert table.state is not None
    return next(a for a in table.state.legal_actions(seat) if isinstance(a, PlayCard))


async def test_members_enter_for_any_seat_and_strangers_cannot(service: TableService) -> None:
    await open_ref(service)
    table = service.require_table(G, C)
    assert table.state is not None and table.mode == "referee" and table.seats[2].user_id is None
    # Gus (a guest, seat 2) is not awaited; Ann leads after the dealer Gus
    await service.act(G, C, BOB, legal_card(service, 0))  # Bob enters Ann's card
    assert table.state.turn == 1 and table.actors == ["2"]
    with pytest.raises(TableError, match="Only the players at this table"):
        await service.act(G, C, User("7", "Stranger"), legal_card(service, 1))
    with pytest.raises(TableError, match="no entry to make for Gus"):
        await service.act(G, C, ANN, legal_card(service, 1), seat=2)


async def test_confirmation_undo_and_correction(service: TableService) -> None:
    await service.update_settings(G, GuildSettings(referee_confirmation=True))
    await open_ref(service)
    table = service.require_table(G, C)
    assert table.state is not None
    await service.act(G, C, ANN, legal_card(service, 0))
    with pytest.raises(TableError, match="needs confirming"):
        await service.act(G, C, ANN, legal_card(service, 1))
    with pytest.raises(TableError, match="Another player must confirm"):
        await service.confirm(G, C, ANN)
    await service.confirm(G, C, BOB)
    with pytest.raises(TableError, match="already confirmed"):
        await service.confirm(G, C, BOB)
    # Ann (the host) enters Bob's card; Bob may not undo Ann's entry, Ann may
    await service.act(G, C, ANN, legal_card(service, 1))
    before = table.state.fingerprint()
    with pytest.raises(TableError, match="Only the player who made the last entry"):
        await service.undo(G, C, BOB)
    assert table.state.fingerprint() == before
    await service.undo(G, C, ANN)
    assert table.state.turn == 1 and table.actors == ["1"]
    # the host corrects entry 1 to another lead of Ann's; Bob may not
    first = (await stored_actions(service, table))[0][1]
    other = next(a for a in service.require_table(G, C).game.start(
        [s.name for s in table.seats], table.options, table.seed).legal_actions(0) if a != first and isinstance(a, PlayCard))
    with pytest.raises(TableError, match="Only the host or a moderator"):
        await service.correct(G, C, BOB, 1, other)
    with pytest.raises(TableError, match="no entry 5"):
        await service.correct(G, C, ANN, 5, other)
    await service.correct(G, C, ANN, 1, other)
    assert (await stored_actions(service, table))[0][1] == other and table.confirmed_by == [None]
    log = await service.store.entry_log(table.id)
    assert [e["kind"] for e in log] == ["confirm", "undo", "correct"]
    assert log[-1]["by_user"] == "1" and log[-1]["previous"] is not None
    session = await service.store.session(table.id)
    assert session is not None and session.actions[0][1] == other.model_dump(mode="json")


async def test_correction_that_breaks_a_later_entry_is_refused(service: TableService) -> None:
    await open_ref(service)
    table = service.require_table(G, C)
    assert table.state is not None
    lead = legal_card(service, 0)
    await service.act(G, C, ANN, lead)
    follow = legal_card(service, 1)
    await service.act(G, C, BOB, follow)
    # replacing Ann's lead with Bob's card is impossible: Ann does not hold it
    before = table.state.fingerprint()
    with pytest.raises(TableError, match="makes entry 1 impossible"):
        await service.correct(G, C, ANN, 1, follow)
    assert table.state.fingerprint() == before and table.state.turn == 2
    assert await service.store.entry_log(table.id) == []


async def test_referee_table_survives_a_restart_and_results_are_marked(db_path: Path, service: TableService) -> None:
    await open_ref(service)
    await service.act(G, C, ANN, legal_card(service, 0))
    store2 = await Store.open(db_path)
    service2 = TableService(store2, RecordingNotifier())
    assert await service2.load() == 1
    table = service2.require_table(G, C)
    await service2.ready(G, C)  # a restored table reads its log on first use
    assert table.mode == "referee" and table.actors == ["1"]
    while service2.table(G, C) is not None:
        assert table.state is not None
        seat = min(table.state.awaiting())
        card = next(a for a in table.state.legal_actions(seat) if isinstance(a, PlayCard))
        await service2.act(G, C, ANN, card, seat=seat)
    results = await store2.results(G)
    assert results[0]["rated"] is False  # nobody confirmed, and a guest played
    async with store2.conn.execute(Query("SELECT mode, unrated FROM results")) as cur:
        mode, unrated = await cur.fetchone()  # type: ignore[misc]
    assert mode == "referee" and "referee-mode entries not confirmed" in unrated
    await service2.shutdown()
    await store2.close()


async def play_to_the_unconfirmed_end(service: TableService) -> None:
    """Ann and Bob alone at a referee table: Ann enters everything, Bob confirms all but the last."""
    await service.open_referee(G, C, ANN, "toy", [ANN, BOB], ["first_dealer=1", "deals=1"])
    table = service.require_table(G, C)
    while table.state is not None and not table.state.is_over:
        seat = min(table.state.awaiting())
        await service.act(G, C, ANN, legal_card(service, seat), seat=seat)
        if not table.state.is_over:
            await service.confirm(G, C, BOB)


@pytest.mark.parametrize("order", [0, 1])
async def test_confirming_the_last_entry_racing_its_undo(service: TableService, order: int) -> None:
    await play_to_the_unconfirmed_end(service)
    table = service.require_table(G, C)
    confirm, undo = service.confirm(G, C, BOB), service.undo(G, C, ANN)
    results = await asyncio.gather(*([confirm, undo] if order == 0 else [undo, confirm]), return_exceptions=True)
    assert not [r for r in results if isinstance(r, Exception) and not isinstance(r, TableError)]
    session = await service.store.session(table.id)
    assert session is not None
    if order == 0:  # confirmed first: the result is recorded, rated; the undo finds no table
        assert session.status == "finished" and isinstance(results[1], TableError)
        assert (await service.store.results(G))[0]["rated"] is True
    else:  # taken back first: the entry before is already confirmed, and play goes on
        assert session.status == "playing" and "already confirmed" in str(results[1])
        assert table.state is not None and not table.state.is_over


async def test_a_held_ending_refuses_entries_and_survives_a_restart(db_path: Path, service: TableService) -> None:
    await play_to_the_unconfirmed_end(service)
    table = service.require_table(G, C)
    assert table.state is not None
    before = table.state.fingerprint()
    with pytest.raises(TableError, match="once another player confirms the last entry"):
        await service.act(G, C, ANN, {"kind": "knock"})
    assert table.state.fingerprint() == before and (await service.store.results(G)) == []
    store2 = await Store.open(db_path)
    service2 = TableService(store2, RecordingNotifier())
    try:
        assert await service2.load() == 1
        await service2.ready(G, C)  # the log replays to the end; the result still waits
        assert service2.table(G, C) is not None and await store2.results(G) == []
        await service2.confirm(G, C, BOB)
        assert service2.table(G, C) is None and (await store2.results(G))[0]["rated"] is True
    finally:
        await service2.shutdown()
        await store2.close()


async def test_players_of_the_same_name_are_told_apart_in_the_text_and_the_picture(service: TableService) -> None:
    """Two members may share a display name (and a guest be typed with it): they are numbered as
    a lobby numbers a second "Ann" who joins, only where names collide, so the table's text, the
    picture's description and the picture itself tell them apart; entries name them so."""
    from bot.render import drawlog, pictures
    from bot.render.names import NAME_W, fitted
    from bot.render.tableau import Style, draw_layout

    await service.open_referee(G, C, ANN, "toy", [ANN, User("3", "Ann"), "Ann"], ["first_dealer=3", "deals=1"])
    table = service.require_table(G, C)
    assert table.state is not None
    assert [s.name for s in table.seats] == ["Ann", "Ann (2)", "Ann (3)"]
    assert [s.user_id for s in table.seats] == ["1", "3", None]
    assert list(table.state.players) == ["Ann", "Ann (2)", "Ann (3)"]
    view = table.state.view(None)
    assert len(set(fitted(tuple(view.players), NAME_W))) == 3
    layout = pictures.table_layout(view)
    with drawlog.recording() as log:
        draw_layout(layout, Style())
    drawn = [t.strip() for t, _ in log.texts]
    assert all(form in drawn for form in fitted(tuple(view.players), NAME_W)), drawn
    alt = pictures.table_alt_text(view)
    assert "Ann (2)" in alt and "Ann (3)" in alt
    said = "\n".join(view.text_lines())
    assert "Ann (2)" in said and "Ann (3)" in said, said


async def test_a_member_named_twice_is_refused_and_nothing_opens(service: TableService) -> None:
    """One member is one seat: naming Ann twice (the same member, so the same display name) is
    refused with the reason, not seated as "Ann" and "Ann (2)" (a rated result would then hold one
    member twice and could never be stored)."""
    with pytest.raises(TableError, match="Ann is named twice: each member takes one seat"):
        await service.open_referee(G, C, ANN, "toy", [ANN, ANN, BOB], ["first_dealer=3", "deals=1"])
    assert service.core.registry.get(G, C) is None
    await service.open_referee(G, C, ANN, "toy", [ANN, BOB, "Ann"], ["first_dealer=3", "deals=1"])
    assert [s.name for s in service.require_table(G, C).seats] == ["Ann", "Bob", "Ann (2)"]


async def test_a_guest_without_a_name_is_still_refused(service: TableService) -> None:
    with pytest.raises(TableError, match="Every player needs a name"):
        await service.open_referee(G, C, ANN, "toy", [ANN, BOB, "  "], ["first_dealer=3", "deals=1"])
    assert service.core.registry.get(G, C) is None


async def test_an_entry_number_before_any_entry_says_there_are_none_yet(service: TableService) -> None:
    """Not "the entries are numbered 1 to 0"; and nothing changes."""
    await open_ref(service)
    table = service.require_table(G, C)
    with pytest.raises(TableError) as refused:
        await service.correct(G, C, ANN, 3, legal_card(service, 0))
    assert str(refused.value) == "There is no entry 3: no entry has been made yet."
    with pytest.raises(TableError) as refused:
        await service.entry_choices(G, C, ANN, 1)
    assert str(refused.value) == "There is no entry 1: no entry has been made yet."
    await service.act(G, C, ANN, legal_card(service, 0))
    with pytest.raises(TableError) as refused:
        await service.correct(G, C, ANN, 2, legal_card(service, 1))
    assert str(refused.value) == "There is no entry 2: there is only entry 1 so far."
    assert table.state is not None and table.state.turn == 1 and table.actors == ["1"]
    assert [seat for seat, _ in await stored_actions(service, table)] == [0]  # the refusals changed nothing
