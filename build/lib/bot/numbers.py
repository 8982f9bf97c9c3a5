"""Numbers typed or forged by people: only plain ASCII digits, and not absurdly many."""

from __future__ import annotations

MAX_DIGITS = 18


def plain_int(text: str) -> int | None:
    """``text`` as a whole number if it is written in ASCII digits (``str.isdigit`` also accepts
    superscripts and other scripts' digits, which ``int`` then refuses), else ``None``."""
    text = text.strip()
    if text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS:
        return int(text)
    return None
