"""A failed write never strands a table, on SQLite and on PostgreSQL alike (the table service
on the toy game, without Discord; ``test_failed_writes.py`` has the same through SimCord).

The fault is a real failing insert in the database the service uses: a trigger that raises
(PostgreSQL) or fails to read JSON (SQLite), installed and dropped from a second connection.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator

import asyncpg
import pytest

from bot.service import timers
from bot.tables import TableError, TableService, User
from storage.sessions import Store
from storage.target import is_postgres
from tests.attack.support import first_choice_ends_the_match, until
from tests.bot.conftest import RecordingNotifier

G, C = "g1", "c1"
ANN, BOB = User("1", "Ann"), User("2", "Bob")
FAULT = "storage_fault"


async def break_writes(database: str, table: str, when: str = "true") -> None:
    """From now on, an insert into ``table`` (for which ``when`` holds) fails in the database."""
    if is_postgres(database):
        conn = await asyncpg.connect(database)
        try:
            await conn.execute(
                f"CREATE FUNCTION {FAULT}() RETURNS trigger LANGUAGE plpgsql AS "
                f"$$ BEGIN RAISE EXCEPTION 'storage fault'; END $$"
            )
            await conn.execute(
                f"CREATE TRIGGER {FAULT} BEFORE INSERT ON {table} FOR EACH ROW WHEN ({when}) "
                f"EXECUTE FUNCTION {FAULT}()"
            )
        finally:
            await conn.close()
        return
    with sqlite3.connect(database) as db:
        db.execute(f"CREATE TRIGGER {FAULT} BEFORE INSERT ON {table} WHEN {when} BEGIN SELECT json('fault'); END")


async def mend_writes(database: str, table: str) -> None:
    if is_postgres(database):
        conn = await asyncpg.connect(database)
        try:
            await conn.execute(f"DROP TRIGGER {FAULT} ON {table}")
            await conn.execute(f"DROP FUNCTION {FAULT}()")
        finally:
            await conn.close()
        return
    with sqlite3.connect(database) as db:
        db.execute(f"DROP TRIGGER {FAULT}")


@pytest.fixture
async def service(database: str, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[TableService]:
    monkeypatch.setattr(timers, "RETRY_FIRST", 0.02)
    monkeypatch.setattr(timers, "RETRY_MOST", 0.1)
    store = await Store.open(database)
    svc = TableService(store, RecordingNotifier())
    await svc.load()
    yield svc
    await svc.shutdown()
    await store.close()




async def move(service: TableService) -> None:
    """The first awaited person plays their first choice."""
    table = service.require_table(G, C)
    assert table.state is not None
    seat = min(s for s in table.state.awaiting() if table.seats[s].bot is None)
    user = [ANN, BOB][seat]
    await service.act(G, C, user, service.hand(G, C, user).legal[0], table.turn)


async def test_the_result_of_a_match_is_stored_rated_once_the_database_takes_writes(
    service: TableService, database: str
) -> None:
    await service.open_table(G, C, ANN, "toy", ["first_dealer=2"])
    await service.join(G, C, BOB)
    await service.start(G, C, ANN)
    table = service.require_table(G, C)
    state = table.state
    assert state is not None
    while not first_choice_ends_the_match(state):  # up to the move that ends the match
        await move(service)

    await break_writes(database, "results")
    await move(service)  # the last move is stored; the result is not, and that is no error to the mover
    assert state.is_over and table.result_due and service.table(G, C) is table
    with pytest.raises(TableError, match="still being saved"):
        await service.open_table(G, C, BOB, "toy")
    with pytest.raises(TableError, match="not abandoned"):
        await service.abandon(G, C, ANN)
    session = await service.store.session(table.id)
    assert session is not None and session.status == "playing" and await service.store.results(G) == []

    await mend_writes(database, "results")
    await until(lambda: service.table(G, C) is None, "the result to be stored")
    results = await service.store.results(G)
    assert len(results) == 1 and results[0]["session_id"] == table.id and results[0]["rated"]
    session = await service.store.session(table.id)
    assert session is not None and session.status == "finished"


async def test_a_bots_move_is_stored_once_the_database_takes_writes(service: TableService, database: str) -> None:
    await service.open_table(G, C, ANN, "toy", ["first_dealer=2"])
    await service.add_bot(G, C, ANN)
    await service.start(G, C, ANN)
    table = service.require_table(G, C)
    assert table.state is not None
    await break_writes(database, "actions", "NEW.actor_id IS NULL")
    turn = table.turn
    await move(service)  # Ann's move is stored; the bot's reply is not, and that is no error to Ann
    assert table.turn == turn + 1 and any(table.seats[s].bot for s in table.state.awaiting())
    await asyncio.sleep(0.3)  # retries fail meanwhile
    assert table.turn == turn + 1
    await mend_writes(database, "actions")
    await until(lambda: table.turn > turn + 1, "the bot's move")
    session = await service.store.session(table.id)
    assert session is not None and len(session.actions) == table.turn
