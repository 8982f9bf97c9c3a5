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


async def bob_starts(world: AttackWorld, first_dealer: int) -> None:
    """Bob opens a toy table, Ann joins, and Bob starts it a quarter of an hour later: Ann's view
    is not sent at the start (her click's token is too old), so she is pinged at her turn.
    ``first_dealer=2``: Ann deals and Bob leads; ``1``: Bob deals and Ann leads."""
    lobby = (await world.bob.slash(world.channel, "play", game="toy", options=f"first_dealer={first_dealer}")).response
    assert lobby is not None
    await world.ann.click(lobby, label="Join")
    await lobby_lapses(world)
    await world.bob.click(lobby, label="Start")
    await world.settle()


async def test_a_ping_up_at_a_restart_goes_when_its_player_has_moved(world: AttackWorld) -> None:
    await bob_starts(world, first_dealer=2)
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
    await bob_starts(world, first_dealer=2)
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
    await bob_starts(world, first_dealer=2)
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


async def ann_pinged(world: AttackWorld) -> int:
    """Bob starts a toy table a quarter of an hour after Ann joined (her view is not sent) and
    leads: Ann is pinged. The ping's message id."""
    await bob_starts(world, first_dealer=2)
    await choose_in_hand(world.bob, await show_hand(world, world.bob))
    await world.settle()
    [(ping_id, who)] = pings(world)
    assert who == [world.ann.id]
    return ping_id


async def test_a_ping_up_at_a_restart_goes_when_the_table_is_abandoned(world: AttackWorld) -> None:
    """The table closes before anyone moves after the restart: the ping from before it goes too
    (the new process had not taken the table's pings over yet when it closed)."""
    ping_id = await ann_pinged(world)
    await world.restart()
    await world.mod.slash(world.channel, "abandon")
    await world.settle()
    assert world.table is None
    assert ping_id not in [m.id for m in world.bot_messages()], "Ann's ping is left up on an abandoned table"


async def test_a_ping_sent_when_a_view_could_not_be_redrawn_is_kept_for_a_restart(world: AttackWorld) -> None:
    """Ann's view is open while Bob leads, but Discord no longer lets the bot edit it (she
    dismissed it, say): at her turn she is pinged instead. That ping is kept in storage like any
    other, so the next process takes it down once she has moved."""
    await bob_starts(world, first_dealer=2)
    table = world.require_table()
    await show_hand(world, world.ann)
    await world.settle()
    live = world.bot.notifier.live.get(table.id, str(world.ann.id))
    assert live is not None
    live.followup, live.message_id = True, None  # not editable any more: the refresh finds it gone
    await choose_in_hand(world.bob, await show_hand(world, world.bob))
    await world.settle()
    [(ping_id, who)] = pings(world)
    assert who == [world.ann.id]
    [head] = await world.bot.service.core.store.open_session_heads()
    assert head.turn_pings is not None and str(ping_id) in head.turn_pings
    await world.restart()
    await choose_in_hand(world.ann, await show_hand(world, world.ann))
    await world.settle()
    assert ping_id not in [m.id for m in world.bot_messages()]


async def test_keeping_pings_does_not_move_the_first_turns_clock(world: AttackWorld) -> None:
    """Before the first action a turn's clock runs from when the table last changed: keeping a
    reminder's ping in storage is not a change of the table (the first player would get the
    reminder's delay again after a restart)."""
    await bob_starts(world, first_dealer=1)
    store = world.bot.service.core.store
    [before] = await store.open_session_heads()
    assert before.action_count == 0 and before.turn_pings is None
    await world.env.advance_time(125)  # the first player's reminder (120 s), kept in storage
    await world.settle()
    [after] = await store.open_session_heads()
    assert after.turn_pings is not None and after.last_change_at == before.last_change_at


async def play_one(world: AttackWorld) -> None:
    table = world.require_table()
    assert table.state is not None
    [seat] = table.state.awaiting()
    actor = world.actor(table.seats[seat].user_id)
    await choose_in_hand(actor, await show_hand(world, actor))
    await world.settle()


async def test_a_crash_on_the_move_that_ends_a_deal_shows_the_new_deal_in_its_own_message(
    world: AttackWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process dies after storing the move that ends deal 1 and before telling anyone: after
    the restart deal 2 gets its own message (as without the crash), not deal 1's."""
    await bob_starts(world, first_dealer=2)
    table = world.require_table()
    for _ in range(11):
        await play_one(world)
    assert table.state is not None and table.state.deal_no == 1
    first_message = table.message_id

    async def dies_before_telling(*args: object, **kwargs: object) -> None:
        return None

    monkeypatch.setattr(world.bot.notifier, "table_changed", dies_before_telling)
    await play_one(world)
    new = await world.restart()
    await new.service.wait_resumed()
    await world.settle()
    monkeypatch.undo()
    table = world.require_table()
    assert table.state is not None and table.state.deal_no == 2
    assert table.message_id != first_message, "deal 2 is shown in deal 1's message"
    assert "Deal 2" in embed_text(world.table_message())
