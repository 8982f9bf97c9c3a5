"""Real games of the catalogue through the simulated Discord: people at every seat, every choice
made through Show my hand and its menus (two steps where a game offers hundreds of choices),
public optional acts from the table message, every message within Discord's limits."""

from __future__ import annotations

import pytest

from bot.discord.limits import embed_problems
from games.registry import game_ids
from tests.bot.discord.conftest import (
    World,
    choose_in_hand,
    components_of,
    custom_ids,
    embed_text,
    only_ephemeral,
    reply_text,
    show_hand,
    start_game,
)
from tests.bot.discord.live_play import sent_view

GAMES = [("parity", 2), ("hoodwink", 3), ("spec", 3), ("ninety_nine", 3), ("costly_colours", 2)]


def available(game_id: str) -> bool:
    try:
        return game_id in game_ids()
    except Exception:  # a game module being written right now
        return False


async def play(world: World, game_id: str, players: int, max_turns: int | None) -> dict[str, int]:
    table = await start_game(world, game_id, players)
    start = int(world.table_message().id)
    sent = [sent_view(world, a, start) for a in [world.ann, world.bob, world.cat][:players]]
    counts = {"turns": 0, "two_step": 0, "public": 0, "deals": 0, "sent": sum(v is not None for v in sent)}
    seen_messages: set[str | None] = set()
    while world.table is not None and (max_turns is None or counts["turns"] < max_turns):
        assert table.state is not None
        message = world.table_message()
        seen_messages.add(table.message_id)
        assert not embed_problems(message.embeds[0]), embed_problems(message.embeds[0])
        public = [c for c in components_of(message) if str(c.get("custom_id", "")).startswith("parlour:pub:")]
        if public and counts["public"] < 2:
            label = public[0]["label"]
            awaited = table.state.awaiting()
            seat = next(
                s
                for s in range(players)
                if s not in awaited and any(a.label() == label for a in table.state.legal_actions(s))
            )
            done = await world.actor(table.seats[seat].user_id).click(
                message, custom_id=public[0]["custom_id"]
            )
            assert only_ephemeral(done) and f"You chose {label}." in reply_text(done), reply_text(done)
            counts["public"] += 1
            continue
        seat = min(table.state.awaiting())
        actor = world.actor(table.seats[seat].user_id)
        hand = await show_hand(world, actor)
        assert hand.response is not None and not embed_problems(hand.response.embeds[0])
        note, followed = await choose_in_hand(actor, hand, pick=counts["turns"] % 3)
        assert note.startswith("You chose"), note
        counts["two_step"] += any(v.startswith("g") for v in followed)
        counts["turns"] += 1
    counts["deals"] = len(seen_messages)
    if world.table is None:
        final = world.message(table.message_id)
        assert "final result" in embed_text(final) and not custom_ids(final)
        records = await world.bot.store.results(str(world.guild.id))
        assert len(records) == 1 and records[0]["rated"]
    else:
        await world.ann.slash(world.channel, "abandon")
    return counts


@pytest.mark.parametrize(("game_id", "players"), GAMES)
async def test_real_game_through_discord(world: World, game_id: str, players: int) -> None:
    if not available(game_id):
        pytest.skip(f"{game_id} is not in the catalogue yet")
    counts = await play(world, game_id, players, max_turns=30)
    assert counts["turns"] > 0
    people = [world.ann, world.bob, world.cat][:players]
    if game_id == "spec":  # nothing is private in Spec (the grid is face down for everyone): no DMs
        assert not any(world.dms(a) for a in people)
    else:  # every person got their hand at the first deal in a view sent to them, not by DM
        assert not any(world.dms(a) for a in people) and counts["sent"] == players
    if game_id == "spec":
        assert counts["two_step"] > 0  # calls are chosen cell first, then the call
        assert counts["public"] > 0  # a challenge, offered on the table message


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "players"), GAMES)
async def test_real_game_to_the_end(world: World, game_id: str, players: int) -> None:
    if not available(game_id):
        pytest.skip(f"{game_id} is not in the catalogue yet")
    world.env.settle_timeout = 30.0
    await play(world, game_id, players, max_turns=None)
    assert world.table is None
