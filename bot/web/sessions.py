"""Our own sessions for web viewers: a token the server signs, bound to a Discord user.

The user in a token is the one Discord named when our server exchanged the browser's OAuth2 code;
nothing the client says about who it is counts. A token is that user and an expiry, signed with
HMAC-SHA256 under a key only the server holds (derived from the application's client secret), so
it survives a restart of the process (a browser reconnects and plays on) and any process of a
sharded bot can check it, with nothing stored. A token lasts :data:`LIFETIME` seconds.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from collections.abc import Callable
from dataclasses import dataclass

LIFETIME = 12 * 3600.0
MAX_TOKEN = 400


@dataclass(frozen=True, slots=True)
class WebUser:
    """A Discord user as Discord itself described them to our server."""

    id: str
    name: str


def session_key(client_secret: str) -> bytes:
    """The signing key, derived from the client secret (never the secret itself)."""
    return hashlib.sha256(b"parlour live table sessions\0" + client_secret.encode()).digest()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Sessions:
    def __init__(self, key: bytes, clock: Callable[[], float] = time.time, lifetime: float = LIFETIME) -> None:
        self._key = key
        self._clock = clock
        self._lifetime = lifetime

    def issue(self, user: WebUser) -> str:
        payload = _b64(json.dumps([user.id, user.name, round(self._clock() + self._lifetime)]).encode())
        return f"{payload}.{self._sign(payload)}"

    def user(self, token: object) -> WebUser | None:
        """The session's user, or ``None`` for anything that is not a live token of ours."""
        read = self._read(token)
        return read[0] if read is not None else None

    def seconds_left(self, token: object) -> float | None:
        """How long a live token of ours has left (``None``: it is not one): a socket opened with
        it is closed then, so a session never outlives its token."""
        read = self._read(token)
        return max(read[1] - self._clock(), 0.0) if read is not None else None

    def _read(self, token: object) -> tuple[WebUser, int] | None:
        if not isinstance(token, str) or len(token) > MAX_TOKEN or token.count(".") != 1:
            return None
        payload, signature = token.split(".")
        if not hmac.compare_digest(signature.encode(), self._sign(payload).encode()):  # str: ASCII only
            return None
        try:
            user_id, name, expires = json.loads(_unb64(payload))
        except (ValueError, TypeError):
            return None
        if not (isinstance(user_id, str) and isinstance(name, str) and isinstance(expires, int)):
            return None
        if expires < self._clock():
            return None
        return WebUser(user_id, name), expires

    def _sign(self, payload: str) -> str:
        return _b64(hmac.new(self._key, payload.encode(), hashlib.sha256).digest())
