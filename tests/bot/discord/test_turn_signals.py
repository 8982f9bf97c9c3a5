"""Knowing it is your turn: a person whose turn starts is pinged once (unless their live view is
open, which updates itself instead); the ping goes once they have moved; the server's setting and
each player's own /pings choice are obeyed."""

from __future__ import annotations

from bot.discord.embeds import NOT_YOUR_TURN
from bot.discord.notifier import ABANDONED_VIEW, TIMED_OUT, Job
from bot.service.timers import reminder
from bot.settings import GuildSettings
from tests.bot.discord.conftest import (
    World,
    choose_in_hand,
    custom_ids,
    embed_text,
    labels,
    lobby_lapses,
    show_hand,
)
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
    """Bob opens the table and starts it a quarter of an hour after Ann joined: her view is not
    sent at the start (her click's token is too old), so she is not watching when her turn comes."""
    lobby = (await world.bob.slash(world.channel, "play", game="toy", options="first_dealer=2")).response
    assert lobby is not None  # Bob sits first and leads; Ann deals
    await world.ann.click(lobby, label="Join")
    await lobby_lapses(world)
    await world.bob.click(lobby, label="Start")
    await world.settle()
    # Bob leads, and started it himself with his view below: the start tells nobody, so it is
    # the lobby made the table message by his click (a mention in an edit would notify nobody)
    assert world.table_message().id == lobby.id and world.table_message().raw_mentions == []
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
    assert len(choices(ann_view.response)) > 1, "Ann's view is out of date"  # her cards came back
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


def reminders(world: World) -> list[tuple[int, str]]:
    """The timers' turn reminders in the channel: (message id, text)."""
    return [(m.id, m.content) for m in world.bot_messages() if "takes your seat" in m.content]


async def reminded(world: World) -> tuple[int, str]:
    """Bob leads and idles until his reminder (120 s): it names him and the moment his 600 s end."""
    await start(world)
    table = world.require_table()
    await world.env.advance_time(125)
    await world.settle()
    [(message_id, text)] = reminders(world)
    due = int(table.last_change_at + 600)
    assert text.startswith(f"<@{world.bob.id}> It is your turn.") and f"<t:{due}:R>" in text
    assert "you rank last" in text
    return message_id, text


async def test_the_reminder_says_when_a_bot_takes_the_seat_and_goes_when_it_does(world: World) -> None:
    message_id, _ = await reminded(world)
    table = world.require_table()
    turn = table.turn
    await world.env.advance_time(480)  # 605 s: the bot plays for Bob, as the reminder said
    await world.settle()
    assert table.turn > turn and table.seats[1].left_at == turn
    assert message_id not in [m.id for m in world.bot_messages()] and reminders(world) == []


async def test_the_reminder_goes_when_the_player_moves(world: World) -> None:
    await reminded(world)
    await choose_in_hand(world.bob, await show_hand(world, world.bob))
    await world.settle()
    assert reminders(world) == []
    assert world.require_table().seats[1].left_at is None  # Bob moved in time: still his seat


async def test_the_reminder_goes_when_the_table_closes(world: World) -> None:
    await reminded(world)
    abandon = await world.ann.slash(world.channel, "abandon")
    assert abandon.response is not None
    await world.settle()
    assert world.table is None and reminders(world) == []


async def test_a_reminder_whose_turn_passed_on_its_way_is_taken_down_at_once(world: World) -> None:
    """The race: the timer asks for Bob's reminder, and Bob moves before the channel's outbox
    sends it. It goes out (the send was already due) and is deleted straight after."""
    await start(world)
    table = world.require_table()
    since = len(table.actors)  # what the reminder's job notes when the timer asks for it
    await choose_in_hand(world.bob, await show_hand(world, world.bob))  # Bob moves meanwhile
    await world.settle()
    due = table.last_change_at + 600
    await world.bot.notifier.perform(Job("notice", table, text=reminder(due), mention=str(world.bob.id), since=since))
    await world.settle()
    assert reminders(world) == []
    await world.bot.notifier.perform(  # Ann's reminder, asked for now, stays: it is her turn
        Job("notice", table, text=reminder(due), mention=str(world.ann.id), since=len(table.actors))
    )
    await world.settle()
    assert [text.split(">")[0] for _, text in reminders(world)] == [f"<@{world.ann.id}"]


async def test_an_abandoned_tables_open_views_say_they_are_out_of_date(world: World) -> None:
    """Bob (to move) and Ann (waiting, told her view updates itself) have their views open; Ann
    abandons: both views lose their choices and say, in one line, that they are out of date."""
    await start(world)
    bobs = await show_hand(world, world.bob)
    anns = await show_hand(world, world.ann)
    assert "updates itself" in embed_text(anns.response) or choices(anns.response)
    await world.ann.slash(world.channel, "abandon")
    await world.settle()
    assert world.table is None
    for view in (bobs, anns):
        message = view.response
        assert message is not None and message.content == ABANDONED_VIEW
        assert not message.embeds and not custom_ids(message)


async def test_a_view_whose_turn_a_bot_played_is_redrawn(world: World) -> None:
    """Bob opens his view (his cards, one tap each) and lets his time run out: the bot plays for
    him, and his view no longer offers the cards nor says it is his turn; it says what happened."""
    await start(world)
    table = world.require_table()
    bobs = await show_hand(world, world.bob)
    assert "Your turn" in embed_text(bobs.response) and len(choices(bobs.response)) > 1
    turn = table.turn
    await world.env.advance_time(605)
    await world.settle()
    assert table.turn > turn and table.seats[1].left_at == turn
    assert table.state is not None and 1 not in table.state.awaiting()
    message = bobs.response
    assert set(labels(message)) <= {"Knock"}  # no card: at most the knock open to anyone out of turn
    assert "Your turn" not in embed_text(message) and NOT_YOUR_TURN in embed_text(message)
    assert TIMED_OUT in embed_text(message)
