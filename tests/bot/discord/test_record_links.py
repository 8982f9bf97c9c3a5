"""Link buttons to the pages of record: on /leaderboard, /stats, /history and a finished match's
message, only when the host serves the pages (PARLOUR_PUBLIC_URL) and the server turned them on."""

from __future__ import annotations

from typing import Any

from bot.web.records.access import player_key
from storage.pages import pages_record
from tests.bot.discord.conftest import World, components_of, embed_text, replies
from tests.bot.discord.test_records_and_admin import admin, finish_toy

PUBLIC = "https://parlour.example.org"


def links(message: Any) -> dict[str, str]:
    return {c["label"]: c["url"] for c in components_of(message) if c.get("type") == 2 and c.get("url")}


def final_message(world: World) -> Any:
    return [m for m in world.bot_messages() if m.embeds and "final result" in embed_text(m)][-1]



async def test_no_links_unless_both_the_host_and_the_server_allow(world: World) -> None:
    await finish_toy(world, deals=1)
    assert links(final_message(world)) == {}
    world.bot.settings = world.bot.settings.model_copy(update={"public_url": PUBLIC})
    for command in ("leaderboard", "stats", "history"):  # the host serves pages, the server shows none
        assert links(replies(await world.ann.slash(world.channel, command))[0]) == {}


async def test_links_to_the_pages_when_on(world: World) -> None:
    world.bot.settings = world.bot.settings.model_copy(update={"public_url": PUBLIC})
    boss = admin(world)
    saved = await boss.slash(world.channel, "admin settings", pages=True)
    assert "Pages of record on the web: on" in embed_text(replies(saved)[0])
    match_id = await finish_toy(world, deals=1)
    guild = str(world.guild.id)
    assert links(final_message(world)) == {"Match page": f"{PUBLIC}/servers/{guild}/matches/{match_id}"}

    board = replies(await world.cat.slash(world.channel, "leaderboard", game="toy", period="week"))[0]
    assert links(board) == {"Leaderboard page": f"{PUBLIC}/servers/{guild}/games/toy?period=week"}
    record = await pages_record(world.bot.service.store.conn, guild)
    assert record is not None
    stats = replies(await world.cat.slash(world.channel, "stats", member=world.ann))[0]
    assert links(stats) == {"Player page": f"{PUBLIC}/servers/{guild}/players/{player_key(record.secret, str(world.ann.id))}"}
    assert str(world.ann.id) not in links(stats)["Player page"]
    unrated = replies(await world.cat.slash(world.channel, "stats"))[0]  # cat never played: the index
    assert links(unrated) == {"Player page": f"{PUBLIC}/servers/{guild}/"}
    history = replies(await world.cat.slash(world.channel, "history"))[0]
    assert links(history) == {"Server's pages": f"{PUBLIC}/servers/{guild}/"}
