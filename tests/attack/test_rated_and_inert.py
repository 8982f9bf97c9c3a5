"""Attack findings 4-7 of issue 25 through SimCord and the table service: referee matches that
can be rated (and the unseated host who cannot rate an absent member), idling that does not pay,
CSV cells a spreadsheet cannot run, and names that cannot act (links, spoilers, mentions,
direction marks)."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Sequence
from typing import Any

import simcord

from games.registry import register_referee
from storage.query import Query
from tests.attack.conftest import AttackWorld
from tests.attack.support import open_table, snapshot
from tests.bot.discord.conftest import (
    choose_in_hand,
    embed_text,
    labels,
    only_ephemeral,
    play_turn,
    replies,
    reply_text,
)
from tests.bot.toy_game import TOY

register_referee(TOY)  # the toy game doubles as its own referee game: every card is entered

FORMULA = '=HYPERLINK("https://e.x";"x")'


async def open_referee(world: AttackWorld, players: str, host: simcord.MemberActor | None = None) -> None:
    opener = host or world.ann
    opened = await opener.slash(world.channel, "referee", game="toy", players=players, options="deals=1 first_dealer=1")
    assert opened.response is not None and not opened.response.ephemeral, opened


async def enter(world: AttackWorld, actor: simcord.MemberActor) -> None:
    shown = await actor.click(world.table_message(), label="Make an entry")
    assert shown.response is not None and shown.response.ephemeral
    await choose_in_hand(actor, shown, 0)


async def confirm(world: AttackWorld, actor: simcord.MemberActor) -> str:
    result = await actor.click(world.table_message(), label="Confirm last entry")
    return "\n".join(r.content or "" for r in replies(result))


async def test_export_csv_cells_cannot_start_a_formula(world: AttackWorld) -> None:
    await open_referee(world, f"<@{world.ann.id}> {FORMULA}")
    while world.table is not None:
        await enter(world, world.ann)
    exported = await world.cat.slash(world.channel, "export")
    files = replies(exported)[0].attachments
    rows = list(csv.DictReader(io.StringIO((await files[0].read()).decode())))
    guest = next(r for r in rows if "HYPERLINK" in r["player"])
    assert guest["player"].startswith("'=HYPERLINK(")  # a spreadsheet shows it as text
    assert all(not v.startswith(("=", "+", "@", "\t", "\r")) for r in rows for v in r.values())


# -- 4: referee matches that can be rated, and a host who is not seated rates nobody --------------


async def result_row(world: AttackWorld, session: int) -> tuple[bool, list[str], dict[str, int]]:
    """Whether a stored result is rated, why not, and each player's rank."""
    conn = world.bot.service.store.conn
    async with conn.execute(Query("SELECT rated, unrated FROM results WHERE session_id = :sid"), sid=session) as cur:
        row = await cur.fetchone()
    assert row is not None, "no result was recorded"
    async with conn.execute(Query("SELECT name, rank FROM result_players WHERE session_id = :sid"), sid=session) as cur:
        ranks = {r[0]: r[1] for r in await cur.fetchall()}
    return bool(row[0]), json.loads(row[1]), ranks


async def rated_members(world: AttackWorld) -> set[str]:
    async with world.bot.service.store.conn.execute(Query("SELECT DISTINCT user_id FROM ratings")) as cur:
        return {r[0] for r in await cur.fetchall()}


async def test_a_referee_match_confirmed_by_every_player_is_rated(world: AttackWorld) -> None:
    await open_referee(world, f"<@{world.ann.id}> <@{world.bob.id}>")
    table = world.require_table()
    pair = [world.ann, world.bob]
    i = 0
    while table.state is not None and not table.state.is_over:
        await enter(world, pair[i % 2])
        if not table.state.is_over:
            assert "You confirmed" in await confirm(world, pair[(i + 1) % 2])
        i += 1
    # the last entry ended the match: its result waits for the confirmation, which the buttons offer
    assert world.table is table and table.confirmed_by[-1] is None
    assert "Confirm last entry" in labels(world.table_message())
    assert "Confirm the last entry to record the result" in embed_text(world.table_message())
    assert any("once another player confirms the last entry" in (m.content or "") for m in world.bot_messages())
    refused = await pair[(i - 1) % 2].click(world.table_message(), label="Confirm last entry")
    assert "Another player must confirm" in "\n".join(r.content or "" for r in replies(refused))
    assert "You confirmed" in await confirm(world, pair[i % 2])
    assert world.table is None
    rated, unrated, ranks = await result_row(world, table.id)
    assert rated and unrated == [] and sorted(ranks) == ["ann", "bob"]
    assert await rated_members(world) == {str(world.ann.id), str(world.bob.id)}


async def test_an_unseated_hosts_entries_confirmed_by_one_accomplice_rate_nobody(world: AttackWorld) -> None:
    # Cat hosts without a seat and makes every entry; Ann confirms each; Bob never acts
    await open_referee(world, f"<@{world.ann.id}> <@{world.bob.id}>", host=world.cat)
    table = world.require_table()
    while world.table is not None:
        assert table.state is not None
        if not table.state.is_over:
            await enter(world, world.cat)
        assert "You confirmed" in await confirm(world, world.ann)
    rated, unrated, _ = await result_row(world, table.id)
    assert not rated and "a player at the referee table made or confirmed no entry" in unrated
    assert await rated_members(world) == set()


async def test_an_unconfirmed_ending_can_be_taken_back_and_abandon_records_it_unrated(world: AttackWorld) -> None:
    await open_referee(world, f"<@{world.ann.id}> <@{world.bob.id}>")
    table = world.require_table()
    while table.state is not None and not table.state.is_over:
        await enter(world, world.ann)
        if not table.state.is_over:
            await confirm(world, world.bob)
    last = table.turn
    assert labels(world.table_message()) == ["Confirm last entry", "Undo last entry"]  # no more entries
    undone = await world.ann.click(world.table_message(), label="Undo last entry")
    assert "taken back" in "\n".join(r.content or "" for r in replies(undone))
    assert not table.state.is_over and table.turn == last - 1
    await enter(world, world.ann)  # the last entry again
    assert table.state.is_over and world.table is table
    abandoned = await world.ann.slash(world.channel, "abandon")
    assert world.table is None, abandoned
    rated, unrated, _ = await result_row(world, table.id)
    assert not rated and unrated == ["referee-mode entries not confirmed"]
    async with world.bot.service.store.conn.execute(
        Query("SELECT status FROM sessions WHERE id = :sid"), sid=table.id
    ) as cur:
        assert (await cur.fetchone())[0] == "finished"  # type: ignore[index]


# -- 5: idling does not pay -------------------------------------------------------------------------


async def test_a_timed_out_seat_ranks_last_in_a_rated_result(world: AttackWorld) -> None:
    await open_table(world, "toy", "first_dealer=2 deals=1")
    table = world.require_table()
    assert table.state is not None and table.state.awaiting() == {0}  # Ann's turn; she idles
    turn = table.turn
    await world.env.advance_time(125)
    reminder = [m.content for m in world.bot_messages() if "It is your turn" in (m.content or "")]
    assert reminder and "you rank last" in reminder[0]
    await world.env.advance_time(480)
    assert table.turn > turn and table.seats[0].left_at == turn
    while world.table is not None:  # Ann comes back and both play the match out
        await play_turn(world)
    rated, unrated, ranks = await result_row(world, table.id)
    assert rated and unrated == [] and ranks == {"ann": 2, "bob": 1}


async def test_a_seated_host_cannot_abandon_a_rated_match_under_way(world: AttackWorld) -> None:
    await open_table(world, "toy", "first_dealer=1 deals=1")
    await play_turn(world)
    before = snapshot(world)
    refused = await world.ann.slash(world.channel, "abandon")
    assert only_ephemeral(refused) and "ending it would spare you its result" in reply_text(refused)
    assert snapshot(world) == before and world.table is not None
    await world.mod.slash(world.channel, "abandon")  # a moderator who is not playing can
    assert world.table is None


# -- 7: text that cannot act ------------------------------------------------------------------------

LINK = "[free](https://e.x)"
LIVE_LINK = re.compile(r"(?<!\\)\[free\]\(")  # a masked link Discord would render
LIVE_SPOILER = re.compile(r"(?<!\\)\|\|x(?<!\\)\|\|")
FLIP = "\u202e"


def raw_texts(message: Any) -> list[str]:
    """Every markdown text of a message as sent, before Discord renders it."""
    out = [message.content or ""]
    for e in message.embeds:
        out += [e.title or "", e.description or "", e.footer.text or ""]
        out += [f"{f.name}\n{f.value}" for f in e.fields]
    return out


def alt_texts(message: Any) -> list[str]:
    """The pictures' descriptions (plain text, read out by screen readers: no markdown)."""
    return [(a.get("description") if isinstance(a, dict) else a.description) or "" for a in message.attachments or []]


def assert_inert(texts: list[str], alt: Sequence[str] = ()) -> None:
    for text in texts:
        assert not LIVE_LINK.search(text), text
        assert not LIVE_SPOILER.search(text), text
    assert not [t for t in [*texts, *alt] if FLIP in t]


async def test_guest_and_member_names_show_as_literal_text(world: AttackWorld) -> None:
    eve = world.guild.add_member(world.env.create_user("eve"), nick=f"{FLIP}{LINK}")
    await open_referee(world, f"<@{world.ann.id}> <@{eve.id}> ||x||{FLIP}")
    table = world.require_table()
    assert [s.name for s in table.seats] == ["ann", LINK, "||x||"]  # no direction mark is kept
    for _ in range(4):  # entries by Eve and Ann; each name is in the table message
        await enter(world, eve)
        await confirm(world, world.ann)
    message = world.table_message()
    shown = embed_text(message)
    assert LINK in shown and "||x||" in shown  # what people read: the names as typed
    messages = world.bot_messages()
    assert_inert([t for m in messages for t in raw_texts(m)], [t for m in messages for t in alt_texts(m)])
    assert any(LINK in t for m in messages for t in alt_texts(m))  # the picture's description names Eve
    entries = await eve.click(message, label="Make an entry")
    assert entries.response is not None
    assert_inert(raw_texts(entries.response), alt_texts(entries.response))


async def test_refusals_that_echo_typed_text_ping_nobody(world: AttackWorld) -> None:
    typed = f"@everyone <@{world.bob.id}> <@&{world.guild.id}> {LINK}"
    refused = await world.cat.slash(world.channel, "play", game=typed)
    sent = replies(refused)
    assert sent and "no game called" in reply_text(refused)
    for reply in sent:
        stored = world.env.backend.get_message(reply.channel_id, reply.id)
        assert stored.ping_user_ids == [] and stored.ping_role_ids == [] and not stored.mention_everyone
    assert_inert([t for r in sent for t in raw_texts(r)])
