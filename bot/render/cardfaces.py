# Over 400 lines: drawing a card face, its pips and its index, and the cached glyph masks text is drawn from, which share their font metrics.
"""Drawing one card, a suit pip and a line of text, with Pillow.

Suits are told apart by colour and by shape: a four-colour pack (spades black, hearts red,
diamonds blue, clubs green), and the pips are drawn as shapes here, so nothing depends on a font
having the suit symbols. Jokers carry a star and the word JOKER in their colour (red, black, or
purple for a joker without a colour). Text uses DejaVu Sans (shipped with matplotlib, a dependency,
or installed system-wide), and Pillow's own font when neither is found.

Every piece is cached: a card face is drawn once per size and mark.
"""

from __future__ import annotations

import importlib.util
import math
import os
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.render import drawlog
from games.cards import Card, Colour, Rank, Suit

RGB = tuple[int, int, int]

FELT: RGB = (24, 84, 52)
FELT_LIGHT: RGB = (36, 107, 69)
FELT_DARK: RGB = (16, 60, 37)
BORDER: RGB = (226, 214, 170)
INK: RGB = (244, 241, 230)
MUTED: RGB = (190, 214, 196)
GOLD: RGB = (240, 205, 110)
LEGAL: RGB = (255, 226, 40)
WINNING: RGB = (255, 150, 30)
LAST: RGB = (110, 215, 255)
FACE: RGB = (255, 255, 255)
FACE_EDGE: RGB = (120, 120, 120)
BACK: RGB = (35, 52, 110)
BACK_LINE: RGB = (86, 110, 180)

SUIT_COLOURS: dict[Suit, RGB] = {
    Suit.SPADES: (20, 20, 20),
    Suit.HEARTS: (210, 30, 40),
    Suit.DIAMONDS: (18, 92, 200),
    Suit.CLUBS: (22, 128, 48),
}
JOKER_COLOURS: dict[Colour | None, RGB] = {
    Colour.RED: (210, 30, 40),
    Colour.BLACK: (20, 20, 20),
    None: (120, 40, 160),
}

PALETTE_BASE: tuple[RGB, ...] = (
    FELT, FELT_LIGHT, FELT_DARK, BORDER, INK, MUTED, GOLD, LEGAL, WINNING, LAST, FACE, FACE_EDGE, BACK,
    BACK_LINE, *SUIT_COLOURS.values(), JOKER_COLOURS[None], (60, 120, 85), (70, 140, 100), (250, 246, 230),
    (230, 230, 240), (20, 20, 20), (60, 60, 60), (250, 250, 250), (0, 0, 0),
)
"""Every colour the pictures draw with (:func:`bot.render.colours.palette` adds their blends)."""
PALETTE_GROUNDS: tuple[RGB, ...] = (FELT, FELT_DARK, FELT_LIGHT, FACE, BACK, (250, 246, 230))
"""What the pictures draw on: the felt, a card's face and back, the total's badge."""

# --- fonts ------------------------------------------------------------------------------------------

_FONT_FILES = {True: "DejaVuSans-Bold.ttf", False: "DejaVuSans.ttf"}


def _font_dirs() -> list[str]:
    dirs = []
    spec = importlib.util.find_spec("matplotlib")
    if spec is not None and spec.submodule_search_locations:
        for base in spec.submodule_search_locations:
            dirs.append(os.path.join(base, "mpl-data", "fonts", "ttf"))
    dirs += ["/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu", "/usr/share/fonts/TTF"]
    return dirs


@cache
def _font_path(bold: bool) -> str | None:
    for d in _font_dirs():
        path = os.path.join(d, _FONT_FILES[bold])
        if os.path.exists(path):
            return path
    return None


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    path = _font_path(bold) or _font_path(not bold)
    if path is not None:
        return ImageFont.truetype(path, size)
    return ImageFont.load_default(size)


def text_width(text: str, f: ImageFont.FreeTypeFont | ImageFont.ImageFont) -> int:
    return math.ceil(f.getlength(text))


def put(
    img: Image.Image,
    source: Image.Image | RGB | int,
    box: tuple[int, int, int, int],
    mask: Image.Image | None = None,
) -> None:
    """``img.paste`` without its checks (a picture pastes a hundred words and cards): ``source`` a
    picture of ``img``'s mode (or an RGBA one onto RGB) or a colour (a palette entry in a palette
    picture), ``box`` its exact place; only for pictures drawn here (loaded, never shared)."""
    src = source.im if isinstance(source, Image.Image) else source
    if mask is None:
        img.im.paste(src, box)
    else:
        img.im.paste(src, box, mask.im)



def rounded_box(
    img: Image.Image,
    box: tuple[int, int, int, int],
    radius: int,
    fill: RGB | int | None = None,
    outline: RGB | int | None = None,
    width: int = 1,
) -> None:
    """``ImageDraw.rounded_rectangle`` with integer corners ``box`` (last pixel included), the same
    pixels (it draws without antialiasing, so a mask of it pasted in a colour is exact) from masks
    drawn once per size: a picture draws dozens (cards' marks, chips, the border) and
    ImageDraw's own costs some 30 microseconds each in Python. ``fill``/``outline``: colours of
    ``img``'s mode (an RGB triple, a palette index); an outline's ``width`` less than half the
    box's (ImageDraw draws a wider one outside the box)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0 + 1, y1 - y0 + 1
    if fill is not None:
        img.im.paste(fill, (x0, y0, x0 + w, y0 + h), box_mask(w, h, radius, 0).im)
    if outline is not None and outline != fill and width:
        for dx, dy, band in outline_bands(w, h, radius, width):
            img.im.paste(outline, (x0 + dx, y0 + dy, x0 + dx + band.width, y0 + dy + band.height), band.im)


@lru_cache(maxsize=1024)
def box_mask(w: int, h: int, radius: int, width: int) -> Image.Image:
    """Where :func:`rounded_box` draws, ``w`` by ``h``: its fill (``width`` 0) or its outline."""
    mask = Image.new("L", (w, h), 0)
    if width:
        ImageDraw.Draw(mask).rounded_rectangle([0, 0, w - 1, h - 1], radius=radius, outline=255, width=width)
    else:
        ImageDraw.Draw(mask).rounded_rectangle([0, 0, w - 1, h - 1], radius=radius, fill=255)
    return mask


@lru_cache(maxsize=1024)
def outline_bands(w: int, h: int, radius: int, width: int) -> tuple[tuple[int, int, Image.Image], ...]:
    """An outline's mask in four bands along the edges ``(x, y, mask)``: a picture's border is
    pasted over its edges, not over all of its pixels. Nothing of an outline lies further in than
    its radius or its width."""
    mask = box_mask(w, h, radius, width)
    t = max(radius, width) + 1
    if 2 * t >= min(w, h):
        return ((0, 0, mask),)
    parts = ((0, 0, w, t), (0, h - t, w, h), (0, t, t, h - t), (w - t, t, w, h - t))
    return tuple((x0, y0, mask.crop((x0, y0, x1, y1))) for x0, y0, x1, y1 in parts)

# --- pips -----------------------------------------------------------------------------------------

_SS = 4  # supersampling of shapes


def _circle(d: ImageDraw.ImageDraw, s: float, cx: float, cy: float, r: float) -> None:
    d.ellipse([(cx - r) * s, (cy - r) * s, (cx + r) * s, (cy + r) * s], fill=255)


def _poly(d: ImageDraw.ImageDraw, s: float, points: list[tuple[float, float]]) -> None:
    d.polygon([(x * s, y * s) for x, y in points], fill=255)


@lru_cache(maxsize=256)
def pip_mask(shape: str, size: int) -> Image.Image:
    """An antialiased mask of a suit (``S H D C``) or a star (``*``), ``size`` pixels square."""
    big = size * _SS
    mask = Image.new("L", (big, big), 0)
    d = ImageDraw.Draw(mask)
    s = float(big)
    if shape == "H":
        _circle(d, s, 0.285, 0.31, 0.245)
        _circle(d, s, 0.715, 0.31, 0.245)
        _poly(d, s, [(0.06, 0.40), (0.94, 0.40), (0.5, 0.95)])
        _poly(d, s, [(0.3, 0.2), (0.7, 0.2), (0.5, 0.5)])
    elif shape == "S":
        _circle(d, s, 0.285, 0.56, 0.225)
        _circle(d, s, 0.715, 0.56, 0.225)
        _poly(d, s, [(0.08, 0.50), (0.92, 0.50), (0.5, 0.03)])
        _poly(d, s, [(0.5, 0.55), (0.3, 0.98), (0.7, 0.98)])
    elif shape == "C":
        _circle(d, s, 0.5, 0.27, 0.215)
        _circle(d, s, 0.27, 0.6, 0.215)
        _circle(d, s, 0.73, 0.6, 0.215)
        _circle(d, s, 0.5, 0.52, 0.12)
        _poly(d, s, [(0.5, 0.5), (0.3, 0.98), (0.7, 0.98)])
    elif shape == "D":
        _poly(d, s, [(0.5, 0.02), (0.88, 0.5), (0.5, 0.98), (0.12, 0.5)])
    else:  # a five-pointed star
        pts = []
        for i in range(10):
            r = 0.49 if i % 2 == 0 else 0.2
            a = -math.pi / 2 + i * math.pi / 5
            pts.append((0.5 + r * math.cos(a), 0.53 + r * math.sin(a)))
        _poly(d, s, pts)
    return mask.resize((size, size), Image.Resampling.LANCZOS)


def paste_shape(img: Image.Image, shape: str, xy: tuple[int, int], size: int, colour: RGB) -> None:
    img.paste(colour, (xy[0], xy[1], xy[0] + size, xy[1] + size), pip_mask(shape, size))


@lru_cache(maxsize=64)
def suit_chip(suit: Suit, size: int) -> Image.Image:
    """A suit on a small white tile: how a suit symbol in a line of text is drawn on the felt."""
    chip = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(chip)
    d.rounded_rectangle([0, 0, size - 1, size - 1], radius=max(2, size // 5), fill=(*FACE, 255))
    inner = int(size * 0.76)
    off = (size - inner) // 2
    chip.paste(SUIT_COLOURS[suit] + (255,), (off, off, off + inner, off + inner), pip_mask(suit.value, inner))
    return chip


# --- text with suits ------------------------------------------------------------------------------

_SYMBOLS = {"♠": Suit.SPADES, "♥": Suit.HEARTS, "♦": Suit.DIAMONDS, "♣": Suit.CLUBS}


def _runs(text: str) -> list[str | Suit]:
    out: list[str | Suit] = []
    buf = ""
    for ch in text:
        if ch in _SYMBOLS:
            if buf:
                out.append(buf)
                buf = ""
            out.append(_SYMBOLS[ch])
        else:
            buf += ch
    if buf:
        out.append(buf)
    return out


@lru_cache(maxsize=4096)
def rich_width(text: str, size: int, bold: bool = False) -> int:
    """The width ``text`` is drawn at (a picture's arrangement measures the same words many times)."""
    width = 0
    for run in _runs(text):
        width += chip_advance(size) if isinstance(run, Suit) else run_width(run, size, bold)
    return width


def run_width(run: str, size: int, bold: bool) -> int:
    """The width of a run of text without suits: its words' (each measured once) and spaces'."""
    words = run.split(" ")
    if len(words) == 1:
        return word_width(run, size, bold)
    return sum(word_width(w, size, bold) for w in words) + (len(words) - 1) * word_width(" ", size, bold)


@lru_cache(maxsize=8192)
def word_width(word: str, size: int, bold: bool) -> int:
    return text_width(word, font(size, bold)) if word else 0


def chip_advance(size: int) -> int:
    return int(size * 1.05) + 3


def draw_rich(
    img: Image.Image, xy: tuple[int, int], text: str, size: int, fill: RGB, bold: bool = False
) -> int:
    """Draw ``text`` at ``xy`` (top left), suit symbols as coloured pips on white tiles; returns
    the width drawn (on a palette picture: :func:`bot.render.colours.draw_text`)."""
    log = drawlog.current()
    if log is not None:
        log.texts.append((text, size))
    pieces, width = rich_pieces(text, size, bold)
    x, y = xy
    paste = img.im.paste
    for dx, dy, piece, chip in pieces:
        box = (x + dx, y + dy, x + dx + piece.width, y + dy + piece.height)
        paste(piece.im if chip else fill, box, piece.im)
    return width


Piece = tuple[int, int, Image.Image, bool]
"""Where a part of a line of text goes from its top left, and what: a word's mask (drawn in the
line's colour) or a suit's tile (``True``: pasted as it is, through its own alpha)."""


@lru_cache(maxsize=8192)
def rich_pieces(text: str, size: int, bold: bool = False) -> tuple[tuple[Piece, ...], int]:
    """The pieces :func:`draw_rich` pastes for ``text`` and the width they take, worked out once
    per line (a picture draws the same names, values and headings move after move)."""
    pieces: list[Piece] = []
    x = 0
    for run in _runs(text):
        if isinstance(run, Suit):
            chip = int(size * 1.05)
            pieces.append((x + 1, int(size * 0.08), suit_chip(run, chip), True))
            x += chip_advance(size)
            continue
        for k, word in enumerate(run.split(" ")):
            if k:
                x += word_width(" ", size, bold)
            mask, (ox, oy) = text_mask(word, size, bold)
            if mask.width and mask.height:
                pieces.append((x + ox, oy, mask, False))
            x += word_width(word, size, bold)
    return tuple(pieces), x


@lru_cache(maxsize=8192)
def text_mask(text: str, size: int, bold: bool = False) -> tuple[Image.Image, tuple[int, int]]:
    """The antialiased coverage of ``text`` (a word) and where it sits from the point it is drawn
    at: the same words (names, headings, scores) recur in every picture, so FreeType draws each
    once."""
    f = font(size, bold)
    left, top, right, bottom = (int(v) for v in f.getbbox(text))
    if right <= left or bottom <= top:
        return Image.new("L", (0, 0)), (0, 0)
    mask = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255)
    return mask, (left, top)


@lru_cache(maxsize=8192)
def clip_text(text: str, width: int, size: int, bold: bool = False) -> str:
    """``text`` cut (with an ellipsis) to fit ``width`` pixels (the cut found by halving)."""
    if rich_width(text, size, bold) <= width:
        return text
    low, high = 0, len(text)  # text[:low] + "…" fits (or low is 0); text[:high] + "…" does not
    while high - low > 1:
        mid = (low + high) // 2
        if rich_width(text[:mid] + "…", size, bold) <= width:
            low = mid
        else:
            high = mid
    return text[:low] + "…" if low else ""


def wrap_text(text: str, width: int, size: int, bold: bool = False) -> list[str]:
    """Split ``text`` into lines of at most ``width`` pixels, at spaces."""
    return list(wrapped(text, width, size, bold))


@lru_cache(maxsize=8192)
def wrapped(text: str, width: int, size: int, bold: bool = False) -> tuple[str, ...]:
    """:func:`wrap_text`, cached: a picture's arrangement wraps the same lines at a few widths, and
    the next move's picture mostly the same lines again. Words are measured once each; a line's
    width is the sum of its words' and spaces' (a line that does not fit after all is clipped)."""
    lines: list[str] = []
    line = ""
    used = 0
    space = rich_width(" ", size, bold)
    for word in text.split(" "):
        w = rich_width(word, size, bold)
        if not line or used + space + w <= width:
            used = used + space + w if line else w
            line = f"{line} {word}" if line else word
        else:
            lines.append(line)
            line, used = word, w
    if line:
        lines.append(line)
    return tuple(clip_text(x, width, size, bold) for x in lines)


# --- cards ------------------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def index_width(width: int) -> int:
    """How far from a card's left edge its index (rank over pip, see :func:`card_face`) reaches for
    the widest rank: a card laid over it must start at least this far to the right."""
    left = max(3, width // 16)
    widest = max(
        text_width(rank.code, font(int(width * (0.42 if rank.code != "10" else 0.36)), True)) for rank in Rank
    )
    return left + max(widest, int(width * 0.3)) + 1


def card_size(width: int) -> tuple[int, int]:
    return width, round(width * 1.4)


@lru_cache(maxsize=512)
def card_face(card: Card | None, width: int) -> Image.Image:
    """A card (``None``: its back), ``width`` pixels wide, as an RGBA image with rounded corners."""
    w, h = card_size(width)
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    radius = max(4, w // 10)
    if card is None:
        d.rounded_rectangle([0, 0, w - 1, h - 1], radius=radius, fill=BACK, outline=(230, 230, 240), width=2)
        inset = max(5, w // 12)
        d.rounded_rectangle(
            [inset, inset, w - 1 - inset, h - 1 - inset], radius=max(2, radius // 2), outline=BACK_LINE, width=2
        )
        step = max(8, w // 7)
        for k in range(-h, w + h, step):
            d.line([(inset + 3 + k, inset + 3), (inset + 3 + k + h, inset + 3 + h)], fill=BACK_LINE, width=1)
            d.line([(inset + 3 + k, inset + 3), (inset + 3 + k - h, inset + 3 + h)], fill=BACK_LINE, width=1)
        # keep the lattice inside the inner frame
        frame = Image.new("L", (w, h), 0)
        ImageDraw.Draw(frame).rounded_rectangle([0, 0, w - 1, h - 1], radius=radius, fill=255)
        inner = Image.new("L", (w, h), 0)
        ImageDraw.Draw(inner).rounded_rectangle(
            [inset + 2, inset + 2, w - 3 - inset, h - 3 - inset], radius=max(2, radius // 2), fill=255
        )
        base = Image.new("RGBA", (w, h), (0, 0, 0, 0))
        bd = ImageDraw.Draw(base)
        bd.rounded_rectangle([0, 0, w - 1, h - 1], radius=radius, fill=BACK, outline=(230, 230, 240), width=2)
        bd.rounded_rectangle(
            [inset, inset, w - 1 - inset, h - 1 - inset], radius=max(2, radius // 2), outline=BACK_LINE, width=2
        )
        base.paste(img, (0, 0), inner)
        base.putalpha(frame)
        return base
    d.rounded_rectangle([0, 0, w - 1, h - 1], radius=radius, fill=FACE, outline=FACE_EDGE, width=1)
    if card.rank is None:
        _draw_joker(img, card, w, h)
        return img
    assert card.suit is not None
    colour = SUIT_COLOURS[card.suit]
    rank = card.rank.code
    big = int(w * (0.42 if rank != "10" else 0.36))
    f = font(big, True)
    left = max(3, w // 16)
    # the index: rank and a pip down the left edge, readable where cards overlap
    tw = text_width(rank, f)
    index_w = max(tw, int(w * 0.3))
    d.text((left + (index_w - tw) // 2, max(1, h // 40)), rank, font=f, fill=colour)
    small = int(w * 0.3)
    paste_shape(img, card.suit.value, (left + (index_w - small) // 2, int(big * 1.12) + h // 40), small, colour)
    # the centre: a large pip (or, for a court card, a frame with the rank and the pip)
    if card.rank.is_court or card.rank == Rank.ACE:
        _draw_centre(img, card, w, h, colour)
    else:
        pip = int(w * 0.5)
        paste_shape(img, card.suit.value, (w - pip - max(4, w // 10), h - pip - max(5, h // 12)), pip, colour)
    return img


def _draw_centre(img: Image.Image, card: Card, w: int, h: int, colour: RGB) -> None:
    """Courts and aces: a tinted panel at the lower right with a big pip, so they stand out."""
    assert card.suit is not None and card.rank is not None
    d = ImageDraw.Draw(img)
    x0, y0 = int(w * 0.4), int(h * 0.4)
    x1, y1 = w - max(4, w // 12), h - max(4, w // 12)
    tint = tuple(int(255 - (255 - c) * 0.14) for c in colour)
    if card.rank != Rank.ACE:
        d.rounded_rectangle([x0, y0, x1, y1], radius=max(3, w // 16), fill=tint, outline=colour, width=2)
        pip = int(min(x1 - x0, y1 - y0) * 0.62)
    else:
        pip = int(w * 0.56)
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    paste_shape(img, card.suit.value, (cx - pip // 2, cy - pip // 2), pip, colour)


def _draw_joker(img: Image.Image, card: Card, w: int, h: int) -> None:
    colour = JOKER_COLOURS[card.colour]
    d = ImageDraw.Draw(img)
    size = max(9, int(w * 0.19))
    f = font(size, True)
    left = max(4, w // 14)
    y = max(3, h // 40)
    for letter in "JOKER":
        lw = text_width(letter, f)
        d.text((left + (size - lw) // 2, y), letter, font=f, fill=colour)
        y += int(size * 1.02)
    star = int(w * 0.6)
    paste_shape(img, "*", (w - star - max(3, w // 14), h - star - max(6, h // 10)), star, colour)
    if card.colour is None:
        # an undifferentiated joker: a ring of the four suit colours round its star
        pip = max(8, w // 7)
        x = w - 4 * pip - max(4, w // 12)
        for suit in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS):
            paste_shape(img, suit.value, (x, max(4, h // 30)), pip, SUIT_COLOURS[suit])
            x += pip
