"""The pages of record over a real web server and a real SQLite file: what each page shows, that
a server without pages shows nothing (alike for an unknown one), that names stay off unless the
server allows them, that a hostile name is only ever text, and that nothing of a match in play
appears."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import aiohttp
import pytest

from bot.admin import SettingsChange, change_settings, settings_lines
from bot.web.records.access import player_key, player_label
from storage.pages import pages_record
from tests.web.conftest import GUILD, Site
from tests.web.records_data import GUILD_NAME, HOSTILE, fill, pages_on


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def get(http: aiohttp.ClientSession, site: Site, path: str) -> tuple[int, str]:
    async with http.get(site.url + path) as response:
        return response.status, await response.text()


def main_of(html: str) -> str:
    return html.split('<main id="main">', 1)[1].split("</main>", 1)[0]


def meta(html: str, prop: str) -> str:
    found = re.search(rf'<meta (?:property|name)="{re.escape(prop)}" content="([^"]*)">', html)
    assert found, prop
    return found.group(1)


async def test_pages_are_off_until_an_admin_turns_them_on(site: Site, http: aiohttp.ClientSession) -> None:
    ids = await fill(site.service.store, GUILD)
    status, off = await get(http, site, f"/servers/{GUILD}/")
    unknown_status, unknown = await get(http, site, "/servers/999999/")
    assert status == unknown_status == 404
    assert main_of(off) == main_of(unknown)  # nobody learns which servers use Parlour
    assert "Ann" not in off and GUILD_NAME not in off
    for path in ("games/parity", f"players/{'0' * 16}", "games/parity/board.png"):
        assert (await get(http, site, f"/servers/{GUILD}/{path}"))[0] == 404
    assert (await site.service.settings(GUILD)).pages is False

    await pages_on(site.service, GUILD, names=True)
    status, index = await get(http, site, f"/servers/{GUILD}/")
    assert status == 200
    body = main_of(index)
    assert GUILD_NAME in body and "Parity" in body and "Spec" in body
    assert f"/servers/{GUILD}/matches/{ids['abandoned']}" in body  # an ended match is listed...
    assert f"/matches/{ids['live']}" not in body  # ...one in play is not
    assert meta(index, "og:image").endswith(f"/servers/{GUILD}/games/parity/board.png")


async def test_the_setting_is_shown_logged_and_refused_nothing(site: Site) -> None:
    settings = await change_settings(site.service, GUILD, "101", SettingsChange(pages=True, guild_name="Den"))
    assert "Pages of record on the web: on" in settings_lines(settings)
    assert any(line.startswith("Pages show members' names: no") for line in settings_lines(settings))
    first = await pages_record(site.service.store.conn, GUILD)
    assert first is not None and first.guild_name == "Den"
    await change_settings(site.service, GUILD, "101", SettingsChange(pages=False))
    await change_settings(site.service, GUILD, "101", SettingsChange(pages=True, guild_name="Den 2"))
    again = await pages_record(site.service.store.conn, GUILD)
    assert again is not None and again.secret == first.secret  # labels and addresses stay put
    assert again.guild_name == "Den 2"


async def test_a_leaderboard_with_provisional_players_apart(site: Site, http: aiohttp.ClientSession) -> None:
    await fill(site.service.store, GUILD)
    await pages_on(site.service, GUILD, names=True)
    status, html = await get(http, site, f"/servers/{GUILD}/games/parity")
    assert status == 200
    body = main_of(html)
    assert "<caption>Parity: provisional players, best first</caption>" in body
    assert body.count('<th scope="col" class="num">Rank</th>') >= 1 and '<th scope="row">' in body
    names = re.findall(r'<th scope="row"><a href="[^"]+">([^<]+)</a></th>', body)
    assert names[0] == "Ann"  # most wins: highest rating
    assert set(names) == {"Ann", "Bob", "Cat", "&lt;script&gt;alert(1)&lt;/script&gt;"}
    assert meta(html, "og:title") == "Parity leaderboard - all time"
    assert meta(html, "og:description").startswith("Top: Ann (")
    assert "<caption>Parity: established players, best first</caption>" in body
    season = main_of((await get(http, site, f"/servers/{GUILD}/games/parity?period=season"))[1])
    assert '<span aria-current="page">Season 1</span>' in season
    assert (await get(http, site, f"/servers/{GUILD}/games/parity?period=fortnight"))[0] == 400
    assert (await get(http, site, f"/servers/{GUILD}/games/parity?page=7"))[0] == 404
    assert (await get(http, site, f"/servers/{GUILD}/games/no-such-game"))[0] == 404
    async with http.get(f"{site.url}/static/records.css") as response:
        assert response.status == 200 and response.content_type == "text/css"
    async with http.get(f"{site.url}/servers/{GUILD}/games/parity/board.png") as response:
        assert response.status == 200 and response.content_type == "image/png"
        assert (await response.read()).startswith(b"\x89PNG")


async def test_a_player_page(site: Site, http: aiohttp.ClientSession) -> None:
    await fill(site.service.store, GUILD)
    await pages_on(site.service, GUILD, names=True)
    record = await pages_record(site.service.store.conn, GUILD)
    assert record is not None
    status, html = await get(http, site, f"/servers/{GUILD}/players/{player_key(record.secret, '101')}")
    assert status == 200
    body = main_of(html)
    assert "<h1>Ann</h1>" in body
    assert "12 finished matches" in body  # 10 rated and 1 with a guest of Parity, 1 of Spec; not the abandoned one
    assert '<svg viewBox="0 0 600 200" role="img"' in body and "over 10 rated matches" in body
    rivals = re.findall(r'<tr><th scope="row"><a href="[^"]+">([^<]+)</a></th><td class="num">(\d+)</td>', body.split("Head to head")[1])
    assert rivals[0] == ("Bob", "10") and "Guest Gus" not in body  # a guest has no page and no row
    assert meta(html, "og:image").endswith("/rating.png")
    assert (await get(http, site, f"/servers/{GUILD}/players/{'f' * 16}"))[0] == 404
    assert (await get(http, site, f"/servers/{GUILD}/players/101"))[0] == 404  # never by Discord id


async def test_hostile_names_are_text(site: Site, http: aiohttp.ClientSession) -> None:
    await fill(site.service.store, GUILD)
    await pages_on(site.service, GUILD, names=True)
    record = await pages_record(site.service.store.conn, GUILD)
    assert record is not None
    pages = [
        f"/servers/{GUILD}/",
        f"/servers/{GUILD}/games/parity",
        f"/servers/{GUILD}/games/spec",
        f"/servers/{GUILD}/players/{player_key(record.secret, '104')}",
        f"/servers/{GUILD}/players/{player_key(record.secret, '101')}",
    ]
    for path in pages:
        status, html = await get(http, site, path)
        assert status == 200, path
        assert HOSTILE not in html and "<script" not in html, path
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, path


async def test_no_names_when_names_are_off(site: Site, http: aiohttp.ClientSession) -> None:
    await fill(site.service.store, GUILD)
    await pages_on(site.service, GUILD, names=False)
    record = await pages_record(site.service.store.conn, GUILD)
    assert record is not None
    ann = player_label(record.secret, "101")
    assert re.fullmatch(r"Player \d{4}", ann)
    pages = [f"/servers/{GUILD}/", f"/servers/{GUILD}/games/parity", f"/servers/{GUILD}/players/{player_key(record.secret, '101')}"]
    for path in pages:
        html = (await get(http, site, path))[1]
        for name in ("Ann", "Bob", "Cat", "alert(1)", "Guest Gus", GUILD_NAME):
            assert name not in html, (path, name)
        ids = ("101", "102", "103", "104")
        for key in (player_key(record.secret, user_id) for user_id in ids):
            html = html.replace(key, "")  # a player's address is 16 random hex digits: "a104f…" is no id
        for user_id in ids:
            assert not re.search(rf"(?<!\d){user_id}(?!\d)", html), (path, user_id)
    board = main_of((await get(http, site, f"/servers/{GUILD}/games/parity"))[1])
    assert ann in board and "This server" in board


def test_the_frame_escapes_every_field_and_tags_the_preview() -> None:
    from bot.web.records.shell import page

    html = page(
        title='Den "<b>"',
        description="a & b <i>",
        body="<p>ok</p>",
        url='https://x.example/servers/1/?a=1&b="2"',
        image="https://x.example/p.png?<x>",
        home="/servers/1/",
    )
    assert html.startswith("<!doctype html>") and '<html lang="en">' in html
    assert "<b>" not in html and "<i>" not in html and "<x>" not in html and 'b="2"' not in html
    assert '<meta property="og:title" content="Den &quot;&lt;b&gt;&quot;">' in html
    assert '<meta property="og:image" content="https://x.example/p.png?&lt;x&gt;">' in html
    assert '<meta name="twitter:card" content="summary_large_image">' in html
    assert '<nav aria-label="Pages of record">' in html and '<a href="/servers/1/">' in html
    assert "<script" not in html and '<link rel="stylesheet" href="/static/records.css">' in html
    plain = page(title="t", description="d", body="", url="https://x.example/")
    assert '<meta name="twitter:card" content="summary">' in plain and "og:image" not in plain
