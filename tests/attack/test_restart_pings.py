"""What a process that stops (or is killed) leaves in the channel, as the next one finds it: a turn
ping up must still be taken down once its player has moved (not left for good, "your turn" on a
turn long gone, beside the next one), and a move acknowledged just before a crash must be shown
and its next player told."""

from __future__ import annotations

import pytest

from tests.attack.conftest import AttackWorld
from tests.bot.discord.conftest import choose_in_hand, embed_text, lobby_lapses, show_hand


def pings(world: AttackWorld) -> list[tuple[int, list[int]]]:
    return [(m.id, m.raw_mentions) for m in world.bot_messages() if m.raw_mentions]


async def test_a_ping_up_at_a_restart_goes_when_its_player_has_moved(world: AttackWorld) -> None:
    lobby = (await world.bob.slash(world.channel, "play", game="toy", options="first_dealer=2")).response
    assert lobby is not None  # Bob sits first and leads; Ann deals
    await world.ann.click(lobby, label="Join")
    await lobby_lapses(world)  # Ann's view is not sent at the start: she is pinged at her turn
    await world.bob.click(lobby, label="Start")
    await world.settle()
    await choose_in_hand(world.bob, await show_hand(world, world.bob))
    await world.settle()
    [(ping_id, who)] = pings(world)
    assert who == [world.ann.id]

    await world.restart()
    await choose_in_hand(world.ann, await show_hand(world, world.ann))
    await world.settle()
    assert ping_id not in [m.id for m in world.bot_messages()], "Ann's ping from before the restart is still up"
    assert all(who != [world.ann.id] for _, who in pings(world))


async def test_a_move_acknowledged_just_before_a_crash_is_shown_and_pinged_after_the_restart(
    world: AttackWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process dies between acknowledging Bob's click (his move stored, "You chose...") and
    its follow-ups (the table message's edit, Ann's ping). The next process must not leave the
    table message showing Bob's turn, nobody told it is Ann's, until a timer comes round."""
    lobby = (await world.bob.slash(world.channel, "play", game="toy", options="first_dealer=2")).response
    assert lobby is not None  # Bob sits first and leads; Ann deals
    await world.ann.click(lobby, label="Join")
    await lobby_lapses(world)
    await world.bob.click(lobby, label="Start")
    await world.settle()
    table = world.require_table()

    async def dies_before_telling(*args: object, **kwargs: object) -> None:
        return None

    monkeypatch.setattr(world.bot.notifier, "table_changed", dies_before_telling)
    note, _ = await choose_in_hand(world.bob, await show_hand(world, world.bob))
    await world.settle()
    assert note.startswith("You chose")
    turn = table.turn
    assert f"turn {turn}" not in embed_text(world.table_message()) and pings(world) == []

    new = await world.restart()
    await new.service.wait_resumed()
    await world.settle()
    assert f"turn {turn}" in embed_text(world.table_message()), "the table message still shows Bob's turn"
    assert [who for _, who in pings(world)] == [[world.ann.id]], "Ann is told once that it is her turn"


async def test_a_ping_up_at_a_restart_goes_even_after_a_reminder_came_first(world: AttackWorld) -> None:
    """After the restart the first thing the new process does at the table is Ann's turn reminder
    (her timer), before any change: her ping from before the restart must still go when she moves."""
    lobby = (await world.bob.slash(world.channel, "play", game="toy", options="first_dealer=2")).response
    assert lobby is not None
    await world.ann.click(lobby, label="Join")
    await lobby_lapses(world)
    await world.bob.click(lobby, label="Start")
    await world.settle()
    await choose_in_hand(world.bob, await show_hand(world, world.bob))
    await world.settle()
    [(ping_id, _)] = pings(world)

    await world.restart()
    await world.env.advance_time(125)  # her reminder (120 s)
    await world.settle()
    assert len(pings(world)) == 2  # the ping and the reminder, both naming Ann
    await choose_in_hand(world.ann, await show_hand(world, world.ann))
    await world.settle()
    assert all(who != [world.ann.id] for _, who in pings(world)), "a ping or reminder for Ann is still up"
    assert ping_id not in [m.id for m in world.bot_messages()]
