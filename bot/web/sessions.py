"""Our own sessions for web viewers: a random token, bound by the server to a Discord user.

A token is 32 random bytes, handed to the browser once; only its SHA-256 is kept, so a memory
dump or a log line cannot be replayed. A session lasts :data:`LIFETIME` seconds. Nothing the
client says about who it is counts: the user comes from Discord's answer to the token exchange.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

LIFETIME = 12 * 3600.0


@dataclass(frozen=True, slots=True)
class WebUser:
    """A Discord user as Discord itself described them to our server."""

    id: str
    name: str


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Sessions:
    def __init__(self, clock: Callable[[], float] = time.time, lifetime: float = LIFETIME) -> None:
        self._clock = clock
        self._lifetime = lifetime
        self._by_digest: dict[str, tuple[WebUser, float]] = {}

    def issue(self, user: WebUser) -> str:
        token = secrets.token_urlsafe(32)
        self._by_digest[_digest(token)] = (user, self._clock() + self._lifetime)
        self._forget_expired()
        return token

    def user(self, token: object) -> WebUser | None:
        """The session's user, or ``None`` for anything that is not a live token of ours."""
        if not isinstance(token, str) or not 20 <= len(token) <= 100:
            return None
        found = self._by_digest.get(_digest(token))
        if found is None:
            return None
        user, expires = found
        if expires < self._clock():
            del self._by_digest[_digest(token)]
            return None
        return user

    def end(self, token: str) -> None:
        self._by_digest.pop(_digest(token), None)

    def _forget_expired(self) -> None:
        now = self._clock()
        for key in [k for k, (_, expires) in self._by_digest.items() if expires < now]:
            del self._by_digest[key]
