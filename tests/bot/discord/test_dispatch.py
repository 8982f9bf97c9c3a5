"""A click reaches its flow by its custom id alone (``bot.discord.strays.dispatch_component``),
once: discord.py's own dispatch of dynamic items is not used, so no view of ours may be tracked by
discord.py (a tracked one would register our items with it and have each click played twice)."""

from __future__ import annotations

from tests.bot.discord.conftest import World, acts, note_of, response, show_hand, start_game


async def test_a_click_is_answered_once_and_no_view_is_tracked(world: World) -> None:
    table = await start_game(world, "hundred", 3)  # each player's view sent as a followup at the start
    assert table.state is not None
    seat = min(table.state.awaiting())
    actor = world.actor(table.seats[seat].user_id)
    hand = await show_hand(world, actor)
    turn, start = table.turn, len(world.env.http_requests)
    tapped = await actor.click(response(hand), custom_id=acts(response(hand))[0]["custom_id"])
    await world.settle()
    assert tapped.acknowledged and table.turn == turn + 1
    assert note_of(response(hand)).startswith("You chose "), note_of(response(hand))
    answers = [e for e in world.env.http_requests[start:] if e.path.endswith("/callback")]
    assert len(answers) == 1, [e.path for e in answers]
    store = world.bot._connection._view_store
    assert not store._dynamic_items and not store.persistent_views
