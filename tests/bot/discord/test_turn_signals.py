"""Knowing it is your turn: a person whose turn starts is pinged once (unless their live view is
open, which updates itself instead); the ping goes once they have moved; the server's setting and
each player's own /pings choice are obeyed."""

from __future__ import annotations

from bot.settings import GuildSettings
from tests.bot.discord.conftest import World, choose_in_hand, custom_ids, embed_text, labels, show_hand
from tests.bot.discord.live_play import choices

BOB_LEADS = "first_dealer=1"  # Ann deals, Bob leads


async def start(world: World, options: str = BOB_LEADS) -> None:
    lobby = (await world.ann.slash(world.channel, "play", game="toy", options=options)).response
    assert lobby is not None
    await world.bob.click(lobby, label="Join")
    await world.ann.click(lobby, label="Start")
    await world.settle()


def pings(world: World) -> list[tuple[int, list[int]]]:
    """Messages in the channel that mention someone: (message id, who)."""
    return [(m.id, m.raw_mentions) for m in world.bot_messages() if m.raw_mentions]


async def test_the_first_player_is_pinged_in_the_new_table_message(world: World) -> None:
    await start(world)
    message = world.table_message()
    assert message.raw_mentions == [world.bob.id] and "your turn" in message.content
    assert pings(world) == [(message.id, [world.bob.id])]  # once, nobody else


async def test_a_player_not_watching_is_pinged_once_and_the_ping_goes_when_they_move(world: World) -> None:
    await start(world)
    await choose_in_hand(world.bob, await show_hand(world, world.bob))  # Bob leads; Ann's turn
    await world.settle()
    table_message = world.table_message()
    assert table_message.raw_mentions == [] and table_message.content == ""  # the start's ping is gone
    [(ping_id, who)] = pings(world)
    assert who == [world.ann.id]
    ping = world.message(ping_id)
    assert "your turn" in ping.content and labels(ping) == ["Show my hand"]
    opened = await world.ann.click(ping, label="Show my hand")  # the ping's button opens her view
    await choose_in_hand(world.ann, opened)
    await world.settle()
    assert ping_id not in [m.id for m in world.bot_messages()]  # she moved: the ping is deleted


async def test_a_player_watching_their_view_is_not_pinged_and_moves_with_one_click(world: World) -> None:
    await start(world)
    table = world.require_table()
    ann_view = await show_hand(world, world.ann)  # Ann opens her view while Bob thinks
    assert all(c.startswith("parlour:act:") for c in choices(ann_view.response))  # Knock only: no cards
    await choose_in_hand(world.bob, await show_hand(world, world.bob))
    await world.settle()
    assert pings(world) == []  # Ann is watching: no ping
    assert any(c.startswith("parlour:pick:") for c in choices(ann_view.response)), "Ann's view is out of date"
    assert "Your move: Your turn: choose below." in embed_text(ann_view.response)
    turn = table.turn
    note, followed = await choose_in_hand(world.ann, ann_view)  # one interaction: the move
    assert note.startswith("You chose") and len(followed) == 1 and table.turn > turn


async def test_pings_off_for_one_player(world: World) -> None:
    off = await world.ann.slash(world.channel, "pings", setting="off")
    assert off.response is not None and "will not mention you" in off.response.content
    await start(world)
    await choose_in_hand(world.bob, await show_hand(world, world.bob))
    await world.settle()
    assert pings(world) == []
    await world.ann.slash(world.channel, "pings", setting="on")
    await choose_in_hand(world.ann, await show_hand(world, world.ann))  # Ann's card ends the trick
    await world.settle()
    assert all(who != [world.ann.id] for _, who in pings(world))
    assert str(world.ann.id) not in await world.bot.store.quiet_players()


async def test_server_setting_off_and_dm(world: World) -> None:
    service = world.bot.service
    guild = str(world.guild.id)
    await service.update_settings(guild, GuildSettings(turn_ping="off"))
    await start(world)
    assert world.table_message().raw_mentions == [] and pings(world) == []
    await world.ann.slash(world.channel, "abandon")
    await service.update_settings(guild, GuildSettings(turn_ping="dm"))
    before = len(world.dms(world.bob))
    await start(world)
    assert pings(world) == []
    assert any("Your turn at Toy Tricks" in m.content for m in world.dms(world.bob)[before:])
    assert custom_ids(world.table_message())
