# Over 400 lines: the live table's web server: its routes, log-in, session checks, the websocket loop and the security headers, which all read the same configuration and rate limits; routing between processes is in routing.py and frames in frames.py.
"""The web server: the live table's page, the log-in, and one websocket per open browser.

Routes:

* ``GET /`` (the Activity) and ``GET /t/{guild}/{channel}`` (a table in a browser): the page;
* ``POST /api/activity-session``: the Activity's OAuth2 code for our session (and the access token
  the SDK's ``authenticate()`` wants back);
* ``GET /login`` and ``GET /callback``: "Log in with Discord" for a browser (the code flow, with a
  ``state`` cookie against forged callbacks), ending in an HttpOnly session cookie;
* ``GET /ws``: the live table. The first message says which table (an Activity instance id, or a
  channel for a browser) and, for an Activity, the session token; the server binds the socket to
  its user and table, sends the first frame, then takes moves: ``{"act": {"turn", "choice",
  "label"}}``, ``{"confirm": {"seen"}}``, ``{"undo": {"seen"}}`` (the label of the choice and
  the entries the page showed: the frame's ``seen``). A refusal comes back to that browser alone. In a
  sharded bot, a hello for another process's table is answered ``{"type": "moved", "to": prefix}``
  (:mod:`bot.web.routing`), and the page reconnects at that prefix, where each process also
  serves these routes (``/login`` and ``/callback`` stay at the root: any process completes them).

Why aiohttp: discord.py already depends on it, it serves websockets and files in the bot's own
event loop (the table service is there: no second process, no broker), and its test utilities run
a real server on a real port.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

from aiohttp import WSCloseCode, WSMsgType, web

from bot.service.model import Table, TableError, User
from bot.service.referee import ENTRY_MARK, require_member
from bot.service.registry import MOVED
from bot.tables import TableService
from bot.web.identity import DiscordBusy, DiscordIdentity, IdentityError, Login
from bot.web.live import LiveTables, Viewer, drain, encode, referee_entries, viewer_frame
from bot.web.records.match_page import add_match_routes
from bot.web.records.routes import add_record_routes
from bot.web.routing import MOVED_CODE, Locate, is_prefix
from bot.web.sessions import Sessions, WebUser
from games.engine import Action, IllegalAction

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
SESSION_COOKIE = "parlour_session"
STATE_COOKIE = "parlour_login"
SESSION_ENDED = "Your sign-in has ended: reload the page to sign in again."
"""The last frame of a socket whose session token ran out (tokens last :data:`bot.web.sessions.LIFETIME`)."""
HELLO_SECONDS = 10.0
MAX_MESSAGE = 4096
RATE = 8.0
"""Moves a second a user may send, on average..."""
BURST = 16.0
"""...and at once."""
HELLO_RATE, HELLO_BURST = 1.0, 12.0
"""Sockets a user may open a second, on average, and at once: each costs a request to Discord
(the Activity's record, or a membership look-up, on the bot's own REST budget)."""

TABLE_PATH = re.compile(r"/t/\d{1,20}/\d{1,20}")
"""A table's page, the only place a log-in returns to."""

Membership = Callable[[str, str], Awaitable[bool]]
"""Whether a user (second) is a member of a server (first): who may watch a table in a browser."""


@dataclass(frozen=True)
class WebConfig:
    public_url: str
    """Where people reach the server, e.g. ``https://parlour.example.org``."""
    client_id: str

    @property
    def origin(self) -> str:
        parts = urlsplit(self.public_url)
        return f"{parts.scheme}://{parts.netloc}"

    @property
    def activity_origin(self) -> str:
        """Discord's proxy serves an Activity from its own origin."""
        return f"https://{self.client_id}.discordsays.com"

    @property
    def secure(self) -> bool:
        return self.public_url.startswith("https://")


def security_headers(config: WebConfig) -> dict[str, str]:
    """A content security policy fit for Discord's proxy: our own scripts and styles only; frames
    only inside Discord; websockets back to where the page came from."""
    csp = "; ".join(
        [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data: https://cdn.discordapp.com",
            f"connect-src 'self' wss://{config.client_id}.discordsays.com {config.origin.replace('http', 'ws', 1)}",
            "frame-ancestors 'self' https://discord.com https://*.discord.com https://*.discordsays.com",
            "base-uri 'none'",
            "form-action 'self'",
        ]
    )
    return {
        "Content-Security-Policy": csp,
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "Cache-Control": "no-store",
    }


class Bucket:
    """A token bucket per user: ``rate`` messages a second on average, ``burst`` at once."""

    def __init__(self, rate: float = RATE, burst: float = BURST, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst = rate, burst
        self._clock = clock
        self._state: dict[str, tuple[float, float]] = {}

    def allow(self, user_id: str) -> bool:
        now = self._clock()
        tokens, then = self._state.get(user_id, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens < 1.0:
            self._state[user_id] = (tokens, now)
            return False
        self._state[user_id] = (tokens - 1.0, now)
        return True


class TryLater(TableError):
    """A refusal the page should take as "not now": it reconnects by itself, after a while."""


class Moved(Exception):
    """A socket's table is served by the process at ``prefix``."""

    def __init__(self, prefix: str) -> None:
        super().__init__(prefix)
        self.prefix = prefix


class WebServer:
    def __init__(
        self,
        service: TableService,
        identity: DiscordIdentity,
        live: LiveTables,
        config: WebConfig,
        *,
        membership: Membership,
        sessions: Sessions,
        prefix: str = "",
        locate: Locate | None = None,
    ) -> None:
        """``prefix`` and ``locate``: in a sharded bot, this process's own path (it serves its
        routes there as well as at the root) and where another server's tables are served
        (:mod:`bot.web.routing`)."""
        self.service = service
        self.identity = identity
        self.live = live
        self.config = config
        self.membership = membership
        self.sessions = sessions
        self.prefix = prefix
        self.locate = locate
        self.bucket = Bucket()
        self.hellos = Bucket(HELLO_RATE, HELLO_BURST)
        self.sockets: set[web.WebSocketResponse] = set()
        self.app = web.Application(client_max_size=64 * 1024)
        self.app.on_shutdown.append(self.close_sockets)
        for at in ("", prefix) if prefix else ("",):
            self.app.add_routes(
                [
                    web.get(at + "/" if at else "/", self.page),
                    web.get(at + "/t/{guild}/{channel}", self.page),
                    web.get(at + "/static/{name}", self.static),
                    web.post(at + "/api/activity-session", self.activity_session),
                    web.get(at + "/ws", self.socket),
                ]
            )
        self.app.add_routes([web.get("/login", self.login), web.get("/callback", self.callback)])
        self.records = add_record_routes(self.app, service.store, config.public_url, security_headers(config))
        self.matches = add_match_routes(self.app, service.store, config.public_url, security_headers(config))

    # -- pages -------------------------------------------------------------------------------------

    async def page(self, request: web.Request) -> web.Response:
        page = (STATIC / "index.html").read_text(encoding="utf-8").replace("{{client_id}}", self.config.client_id)
        return web.Response(text=page, content_type="text/html", headers=security_headers(self.config))

    async def static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        types = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
        path = STATIC / name
        if "/" in name or name.startswith(".") or path.suffix not in types or not path.is_file():
            raise web.HTTPNotFound()
        headers = {**security_headers(self.config), "Cache-Control": "no-cache"}
        return web.Response(body=path.read_bytes(), content_type=types[path.suffix], headers=headers)

    # -- log-in --------------------------------------------------------------------------------------

    async def activity_session(self, request: web.Request) -> web.Response:
        self.check_origin(request)
        try:
            body = await request.json()
        except (ValueError, RecursionError):  # RecursionError: valid JSON nested too deep to read
            raise web.HTTPBadRequest(text="Send the log-in code as JSON.") from None
        code = body.get("code") if isinstance(body, dict) else None
        if not isinstance(code, str) or not 1 <= len(code) <= 200:
            raise web.HTTPBadRequest(text="Send the log-in code as JSON.")
        login = await self.log_in(code)
        token = self.sessions.issue(login.user)
        user = {"id": login.user.id, "name": login.user.name}
        return web.json_response({"session": token, "access_token": login.access_token, "user": user})

    async def login(self, request: web.Request) -> web.Response:
        target = request.query.get("next", "/")
        if not TABLE_PATH.fullmatch(target):  # back to a table page of ours, never elsewhere
            target = "/"
        state = secrets.token_urlsafe(24)
        query = urlencode(
            {
                "client_id": self.config.client_id,
                "response_type": "code",
                "scope": "identify",
                "redirect_uri": self.redirect_uri,
                "state": state,
                "prompt": "none",
            }
        )
        response = web.HTTPFound(f"https://discord.com/oauth2/authorize?{query}")
        response.set_cookie(
            STATE_COOKIE, f"{state}|{target}", max_age=600, httponly=True, samesite="Lax", secure=self.config.secure
        )
        raise response

    async def callback(self, request: web.Request) -> web.Response:
        state, _, target = request.cookies.get(STATE_COOKIE, "").partition("|")
        code = request.query.get("code", "")
        if not state or not secrets.compare_digest(state, request.query.get("state", "")) or not code:
            raise web.HTTPForbidden(text="That log-in link is not one this server started: log in again.")
        login = await self.log_in(code, self.redirect_uri)
        response = web.HTTPFound(target if TABLE_PATH.fullmatch(target) else "/")
        response.del_cookie(STATE_COOKIE)
        response.set_cookie(
            SESSION_COOKIE,
            self.sessions.issue(login.user),
            max_age=12 * 3600,
            httponly=True,
            samesite="Lax",
            secure=self.config.secure,
        )
        raise response

    async def log_in(self, code: str, redirect_uri: str | None = None) -> Login:
        """The user Discord names for ``code``; its refusal as 403, its "wait" as 429."""
        try:
            return await self.identity.user_for_code(code, redirect_uri)
        except DiscordBusy as busy:
            raise web.HTTPTooManyRequests(text=str(busy), headers={"Retry-After": str(busy.retry_after)}) from None
        except IdentityError as exc:
            raise web.HTTPForbidden(text=str(exc)) from None

    @property
    def redirect_uri(self) -> str:
        return self.config.public_url.rstrip("/") + "/callback"

    def check_origin(self, request: web.Request) -> None:
        origin = request.headers.get("Origin")
        if origin not in (self.config.origin, self.config.activity_origin):
            raise web.HTTPForbidden(text="This page may only be used from Parlour's own address.")

    # -- the live table ------------------------------------------------------------------------------

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        self.check_origin(request)
        ws = web.WebSocketResponse(heartbeat=30.0, max_msg_size=MAX_MESSAGE)
        await ws.prepare(request)
        self.sockets.add(ws)
        try:
            await self.serve_socket(request, ws)
        finally:
            self.sockets.discard(ws)
        return ws

    async def close_sockets(self, app: web.Application) -> None:
        """At shutdown: every browser is told the server is going away (it reconnects by itself)."""
        for ws in list(self.sockets):
            await ws.close(code=WSCloseCode.GOING_AWAY, message=b"Parlour is restarting")

    async def serve_socket(self, request: web.Request, ws: web.WebSocketResponse) -> None:
        try:
            hello = await ws.receive_json(timeout=HELLO_SECONDS)
            user, key = await self.admit(request, hello)
        except Moved as moved:  # another process serves this table: the page reconnects there
            await ws.send_str(encode({"type": "moved", "to": moved.prefix}))
            await ws.close(code=MOVED_CODE, message=b"served elsewhere")
            return
        except (TableError, IdentityError) as exc:
            fatal = not isinstance(exc, TryLater | DiscordBusy)
            await ws.send_str(encode({"type": "refused", "text": str(exc), "fatal": fatal}))
            await ws.close()
            return
        except (TimeoutError, ValueError, TypeError, RecursionError):
            await ws.close()
            return
        viewer = Viewer(user, ws.send_str, key)
        writer = asyncio.create_task(viewer.run())
        self.live.add(viewer)
        left = self.sessions.seconds_left(hello.get("session") or request.cookies.get(SESSION_COOKIE))
        ending: set[asyncio.Task[None]] = set()  # a reference, while it runs
        lapse = asyncio.get_running_loop().call_later(
            left or 0.0, lambda: ending.add(asyncio.create_task(self.session_ended(ws)))
        )
        try:
            await self.show_to(viewer)
            async for message in ws:
                if message.type != WSMsgType.TEXT:
                    break
                answer = await self.handle(viewer, message.data)
                if answer is not None:
                    await ws.send_str(encode(answer))
        finally:
            lapse.cancel()
            self.live.remove(viewer)
            await drain(writer)

    async def session_ended(self, ws: web.WebSocketResponse) -> None:
        """A socket's session token ran out: it is told, in a last frame, and closed (a page
        reloaded signs in again)."""
        if ws.closed:
            return
        with contextlib.suppress(ConnectionError, RuntimeError):
            await ws.send_str(encode({"type": "refused", "text": SESSION_ENDED, "fatal": True}))
        await ws.close(code=WSCloseCode.POLICY_VIOLATION, message=b"session ended")

    async def admit(self, request: web.Request, hello: Any) -> tuple[WebUser, tuple[str, str]]:
        """Who the socket's user is (our session only) and which table it may watch."""
        if not isinstance(hello, dict):
            raise TableError("Say which table to open.")
        user = self.sessions.user(hello.get("session") or request.cookies.get(SESSION_COOKIE))
        if user is None:
            raise TableError("Your session has ended: log in again.")
        if not self.hellos.allow(user.id):
            raise TryLater("Too many connections at once: wait a moment (the page tries again by itself).")
        instance_id = hello.get("instance")
        if not (isinstance(instance_id, str) and 1 <= len(instance_id) <= 100):
            instance_id = None  # not one we look up: the hello is a browser's, for the table it names
        if instance_id is not None:
            instance = await self.identity.instance(instance_id)
            if user.id not in instance.user_ids:
                raise TableError("You are not in this Activity.")
            key = (instance.guild_id, instance.channel_id)
            launched = await self.service.activity_table(instance_id)
            if launched is not None and (launched["guild_id"], launched["channel_id"]) != key:
                raise TableError("This Activity was opened for a table in another channel: open it from that table.")
        else:
            launched = None
            where = hello.get("table")
            if not (isinstance(where, list) and len(where) == 2 and all(isinstance(p, str) and p.isdigit() for p in where)):
                raise TableError("Say which table to open.")
            key = (where[0], where[1])
        await self.route(key[0])  # before anything of the server's: another process may hold it
        table = await self.service.ready(*key)
        if table is None:
            if launched is not None and launched["status"] not in ("lobby", "playing"):
                raise TableError("The match this Activity was opened for is over: its result is in the channel.")
            raise TableError("There is no table in this channel: open one with /play.")
        # only Discord's record of an instance we looked up puts its user in the channel: any other
        # hello (an instance id we did not look up included) is a browser's, and must be a member's
        watcher = instance_id is None and not table.is_member(self.service_user(user))
        if watcher and not await self.membership(key[0], user.id):
            raise TableError("Only members of this server may watch its tables.")
        return user, key

    async def route(self, guild_id: str) -> None:
        """Raise :class:`Moved` if another process serves the server's tables and says where, or
        refuse as the service does (try again soon) if none does just now."""
        if self.service.core.registry.serves(guild_id):
            return
        where = await self.locate(guild_id) if self.locate is not None else None
        if is_prefix(where) and where != self.prefix:
            raise Moved(str(where))
        if where is not None and not is_prefix(where):
            log.warning("a shard lease names %r as its web prefix, which is not a path of ours: not sent", where)
        raise TableError(MOVED)

    async def show_to(self, viewer: Viewer) -> None:
        table = await self.service.ready(*viewer.key)
        if table is None:
            return
        async with table.lock:
            viewer.post(encode(viewer_frame(table, viewer.user, await self.live.deadline(table))))

    async def handle(self, viewer: Viewer, data: str) -> dict[str, Any] | None:
        """One message from a browser: a move, a confirmation or an undo. Returns a refusal to
        send back, or ``None`` (the change reaches everyone as a frame)."""
        if not self.bucket.allow(viewer.user.id):
            return {"type": "refused", "text": "Too many moves at once: wait a moment and try again."}
        try:
            message = json.loads(data)
        except (ValueError, RecursionError):
            return {"type": "refused", "text": "That message could not be read."}
        if not isinstance(message, dict) or len(message) != 1:
            return {"type": "refused", "text": "That message could not be read."}
        (verb, body), = message.items()
        user = self.service_user(viewer.user)
        guild, channel = viewer.key
        try:
            if verb == "act" and isinstance(body, dict):
                await self.act(viewer, user, body)
            elif verb == "confirm":
                await self.service.confirm(guild, channel, user, entries=entries_seen(body))
            elif verb == "undo":
                await self.service.undo(guild, channel, user, entries=entries_seen(body))
            elif verb == "refresh":
                await self.show_to(viewer)
            else:
                return {"type": "refused", "text": "That message could not be read."}
        except (TableError, IllegalAction) as exc:
            await self.show_to(viewer)
            return {"type": "refused", "text": str(exc)}
        return None

    async def act(self, viewer: Viewer, user: User, body: dict[str, Any]) -> None:
        turn, choice, label = body.get("turn"), body.get("choice"), body.get("label")
        if not isinstance(turn, int) or not isinstance(choice, int) or isinstance(choice, bool):
            raise TableError("That move could not be read.")

        def same(action: Action, what: str) -> Action:
            """The choice still reads as the page showed it: a referee table's turn numbers repeat
            (an undo takes the turn back, the next entry brings it forward with other entries), so
            the number alone could name an entry its tapper never saw."""
            if isinstance(label, str) and label != action.label():
                raise TableError(f"That {what} is no longer offered: here is the table as it is now.")
            return action

        def chosen(table: Table) -> tuple[Action, int | None]:
            """What the click means, read once the service holds the table's lock: the choice
            numbered as in the frame the browser drew at ``turn``."""
            state = table.state
            if state is None or table.status != "playing":
                raise TableError("The game has not started yet." if table.status == "lobby" else "This table is closed.")
            if table.turn != turn:
                raise TableError("The table has moved on since you chose: here is the table as it is now.")
            if table.mode == "referee":
                require_member(table, user)
                entries = referee_entries(state)
                if not 0 <= choice < len(entries):
                    raise TableError("That entry is no longer offered: here is the table as it is now.")
                return same(entries[choice][1], "entry"), entries[choice][0]
            seat = table.seat_of(user.id)
            if seat is None:
                raise TableError("You are not playing at this table.")
            legal = state.legal_actions(seat)
            if not 0 <= choice < len(legal):
                raise TableError("That move is no longer offered: here is the table as it is now.")
            return same(legal[choice], "move"), None

        await self.service.act_chosen(*viewer.key, user, chosen, shown_at=turn)

    @staticmethod
    def service_user(user: WebUser) -> User:
        return User(user.id, user.name)


def entries_seen(body: Any) -> str | None:
    """The entries the frame a Confirm or an Undo was tapped in showed: ``{"seen": mark}`` (its
    :func:`~bot.service.referee.entry_mark`), or ``{"entered": n}`` from a page older than the mark
    (their count alone); ``None``: not said, as by a page older than either."""
    if not isinstance(body, dict):
        return None
    mark, count = body.get("seen"), body.get("entered")
    if isinstance(mark, str) and ENTRY_MARK.fullmatch(mark):
        return mark
    return str(count) if isinstance(count, int) and not isinstance(count, bool) and 0 <= count < 10**6 else None


async def serve(server: WebServer, host: str, port: int) -> web.AppRunner:
    runner = web.AppRunner(server.app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    return runner


async def stop(runner: web.AppRunner) -> None:
    with contextlib.suppress(Exception):
        await runner.cleanup()
