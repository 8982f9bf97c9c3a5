"""A stand-in for the parts of Discord's API the web server asks (tests only): the OAuth2 token
exchange, ``/users/@me`` and an Activity instance's record. It knows a few users; a code is
``mock-<name>`` (what the page's SDK mock asks for), its token ``token-<name>``. Anything else is
refused as Discord would refuse it."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

BOT_TOKEN = "bot-token-for-tests"
CLIENT_ID = "700000000000000001"
INSTANCE_ID = "123456789012345678"
"""The instance id the Embedded App SDK's mock reports."""


@dataclass
class StandIn:
    users: dict[str, str]
    """name -> Discord id."""
    guild_id: str = "10"
    channel_id: str = "20"
    in_instance: set[str] = field(default_factory=set)
    """Names of the users taking part in the Activity instance."""
    exchanges: int = 0
    asked: list[str] = field(default_factory=list)
    """The path of every request, as it reached Discord (after the client's URL normalisation)."""
    busy: float | None = None
    """While set, every request is answered 429 with this ``retry_after`` (Discord's rate limit)."""
    busy_users: set[str] = field(default_factory=set)
    """Users whose own token Discord answers 429 on ``/users/@me`` (a user's limit, not the app's)."""

    def app(self) -> web.Application:
        @web.middleware
        async def record(request: web.Request, handler: Any) -> web.StreamResponse:
            self.asked.append(request.path)
            if self.busy is not None:
                body = {"message": "You are being rate limited.", "retry_after": self.busy, "global": False}
                return web.json_response(body, status=429, headers={"Retry-After": str(math.ceil(self.busy))})
            return await handler(request)

        app = web.Application(middlewares=[record])
        app.add_routes(
            [
                web.post("/oauth2/token", self.token),
                web.get("/users/@me", self.me),
                web.get("/applications/{app}/activity-instances/{instance}", self.instance),
            ]
        )
        return app

    async def token(self, request: web.Request) -> web.Response:
        form = await request.post()
        code = str(form.get("code", ""))
        self.exchanges += 1
        if form.get("client_secret") != "secret" or form.get("grant_type") != "authorization_code":
            return web.json_response({"error": "invalid_client"}, status=401)
        name = code.removeprefix("mock-")
        if not code.startswith("mock-") or name not in self.users:
            return web.json_response({"error": "invalid_grant"}, status=400)
        return web.json_response({"access_token": f"token-{name}", "token_type": "Bearer"})

    async def me(self, request: web.Request) -> web.Response:
        name = request.headers.get("Authorization", "").removeprefix("Bearer token-")
        if name in self.busy_users:
            body = {"message": "You are being rate limited.", "retry_after": 60.0, "global": True}  # their global limit
            return web.json_response(body, status=429, headers={"Retry-After": "60", "X-RateLimit-Global": "true"})
        if name not in self.users:
            return web.json_response({"message": "401: Unauthorized"}, status=401)
        return web.json_response({"id": self.users[name], "username": name, "global_name": name.title()})

    async def instance(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization") != f"Bot {BOT_TOKEN}" or request.match_info["app"] != CLIENT_ID:
            return web.json_response({"message": "401: Unauthorized"}, status=401)
        if request.match_info["instance"] != INSTANCE_ID:
            return web.json_response({"message": "Unknown instance"}, status=404)
        return web.json_response(
            {
                "application_id": CLIENT_ID,
                "instance_id": INSTANCE_ID,
                "launch_id": "1",
                "location": {"id": "gc-1", "kind": "gc", "guild_id": self.guild_id, "channel_id": self.channel_id},
                "users": [self.users[n] for n in sorted(self.in_instance)],
            }
        )
