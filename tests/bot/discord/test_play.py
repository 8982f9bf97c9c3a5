"""A game of the toy through a simulated Discord: lobby, DMs, ephemeral hands, refusals, the end."""

from __future__ import annotations

import discord
import simcord

from bot.discord.context import CLOSED
from bot.discord.embeds import NOT_YOUR_TURN
from bot.discord.limits import embed_problems, legible
from bot.discord.notifier import ABANDONED_VIEW
from bot.discord.play import STALE_HAND
from tests.bot.discord.conftest import (
    World,
    acts,
    choose_in_hand,
    custom_ids,
    embed_text,
    iter_fields,
    labels,
    lobby_lapses,
    note_of,
    only_ephemeral,
    play_turn,
    raw_component,
    reply_text,
    response,
    selects,
    show_hand,
    start_game,
)
from tests.bot.discord.live_play import sent_view


async def open_toy(world: World, options: str = "first_dealer=2") -> simcord.InteractionResult:
    result = await world.ann.slash(world.channel, "play", game="toy", options=options)
    assert result.response is not None and not result.response.ephemeral
    return result


async def started_toy(world: World, options: str = "first_dealer=2", lapsed: bool = False) -> None:
    """Ann opens a toy table, Bob joins, Ann starts it (with ``lapsed``, a quarter of an hour
    after Bob joined: his view is not sent at the start)."""
    lobby = (await open_toy(world, options)).response
    assert lobby is not None
    await world.bob.click(lobby, label="Join")
    if lapsed:
        await lobby_lapses(world)
    await world.ann.click(lobby, label="Start")


async def test_whole_game_from_play_to_final_scores(world: World) -> None:
    lobby = (await open_toy(world, "first_dealer=2 deals=2")).response
    assert lobby is not None
    assert "Toy Tricks" in embed_text(lobby) and "Deals: 2" in embed_text(lobby)
    assert labels(lobby) == ["Join", "Leave", "Add bot", "Options", "Start", "Cancel"]
    assert all(cid.startswith("parlour:lobby:") for cid in custom_ids(lobby))

    join = await world.bob.click(lobby, label="Join")
    assert join.acknowledged and not join.followups
    assert f"<@{world.bob.id}>" in embed_text(world.message(lobby.id))

    await world.ann.click(lobby, label="Start")
    await world.settle()
    table = world.require_table()
    first_message = world.table_message()
    assert first_message.id != lobby.id
    assert "Deal 1" in embed_text(first_message) and labels(first_message) == ["Show my hand"]
    retired = world.message(lobby.id)
    assert not custom_ids(retired) and "started" in embed_text(retired)
    assert [len(world.dms(a)) for a in (world.ann, world.bob)] == [0, 0]  # their hands are below instead
    for person in (world.ann, world.bob):
        sent = sent_view(world, person, first_message.id)
        assert sent is not None and "Your hand" in embed_text(sent.response)

    messages_seen = {first_message.id}
    while world.table is not None:
        note, _ = await play_turn(world)
        assert note.startswith("You chose ")
        if world.table is not None:
            messages_seen.add(world.table_message().id)
            assert not embed_problems(world.table_message().embeds[0])
    # a new deal re-posts the table message; the old one loses its buttons and shows how its deal ended
    assert len(messages_seen) == 2
    old = world.message(first_message.id)
    assert not custom_ids(old) and "deal 1 is over" in embed_text(old) and "Scores:" in embed_text(old)
    assert "wins the trick" in embed_text(old)  # the last trick of the deal
    # and it keeps its picture of the table (issue 28, point 3)
    assert [a.filename for a in old.attachments] == ["table.png"]
    assert str(old.embeds[0].image.url).endswith("table.png")
    # both players had their private view open when deal 2 began: it showed the new hand, no DM
    assert [len(world.dms(a)) for a in (world.ann, world.bob)] == [0, 0]

    final = world.message(table.message_id)
    text = embed_text(final)
    assert "final result" in text and not custom_ids(final)
    result = dict(iter_fields(final))["Result"]
    assert result.startswith("1st") and "ann" in result and "bob" in result
    assert not any(line[:1].isdigit() and line[1:3] == ". " for line in result.splitlines())  # no Markdown list
    records = await world.bot.store.results(str(world.guild.id))
    assert len(records) == 1 and records[0]["rated"]
    assert sum(p.score for p in records[0]["players"]) == 12


async def test_lobby_refusals_are_ephemeral(world: World) -> None:
    lobby = (await open_toy(world)).response
    assert lobby is not None
    second = await world.bob.slash(world.channel, "play", game="toy")
    assert only_ephemeral(second) and "already has a table" in reply_text(second)
    start_alone = await world.ann.click(lobby, label="Start")
    assert only_ephemeral(start_alone) and "not 1" in reply_text(start_alone)
    not_host = await world.cat.click(lobby, label="Start")
    assert only_ephemeral(not_host) and "Only the host" in reply_text(not_host)
    options = await world.cat.click(lobby, label="Options")
    assert only_ephemeral(options) and "Only the host can change the options" in reply_text(options)
    leave = await world.cat.click(lobby, label="Leave")
    assert only_ephemeral(leave) and "not seated" in reply_text(leave)
    cancel = await world.bob.click(lobby, label="Cancel")
    assert only_ephemeral(cancel) and "Only the host" in reply_text(cancel)
    bad = await world.cat.slash(world.guild.create_text_channel("other"), "play", game="chess")
    assert only_ephemeral(bad) and "no game called 'chess'" in reply_text(bad)
    bad_option = await world.cat.slash(
        world.guild.channels["other"], "play", game="toy", options="deals=many"
    )
    assert only_ephemeral(bad_option) and "deals" in reply_text(bad_option)

    await world.ann.click(lobby, label="Cancel")
    assert world.table is None
    closed = world.message(lobby.id)
    assert "cancelled" in embed_text(closed) and not custom_ids(closed)
    again = await open_toy(world)  # the channel is free again
    assert again.response is not None and world.table is not None


async def test_options_menu_and_form(world: World) -> None:
    lobby = (await open_toy(world)).response
    assert lobby is not None
    shown = await world.ann.click(lobby, label="Options")
    menu = shown.response
    assert menu is not None and menu.ephemeral
    assert labels(menu) == ["Numbers and text"]  # the toy's options are all numbers
    form = await world.ann.click(menu, label="Numbers and text")
    assert form.modal is not None
    saved = await world.ann.submit_modal(form, {"option:deals": "1", "option:first_dealer": ""})
    assert saved.acknowledged and not saved.followups
    table = world.require_table()
    assert table.options.model_dump() == {"first_dealer": None, "deals": 1, "hints": False}
    assert "Deals: 1" in embed_text(world.message(lobby.id))
    assert note_of(response(shown)) == "Options saved."

    form = await world.ann.click(response(shown), label="Numbers and text")
    refused = await world.ann.submit_modal(form, {"option:deals": "lots"})
    assert only_ephemeral(refused) and "deals" in reply_text(refused)
    assert table.options.model_dump()["deals"] == 1


async def test_option_selects_of_a_real_game(world: World) -> None:
    result = await world.ann.slash(world.channel, "play", game="parity")
    lobby = result.response
    assert lobby is not None
    shown = await world.ann.click(lobby, label="Options")
    menu = shown.response
    assert menu is not None
    assert len(selects(menu)) == 4 and "Next" in labels(menu)  # five yes/no and choice options: two pages
    no_trump = next(s for s in selects(menu) if "no_trump" in s.get("placeholder", ""))
    await world.ann.select(menu, ["true"], custom_id=no_trump["custom_id"])
    assert world.require_table().options.no_trump is True  # type: ignore[attr-defined]
    assert "no_trump is now true" in note_of(response(shown))
    assert "No trump: on" in embed_text(world.message(lobby.id))
    await world.ann.click(response(shown), label="Next")
    assert any("lurch_values" in s.get("placeholder", "") for s in selects(response(shown)))
    form = await world.ann.click(response(shown), label="Numbers and text")
    await world.ann.submit_modal(form, {"option:first_dealer": "2"})
    assert world.require_table().options.first_dealer == 2  # type: ignore[attr-defined]


async def test_play_refusals(world: World) -> None:
    await started_toy(world)
    table = world.require_table()
    assert table.state is not None and table.state.awaiting() == {0}

    outsider = await world.cat.click(world.table_message(), label="Show my hand")
    assert only_ephemeral(outsider) and "not playing at this table" in reply_text(outsider)

    waiting = await show_hand(world, world.bob)  # not Bob's turn: his cards, no choices
    assert waiting.response is not None and not custom_ids(response(waiting))
    assert NOT_YOUR_TURN in embed_text(response(waiting)) and "Your hand: " in embed_text(response(waiting))

    first = await show_hand(world, world.ann)
    second = await show_hand(world, world.ann)
    note, _ = await choose_in_hand(world.ann, first)
    assert note.startswith("You chose")
    turn = table.turn
    # the second copy of Ann's hand is from an earlier turn: refused politely, and refreshed
    await world.ann.click(response(second), custom_id=acts(response(second))[0]["custom_id"])
    assert note_of(response(second)) == STALE_HAND and table.turn == turn
    assert f"turn {turn}" in embed_text(response(second))

    # Bob must follow suit: his view offers exactly the cards he may play (a button each), no illegal card
    bob = await show_hand(world, world.bob)
    assert not selects(response(bob))
    assert table.state is not None
    legal = [a.label() for a in table.state.legal_actions(1)]
    assert [b["label"] for b in acts(response(bob))] == legal
    led = table.state.trick.cards[0].suit  # type: ignore[attr-defined]
    hand_cards = table.state.view(1).hand
    if any(c.suit == led for c in hand_cards):
        assert legal == [c.short for c in hand_cards if c.suit == led]
    else:
        assert len(legal) == len(hand_cards)
    # a forged choice (not in the view Bob was shown) changes nothing
    forged = raw_component(world, world.bob, response(bob), f"parlour:act:{table.id}:{table.turn}:99")
    await world.settle()
    assert forged.acknowledged and table.turn == turn
    assert note_of(response(bob)) == STALE_HAND

    # a /hand command is the same as the button
    hand = await world.bob.slash(world.channel, "hand")
    assert only_ephemeral(hand) and acts(response(hand))


async def test_public_optional_act_on_the_table_message(world: World) -> None:
    await started_toy(world, "first_dealer=1")  # Ann deals, Bob leads: Ann may knock meanwhile
    table = world.require_table()
    assert table.state is not None and table.state.awaiting() == {1}
    message = world.table_message()
    assert labels(message) == ["Show my hand", "Knock"]
    refused = await world.bob.click(message, label="Knock")
    assert only_ephemeral(refused) and "You cannot Knock now." in reply_text(refused)
    done = await world.ann.click(message, label="Knock")
    assert only_ephemeral(done) and "You chose Knock." in reply_text(done)
    assert table.state.knocked  # type: ignore[attr-defined]
    assert "ann knocks." in embed_text(world.table_message())
    assert labels(world.table_message()) == ["Show my hand"]  # knocked: the button went away


async def test_clicks_on_components_the_message_no_longer_shows(world: World) -> None:
    """A click sent just before an edit carries a custom id the message has lost: discord.py
    would drop it unanswered; the bot answers it (refused politely, or a fresh hand)."""
    await started_toy(world, "first_dealer=1")  # Bob leads; Ann, not awaited, may knock
    knock = next(c for c in custom_ids(world.table_message()) if c.startswith("parlour:pub:"))
    hand = await show_hand(world, world.bob)
    old_card = acts(response(hand))[-1]["custom_id"]
    await choose_in_hand(world.bob, hand)  # Bob plays: both messages are edited
    assert knock not in custom_ids(world.table_message())
    late_knock = raw_component(world, world.ann, world.table_message(), knock)
    await world.settle()
    assert only_ephemeral(late_knock) and "earlier turn" in reply_text(late_knock)
    late_card = raw_component(world, world.bob, response(hand), old_card)
    await world.settle()
    assert late_card.acknowledged and note_of(response(hand)) == STALE_HAND


async def test_dm_closed_player_is_told_once_and_plays_on(world: World) -> None:
    dm = world.bob.user.dm_channel
    world.env.inject_error(
        "POST",
        f"/channels/{dm.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages",
        times=None,
    )
    await started_toy(world, lapsed=True)
    while world.table is not None:
        await play_turn(world)
    told = [m for m in world.bot_messages() if "could not send you a DM" in m.content]
    assert len(told) == 1 and "Show my hand" in told[0].content
    assert told[0].raw_mentions == [world.bob.id]
    assert str(world.bob.id) in await world.bot.store.dm_closed_users()
    # Ann's view was sent to her at the start, and stayed open: no DM
    assert not world.dms(world.ann) and not world.dms(world.bob)


async def test_table_command_reposts(world: World) -> None:
    await started_toy(world)
    old = world.table_message()
    result = await world.cat.slash(world.channel, "table")
    assert result.response is not None and not result.response.ephemeral
    assert world.table_message().id == result.response.id != old.id
    assert not custom_ids(world.message(old.id))
    await play_turn(world)  # the new message is the one kept up to date


async def test_leave_in_play_hands_the_seat_to_a_bot(world: World) -> None:
    await started_toy(world)
    table = world.require_table()
    left = await world.bob.slash(world.channel, "leave")
    assert only_ephemeral(left) and "a bot plays your seat" in reply_text(left)
    assert any("left; a bot plays their seat" in m.content for m in world.bot_messages())
    while world.table is not None:
        await play_turn(world)
    records = await world.bot.store.results(str(world.guild.id))
    bob = next(p for p in records[0]["players"] if p.user_id == str(world.bob.id))
    assert bob.rank == 2  # the one who left ranks last
    # and the final table message says so too, whatever the bot playing his seat scored
    result = dict(iter_fields(world.message(table.message_id)))["Result"].splitlines()
    assert result[0].startswith("1st ") and "ann" in result[0]
    assert result[1].startswith("2nd ") and "bob" in result[1]


async def test_abandon_needs_host_or_manage_messages(world: World) -> None:
    await started_toy(world)
    message = world.table_message()
    refused = await world.bob.slash(world.channel, "abandon")
    assert only_ephemeral(refused) and "Only the host or a moderator" in reply_text(refused)
    done = await world.mod.slash(world.channel, "abandon")
    assert only_ephemeral(done) and world.table is None
    assert "abandoned" in embed_text(world.message(message.id)) and not custom_ids(world.message(message.id))
    after = (
        await world.ann.click(world.message(message.id), label="Show my hand")
        if labels(world.message(message.id))
        else None
    )
    assert after is None
    nothing = await world.ann.slash(world.channel, "hand")
    assert only_ephemeral(nothing) and "no table in this channel" in reply_text(nothing)


async def test_a_hand_from_a_closed_table_says_so(world: World) -> None:
    await started_toy(world)
    hand = await show_hand(world, world.ann)
    card = acts(response(hand))[0]["custom_id"]
    await world.ann.slash(world.channel, "abandon")
    await world.settle()
    assert response(hand).content == ABANDONED_VIEW and not custom_ids(response(hand))  # her open view says so
    late = raw_component(world, world.ann, response(hand), card)  # a click sent before it did
    await world.settle()
    assert late.acknowledged and response(hand).content == CLOSED and not custom_ids(response(hand))


async def test_information_commands(world: World) -> None:
    rules = await world.cat.slash(world.channel, "rules", game="toy")
    assert only_ephemeral(rules) and "Follow suit" in reply_text(rules) and "Deals: 2 as standard" in reply_text(rules)
    games = await world.cat.slash(world.channel, "games")
    assert only_ephemeral(games) and "`toy`" in reply_text(games)
    help_ = await world.cat.slash(world.channel, "help")
    assert only_ephemeral(help_) and "/play" in reply_text(help_)
    choices = await world.cat.autocomplete(world.channel, "play", "game", "toy")
    assert {"name": "Toy Tricks", "value": "toy"} in choices
    unknown = await world.cat.slash(world.channel, "rules", game="chess")
    assert only_ephemeral(unknown) and "no game called" in reply_text(unknown)


async def test_turn_timer_reminds_then_a_bot_plays(world: World) -> None:
    await started_toy(world)
    table = world.require_table()
    turn = table.turn
    await world.env.advance_time(125)
    reminder = [m for m in world.bot_messages() if (m.content or "").startswith(f"<@{world.ann.id}> It is your turn.")]
    assert len(reminder) == 1 and table.turn == turn
    await world.env.advance_time(480)
    assert table.turn > turn and not table.unrated  # the absent player ranks last instead
    assert [s.left_at for s in table.seats].count(turn) == 1
    assert "Time is up" in embed_text(world.table_message())


async def test_without_the_live_table_the_table_message_has_no_open_button(world: World) -> None:
    """Open the table is offered only when the host turned the live table on (tests/web)."""
    table = await start_game(world, "fifty_one", players=2)
    assert "Open the table" not in labels(world.table_message(table))


SUIT_STYLE = {"♠": discord.ButtonStyle.secondary, "♥": discord.ButtonStyle.danger,
              "♦": discord.ButtonStyle.primary, "♣": discord.ButtonStyle.success}  # fmt: skip


async def test_one_tap_a_card(world: World) -> None:
    """Ann leads: each card she may play is a button labelled with it in its suit's colour, and
    one tap plays it (one interaction, no menu)."""
    await started_toy(world)
    table = world.require_table()
    assert table.state is not None and table.state.awaiting() == {0}
    hand = await show_hand(world, world.ann)
    buttons = acts(response(hand))
    legal = table.state.legal_actions(0)
    assert not selects(response(hand)) and len(buttons) == len(legal)
    assert [legible(b["label"]) for b in buttons] == [legible(a.label()) for a in legal]  # the cards, then Knock
    cards = [a.card for a in legal if a.card is not None]
    assert len(cards) >= 3 and [b["label"] for b in buttons[len(cards) :]] == ["Knock"]
    for button, card in zip(buttons, cards, strict=False):
        assert button["style"] == SUIT_STYLE[card.short[-1]].value
    turn = table.turn
    tapped = await world.ann.click(response(hand), custom_id=buttons[2]["custom_id"])
    assert tapped.acknowledged and table.turn > turn
    assert note_of(response(hand)) == f"You chose {legal[2].label()}."
    assert f"ann plays {legal[2].label()}" in embed_text(world.table_message())


async def test_a_card_menu_of_an_earlier_version_still_plays(world: World) -> None:
    """A private view drawn before cards were buttons (a select, ``parlour:pick:``) still works."""
    await started_toy(world)
    table = world.require_table()
    assert table.state is not None
    hand = await show_hand(world, world.ann)
    card = table.state.legal_actions(0)[1]
    turn = table.turn
    old_menu = raw_component(world, world.ann, response(hand), f"parlour:pick:{table.id}:{turn}::0", ["a1"])
    await world.settle()
    assert old_menu.acknowledged and table.turn > turn
    assert note_of(response(hand)) == f"You chose {card.label()}."
