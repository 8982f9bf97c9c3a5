"""The live table of a bot sharded across two real processes on one PostgreSQL: a page that
reaches the process not holding its table's server is sent to the one that does (a path of our
own origin, recorded with that process's leases) and plays there; a hint that is not such a path
is never sent; after a takeover the page reconnects at the root and is sent to the new owner.

The test plays the host's reverse proxy: a path prefix maps to the port of its process, and the
root (any process) is the first one."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from bot.settings import Settings
from bot.web.routing import MOVED_CODE, PREFIX
from storage.query import Query
from storage.sessions import Store
from tests.conftest import new_postgres_database
from tests.postgres_server import PostgresServer
from tests.shard_process import ShardProcess, guild_on
from tests.web.conftest import USERS, free_port
from tests.web.discord_stand_in import INSTANCE_ID, StandIn

ROOT = Path(__file__).resolve().parents[2]
LEASE = 2.0
PUBLIC = "http://parlour.test"
ORIGIN = {"Origin": PUBLIC}
THEIRS = guild_on(1, 2)
"""A server on shard 1: the second process's."""


class WebChild(ShardProcess):
    """A process of shards ``ids`` of 2, serving the live table at ``prefix`` on its own port."""

    def __init__(self, url: str, ids: str, prefix: str, discord: str) -> None:
        self.port, self.prefix = free_port(), prefix
        web_args = ["--web", str(self.port), "--prefix", prefix, "--public-url", PUBLIC, "--discord", discord]
        super().__init__(url, count=2, ids=ids, lease=LEASE, web=web_args)


@pytest.fixture
async def url(postgres_server: PostgresServer) -> str:
    return await new_postgres_database(postgres_server)


@pytest.fixture
async def discord() -> AsyncIterator[tuple[StandIn, str]]:
    stand_in = StandIn(USERS, THEIRS, "30")
    runner = web.AppRunner(stand_in.app())
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        yield stand_in, f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


@pytest.fixture
def children() -> Iterator[list[WebChild]]:
    started: list[WebChild] = []
    yield started
    for child in started:
        child.kill()


class Proxy:
    """The reverse proxy's map: a prefix to its process's port; the root to ``root``'s."""

    def __init__(self, root: WebChild, *others: WebChild) -> None:
        self.root = root
        self.by_prefix = {c.prefix: c for c in (root, *others)}

    def ws_url(self, route: str) -> str:
        child = self.by_prefix[route] if route else self.root
        return f"ws://127.0.0.1:{child.port}{route}/ws"


async def follow(http: aiohttp.ClientSession, proxy: Proxy, hello: dict[str, Any]) -> tuple[aiohttp.ClientWebSocketResponse, dict[str, Any], list[str]]:
    """What the page does: hello at the root, and at each prefix it is sent to (a path only), until
    a table frame comes; the socket, that frame and the routes taken."""
    route, taken = "", []
    for _ in range(4):
        ws = await http.ws_connect(proxy.ws_url(route), headers=ORIGIN)
        await ws.send_str(json.dumps(hello))
        frame = json.loads((await ws.receive(timeout=20)).data)
        if frame["type"] != "moved":
            return ws, frame, taken
        assert PREFIX.fullmatch(frame["to"]), frame  # a path of our own origin, never an address
        closing = await ws.receive(timeout=20)
        assert closing.type is aiohttp.WSMsgType.CLOSE and closing.data == MOVED_CODE
        route = frame["to"]
        taken.append(route)
    raise AssertionError(f"sent round in circles: {taken}")


async def log_in(http: aiohttp.ClientSession, child: WebChild, name: str) -> str:
    async with http.post(f"http://127.0.0.1:{child.port}/api/activity-session", json={"code": f"mock-{name}"}, headers=ORIGIN) as r:
        assert r.status == 200, await r.text()
        return str((await r.json())["session"])


async def play_once(ws: aiohttp.ClientWebSocketResponse, frame: dict[str, Any], other: aiohttp.ClientWebSocketResponse | None = None) -> dict[str, Any]:
    """The first move offered in ``frame``; the frame that follows it."""
    assert frame["type"] == "table" and frame["choices"], frame
    await ws.send_str(json.dumps({"act": {"turn": frame["turn"], "choice": frame["choices"][0]["i"]}}))
    after: dict[str, Any] = json.loads((await ws.receive(timeout=20)).data)
    assert after.get("type") == "table" and after["turn"] == frame["turn"] + 1, after
    return after


async def test_a_page_at_the_wrong_process_is_sent_to_the_right_one_and_plays_and_no_forged_hint_is_sent(
    url: str, discord: tuple[StandIn, str], children: list[WebChild]
) -> None:
    stand_in, api = discord
    first = WebChild(url, "0", "/p/0", api)
    children.append(first)
    second = WebChild(url, "1", "/p/1", api)
    children.append(second)
    proxy = Proxy(first, second)
    seated = [[USERS["ann"], "Ann"], [USERS["bob"], "Bob"]]
    assert second.ask(op="open", tables=[[THEIRS, "30", "parity", seated]])["opened"] == 1

    async with aiohttp.ClientSession() as http:
        # a browser tab (a session from the root process: any process checks it)
        ann = await log_in(http, first, "ann")
        ws, frame, taken = await follow(http, proxy, {"session": ann, "table": [THEIRS, "30"]})
        assert taken == ["/p/1"] and frame["seat"] == 0
        if frame["choices"]:
            frame = await play_once(ws, frame)

        # the Activity: its instance runs in the same channel; Bob is in it
        stand_in.in_instance.add("bob")
        bob = await log_in(http, first, "bob")
        bob_ws, bob_frame, taken = await follow(http, proxy, {"session": bob, "instance": INSTANCE_ID})
        assert taken == ["/p/1"] and bob_frame["seat"] == 1 and bob_frame["turn"] == frame["turn"]
        for _ in range(3):  # they play on there, each seeing the other's moves
            mover, mover_frame = (ws, frame) if frame["choices"] else (bob_ws, bob_frame)
            watcher = bob_ws if mover is ws else ws
            moved = await play_once(mover, mover_frame)
            seen = json.loads((await watcher.receive(timeout=20)).data)
            assert seen["turn"] == moved["turn"]
            frame, bob_frame = (moved, seen) if mover is ws else (seen, moved)
            if frame.get("over"):
                break

        await ws.close()
        await bob_ws.close()

    # what moved was written by the second process: its table's log holds the moves
    store = await Store.open(url, shared=True)
    try:
        rows = await store.conn.execute_fetchall(Query("SELECT COUNT(*) AS n FROM actions"))
        assert rows[0]["n"] >= 3

        # whatever a lease row says, a hint is a path of ours: an address there (written by hand,
        # or by anything but the validated setting) is not sent; the hello is refused as a table
        # between processes, and nothing else happens
        async with aiohttp.ClientSession() as http:
            ann = await log_in(http, first, "ann")
            for forged in ("//evil.example", "https://evil.example/p/1", "/p/1/../../x", "/P/1", "/p/1?next=//evil"):
                await store.conn.execute(Query("UPDATE shard_leases SET web_prefix = :p WHERE shard = 1"), p=forged)
                ws, frame, taken = await follow(http, proxy, {"session": ann, "table": [THEIRS, "30"]})
                assert taken == [] and frame["type"] == "refused" and "another Parlour process" in frame["text"], forged
                await ws.close()
        after = await store.conn.execute_fetchall(Query("SELECT COUNT(*) AS n FROM actions"))
        assert after[0]["n"] == rows[0]["n"]
    finally:
        await store.close()


@pytest.mark.slow
async def test_after_a_takeover_the_page_reconnects_at_the_root_and_is_sent_to_the_new_owner(
    url: str, discord: tuple[StandIn, str], children: list[WebChild]
) -> None:
    _, api = discord
    first = WebChild(url, "0", "/p/0", api)
    children.append(first)
    second = WebChild(url, "1", "/p/1", api)
    children.append(second)
    seated = [[USERS["ann"], "Ann"], [USERS["bob"], "Bob"]]
    assert second.ask(op="open", tables=[[THEIRS, "30", "parity", seated]])["opened"] == 1
    async with aiohttp.ClientSession() as http:
        sessions = {name: await log_in(http, first, name) for name in ("ann", "bob")}
        proxy = Proxy(first, second)
        tabs = {name: await follow(http, proxy, {"session": s, "table": [THEIRS, "30"]}) for name, s in sessions.items()}
        assert all(taken == ["/p/1"] for _, _, taken in tabs.values())
        turn = tabs["ann"][1]["turn"]

        second.kill()  # mid-deal; its sockets drop
        for ws, _, _ in tabs.values():
            assert (await ws.receive(timeout=20)).type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR)
        third = WebChild(url, "1", "/p/2", api)  # ready once the dead lease lapsed
        children.append(third)
        proxy = Proxy(first, third)
        frames: dict[str, dict[str, Any]] = {}
        sockets: dict[str, aiohttp.ClientWebSocketResponse] = {}
        for name, session in sessions.items():  # reconnecting at the root, as the page does
            sockets[name], frames[name], taken = await follow(http, proxy, {"session": session, "table": [THEIRS, "30"]})
            assert taken == ["/p/2"] and frames[name]["turn"] == turn
        mover = "ann" if frames["ann"]["choices"] else "bob"
        after = await play_once(sockets[mover], frames[mover])
        other = "bob" if mover == "ann" else "ann"
        assert json.loads((await sockets[other].receive(timeout=20)).data)["turn"] == after["turn"] == turn + 1


def test_the_page_follows_only_the_paths_the_server_sends() -> None:
    """The page's own check of a hint is the server's pattern (web/src/main.ts)."""
    source = (ROOT / "web" / "src" / "main.ts").read_text(encoding="utf-8")
    found = re.search(r"const PREFIX = /\^(.*)\$/;", source)
    assert found is not None
    assert found.group(1).replace("\\/", "/") == PREFIX.pattern


@pytest.mark.parametrize("value", ["//evil.example", "https://evil.example", "p/0", "/p/../x", "/P/0", "/a/b/c/d"])
def test_a_web_prefix_that_is_not_our_own_path_is_refused(value: str) -> None:
    with pytest.raises(ValueError, match="the web prefix is a path"):
        Settings(_env_file=None, PARLOUR_WEB_PREFIX=value)  # type: ignore[call-arg]
    assert Settings(_env_file=None, PARLOUR_WEB_PREFIX="/p/0/").web_prefix == "/p/0"  # type: ignore[call-arg]
