"""User text in Discord's markdown: shown as typed, never acting. A name such as
``[free](https://e.x)`` stays text (not a link), ``||x||`` is no spoiler, ``<@123>`` and
``@everyone`` are no mentions, and a direction mark cannot flip the rest of a line.

Names are cleaned of invisible characters where they come in (:func:`bot.render.text.clean_name`);
:func:`plain` is applied where text that may hold a name or typed text meets markdown: the table
and hand embeds, the deal-end message, the records' embeds, public notices and refusals."""

from __future__ import annotations

import functools
import re

import discord

from bot.render.text import strip_marks

ANYWHERE = re.compile(r"([\\*_`~|\[\]])")
"""Characters that format wherever they stand: emphasis, code, strike, spoilers, masked links."""
LINE_START = re.compile(r"^(\s*)([>#-])", re.MULTILINE)
"""Characters that format at the start of a line: quotes, headings, lists, subtext."""


def escape_markdown(text: str) -> str:
    """Every markdown character escaped (Discord shows an escaped character as itself).
    ``discord.utils.escape_markdown`` escapes one masked link of a line, not the next."""
    return LINE_START.sub(r"\1\\\2", ANYWHERE.sub(r"\\\1", text))


@functools.lru_cache(maxsize=8192)
def plain(text: str, mentions: bool = False) -> str:
    """``text`` as Discord markdown that shows it literally (its own words, nothing active);
    ``mentions``: keep the mentions the bot wrote (an embed shows them as names, never pings).
    Remembered: a table's lines and names come back at every edit of its messages (three
    regular expressions a line, about a fifth of a private view's embed)."""
    shown = escape_markdown(strip_marks(text))
    return shown if mentions else discord.utils.escape_mentions(shown)


def plain_lines(lines: list[str], mentions: bool = False) -> list[str]:
    return [plain(line, mentions) for line in lines]
