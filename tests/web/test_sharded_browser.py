"""The live table's page in a real browser, in front of two real sharded processes behind one
origin (a small reverse proxy in the test: ``/p/0`` and ``/p/1`` to their processes, the root to
the first): the Activity's tab reaches the process without its table, follows the hint to the one
with it and plays by clicking; after that process is killed and replaced (at ``/p/2``), the tab
reconnects at the root, is sent to the new owner and plays on."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiohttp import WSMsgType, web
from playwright.async_api import Page, WebSocket

from tests.bot.test_sharded_processes import stored
from tests.conftest import new_postgres_database
from tests.postgres_server import PostgresServer
from tests.shard_process import ShardProcess
from tests.web.browser import DESKTOP, chromium, need_chromium
from tests.web.conftest import USERS, free_port
from tests.web.discord_stand_in import StandIn
from tests.web.test_sharded_live import LEASE, THEIRS

pytestmark = pytest.mark.slow
HOP_HEADERS = {"connection", "keep-alive", "transfer-encoding", "upgrade", "content-length", "content-encoding", "host"}


class SameOrigin:
    """The host's reverse proxy: a path prefix to its process's port, anything else to the root's."""

    def __init__(self) -> None:
        self.routes: dict[str, int] = {}
        self.port = free_port()
        self.http = aiohttp.ClientSession(auto_decompress=False)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def target(self, request: web.Request) -> str:
        path = request.rel_url.path
        prefixes = sorted((p for p in self.routes if p and (path == p or path.startswith(p + "/"))), key=len)
        return f"127.0.0.1:{self.routes[prefixes[-1] if prefixes else '']}{request.rel_url}"

    async def handle(self, request: web.Request) -> web.StreamResponse:
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP_HEADERS and not k.lower().startswith("sec-websocket")}
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return await self.socket(request, headers)
        async with self.http.request(
            request.method, f"http://{self.target(request)}", headers=headers, data=await request.read(), allow_redirects=False
        ) as answer:
            body = await answer.read()
            out = {k: v for k, v in answer.headers.items() if k.lower() not in HOP_HEADERS}
            return web.Response(status=answer.status, body=body, headers=out)

    async def socket(self, request: web.Request, headers: dict[str, str]) -> web.WebSocketResponse:
        browser = web.WebSocketResponse()
        await browser.prepare(request)
        try:
            upstream = await self.http.ws_connect(f"ws://{self.target(request)}", headers={"Origin": headers.get("Origin", "")})
        except aiohttp.ClientError:
            await browser.close(code=1011)
            return browser

        async def down() -> None:
            async for message in upstream:
                if message.type is WSMsgType.TEXT:
                    await browser.send_str(message.data)
            await browser.close(code=upstream.close_code or 1011)

        relay = asyncio.create_task(down())
        async for message in browser:
            if message.type is WSMsgType.TEXT and not upstream.closed:
                await upstream.send_str(message.data)
        await upstream.close()
        relay.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await relay
        return browser


@pytest.fixture
async def url(postgres_server: PostgresServer) -> str:
    return await new_postgres_database(postgres_server)


@pytest.fixture
async def proxy() -> AsyncIterator[SameOrigin]:
    need_chromium()
    same = SameOrigin()
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", same.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", same.port).start()
    try:
        yield same
    finally:
        await same.http.close()
        await runner.cleanup()


def child(database: str, proxy: SameOrigin, ids: str, prefix: str, discord: str) -> ShardProcess:
    port = free_port()
    web_args = ["--web", str(port), "--prefix", prefix, "--public-url", proxy.origin, "--discord", discord]
    process = ShardProcess(database, count=2, ids=ids, lease=LEASE, web=web_args)
    proxy.routes[prefix] = port
    return process


async def wait_turn(page: Page, turn: int) -> None:
    await page.wait_for_selector(f'main.table[data-turn="{turn}"]', timeout=20_000)


async def play_a_move(page: Page, turn: int) -> None:
    await page.locator(".choices button.choice, button.spot.playable").first.click()
    await wait_turn(page, turn + 1)


async def test_a_tab_at_the_wrong_process_follows_to_the_right_one_and_plays_through_a_takeover(
    url: str, proxy: SameOrigin
) -> None:
    stand_in = StandIn(USERS, THEIRS, "30", in_instance={"ann", "bob"})
    discord_runner = web.AppRunner(stand_in.app())
    await discord_runner.setup()
    discord_port = free_port()
    await web.TCPSite(discord_runner, "127.0.0.1", discord_port).start()
    api = f"http://127.0.0.1:{discord_port}"
    started: list[ShardProcess] = []
    try:
        first = child(url, proxy, "0", "/p/0", api)
        started.append(first)
        proxy.routes[""] = proxy.routes["/p/0"]  # the root reaches the first process
        second = child(url, proxy, "1", "/p/1", api)
        started.append(second)
        seated = [[USERS["ann"], "Ann"], [USERS["bob"], "Bob"]]
        assert second.ask(op="open", tables=[[THEIRS, "30", "parity", seated]])["opened"] == 1

        async with chromium() as browser:
            pages: dict[str, Page] = {}
            sockets: dict[str, list[str]] = {}
            for name in ("ann", "bob"):
                page = await (await browser.new_context(viewport=DESKTOP)).new_page()  # type: ignore[arg-type]
                sockets[name] = []

                def opened(ws: WebSocket, name: str = name) -> None:
                    sockets[name].append(ws.url.removeprefix(f"ws://127.0.0.1:{proxy.port}"))

                page.on("websocket", opened)
                await page.goto(f"{proxy.origin}/?mock={name}&guild={THEIRS}&channel=30")
                pages[name] = page
            tables: list[dict[str, Any]] = second.ask(op="tables")["tables"]
            turn = tables[0]["moves"]
            for name, page in pages.items():
                await wait_turn(page, turn)
                assert sockets[name] == ["/ws", "/p/1/ws"]  # the root, then where it was sent

            mover = await awaited(pages, turn)
            await play_a_move(pages[mover], turn)
            turn += 1
            assert sum((await stored(url))[0].values()) == turn  # written by the second process

            second.kill()  # the pages lose their socket; a replacement takes shard 1 at /p/2
            third = child(url, proxy, "1", "/p/2", api)
            started.append(third)
            for name, page in pages.items():
                for _ in range(600):  # the page notices the drop and reconnects (with its back-off)
                    if sockets[name][-1] == "/p/2/ws":
                        break
                    await asyncio.sleep(0.05)
                await wait_turn(page, turn)
                assert sockets[name][:2] == ["/ws", "/p/1/ws"] and sockets[name][-2:] == ["/ws", "/p/2/ws"], sockets[name]
            mover = await awaited(pages, turn)
            await play_a_move(pages[mover], turn)
            assert sum((await stored(url))[0].values()) == turn + 1  # and by the third
    finally:
        for process in started:
            process.kill()
        await discord_runner.cleanup()


async def awaited(pages: dict[str, Page], turn: int) -> str:
    """Whose page offers a move at ``turn``."""
    for name, page in pages.items():
        await wait_turn(page, turn)
        if await page.locator(".choices button.choice, button.spot.playable").count():
            return name
    raise AssertionError(f"no page offers a move at turn {turn}: {json.dumps(list(pages))}")
