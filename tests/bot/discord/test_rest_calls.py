"""Few calls to Discord for the same result (issue 28, point 10): a click is answered with what it
brings about (Start with the table message, Join with the lobby's update, a public act with its
reply) rather than acknowledged first and shown after, and a private view the table's change
leaves true is not touched. (``python -m tests.bench.bench_discord`` counts every game.)"""

from __future__ import annotations

from tests.bot.discord.conftest import (
    World,
    choose_in_hand,
    custom_ids,
    embed_text,
    labels,
    raw_component,
    reply_text,
    show_hand,
)

OPEN_TOY = "first_dealer=1"  # Ann deals, Bob leads


def calls_since(world: World, start: int) -> list[str]:
    """The bot's REST calls after its ``start``-th: method and path, ids and tokens left as they are."""
    return [f"{e.method} {e.path}" for e in world.env.http_requests[start:]]


def answers(calls: list[str]) -> list[str]:
    """The answers to interactions and their followups, among ``calls``."""
    return [c for c in calls if c.endswith("/callback") or "/webhooks/" in c]


async def test_start_is_answered_with_the_table_message_itself(world: World) -> None:
    """Ann presses Start: the one answer to her click is the new table message (the table's
    picture, Show my hand, the first player's ping), not an acknowledgement followed by a
    message of the bot's own. The lobby says the game went on below."""
    lobby = (await world.ann.slash(world.channel, "play", game="toy", options=OPEN_TOY)).response
    assert lobby is not None
    await world.bob.click(lobby, label="Join")
    await world.settle()
    before = len(world.env.http_requests)
    started = await world.ann.click(lobby, label="Start")
    await world.settle()
    table = world.require_table()
    message = started.response
    assert message is not None and not message.ephemeral and not started.deferred
    assert str(message.id) == table.message_id  # the answer is the table message, edited in play
    assert labels(world.table_message())[0] == "Show my hand" and world.table_message().attachments
    assert world.table_message().raw_mentions == [world.bob.id]  # Bob leads: pinged in it, once
    calls = calls_since(world, before)
    assert len([c for c in calls if c.endswith("/callback")]) == 1
    channel_posts = [c for c in calls if c == f"POST /channels/{world.channel.id}/messages"]
    assert channel_posts == []  # nothing posted besides the answer
    assert "The game has started" in embed_text(world.message(lobby.id))
    assert labels(world.message(lobby.id)) == []


async def test_join_is_answered_by_the_lobbys_own_update(world: World) -> None:
    """Bob presses Join: the answer to his click is the lobby showing him seated, in one call
    (no acknowledgement and then an edit of the bot's own)."""
    lobby = (await world.ann.slash(world.channel, "play", game="toy", options=OPEN_TOY)).response
    assert lobby is not None
    before = len(world.env.http_requests)
    joined = await world.bob.click(lobby, label="Join")
    await world.settle()
    assert f"<@{world.bob.id}>" in embed_text(world.message(lobby.id)) and not joined.deferred
    assert calls_since(world, before) == [c for c in calls_since(world, before) if c.endswith("/callback")]
    assert len(calls_since(world, before)) == 1


async def test_join_on_a_replaced_lobby_still_edits_the_lobby_below(world: World) -> None:
    """Cat reposts the lobby (/table); Bob's Join, sent from the old message before he saw it go,
    is acknowledged and shown in the lobby message now in use, not in the old one."""
    old = (await world.ann.slash(world.channel, "play", game="toy", options=OPEN_TOY)).response
    assert old is not None
    join = next(c for c in custom_ids(old) if c.endswith(":join"))
    await world.cat.slash(world.channel, "table")
    await world.settle()
    table = world.require_table()
    assert table.message_id != str(old.id)
    late = raw_component(world, world.bob, old, join)
    await world.settle()
    assert late.acknowledged and table.seat_of(str(world.bob.id)) is not None
    bob = f"<@{world.bob.id}>"
    assert bob in embed_text(world.table_message()) and bob not in embed_text(world.message(old.id))


async def test_a_view_the_move_leaves_true_is_not_edited(world: World) -> None:
    """Cat opens her view while Ann leads and Bob follows: her view (no choice, nobody named)
    stays true, so neither move costs a call on it; when her turn comes it is edited once."""
    lobby = (await world.ann.slash(world.channel, "play", game="toy", options="first_dealer=3")).response
    assert lobby is not None
    for person in (world.bob, world.cat):
        await person.click(lobby, label="Join")
    await world.ann.click(lobby, label="Start")
    await world.settle()
    cats = await show_hand(world, world.cat)
    token = next(c for c in calls_since(world, 0)[::-1] if c.endswith("/callback")).split("/")[-2]
    before = len(world.env.http_requests)
    await choose_in_hand(world.ann, await show_hand(world, world.ann))  # Ann leads: Bob's turn
    await world.settle()
    await choose_in_hand(world.bob, await show_hand(world, world.bob))  # Bob plays: Cat's turn
    await world.settle()
    edits = [c for c in calls_since(world, before) if token in c]
    assert len(edits) == 1  # only when her turn came, to show her choices
    assert "Your turn" in embed_text(cats.response)


async def test_a_quick_act_on_the_table_message_is_answered_in_one_call(world: World) -> None:
    """Ann knocks from the table message while Bob leads: one answer says what she chose, with
    no acknowledgement before it and no followup after."""
    lobby = (await world.ann.slash(world.channel, "play", game="toy", options=OPEN_TOY)).response
    assert lobby is not None
    await world.bob.click(lobby, label="Join")
    await world.ann.click(lobby, label="Start")
    await world.settle()
    table = world.require_table()
    assert table.state is not None and table.state.awaiting() == {1}  # Bob to play: Ann may knock
    before = len(world.env.http_requests)
    done = await world.ann.click(world.table_message(), label="Knock")
    await world.settle()
    assert "You chose Knock." in reply_text(done) and not done.deferred
    assert len(answers(calls_since(world, before))) == 1
