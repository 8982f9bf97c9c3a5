"""Which process a live table's page must talk to, in a bot sharded across processes.

A server's tables live in the process that holds its shard's lease (``bot/shards.py``). Every
process runs its own web server behind the host's reverse proxy, under one public origin: the
root (``/``) reaches any live process, and each process is also reachable at its own path prefix
(``PARLOUR_WEB_PREFIX``, e.g. ``/p/0``), which it records with its leases. A socket's hello for a
table of a server this process does not serve is answered with the prefix of the process that
does (a ``moved`` frame and close code :data:`MOVED_CODE`); the page reconnects there. After a
takeover the page's socket drops, it reconnects at the root, and is sent on to the new holder.

A hint is only ever a path on our own origin (:data:`PREFIX`), checked when the setting is read,
when a hint is sent, and by the page before it follows one: no hint leads off our origin. Frames
never pass between processes (a frame of Spec is far larger than a NOTIFY payload).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

PREFIX = re.compile(r"(?:/[a-z0-9][a-z0-9_-]{0,31}){1,3}")
"""A process's own path: one to three lower-case segments, e.g. ``/p/0`` (the page checks the same)."""

MOVED_CODE = 4302
"""The websocket close code of a hello sent to the wrong process (the frame before it says where)."""

Locate = Callable[[str], Awaitable[str | None]]
"""The path prefix of the process that serves a server (by its id) now, or ``None`` if no live
process says (its shard is between owners, or its owner runs no web server)."""


def is_prefix(text: object) -> bool:
    return isinstance(text, str) and PREFIX.fullmatch(text) is not None


def prefix_problem(text: str) -> str | None:
    """Why a ``PARLOUR_WEB_PREFIX`` cannot be used, or ``None``."""
    if is_prefix(text):
        return None
    return (
        "the web prefix is a path on the live table's own address, like /p/0: one to three parts of "
        "lower-case letters, digits, - or _, each starting with a letter or digit"
    )
