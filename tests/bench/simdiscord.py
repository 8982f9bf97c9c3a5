"""SimCord's simulated Discord served over the wire, for a bot running in another process.

SimCord normally runs inside the bot's process: discord.py's HTTP client and gateway are replaced
by calls into its backend. A load benchmark of the bot cannot use that: the simulator's own work
(storing, copying and checking every call) then runs on the bot's event loop and is most of its
CPU. Here the backend is served as Discord serves it: REST at ``http://host:port/api/v10/...``
(JSON, or multipart with ``payload_json`` and ``files[n]``, as discord.py sends them) and a
gateway websocket (Hello, Identify, Ready, Guild Create, heartbeats, then every event the backend
emits that the bot's intents allow, as JSON text frames). A bot reaches it by pointing discord.py's
``Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY`` here (:func:`point_discord_py_at`); it then
runs its real HTTP client (aiohttp), gateway reader and everything above them, as in production.

Every REST call goes through SimCord's own route table (:func:`simcord.http.router.dispatch`), so
the same validation applies as in the tests. Only a benchmark uses this (one guild, one bot).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import re
import time
from collections.abc import Callable
from typing import Any

import discord
from aiohttp import WSMsgType, web
from simcord import intents as simcord_intents
from simcord.backend import Backend, serializers
from simcord.backend.errors import BackendError
from simcord.http import router
from simcord.http import routes as _routes  # noqa: F401  (importing registers the route handlers)

log = logging.getLogger(__name__)

HEARTBEAT_MS = 41_250


def point_discord_py_at(base_url: str) -> None:
    """Make discord.py in this process talk to the simulated Discord at ``base_url``
    (``http://host:port``) instead of discord.com: REST, interaction callbacks and the gateway."""
    import yarl
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    Route.BASE = f"{base_url}/api/v10"
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(base_url.replace("http", "ws", 1) + "/gateway")


def _dumps(payload: Any) -> str:
    return json.dumps(payload, separators=(",", ":"), default=str)


def _json_response(payload: Any, status: int = 200) -> web.Response:
    # exactly this content type: discord.py reads a body as JSON only then
    return web.Response(body=_dumps(payload).encode(), status=status, headers={"Content-Type": "application/json"})


_DISPOSITION = re.compile(rb'\bname="([^"]*)"(?:; filename="([^"]*)")?')


def _multipart(raw: bytes, header: str) -> tuple[dict[str, str], list[tuple[str, bytes, str]]]:
    """A multipart body as discord.py sends it (aiohttp's FormData): its plain fields, and its files
    as (field name, bytes, file name). Read here rather than by aiohttp's reader, which costs
    several times the whole rest of a call."""
    boundary = header.split("boundary=", 1)[1].strip().strip('"').encode()
    fields: dict[str, str] = {}
    uploads: list[tuple[str, bytes, str]] = []
    for chunk in raw.split(b"--" + boundary)[1:]:
        if chunk.startswith(b"--"):
            break
        head, _, content = chunk.partition(b"\r\n\r\n")
        content = content.removesuffix(b"\r\n")
        found = _DISPOSITION.search(head)
        if found is None:
            continue
        name = found.group(1).decode()
        if found.group(2) is not None:
            uploads.append((name, content, found.group(2).decode()))
        else:
            fields[name] = content.decode()
    return fields, uploads


class _Dropped(list):  # type: ignore[type-arg]
    """A log that keeps nothing (SimCord's record of every call and event, unread here)."""

    def append(self, _item: object) -> None:
        pass


class _NoCopy:
    @staticmethod
    def deepcopy(value: Any) -> Any:
        return value


class SimDiscord:
    """The backend's REST routes and gateway, served with aiohttp on this process's event loop.

    ``on_call(method, path, pictured)`` is told of each REST call as it arrives, before it is
    served (``pictured``: it uploads a file); ``calls`` counts them."""

    def __init__(self, backend: Backend, on_call: Callable[[str, str, bool], None] | None = None) -> None:
        self.backend = backend
        # SimCord keeps a copy of every call and event for a test to read; nobody reads them here
        backend.http_requests = _Dropped()
        backend.transcript = _Dropped()
        router.copy = _NoCopy  # type: ignore[assignment]  # its one use: copying a call into that log
        self.on_call = on_call
        self.calls = 0
        self._runner: web.AppRunner | None = None
        self._sockets: list[_Gateway] = []
        self.url = ""

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        sockets = site._server.sockets if site._server is not None else []  # type: ignore[attr-defined]
        bound = sockets[0].getsockname()[1] if sockets else port
        self.url = f"http://{host}:{bound}"
        return self.url

    async def close(self) -> None:
        for gateway in list(self._sockets):
            await gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def connected(self) -> bool:
        return any(g.ready for g in self._sockets)

    # -- REST -----------------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        body: Any = None
        files: list[discord.File] = []
        kind = request.headers.get("Content-Type", "")  # not request.content_type: its parser costs
        if kind.startswith("multipart/"):
            fields, uploads = _multipart(await request.read(), kind)
            if "payload_json" in fields:
                body = json.loads(fields["payload_json"])
            attached = {str(a.get("id")): a for a in (body or {}).get("attachments", []) if isinstance(a, dict)}
            for name, data, filename in uploads:
                index = name.removeprefix("files[").removesuffix("]")
                description = attached.get(index, {}).get("description")
                files.append(discord.File(io.BytesIO(data), filename=filename, description=description))
        elif request.can_read_body:
            raw = await request.read()
            body = json.loads(raw) if raw else None
        self.calls += 1
        if self.on_call is not None:
            self.on_call(request.method, path, bool(files))
        try:
            result = router.dispatch(
                self.backend,
                request.method,
                path,
                json=body,
                params=dict(request.query),
                files=files,
                reason=request.headers.get("X-Audit-Log-Reason"),
            )
        except BackendError as exc:
            return _json_response(exc.to_json(), exc.status)
        if result is None:
            return web.Response(status=204)
        return _json_response(result)

    # -- gateway --------------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, compress=False)
        await ws.prepare(request)
        gateway = _Gateway(self.backend, ws)
        self._sockets.append(gateway)
        try:
            await gateway.serve()
        finally:
            self._sockets.remove(gateway)
            gateway.unsubscribe()
        return ws


class _Gateway:
    """One bot's gateway connection: events go out in order through one writer."""

    def __init__(self, backend: Backend, ws: web.WebSocketResponse) -> None:
        self.backend = backend
        self.ws = ws
        self.sequence = 0
        self.ready = False
        self.intents = discord.Intents.none()
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._subscribed = False

    def _frame(self, event: str, payload: Any) -> str:
        self.sequence += 1
        return _dumps({"op": 0, "t": event, "s": self.sequence, "d": payload})

    def feed(self, event: str, payload: Any) -> None:
        """Called by the backend for every event (synchronously, in order)."""
        gate = simcord_intents.required_intent(event, payload)
        if gate is not None and not getattr(self.intents, gate):
            return
        self._queue.put_nowait(self._frame(event, payload))

    def unsubscribe(self) -> None:
        if self._subscribed:
            with contextlib.suppress(ValueError):
                self.backend.subscribers.remove(self.feed)
            self._subscribed = False
        self._queue.put_nowait(None)

    async def close(self) -> None:
        self.unsubscribe()
        await self.ws.close()

    async def _writer(self) -> None:
        while (frame := await self._queue.get()) is not None:
            if self.ws.closed:
                return
            await self.ws.send_str(frame)

    async def serve(self) -> None:
        await self.ws.send_str(_dumps({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_MS}}))
        writer = asyncio.ensure_future(self._writer())
        try:
            async for message in self.ws:
                if message.type is not WSMsgType.TEXT:
                    continue
                data = json.loads(message.data)
                op = data.get("op")
                if op == 1:  # heartbeat
                    await self.ws.send_str(_dumps({"op": 11}))
                elif op == 2:  # identify
                    self.intents = discord.Intents._from_value(int(data["d"].get("intents", 0)))
                    self._identify()
        finally:
            self.unsubscribe()
            writer.cancel()

    def _identify(self) -> None:
        backend = self.backend
        self._queue.put_nowait(
            self._frame(
                "READY",
                {
                    "v": 10,
                    "user": dict(serializers.user_payload(backend.bot_user)),
                    "guilds": [{"id": str(g.id), "unavailable": True} for g in backend.guilds.values()],
                    "session_id": f"simdiscord-{time.monotonic_ns()}",
                    "resume_gateway_url": "ws://127.0.0.1:1/gateway",
                    "application": {"id": str(backend.application_id), "flags": 0},
                },
            )
        )
        for guild in list(backend.guilds.values()):
            self._queue.put_nowait(self._frame("GUILD_CREATE", serializers.guild_create_payload(backend, guild)))
        backend.subscribers.append(self.feed)
        self._subscribed = True
        self.ready = True
