"""Confirm and Undo at a referee table name the entries their clicker saw: a double click on Undo
takes back one entry, not two, and a click on a table message that an entry has outdated neither
takes back nor confirms an entry its clicker has not seen."""

from __future__ import annotations

from bot.service.model import User
from tests.attack.conftest import AttackWorld
from tests.attack.support import answered, text_of
from tests.bot.discord.conftest import custom_ids, raw_component


async def open_with_entries(world: AttackWorld, count: int) -> None:
    players = f"<@{world.ann.id}> <@{world.bob.id}>"
    opened = await world.ann.slash(world.channel, "referee", game="wit_and_reason_1", players=players)
    assert opened.response is not None
    await world.settle()
    table = world.require_table()
    ann = User(str(world.ann.id), "ann")
    for _ in range(count):
        assert table.state is not None
        seat = min(table.state.awaiting())
        await world.bot.service.act(str(world.guild.id), str(world.channel.id), ann, table.state.legal_actions(seat)[0], seat=seat)
    await world.settle()


async def test_a_double_click_on_undo_takes_back_one_entry(world: AttackWorld) -> None:
    await open_with_entries(world, 2)
    table = world.require_table()
    [undo] = [c for c in custom_ids(world.table_message()) if c.startswith("parlour:ref:") and "undo" in c]
    first = raw_component(world, world.ann, world.table_message(), undo)  # as Ann's Discord shows it
    await world.settle()
    assert len(table.actors) == 1 and "taken back" in text_of(first)
    second = raw_component(world, world.ann, world.table_message(), undo)  # the same button, before its edit shows
    await world.settle()
    assert answered(second) and "changed" in text_of(second), text_of(second)
    assert len(table.actors) == 1, "the second click of one Undo took back the entry before it too"
    assert len(world.stored_actions(table.id)) == 1


async def test_confirm_on_a_message_an_entry_outdated_confirms_nothing(world: AttackWorld) -> None:
    await open_with_entries(world, 1)
    table = world.require_table()
    seen = world.table_message()  # Bob sees one entry
    assert table.state is not None
    seat = min(table.state.awaiting())
    ann = User(str(world.ann.id), "ann")
    await world.bot.service.act(str(world.guild.id), str(world.channel.id), ann, table.state.legal_actions(seat)[0], seat=seat)
    clicked = await world.bob.click(seen, label="Confirm last entry")  # before his Discord shows the second
    await world.settle()
    assert "changed" in text_of(clicked), text_of(clicked)
    assert list(table.confirmed_by) == [None, None]
