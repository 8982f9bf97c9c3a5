"""Referee mode through the simulated Discord: /referee hoodwink from the bid cards to a scored deal
with Confirm and Undo, and /referee spec through predictions, calls and the cards turned up, with
a challenge upheld inside its window and one refused after it."""

from __future__ import annotations

import pytest
import simcord

from bot.settings import GuildSettings
from bot.tables import SeatEntry, TableError, User
from games.cards import card
from games.engine import Action
from games.hoodwink import Bid
from games.referee.spec import RefereeSpecState, TurnedUp
from games.referee.trick_totals import TricksWon
from games.spec import Call, Challenge, Predict
from tests.bot.conftest import stored_actions
from tests.bot.discord.conftest import (
    GUILD_ID,
    World,
    components_of,
    embed_text,
    labels,
    note_of,
    only_ephemeral,
    reply_text,
    selects,
)


async def open_referee(world: World, game: str, options: str) -> None:
    players = f"<@{world.ann.id}> <@{world.bob.id}> <@{world.cat.id}>"
    opened = await world.ann.slash(world.channel, "referee", game=game, players=players, options=options)
    assert opened.response is not None and not opened.response.ephemeral
    assert labels(world.table_message()) == ["Make an entry", "Type an entry", "Confirm last entry", "Undo last entry"]


async def open_entries(world: World, actor: simcord.MemberActor) -> simcord.InteractionResult:
    shown = await actor.click(world.table_message(), label="Make an entry")
    assert shown.response is not None and shown.response.ephemeral
    return shown


async def pick_in(actor: simcord.MemberActor, shown: simcord.InteractionResult, path: tuple[str, ...]) -> str:
    """Follow ``path`` (groups, then the entry's label) through the ephemeral entry menus, as a
    player would: open a group whose name is on the path, until the entry itself is offered.
    Returns the note shown afterwards."""
    wanted = path[-1]
    for _ in range(6):
        message = shown.response
        assert message is not None
        comps = components_of(message)
        button = [c for c in comps if c.get("type") == 2 and c.get("label") == wanted]
        if button:
            await actor.click(message, custom_id=button[0]["custom_id"])
            return note_of(shown.response)
        options = [(s, o) for s in selects(message) for o in s["options"]]
        leaf = [(s, o) for s, o in options if o["label"] == wanted]
        group = [(s, o) for s, o in options if o["value"].startswith("g") and o["label"] in path[:-1]]
        chosen = leaf or group
        assert chosen, f"{wanted!r} is not offered: {[o['label'] for _, o in options]}"
        select, option = chosen[0]
        await actor.select(message, [option["value"]], custom_id=select["custom_id"])
        if leaf:
            return note_of(shown.response)
    raise AssertionError(f"could not reach {path}")


def seat_entry(world: World, seat: int, entry: Action) -> SeatEntry:
    table = world.require_table()
    return SeatEntry(seat=seat, name=table.seats[seat].name, entry=entry)


async def enter(world: World, actor: simcord.MemberActor, seat: int, entry: Action) -> str:
    """``actor`` opens Make an entry and enters ``entry`` for ``seat``; returns the note."""
    wanted = seat_entry(world, seat, entry)
    return await pick_in(actor, await open_entries(world, actor), wanted.choice_path())


async def click_table(world: World, actor: simcord.MemberActor, label: str) -> str:
    result = await actor.click(world.table_message(), label=label)
    assert only_ephemeral(result)
    return reply_text(result)


# --- Hoodwink ----------------------------------------------------------------------------------------

ANN, BOB, CAT = 0, 1, 2


async def test_hoodwink_bid_cards_and_trick_counts_to_a_scored_deal(world: World) -> None:
    await world.bot.service.update_settings(str(GUILD_ID), GuildSettings(referee_confirmation=True))
    await open_referee(world, "hoodwink", "first_dealer=1")
    table = world.require_table()
    assert "Refereeing Hoodwink" in embed_text(world.table_message())

    # the bid cards, each confirmed by another player before the next entry
    note = await enter(world, world.ann, ANN, Bid(bid=card("AH")))
    assert note == "You chose ann: Bid A♥.", note
    refused = await enter(world, world.bob, BOB, Bid(bid=card("9H")))
    assert refused == "The last entry needs confirming by another player first (Confirm)."
    assert "Another player must confirm" in await click_table(world, world.ann, "Confirm last entry")
    assert "You confirmed the last entry." in await click_table(world, world.bob, "Confirm last entry")
    assert table.confirmed_by == [str(world.bob.id)]
    await enter(world, world.bob, BOB, Bid(bid=card("9H")))
    await click_table(world, world.cat, "Confirm last entry")
    shown = await open_entries(world, world.cat)  # a card already shown is not offered again
    offered = [o["label"] for s in selects(shown.response) for o in s["options"]]
    assert "cat: Bid A♥" not in offered and "cat: Bid 9♥" not in offered and "cat: Bid 7♥" in offered
    with pytest.raises(TableError, match="ann already showed the Ace of Hearts: the pack has only one."):
        await world.bot.service.act(
            str(GUILD_ID), str(world.channel.id), User(str(world.cat.id), "cat"), Bid(bid=card("AH")), seat=CAT
        )
    await pick_in(world.cat, shown, seat_entry(world, CAT, Bid(bid=card("7H"))).choice_path())
    await click_table(world, world.ann, "Confirm last entry")
    assert table.state is not None and table.state.deal_no == 1
    message = embed_text(world.table_message())
    assert "Partners: ann and cat; Hood: bob" in message, message
    assert "Next entry: the tricks taken by ann, bob, cat (they add up to 11)." in message

    # the trick counts: Cat's is wrong, she takes it back before anyone confirms it
    await enter(world, world.ann, ANN, TricksWon(tricks=4))
    await click_table(world, world.bob, "Confirm last entry")
    await enter(world, world.cat, CAT, TricksWon(tricks=3))
    assert "Only the player who made the last entry" in await click_table(world, world.bob, "Undo last entry")
    assert "The last entry is taken back." in await click_table(world, world.cat, "Undo last entry")
    assert (await stored_actions(world.bot.service, table))[-1][1] == TricksWon(tricks=4)
    assert len(table.confirmed_by) == 4
    assert "Trick counts: ann 4, bob (to enter), cat (to enter)" in embed_text(world.table_message())
    await enter(world, world.cat, CAT, TricksWon(tricks=4))
    await click_table(world, world.ann, "Confirm last entry")
    # Bob's count can only be 3 (they add up to 11): it is filled in, and the deal is scored
    assert table.state.scores == [14, 3, 14] and table.state.deal_no == 2
    message = embed_text(world.table_message())
    assert "Scores: ann 14, bob 3, cat 14" in message, message
    assert all(c is not None for c in table.confirmed_by)


# --- Spec --------------------------------------------------------------------------------------------


def spec_state(world: World) -> RefereeSpecState:
    state = world.require_table().state
    assert isinstance(state, RefereeSpecState)
    return state


async def call_turn(world: World, actor: simcord.MemberActor, cell: str, call: str, turned: str) -> None:
    """``actor`` enters the call of the player to move and then the card found at the cell."""
    state = spec_state(world)
    seat = state.to_move
    note = await enter(world, actor, seat, Call(cell=cell, call=card(call)))
    assert note.startswith("You chose "), note
    note = await enter(world, actor, seat, TurnedUp(turned=card(turned)))
    assert note.startswith("You chose "), note


async def test_spec_predictions_calls_and_challenges(world: World) -> None:
    await open_referee(world, "spec", "first_dealer=1")
    state = spec_state(world)
    for seat, prediction in ((ANN, "JC"), (BOB, "KD"), (CAT, "Joker")):
        note = await enter(world, world.bob, seat, Predict(prediction=card(prediction)))
        assert note.startswith("You chose "), note
    assert state.phase == "call" and state.deal.predictions == [card("JC"), card("KD"), card("Joker")]

    await call_turn(world, world.ann, "A1", "QH", "QH")  # Ann: the exact card, 4 scorecards
    assert state.view(None).deal_points[ANN] == 38
    # the card entered must be one nobody has seen: the Q♥ is refused at A2
    await enter(world, world.bob, BOB, Call(cell="A2", call=card("QH")))  # Bob names the Q♥: it is face up
    shown = await open_entries(world, world.bob)
    offered = [o["label"] for s in selects(shown.response) for o in s["options"]]
    assert "bob: Turned up Q♥" not in offered and "bob: Turned up Q♠" in offered
    await pick_in(world.bob, shown, seat_entry(world, BOB, TurnedUp(turned=card("QS"))).choice_path())
    assert state.view(None).deal_points[BOB] == 18  # rank: 2 scorecards, 9 and 9
    assert "Next entry: cat's call" in embed_text(world.table_message())

    # inside the window: Ann's challenge of call 2 is upheld, and she takes Bob's highest scorecard
    note = await enter(world, world.cat, ANN, Challenge(call_no=2))
    assert note == "You chose ann: Challenge call 2.", note
    upheld = state.log[-1].text
    assert upheld == "ann challenges call 2: bob called the Q♥, which was already face up. ann takes bob's 9 scorecard."
    assert [state.view(None).deal_points[s] for s in (ANN, BOB)] == [47, 9]

    # after the window: Cat's forbidden call 3 goes unchallenged until Ann's call closes its window
    await call_turn(world, world.cat, "A3", "QH", "2S")  # Cat names the face-up Q♥: forbidden again
    stale = await open_entries(world, world.bob)  # Bob's menu offers his challenge of call 3 ...
    stale_offered = [o["label"] for s in selects(stale.response) for o in s["options"]]
    assert "bob: Challenge call 3" in stale_offered, stale_offered
    await call_turn(world, world.ann, "A4", "AS", "AS")  # ... but Ann's call closes the window
    turn, before = state.turn, state.fingerprint()
    late = await pick_in(world.bob, stale, seat_entry(world, BOB, Challenge(call_no=3)).choice_path())
    # refused with the engine's own reason, not a generic "earlier turn"
    assert late == "Call 3 can no longer be challenged: the window closed when the next call was made.", late
    assert state.turn == turn and state.fingerprint() == before
    # typed straight to the table service, the game itself gives the reason
    service, bob = world.bot.service, User(str(world.bob.id), "bob")
    with pytest.raises(TableError, match="Call 3 can no longer be challenged: the window closed when the next call was made."):
        await service.act(str(GUILD_ID), str(world.channel.id), bob, Challenge(call_no=3), seat=BOB)
    assert state.turn == turn and state.fingerprint() == before
