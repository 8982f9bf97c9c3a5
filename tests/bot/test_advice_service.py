"""Hints and analysis through the table service: who may ask, when, and what it costs (rating)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import pytest

from bot.tables import TableError, TableService
from games import advice
from games.engine import Action, MatchRecord, PlayCard, Seat, View
from games.verdicts import Analysis, Verdict
from storage import stats
from tests.bot.test_tables import ANN, BOB, CAT, C, G, play_current, started


def toy_hint(view: View, legal: Sequence[Action]) -> list[str]:
    cards = [a for a in legal if isinstance(a, PlayCard)]
    return [f"Seat {view.seat} could play {cards[0].label()}."] if cards else []


def toy_analysis(record: MatchRecord, deal: int | None, seat: Seat | None) -> Analysis:
    """The toy game's analysis: a verdict on the record's first move, and how far the record goes."""
    first = Verdict(
        1, record.actions[0][0], "card", "the first card", Fraction(0), Fraction(1), ("any other",), "points",
        gave_away=True, said="The first card lost 1.", why="The toy judges every opening lead a mistake.", listed=True,
    )
    return Analysis("toy", deal or 0, (f"Deal {deal} of {len(record.actions)} actions so far.",), (first,), (), ())


advice.register_hinter("toy", toy_hint)
advice.register_analyser("toy", toy_analysis)


async def finish_deal(service: TableService) -> None:
    table = service.require_table(G, C)
    assert table.state is not None
    deal = table.state.deal_no
    while service.table(G, C) is not None and table.state.deal_no == deal:
        await play_current(service)


async def test_hints_only_where_the_host_allowed_them(service: TableService) -> None:
    await started(service)
    with pytest.raises(TableError, match="Hints are off at this table"):
        await service.hint(G, C, BOB)


async def test_hint_for_the_awaited_player_only(service: TableService) -> None:
    await started(service, "hints=true")
    table = service.require_table(G, C)
    assert table.state is not None
    turn = table.state.turn
    seat = min(table.state.awaiting())
    mover, waiter = (ANN, BOB) if seat == 0 else (BOB, ANN)
    assert await service.hint(G, C, mover) == [toy_hint(table.state.view(seat), table.state.legal_actions(seat))[0]]
    with pytest.raises(TableError, match="nothing to choose"):
        await service.hint(G, C, waiter)
    with pytest.raises(TableError, match="not playing"):
        await service.hint(G, C, CAT)
    assert table.state.turn == turn  # asking changes nothing


async def test_a_match_with_hints_is_unrated(service: TableService) -> None:
    await started(service, "hints=true")
    while service.table(G, C) is not None:
        await play_current(service)
    [result] = await service.store.results(G)
    assert result["rated"] is False
    data = await stats.match_json(service.store.conn, G, result["session_id"])
    assert data is not None and data["rated"] is False and data["unrated_because"] == ["hints allowed"]


async def test_analysis_of_finished_deals_only(service: TableService) -> None:
    await started(service)
    with pytest.raises(TableError, match="No deal has finished yet"):
        await service.analyse(G, C, ANN)
    await finish_deal(service)
    lines = (await service.analyse(G, C, CAT)).lines()  # anyone may look at a finished deal
    assert lines[0].startswith("Deal 1 of ")
    with pytest.raises(TableError, match="Deal 2 is not over yet; only deal 1 can be analysed"):
        await service.analyse(G, C, ANN, deal=2)


async def test_analysis_of_a_stored_match(service: TableService) -> None:
    await started(service)
    table = service.require_table(G, C)
    with pytest.raises(TableError, match="still being played"):
        await service.analyse(G, "elsewhere", ANN, match_id=table.id)
    while service.table(G, C) is not None:
        await play_current(service)
    assert (await service.analyse(G, "elsewhere", ANN, deal=2, match_id=table.id)).lines()[0].startswith("Deal 2 of ")
    with pytest.raises(TableError, match="There is no match #"):
        await service.analyse("another server", C, ANN, match_id=table.id)


async def test_games_without_advice_say_so(service: TableService) -> None:
    await service.open_table(G, C, ANN, "fifty_one")
    await service.join(G, C, BOB)
    await service.start(G, C, ANN)
    with pytest.raises(TableError, match="There are no hints for Fifty-One"):
        await service.hint(G, C, ANN)


async def test_spec_hints_when_the_host_turns_them_on(service: TableService) -> None:
    await service.open_table(G, C, ANN, "spec", ["hints=true"])
    await service.join(G, C, BOB)
    await service.start(G, C, ANN)
    table = service.require_table(G, C)
    assert table.state is not None
    seat = min(table.state.awaiting())
    lines = await service.hint(G, C, [ANN, BOB][seat])
    assert lines and any("predict" in line.lower() for line in lines), lines
    assert table.options.hints is True  # recorded as "hints allowed", so unrated, at the end


async def test_parity_hint_and_analysis_at_a_real_table(service: TableService) -> None:
    await service.open_table(G, C, ANN, "parity", ["hints=true"])
    await service.join(G, C, BOB)
    await service.start(G, C, ANN)
    table = service.require_table(G, C)
    assert table.state is not None
    while table.state.deal_no == 1:
        seat = min(table.state.awaiting())
        user = [ANN, BOB][seat]
        if table.state.turn == 5:
            hint = await service.hint(G, C, user)
            assert hint[0].startswith("Under perfect play by both from here")
        legal = service.hand(G, C, user).legal
        await service.act(G, C, user, legal[-1], table.turn)
    lines = (await service.analyse(G, C, CAT)).lines()
    assert lines[0].startswith("Deal 1 (") and "with perfect play from the opening lead" in lines[0]
    assert lines[-1].startswith("In the event, ")
