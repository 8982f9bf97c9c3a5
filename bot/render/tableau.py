"""Drawing a :class:`games.layout.Layout` with Pillow: the felt, the heading and each area.

Each area is drawn into a strip of the picture's inner width; the strips are stacked on a felt panel
with a light border, so the picture reads the same on Discord's dark and light themes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from PIL import Image, ImageDraw

from bot.render.cardfaces import (
    BORDER,
    FELT,
    FELT_DARK,
    FELT_LIGHT,
    GOLD,
    INK,
    LAST,
    LEGAL,
    MUTED,
    WINNING,
    card_face,
    card_size,
    clip_text,
    draw_rich,
    paste_shape,
    rich_width,
    wrap_text,
)
from games.layout import Area, Counts, Facts, Grid, Layout, Notes, Pile, Row, Scores, Spot

WIDTH = 800
"""The picture's width: phones show it without shrinking the cards past reading."""
PAD = 18
INNER = WIDTH - 2 * PAD
GAP = 14
"""Space between areas."""

CARD_W = 84
HAND_CARD_W = 100
SMALL_CARD_W = 62
CARD_GAP = 10
MIN_STEP = 40
"""The narrowest overlap step that still shows a card's index (rank and suit)."""
RAISE = 18
"""How far a card that may be played stands out of the hand."""

TITLE_SIZE = 30
SUB_SIZE = 22
HEAD_SIZE = 21
TEXT_SIZE = 20
LABEL_SIZE = 18


@dataclass(frozen=True)
class Style:
    """How big the cards of a picture are."""

    card: int = CARD_W
    hand: int = HAND_CARD_W
    width: int = WIDTH


def felt(width: int, height: int) -> Image.Image:
    return Image.new("RGB", (width, height), FELT)


# --- the picture -----------------------------------------------------------------------------------


COMPACT_MIN = 600
"""The narrowest a compact picture (a small hand) is drawn."""


def natural_width(area: Area, style: Style) -> int:
    """The width an area would like: its cards side by side, its chips in one line."""
    if isinstance(area, Row):
        marked = any(s.mark in ("legal", "dimmed") for s in area.spots)
        card = style.hand if (area.overlap and (marked or area.title == "Your hand")) else style.card
        if area.overlap and len(area.spots) > 20:
            card = min(card, style.card)
        cards = len(area.spots) * (card + CARD_GAP) - CARD_GAP
        return max(cards, rich_width(area.title, HEAD_SIZE, True))
    if isinstance(area, Pile):
        card = style.card if len(area.spots) <= 10 else SMALL_CARD_W
        return 146 + len(area.spots) * (card + CARD_GAP)
    if isinstance(area, Grid):
        return 30 + len(area.columns) * (style.card + 8)
    if isinstance(area, Facts):
        size = TEXT_SIZE + 1
        return sum(rich_width(f"{k} ", size) + rich_width(v, size, True) + 32 for k, v in area.items)
    if isinstance(area, Counts):
        return len(area.items) * 150
    if isinstance(area, Scores):
        return 200 + 130 * max((len(x.values) for x in area.lines), default=0)
    return 0


def compact_style(layout: Layout, style: Style = Style(), least: int = COMPACT_MIN) -> Style:
    """The style of a picture only as wide as its content needs (at least ``least`` pixels), so a
    small hand is not shrunk to fit a wide empty picture."""
    want = max(
        [rich_width(layout.title, TITLE_SIZE, True), *(natural_width(a, style) for a in layout.areas)]
    )
    return replace(style, width=max(least, min(style.width, want + 2 * PAD)))


def draw_layout(layout: Layout, style: Style = Style()) -> Image.Image:
    """The whole picture of ``layout``."""
    inner = style.width - 2 * PAD
    drawn = [heading(layout, inner)]
    for group in side_by_side(layout.areas, inner, style):
        if len(group) == 1:
            drawn.append(draw_area(group[0], inner, style))
        else:
            drawn.append(draw_beside(group, inner, style))
    strips = [s for s in drawn if s is not None]
    height = PAD * 2 + sum(s.height for s in strips) + GAP * (len(strips) - 1)
    img = felt(style.width, height)
    y = PAD
    for strip in strips:
        img.paste(strip, (PAD, y))
        y += strip.height + GAP
    d = ImageDraw.Draw(img)
    d.rounded_rectangle([1, 1, style.width - 2, height - 2], radius=14, outline=BORDER, width=3)
    # round the outer corners off against a neutral grey that suits both themes
    return img


BESIDE_GAP = 34
"""Space between small rows drawn side by side."""


def row_width(area: Row, style: Style) -> int:
    """The width a small spaced row needs (its cards or its heading, whichever is wider)."""
    cards = len(area.spots) * (style.card + CARD_GAP) - CARD_GAP
    title = rich_width(f"{area.title}  ·  {area.note}" if area.note else area.title, HEAD_SIZE, True)
    return max(cards, title, style.card)


def side_by_side(areas: Sequence[Area], width: int, style: Style) -> list[list[Area]]:
    """Groups of areas to draw in one band: consecutive small rows (a trick, the last trick, each
    player's cards) share a band while they fit."""
    groups: list[list[Area]] = []
    used = 0
    for area in areas:
        small = isinstance(area, Row) and not area.overlap and area.spots
        last = groups[-1] if groups else None
        if (
            small
            and last is not None
            and isinstance(last[-1], Row)
            and not last[-1].overlap
            and last[-1].spots
            and used + BESIDE_GAP + row_width(area, style) <= width  # type: ignore[arg-type]
        ):
            last.append(area)
            used += BESIDE_GAP + row_width(area, style)  # type: ignore[arg-type]
            continue
        groups.append([area])
        used = row_width(area, style) if small else width + 1  # type: ignore[arg-type]
    return groups


def draw_beside(group: Sequence[Area], width: int, style: Style) -> Image.Image:
    parts = []
    for area in group:
        assert isinstance(area, Row)
        parts.append(draw_row(area, row_width(area, style), style))
    img = felt(width, max(p.height for p in parts))
    x = 0
    for part in parts:
        img.paste(part, (x, 0))
        x += part.width + BESIDE_GAP
    return img


def heading(layout: Layout, width: int) -> Image.Image | None:
    if not layout.title and not layout.subtitle:
        return None
    lines: list[tuple[str, int, tuple[int, int, int], bool]] = []
    if layout.title:
        lines.append((clip_text(layout.title, width, TITLE_SIZE, True), TITLE_SIZE, INK, True))
    for line in wrap_text(layout.subtitle, width, SUB_SIZE)[:2] if layout.subtitle else []:
        lines.append((line, SUB_SIZE, GOLD, False))
    height = sum(int(size * 1.25) for _, size, _, _ in lines)
    img = felt(width, height)
    y = 0
    for text, size, colour, bold in lines:
        draw_rich(img, (0, y), text, size, colour, bold)
        y += int(size * 1.25)
    return img


def draw_area(area: Area, width: int, style: Style) -> Image.Image | None:
    if isinstance(area, Facts):
        return draw_facts(area, width)
    if isinstance(area, Row):
        return draw_row(area, width, style)
    if isinstance(area, Pile):
        return draw_pile(area, width, style)
    if isinstance(area, Grid):
        return draw_grid(area, width, style)
    if isinstance(area, Counts):
        return draw_counts(area, width)
    if isinstance(area, Scores):
        return draw_scores(area, width)
    return draw_notes(area, width)


def area_title(title: str, note: str, width: int) -> tuple[list[str], int]:
    """The heading of an area (title, then the note in the same line if it fits)."""
    if not title and not note:
        return [], 0
    text = f"{title}  ·  {note}" if title and note else (title or note)
    lines = wrap_text(text, width, HEAD_SIZE, True)[:2]
    return lines, len(lines) * int(HEAD_SIZE * 1.3) + 4


def put_title(img: Image.Image, lines: Sequence[str]) -> None:
    y = 0
    for line in lines:
        draw_rich(img, (0, y), line, HEAD_SIZE, GOLD, True)
        y += int(HEAD_SIZE * 1.3)


# --- facts, notes, counts, scores ------------------------------------------------------------------


def draw_facts(area: Facts, width: int) -> Image.Image | None:
    if not area.items:
        return None
    size = TEXT_SIZE + 1
    chip_h = int(size * 1.7)
    chips: list[tuple[str, str, int]] = []
    for name, value in area.items:
        name_text = f"{name} " if name else ""
        w = rich_width(name_text, size) + rich_width(value, size, True) + 22
        chips.append((name_text, value, min(w, width)))
    # place chips in lines
    rows: list[list[tuple[str, str, int]]] = [[]]
    used = 0
    for chip in chips:
        if rows[-1] and used + chip[2] > width:
            rows.append([])
            used = 0
        rows[-1].append(chip)
        used += chip[2] + 10
    height = len(rows) * (chip_h + 8) - 8
    img = felt(width, height)
    d = ImageDraw.Draw(img)
    y = 0
    for row in rows:
        x = 0
        for name_text, value, w in row:
            d.rounded_rectangle([x, y, x + w, y + chip_h], radius=chip_h // 2, fill=FELT_LIGHT, outline=(70, 140, 100))
            tx = x + 11
            ty = y + (chip_h - int(size * 1.2)) // 2
            tx += draw_rich(img, (tx, ty), name_text, size, MUTED)
            draw_rich(img, (tx, ty), clip_text(value, w - (tx - x) - 10, size, True), size, INK, True)
            x += w + 10
        y += chip_h + 8
    return img


def draw_notes(area: Notes, width: int) -> Image.Image | None:
    lines: list[str] = []
    for line in area.lines:
        lines.extend(wrap_text(line, width, TEXT_SIZE))
    title, top = area_title(area.title, "", width)
    if not lines and not title:
        return None
    lh = int(TEXT_SIZE * 1.35)
    img = felt(width, top + lh * len(lines))
    put_title(img, title)
    for i, line in enumerate(lines):
        draw_rich(img, (0, top + i * lh), line, TEXT_SIZE, INK)
    return img


def draw_counts(area: Counts, width: int) -> Image.Image | None:
    if not area.items:
        return None
    title, top = area_title(area.title, "", width)
    back_w = 40
    bw, bh = card_size(back_w)
    cell = 0
    for name, _ in area.items:
        cell = max(cell, bw + 12 + min(rich_width(name, TEXT_SIZE, True), 150) + 16)
    per_line = max(1, (width + 16) // cell)
    lines = (len(area.items) + per_line - 1) // per_line
    img = felt(width, top + lines * (bh + 10) - 10)
    put_title(img, title)
    d = ImageDraw.Draw(img)
    back = card_face(None, back_w)
    for i, (name, count) in enumerate(area.items):
        x = (i % per_line) * cell
        y = top + (i // per_line) * (bh + 10)
        if count > 1:
            img.paste(back, (x + 5, y), back)
        img.paste(back, (x, y + (0 if count <= 1 else 3)), back) if count else d.rounded_rectangle(
            [x, y, x + bw, y + bh], radius=5, outline=MUTED, width=2
        )
        num = str(count)
        nw = rich_width(num, 22, True)
        d.rounded_rectangle([x + bw // 2 - nw // 2 - 5, y + bh // 2 - 15, x + bw // 2 + nw // 2 + 5, y + bh // 2 + 14], radius=6, fill=(250, 250, 250))
        draw_rich(img, (x + bw // 2 - nw // 2, y + bh // 2 - 14), num, 22, (20, 20, 20), True)
        draw_rich(img, (x + bw + 12, y + bh // 2 - 12), clip_text(name, cell - bw - 20, TEXT_SIZE, True), TEXT_SIZE, INK, True)
    return img


SPLIT_SCORES = 7
"""From this many players on, a short score table is drawn in two halves side by side."""


def draw_scores(area: Scores, width: int, split: bool = True) -> Image.Image | None:
    if not area.lines:
        return None
    ncol = max((len(x.values) for x in area.lines), default=0)
    if split and len(area.lines) >= SPLIT_SCORES and ncol <= 2:
        half = (len(area.lines) + 1) // 2
        title, top = area_title(area.title, "", width)
        left = draw_scores(replace(area, lines=area.lines[:half], title=""), (width - BESIDE_GAP) // 2, False)
        right = draw_scores(replace(area, lines=area.lines[half:], title=""), (width - BESIDE_GAP) // 2, False)
        assert left is not None and right is not None
        img = felt(width, top + max(left.height, right.height))
        put_title(img, title)
        img.paste(left, (0, top))
        img.paste(right, ((width + BESIDE_GAP) // 2, top))
        return img
    size = TEXT_SIZE + 1
    lh = int(size * 1.55)
    title, top = area_title(area.title, "", width)
    columns = area.columns
    name_w = min(max(rich_width(x.name, size, True) for x in area.lines) + 40, int(width * 0.4))
    col_w = max(90, (width - name_w) // max(1, ncol)) if ncol else 0
    col_w = min(col_w, 170)
    header = any(columns) and tuple(columns) != ("Score",)
    img = felt(width, top + lh * (len(area.lines) + (1 if header else 0)))
    put_title(img, title)
    d = ImageDraw.Draw(img)
    y = top
    if header:
        for i, name in enumerate(columns[:ncol]):
            draw_rich(img, (name_w + i * col_w, y + 4), clip_text(name, col_w - 8, LABEL_SIZE + 1), LABEL_SIZE + 1, MUTED)
        y += lh
    for k, line in enumerate(area.lines):
        if k % 2 == 0:
            d.rectangle([0, y, min(width, name_w + ncol * col_w), y + lh - 2], fill=FELT_DARK)
        colour = LEGAL if line.active else INK
        if line.active:
            d.polygon([(6, y + lh // 2 - 8), (6, y + lh // 2 + 8), (18, y + lh // 2)], fill=LEGAL)
        draw_rich(img, (26, y + (lh - size) // 2 - 2), clip_text(line.name, name_w - 34, size, True), size, colour, True)
        for i, value in enumerate(line.values):
            draw_rich(img, (name_w + i * col_w, y + (lh - size) // 2 - 2), clip_text(value, col_w - 8, size, i == 0), size, colour, i == 0)
        y += lh
    return img


# --- cards in a row, a pile, a grid ------------------------------------------------------------------


def _label_lines(spots: Sequence[Spot]) -> int:
    return max((len(s.label.split("\n")) for s in spots if s.label), default=0)


def _fit(count: int, width: int, card_w: int, spaced: bool) -> tuple[int, int]:
    """How many cards a line holds and the step between them."""
    full = card_w + CARD_GAP
    if count * full - CARD_GAP <= width:
        return count, full if spaced else min(full, (width - card_w) // max(1, count - 1) if count > 1 else full)
    per_line = max(1, (width - card_w) // MIN_STEP + 1)
    lines = (count + per_line - 1) // per_line
    per_line = (count + lines - 1) // lines
    step = min(full, (width - card_w) // max(1, per_line - 1)) if per_line > 1 else full
    return per_line, step


def draw_cards(
    spots: Sequence[Spot], width: int, card_w: int, spaced: bool = True, label_size: int = LABEL_SIZE
) -> Image.Image:
    """Cards in lines (overlapping when they would not fit), labels under, marks drawn."""
    if not spots:
        img = felt(width, 30)
        draw_rich(img, (0, 2), "none", TEXT_SIZE, MUTED)
        return img
    cw, ch = card_size(card_w)
    per_line, step = _fit(len(spots), width, card_w, spaced)
    labels = _label_lines(spots)
    if step < cw + CARD_GAP:
        label_size = min(label_size, LABEL_SIZE - 3)  # overlapping cards: smaller labels fit the step
    label_h = labels * int(label_size * 1.2) + (4 if labels else 0)
    raised = any(s.mark == "legal" for s in spots)
    top = RAISE if raised else 4
    line_h = top + ch + 4 + label_h
    nlines = (len(spots) + per_line - 1) // per_line
    img = felt(width, nlines * line_h + (nlines - 1) * 8)
    for i, spot in enumerate(spots):
        line, col = divmod(i, per_line)
        x = col * step
        y = line * (line_h + 8) + top
        if spot.mark == "legal":
            y -= RAISE - 4
        place_card(img, spot, (x, y), card_w)
        if spot.label:
            last = col == per_line - 1 or i == len(spots) - 1
            # the last card of a line may spread its label to the right
            lw = min(width - x, cw + 2 * CARD_GAP + 60) if last else step - 3
            ly = line * (line_h + 8) + top + ch + 6
            for k, text in enumerate(spot.label.split("\n")):
                text = clip_text(text, lw, label_size, k == 0)
                tw = rich_width(text, label_size, k == 0)
                tx = x + max(0, (min(cw, lw) - tw) // 2)
                if last:
                    tx = max(x, min(x + (cw - tw) // 2, x + lw - tw))
                colour = WINNING if spot.mark == "winning" and k == 0 else (INK if k == 0 else MUTED)
                draw_rich(img, (tx, ly + k * int(label_size * 1.2)), text, label_size, colour, k == 0)
    return img


def place_card(img: Image.Image, spot: Spot, xy: tuple[int, int], card_w: int) -> None:
    cw, ch = card_size(card_w)
    x, y = xy
    d = ImageDraw.Draw(img)
    if spot.empty:
        waiting = spot.mark == "waiting"
        d.rounded_rectangle(
            [x, y, x + cw - 1, y + ch - 1],
            radius=card_w // 10,
            fill=FELT_DARK,
            outline=LEGAL if waiting else (60, 120, 85),
            width=3 if waiting else 2,
        )
        if waiting:
            size = cw // 2
            draw_rich(img, (x + (cw - rich_width("?", size, True)) // 2, y + (ch - size) // 2 - 4), "?", size, LEGAL, True)
        return
    face = card_face(spot.card, card_w)
    img.paste(face, (x, y), face)
    if spot.mark == "dimmed":
        shade = Image.new("RGB", (cw, ch), FELT_DARK)
        mask = face.getchannel("A").point(lambda a: a * 105 // 255)
        img.paste(shade, (x, y), mask)
    elif spot.mark in ("legal", "winning", "last"):
        colour = {"legal": LEGAL, "winning": WINNING, "last": LAST}[spot.mark]
        width = 4
        d.rounded_rectangle([x - 2, y - 2, x + cw + 1, y + ch + 1], radius=card_w // 10 + 2, outline=colour, width=width)


def draw_row(area: Row, width: int, style: Style) -> Image.Image:
    title, top = area_title(area.title, area.note, width)
    marked = any(s.mark in ("legal", "dimmed") for s in area.spots)
    card_w = style.hand if (area.overlap and (marked or area.title == "Your hand")) else style.card
    if area.overlap and len(area.spots) > 20:
        card_w = min(card_w, style.card)
    cards = draw_cards(area.spots, width, card_w, spaced=not area.overlap)
    img = felt(width, top + cards.height)
    put_title(img, title)
    img.paste(cards, (0, top))
    return img


def draw_pile(area: Pile, width: int, style: Style) -> Image.Image:
    title, top = area_title(area.title, area.note, width)
    badge_w = 0
    if area.total is not None:
        badge_w = 130
    card_w = style.card if len(area.spots) <= 10 else SMALL_CARD_W
    cards = draw_cards(area.spots, width - badge_w - (16 if badge_w else 0), card_w, spaced=False) if area.spots else None
    _, ch = card_size(card_w)
    height = max(cards.height if cards is not None else 0, 110 if badge_w else 0)
    img = felt(width, top + height)
    put_title(img, title)
    if badge_w:
        d = ImageDraw.Draw(img)
        by = top + max(0, (min(height, ch + 10) - 100) // 2)
        d.rounded_rectangle([0, by, badge_w - 1, by + 100], radius=16, fill=(250, 246, 230), outline=GOLD, width=3)
        label = clip_text(area.total_label, badge_w - 12, LABEL_SIZE, True)
        lw = rich_width(label, LABEL_SIZE, True)
        draw_rich(img, ((badge_w - lw) // 2, by + 8), label, LABEL_SIZE, (60, 60, 60), True)
        num = str(area.total)
        size = 50 if len(num) <= 3 else 38
        nw = rich_width(num, size, True)
        draw_rich(img, ((badge_w - nw) // 2, by + 30), num, size, (20, 20, 20), True)
    if cards is not None:
        img.paste(cards, (badge_w + (16 if badge_w else 0), top))
    return img


def draw_grid(area: Grid, width: int, style: Style) -> Image.Image:
    title, top = area_title(area.title, area.note, width)
    ncols, nrows = len(area.columns), len(area.rows)
    head = 30
    card_w = min(style.card, (width - head - (ncols - 1) * 8) // max(1, ncols))
    cw, ch = card_size(card_w)
    img = felt(width, top + head + nrows * (ch + 8))
    put_title(img, title)
    left = head + max(0, (width - head - ncols * (cw + 8)) // 2)
    for c, name in enumerate(area.columns):
        tw = rich_width(name, HEAD_SIZE, True)
        draw_rich(img, (left + c * (cw + 8) + (cw - tw) // 2, top), name, HEAD_SIZE, MUTED, True)
    for r, name in enumerate(area.rows):
        y = top + head + r * (ch + 8)
        tw = rich_width(name, HEAD_SIZE, True)
        draw_rich(img, (left - head + (head - tw) // 2 - 4, y + ch // 2 - HEAD_SIZE // 2 - 2), name, HEAD_SIZE, MUTED, True)
        for c in range(ncols):
            spot = area.cells[r * ncols + c]
            place_card(img, spot, (left + c * (cw + 8), y), card_w)
            if spot.label:
                lw = rich_width(spot.label, LABEL_SIZE, True)
                d = ImageDraw.Draw(img)
                x = left + c * (cw + 8) + (cw - lw) // 2
                d.rounded_rectangle([x - 4, y + ch - 24, x + lw + 4, y + ch - 3], radius=5, fill=(20, 20, 20))
                draw_rich(img, (x, y + ch - 24), spot.label, LABEL_SIZE, INK, True)
    return img


__all__ = ["Style", "draw_layout", "paste_shape"]
