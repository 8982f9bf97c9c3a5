"""The live table's server, driven as browsers would drive it: log-in through Discord (a stand-in),
a socket per tab, frames per viewer, moves, and each way a hostile member might try it."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import aiohttp
import pytest

from bot.tables import TableService
from bot.web.sessions import WebUser
from games.cards import Card
from tests.playout import known_cards, visible_cards
from tests.web.conftest import CHANNEL, GUILD, INSTANCE_ID, USERS, Site, Tab, log_in, open_tab, user


async def start_table(service: TableService, game_id: str = "fifty_one", players: tuple[str, ...] = ("ann", "bob")) -> None:
    await service.open_table(GUILD, CHANNEL, user(players[0]), game_id, ["first_dealer=1"])
    for name in players[1:]:
        await service.join(GUILD, CHANNEL, user(name))
    await service.start(GUILD, CHANNEL, user(players[0]))


async def activity_tab(http: aiohttp.ClientSession, site: Site, name: str) -> Tab:
    site.stand_in.in_instance.add(name)
    session = await log_in(http, site, name)
    return await open_tab(http, site, {"session": session, "instance": INSTANCE_ID})


def frame_cards(data: Any) -> list[Card]:
    """Every card a frame names, wherever it lies (the frame's own card objects)."""
    out: list[Card] = []
    if isinstance(data, dict):
        if {"code", "rank", "suit", "name"} <= data.keys():
            out.append(Card.parse(str(data["code"])))
        for value in data.values():
            out.extend(frame_cards(value))
    elif isinstance(data, list):
        for value in data:
            out.extend(frame_cards(value))
    return out


def assert_no_leak(site: Site, frame: dict[str, Any], seat: int | None) -> None:
    table = site.service.table(GUILD, CHANNEL)
    assert table is not None and table.state is not None
    allowed = visible_cards(table.state, seat) + known_cards(table.state)
    shown = Counter(frame_cards(frame))
    hidden = {c for c in shown if c not in allowed}
    assert not hidden, f"a frame for seat {seat} shows hidden cards {sorted(map(str, hidden))}"


async def test_an_activity_tab_gets_its_own_seat_view_and_a_spectator_the_public_one(site: Site) -> None:
    await start_table(site.service)
    async with aiohttp.ClientSession() as http:
        ann, bob, eve = [await activity_tab(http, site, n) for n in ("ann", "bob", "eve")]
        frames = {name: await tab.next() for name, tab in (("ann", ann), ("bob", bob), ("eve", eve))}
    table = site.service.table(GUILD, CHANNEL)
    assert table is not None and table.state is not None
    assert frames["ann"]["seat"] == 0 and frames["bob"]["seat"] == 1 and frames["eve"]["seat"] is None
    assert [c["code"] for c in frames["ann"]["hand"]] == [c.code for c in table.state.view(0).hand]
    assert frames["eve"]["hand"] == [] and frames["eve"]["choices"] == []
    assert_no_leak(site, frames["ann"], 0)
    assert_no_leak(site, frames["bob"], 1)
    assert_no_leak(site, frames["eve"], None)
    awaited = table.state.awaiting()
    mover = frames["ann"] if 0 in awaited else frames["bob"]
    assert mover["choices"] and all(c["card"] is not None for c in mover["choices"])


async def test_a_click_moves_the_table_and_every_viewer_gets_one_frame(site: Site) -> None:
    await start_table(site.service)
    async with aiohttp.ClientSession() as http:
        tabs = {n: await activity_tab(http, site, n) for n in ("ann", "bob", "eve")}
        first = {n: await t.next() for n, t in tabs.items()}
        table = site.service.table(GUILD, CHANNEL)
        assert table is not None and table.state is not None
        mover = "ann" if 0 in table.state.awaiting() else "bob"
        turn = table.turn
        choice = first[mover]["choices"][0]
        await tabs[mover].send({"act": {"turn": turn, "choice": choice["i"]}})
        after = {n: await t.next() for n, t in tabs.items()}
        assert all(f["turn"] > turn for f in after.values())
        assert all([await t.quiet() for t in tabs.values()]), "more than one frame per viewer for one move"
        assert choice["card"]["code"] in {c.code for c in table.state.view(None).layout().cards()}


async def test_a_move_made_elsewhere_reaches_the_browser(site: Site) -> None:
    await start_table(site.service)
    async with aiohttp.ClientSession() as http:
        eve = await activity_tab(http, site, "eve")
        before = await eve.next()
        table = site.service.table(GUILD, CHANNEL)
        assert table is not None and table.state is not None
        (seat,) = table.state.awaiting()
        name = ("ann", "bob")[seat]
        action = site.service.hand(GUILD, CHANNEL, user(name)).legal[0]
        await site.service.act(GUILD, CHANNEL, user(name), action, table.turn)  # as the Discord button would
        after = await eve.next()
    assert after["turn"] == before["turn"] + 1


async def test_a_stale_move_is_refused_and_changes_nothing(site: Site) -> None:
    await start_table(site.service)
    async with aiohttp.ClientSession() as http:
        tabs = {n: await activity_tab(http, site, n) for n in ("ann", "bob")}
        first = {n: await t.next() for n, t in tabs.items()}
        table = site.service.table(GUILD, CHANNEL)
        assert table is not None and table.state is not None
        mover = "ann" if 0 in table.state.awaiting() else "bob"
        stale = first[mover]["turn"] - 1
        await tabs[mover].send({"act": {"turn": stale, "choice": 0}})
        answer = await tabs[mover].next()
        assert answer["type"] == "refused" and "moved on" in answer["text"]
        other = "bob" if mover == "ann" else "ann"
        assert await tabs[other].quiet()
        assert table.turn == first[mover]["turn"]


async def test_a_seat_not_yours_and_a_spectators_move_are_refused(site: Site) -> None:
    await start_table(site.service)
    async with aiohttp.ClientSession() as http:
        ann, eve = await activity_tab(http, site, "ann"), await activity_tab(http, site, "eve")
        await ann.next()
        frame = await eve.next()
        await eve.send({"act": {"turn": frame["turn"], "choice": 0}})
        answer = await eve.next()
        assert answer["type"] == "refused" and answer["text"] == "You are not playing at this table."
        table = site.service.table(GUILD, CHANNEL)
        assert table is not None and table.turn == frame["turn"]


async def test_a_forged_session_or_an_outsider_is_refused(site: Site) -> None:
    await start_table(site.service)
    async with aiohttp.ClientSession() as http:
        forged = await open_tab(http, site, {"session": "x" * 43, "instance": INSTANCE_ID})
        answer = await forged.next()
        assert answer == {"type": "refused", "text": "Your session has ended: log in again.", "fatal": True}
        # a real session, but not a participant of the Activity: a client-sent id counts for nothing
        session = await log_in(http, site, "mallory")
        outsider = await open_tab(http, site, {"session": session, "instance": INSTANCE_ID, "user": USERS["ann"]})
        answer = await outsider.next()
        assert answer["type"] == "refused" and answer["text"] == "You are not in this Activity."
        # a browser asking for the channel directly, without being a member of the server
        browser = await open_tab(http, site, {"session": session, "table": [GUILD, CHANNEL]})
        answer = await browser.next()
        assert answer["text"] == "Only members of this server may watch its tables."
        async with http.post(f"{site.url}/api/activity-session", json={"code": "stolen"}, headers={"Origin": site.url}) as r:
            assert r.status == 403


async def test_another_origin_is_refused(site: Site) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.post(
            f"{site.url}/api/activity-session", json={"code": "mock-ann"}, headers={"Origin": "https://evil.example"}
        ) as response:
            assert response.status == 403
        with pytest.raises(aiohttp.WSServerHandshakeError):
            await http.ws_connect(f"{site.url}/ws", headers={"Origin": "https://evil.example"})
    assert site.stand_in.exchanges == 0


async def test_the_page_carries_a_content_security_policy(site: Site) -> None:
    async with aiohttp.ClientSession() as http, http.get(f"{site.url}/") as response:
        body = await response.text()
        policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "frame-ancestors" in policy
    assert 'content="700000000000000001"' in body


async def test_moves_faster_than_the_rate_limit_are_refused_and_change_nothing(site: Site) -> None:
    await start_table(site.service)
    async with aiohttp.ClientSession() as http:
        ann = await activity_tab(http, site, "ann")
        frame = await ann.next()
        for _ in range(40):  # stale moves: each refused by the game, unless the limit refuses it first
            await ann.send({"act": {"turn": frame["turn"] - 1, "choice": 0}})
        answers = [await ann.next() for _ in range(40)]
    texts = [a.get("text", "") for a in answers if a.get("type") == "refused"]
    assert "Too many moves at once: wait a moment and try again." in texts
    assert sum("moved on" in t for t in texts) >= 10  # the burst went through to the game
    table = site.service.table(GUILD, CHANNEL)
    assert table is not None and table.turn == frame["turn"]


async def test_log_in_with_discord_returns_to_the_table_with_a_session_cookie(site: Site) -> None:
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:  # 127.0.0.1's cookies
        async with http.get(f"{site.url}/login?next=/t/{GUILD}/{CHANNEL}", allow_redirects=False) as start:
            assert start.status == 302 and start.headers["Location"].startswith("https://discord.com/oauth2/authorize?")
            state = dict(part.split("=", 1) for part in start.headers["Location"].split("?", 1)[1].split("&"))["state"]
        async with http.get(f"{site.url}/callback?code=mock-ann&state=forged", allow_redirects=False) as forged:
            assert forged.status == 403
        async with http.get(f"{site.url}/callback?code=mock-ann&state={state}", allow_redirects=False) as back:
            assert back.status == 302 and back.headers["Location"] == f"/t/{GUILD}/{CHANNEL}"
            cookie = back.cookies["parlour_session"]
            assert cookie["httponly"] and cookie.value not in back.headers["Location"]
        assert site.server.sessions.user(cookie.value) == WebUser(USERS["ann"], "Ann")
        async with http.get(f"{site.url}/login?next=https://evil.example/", allow_redirects=False) as elsewhere:
            state = dict(p.split("=", 1) for p in elsewhere.headers["Location"].split("?", 1)[1].split("&"))["state"]
        async with http.get(f"{site.url}/callback?code=mock-ann&state={state}", allow_redirects=False) as home:
            assert home.headers["Location"] == "/"


async def test_two_members_tapping_the_same_turn_at_once_make_one_entry(site: Site) -> None:
    """A race: Ann and Bob both tap an entry at the same referee turn. The service reads each tap
    under the table's lock: one is entered, the other is refused as from an earlier turn, and the
    table holds exactly one new entry."""
    await site.service.open_referee(GUILD, CHANNEL, user("ann"), "fifty_one", [user("ann"), user("bob")], ["first_dealer=1"])
    async with aiohttp.ClientSession() as http:
        ann, bob = await activity_tab(http, site, "ann"), await activity_tab(http, site, "bob")
        first = (await ann.next())["turn"]
        await bob.next()
        await asyncio.gather(
            ann.send({"act": {"turn": first, "choice": 0}}), bob.send({"act": {"turn": first, "choice": 1}})
        )
        answers = [*await until_turn(ann, first + 1), *await until_turn(bob, first + 1)]
    refusals = [a for a in answers if a.get("type") == "refused"]
    assert len(refusals) == 1 and "moved on" in refusals[0]["text"]
    table = site.service.table(GUILD, CHANNEL)
    assert table is not None and table.turn == first + 1


async def until_turn(tab: Tab, turn: int) -> list[dict[str, Any]]:
    """What a tab receives until it has the table at ``turn``, and whatever follows at once (a
    refusal and the fresh frame sent with it may come in either order)."""
    got = [await tab.next()]
    while not any(f.get("type") == "table" and f["turn"] == turn for f in got):
        got.append(await tab.next())
    return got + await tab.rest()
