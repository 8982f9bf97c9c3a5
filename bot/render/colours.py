"""The 256 colours every picture is stored in, so a picture is mapped to known colours (no
quantizing afresh) and its parts can be mapped once and cached."""

from __future__ import annotations

from functools import cache, lru_cache

from PIL import Image

from bot.render import cardfaces, drawlog
from bot.render.cardfaces import FELT, RGB

DIM = 105 / 255
"""How much of the dark felt shades a dimmed card (see :func:`bot.render.tableau.place_card`)."""


def blend(a: RGB, b: RGB, share: float) -> RGB:
    """``a`` moved ``share`` of the way to ``b``."""
    return (round(a[0] + (b[0] - a[0]) * share), round(a[1] + (b[1] - a[1]) * share), round(a[2] + (b[2] - a[2]) * share))


@cache
def palette() -> Image.Image:
    """The 256 colours every picture is stored in: the theme's own colours, then the blends that
    antialiasing makes where each meets its grounds (the felt, a card's face, a card's back, a
    dimmed card), a quarter, a half and three quarters of the way."""
    colours = list(dict.fromkeys(cardfaces.PALETTE_BASE))
    grounds = [*cardfaces.PALETTE_GROUNDS, *(blend(g, cardfaces.FELT_DARK, DIM) for g in cardfaces.PALETTE_GROUNDS)]
    inks = [*cardfaces.PALETTE_BASE, *(blend(c, cardfaces.FELT_DARK, DIM) for c in cardfaces.PALETTE_BASE)]
    for share in (0.5, 0.25, 0.75):
        for ground in grounds:
            colours.extend(blend(ground, ink, share) for ink in inks if ink != ground)
    tints = [blend(cardfaces.FACE, suit, 0.14) for suit in cardfaces.SUIT_COLOURS.values()]  # court panels
    unique = list(dict.fromkeys([*colours[: len(cardfaces.PALETTE_BASE)], *tints, *grounds, *inks, *colours]))[:256]
    flat = [v for colour in unique for v in colour]
    img = Image.new("P", (1, 1))
    img.putpalette(flat + [0] * (768 - len(flat)))
    return img


def indexed(img: Image.Image) -> Image.Image:
    """``img`` (RGB) mapped to :func:`palette`, each pixel to its nearest colour."""
    return img.quantize(palette=palette(), dither=Image.Dither.NONE)


@cache
def index_of(colour: RGB) -> int:
    """The palette entry nearest ``colour`` (exact for the theme's own colours)."""
    return int(indexed(Image.new("RGB", (1, 1), colour)).getpixel((0, 0)))  # type: ignore[arg-type]


def new_indexed(width: int, height: int, colour: RGB) -> Image.Image:
    """A palette picture of :func:`palette`, filled with ``colour``."""
    img = Image.new("P", (width, height), index_of(colour))
    img.putpalette(palette_bytes())
    return img


@cache
def palette_bytes() -> bytes:
    """:func:`palette`'s colours as the bytes a picture's palette is set from."""
    return bytes(palette().getpalette() or [])


Line = tuple[Image.Image, Image.Image, int, int, tuple[int, int, int, int]]
"""A line of text in the palette: its pixels, where it covers (255) or not (0), where its top
left lies from the point the line is drawn at, and the box of what it covers from that point."""


@lru_cache(maxsize=4096)
def indexed_line(text: str, size: int, fill: RGB, bold: bool, ground: RGB) -> Line | None:
    """``text`` drawn in ``fill`` on ``ground`` as :func:`bot.render.cardfaces.draw_rich` draws it,
    mapped to the palette once (a picture's names, values and headings recur move after move), and
    the pixels it covers; ``None``: nothing to draw. Pasted through its cover onto a palette picture
    whose pixels there are ``ground``, it gives the picture drawn in RGB and mapped whole (each
    pixel is mapped on its own). Two bytes a pixel: 4,096 lines of some 150 by 20 pixels are
    about 25 MB."""
    pieces, _ = cardfaces.rich_pieces(text, size, bold)
    if not pieces:
        return None
    left = min(dx for dx, _, _, _ in pieces)
    top = min(dy for _, dy, _, _ in pieces)
    right = max(dx + piece.width for dx, _, piece, _ in pieces)
    bottom = max(dy + piece.height for _, dy, piece, _ in pieces)
    rgb = Image.new("RGB", (right - left, bottom - top), ground)
    cardfaces.draw_rich(rgb, (-left, -top), text, size, fill, bold)
    cover = Image.new("L", rgb.size, 0)
    for dx, dy, piece, _ in pieces:  # (a suit's tile covers through its alpha)
        cover.im.paste(255, (dx - left, dy - top, dx - left + piece.width, dy - top + piece.height), piece.im)
    cover = cover._new(cover.im.point(COVERED, "L"))  # (Image.point rounds its table in Python: 18 us)
    x0, y0, x1, y1 = cover.getbbox() or (0, 0, 0, 0)
    return indexed(rgb), cover, left, top, (left + x0, top + y0, left + x1, top + y1)


COVERED = [0, *([255] * 255)]
"""Any coverage at all: the pixel is the line's."""


def draw_text(
    img: Image.Image,
    xy: tuple[int, int],
    text: str,
    size: int,
    fill: RGB,
    bold: bool = False,
    ground: RGB = FELT,
) -> int:
    """:func:`bot.render.cardfaces.draw_rich`, on a palette picture too: there the line is pasted
    mapped (:func:`indexed_line`), its pixels there being ``ground``; returns the width drawn."""
    if img.mode != "P":
        return cardfaces.draw_rich(img, xy, text, size, fill, bold)
    log = drawlog.current()
    if log is not None:
        log.texts.append((text, size))
    _, width = cardfaces.rich_pieces(text, size, bold)
    line = indexed_line(text, size, fill, bold, ground)
    if line is not None:
        x, y = xy
        drawn, cover, dx, dy, (x0, y0, x1, y1) = line
        box = (x + x0, y + y0, x + x1, y + y1)
        written: list[tuple[int, int, int, int]] = img.info.setdefault("written", [])
        if any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in written):
            raise TextOverlap(text)
        written.append(box)
        img.im.paste(drawn.im, (x + dx, y + dy, x + dx + drawn.width, y + dy + drawn.height), cover.im)
    return width


class TextOverlap(Exception):
    """A line of text would be written over another in a palette picture: mapped on its own ground,
    it would not be the blend of the two that drawing in RGB gives (labels of a crowded pile can
    run into each other); the caller draws that part in RGB instead."""
