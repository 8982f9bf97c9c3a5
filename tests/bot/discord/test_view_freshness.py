"""A private view never says what is no longer true (issue 28, point 4): a waiting player's view
names nobody and shows no play (whose turn it is changes without redrawing it), and a view the
bot can no longer keep up to date says so in one line, with how to get a fresh one: at the
match's end and just before Discord's 15-minute token lapses."""

from __future__ import annotations

from bot.discord.embeds import NOT_YOUR_TURN
from bot.discord.live import MARGIN, TOKEN_LIFETIME
from bot.discord.notifier import FINISHED_VIEW, LAPSED_VIEW
from bot.settings import GuildSettings
from tests.bot.discord.conftest import World, custom_ids, embed_text, show_hand
from tests.bot.discord.live_play import LivePlay, choices, sent_view

NO_TIMERS = GuildSettings(turn_reminder_seconds=0, turn_timeout_seconds=0)


async def start(world: World, players: int, options: str = "") -> None:
    """Ann opens a Toy Tricks table; Bob (and Cat) join; Ann starts it (the last seat deals: Ann leads)."""
    options = options or f"first_dealer={players}"
    lobby = (await world.ann.slash(world.channel, "play", game="toy", options=options)).response
    assert lobby is not None
    for person in [world.bob, world.cat][: players - 1]:
        await person.click(lobby, label="Join")
    await world.ann.click(lobby, label="Start")
    await world.settle()


async def test_a_waiting_view_stays_true_while_the_turn_passes_between_others(world: World) -> None:
    """Cat opens her view while Ann leads; Ann plays, then it is Bob's turn: Cat's view, not
    redrawn, still says nothing false (it named nobody as awaited and showed no card of the
    trick). When her turn comes, it shows her choices."""
    await start(world, 3)
    table = world.require_table()
    cats = await show_hand(world, world.cat)
    text = embed_text(cats.response)
    assert NOT_YOUR_TURN in text and "Your hand: " in text and not choices(cats.response)
    assert "ann" not in text and "Trick:" not in text  # nothing the next move makes untrue
    live = LivePlay(world)
    await live.move()  # Ann leads: Bob's turn
    await world.settle()
    assert table.state is not None and table.state.awaiting() == {1}
    assert embed_text(cats.response) == text  # untouched, and still true
    await live.move()  # Bob plays: Cat's turn, and her view shows it
    await world.settle()
    assert "Your turn: choose below." in embed_text(cats.response) and choices(cats.response)
    assert "Trick: " in embed_text(cats.response)  # on her turn, the play she answers


async def test_open_views_say_the_match_is_over(world: World) -> None:
    """A one-deal match played through live views to its end: the view of every player who did
    not make the last move says in one line that it is out of date and where the result is."""
    await start(world, 3, "first_dealer=3 deals=1")
    live = LivePlay(world)
    mover = ""
    while (table := world.table) is not None:
        assert table.state is not None
        mover = str(table.seats[min(table.state.awaiting())].user_id)
        await live.move()
    assert set(live.views) == {str(p.id) for p in (world.ann, world.bob, world.cat)}
    for user_id, shown in live.views.items():
        message = shown.response
        assert message is not None
        if user_id != mover:
            assert message.content == FINISHED_VIEW and not message.embeds and not custom_ids(message)
    last = live.views[mover]  # the last mover's click is answered with the end itself
    assert last.response is not None and "The match is over." in embed_text(last.response)
    assert not custom_ids(last.response)


async def test_a_view_says_it_is_out_of_date_before_its_token_lapses(world: World) -> None:
    """Bob opens his view and leaves it; Ann opens hers and reopens it five minutes later. Just
    before Discord's 15 minutes are up, Bob's says, in one line, that it is out of date and how
    to get a fresh one, with no choice left on it; Ann's first view no longer counts (it is not
    her live view), and her second lapses fourteen minutes after its own opening. From then on
    Bob is pinged when his turn comes, as anyone without a live view is."""
    await world.bot.service.update_settings(str(world.guild.id), NO_TIMERS)
    await start(world, 2)
    bobs = await show_hand(world, world.bob)
    first = await show_hand(world, world.ann)
    assert NOT_YOUR_TURN in embed_text(bobs.response) and choices(first.response)
    await world.env.advance_time(300)
    second = await show_hand(world, world.ann)
    await world.env.advance_time(TOKEN_LIFETIME - MARGIN - 300 - 5)
    await world.settle()
    assert NOT_YOUR_TURN in embed_text(bobs.response)  # not yet
    await world.env.advance_time(10)
    await world.settle()
    message = bobs.response
    assert message is not None and message.content == LAPSED_VIEW
    assert not message.embeds and not custom_ids(message)
    assert first.response is not None and first.response.content != LAPSED_VIEW
    assert second.response is not None and choices(second.response)  # her turn, still offered
    table = world.require_table()
    assert not world.bot.notifier.live.watching(table.id, str(world.bob.id))
    await world.env.advance_time(300)
    await world.settle()
    assert second.response.content == LAPSED_VIEW and not custom_ids(second.response)
    await LivePlay(world).move()  # Ann leads (from a fresh view): Bob is pinged
    await world.settle()
    assert any(m.raw_mentions == [world.bob.id] for m in world.bot_messages())


async def test_a_view_sent_at_the_start_lapses_with_the_click_that_carried_it(world: World) -> None:
    """Bob joined ten minutes before Ann pressed Start: his view is sent on his Join's token,
    which has five minutes left, so it says it is out of date four minutes after the start (not
    fourteen), in the view itself: the lobby his Join answered and the table message are left as
    they are."""
    await world.bot.service.update_settings(str(world.guild.id), NO_TIMERS)
    lobby = (await world.ann.slash(world.channel, "play", game="toy", options="first_dealer=1")).response
    assert lobby is not None  # Ann deals, Bob leads
    await world.bob.click(lobby, label="Join")
    await world.env.advance_time(600)
    await world.ann.click(lobby, label="Start")
    await world.settle()
    start = world.table_message()
    bobs = sent_view(world, world.bob, start.id)
    assert bobs is not None and choices(bobs.response)  # Bob leads
    await world.env.advance_time(300 - MARGIN - 5)
    await world.settle()
    assert choices(bobs.response)  # not yet
    await world.env.advance_time(10)
    await world.settle()
    assert bobs.response.content == LAPSED_VIEW and not custom_ids(bobs.response)
    assert "started" in embed_text(world.message(lobby.id)) and world.table_message().id == start.id
    assert embed_text(world.table_message()) == embed_text(start) and custom_ids(world.table_message())
    anns = sent_view(world, world.ann, start.id)  # hers, sent on her Start, has ten minutes more
    assert anns is not None and anns.response.content != LAPSED_VIEW
    table = world.require_table()
    assert not world.bot.notifier.live.watching(table.id, str(world.bob.id))
    assert world.bot.notifier.live.watching(table.id, str(world.ann.id))
