"""Confirm and Undo at a referee table name the entries their clicker saw: a double click on Undo
takes back one entry, not two, and a click on a table message that an entry has outdated neither
takes back nor confirms an entry its clicker has not seen."""

from __future__ import annotations

from typing import Any

import pytest

import bot.discord.messages as messages
from bot.service.model import User
from tests.attack.conftest import AttackWorld
from tests.attack.support import answered, text_of
from tests.attack.test_double_click import last_step
from tests.bot.discord.conftest import components_of, custom_ids, embed_text, raw_component


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


async def test_an_entry_view_that_an_undo_and_a_new_entry_outdated_enters_nothing_unseen(world: AttackWorld) -> None:
    """The Discord twin of the page's case: Ann's "Make an entry" view was drawn after Bob's first
    entry; Bob takes it back and enters another card: the turn number is the same again, and her
    click on the view must not enter whatever now stands at the index she clicked."""
    await open_with_entries(world, 1)
    table = world.require_table()
    bob = User(str(world.bob.id), "bob")
    shown = await world.ann.click(world.table_message(), label="Make an entry")
    choices = await last_step(world.ann, shown)
    seen = {index: label for index, label in enumerate(entry_labels(table))}
    await world.bot.service.undo(str(world.guild.id), str(world.channel.id), User(str(world.ann.id), "ann"))
    assert table.state is not None
    seat = min(table.state.awaiting())
    legal = table.state.legal_actions(seat)
    await world.bot.service.act(str(world.guild.id), str(world.channel.id), bob, legal[-1], seat=seat)
    await world.settle()
    now = entry_labels(table)
    message, custom_id, values, index = next(c for c in choices if now[c[3]] != seen[c[3]])
    turn = table.turn
    shown_label = option_label(message, custom_id, values)
    assert shown_label.startswith(seen[index].split(" ")[0]) or seen[index] in shown_label, (shown_label, seen[index])
    raw_component(world, world.ann, message, custom_id, values)
    await world.settle()
    entered = table.game.action_from_json(world.stored_actions(table.id)[-1][2]).label()
    assert table.turn == turn, f"Ann clicked {shown_label!r} in her view and {entered!r} was entered"


async def test_confirm_after_an_undo_and_a_new_entry_confirms_nothing_unseen(world: AttackWorld) -> None:
    """Bob's Discord still shows Ann's first entry; she takes it back and enters another card: the
    table holds one entry again, but not the one Bob saw, so his Confirm confirms nothing."""
    await open_with_entries(world, 1)
    table = world.require_table()
    seen = world.table_message()
    [confirm] = [c for c in custom_ids(seen) if c.startswith("parlour:ref:") and "confirm" in c]
    first = world.stored_actions(table.id)[-1][2]
    ann = User(str(world.ann.id), "ann")
    await world.bot.service.undo(str(world.guild.id), str(world.channel.id), ann)
    assert table.state is not None
    seat = min(table.state.awaiting())
    await world.bot.service.act(str(world.guild.id), str(world.channel.id), ann, table.state.legal_actions(seat)[-1], seat=seat)
    await world.settle()
    second = world.stored_actions(table.id)[-1][2]
    assert first != second
    clicked = raw_component(world, world.bob, seen, confirm)  # the button as Bob's Discord still shows it
    await world.settle()
    assert "changed since your table showed them (1 then and now" in text_of(clicked), text_of(clicked)
    assert list(table.confirmed_by) == [None], f"Bob confirmed {second} having seen {first}"
    assert world.stored_actions(table.id)[-1][2] == second


async def test_confirm_on_a_message_whose_last_entry_was_corrected_confirms_nothing(world: AttackWorld) -> None:
    """A correction of the last entry leaves the count as it was: Bob's Confirm, pressed on the
    message that showed the entry before the host corrected it, confirms nothing."""
    await open_with_entries(world, 2)
    table = world.require_table()
    seen = world.table_message()
    [confirm] = [c for c in custom_ids(seen) if c.startswith("parlour:ref:") and "confirm" in c]
    _seat, choices = await world.bot.service.entry_choices(
        str(world.guild.id), str(world.channel.id), User(str(world.ann.id), "ann"), 2
    )
    before = table.game.action_from_json(world.stored_actions(table.id)[-1][2])
    other = next(a for a in choices if a != before)
    await world.bot.service.correct(str(world.guild.id), str(world.channel.id), User(str(world.ann.id), "ann"), 2, other)
    await world.settle()
    clicked = raw_component(world, world.bob, seen, confirm)
    await world.settle()
    assert "changed since your table showed them (2 then and now" in text_of(clicked), text_of(clicked)
    assert list(table.confirmed_by) == [None, None], f"Bob confirmed {other.label()} having seen {before.label()}"


async def test_a_table_messages_buttons_name_only_the_entries_it_lists(
    world: AttackWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob's entry lands while the message for Ann's is being drawn (its picture is awaited), and
    his own edit of the message is held back: the message lists Ann's entry last, and its Confirm
    must not confirm Bob's, which it does not show."""
    await open_with_entries(world, 1)
    table = world.require_table()
    guild, channel = str(world.guild.id), str(world.channel.id)
    bob = User(str(world.bob.id), "bob")
    drawn = messages.table_picture
    entered: list[bool] = []

    async def held(table: Any, events: Any, repost: bool) -> None:
        return None  # Bob's entry's edit of the message, as if still queued

    async def slow_picture(view: Any) -> Any:
        picture = await drawn(view)
        if not entered:
            entered.append(True)
            assert table.state is not None
            seat = min(table.state.awaiting())
            monkeypatch.setattr(world.bot.notifier, "table_changed", held)
            await world.bot.service.act(guild, channel, bob, table.state.legal_actions(seat)[0], seat=seat)
        return picture

    monkeypatch.setattr(messages, "table_picture", slow_picture)
    assert table.state is not None
    seat = min(table.state.awaiting())
    await world.bot.service.act(guild, channel, User(str(world.ann.id), "ann"), table.state.legal_actions(seat)[0], seat=seat)
    await world.bot.notifier.drain()
    await world.settle()
    assert entered and len(table.confirmed_by) == 3
    message = world.table_message()
    listed = [int(line[1:].split(" ")[0]) for line in embed_text(message).splitlines() if line.startswith("#")]
    [confirm] = [c for c in custom_ids(message) if c.startswith("parlour:ref:") and "confirm" in c]
    assert max(listed) == 2, listed
    clicked = raw_component(world, world.ann, message, confirm)  # Ann confirms what she sees: entry 2
    await world.settle()
    assert list(table.confirmed_by) == [None, None, None], f"Ann confirmed Bob's entry 3 by {confirm}: the message lists up to #{max(listed)}"
    assert "changed since your table showed them (2 then, 3 now)" in text_of(clicked), text_of(clicked)


async def test_a_confirm_drawn_before_a_restart_still_confirms_after_it(world: AttackWorld) -> None:
    """Nothing changed but the process: the restarted bot replays the same entries, so the
    button Bob's Discord shows from before names them as they stand, and confirms."""
    await open_with_entries(world, 2)
    seen = world.table_message()
    [confirm] = [c for c in custom_ids(seen) if c.startswith("parlour:ref:") and "confirm" in c]
    await world.restart()
    await world.settle()
    clicked = raw_component(world, world.bob, seen, confirm)
    await world.settle()
    assert "You confirmed the last entry" in text_of(clicked), text_of(clicked)
    assert list(world.require_table().confirmed_by) == [None, str(world.bob.id)]


def option_label(message: Any, custom_id: str, values: list[str] | None) -> str:
    """What the view showed for that choice: the menu option's label, or the button's."""
    for component in components_of(message):
        if component.get("custom_id") != custom_id:
            continue
        if values is None:
            return str(component.get("label", ""))
        return next(str(o["label"]) for o in component["options"] if o["value"] == values[0])
    raise AssertionError("no such component")


def entry_labels(table: Any) -> list[str]:
    """The labels of every entry that may be made now, in the order a member's view lists them."""
    state = table.state
    return [a.label() for s in sorted(state.awaiting()) for a in state.legal_actions(s)]
