"""Spec's challenge of a forbidden call through the simulated Discord: the Challenge button on
the table message inside the window, and a stale one after the window has closed."""

from __future__ import annotations

from bot.tables import User
from games.spec import Call, Predict
from tests.bot.discord.conftest import World, components_of, only_ephemeral, raw_component, reply_text


async def two_calls_the_second_forbidden(world: World) -> tuple[int, int]:
    """Ann, Bob and Cat predict, the first caller calls, the second repeats that call (forbidden).
    Returns (first caller's seat, second caller's seat). The first caller is not the one awaited
    next, so the Challenge is a public button on the table message (the awaited player finds
    theirs in their hand)."""
    lobby = (await world.ann.slash(world.channel, "play", game="spec")).response
    assert lobby is not None
    await world.bob.click(lobby, label="Join")
    await world.cat.click(lobby, label="Join")
    await world.ann.click(lobby, label="Start")
    table = world.require_table()
    service = world.bot.service
    key = (table.guild_id, table.channel_id)
    users = [User(str(a.id), a.user.name) for a in (world.ann, world.bob, world.cat)]
    assert table.state is not None
    while table.state.phase == "predict":  # type: ignore[attr-defined]
        seat = min(table.state.awaiting())
        predict = next(a for a in table.state.legal_actions(seat) if isinstance(a, Predict))
        await service.act(*key, users[seat], predict, table.state.turn)
    first = min(table.state.awaiting())
    call = next(a for a in table.state.legal_actions(first) if isinstance(a, Call))
    await service.act(*key, users[first], call, table.state.turn)
    second = min(table.state.awaiting())
    repeat = next(
        a for a in table.state.legal_actions(second) if isinstance(a, Call) and a.call == call.call
    )
    await service.act(*key, users[second], repeat, table.state.turn)
    await world.settle()
    return first, second


def challenge_button(world: World) -> dict[str, str]:
    found = [c for c in components_of(world.table_message()) if str(c.get("label", "")).startswith("Challenge")]
    assert found, "no Challenge button on the table message"
    return found[0]


async def test_challenge_inside_the_window_is_upheld(world: World) -> None:
    first, second = await two_calls_the_second_forbidden(world)
    table = world.require_table()
    assert table.state is not None
    button = challenge_button(world)
    assert button["label"] == "Challenge call 2"
    # the offender cannot challenge their own call
    own = await world.actor(table.seats[second].user_id).click(world.table_message(), custom_id=button["custom_id"])
    assert only_ephemeral(own) and "You cannot challenge your own call." in reply_text(own)
    turn = table.state.turn
    done = await world.actor(table.seats[first].user_id).click(world.table_message(), custom_id=button["custom_id"])
    assert only_ephemeral(done) and "You chose Challenge call 2." in reply_text(done)
    assert table.state.turn == turn + 1
    challenger, offender = table.seats[first].name, table.seats[second].name
    upheld = table.state.log[-1].text
    assert upheld.startswith(f"{challenger} challenges call 2: {offender} called"), upheld
    assert "straight after the same call" in upheld


async def test_challenge_after_the_window_is_refused(world: World) -> None:
    first, _second = await two_calls_the_second_forbidden(world)
    table = world.require_table()
    assert table.state is not None
    stale_message = world.table_message()
    button = challenge_button(world)
    # the third player calls, which closes the window on call 2
    third = min(table.state.awaiting())
    assert third not in (first, _second)
    caller = User(str(table.seats[third].user_id), table.seats[third].name)
    call = next(a for a in table.state.legal_actions(third) if isinstance(a, Call))
    await world.bot.service.act(table.guild_id, table.channel_id, caller, call, table.state.turn)
    await world.settle()
    turn, before = table.state.turn, table.state.fingerprint()
    late = raw_component(world, world.actor(table.seats[first].user_id), stale_message, button["custom_id"])
    await world.settle()
    # the engine's own reason, not a generic "earlier turn"
    assert only_ephemeral(late), reply_text(late)
    assert "Call 2 can no longer be challenged: the window closed when the next call was made." in reply_text(late)
    assert table.state.turn == turn and table.state.fingerprint() == before
