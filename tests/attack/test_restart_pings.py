"""A turn ping up in the channel when the process stops (or is killed) must still be taken down
once its player has moved, by the process that took over: not left for good, "your turn" on a
turn long gone, beside the next one."""

from __future__ import annotations

from tests.attack.conftest import AttackWorld
from tests.bot.discord.conftest import choose_in_hand, lobby_lapses, show_hand


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
