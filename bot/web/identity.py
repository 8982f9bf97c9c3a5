"""What only Discord can tell our server: who a browser's user is, and where an Activity runs.

* :meth:`DiscordIdentity.user_for_code`: the OAuth2 code a browser obtained (from the Activity's
  ``authorize()`` or from the "Log in with Discord" page) is exchanged for an access token at
  Discord's token endpoint (form-encoded, with our client secret), then ``/users/@me`` names the
  user. The browser never tells us who it is.
* :meth:`DiscordIdentity.instance`: an Activity instance's channel, server and participants, asked
  with the bot's token (``GET /applications/{id}/activity-instances/{instance_id}``). A channel id
  sent by the client is never trusted.

The base URL is a setting, so the tests point it at a fake Discord of their own.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp

from bot.render.records import plural
from bot.web.sessions import WebUser

DISCORD_API = "https://discord.com/api/v10"

INSTANCE_ID = re.compile(r"[A-Za-z0-9_-]{1,100}")
"""What an Activity instance id is made of (``i-1286...-gc-1277...-1277...``). The id goes into the
path of a request made with the bot's token, so anything else (``..``, a slash, a query, an escape)
is refused before Discord is asked: it would send the token to another of Discord's endpoints."""


class IdentityError(Exception):
    """Discord refused or could not be asked; the message is safe to show (no token in it)."""


class DiscordBusy(IdentityError):
    """Discord answered 429: nothing of that kind is asked again for ``retry_after`` seconds."""

    def __init__(self, retry_after: float) -> None:
        self.retry_after = max(1, math.ceil(retry_after))
        super().__init__(f"Discord asks Parlour to wait: try again in {plural(self.retry_after, 'second')}.")


LONGEST_WAIT = 3600.0
"""The longest a 429's ``retry_after`` is believed (a garbled one must not lock log-ins for good)."""


@dataclass(frozen=True, slots=True)
class Instance:
    """Where an Activity instance runs, as Discord says."""

    instance_id: str
    guild_id: str
    channel_id: str
    user_ids: frozenset[str]


@dataclass(frozen=True, slots=True)
class Login:
    user: WebUser
    access_token: str
    """Handed back to the Activity for the SDK's ``authenticate()``; never logged, never in a URL."""


class DiscordIdentity:
    def __init__(
        self,
        http: aiohttp.ClientSession,
        *,
        client_id: str,
        client_secret: str,
        bot_token: str,
        base_url: str = DISCORD_API,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._http = http
        self.client_id = client_id
        self._client_secret = client_secret
        self._bot_token = bot_token
        self.base_url = base_url.rstrip("/")
        self.clock = clock
        self._wait_until: dict[str, float] = {}
        """Per kind of request (and ``""`` for Discord's global limit): when Discord may be asked
        again after a 429. Anyone may post log-in codes, and each 429 counts towards Cloudflare's
        ban of the bot's address (10,000 invalid requests in 10 minutes): a flood must stop at the
        first one, not go on asking."""

    async def user_for_code(self, code: str, redirect_uri: str | None = None) -> Login:
        form = {
            "grant_type": "authorization_code",
            "code": code,
            "client_id": self.client_id,
            "client_secret": self._client_secret,
        }
        if redirect_uri is not None:
            form["redirect_uri"] = redirect_uri
        token = await self._ask("POST", "/oauth2/token", data=form, what="The log-in code")
        access = token.get("access_token")
        if not isinstance(access, str) or not access:
            raise IdentityError("Discord did not accept the log-in code.")
        # asked with the user's own token, whose limits are theirs: their 429 holds back no one else
        me = await self._ask(
            "GET", "/users/@me", headers={"Authorization": f"Bearer {access}"}, what="The log-in", shared=False
        )
        user_id, name = me.get("id"), me.get("global_name") or me.get("username")
        if not isinstance(user_id, str) or not isinstance(name, str):
            raise IdentityError("Discord did not say who you are.")
        return Login(WebUser(user_id, name), access)

    async def instance(self, instance_id: str) -> Instance:
        if not INSTANCE_ID.fullmatch(instance_id):
            raise IdentityError("That is not an Activity Discord knows of.")
        path = f"/applications/{self.client_id}/activity-instances/{instance_id}"
        data = await self._ask("GET", path, headers={"Authorization": f"Bot {self._bot_token}"}, what="The Activity")
        location = data.get("location")
        location = location if isinstance(location, dict) else {}
        guild_id, channel_id = location.get("guild_id"), location.get("channel_id")
        users = data.get("users")
        users = users if isinstance(users, list) else []
        if not isinstance(guild_id, str) or not isinstance(channel_id, str):
            raise IdentityError("This Activity is not running in a server's channel.")
        return Instance(instance_id, guild_id, channel_id, frozenset(str(u) for u in users))

    async def _ask(self, method: str, path: str, *, what: str, shared: bool = True, **kwargs: Any) -> dict[str, Any]:
        """One request to Discord. ``shared``: a 429 holds back everyone's requests of its kind
        (or all of them, when Discord says its limit is global) until its wait is over: the bot's
        and the application's limits. Not shared: asked with a user's own token, whose limits,
        global ones included, are theirs alone (only their log-in is told to wait)."""
        now = self.clock()
        wait = max(self._wait_until.get(what, 0.0), self._wait_until.get("", 0.0)) - now
        if wait > 0:
            raise DiscordBusy(wait)
        try:
            async with self._http.request(method, self.base_url + path, **kwargs) as response:
                if response.status == 429:
                    try:
                        body = await response.json(content_type=None)
                    except ValueError:
                        body = None
                    raise self._busy(what, response, body, shared)
                if response.status in (400, 401, 403, 404):
                    raise IdentityError(f"{what} was refused by Discord.")
                response.raise_for_status()
                data = await response.json()
        except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
            raise IdentityError(f"Discord could not be reached to check {what.lower()}.") from exc
        if not isinstance(data, dict):
            raise IdentityError(f"Discord's answer about {what.lower()} made no sense.")
        return data

    def _busy(self, what: str, response: aiohttp.ClientResponse, body: Any, shared: bool = True) -> DiscordBusy:
        """Note a 429's wait (its body's ``retry_after``, else the Retry-After header, else 5 s)."""
        wait = body.get("retry_after") if isinstance(body, dict) else None
        if not isinstance(wait, int | float) or isinstance(wait, bool):
            try:
                wait = float(response.headers.get("Retry-After", "5"))
            except ValueError:
                wait = 5.0
        wait = min(max(float(wait), 1.0), LONGEST_WAIT) if math.isfinite(wait) else 5.0
        if shared:  # a user's own token's limit, global or not, is theirs: it holds back nobody else
            scope = "" if isinstance(body, dict) and body.get("global") is True else what
            self._wait_until[scope] = self.clock() + wait
        return DiscordBusy(wait)
