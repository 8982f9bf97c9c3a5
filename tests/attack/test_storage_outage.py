"""The database unavailable under a running bot: a SQLite file that can no longer be written, a
PostgreSQL server stopped. Every action is answered by saying so ("The database is not
answering..."), not by "Sorry, something went wrong", and changes nothing; once the database is
back, the same action goes through."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import asyncpg
import pytest

from bot.console import CHANNEL, GUILD, Session
from bot.service.registry import UNAVAILABLE
from tests.attack.conftest import AttackWorld
from tests.attack.support import open_table, snapshot
from tests.attack.test_discord_faults import awaited
from tests.bot.discord.conftest import components_of, note_of
from tests.conftest import running_postgres
from tests.postgres_server import PostgresServer

OUTAGE_WARNINGS = ("not written", "not answering", "readonly")


async def read_only(world: AttackWorld, on: bool) -> None:
    """The bot's own connection to its file refuses every write from now on (``query_only``:
    SQLite answers "attempt to write a readonly database", as for a file made read-only under
    the bot; as root, file permissions would not stop this process)."""
    raw = world.bot.store.conn.raw  # type: ignore[attr-defined]
    async with raw.execute(f"PRAGMA query_only = {'ON' if on else 'OFF'}"):
        pass


async def test_a_database_that_cannot_be_written_is_answered_as_such(world: AttackWorld) -> None:
    world.expect_warnings(*OUTAGE_WARNINGS)
    await open_table(world, "parity")
    actor = awaited(world)
    hand = await actor.slash(world.channel, "hand")
    assert hand.response is not None
    play = next(
        c["custom_id"] for c in components_of(hand.response) if str(c.get("custom_id", "")).startswith("parlour:act:")
    )
    before = snapshot(world)
    moves = len(world.stored_actions(world.require_table().id))

    await read_only(world, True)
    for _ in range(2):  # a second try while it lasts is told the same
        await actor.click(hand.response, custom_id=play)
        await world.settle()
        assert note_of(hand.response) == UNAVAILABLE  # in the player's own view, where refusals go
        assert snapshot(world) == before

    await read_only(world, False)
    await actor.click(hand.response, custom_id=play)
    await world.settle()
    assert note_of(hand.response).startswith("You chose")
    assert len(world.stored_actions(world.require_table().id)) == moves + 1


@pytest.fixture
def server() -> Iterator[PostgresServer]:
    """A server of its own for each test, which stops it."""
    yield from running_postgres()


async def stored_moves(url: str) -> list[Any]:
    conn = await asyncpg.connect(url)
    try:
        return [tuple(r) for r in await conn.fetch("SELECT session_id, seq, action FROM actions ORDER BY session_id, seq")]
    finally:
        await conn.close()


async def test_a_stopped_postgres_server_is_answered_as_such(server: PostgresServer) -> None:
    url = server.url("postgres")
    out: list[str] = []
    session, _ = await Session.open(url, out.append)
    console = session.console
    try:
        for line in ["ann: /play toy", "bob: /join", "ann: /start"]:
            await console.handle(line)
        table = session.service.require_table(GUILD, CHANNEL)
        assert table.state is not None
        mover = table.seats[min(table.state.awaiting())].user_id
        moves = await stored_moves(url)
        state = repr(table.state.fingerprint())

        server.pause()
        out.clear()
        await console.handle(f"{mover}: /move #1")
        assert out == [f"[to {mover}] {UNAVAILABLE}"], out
        assert repr(table.state.fingerprint()) == state and table.turn == len(moves)

        server.resume()
        assert await stored_moves(url) == moves  # nothing was written meanwhile
        out.clear()
        for _ in range(50):  # the pool finds its connections gone and opens new ones
            await console.handle(f"{mover}: /move #1")
            if UNAVAILABLE not in "\n".join(out):
                break
            out.clear()
        assert len(await stored_moves(url)) == len(moves) + 1, out
    finally:
        await session.close()
