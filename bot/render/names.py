"""Players' names in pictures: each cut once to one width, told apart, drawable.

Discord display names run to 32 characters of any script. Drawn whole, a long name widened a
picture past :data:`bot.render.tableau.WIDEST` (its text under 11 pixels on a phone). Before a
layout is drawn, :func:`shortened` writes each player's name, wherever the layout's text holds
it (the heading, a label under a card, a score line, a count, a fact, a note), in one form at most
:data:`NAME_W` pixels wide: the width of the narrowest place a name is drawn, so a player's name
reads the same everywhere in a picture, and in the table's and the hand's pictures alike
(measured with the picture's own font, so ten W's and ten i's both fit, the W's cut sooner). A cut
name ends with "…"; where two names of a table cut to the same form, each keeps as much of its
end as tells them apart ("Al…on", "Al…en"), or else its seat ("A… #2", or "#2" where no letter fits).

The font (DejaVu Sans) has no Chinese, Japanese or Korean letters and no emoji skin tones: a
character it lacks would be drawn as an empty box. Such a character is written "?" (a modifier
or joiner is left out), and a name of which nothing else is left is written by its seat, "#N".

Only the picture is shortened: its description (alt text) and the table's text keep each name whole.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache, lru_cache

from bot.render.cardfaces import _font_path, rich_width
from games.layout import Area, Counts, Facts, Grid, Layout, Pile, Row, Scores, Spot

NAME_SIZE = 16
"""The size names are measured at: the size of a label, a score line and a count
(:data:`bot.render.tableau.TEXT_SIZE`), in bold, as the first line of a label and a score line are drawn."""
NAME_W = 48
"""The widest a name is drawn, in every place: about four letters, what a score line beside a grid
or a pile (a column of 190-220 px) and a count or a fact leave room for. At 56 px Jubilee, Wit and
Reason (II) and Caterpillar grew to 467-474 px, Ninety-Nine's eight counts of cards took two a line
(499 px with ten-letter names) and Hoodwink's trick 484 px. Names were once cut wider where there
was room (56 px under a card, 60 in the heading and notes), and one name read "WW…", "W…" and
"Wolf…" in one picture: a single width reads as one name."""
ELLIPSIS = "…"
DROPPED = {0x200D, *range(0xFE00, 0xFE10), *range(0x1F3FB, 0x1F400), *range(0xE0020, 0xE0080)}
"""Characters left out where the font lacks them: the zero-width joiner, variation selectors,
emoji skin tones and tag characters (they change a character next to them, they are not one)."""


@cache
def drawn_characters() -> frozenset[int] | None:
    """The characters both the regular and the bold font draw (``None``: not known, Pillow's own
    font is in use, and every character is taken as drawn)."""
    from fontTools.ttLib import TTFont  # matplotlib's own dependency

    found: frozenset[int] | None = None
    for bold in (False, True):
        path = _font_path(bold)
        if path is None:
            return None
        with TTFont(path, lazy=True) as face:
            chars = frozenset(face.getBestCmap())
        found = chars if found is None else found & chars
    return found


@lru_cache(maxsize=4096)
def drawable(name: str, seat: int) -> str:
    """``name`` as the font can draw it: composed (NFC: "Zoe" and a combining diaeresis is "Zoë"),
    with no invisible format character (zero-width space, soft hyphen, direction marks: the
    font draws them as nothing, so "Bo\u200bb" would look like "Bob"), each run of characters it
    lacks written "?" (a modifier or joiner left out); its seat ("#3") where nothing else is left.
    Two names drawn alike are then alike as strings, and told apart as such (:func:`fitted`)."""
    name = "".join(ch for ch in unicodedata.normalize("NFC", name) if unicodedata.category(ch) != "Cf")
    chars = drawn_characters()
    if chars is None:
        return name.strip() or stand_in(seat)
    out: list[str] = []
    for ch in name:
        code = ord(ch)
        if code in chars or ch == " ":
            out.append(ch)
        elif code in DROPPED or unicodedata.category(ch) in ("Mn", "Me", "Sk", "Cf"):
            continue
        elif not out or out[-1] != "?":
            out.append("?")
    text = "".join(out).strip()
    if not text.replace("?", "").strip():
        return stand_in(seat)
    return text


def stand_in(seat: int) -> str:
    """What a picture writes for a name of which the font draws nothing: the seat ("#3", short
    enough for every place, so the same everywhere)."""
    return f"#{seat + 1}"


def fit(text: str, width: int) -> str:
    """``text`` whole where it fits ``width`` pixels, else cut to it (at least "…"). A name a
    table numbered to tell it from another seat's ("Sam (2)", see
    :func:`bot.service.lobby.told_apart`) keeps its number, without the brackets where they do
    not fit ("Jo 2", "S…2"), where a plain cut would drop it ("Sa…", "Jo (…")."""
    if rich_width(text, NAME_SIZE, True) <= width:
        return text
    numbered = NUMBERED.fullmatch(text)
    if numbered is not None:
        short = f"{numbered[1]} {numbered[2]}"
        kept = short if rich_width(short, NAME_SIZE, True) <= width else cut(short, width, len(numbered[2]))
        if kept is not None:
            return kept
    return cut(text, width) or ELLIPSIS


NUMBERED = re.compile(r"(.*\S) \((\d{1,3})\)")
"""A name numbered by its table, "Sam (2)": its start and its number."""


def cut(text: str, width: int, keep_end: int = 0) -> str | None:
    """``text`` cut to ``width`` pixels: its longest start that fits with "…" and its last
    ``keep_end`` characters (``None``: not even one character of its start fits)."""
    end = text[len(text) - keep_end :] if keep_end else ""
    room = width - rich_width(ELLIPSIS + end, NAME_SIZE, True)
    low, high = 0, len(text) - keep_end  # text[:low] fits in room; text[:high] does not
    if rich_width(text[:high], NAME_SIZE, True) <= room:
        low = high
    while high - low > 1:
        mid = (low + high) // 2
        if rich_width(text[:mid], NAME_SIZE, True) <= room:
            low = mid
        else:
            high = mid
    if low == 0:
        return None
    return text[:low].rstrip() + ELLIPSIS + end


@lru_cache(maxsize=1024)
def fitted(names: tuple[str, ...], width: int) -> tuple[str, ...]:
    """Each seat's name as a picture draws it in a place ``width`` pixels wide: drawable, cut to
    the width, and no two alike unless the whole names are (see the module's description)."""
    whole = [drawable(name, seat) for seat, name in enumerate(names)]
    forms = [fit(x, width) for x in whole]
    for seats in clashes(forms, names):
        others = {form for s, form in enumerate(forms) if s not in seats}
        told = None
        for keep in range(1, max(len(whole[s]) for s in seats)):
            tried = [cut(whole[s], width, keep) if keep < len(whole[s]) else None for s in seats]
            if None in tried:
                break
            if len(set(tried)) == len(tried) and not set(tried) & others:
                told = tried
                break
        for k, s in enumerate(seats):
            if told is not None:
                forms[s] = told[k] or forms[s]
            else:
                mark = f" #{s + 1}"
                room = width - rich_width(mark, NAME_SIZE, True)
                start = whole[s] if rich_width(whole[s], NAME_SIZE, True) <= room else cut(whole[s], room)
                forms[s] = start + mark if start else mark.strip()
    return tuple(forms)


def clashes(forms: Sequence[str], names: Sequence[str]) -> list[list[int]]:
    """The groups of seats whose forms are alike though their whole names differ."""
    groups: dict[str, list[int]] = {}
    for seat, form in enumerate(forms):
        groups.setdefault(form, []).append(seat)
    return [seats for seats in groups.values() if len(seats) > 1 and len({names[s] for s in seats}) > 1]


Rewrite = Callable[[str], str]


def rewriter(names: tuple[str, ...], width: int) -> Rewrite:
    """A function writing each of ``names`` found in a text in its form at ``width`` (the longest
    name first, so a name inside another is not written twice)."""
    forms = fitted(names, width)
    changed = {name: form for name, form in zip(names, forms, strict=True) if name.strip() and name != form}
    if not changed:
        return _same
    pattern = re.compile("|".join(re.escape(n) for n in sorted(changed, key=len, reverse=True)))
    return lambda text: pattern.sub(lambda m: changed[m.group(0)], text) if text else text


def _same(text: str) -> str:
    return text


def shortened(layout: Layout) -> Layout:
    """``layout`` with its players' names (``layout.players``) written as each place draws them,
    and no players left to write (shortening it again changes nothing)."""
    if not layout.players:
        return layout
    try:
        return shortened_once(layout)
    except TypeError:  # unhashable: a game's hook built a list where a tuple belongs
        return shortened_once.__wrapped__(layout)


@lru_cache(maxsize=256)
def shortened_once(layout: Layout) -> Layout:
    name = rewriter(layout.players, NAME_W)
    if name is _same:
        return replace(layout, players=())

    def spots(cells: tuple[Spot, ...]) -> tuple[Spot, ...]:
        return tuple(replace(s, label=name(s.label)) if s.label else s for s in cells)

    def area(a: Area) -> Area:
        if isinstance(a, Facts):
            return replace(a, items=tuple((k, name(v)) for k, v in a.items), title=name(a.title))
        if isinstance(a, Row | Pile):
            return replace(a, title=name(a.title), note=name(a.note), spots=spots(a.spots))
        if isinstance(a, Grid):
            return replace(a, title=name(a.title), note=name(a.note), cells=spots(a.cells))
        if isinstance(a, Counts):
            return replace(a, title=name(a.title), items=tuple((name(n), c) for n, c in a.items))
        if isinstance(a, Scores):
            lines = tuple(replace(x, name=name(x.name), values=tuple(map(name, x.values))) for x in a.lines)
            return replace(a, title=name(a.title), lines=lines)
        return replace(a, title=name(a.title), lines=tuple(map(name, a.lines)))

    return replace(
        layout,
        title=name(layout.title),
        subtitle=name(layout.subtitle),
        areas=tuple(area(a) for a in layout.areas),
        players=(),
    )
