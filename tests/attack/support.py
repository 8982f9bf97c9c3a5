"""Shared steps of the attack tests: open a table, and say what "nothing changed" means."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from games.engine import GameState
from tests.attack.conftest import AttackWorld
from tests.bot.discord.conftest import lobby_lapses, replies, reply_text

UNRECOGNISED = "not one I recognise"


async def open_table(world: AttackWorld, game: str, options: str | None = None, lapsed: bool = False) -> None:
    """Ann opens ``game``, Bob joins, Ann starts (with ``lapsed``, a quarter of an hour after
    Bob joined: his view is not sent at the start, so his hand goes by DM)."""
    kwargs = {"game": game} | ({"options": options} if options else {})
    lobby = (await world.ann.slash(world.channel, "play", **kwargs)).response
    assert lobby is not None
    await world.bob.click(lobby, label="Join")
    if lapsed:
        await lobby_lapses(world)
    await world.ann.click(lobby, label="Start")
    table = world.require_table()
    assert table.status == "playing" and table.state is not None


def snapshot(world: AttackWorld) -> tuple[Any, ...]:
    """What a refused click must leave alone: the stored actions, and the table as the bot holds
    it (status, turn, the whole game state, seats, options)."""
    table = world.table
    if table is None:
        return (None,)
    state = table.state.fingerprint() if table.state is not None else None
    return (
        table.id,
        table.status,
        table.turn,
        repr(state),
        repr(table.seats),
        repr(table.options),
        world.stored_actions(table.id),
    )


def answered(result: Any) -> bool:
    """The interaction was answered (so Discord shows no "This interaction failed")."""
    return bool(result.acknowledged or result.modal is not None)


def text_of(result: Any) -> str:
    return reply_text(result) if replies(result) else ""


async def until(check: Callable[[], bool], what: str, patience: float = 120.0) -> None:
    """Wait until ``check()`` holds, by a condition and not a fixed time; ``patience`` real
    seconds (generous: the machine may be busy) only keep a hung test finite."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + patience
    while not check():
        if loop.time() > give_up:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.005)


def first_choice_ends_the_match(state: GameState[Any]) -> bool:
    """Whether the first legal move of the lowest awaited seat (what the tests play) ends the match."""
    seat = min(state.awaiting())
    twin = state.clone()
    twin.apply(seat, state.legal_actions(seat)[0])
    return twin.is_over
