"""Discord failing under the bot: REST calls answered with 403, 404, 429 or 500 by the simulated
Discord (``env.inject_error``), while people play.

For each fault: the game still plays on to the next turn, every choice a player was told was taken
is in the database (and a new process restores exactly the game the old one held), and nothing
escapes the bot or is logged as an error (a failed call is logged as a warning, which these tests
expect by its status).
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from typing import Any

import pytest
import simcord

from tests.attack.conftest import AttackWorld
from tests.attack.support import open_table
from tests.bot.discord.conftest import components_of, custom_ids, embed_text, note_of, selects

HTTP_WARNINGS = r"HTTP (429|500|502|503)"


# -- a player's turn, told apart from what Discord did with it -------------------------------------------


def awaited(world: AttackWorld) -> simcord.MemberActor:
    table = world.require_table()
    assert table.state is not None
    seat = min(s for s in table.state.awaiting() if table.seats[s].bot is None)
    return world.actor(table.seats[seat].user_id)


async def take_turn(world: AttackWorld, acked: list[int]) -> bool:
    """The player to move opens their hand with /hand (the table message may be missing) and makes
    the first choice, opening menu groups as needed. Returns whether they were told "You chose";
    then the turn it was taken at goes into ``acked``."""
    table = world.require_table()
    turn = table.turn
    actor = awaited(world)
    hand = await actor.slash(world.channel, "hand")
    for _ in range(8):
        shown = hand.response
        if shown is None:
            return False
        buttons = [c for c in components_of(shown) if str(c.get("custom_id", "")).startswith("parlour:act:")]
        menus = [c for c in selects(shown) if str(c.get("custom_id", "")).startswith("parlour:pick:")]
        if menus:
            value = menus[0]["options"][0]["value"]
            await actor.select(shown, [value], custom_id=menus[0]["custom_id"])
            if value.startswith("g"):
                continue
        elif buttons:
            await actor.click(shown, custom_id=buttons[0]["custom_id"])
        else:
            return False
        told = hand.response is not None and note_of(hand.response).startswith("You chose")
        if told:
            acked.append(turn)
        return told
    return False


async def advance(world: AttackWorld, acked: list[int], tries: int = 6) -> bool:
    """Take turns until the game moves on (a fault may swallow a try); whether it did."""
    table = world.require_table()
    turn = table.turn
    for _ in range(tries):
        await take_turn(world, acked)
        if world.table is None or table.turn > turn:
            return True
    return False


async def nothing_lost(world: AttackWorld, acked: list[int]) -> None:
    """Every acknowledged choice is stored; the store holds the game exactly (a restart restores
    the same state, at the same turn)."""
    table = world.require_table()
    assert table.state is not None
    stored = world.stored_actions(table.id)
    assert [row[0] for row in stored] == list(range(table.turn)), "the stored actions are not the game's"
    assert set(acked) <= {row[0] for row in stored}, "a choice a player was told was taken is not stored"
    fingerprint, turn = table.state.fingerprint(), table.turn
    await world.restart()
    await world.ann.slash(world.channel, "hand")  # a look at the table (a restored one may be rebuilt on use)
    restored = world.require_table()
    assert restored.state is not None and restored.turn == turn
    assert restored.state.fingerprint() == fingerprint


def dm_notices(world: AttackWorld, actor: simcord.MemberActor) -> list[str]:
    return [
        m.content
        for m in world.bot_messages()
        if m.content.startswith(f"<@{actor.id}>") and "could not send you a DM" in m.content
    ]


# -- one fault at a time ---------------------------------------------------------------------------------


async def test_dm_refused_the_game_goes_on_and_the_player_is_told_once(world: AttackWorld) -> None:
    world.env.inject_error(
        "POST", f"/channels/{world.bob.user.dm_channel.id}/messages", status=403, code=50007,
        message="Cannot send messages to this user", times=None,
    )  # fmt: skip
    await open_table(world, "toy", "first_dealer=2 deals=3", lapsed=True)
    acked: list[int] = []
    assert dm_notices(world, world.bob) and not dm_notices(world, world.ann)
    assert not world.dms(world.ann) and not world.dms(world.bob)  # her view was sent at the start
    for _ in range(14):  # into the second deal: no second DM tried, no second notice
        assert await advance(world, acked)
    assert not world.dms(world.ann)  # her private view was open: it showed the new hand
    await nothing_lost(world, acked)  # a restart: the refusal is remembered
    for _ in range(12):  # into the third deal, with the new process
        assert await advance(world, acked)
    assert not world.dms(world.ann) and not world.dms(world.bob)
    assert len(dm_notices(world, world.bob)) == 1
    assert len(acked) == 26


async def test_a_deleted_table_message_is_posted_again_and_play_goes_on(world: AttackWorld) -> None:
    await open_table(world, "parity")
    acked: list[int] = []
    assert await advance(world, acked)
    table = world.require_table()
    gone = world.table_message()
    await world.mod.delete(gone)  # DELETE by a moderator: the next edit gets 404 Unknown Message
    assert await advance(world, acked)
    message = world.table_message()
    assert message.id != gone.id and "Show my hand" in [c.get("label") for c in components_of(message)]
    assert f"turn {table.turn}" in embed_text(message) or str(table.turn) in embed_text(message)
    hand = await awaited(world).click(message, label="Show my hand")  # the new message's buttons work
    assert hand.response is not None and custom_ids(hand.response)
    assert await advance(world, acked)
    assert world.table_message().id == message.id  # and it is the one kept up to date
    await nothing_lost(world, acked)


async def test_a_table_edit_answered_404_posts_the_table_again(world: AttackWorld) -> None:
    await open_table(world, "parity")
    acked: list[int] = []
    first = world.table_message()
    world.env.inject_error(
        "PATCH", f"/channels/{world.channel.id}/messages/{first.id}", status=404, code=10008,
        message="Unknown Message", times=1,
    )  # fmt: skip
    assert await advance(world, acked)
    assert world.table_message().id != first.id
    assert await advance(world, acked)
    await nothing_lost(world, acked)


@pytest.mark.parametrize("status", [429, 500])
async def test_a_failed_table_edit_is_survived(world: AttackWorld, status: int) -> None:
    """discord.py retries a 429 (and a 5xx) itself; one that still reaches the bot costs one edit:
    the table message lags a turn behind until the next change edits it."""
    world.expect_warnings(HTTP_WARNINGS)
    await open_table(world, "parity")
    acked: list[int] = []
    table = world.require_table()
    message = world.table_message()
    world.env.inject_error(
        "PATCH", f"/channels/{world.channel.id}/messages/{message.id}", status=status, times=1
    )
    assert await advance(world, acked)
    assert table.turn == 1 and "turn 0" in embed_text(world.table_message())  # the edit was lost
    assert await advance(world, acked)
    assert world.table_message().id == message.id and "turn 2" in embed_text(world.table_message())
    await nothing_lost(world, acked)


@pytest.mark.parametrize("status", [429, 500])
async def test_a_failed_post_at_a_new_deal_is_survived(world: AttackWorld, status: int) -> None:
    """The new deal's table message cannot be posted: the old message carries on."""
    world.expect_warnings(HTTP_WARNINGS)
    await open_table(world, "toy", "first_dealer=2 deals=2")
    acked: list[int] = []
    first = world.table_message()
    for _ in range(11):  # the first deal but its last card
        assert await advance(world, acked)
    world.env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=status, times=1)
    assert await advance(world, acked)  # the last card: the repost for the second deal fails
    assert world.env.backend.faults == []
    assert await advance(world, acked)
    assert world.require_table().message_id == str(first.id)
    assert "Show my hand" in [c.get("label") for c in components_of(world.table_message())]
    await nothing_lost(world, acked)


@pytest.mark.parametrize("status", [429, 500])
async def test_a_failed_answer_to_a_click_is_survived(world: AttackWorld, status: int) -> None:
    """Discord refuses the answer to a choice (the refreshed view): the player is not told, but
    the choice counts, once, and the game goes on."""
    world.expect_warnings(HTTP_WARNINGS)
    await open_table(world, "parity")
    acked: list[int] = []
    table = world.require_table()
    actor = awaited(world)
    hand = await actor.slash(world.channel, "hand")
    assert hand.response is not None
    choice = components_of(hand.response)[0]
    world.env.inject_error("POST", "/interactions/*/callback", status=status, times=1)
    if choice["type"] == 3:
        clicked = await actor.select(
            hand.response, [choice["options"][0]["value"]], custom_id=choice["custom_id"]
        )
    else:
        clicked = await actor.click(hand.response, custom_id=choice["custom_id"])
    assert world.env.backend.faults == [] and not clicked.acknowledged
    assert table.turn == 1 and len(world.stored_actions(table.id)) == 1
    assert await advance(world, acked)  # the other player moves on
    await nothing_lost(world, acked)


async def test_a_dm_that_fails_with_500_counts_as_delivered(world: AttackWorld) -> None:
    """A passing failure is not a closed DM: the player is not marked unreachable."""
    world.expect_warnings(HTTP_WARNINGS)
    world.env.inject_error("POST", f"/channels/{world.bob.user.dm_channel.id}/messages", status=500, times=1)
    await open_table(world, "toy", "first_dealer=2 deals=2")
    acked: list[int] = []
    assert not dm_notices(world, world.bob)
    for _ in range(13):
        assert await advance(world, acked)
    # the second deal's hand showed in his open private view; he is not marked unreachable
    assert str(world.bob.id) not in await world.bot.store.dm_closed_users()
    await nothing_lost(world, acked)


async def test_a_dm_refusal_whose_notice_fails_is_told_later(world: AttackWorld) -> None:
    world.expect_warnings(HTTP_WARNINGS)
    dm = world.bob.user.dm_channel.id
    world.env.inject_error("POST", f"/channels/{dm}/messages", status=403, code=50007, times=None)
    # the first two posts in the channel at the start: the table message, then the notice
    world.env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=500, times=2)
    await open_table(world, "toy", "first_dealer=2 deals=3", lapsed=True)
    acked: list[int] = []
    for _ in range(26):  # two more deals: two more chances to tell him
        assert await advance(world, acked)
    assert str(world.bob.id) in await world.bot.store.dm_closed_users()
    assert len(dm_notices(world, world.bob)) == 1


# -- faults at random ------------------------------------------------------------------------------------


@dataclass
class FaultFigures:
    injected: int = 0
    triggered: int = 0
    survived: int = 0
    turns: int = 0
    games: int = 0
    by_route: dict[str, int] = field(default_factory=dict)
    stuck: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (
            f"faults injected: {self.injected}; triggered: {self.triggered}; survived: {self.survived}; "
            f"turns played: {self.turns}; games finished: {self.games}; stuck: {len(self.stuck)}"
        )


def routes(world: AttackWorld) -> list[tuple[str, str, str]]:
    channel, dms = world.channel.id, [world.ann.user.dm_channel.id, world.bob.user.dm_channel.id]
    return [
        ("table edit", "PATCH", f"/channels/{channel}/messages/*"),
        ("channel post", "POST", f"/channels/{channel}/messages"),
        ("click answer", "POST", "/interactions/*/callback"),
        ("followup", "POST", "/webhooks/*"),
        ("original edit", "PATCH", "/webhooks/*/messages/@original"),
        ("DM", "POST", f"/channels/{random.Random(channel).choice(dms)}/messages"),
        ("DM channel", "POST", "/users/@me/channels"),
    ]


async def random_faults(world: AttackWorld, turns: int, seed: int) -> FaultFigures:
    world.expect_warnings(HTTP_WARNINGS, r"DM to \d+ (failed|timed out)")
    rng = random.Random(seed)
    figures = FaultFigures()
    acked: list[int] = []
    faults = world.env.backend.faults
    await open_table(world, "toy", "first_dealer=2 deals=2")
    while figures.turns < turns:
        if world.table is None:
            figures.games += 1
            acked = []
            await open_table(world, "toy", "first_dealer=2 deals=2")
        injected: list[tuple[str, dict[str, Any], int]] = []
        for _ in range(rng.choice([0, 1, 1, 2])):
            name, method, path = rng.choice(routes(world))
            status = rng.choice([403, 404, 429, 500, 502, 503])
            times = rng.choice([1, 1, 2, 3])
            world.env.inject_error(method, path, status=status, times=times)
            injected.append((name, faults[-1], times))
            figures.injected += 1
            figures.by_route[name] = figures.by_route.get(name, 0) + 1
        moved = await advance(world, acked, tries=8)
        for _name, fault, times in injected:
            left = fault["times"] if fault in faults else 0
            if left < times:
                figures.triggered += 1
                figures.survived += moved
            if fault in faults:
                faults.remove(fault)
        if not moved:
            figures.stuck.append(f"turn {world.require_table().turn}: {[n for n, _, _ in injected]}")
            await world.cat.slash(world.channel, "table")  # what a player would do: show the table again
            assert await advance(world, acked, tries=3), figures.stuck[-1]
        figures.turns += 1
        if world.table is not None and rng.random() < 0.05:
            await nothing_lost(world, acked)
    if world.table is not None:
        await nothing_lost(world, acked)
    return figures


async def test_random_faults_short(world: AttackWorld) -> None:
    figures = await random_faults(world, turns=30, seed=3)
    assert figures.triggered > 5 and figures.survived == figures.triggered and not figures.stuck


@pytest.mark.slow
async def test_random_faults_long(world: AttackWorld) -> None:
    turns = int(os.environ.get("PARLOUR_FAULT_TURNS", "600"))
    seed = int(os.environ.get("PARLOUR_FAULT_SEED", "20240601"))
    figures = await random_faults(world, turns=turns, seed=seed)
    print(f"\nDiscord faults (seed {seed}): {figures.line()}")
    print("by route: " + ", ".join(f"{k} {v}" for k, v in sorted(figures.by_route.items())))
    assert figures.survived == figures.triggered and not figures.stuck, figures.stuck[:10]
