"""The bot's edits that do not read Discord's answer back into objects (``bot.discord.safe``:
``edit_message``, ``edit_original``) send what discord.py's own edits send: the message a player
sees afterwards is the same, field for field (text, embed, buttons, the picture and its
description), and so are the calls."""

from __future__ import annotations

from typing import Any

from simcord.backend.models import Message as Stored

from bot.discord.messages import hand_info, hand_message, table_message
from bot.discord.safe import detached, edit_message, edit_original
from bot.service.model import User
from tests.bot.discord.conftest import World, show_hand, start_game


def seen(stored: Stored) -> dict[str, Any]:
    """What a person sees of a stored message (not its ids, times or the files' addresses)."""
    return {
        "content": stored.content,
        "embeds": [dict(e) for e in stored.embeds],
        "components": stored.components,
        "files": [(a.get("filename"), a.get("description")) for a in stored.attachments],
    }


def last_call(world: World) -> tuple[str, str]:
    call = world.env.http_requests[-1]
    return call.method, call.path


async def test_an_edit_of_the_table_message_sends_what_discord_py_sends(world: World) -> None:
    table = await start_game(world, "hundred", 3)
    await world.settle()
    assert table.message_id is not None
    partial = world.bot.notifier.channel(table).get_partial_message(int(table.message_id))

    async def fields() -> dict[str, Any]:
        message = await table_message(table, world.bot.store)
        assert message.files, "the table message has its picture"
        return {**message.edit_fields(), "view": detached(message.view)}

    stored = world.env.backend.get_message(world.channel.id, int(table.message_id))
    await partial.edit(**await fields())
    theirs, their_call = seen(stored), last_call(world)
    assert theirs["embeds"] and theirs["components"] and all(alt for _, alt in theirs["files"]), theirs
    await edit_message(partial, content="a line", embed=None, view=None, attachments=[])
    assert seen(stored)["content"] == "a line" and not seen(stored)["files"]  # the edit went through
    await edit_message(partial, **await fields())
    assert seen(stored) == theirs
    assert last_call(world) == their_call


async def test_an_edit_of_a_private_view_sends_what_discord_py_sends(world: World) -> None:
    table = await start_game(world, "hundred", 3)
    assert table.state is not None
    seat = min(table.state.awaiting())
    person = table.seats[seat]
    assert person.user_id is not None
    hand = await show_hand(world, world.actor(person.user_id))
    await world.settle()
    live = world.bot.notifier.live.current(table.id, person.user_id)
    assert live is not None and hand.response is not None

    async def fields(note: str) -> dict[str, Any]:
        message = await hand_message(table, hand_info(table, User(person.user_id or "", person.name)), note)
        assert message.files, "the view has its picture"
        return {**message.edit_fields(), "view": detached(message.view)}

    stored = world.env.backend.get_message(hand.response.channel_id, hand.response.id)
    await live.interaction.edit_original_response(**await fields("Checked."))
    theirs, their_call = seen(stored), last_call(world)
    assert theirs["embeds"] and theirs["components"] and all(alt for _, alt in theirs["files"]), theirs
    await edit_original(live.interaction, content="a line", embed=None, view=None, attachments=[])
    assert seen(stored)["content"] == "a line" and not seen(stored)["components"]
    await edit_original(live.interaction, **await fields("Checked."))
    assert seen(stored) == theirs
    assert last_call(world) == their_call
