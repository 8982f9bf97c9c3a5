"""Forged and outdated ``parlour:`` custom ids: every one is answered politely and changes nothing.

Discord only delivers a click on a component of one of our messages, but the custom id it carries
may be one this version of the bot no longer knows (a message posted by an older version), one the
message no longer shows (sent just before an edit), or a forged one. Each of those must get an
ephemeral answer, never "This interaction failed", and must leave the table as it was.
"""

from __future__ import annotations

import discord
import pytest
import simcord

from bot.discord.components import LobbyButton
from bot.discord.safe import safe_send
from tests.attack.conftest import AttackWorld
from tests.attack.support import UNRECOGNISED, answered, open_table, snapshot, text_of
from tests.bot.discord.conftest import (
    components_of,
    custom_ids,
    only_ephemeral,
    raw_component,
    response,
    show_hand,
)


async def send(
    world: AttackWorld, actor: str, custom_id: str, values: list[str] | None = None
) -> simcord.InteractionResult:
    result = raw_component(world, getattr(world, actor), world.table_message(), custom_id, values)
    await world.env.settle(idle=0.005)  # a short poll: the database answers from a thread
    return result


UNKNOWN_IDS = [
    "parlour:",
    "parlour:bogus",
    "parlour:bogus:1",
    "parlour:act:1:2",  # truncated
    "parlour:act:1:2:3:4",  # a field too many
    "parlour:act:-1:0:0",  # a negative session
    "parlour:hand:-3",
    "parlour:form:1:0",  # a form's id on a button
    "parlour:hand:1 ",
    "parlour:HAND:1",
    "parlour:hand:١٢",  # digits, but not ASCII ones
    "parlour:hand:" + "9" * 5000,  # more digits than int() takes
    "parlour:nav:1:0:" + ".".join(["0"] * 10_000),  # a path of 10,000 parts
    "parlour:" + "x" * 100_000,
]


@pytest.mark.parametrize("custom_id", UNKNOWN_IDS, ids=lambda c: c[:40])
async def test_an_id_matching_no_template_is_answered(world: AttackWorld, custom_id: str) -> None:
    await open_table(world, "parity")
    before = snapshot(world)
    for actor in ("ann", "cat"):  # seated, and not
        result = await send(world, actor, custom_id)
        assert answered(result) and only_ephemeral(result), custom_id[:60]
        assert UNRECOGNISED in text_of(result) and "/table" in text_of(result)
    assert snapshot(world) == before


async def test_an_old_version_button_still_on_a_message_is_answered(world: AttackWorld) -> None:
    """The id is on the message (discord.py finds the component) but no template of ours matches."""
    await open_table(world, "parity")
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Old", custom_id="parlour:shuffle:7"))
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    old = await safe_send(channel, content="A message from an older version", view=view)
    await world.settle()
    assert old is not None
    before = snapshot(world)
    result = await world.cat.click(world.message(old.id), label="Old")
    assert only_ephemeral(result) and UNRECOGNISED in text_of(result)
    assert snapshot(world) == before


async def test_a_real_id_sent_as_the_wrong_kind_of_component_is_answered(world: AttackWorld) -> None:
    """discord.py looks a component up by kind and id: a button's id arriving as a select (or a
    menu's as a button) is found by neither it nor a plain id lookup."""
    await open_table(world, "parity")
    table = world.require_table()
    assert table.state is not None
    show = next(c for c in custom_ids(world.table_message()) if c.startswith("parlour:hand:"))
    before = snapshot(world)
    as_select = await send(world, "bob", show, ["x"])
    assert answered(as_select) and only_ephemeral(as_select)
    assert snapshot(world) == before
    turn = table.turn
    seat = min(table.state.awaiting())
    actor = world.actor(table.seats[seat].user_id)
    hand = await show_hand(world, actor)
    for component in components_of(response(hand)):  # each choice as the other kind of component
        values = ["a0"] if component["type"] == 2 else None
        swapped = raw_component(world, actor, response(hand), component["custom_id"], values)
        await world.settle()
        assert answered(swapped), component["custom_id"]
    assert turn <= table.turn <= turn + 1  # the right player's choice for this turn may count


async def test_absurd_values_in_a_matching_id_are_refused(world: AttackWorld) -> None:
    await open_table(world, "parity")
    table = world.require_table()
    assert table.state is not None
    sid, turn = table.id, table.turn
    seat = min(table.state.awaiting())
    player = "ann" if table.seats[seat].user_id == str(world.ann.id) else "bob"
    pick = f"parlour:pick:{sid}:{turn}::0"
    before = snapshot(world)
    cases: list[tuple[str, list[str] | None]] = [
        (f"parlour:hand:{10**40}", None),
        (f"parlour:hand:{2**63}", None),
        (f"parlour:act:{sid}:{turn}:{10**30}", None),
        (f"parlour:act:{sid}:{10**30}:0", None),
        (f"parlour:act:{sid}:{turn}:{2**63 - 1}", None),
        (f"parlour:pub:{sid}:{turn}:{10**20}", None),
        (f"parlour:nav:{sid}:{turn}:{'.'.join(['7'] * 40)}", None),
        (f"parlour:nav:{sid}:{turn}:99999999999999999999", None),
        (f"parlour:lobby:{sid}:explode", None),
        (f"parlour:ref:{sid}:explode", None),
        (f"parlour:opt:{sid}:99", ["true"]),
        (f"parlour:optpage:{sid}:{10**30}", None),
        (f"parlour:optnum:{sid}:{10**30}", None),
        (f"parlour:addbot:{sid}:godlike", None),
        (pick, ["a²"]),  # a digit to str.isdigit, not to int()
        (pick, ["a" + "9" * 5000]),
        (pick, ["g" + "9" * 5000]),
        (pick, ["a-1"]),
        (pick, ["z0"]),
        (pick, []),
        ("parlour:page:replay:abc:0", None),
        (f"parlour:page:replay:{10**30}:0", None),
        ("parlour:page:board:nogame.forever:0", None),
        (f"parlour:page:board:parity.all:{10**30}", None),
        (f"parlour:page:board:parity.all:{10**18}", None),  # fits SQLite; ten times it does not
        (f"parlour:page:replay:{10**18}:{10**18}", None),
        (f"parlour:reset:{10**18}:confirm", None),
        (f"parlour:reset:{10**30}:confirm", None),
    ]
    for custom_id, values in cases:
        for actor in (player, "cat"):
            result = await send(world, actor, custom_id, values)
            assert answered(result), (custom_id[:60], values and values[0][:20], actor)
            assert snapshot(world) == before, custom_id[:60]
    assert world.require_table().turn == turn


async def test_a_hand_or_pager_forged_onto_the_table_message_leaves_it_alone(world: AttackWorld) -> None:
    """A hand's choices, the options menus and the records' pagers answer by replacing the message
    they sit on: forged onto the public table message, they would replace it for everyone (with
    "That table has closed", a player's hand, a leaderboard)."""
    await open_table(world, "parity")
    table = world.require_table()
    assert table.state is not None
    sid, turn = table.id, table.turn
    seat = min(table.state.awaiting())
    player = "ann" if table.seats[seat].user_id == str(world.ann.id) else "bob"

    def shown() -> tuple[object, ...]:
        stored = world.env.backend.get_message(world.channel.id, int(table.message_id or 0))
        return stored.content, repr(stored.embeds), repr(stored.components)

    before, message = snapshot(world), shown()
    cases: list[tuple[str, str, list[str] | None]] = [
        (player, f"parlour:act:{sid}:{turn}:0", None),  # the player to move, this very turn
        (player, f"parlour:act:{sid + 1}:0:0", None),  # another table: "That table has closed"
        (player, f"parlour:pick:{sid}:{turn - 1 if turn else turn + 1}::0", ["a0"]),  # an earlier turn
        (player, f"parlour:nav:{sid}:{turn}:0", None),
        ("ann", f"parlour:optpage:{sid}:0", None),
        ("ann", f"parlour:addbot:{sid}:easy", None),
        ("cat", "parlour:page:board:parity.all:0", None),
        ("cat", f"parlour:reset:{world.bob.id}:cancel", None),
    ]
    for actor, custom_id, values in cases:
        result = await send(world, actor, custom_id, values)
        assert answered(result) and only_ephemeral(result), custom_id
        assert shown() == message, custom_id
        assert snapshot(world) == before, custom_id


async def test_a_lobby_verb_that_does_not_exist_is_refused_in_the_lobby(world: AttackWorld) -> None:
    lobby = (await world.ann.slash(world.channel, "play", game="parity")).response
    assert lobby is not None
    table = world.require_table()
    before = snapshot(world)
    for verb in ("explode", "options"):  # "options" from a guest: only the host may
        result = raw_component(world, world.cat, lobby, LobbyButton(table.id, verb).item.custom_id or "")
        await world.settle()
        assert only_ephemeral(result) and text_of(result)
    assert snapshot(world) == before
