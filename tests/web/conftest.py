"""A live-table site for tests: the table service on a real SQLite file, the web server on a real
port of 127.0.0.1, and a stand-in for Discord's API on another, all in the test's event loop."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from bot.tables import TableService, User
from bot.web.identity import DiscordIdentity
from bot.web.live import Broadcast, LiveTables
from bot.web.server import WebConfig, WebServer, serve
from bot.web.sessions import Sessions, session_key
from storage.sessions import Store
from tests.bot.conftest import RecordingNotifier
from tests.web.discord_stand_in import BOT_TOKEN, CLIENT_ID, INSTANCE_ID, StandIn

USERS = {"ann": "101", "bob": "102", "cat": "103", "dan": "104", "eve": "105", "mallory": "666"}
GUILD, CHANNEL = "10", "20"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def user(name: str) -> User:
    return User(USERS[name], name.title())


@dataclass
class Site:
    """The table service and its web server (restartable, on the same port and database), and the
    Discord stand-in they ask."""

    db: Path
    port: int
    identity: DiscordIdentity
    stand_in: StandIn
    members: set[str] = field(default_factory=set)
    """Discord ids of the server's members (who may watch in a browser)."""
    store: Store | None = None
    service: TableService = field(init=False)
    live: LiveTables = field(init=False)
    server: WebServer = field(init=False)
    runner: web.AppRunner | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def origin(self) -> str:
        return self.url

    async def start(self) -> None:
        self.store = await Store.open(self.db)
        self.live = LiveTables(lambda guild_id: self.service.settings(guild_id))
        self.service = TableService(self.store, Broadcast(RecordingNotifier(), self.live))
        await self.service.load()
        sessions = Sessions(session_key("secret"))
        config = WebConfig(self.url, CLIENT_ID)
        self.server = WebServer(self.service, self.identity, self.live, config, membership=self.member, sessions=sessions)
        self.runner = await serve(self.server, "127.0.0.1", self.port)

    async def stop(self) -> None:
        """Stop as a process would: the web server first (its sockets close), then the tables."""
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None
        await self.service.shutdown()
        if self.store is not None:
            await self.store.close()
            self.store = None

    async def member(self, guild_id: str, user_id: str) -> bool:
        return guild_id == GUILD and user_id in self.members


@dataclass
class Tab:
    """One browser's connection, as a test drives it: a session, a socket, the frames received."""

    ws: aiohttp.ClientWebSocketResponse
    frames: list[dict[str, Any]]

    async def next(self, timeout: float = 10.0) -> dict[str, Any]:
        message = await self.ws.receive(timeout=timeout)
        assert message.type == aiohttp.WSMsgType.TEXT, message
        data: dict[str, Any] = json.loads(message.data)
        self.frames.append(data)
        return data

    async def send(self, data: dict[str, Any]) -> None:
        await self.ws.send_str(json.dumps(data))

    async def rest(self, seconds: float = 0.3) -> list[dict[str, Any]]:
        """Everything that arrives until nothing more has for ``seconds``."""
        out: list[dict[str, Any]] = []
        while True:
            try:
                out.append(await self.next(timeout=seconds))
            except TimeoutError:
                return out

    async def quiet(self, seconds: float = 0.2) -> bool:
        """Whether nothing more arrives within ``seconds``."""
        try:
            await self.ws.receive(timeout=seconds)
        except TimeoutError:
            return True
        return False


async def log_in(http: aiohttp.ClientSession, site: Site, name: str) -> str:
    async with http.post(
        f"{site.url}/api/activity-session", json={"code": f"mock-{name}"}, headers={"Origin": site.origin}
    ) as response:
        assert response.status == 200, await response.text()
        body = await response.json()
    return str(body["session"])


async def open_tab(http: aiohttp.ClientSession, site: Site, hello: dict[str, Any]) -> Tab:
    ws = await http.ws_connect(f"{site.url}/ws", headers={"Origin": site.origin})
    await ws.send_str(json.dumps(hello))
    return Tab(ws, [])


@contextlib.asynccontextmanager
async def running_site(tmp_path: Path) -> AsyncIterator[Site]:
    """A started :class:`Site` on a database in ``tmp_path`` and its Discord stand-in; stopped
    afterwards. (The ``site`` fixture; a module that runs its tests in one event loop declares
    its own fixture over this, in that loop.)"""
    stand_in = StandIn(USERS, GUILD, CHANNEL)
    discord_runner = web.AppRunner(stand_in.app())
    await discord_runner.setup()
    discord_port = free_port()
    await web.TCPSite(discord_runner, "127.0.0.1", discord_port).start()
    http = aiohttp.ClientSession()
    identity = DiscordIdentity(
        http, client_id=CLIENT_ID, client_secret="secret", bot_token=BOT_TOKEN, base_url=f"http://127.0.0.1:{discord_port}"
    )
    site = Site(tmp_path / "parlour.sqlite3", free_port(), identity, stand_in)
    await site.start()
    try:
        yield site
    finally:
        await site.stop()
        await http.close()
        await discord_runner.cleanup()
        await asyncio.sleep(0)


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    async with running_site(tmp_path) as started:
        yield started


__all__ = ["CHANNEL", "CLIENT_ID", "GUILD", "INSTANCE_ID", "USERS", "Site", "Tab", "log_in", "open_tab", "running_site", "user"]
