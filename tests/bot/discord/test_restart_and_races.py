"""A restart in mid-game (old buttons keep working), and many clicks racing for one turn."""

from __future__ import annotations

from bot.discord.play import STALE_HAND
from tests.bot.discord.conftest import (
    World,
    acts,
    choose_in_hand,
    custom_ids,
    embed_text,
    note_of,
    play_turn,
    raw_component,
    replies,
    response,
    show_hand,
)


async def start_toy(world: World) -> None:
    lobby = (await world.ann.slash(world.channel, "play", game="toy", options="first_dealer=2")).response
    assert lobby is not None
    await world.bob.click(lobby, label="Join")
    await world.ann.click(lobby, label="Start")


async def test_restart_in_mid_game_old_buttons_work(world: World) -> None:
    await start_toy(world)
    for _ in range(3):
        await play_turn(world)
    table = world.require_table()
    assert table.state is not None
    seat = min(table.state.awaiting())
    actor = world.actor(table.seats[seat].user_id)
    hand = await show_hand(world, actor)  # an ephemeral hand opened before the restart
    table_message_id = table.message_id
    turn = table.turn
    fingerprint = table.state.fingerprint()

    new_bot = await world.restart()
    assert new_bot.restored == 1
    restored = world.require_table()
    assert restored is not table and restored.state is None and restored.turn == turn  # its log waits for first use
    await new_bot.service.ready(str(world.guild.id), str(world.channel.id))
    assert restored.state is not None
    assert restored.state.fingerprint() == fingerprint and restored.message_id == table_message_id

    note, _ = await choose_in_hand(actor, hand)  # the old menu, handled by the new process
    assert note.startswith("You chose") and restored.turn == turn + 1
    assert f"turn {turn + 1}" in embed_text(world.message(table_message_id))  # edited in place
    while world.table is not None:  # the old table message's Show my hand works too
        await play_turn(world)
    records = await new_bot.store.results(str(world.guild.id))
    assert len(records) == 1


async def test_restart_keeps_a_lobby_open(world: World) -> None:
    lobby = (await world.ann.slash(world.channel, "play", game="toy")).response
    assert lobby is not None
    await world.restart()
    await world.bob.click(lobby, label="Join")
    options = await world.ann.click(lobby, label="Options")
    form = await world.ann.click(response(options), label="Numbers and text")
    await world.restart()  # a form opened before a restart is still accepted after it
    await world.ann.submit_modal(form, {"option:deals": "1"})
    await world.ann.click(lobby, label="Start")
    table = world.require_table()
    assert [s.name for s in table.seats] == ["ann", "bob"] and table.options.deals == 1  # type: ignore[attr-defined]


async def test_many_simultaneous_clicks_apply_once(world: World) -> None:
    await start_toy(world)
    table = world.require_table()
    turn = table.turn
    hands = [await show_hand(world, world.ann) for _ in range(3)]
    clicks = []
    for i in range(30):  # the same card and different cards, from three copies of the hand
        hand = hands[i % 3]
        cards = acts(response(hand))
        clicks.append(raw_component(world, world.ann, response(hand), cards[i % len(cards)]["custom_id"]))
    # and Bob hammering his Show my hand meanwhile
    show = next(c for c in custom_ids(world.table_message()) if c.startswith("parlour:hand:"))
    clicks += [raw_component(world, world.bob, world.table_message(), show) for _ in range(10)]
    await world.settle()

    assert table.turn == turn + 1
    session = await world.bot.store.session(table.id)
    assert session is not None and len(session.actions) == turn + 1
    assert all(c.acknowledged for c in clicks)
    notes = [note_of(response(h)) for h in hands]
    assert sum(n.startswith("You chose") for n in notes) <= 1
    assert all(
        n.startswith("You chose") or n == STALE_HAND or "earlier turn" in n or "already" in n for n in notes
    )
    assert all(replies(c) for c in clicks[30:])  # each of Bob's clicks got its own hand


async def test_double_click_on_one_card(world: World) -> None:
    await start_toy(world)
    table = world.require_table()
    turn = table.turn
    hand = await show_hand(world, world.ann)
    card = acts(response(hand))[0]["custom_id"]
    first = raw_component(world, world.ann, response(hand), card)
    second = raw_component(world, world.ann, response(hand), card)
    await world.settle()
    assert first.acknowledged and second.acknowledged
    assert table.turn == turn + 1
