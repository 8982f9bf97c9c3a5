"""``python -m bot`` against a Discord that answers its REST calls and refuses its gateway, as a
host sees it when Discord's gateway is down or a firewall lets only HTTPS through.

    python -m tests.fake_discord [BOT ARGS...]

A small aiohttp server on 127.0.0.1 (in a thread of this process) answers the log-in calls
(``/users/@me``, ``/oauth2/applications/@me``, ``/gateway/bot``) and answers the gateway's
WebSocket upgrade with 503; discord.py is pointed at it, then ``bot.__main__.main`` runs as
``python -m bot`` would. The process tests in ``tests/test_stop.py`` send it SIGTERM.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
from typing import Any

import discord
import yarl
from aiohttp import web
from discord.gateway import DiscordWebSocket

BOT_USER = {
    "id": "900000000000000001",
    "username": "parlour",
    "discriminator": "0",
    "global_name": None,
    "avatar": None,
    "bot": True,
}


def _json(data: dict[str, Any]) -> web.Response:
    """discord.py reads a body as JSON only when the content type is exactly ``application/json``."""
    return web.Response(body=json.dumps(data).encode(), content_type="application/json")


def _app() -> web.Application:
    async def me(_: web.Request) -> web.Response:
        return _json(BOT_USER)

    async def application(_: web.Request) -> web.Response:
        return _json(
            {
                "id": BOT_USER["id"],
                "name": "Parlour",
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": {**BOT_USER, "id": "900000000000000002", "username": "host", "bot": False},
                "verify_key": "0" * 64,
                "flags": 0,
            }
        )

    async def gateway(request: web.Request) -> web.Response:
        url = f"ws://{request.host}/gateway"
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return _json({"url": url, "shards": 1, "session_start_limit": limit})

    async def refuse(_: web.Request) -> web.Response:
        return web.Response(status=503, text="the gateway is down")

    app = web.Application()
    app.router.add_get("/api/v10/users/@me", me)
    app.router.add_get("/api/v10/oauth2/applications/@me", application)
    app.router.add_get("/api/v10/gateway", gateway)
    app.router.add_get("/api/v10/gateway/bot", gateway)
    app.router.add_route("*", "/gateway", refuse)
    app.router.add_route("*", "/gateway/", refuse)
    return app


def start_fake_discord() -> str:
    """Start the fake Discord in a daemon thread; its address (``http://127.0.0.1:PORT``)."""
    ready: dict[str, Any] = {}
    started = threading.Event()

    def run() -> None:
        loop = asyncio.new_event_loop()
        runner = web.AppRunner(_app(), access_log=None)
        loop.run_until_complete(runner.setup())
        site = web.TCPSite(runner, "127.0.0.1", 0)
        loop.run_until_complete(site.start())
        server = site._server
        assert server is not None
        ready["port"] = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        started.set()
        loop.run_forever()

    threading.Thread(target=run, name="fake-discord", daemon=True).start()
    started.wait(30)
    return f"http://127.0.0.1:{ready['port']}"


def main(argv: list[str]) -> int:
    address = start_fake_discord()
    discord.http.Route.BASE = f"{address}/api/v10"
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(address.replace("http", "ws") + "/gateway/")
    from bot.__main__ import main as bot_main

    return bot_main(argv)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
