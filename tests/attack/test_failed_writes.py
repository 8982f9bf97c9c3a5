"""One failed write never strands a table.

The fault is a real failing write in the bot's own SQLite database: a trigger, installed from a
second connection, makes the chosen inserts fail ("malformed JSON", an OperationalError like a
full disk's) until it is dropped. While it is in place the bot's turn or a match's result cannot be
stored; the person's move stands and is acknowledged as such, the table's timer tries the write
again, and once the database takes writes again the table goes on by itself: the bot moves, the
result is recorded as played (rated), never as abandoned.
"""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

import pytest

from bot.service import timers
from bot.service.model import Table
from bot.settings import GuildSettings
from tests.attack.conftest import AttackWorld
from tests.attack.support import first_choice_ends_the_match, open_table, until
from tests.bot.discord.conftest import embed_text, play_turn, reply_text, start_game

FAULT = "storage_fault"


def break_writes(world: AttackWorld, table: str, when: str = "1") -> None:
    """From now on, an insert into ``table`` (for which ``when`` holds) fails in the database."""
    with sqlite3.connect(world.db_path) as conn:
        conn.execute(
            f"CREATE TRIGGER {FAULT} BEFORE INSERT ON {table} WHEN {when} BEGIN SELECT json('storage fault'); END"
        )


def mend_writes(world: AttackWorld) -> None:
    with sqlite3.connect(world.db_path) as conn:
        conn.execute(f"DROP TRIGGER {FAULT}")


def rows(world: AttackWorld, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(world.db_path) as conn:
        return conn.execute(sql, args).fetchall()




@pytest.fixture(autouse=True)
def slow_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """Retries an hour apart unless a test says otherwise (SimCord's verbs wait for the bot to
    settle, which a retry every few milliseconds would not let it do)."""
    retry_every(monkeypatch, 3600.0)


def retry_every(monkeypatch: pytest.MonkeyPatch, seconds: float, world: AttackWorld | None = None) -> None:
    """Retries of failed writes ``seconds`` apart from now on; with ``world``, its table's next
    retry too (the one already waiting is replaced)."""
    monkeypatch.setattr(timers, "RETRY_FIRST", seconds / 2)
    monkeypatch.setattr(timers, "RETRY_MOST", seconds)
    table = world.table if world is not None else None
    if world is not None and table is not None and table.timer is not None:
        table.timer.cancel()
        table.timer = None
        world.bot.service.play.timers.schedule(table)


def bots_awaited(table: Table) -> bool:
    assert table.state is not None
    return any(table.seats[s].bot is not None for s in table.state.awaiting())


async def test_a_bot_move_that_fails_to_write_is_tried_again_until_the_table_goes_on(
    world: AttackWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    world.expect_warnings("could not be stored", "trying a failed write again")
    table = await start_game(world, "hundred", players=1, bots=1)
    break_writes(world, "actions", "NEW.actor_id IS NULL")  # the bot's moves, not the people's
    before = world.stored_actions(table.id)
    note, _ = await play_turn(world)
    assert note.startswith("You chose")  # Ann's move counted, and she is told so (no apology)
    assert len(world.stored_actions(table.id)) == len(before) + 1 and bots_awaited(table)
    turn = table.turn
    retry_every(monkeypatch, 0.05, world)
    await until(lambda: world.bot.service.play.timers.failures.get(table.id, 0) >= 3, "a few retries")
    assert table.turn == turn and len(world.stored_actions(table.id)) == len(before) + 1  # nothing half-done

    mend_writes(world)
    await until(lambda: table.turn > turn and not bots_awaited(table), "the bot's move")
    stored = world.stored_actions(table.id)
    assert len(stored) == table.turn and stored[-1][3] is None  # the bot's move, stored by the retry
    await world.settle()
    assert world.bot.service.play.timers.failures.get(table.id) is None  # back to turn timers
    note, _ = await play_turn(world)  # and the table goes on
    assert note.startswith("You chose")


async def test_a_result_that_fails_to_write_is_stored_rated_and_never_abandoned(
    world: AttackWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    world.expect_warnings("could not be stored", "trying a failed write again")
    await open_table(world, "toy")
    table = world.require_table()
    assert table.state is not None
    while not first_choice_ends_the_match(table.state):  # play until the next move ends the match
        await play_turn(world)
    state = table.state

    break_writes(world, "results")
    note, _ = await play_turn(world)
    assert note.startswith("You chose")  # the last move is stored and acknowledged
    assert state.is_over and table.result_due
    assert rows(world, "SELECT status FROM sessions WHERE id = ?", table.id) == [("playing",)]
    assert world.table is table  # the table stays until its result is stored
    retry_every(monkeypatch, 0.05, world)
    await until(lambda: world.bot.service.play.timers.failures.get(table.id, 0) >= 3, "a few retries")
    retry_every(monkeypatch, 3600.0, world)
    notices = [m.content for m in world.bot_messages()]
    assert any("could not be saved yet" in n for n in notices)

    opened = await world.ann.slash(world.channel, "play", game="toy")
    assert "still being saved" in reply_text(opened) and world.table is table  # nothing opened
    refused = await world.ann.slash(world.channel, "abandon")
    assert "not abandoned" in reply_text(refused)
    assert rows(world, "SELECT status FROM sessions WHERE id = ?", table.id) == [("playing",)]
    assert rows(world, "SELECT COUNT(*) FROM results") == [(0,)]

    mend_writes(world)
    retry_every(monkeypatch, 0.05, world)  # the timer's next try stores it
    await until(lambda: world.table is None, "the result to be stored")
    await world.settle()
    assert rows(world, "SELECT status FROM sessions WHERE id = ?", table.id) == [("finished",)]
    assert rows(world, "SELECT rated, unrated FROM results WHERE session_id = ?", table.id) == [(1, "[]")]
    assert len(rows(world, "SELECT * FROM result_players WHERE session_id = ?", table.id)) == 2
    opened = await world.ann.slash(world.channel, "play", game="toy")  # the channel is free again
    assert opened.response is not None and world.table is not None and world.table is not table


async def test_abandon_after_the_end_stores_the_result_as_played(world: AttackWorld) -> None:
    """/abandon on a match whose result is due tries the write again at once: once it is stored,
    the match stands as played and nothing is abandoned."""
    world.expect_warnings("could not be stored", "trying a failed write again")
    await open_table(world, "toy")
    table = world.require_table()
    assert table.state is not None
    break_writes(world, "results")
    while world.table is table and not table.result_due:
        await play_turn(world)
    if table.timer is not None:  # only /abandon tries again here
        table.timer.cancel()
    mend_writes(world)
    said = await world.ann.slash(world.channel, "abandon")
    assert said.acknowledged and world.table is None
    assert rows(world, "SELECT status FROM sessions WHERE id = ?", table.id) == [("finished",)]
    assert rows(world, "SELECT rated FROM results WHERE session_id = ?", table.id) == [(1,)]


async def test_a_take_over_that_fails_to_write_is_tried_again_without_a_flood(
    world: AttackWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A turn timer whose bot cannot store the absent player's move tries again later (less often
    each time), says nothing until a move is stored, and then the table goes on."""
    world.expect_warnings("could not be stored", "trying again")
    guild = str(world.guild.id)
    await world.bot.service.update_settings(guild, GuildSettings(turn_reminder_seconds=0, turn_timeout_seconds=1))
    await open_table(world, "hundred")
    table = world.require_table()
    break_writes(world, "actions", "NEW.actor_id IS NULL")
    retry_every(monkeypatch, 0.05)
    turn, before = table.turn, len(world.stored_actions(table.id))
    await asyncio.sleep(1.6)  # the timeout passes, and a few retries fail
    assert table.turn == turn and len(world.stored_actions(table.id)) == before
    assert not any("Time is up" in m.content for m in world.bot_messages())

    mend_writes(world)
    await until(lambda: table.turn > turn, "the take-over's move")
    await world.bot.service.update_settings(guild, GuildSettings(turn_reminder_seconds=0, turn_timeout_seconds=0))
    if table.timer is not None:  # the next player's timer: this test is over
        table.timer.cancel()
    assert world.stored_actions(table.id)[turn][3] is None  # a bot's move for the absent player
    await until(lambda: "Time is up" in embed_text(world.table_message()), "the table message to say so")
