"""Typing an entry or a move on Discord: the form behind "Type an entry" (referee tables) and
"Type it" (a private view with a long menu) reads what people write, and a refusal says what was
understood and why, and changes nothing."""

from __future__ import annotations

from games.cards import card
from games.engine import Action
from games.hoodwink import Bid
from games.notation import typed_form
from games.referee.hoodwink import TricksWon
from games.spec import Call
from tests.bot.discord.conftest import (
    World,
    choose_in_hand,
    embed_text,
    iter_fields,
    labels,
    only_ephemeral,
    reply_text,
    show_hand,
)


async def open_referee(world: World, game: str, options: str = "") -> None:
    players = f"<@{world.ann.id}> <@{world.bob.id}> <@{world.cat.id}>"
    opened = await world.ann.slash(world.channel, "referee", game=game, players=players, options=options)
    assert opened.response is not None
    assert "Type an entry" in labels(world.table_message())


async def entered(world: World) -> list[tuple[int, Action]]:
    """The stored entries, as (seat, entry)."""
    table = world.require_table()
    record = await world.bot.store.session(table.id)
    assert record is not None
    return [(seat, table.game.action_from_json(a)) for seat, a in record.actions]


async def type_in(world: World, actor: object, text: str, *, on: object = None, label: str = "Type an entry") -> object:
    form = await actor.click(on or world.table_message(), label=label)  # type: ignore[attr-defined]
    assert form.modal is not None, "no form opened"
    return await actor.submit_modal(form, {"entry": text})  # type: ignore[attr-defined]


async def test_referee_entries_typed_as_people_say_them(world: World) -> None:
    await open_referee(world, "hoodwink")
    table = world.require_table()
    assert table.state is not None
    # the three bid cards, typed in three notations, each for the typist's own seat or by name
    done = await type_in(world, world.ann, "kh")
    assert only_ephemeral(done) and "Entered ann: " in reply_text(done), reply_text(done)
    await type_in(world, world.ann, "bob: 10 of spades")
    await type_in(world, world.cat, "9♦")
    assert await entered(world) == [(0, Bid(bid=card("KH"))), (1, Bid(bid=card("10S"))), (2, Bid(bid=card("9D")))]
    # a wrong entry: what was understood and why it was refused; nothing changes
    turn, before = table.state.turn, table.state.fingerprint()
    refused = await type_in(world, world.bob, "bob: 12 tricks")
    assert only_ephemeral(refused) and "Nothing was entered." in reply_text(refused), reply_text(refused)
    assert table.state.turn == turn and table.state.fingerprint() == before
    # trick counts as numbers: a bare number is a count, never a list position
    await type_in(world, world.ann, "4")
    await type_in(world, world.bob, "3")
    assert (await entered(world))[-2:] == [(0, TricksWon(tricks=4)), (1, TricksWon(tricks=3))]


async def test_a_long_menu_offers_typing_the_move(world: World) -> None:
    lobby = (await world.ann.slash(world.channel, "play", game="spec")).response
    assert lobby is not None
    await world.bob.click(lobby, label="Join")
    await world.ann.click(lobby, label="Start")
    table = world.require_table()
    assert table.state is not None
    while table.state.phase == "predict":  # type: ignore[attr-defined]
        seat = min(table.state.awaiting())
        actor = world.actor(table.seats[seat].user_id)
        await choose_in_hand(actor, await show_hand(world, actor))
    seat = min(table.state.awaiting())
    actor = world.actor(table.seats[seat].user_id)
    view = await show_hand(world, actor)
    assert view.response is not None and "Type it" in labels(view.response)
    call = next(a for a in table.state.legal_actions(seat) if isinstance(a, Call))
    turn = table.state.turn
    typed = typed_form(call).replace("♠", "S").replace("♥", "H").replace("♦", "D").replace("♣", "C")
    done = await type_in(world, actor, typed, on=view.response, label="Type it")
    assert only_ephemeral(done) and "Entered " in reply_text(done), (typed, reply_text(done))
    assert table.state.turn > turn
    # a cell that is already turned up is refused with the game's reason
    before = table.state.fingerprint()
    seat = min(table.state.awaiting())
    other = world.actor(table.seats[seat].user_id)
    view = await show_hand(world, other)
    refused = await type_in(world, other, f"{call.cell} AS", on=view.response, label="Type it")
    assert "Nothing was entered." in reply_text(refused) and table.state.fingerprint() == before


async def test_the_table_sees_each_entry_confirmed_and_taken_back(world: World) -> None:
    await open_referee(world, "hoodwink")
    await type_in(world, world.ann, "kh")
    await world.bob.click(world.table_message(), label="Confirm last entry")
    await type_in(world, world.cat, "9d")
    await world.settle()
    entries = dict(iter_fields(world.table_message()))["Entries"]
    assert "#1 ann: Bid K♥ - entered by ann, confirmed by bob" in entries, entries
    assert "#2 cat: Bid 9♦ - entered by cat, not confirmed yet" in entries, entries
    await world.cat.click(world.table_message(), label="Undo last entry")
    await world.settle()
    message = world.table_message()
    entries = dict(iter_fields(message))["Entries"]
    assert "Taken back by cat: #2 Bid 9♦" in entries and "#2 cat" not in entries, entries
    recent = dict(iter_fields(message)).get("Recent", "")
    assert "cat took back the last entry" in recent and "cat bids" not in recent.lower(), recent
    assert "Make an entry" in embed_text(message) and "Show my hand" not in embed_text(message)


async def test_a_line_of_entries_is_one_entry_naming_each_player(world: World) -> None:
    await open_referee(world, "hoodwink")
    done = await type_in(world, world.bob, "ann AH bob 9H cat 7S")
    assert only_ephemeral(done) and "Entered ann Bid A♥, bob Bid 9♥, cat Bid 7♠." in reply_text(done), reply_text(done)
    assert len(await entered(world)) == 1  # one entry: undone or confirmed as one
    await world.settle()
    entries = dict(iter_fields(world.table_message()))["Entries"]
    assert "#1 ann Bid A♥, bob Bid 9♥, cat Bid 7♠ - entered by bob" in entries, entries


async def test_a_number_too_long_to_read_is_refused_in_words(world: World) -> None:
    """A number of many digits is refused as such (it once raised a plain error: "something went
    wrong"); the 200-character limit itself is re-checked by the reader for every transport (the
    console's test sends a longer line: the simulated form enforces its own limit)."""
    await open_referee(world, "hoodwink")
    table = world.require_table()
    assert table.state is not None
    turn, before = table.state.turn, table.state.fingerprint()
    for text in ("bob: 12345678901234 tricks", "9" * 200, "#" + "9" * 150):
        refused = await type_in(world, world.ann, text)
        said = reply_text(refused)
        assert only_ephemeral(refused) and "Nothing was entered." in said, said
        assert "too long a number" in said, said
    assert table.state.turn == turn and table.state.fingerprint() == before
    assert await entered(world) == []
