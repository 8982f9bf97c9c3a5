"""A tap on a ready hand racing the move before it (issue 28's ready hands). The waiting player's
view offers the cards they could play; they tap one while the other player's move is still being
answered. Read under the table's lock, the tap finds their turn come and the card still theirs to
play: it is played, once, after the move before it. Tapped before that move is made, it is
refused (not their turn) and changes nothing, and their view is redrawn when their turn comes."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.discord import play
from bot.discord.embeds import READY_HAND
from bot.discord.play import NOT_YET
from bot.service.model import Table
from tests.attack.conftest import AttackWorld
from tests.attack.support import open_table, snapshot, until
from tests.bot.discord.conftest import components_of, embed_text, note_of, raw_component, response
from tests.bot.discord.live_play import Sent, sent_view


def act_buttons(message: Any) -> list[str]:
    return [str(c["custom_id"]) for c in components_of(message) if str(c.get("custom_id", "")).startswith("parlour:act:")]


async def two_views(world: AttackWorld) -> tuple[Table, int, int, Sent, Sent]:
    """Hundred at two, started: the table, the seat to move and the seat waiting, and the views
    the bot sent each at the start (the waiting one a ready hand)."""
    await open_table(world, "hundred")
    table = world.require_table()
    assert table.state is not None and table.message_id is not None
    (mover,) = table.state.awaiting()
    since = int(table.message_id)
    movers = sent_view(world, world.actor(table.seats[mover].user_id), since)
    waiters = sent_view(world, world.actor(table.seats[1 - mover].user_id), since)
    assert movers is not None and waiters is not None
    return table, mover, 1 - mover, movers, waiters


async def test_a_tap_while_the_move_before_it_is_answered_is_played_once(
    world: AttackWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, mover, waiting, movers, waiters = await two_views(world)
    assert table.state is not None
    tapped = table.state.ready_actions(waiting)[0]

    drawn = play.hand_message
    held, reached = asyncio.Event(), asyncio.Event()

    async def held_back(*args: Any, **kwargs: Any) -> Any:
        if not reached.is_set():  # the mover's answer waits until the tap has been answered
            reached.set()
            await held.wait()
        return await drawn(*args, **kwargs)

    monkeypatch.setattr(play, "hand_message", held_back)
    turn = table.turn
    first = raw_component(world, world.actor(table.seats[mover].user_id), movers.response, act_buttons(movers.response)[0], None)
    await asyncio.wait_for(reached.wait(), 120)  # a bound for a hang only
    assert table.turn == turn + 1 and waiting in table.state.awaiting()
    tap = raw_component(world, world.actor(table.seats[waiting].user_id), waiters.response, act_buttons(waiters.response)[0], None)
    await until(lambda: tap.acknowledged, "the tap's answer")
    held.set()
    await world.settle()
    assert first.acknowledged
    assert note_of(response(tap)) == f"You chose {tapped.label()}."
    assert table.turn == turn + 2 and len(world.stored_actions(table.id)) == table.turn
    assert tapped.card not in (table.state.view(waiting).hand or [])
    # the mover's answer, drawn while the tap waited, is a ready hand: kept, true, and theirs now
    assert table.state.awaiting() == {mover} and READY_HAND in embed_text(response(first))
    assert act_buttons(response(first)) and [
        str(c["label"]) for c in components_of(response(first)) if str(c.get("custom_id", "")).startswith("parlour:act:")
    ] == [a.label() for a in table.state.legal_actions(mover)]


async def test_a_tap_before_the_move_is_refused_and_the_view_redrawn_at_the_turn(world: AttackWorld) -> None:
    table, mover, waiting, movers, waiters = await two_views(world)
    assert table.state is not None
    before = snapshot(world)
    await world.actor(table.seats[waiting].user_id).click(waiters.response, custom_id=act_buttons(waiters.response)[0])
    await world.settle()
    assert snapshot(world) == before
    assert note_of(waiters.response) == NOT_YET
    await world.actor(table.seats[mover].user_id).click(movers.response, custom_id=act_buttons(movers.response)[0])
    await world.settle()
    message = waiters.response
    assert "Your turn: choose below." in embed_text(message) and not note_of(message)
    assert [str(c["label"]) for c in components_of(message) if str(c.get("custom_id", "")).startswith("parlour:act:")] == [
        a.label() for a in table.state.legal_actions(waiting)
    ]
