"""Few calls to Discord for the same result (issue 28, point 10): a click is answered with what it
brings about (Start with the table message, Join with the lobby's update, a public act with its
reply; a start that mentions nobody else with the lobby made the table message) rather than
acknowledged first and shown after, and a private view the table's change
leaves true is not touched. (``python -m tests.bench.bench_discord`` counts every game.)"""

from __future__ import annotations

import pytest

from bot.discord.embeds import NOT_YOUR_TURN
from bot.discord.live import TOKEN_LIFETIME
from bot.discord.notifier import Job
from tests.bot.discord.conftest import (
    World,
    acts,
    choose_in_hand,
    custom_ids,
    embed_text,
    labels,
    raw_component,
    reply_text,
    show_hand,
)
from tests.bot.discord.live_play import LivePlay, choices, sent_view

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


async def start_three(world: World, options: str = OPEN_TOY) -> int:
    """Ann opens a toy table, Bob and Cat join, and Ann starts it (Bob leads): how many calls
    the bot had made before Start."""
    lobby = (await world.ann.slash(world.channel, "play", game="toy", options=options)).response
    assert lobby is not None
    for person in (world.bob, world.cat):
        await person.click(lobby, label="Join")
    before = len(world.env.http_requests)
    await world.ann.click(lobby, label="Start")
    await world.settle()
    return before


async def test_the_start_sends_each_player_their_view_in_the_channel(world: World) -> None:
    """Ann starts a table Bob and Cat joined: each of them finds their private view right below
    the table message, sent on their own click in the lobby (Start, Join), with no DM and no
    Show my hand to press: five calls in all (the answer, the lobby's last edit, three views). Bob, who leads, is pinged; Cat is told her hand is
    below. Bob leads in his view; Cat's, now her turn, shows her choices in place (one edit); she
    plays in it, and Ann's shows hers: nobody is pinged in a message of its own."""
    before = await start_three(world)
    table = world.require_table()
    calls = calls_since(world, before)
    assert len(calls) == 5 and len([c for c in calls if c.endswith("/callback")]) == 1
    assert len([c for c in calls if c.startswith("POST /webhooks/")]) == 3
    assert all(world.dms(p) == [] for p in (world.ann, world.bob, world.cat))
    start = world.table_message()
    assert start.raw_mentions == [world.bob.id, world.cat.id]
    assert "your hand is below" in (start.content or "") and "your turn" in (start.content or "")
    views = {p.id: sent_view(world, p, start.id) for p in (world.ann, world.bob, world.cat)}
    for person in (world.ann, world.bob, world.cat):
        view = views[person.id]
        assert view is not None and view.response.ephemeral
        others = [o for o in (world.ann, world.bob, world.cat) if o is not person]
        assert all(view.response.id not in [m.id for m in world.channel.history(viewer=o)] for o in others)
    bobs, cats = views[world.bob.id], views[world.cat.id]
    assert bobs is not None and cats is not None
    assert "Your turn" in embed_text(bobs.response) and choices(bobs.response)
    assert NOT_YOUR_TURN in embed_text(cats.response) and not choices(cats.response)
    assert "Your hand: " in embed_text(cats.response)
    before = len(world.env.http_requests)
    live = LivePlay(world)
    await live.move()  # Bob leads in the view sent to him: Cat's turn
    assert "Your turn" in embed_text(cats.response) and choices(cats.response)
    await live.move()  # Cat follows in hers: Ann's turn
    anns = views[world.ann.id]
    assert anns is not None and "Your turn" in embed_text(anns.response) and choices(anns.response)
    assert live.opened == 0 and live.interactions == 2
    calls = calls_since(world, before)
    assert [c for c in calls if c.startswith("POST /channels/")] == []  # no ping, no DM
    assert len([c for c in calls if c.startswith("PATCH /webhooks/") and not c.endswith("@original")]) == 2
    assert table.state is not None and table.state.awaiting() == {0}


async def test_a_lobby_click_too_old_for_a_view_leaves_the_hand_to_a_dm(world: World) -> None:
    """Bob joined fourteen minutes before Ann pressed Start: his click's token would lapse before
    a view could be of use, so his hand comes by DM, as before, and he is pinged when his turn
    comes. Cat and Ann, whose clicks are fresh, get their views in the channel."""
    lobby = (await world.ann.slash(world.channel, "play", game="toy", options=OPEN_TOY)).response
    assert lobby is not None
    await world.bob.click(lobby, label="Join")
    await world.env.advance_time(TOKEN_LIFETIME - 60)
    await world.cat.click(lobby, label="Join")
    await world.ann.click(lobby, label="Start")
    await world.settle()
    start = world.table_message()
    assert len(world.dms(world.bob)) == 1 and world.dms(world.cat) == [] and world.dms(world.ann) == []
    assert sent_view(world, world.bob, start.id) is None
    assert sent_view(world, world.cat, start.id) is not None and sent_view(world, world.ann, start.id) is not None
    assert start.raw_mentions == [world.bob.id, world.cat.id]  # Bob to play; Cat told her hand is below


async def test_a_view_discord_refuses_at_the_start_leaves_the_hand_to_a_dm(world: World) -> None:
    """Discord refuses the views sent at the start (their tokens gone): each player's hand comes
    by DM instead, as to anyone not watching, and nobody is left with a view that cannot update."""
    world.env.inject_error("POST", "/webhooks/*", status=404, code=10015, message="Unknown Webhook", times=3)
    await start_three(world)
    table = world.require_table()
    start = world.table_message()
    for person in (world.ann, world.bob, world.cat):
        assert sent_view(world, person, start.id) is None
        assert len(world.dms(person)) == 1 and "Your hand:" in world.dms(person)[0].content
        assert not world.bot.notifier.live.watching(table.id, str(person.id))


async def test_a_move_made_before_a_view_is_sent_is_in_that_view(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race: Cat's view is still on its way (Discord is slow: its job is held back here) when
    Bob, who leads, plays in his. Cat's turn has come meanwhile: her view, once out, is drawn as
    the table is then (her turn, her choices), with no second edit, no ping and no DM."""
    notifier = world.bot.notifier
    held: list[Job] = []
    real = notifier._open_view

    async def slow(job: Job) -> None:
        if job.users == (str(world.cat.id),) and not held:
            held.append(job)
            return
        await real(job)

    monkeypatch.setattr(notifier, "_open_view", slow)
    await start_three(world)
    start = world.table_message()
    bobs = sent_view(world, world.bob, start.id)
    assert bobs is not None and sent_view(world, world.cat, start.id) is None and len(held) == 1
    table = world.require_table()
    await world.bob.click(bobs.response, custom_id=acts(bobs.response)[0]["custom_id"])
    await world.settle()
    assert table.state is not None and table.state.awaiting() == {2}  # Cat's turn, her view not out
    assert world.dms(world.cat) == [] and not [m for m in world.bot_messages() if m.id > start.id]
    before = len(world.env.http_requests)
    await real(held[0])  # her view goes out now
    await world.settle()
    cats = sent_view(world, world.cat, start.id)
    assert cats is not None and "Your turn" in embed_text(cats.response) and choices(cats.response)
    calls = calls_since(world, before)
    assert len([c for c in calls if c.startswith("POST /webhooks/")]) == 1  # her view, once
    assert not [c for c in calls if c.startswith("PATCH /webhooks/") and not c.endswith("@original")]
    assert not [c for c in calls if c.startswith("POST /channels/")] and world.dms(world.cat) == []


async def test_a_start_that_tells_nobody_turns_the_lobby_into_the_table_message(world: World) -> None:
    """Ann starts a table she shares only with a bot: nobody else is to be told it began, so her
    click's one answer updates the lobby in place into the first deal's table message (picture,
    Show my hand), with no new message and no retiring edit of the lobby; her view comes below."""
    lobby = (await world.ann.slash(world.channel, "play", game="toy", options=OPEN_TOY)).response
    assert lobby is not None
    chooser = await world.ann.click(lobby, label="Add bot")
    assert chooser.response is not None
    await world.ann.click(chooser.response, label="Easy")
    await world.settle()
    before = len(world.env.http_requests)
    started = await world.ann.click(lobby, label="Start")
    await world.settle()
    table = world.require_table()
    assert table.message_id == str(lobby.id) and not started.deferred
    message = world.table_message()
    assert labels(message)[0] == "Show my hand" and message.attachments
    assert "The game has started" not in embed_text(message)
    calls = calls_since(world, before)
    answered = [e.json for e in world.env.http_requests[before:] if e.path.endswith("/callback")]
    assert len(answered) == 1 and answered[0]["type"] == 7  # UPDATE_MESSAGE: the lobby it was clicked on
    assert [c for c in calls if c.startswith("POST /channels/") or c.startswith("PATCH /channels/")] == []
    assert len([c for c in calls if c.startswith("POST /webhooks/")]) == 1  # her view, below it
    assert sent_view(world, world.ann, message.id) is not None
    live = LivePlay(world)
    await live.move()  # and play goes on in that message
    assert world.table_message().id == lobby.id and table.turn >= 1


async def test_a_start_that_tells_others_is_a_new_message_that_mentions_them(world: World) -> None:
    """With Bob and Cat seated, the start mentions them (Bob leads, Cat's hand is below): an
    edit would notify nobody, so the start is a new message, and the lobby says so above it."""
    lobby = (await world.ann.slash(world.channel, "play", game="toy", options=OPEN_TOY)).response
    assert lobby is not None
    for person in (world.bob, world.cat):
        await person.click(lobby, label="Join")
    await world.ann.click(lobby, label="Start")
    await world.settle()
    assert world.require_table().message_id != str(lobby.id)
    assert world.table_message().raw_mentions == [world.bob.id, world.cat.id]
    assert "The game has started" in embed_text(world.message(lobby.id)) and labels(world.message(lobby.id)) == []


async def test_start_from_a_replaced_lobby_posts_the_table_message_below(world: World) -> None:
    """Ann reposts her lobby (/table), then presses Start on the old one she still sees: the old
    message is not the lobby in use, so the table message is a new one and the lobby in use
    says the game went on below (neither lobby keeps its buttons)."""
    old = (await world.ann.slash(world.channel, "play", game="toy", options=OPEN_TOY)).response
    assert old is not None
    chooser = await world.ann.click(old, label="Add bot")
    assert chooser.response is not None
    await world.ann.click(chooser.response, label="Easy")
    start = next(c for c in custom_ids(world.message(old.id)) if c.endswith(":start"))
    await world.ann.slash(world.channel, "table")
    await world.settle()
    lobby = world.require_table().message_id
    raw_component(world, world.ann, old, start)
    await world.settle()
    table = world.require_table()
    assert table.state is not None and table.message_id not in (str(old.id), lobby)
    assert labels(world.table_message())[0] == "Show my hand"
    assert "The game has started" in embed_text(world.message(lobby))
    assert labels(world.message(lobby)) == [] and labels(world.message(old.id)) == []


async def test_a_repost_racing_the_start_leaves_one_table_message_with_buttons(world: World) -> None:
    """Ann presses Start (she and a bot: a start that may be made in place) and, before it is
    shown, asks for the table again (/table): whichever the bot takes first, one message ends
    with buttons, the newest, showing the game; the lobby keeps none and says the game started."""
    lobby = (await world.ann.slash(world.channel, "play", game="toy", options=OPEN_TOY)).response
    assert lobby is not None
    chooser = await world.ann.click(lobby, label="Add bot")
    assert chooser.response is not None
    await world.ann.click(chooser.response, label="Easy")
    await world.settle()
    start = next(c for c in custom_ids(world.message(lobby.id)) if c.endswith(":start"))
    raw_component(world, world.ann, lobby, start)  # in flight, not settled
    await world.ann.slash(world.channel, "table")
    await world.settle()
    table = world.require_table()
    assert table.state is not None and table.message_id is not None
    with_buttons = [m.id for m in world.bot_messages() if labels(m)]
    assert with_buttons == [int(table.message_id)] and with_buttons[0] == world.bot_messages()[-1].id
    assert labels(world.table_message())[0] == "Show my hand" and world.table_message().attachments
    lobby_now = embed_text(world.message(lobby.id))
    assert "The game has started" in lobby_now or world.message(lobby.id).attachments, lobby_now
