"""Referee mode, bot levels, hints and analysis through the simulated Discord."""

from __future__ import annotations

import pytest
import simcord

from games import advice
from games.engine import PlayCard
from games.registry import register_referee
from tests.bot.conftest import stored_actions
from tests.bot.discord.conftest import (
    World,
    choose_in_hand,
    embed_text,
    labels,
    only_ephemeral,
    reply_text,
)
from tests.bot.test_advice_service import toy_analysis, toy_hint
from tests.bot.toy_game import TOY

register_referee(TOY)  # the toy game doubles as its own referee game: every card is entered
advice.register_hinter("toy", toy_hint)
advice.register_analyser("toy", toy_analysis)


async def open_referee(world: World, players: str, options: str = "deals=1 first_dealer=3") -> None:
    opened = await world.ann.slash(world.channel, "referee", game="toy", players=players, options=options)
    assert opened.response is not None and not opened.response.ephemeral


async def enter(world: World, actor: simcord.MemberActor, pick: int = 0) -> str:
    shown = await actor.click(world.table_message(), label="Make an entry")
    assert shown.response is not None and shown.response.ephemeral
    note, _ = await choose_in_hand(actor, shown, pick)
    return note


async def test_referee_table_entries_confirm_undo_correct(world: World) -> None:
    await open_referee(world, f"<@{world.ann.id}> <@{world.bob.id}> Gus")
    table = world.require_table()
    assert table.mode == "referee" and [s.name for s in table.seats] == ["ann", "bob", "Gus"]
    assert table.seats[2].user_id is None  # a guest
    message = world.table_message()
    assert labels(message) == ["Make an entry", "Type an entry", "Confirm last entry", "Undo last entry"]
    assert "Refereeing Toy Tricks" in embed_text(message)

    # someone not at the table can neither enter nor confirm
    refused = await world.cat.click(message, label="Make an entry")
    assert only_ephemeral(refused) and "Only the players at this table" in reply_text(refused)

    # Bob enters the first card (for Ann, who leads after the dealer Gus): menus name the player
    note = await enter(world, world.bob)
    assert note.startswith("You chose ann: "), note
    assert table.state is not None and table.state.turn == 1 and table.actors == [str(world.bob.id)]

    own = await world.bob.click(world.table_message(), label="Confirm last entry")
    assert "Another player must confirm" in reply_text(own)
    confirmed = await world.ann.click(world.table_message(), label="Confirm last entry")
    assert "You confirmed the last entry." in reply_text(confirmed)
    assert table.confirmed_by == [str(world.ann.id)]

    await enter(world, world.ann)  # Bob's card
    assert table.state.turn == 2
    undone = await world.ann.click(world.table_message(), label="Undo last entry")
    assert "taken back" in reply_text(undone) and table.state.turn == 1

    # the host corrects entry 1: the choices come from autocomplete, as typed
    first = (await stored_actions(world.bot.service, table))[0][1]
    choices = await world.ann.autocomplete(world.channel, "correct", "choice", "", entry=1)
    assert choices and all(c["name"] for c in choices)
    other = next(c for c in choices if first.label() not in c["name"])
    not_host = await world.bob.slash(world.channel, "correct", entry=1, choice=other["value"])
    assert "Only the host or a moderator" in reply_text(not_host)
    fixed = await world.ann.slash(world.channel, "correct", entry=1, choice=other["value"])
    assert "Entry 1 is now" in reply_text(fixed), reply_text(fixed)
    entry = (await stored_actions(world.bot.service, table))[0][1]
    assert entry != first and isinstance(entry, PlayCard)


async def test_referee_names_with_commas_and_unknown_games(world: World) -> None:
    refused = await world.ann.slash(world.channel, "referee", game="toy", players="  ")
    assert "Name the players" in reply_text(refused)
    await open_referee(world, f"Ann Smith, <@{world.bob.id}>", "deals=1")
    assert [s.name for s in world.require_table().seats] == ["Ann Smith", "bob"]
    choices = await world.ann.autocomplete(world.channel, "referee", "game", "toy")
    assert [c["value"] for c in choices] == ["toy"]


async def test_add_bot_offers_levels(world: World) -> None:
    lobby = (await world.ann.slash(world.channel, "play", game="toy")).response
    assert lobby is not None
    chooser = await world.ann.click(lobby, label="Add bot")
    assert chooser.response is not None and chooser.response.ephemeral
    assert labels(chooser.response)[:3] == ["Random", "Easy", "Strong"]
    await world.ann.click(chooser.response, label="Strong")
    table = world.require_table()
    assert [s.bot for s in table.seats] == [None, "strong"]
    assert "strong bot takes a seat" in (chooser.response.content or "")


async def test_hint_and_analysis(world: World) -> None:
    lobby = (await world.ann.slash(world.channel, "play", game="toy", options="hints=true first_dealer=2")).response
    assert lobby is not None
    await world.bob.click(lobby, label="Join")
    await world.ann.click(lobby, label="Start")
    table = world.require_table()
    assert table.state is not None
    mover = world.actor(table.seats[min(table.state.awaiting())].user_id)
    waiter = world.bob if mover is world.ann else world.ann
    hinted = await mover.slash(world.channel, "hint")
    assert only_ephemeral(hinted) and "could play" in reply_text(hinted)
    assert "nothing to choose" in reply_text(await waiter.slash(world.channel, "hint"))
    early = await world.cat.slash(world.channel, "analyse")
    assert only_ephemeral(early) and "No deal has finished yet" in reply_text(early)
    # play the first deal out through Show my hand, then anyone may see its analysis
    while table.state is not None and table.state.deal_no == 1:
        seat = min(table.state.awaiting())
        actor = world.actor(table.seats[seat].user_id)
        shown = await actor.click(world.table_message(), label="Show my hand")
        await choose_in_hand(actor, shown)
    analysed = await world.cat.slash(world.channel, "analyse", deal=1)
    assert only_ephemeral(analysed) and "Deal 1 of" in reply_text(analysed)
    assert "The first card lost 1. The toy judges every opening lead a mistake." in reply_text(analysed)  # its verdict


@pytest.mark.parametrize("game", ["fifty_one"])
async def test_games_without_hints_say_so(world: World, game: str) -> None:
    lobby = (await world.ann.slash(world.channel, "play", game=game)).response
    assert lobby is not None
    await world.bob.click(lobby, label="Join")
    await world.ann.click(lobby, label="Start")
    assert "There are no hints for Fifty-One" in reply_text(await world.ann.slash(world.channel, "hint"))
