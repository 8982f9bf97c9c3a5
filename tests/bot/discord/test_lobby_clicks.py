"""The lobby clicks kept for the views sent at the start (review finding 10): only clicks whose
change was made, none whose token has lapsed, each aged from when Discord created it."""

from __future__ import annotations

from bot.discord.live import MARGIN, TOKEN_LIFETIME
from bot.discord.notifier import LAPSED_VIEW
from bot.settings import GuildSettings
from tests.bot.discord.conftest import World, custom_ids, reply_text
from tests.bot.discord.live_play import choices, sent_view


def kept(world: World) -> set[str]:
    """Whose lobby clicks the bot keeps for the start."""
    return {user_id for (_, user_id) in world.bot.notifier.lobby_clicks}


async def test_a_refused_lobby_click_is_not_kept(world: World) -> None:
    """Cat presses Leave on a lobby she never joined, then /play in a channel that has a table:
    both are refused, and neither click is kept."""
    lobby = (await world.ann.slash(world.channel, "play", game="toy")).response
    assert lobby is not None
    left = await world.cat.click(lobby, label="Leave")
    assert "You are not seated at this table." in reply_text(left)
    again = await world.cat.slash(world.channel, "play", game="toy")
    assert "already has a table" in reply_text(again)
    assert kept(world) == {str(world.ann.id)}


async def test_a_lapsed_lobby_click_is_dropped(world: World) -> None:
    """Bob joins; sixteen minutes later Cat joins: Bob's click, whose token has lapsed, is no
    longer kept."""
    lobby = (await world.ann.slash(world.channel, "play", game="toy")).response
    assert lobby is not None
    await world.bob.click(lobby, label="Join")
    assert kept(world) == {str(world.ann.id), str(world.bob.id)}
    await world.env.advance_time(TOKEN_LIFETIME + 60)
    await world.cat.click(lobby, label="Join")
    assert kept(world) == {str(world.cat.id)}


async def test_a_click_handled_late_is_aged_from_its_creation(world: World) -> None:
    """Bob's Join is handled ten minutes after Discord created it (the bot was busy): the view
    sent on it at the start says it is out of date four minutes after the start, when its token
    runs out, not fourteen."""
    await world.bot.service.update_settings(str(world.guild.id), GuildSettings(turn_reminder_seconds=0, turn_timeout_seconds=0))
    lobby = (await world.ann.slash(world.channel, "play", game="toy", options="first_dealer=1")).response
    assert lobby is not None
    await world.bob.click(lobby, label="Join")
    notifier = world.bot.notifier
    key, join = next((k, v) for (k, u), v in notifier.lobby_clicks.items() if u == str(world.bob.id))
    del notifier.lobby_clicks[(key, str(world.bob.id))]
    await world.env.advance_time(600)
    with world.env.time_context():  # the Join handled only now
        notifier.release(key, notifier.respond_with(key, join, edits=True), True)
    await world.ann.click(lobby, label="Start")
    await world.settle()
    bobs = sent_view(world, world.bob, world.table_message().id)
    assert bobs is not None and choices(bobs.response)
    await world.env.advance_time(300 - MARGIN + 5)
    await world.settle()
    assert bobs.response.content == LAPSED_VIEW and not custom_ids(bobs.response)
