"""A click is read against the table as it is once the channel's lock is held, not as it was when
the click arrived: another move landing meanwhile neither refuses a choice that is still open nor
turns a lobby's Leave into handing a seat in play to a bot."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from bot.service.model import User
from games.cards import card
from games.hoodwink import Bid
from tests.bot.discord.conftest import (
    World,
    acts,
    custom_ids,
    note_of,
    raw_component,
    reply_text,
    response,
    show_hand,
    start_game,
)


async def until(check: Callable[[], bool], what: str) -> None:
    for _ in range(2_000):
        if check():
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"timed out waiting for {what}")


class Held:
    """A store write held back on its first call, the channel's lock held meanwhile."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, store: Any, name: str) -> None:
        self.reached, self.release = asyncio.Event(), asyncio.Event()
        write = getattr(store, name)

        async def held(*args: Any, **kwargs: Any) -> Any:
            if not self.reached.is_set():
                self.reached.set()
                await self.release.wait()
            return await write(*args, **kwargs)

        monkeypatch.setattr(store, name, held)


def lock_requests(monkeypatch: pytest.MonkeyPatch, world: World) -> list[tuple[str, str]]:
    """The channels whose lock is asked for from now on (a flow reaching the service)."""
    registry = world.bot.service.core.registry
    asked: list[tuple[str, str]] = []
    lock = registry.lock

    def counted(key: tuple[str, str]) -> asyncio.Lock:
        asked.append(key)
        return lock(key)

    monkeypatch.setattr(registry, "lock", counted)
    return asked


async def test_a_bid_clicked_while_another_bid_is_stored_is_played(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hoodwink's trump bids are made by all three at once. Ann clicks a bid while Bob's bid is
    being written: her click waits for the lock, Bob's bid moves the table on a turn, and Ann's
    bid, still open to her, is played (read before the lock, it was refused as from an earlier
    turn, while the same click a moment later was played)."""
    table = await start_game(world, "hoodwink", 3)
    assert table.state is not None and len(table.state.awaiting()) == 3  # everyone bids at once
    hand = await show_hand(world, world.ann)
    turn = table.turn
    place = (str(world.guild.id), str(world.channel.id))
    bob = User(str(world.bob.id), "bob")
    ann = User(str(world.ann.id), "ann")
    bobs_bid = world.bot.service.hand(*place, bob).legal[0]
    anns_bids = world.bot.service.hand(*place, ann).legal

    held = Held(monkeypatch, world.bot.store, "append_action")
    bobs_move = asyncio.ensure_future(world.bot.service.act(*place, bob, bobs_bid, turn))
    await asyncio.wait_for(held.reached.wait(), 10)  # Bob's bid holds the lock, not yet stored
    asked = lock_requests(monkeypatch, world)
    button = acts(response(hand))[0]["custom_id"]  # her first bid (a card: one tap)
    click = raw_component(world, world.ann, response(hand), button)
    await until(lambda: bool(asked), "Ann's click waiting for the channel's lock")
    held.release.set()
    await bobs_move
    await world.settle()

    assert click.acknowledged
    anns_bid = anns_bids[int(button.rsplit(":", 1)[1])]
    assert note_of(response(click)) == f"You chose {anns_bid.label()}."
    record = await world.bot.store.session(table.id)
    assert record is not None
    played = [(seat, table.game.action_from_json(a)) for seat, a in record.actions[turn:]]
    assert played == [(1, bobs_bid), (0, anns_bid)]
    assert table.turn == turn + 2 and table.state.awaiting() == {2}  # Cat's bid is all that is left


async def test_leave_in_the_lobby_while_start_lands_keeps_the_seat(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob clicks the lobby's Leave while Ann's Start is being written: once Bob's click holds the
    lock the game has started, so it is refused; it does not hand his seat to a bot (nor make
    him rank last, as /leave in play would)."""
    lobby = (await world.ann.slash(world.channel, "play", game="toy")).response
    assert lobby is not None
    await world.bob.click(lobby, label="Join")
    table = world.require_table()

    held = Held(monkeypatch, world.bot.store, "set_status")
    start = asyncio.ensure_future(world.ann.click(lobby, label="Start"))
    await asyncio.wait_for(held.reached.wait(), 10)  # Start holds the lock, the table still a lobby
    assert table.status == "lobby"
    asked = lock_requests(monkeypatch, world)
    leave = next(c for c in custom_ids(lobby) if c.endswith(":leave"))
    click = raw_component(world, world.bob, lobby, leave)
    await until(lambda: bool(asked), "Bob's Leave waiting for the channel's lock")
    held.release.set()
    await start
    await world.settle()

    assert click.acknowledged and "The game has already started." in reply_text(click)
    assert table.status == "playing"
    bobs = [s for s in table.seats if s.user_id == str(world.bob.id)]
    assert len(bobs) == 1 and bobs[0].bot is None and bobs[0].left_at is None
    assert table.seat_of(str(world.bob.id)) is not None


async def test_an_entry_typed_while_another_is_stored_is_read_at_the_table_as_it_is(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At a referee table of Hoodwink, Ann types Bob's bid while Cat's bid is being written: the
    text is read once the lock is held, after Cat's bid, and entered (read before the lock, it
    was refused as from an earlier turn)."""
    players = f"<@{world.ann.id}> <@{world.bob.id}> <@{world.cat.id}>"
    await world.ann.slash(world.channel, "referee", game="hoodwink", players=players)
    table = world.require_table()
    turn = table.turn
    place = (str(world.guild.id), str(world.channel.id))
    form = await world.ann.click(world.table_message(), label="Type an entry")
    assert form.modal is not None

    held = Held(monkeypatch, world.bot.store, "append_action")
    cats_move = asyncio.ensure_future(
        world.bot.service.act(*place, User(str(world.cat.id), "cat"), Bid(bid=card("9D")), turn)
    )
    await asyncio.wait_for(held.reached.wait(), 10)
    asked = lock_requests(monkeypatch, world)
    typed = asyncio.ensure_future(world.ann.submit_modal(form, {"entry": "bob: 10 of spades"}))
    await until(lambda: bool(asked), "Ann's entry waiting for the channel's lock")
    held.release.set()
    await cats_move
    result = await typed
    await world.settle()

    assert "Entered bob: " in reply_text(result), reply_text(result)
    record = await world.bot.store.session(table.id)
    assert record is not None
    entered = [(seat, table.game.action_from_json(a)) for seat, a in record.actions[turn:]]
    assert entered == [(2, Bid(bid=card("9D"))), (1, Bid(bid=card("10S")))]
