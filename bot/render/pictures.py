"""Pictures of a table and of a hand, drawn from a game's views alone.

The API the transports use:

* :func:`table_png` ``(view) -> bytes``: the table as ``view`` sees it; for the channel, pass the
  public view (``state.view(None)``);
* :func:`hand_png` ``(view, legal) -> bytes``: a seat's hand, the cards it may play now raised and
  outlined, the others dimmed (``view`` is that seat's view, ``legal`` its legal actions);
* :func:`table_alt_text` and :func:`hand_alt_text`: a short description of each picture (an
  image's alt text), naming only what the picture shows.

A game shapes its picture with :meth:`games.engine.View.layout` and
:meth:`games.engine.View.hand_layout` (pure data, see :mod:`games.layout`); everything here is
drawing. Every picture is landscape, at least 4:3 (Discord fits it into a box about 400 by 300
pixels): where the areas one under another would be taller, they are laid out in two columns or
the picture is widened (:func:`bot.render.tableau.arrange`). Pictures are cached by their layout,
so drawing the same table twice costs a lookup. Drawing is serialised by a lock (Pillow's font
objects are shared), so any thread may call these.
"""

from __future__ import annotations

import struct
import threading
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import lru_cache

from PIL import Image

from bot.render.colours import indexed
from bot.render.names import shortened
from bot.render.tableau import Style, compact_style, draw_layout
from games.cards import Card
from games.engine import Action, View
from games.layout import Layout

ALT_TEXT_LIMIT = 1000
"""Discord allows 1,024 characters of alt text."""
COMPRESS_LEVEL = 1
"""The fastest level of deflate. With ISA-L (the ``isal`` package) a 600 x 450 palette picture is
compressed in about 0.14 ms of CPU, against 0.65 ms for zlib at level 1 and 0.9 ms for Pillow's
PNG writer at level 1, and to fewer bytes (16 against 18 KB, measured on Ninety-Nine's tables)."""

_lock = threading.Lock()


def game_title(game_id: str) -> str:
    try:
        from games.registry import get_game

        return get_game(game_id).title
    except Exception:  # a game outside the catalogue (tests): its id will do
        return game_id.replace("_", " ").capitalize()


def playable_cards(legal: Iterable[Action]) -> tuple[Card, ...]:
    """The cards the legal actions play or show, once each, in order."""
    return tuple(dict.fromkeys(a.card for a in legal if a.card is not None))


def table_layout(view: View) -> Layout:
    layout = with_players(view.layout(), view)
    return layout if layout.title else replace(layout, title=game_title(view.game))


def hand_layout(view: View, legal: Sequence[Action], context: bool = True) -> Layout:
    """The picture of a seat's private view (``context=False``: its hand alone, for a view kept
    while others play, :meth:`~games.engine.View.hand_layout`)."""
    layout = view.hand_layout(playable_cards(legal), context)
    own = "your hand" if view.hand else "your view"
    title = layout.title or (f"{view.players[view.seat]} - {own}" if view.seat is not None else "")
    return with_players(replace(layout, title=title or game_title(view.game)), view)


def with_players(layout: Layout, view: View) -> Layout:
    """``layout`` knowing its players' names, which the picture draws shortened to fit
    (:mod:`bot.render.names`)."""
    return replace(layout, players=tuple(view.players))


def table_png(view: View) -> bytes:
    """A PNG of the table as ``view`` sees it (the public view for the channel)."""
    return picture(table_layout(view))


def hand_png(view: View, legal: Sequence[Action]) -> bytes:
    """A PNG of the seat's hand, the cards of ``legal`` marked (others dimmed); only as wide as
    the hand needs (from 330 pixels) and 4:3, so a short hand keeps large cards on a phone."""
    return picture(hand_layout(view, legal), compact=True)


def picture(layout: Layout, compact: bool = False) -> bytes:
    """The PNG of a layout, from the cache when it can be (a layout holding a list cannot)."""
    try:
        return layout_png(layout, compact)
    except TypeError:  # unhashable: a game's hook built a list where a tuple belongs
        return render_png(layout, compact)


def table_alt_text(view: View, layout: Layout | None = None) -> str:
    """A short description of :func:`table_png`'s picture (``layout``: the picture's own
    :func:`table_layout`, when the caller has it, so it is not built twice)."""
    return clip((layout or table_layout(view)).text())


def hand_alt_text(view: View, legal: Sequence[Action], layout: Layout | None = None, waiting: bool = False) -> str:
    """A short description of :func:`hand_png`'s picture: the hand and the cards that may be played
    (``layout``: the picture's own :func:`hand_layout`, when the caller has it; ``waiting``: the
    cards marked are those its owner could play on their turn, a ready hand).

    It names the seat's own cards: send it only to that seat."""
    layout = layout or hand_layout(view, legal)
    can = playable_cards(legal)
    text = layout.text()
    hand_can = [c.short for c in can if c in view.hand]
    if hand_can:
        text += (" On your turn you could play " if waiting else " You may play ") + ", ".join(hand_can) + "."
    return clip(text)


def clip(text: str, limit: int = ALT_TEXT_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


@lru_cache(maxsize=256)
def layout_png(layout: Layout, compact: bool = False) -> bytes:
    """The PNG bytes of a layout (cached: equal layouts give the same bytes)."""
    return render_png(layout, compact)


def render_png(layout: Layout, compact: bool = False) -> bytes:
    """The PNG bytes of a layout, drawn now (card faces still come from their cache); ``compact``
    draws it only as wide as its content needs."""
    layout = shortened(layout)  # once, where the style and the drawing would each look it up
    with _lock:
        return encode(draw_layout(layout, compact_style(layout) if compact else Style(), indexed=True))


def encode(img: Image.Image) -> bytes:
    """PNG bytes of a drawn picture, mapped to :func:`bot.render.colours.palette` where it is not
    already (a sixth of the CPU of quantizing each picture afresh: the colours drawn are known
    before drawing): 8-bit palette, every row unfiltered (a palette picture gains nothing from
    PNG's filters), deflated by :func:`deflate`."""
    small = img if img.mode == "P" else indexed(img)
    width, height = small.size
    rows = Image.new("L", (width + 1, height), 0)  # a zero byte (no filter) before each row
    rows.im.paste(small.im, (1, 0, width + 1, height))
    colours = bytes(small.getpalette() or [])
    return b"".join(
        (
            PNG_SIGNATURE,
            chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
            chunk(b"PLTE", colours[:768]),
            chunk(b"IDAT", deflate(rows.tobytes(), COMPRESS_LEVEL)),
            chunk(b"IEND", b""),
        )
    )


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def chunk(kind: bytes, data: bytes) -> bytes:
    """A PNG chunk: its length, kind, data and CRC."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


try:
    from isal.isal_zlib import compress as deflate
except ImportError:  # pragma: no cover - without ISA-L's wheel (another platform): zlib, 5x the CPU
    deflate = zlib.compress


def clear_caches() -> None:
    """Forget every cached picture and card face (benchmarks measure a cold start with it)."""
    from bot.render import cardfaces, colours

    layout_png.cache_clear()
    from bot.render import names, tableau

    tableau._kept_plans.clear()
    for cached in (
        cardfaces.card_face,
        cardfaces.box_mask,
        cardfaces.outline_bands,
        cardfaces.pip_mask,
        cardfaces.suit_chip,
        cardfaces.rich_width,
        cardfaces.rich_pieces,
        cardfaces.text_mask,
        cardfaces.wrapped,
        cardfaces.word_width,
        cardfaces.clip_text,
        names.shortened_once,
        names.fitted,
        names.drawable,
        colours.indexed_line,
        tableau.measured_height,
        tableau.drawn_area,
        tableau.indexed_area,
        tableau.indexed_heading,
        tableau.indexed_beside,
        tableau.indexed_face,
        tableau.measured_row_width,
        tableau.labels_width,
        tableau.shaded_face,
        tableau.face_on_felt,
    ):
        cached.cache_clear()


__all__ = [
    "hand_alt_text",
    "hand_png",
    "table_alt_text",
    "table_png",
]
