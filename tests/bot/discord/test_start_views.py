"""The views sent at the start (review findings 1 and 5): a player who presses Show my hand while
the bot's own view is still on its way ends with exactly one live view, kept up to date (or, once
Discord refuses it, a ping); a view that cannot go for any reason leaves the hand to a DM."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import aiohttp
import discord
import pytest

import bot.discord.notifier as notifier_module
from bot.discord.notifier import Job
from tests.bot.discord.conftest import World, acts, embed_text, show_hand
from tests.bot.discord.live_play import choices, sent_view
from tests.bot.discord.test_rest_calls import start_three


def hold_open(world: World, monkeypatch: pytest.MonkeyPatch, user: int) -> tuple[list[Job], Callable[[Job], Any]]:
    """Hold back the "open" job of ``user``'s view at the start (Discord slow to take it)."""
    notifier = world.bot.notifier
    held: list[Job] = []
    real = notifier._open_view

    async def slow(job: Job) -> None:
        if job.users == (str(user),) and not held:
            held.append(job)
            return
        await real(job)

    monkeypatch.setattr(notifier, "_open_view", slow)
    return held, real


async def cat_opens_her_hand_first(world: World, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Cat's view at the start is on its way when she presses Show my hand; then it goes out."""
    held, real = hold_open(world, monkeypatch, world.cat.id)
    await start_three(world)
    assert len(held) == 1
    cats = await show_hand(world, world.cat)
    await real(held[0])
    await world.settle()
    return cats


def cats_views(world: World) -> list[discord.Message]:
    start = world.table_message()
    return [m for m in world.channel.history(viewer=world.cat) if m.id > start.id and m.flags.ephemeral]


async def test_show_my_hand_before_the_start_view_is_sent_stays_live(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cat's Show my hand beats the view the bot sends her at the start: she has that one view
    only (the bot's is not sent after it), and when Bob leads her view shows her turn, with no DM
    and no ping."""
    cats = await cat_opens_her_hand_first(world, monkeypatch)
    table = world.require_table()
    assert [m.id for m in cats_views(world)] == [cats.response.id]
    bobs = sent_view(world, world.bob, world.table_message().id)
    assert bobs is not None
    pings = len(world.bot_messages())
    await world.bob.click(bobs.response, custom_id=acts(bobs.response)[0]["custom_id"])
    await world.settle()
    assert table.state is not None and table.state.awaiting() == {2}
    assert "Your turn" in embed_text(cats.response) and choices(cats.response)
    assert len(world.bot_messages()) == pings and world.dms(world.cat) == []
    assert [m.id for m in cats_views(world)] == [cats.response.id]


async def test_show_my_hand_before_the_start_view_is_sent_is_pinged_once_refused(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As above, but Discord refuses the edit of Cat's view when her turn comes (its token gone):
    she is pinged, as anyone without a live view is."""
    await cat_opens_her_hand_first(world, monkeypatch)
    bobs = sent_view(world, world.bob, world.table_message().id)
    assert bobs is not None
    world.env.inject_error("PATCH", "/webhooks/*", status=404, code=10015, message="Unknown Webhook", times=1)
    await world.bob.click(bobs.response, custom_id=acts(bobs.response)[0]["custom_id"])
    await world.settle()
    assert any(m.raw_mentions == [world.cat.id] for m in world.bot_messages())
    assert not world.bot.notifier.live.watching(world.require_table().id, str(world.cat.id))


async def test_show_my_hand_while_the_start_view_is_drawn_leaves_one_view(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cat presses Show my hand while the bot draws the view it sends her at the start: that
    view is not sent after hers, and hers is the one kept up to date."""
    held, real = hold_open(world, monkeypatch, world.cat.id)
    drawn, go_on = asyncio.Event(), asyncio.Event()
    draw = notifier_module.hand_message

    async def drawing(*args: Any, **kwargs: Any) -> Any:
        message = await draw(*args, **kwargs)
        if args[1].seat == 2 and not drawn.is_set():  # Cat's view at the start, drawn: she presses Show my hand
            drawn.set()
            await go_on.wait()
        return message

    monkeypatch.setattr(notifier_module, "hand_message", drawing)
    await start_three(world)
    assert len(held) == 1
    sending = asyncio.ensure_future(real(held[0]))
    await drawn.wait()
    cats = await show_hand(world, world.cat)
    go_on.set()
    await sending
    await world.settle()
    assert [m.id for m in cats_views(world)] == [cats.response.id]
    bobs = sent_view(world, world.bob, world.table_message().id)
    assert bobs is not None
    await world.bob.click(bobs.response, custom_id=acts(bobs.response)[0]["custom_id"])
    await world.settle()
    assert "Your turn" in embed_text(cats.response) and choices(cats.response)


async def test_a_start_view_failing_without_an_http_error_leaves_the_hand_to_a_dm(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The connection drops as the views go out at the start (not an HTTP error): each player's
    hand comes by DM, nobody counts as watching a view that does not exist, and Cat is pinged
    when her turn comes."""

    async def dropped(self: discord.Webhook, *args: Any, **kwargs: Any) -> Any:
        raise aiohttp.ClientOSError(104, "Connection reset by peer")

    monkeypatch.setattr(discord.Webhook, "send", dropped)
    await start_three(world)
    table = world.require_table()
    for person in (world.ann, world.bob, world.cat):
        assert len(world.dms(person)) == 1 and "Your hand:" in world.dms(person)[0].content
        assert not world.bot.notifier.live.watching(table.id, str(person.id))
