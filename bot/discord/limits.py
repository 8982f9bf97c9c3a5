"""Discord's size limits, a clipping helper, and checks that an embed or a view respects them.

Discord refuses a whole message (HTTP 400) when one part is too long, so everything we render is
clipped to these limits before it is sent, and the tests check the result with
:func:`embed_problems` and :func:`view_problems`.
"""

from __future__ import annotations

import functools
import re

import discord

CONTENT = 2000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
EMBED_TOTAL = 6000
ROWS = 5
SELECT_OPTIONS = 25
BUTTON_LABEL = 80
OPTION_LABEL = 100
OPTION_DESCRIPTION = 100
OPTION_VALUE = 100
PLACEHOLDER = 150
CUSTOM_ID = 100
MODAL_TITLE = 45
LABEL_TEXT = 45
LABEL_DESCRIPTION = 100
TEXT_INPUT_PLACEHOLDER = 100

ELLIPSIS = "…"


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, with an ellipsis when cut."""
    if len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)] + ELLIPSIS


def clip_lines(lines: list[str], limit: int, *, keep: str = "end") -> str:
    """Join lines within ``limit``, dropping whole lines from the start (``keep="end"``) or the
    end (``keep="start"``) rather than cutting a line in half."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    kept = list(lines)
    while kept and len("\n".join(kept)) + 2 > limit:
        kept.pop(0 if keep == "end" else -1)
    if not kept:
        return clip(text, limit)
    return "\n".join([ELLIPSIS, *kept] if keep == "end" else [*kept, ELLIPSIS])


def embed_length(embed: discord.Embed) -> int:
    """The characters Discord counts towards the 6000 total of an embed."""
    return len(embed)


def embed_problems(embed: discord.Embed) -> list[str]:
    """Every way ``embed`` breaks Discord's limits; empty when it may be sent."""
    problems: list[str] = []
    if embed.title and len(embed.title) > EMBED_TITLE:
        problems.append(f"title has {len(embed.title)} characters (max {EMBED_TITLE})")
    if embed.description and len(embed.description) > EMBED_DESCRIPTION:
        problems.append(f"description has {len(embed.description)} characters (max {EMBED_DESCRIPTION})")
    if len(embed.fields) > EMBED_FIELDS:
        problems.append(f"{len(embed.fields)} fields (max {EMBED_FIELDS})")
    for i, f in enumerate(embed.fields):
        if not f.name or len(f.name) > FIELD_NAME:
            problems.append(f"field {i} name has {len(f.name or '')} characters (1 to {FIELD_NAME})")
        if not f.value or len(f.value) > FIELD_VALUE:
            problems.append(f"field {i} value has {len(f.value or '')} characters (1 to {FIELD_VALUE})")
    if embed.footer.text and len(embed.footer.text) > FOOTER:
        problems.append(f"footer has {len(embed.footer.text)} characters (max {FOOTER})")
    if embed.author.name and len(embed.author.name) > AUTHOR:
        problems.append(f"author has {len(embed.author.name)} characters (max {AUTHOR})")
    if embed_length(embed) > EMBED_TOTAL:
        problems.append(f"embed totals {embed_length(embed)} characters (max {EMBED_TOTAL})")
    return problems


TEXT_STYLE = "\ufe0e"
"""Unicode's text-presentation selector: without it Discord draws ♠ and ♣ as black emoji, all but
invisible on its dark theme, and ♥ and ♦ as red ones; with it they are drawn as text, in the
text's own colour."""
SUITS = "♠♥♦♣"


@functools.lru_cache(maxsize=4096)
def legible(text: str) -> str:
    """``text`` with every suit drawn as text, in the text's colour: the suits' colours are the
    pictures' and the card buttons' four-colour pack (diamonds blue, clubs green), which emoji
    (two red suits, two black) would contradict. Remembered: a private view's labels and options
    come back move after move (about 5% of the bot's own CPU a move went here)."""
    return _BARE_SUIT.sub(_TEXT_SUIT, text)


_BARE_SUIT = re.compile(f"([{SUITS}])(?!{TEXT_STYLE})")
"""A suit not already followed by the text-presentation selector."""
_TEXT_SUIT = r"\1" + TEXT_STYLE


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """Clip every part of ``embed`` to its limit, then drop trailing fields until the total fits.
    Every suit is drawn as text (see :func:`legible`)."""
    if embed.title:
        embed.title = clip(legible(embed.title), EMBED_TITLE)
    if embed.description:
        embed.description = clip(legible(embed.description), EMBED_DESCRIPTION)
    fields = [
        (clip(legible(f.name or "-"), FIELD_NAME), clip(legible(f.value or "-"), FIELD_VALUE), f.inline)
        for f in embed.fields
    ]
    embed.clear_fields()
    for name, value, inline in fields[:EMBED_FIELDS]:
        embed.add_field(name=name, value=value, inline=inline)
    if embed.footer.text:
        embed.set_footer(text=clip(legible(embed.footer.text), FOOTER), icon_url=embed.footer.icon_url)
    while embed_length(embed) > EMBED_TOTAL and embed.fields:
        embed.remove_field(len(embed.fields) - 1)
    if embed_length(embed) > EMBED_TOTAL and embed.description:
        excess = embed_length(embed) - EMBED_TOTAL
        embed.description = clip(embed.description, max(len(embed.description) - excess, 1))
    return embed


def view_problems(view: discord.ui.View) -> list[str]:
    """Every way ``view`` breaks Discord's component limits; empty when it may be sent."""
    problems: list[str] = []
    ids: set[str] = set()
    for item in view.children:
        payload = item.to_component_dict()
        custom_id = payload.get("custom_id")
        if custom_id is not None:
            if len(custom_id) > CUSTOM_ID:
                problems.append(
                    f"custom_id {custom_id[:30]!r}... has {len(custom_id)} characters (max {CUSTOM_ID})"
                )
            if custom_id in ids:
                problems.append(f"custom_id {custom_id!r} is used twice")
            ids.add(custom_id)
        kind = payload.get("type")
        if kind == discord.ComponentType.button.value:
            label = payload.get("label") or ""
            if len(label) > BUTTON_LABEL:
                problems.append(
                    f"button label {label[:30]!r}... has {len(label)} characters (max {BUTTON_LABEL})"
                )
        else:
            problems.extend(_select_problems(payload))
    try:
        rows = len(view.to_components())
    except ValueError as exc:  # discord.py's own layout refuses items that cannot fit
        problems.append(str(exc))
    else:
        if rows > ROWS:
            problems.append(f"{rows} rows (max {ROWS})")
    return problems


def _select_problems(payload: dict[str, object]) -> list[str]:
    problems: list[str] = []
    options = payload.get("options")
    if isinstance(options, list):
        if not 1 <= len(options) <= SELECT_OPTIONS:
            problems.append(f"select has {len(options)} options (1 to {SELECT_OPTIONS})")
        values: set[str] = set()
        for opt in options:
            label, value = str(opt.get("label", "")), str(opt.get("value", ""))
            if not label or len(label) > OPTION_LABEL:
                problems.append(
                    f"option label {label[:30]!r} has {len(label)} characters (1 to {OPTION_LABEL})"
                )
            if len(value) > OPTION_VALUE:
                problems.append(
                    f"option value {value[:30]!r} has {len(value)} characters (max {OPTION_VALUE})"
                )
            if value in values:
                problems.append(f"option value {value!r} is used twice in one select")
            values.add(value)
            description = opt.get("description")
            if description and len(str(description)) > OPTION_DESCRIPTION:
                problems.append(
                    f"option description has {len(str(description))} characters (max {OPTION_DESCRIPTION})"
                )
    placeholder = payload.get("placeholder")
    if placeholder and len(str(placeholder)) > PLACEHOLDER:
        problems.append(f"placeholder has {len(str(placeholder))} characters (max {PLACEHOLDER})")
    return problems
