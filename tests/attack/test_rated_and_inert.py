"""Attack findings 4-7 of issue 25 through SimCord and the table service: referee matches that
can be rated (and the unseated host who cannot rate an absent member), idling that does not pay,
CSV cells a spreadsheet cannot run, and names that cannot act (links, spoilers, mentions,
direction marks)."""

from __future__ import annotations

import csv
import io

import simcord

from games.registry import register_referee
from tests.attack.conftest import AttackWorld
from tests.bot.discord.conftest import choose_in_hand, replies
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
