"""Advice: a hint for the asking player's current choice (from their own view only), and the
analysis of finished deals against perfect play. Searches run in a worker thread."""

from __future__ import annotations

import asyncio

from bot.service.hands import hand_of
from bot.service.model import Table, TableError, User
from bot.service.records import finished_match, record_from_json, stored_record
from games import advice
from games.engine import MatchRecord
from games.registry import get_game
from games.verdicts import Analysis
from storage import stats
from storage.sessions import Store


async def hint(table: Table, user: User) -> list[str]:
    """Offered where the game has a hinter and the table's ``hints`` option is on (such a match
    is not rated)."""
    if table.mode == "referee":
        raise TableError("This game is played with real cards, so the bot never sees the hands: no hints here.")
    if not advice.has_hints(table.game.id):
        raise TableError(f"There are no hints for {table.game.title}.")
    if not getattr(table.options, "hints", False):
        raise TableError(
            "Hints are off at this table. The host can turn them on in the lobby "
            "(option hints=true); the match is then not rated."
        )
    info = hand_of(table, user)
    if not info.legal:
        raise TableError("You have nothing to choose right now; ask again when it is your turn.")
    # a search may take a moment (Parity solves the deal): think in a worker thread
    lines = await asyncio.to_thread(advice.hint, table.game.id, info.view, info.legal)
    return lines or ["No advice for this position."]


async def stored_match_record(store: Store, guild_id: str, match_id: int) -> MatchRecord:
    data = finished_match(await stats.match_json(store.conn, guild_id, match_id), match_id)
    if data["mode"] == "referee":
        raise TableError("That match was played with real cards, so the bot never saw the hands.")
    return record_from_json(data)


async def table_record(store: Store, table: Table, deal: int | None) -> tuple[MatchRecord, int | None]:
    """The table's match so far, and the deal to analyse: only a deal that is over."""
    if table.state is None:
        raise TableError("The game has not started yet.")
    if table.mode == "referee":
        raise TableError("This game is played with real cards, so the bot never sees the hands.")
    record = await stored_record(store, table)
    if not table.state.is_over:
        finished = table.state.deal_no - 1
        if finished < 1:
            raise TableError("No deal has finished yet: ask again after the first one.")
        if deal is not None and deal > finished:
            raise TableError(f"Deal {deal} is not over yet; {advice.which_deals(finished)}.")
        deal = deal or finished
    return record, deal


async def analyse(record: MatchRecord, deal: int | None) -> Analysis:
    """The deal's verdicts (:mod:`games.verdicts`); ``/analyse`` writes their lines."""
    if not advice.has_analysis(record.game):
        raise TableError(f"There is no analysis for {get_game(record.game).title}.")
    try:
        # a search that may take a second or two: in a worker thread, off the event loop
        analysis = await asyncio.to_thread(advice.analyse, record, deal)
    except advice.AnalysisError as exc:
        raise TableError(str(exc)) from None
    assert analysis is not None  # the game has an analyser
    return analysis
