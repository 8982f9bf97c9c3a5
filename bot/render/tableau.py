# Over 400 lines: drawing every kind of area a layout holds (cards, tricks, grids, totals, scores, chips) with shared measuring and spacing; splitting by area would scatter the spacing rules the picture tests check.
"""Drawing a :class:`games.layout.Layout` with Pillow: the felt, the heading and each area.

Each area is drawn into a strip of its column's width; the strips are stacked on a felt panel with a
light border, so the picture reads the same on Discord's dark and light themes. A picture is never
taller than 3/4 of its width: Discord shows an embed's picture in a box about 400 by 300 pixels, so
a taller one would be shrunk by its height. Where the areas one under another would be taller,
:func:`arrange` shares them between two columns (the scores beside the trick, Spec's grid beside
its scores) or widens the picture, whichever Discord shows larger; cards keep their size.

Text is drawn at least 16 px, so a picture at most :data:`WIDEST` (464) px wide keeps every line
at least 11 px high on a phone (shown 320 px wide). :func:`arranged` looks for a plan within that
width, then for one in the tight style (:attr:`Style.tight`: a pile folded to its last line of
cards, face-down hands as chips, closer lines), and only then draws wider; a plan found is kept
for the next picture of the same shape while it still fits.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from bot.render import colours, drawlog
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
    index_width,
    paste_shape,
    put,
    rich_width,
    rounded_box,
    wrap_text,
)
from bot.render.colours import TextOverlap, draw_text
from bot.render.names import shortened
from games.cards import Card
from games.layout import Area, Counts, Facts, Grid, Layout, Notes, Pile, Row, ScoreLine, Scores, Spot

WIDTH = 440
"""The picture's width. Discord shows a picture about 400 pixels wide (320 on a phone): drawn
near that size, text is not shrunk past reading and there are few pixels to draw and encode."""
PAD = 6
INNER = WIDTH - 2 * PAD
GAP = 7
"""Space between areas..."""
TIGHT_GAP = 4
"""... in a tight picture (see :attr:`Style.tight`)."""

CARD_W = 36
HAND_CARD_W = 42
SMALL_CARD_W = 30
CARD_GAP = 5
MIN_STEP = 20
"""The narrowest overlap step that still shows a card's index (rank and suit)."""
RAISE = 9
"""How far a card that may be played stands out of the hand."""

LEAST_TEXT = 16
"""The smallest text drawn. Shown 320 pixels wide (a phone), a picture up to :data:`WIDEST` wide
keeps every line of text at least 11 pixels high."""
WIDEST = 464
"""The widest a picture is drawn where it can be (see :func:`arrange`): 29 lines of its smallest
text across."""
TITLE_SIZE = 21
SUB_SIZE = 17
HEAD_SIZE = 17
TEXT_SIZE = 16
LABEL_SIZE = 16


@dataclass(frozen=True)
class Style:
    """How big the cards of a picture are."""

    card: int = CARD_W
    hand: int = HAND_CARD_W
    width: int = WIDTH
    tight: bool = False
    """Drawn tighter, for a picture that would otherwise be wider than :data:`WIDEST` (its text
    shown too small on a phone): see :func:`tightened`."""


def felt(width: int, height: int, indexed: bool = False) -> Image.Image:
    """An empty strip (``indexed``: in the palette, see :func:`indexed_area`)."""
    return colours.new_indexed(width, height, FELT) if indexed else Image.new("RGB", (width, height), FELT)


def ink(img: Image.Image, colour: tuple[int, int, int]) -> tuple[int, int, int] | int:
    """``colour`` as ``img`` takes it: itself, or its palette entry."""
    return colours.index_of(colour) if img.mode == "P" else colour


# --- the picture -----------------------------------------------------------------------------------


COMPACT_MIN = 330
"""The narrowest a compact picture (a small hand) is drawn."""


def natural_width(area: Area, style: Style) -> int:
    """The width an area would like: its cards side by side, its chips in one line."""
    if isinstance(area, Row):
        cards = len(area.spots) * (row_card_width(area, style) + CARD_GAP) - CARD_GAP
        return max(cards, rich_width(area.title, HEAD_SIZE, True))
    if isinstance(area, Pile):
        card = style.card if len(area.spots) <= 10 else SMALL_CARD_W
        return BADGE_W + 8 + len(area.spots) * (card + CARD_GAP)
    if isinstance(area, Grid):
        return GRID_HEAD + len(area.columns) * (style.card + 4)
    if isinstance(area, Facts):
        size = TEXT_SIZE
        return sum(rich_width(f"{k} ", size) + rich_width(v, size, True) + 16 for k, v in area.items)
    if isinstance(area, Counts):
        return len(area.items) * 90
    if isinstance(area, Scores):
        return 100 + 65 * max((len(x.values) for x in area.lines), default=0)
    return 0


def compact_style(layout: Layout, style: Style = Style(), least: int = COMPACT_MIN) -> Style:
    """The style of a picture only as wide as its content needs (at least ``least`` pixels), so a
    small hand is not shrunk to fit a wide empty picture."""
    layout = shortened(layout)
    want = max(
        [rich_width(layout.title, TITLE_SIZE, True), *(natural_width(a, style) for a in layout.areas)]
    )
    return replace(style, width=max(least, min(style.width, want + 2 * PAD)))


def draw_layout(layout: Layout, style: Style = Style(), indexed: bool = False) -> Image.Image:
    """The whole picture of ``layout``: its areas one under another, or in two columns where one
    column would make the picture taller than 4:3 (see :func:`arrange`); ``indexed``: a palette
    picture (:mod:`bot.render.colours`), its unchanged parts mapped once and cached. The players'
    names are drawn shortened to fit (:func:`bot.render.names.shortened`)."""
    layout = shortened(layout)
    blocks, plan, style = arranged(layout, style)
    return compose(layout, blocks, plan, style, indexed)


def arranged(layout: Layout, style: Style) -> tuple[list[Block], Plan, Style]:
    """:func:`arrange` in ``style``, or, where that picture would be wider than :data:`WIDEST`
    (its smallest text under 11 pixels on a phone), in the tight style (:func:`tightened`); where
    that too is wider, the tight picture however wide it is (it is the narrower).

    A plan found for a picture of the same shape (its areas' kinds and titles, as the next move's
    picture of the same table mostly is) is kept while the areas still fit it at 4:3 within
    :data:`WIDEST`: the arrangement then stays put from move to move, and is not searched again."""
    inner = style.width - 2 * PAD
    blocks = side_by_side(layout.areas, inner, drawing(style))
    single = Plan(tuple(range(len(blocks))), inner)
    if Measure(layout, blocks, drawing(style)).height(single) * ASPECT <= single.width:
        return blocks, single, style
    shape = layout_shape(layout, style)
    kept = _kept_plans.get(shape)
    if kept is not None and kept[0].width <= WIDEST:
        found = kept_plan(layout, shape, *kept)
        if found is not None:
            return found
    for tried in (style, replace(style, tight=True)):
        capped = arrange(layout, tried, WIDEST)
        if capped is not None:
            keep(shape, capped[1], tried)
            return (*capped, tried)
    if kept is not None:  # a wide picture's plan, kept while it holds and nothing narrower does
        found = kept_plan(layout, shape, *kept)
        if found is not None:
            return found
    tight = replace(style, tight=True)  # nothing is legible: the narrowest picture
    blocks, plan = arrange_any(layout, tight)
    keep(shape, plan, tight)
    return blocks, plan, tight


def kept_plan(
    layout: Layout, shape: tuple[object, ...], plan: Plan, style: Style
) -> tuple[list[Block], Plan, Style] | None:
    """``plan`` (kept from a picture of the same shape) for ``layout``, where it still holds it:
    at 4:3, each block in a column at least as wide as it asks (a score table whose values grew
    would otherwise have its columns cut: 'This …')."""
    blocks = side_by_side(layout.areas, style.width - 2 * PAD, drawing(style))
    if not fits(Measure(layout, blocks, drawing(style)), plan):
        return None
    if plan.right:  # (one column is as wide as the picture: a block wider than that is wrapped)
        for ids, width in ((plan.left, plan.left_width), (plan.right, plan.right_width)):
            if any(wanted_width(blocks[i], drawing(style)) > width for i in ids):
                return None
    with _plans_lock:
        if shape in _kept_plans:  # (another drawing thread may have let it go meanwhile)
            _kept_plans.move_to_end(shape)
    return blocks, plan, style


def keep(shape: tuple[object, ...], plan: Plan, style: Style) -> None:
    with _plans_lock:
        _kept_plans[shape] = (plan, style)
        if len(_kept_plans) > KEPT_PLANS:
            _kept_plans.popitem(last=False)


KEPT_PLANS = 1024
"""Plans kept by the shape of their picture (see :func:`arranged`)."""
_kept_plans: OrderedDict[tuple[object, ...], tuple[Plan, Style]] = OrderedDict()
_plans_lock = threading.Lock()
"""Pictures are drawn in the default executor's threads (``bot.render.pool``), which share the kept plans."""


def layout_shape(layout: Layout, style: Style) -> tuple[object, ...]:
    """What a picture's plan is kept by: its style and its areas' kinds and titles."""
    return (style, bool(layout.subtitle), *((type(area), getattr(area, "title", "")) for area in layout.areas))


def fits(measure: Measure, plan: Plan) -> bool:
    """Whether ``plan`` holds the measured blocks (every one placed once, in either column) in a
    picture of its width at least 4:3."""
    if sorted(plan.left + plan.right) != list(range(len(measure.blocks))):
        return False
    return measure.height(plan) * ASPECT <= plan.width


# --- the arrangement ---------------------------------------------------------------------------------

ASPECT = 4 / 3
"""The least width-to-height ratio of a picture. Discord fits an embed's picture into a box about
400 by 300 pixels: a taller picture is shrunk by its height, its cards with it."""
COLUMN_GAP = 12
"""Space between the two columns of a picture drawn in columns."""
COLUMN_STEPS = (160, 190, 220, 250, 280, 310, 340, INNER)
"""The widths a column is drawn at (the least that holds what its areas ask for), so each area is
drawn at a few widths however many arrangements are compared."""
PREFER_COLUMNS = 0.97
"""Two columns are drawn only when Discord shows them at least this much larger than one."""
MAX_ARRANGED = 7
"""Up to this many blocks, every way of sharing them between two columns is tried; beyond, only
the first ones against the rest, and the cards against the rest."""

Block = list[Area]
"""Areas drawn in one band: one area, or small rows side by side (see :func:`side_by_side`)."""


@dataclass(frozen=True)
class Plan:
    """Where a picture's blocks go: the indices ``left`` (the whole picture when ``right`` is
    empty) and ``right``, each a column drawn at its width; the heading across the top, or atop the
    right column (``head_right``)."""

    left: tuple[int, ...]
    left_width: int
    right: tuple[int, ...] = ()
    right_width: int = 0
    head_right: bool = False

    @property
    def width(self) -> int:
        if not self.right:
            return self.left_width + 2 * PAD
        return self.left_width + COLUMN_GAP + self.right_width + 2 * PAD

    @property
    def head_width(self) -> int:
        return self.right_width if self.head_right else self.width - 2 * PAD


class Measure:
    """The heights of a picture's blocks and heading at each width, measured once (not drawn), however
    many arrangements ask for them."""

    def __init__(self, layout: Layout, blocks: Sequence[Block], style: Style) -> None:
        self.layout = layout
        self.blocks = blocks
        self.style = style
        self.heights: dict[tuple[int, int], int] = {}
        self.heads: dict[int, int] = {}
        self.columns: dict[tuple[tuple[int, ...], int], int] = {}
        self.gap = gap(style)

    def block(self, index: int, width: int) -> int:
        """The height of a block drawn ``width`` wide (0: nothing to draw)."""
        height = self.heights.get((index, width))
        if height is None:
            height = self.heights[index, width] = block_height(self.blocks[index], width, self.style)
        return height

    def column(self, indices: Sequence[int], width: int) -> int:
        key = (tuple(indices), width)
        height = self.columns.get(key)
        if height is None:
            height = count = 0
            for i in indices:
                h = self.block(i, width)
                if h:
                    height += h
                    count += 1
            height = self.columns[key] = height + self.gap * max(0, count - 1)
        return height

    def head(self, width: int) -> int:
        if width not in self.heads:
            self.heads[width] = heading_height(self.layout, width)
        return self.heads[width] + self.gap if self.heads[width] else 0

    def height(self, plan: Plan) -> int:
        left, right = self.column(plan.left, plan.left_width), self.column(plan.right, plan.right_width)
        head = self.head(plan.head_width)
        if plan.head_right:
            return 2 * PAD + max(left, head + right)
        return 2 * PAD + head + max(left, right)

    def key(self, plan: Plan) -> tuple[float, int]:
        """Better plans first: shown larger on Discord (the width of the 4:3 box the picture fills),
        then with less empty felt."""
        height = self.height(plan)
        return max(plan.width, height * ASPECT), plan.width * height


def block_height(block: Block, width: int, style: Style) -> int:
    if len(block) > 1:
        return max(row_height(a, row_width(a, style), style) for a in block if isinstance(a, Row))
    return area_height(block[0], width, style)


def arrange_any(layout: Layout, style: Style) -> tuple[list[Block], Plan]:
    """:func:`arrange` however wide the picture must be."""
    found = arrange(layout, style)
    assert found is not None
    return found


def arrange(layout: Layout, style: Style, cap: int | None = None) -> tuple[list[Block], Plan] | None:
    """The blocks of a picture and their plan: one column at the style's width where that is at
    least 4:3; otherwise whichever Discord shows larger of the one column widened to 4:3 and the
    best arrangement in two columns (each keeping the areas' order, the first on the left), itself
    widened to 4:3 where it is taller than that. With a ``cap``, only pictures at most that wide
    are tried (``None`` when there is none)."""
    inner = style.width - 2 * PAD
    style = drawing(style)
    blocks = side_by_side(layout.areas, inner, style)
    measure = Measure(layout, blocks, style)
    single = Plan(tuple(range(len(blocks))), inner)
    if measure.height(single) * ASPECT <= single.width:
        return blocks, single
    if cap is not None and too_tall(measure, cap):
        return None
    best: Plan | None = None
    best_key: tuple[float, float] = (math.inf if cap is None else cap + 0.5, math.inf)
    tried: set[Plan] = set()
    piles = any(isinstance(b[0], Pile) for b in blocks)
    spreads = PILE_SPREADS
    shares = splits(blocks)
    for spread in spreads if piles else spreads[:1]:  # only a pile's wish depends on it
        wants = [column_width(wanted_width(b, style, spread), style) for b in blocks]
        for left, right in shares:
            lw, rw = max(map(wants.__getitem__, left)), max(map(wants.__getitem__, right))
            if lw + COLUMN_GAP + rw + 2 * PAD > best_key[0]:
                continue  # wider than the best is shown: it cannot be better
            left_h = measure.column(left, lw)
            if not left_h or not measure.column(right, rw) or (left_h + 2 * PAD) * ASPECT > best_key[0]:
                continue  # an empty column, or taller than the best is shown
            # the heading may top the right column beside a left one that opens with cards (a
            # grid); facts and notes stay under it
            # (where the title fits there whole)
            beside = isinstance(blocks[left[0]][0], Row | Pile | Grid) and rich_width(layout.title, TITLE_SIZE, True) <= rw
            for head_right in (False, True) if beside else (False,):
                plan = Plan(tuple(left), lw, tuple(right), rw, head_right)
                if plan in tried:
                    continue
                tried.add(plan)
                key = measure.key(plan)
                if key < best_key:
                    best, best_key = plan, key
    widest = None if cap is None else cap - 2 * PAD
    found = widened(layout, style, inner, (blocks, measure), widest)
    if found is None and best is None:
        return None
    if found is not None and (best is None or found[2].key(found[1])[0] * PREFER_COLUMNS <= best_key[0]):
        return found[0], found[1]
    assert best is not None
    extra = math.ceil(measure.height(best) * ASPECT) - best.width
    if extra > 0:  # the right column takes the extra width (its text takes fewer lines)
        best = replace(best, right_width=best.right_width + extra)
    return blocks, best


def too_tall(measure: Measure, cap: int) -> bool:
    """Whether no arrangement of the blocks fits a picture ``cap`` wide at 4:3: even shared evenly
    between two columns, their heights at the widest a column can be (the least height they take;
    a grid, whose cards shrink in a narrow column, counted as nothing) and the heading are too
    tall."""
    widest = cap - 2 * PAD
    total = measure.head(widest)
    for i, block in enumerate(measure.blocks):
        if not isinstance(block[0], Grid):
            total += measure.block(i, widest)
    return (2 * PAD + total / 2) * ASPECT > cap


WIDEN_STEP = 20
"""How much wider, at most, each try of :func:`widened` draws a picture."""


def widened(
    layout: Layout,
    style: Style,
    low: int,
    measured: tuple[list[Block], Measure] | None = None,
    widest: int | None = None,
) -> tuple[list[Block], Plan, Measure] | None:
    """One column, made wider until it is 4:3 (its rows spread out, small rows share a band, its
    text takes fewer lines): the least width from ``low`` that is, to within
    :data:`WIDEN_STEP`, found by halving between ``low`` and the width its height there asks for
    (each width tried a multiple of :data:`SNAP`, so the areas that did not change since
    the last picture are measured from the cache). ``measured``: the blocks at ``low`` and their
    measure, where the caller has them; ``None`` where it would be wider than ``widest``."""

    def at(width: int) -> tuple[list[Block], Plan, bool, int, Measure]:
        if measured is not None and width == low:
            blocks, measure = measured
        else:
            blocks = side_by_side(layout.areas, width, style)
            measure = Measure(layout, blocks, style)
        plan = Plan(tuple(range(len(blocks))), width)
        height = measure.height(plan)
        return blocks, plan, height * ASPECT <= plan.width, math.ceil(height * ASPECT) - 2 * PAD, measure

    blocks, plan, fits, wants, measure = at(low)
    if fits:
        return blocks, plan, measure
    high = snapped(wants)
    if widest is not None:
        if low >= widest:
            return None
        high = min(high, widest)
    while True:  # wider is never taller, so this is once, but a picture must fit whatever its areas do
        blocks, plan, fits, wants, measure = at(high)
        if fits:
            break
        if widest is not None and high >= widest:
            return None
        low, high = high, max(snapped(wants), high + WIDEN_STEP)
        if widest is not None:
            high = min(high, widest)
    while high - low > WIDEN_STEP:
        mid = snapped((low + high) // 2)
        if mid >= high:
            break
        found = at(mid)
        if found[2]:
            high, blocks, plan, measure = mid, found[0], found[1], found[4]
        else:
            low = mid
    return blocks, plan, measure


def snapped(width: int) -> int:
    """``width`` rounded up to a multiple of :data:`SNAP`."""
    return -(-width // SNAP) * SNAP


SNAP = 10
"""The widths :func:`widened` tries are multiples of this (so unchanged areas are measured from
the cache)."""


def gap(style: Style) -> int:
    """The space between a picture's areas."""
    return TIGHT_GAP if style.tight else GAP


def drawing(style: Style) -> Style:
    """The style areas are measured and drawn in: their strips do not depend on the picture's
    width, so the table's picture and a compact hand's share them (and their caches)."""
    return style if style.width == WIDTH else replace(style, width=WIDTH)


def splits(blocks: Sequence[Block]) -> Sequence[tuple[Sequence[int], Sequence[int]]]:
    """The ways to share the blocks between a left and a right column, each keeping their order and
    the first block on the left: every way for a few blocks; for more, the first ones against the
    rest, and the cards (rows, piles, grids) against the rest."""
    n = len(blocks)
    if n <= MAX_ARRANGED:
        return every_split(n)
    out = [(list(range(k)), list(range(k, n))) for k in range(1, n)]
    cards = [i for i, b in enumerate(blocks) if isinstance(b[0], Row | Pile | Grid)]
    rest = [i for i in range(n) if i not in cards]
    if 0 not in cards:
        cards, rest = rest, cards
    if cards and rest:
        out.append((cards, rest))
    return out


@cache
def every_split(n: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Every way to share ``n`` blocks between two columns, the first on the left."""
    return tuple(
        (tuple(i for i in range(n) if not mask >> i & 1), tuple(i for i in range(n) if mask >> i & 1))
        for mask in range(2, 2**n, 2)
    )


PILE_SPREADS = (3, 5)
"""How many cards of a pile a column is made wide enough for (the rest overlap), each tried."""


def wanted_width(block: Block, style: Style, spread: int = PILE_SPREADS[0]) -> int:
    """The width a block asks of a column: a grid or a trick its own; a pile enough for ``spread``
    cards side by side (the rest overlap); a hand all its cards; text a modest column."""
    if len(block) > 1:
        return sum(row_width(a, style) for a in block if isinstance(a, Row)) + BESIDE_GAP * (len(block) - 1)
    area = block[0]
    if isinstance(area, Grid):
        return max(natural_width(area, style), rich_width(area.title, HEAD_SIZE, True))
    if isinstance(area, Row):
        return row_width(area, style) if not area.overlap else min(natural_width(area, style), INNER)
    if isinstance(area, Pile):
        card = style.card if len(area.spots) <= 10 else SMALL_CARD_W
        return BADGE_W + 8 + min(len(area.spots), spread) * (card + CARD_GAP)
    if isinstance(area, Scores) and style.tight and score_chips(area) is None and area.lines:
        return min(max(scores_natural_width(area), rich_width(area.title, HEAD_SIZE, True)), 280)
    if isinstance(area, Scores):
        return min(natural_width(area, style), 280)
    if isinstance(area, Facts | Counts):
        return min(natural_width(area, style), 220)
    return 190


def column_width(want: int, style: Style = Style()) -> int:
    """The width a column is drawn at: the least of :data:`COLUMN_STEPS` that holds ``want`` (in
    a tight style, ``want`` rounded up to :data:`TIGHT_STEP`, so two columns share
    :data:`WIDEST` as they need)."""
    if style.tight:
        return -(-want // TIGHT_STEP) * TIGHT_STEP
    return next((w for w in COLUMN_STEPS if w >= want), max(want, INNER))


TIGHT_STEP = 10
"""A tight picture's columns are drawn at multiples of this width."""


def draw_block(block: Block, width: int, style: Style) -> Image.Image | None:
    return draw_area(block[0], width, style) if len(block) == 1 else draw_beside(block, width, style)


def indexed_block(block: Block, width: int, style: Style) -> Image.Image | None:
    """:func:`draw_block` in the palette: an area's strip mapped once and cached."""
    if drawlog.current() is None:
        try:
            return indexed_area(block[0], width, style) if len(block) == 1 else indexed_beside(tuple(block), width, style)
        except TypeError:  # unhashable
            pass
    strip = draw_block(block, width, style)
    return colours.indexed(strip) if strip is not None else None


@lru_cache(maxsize=512)
def indexed_area(area: Area, width: int, style: Style) -> Image.Image | None:
    """An area's strip in the palette (a byte a pixel: 512 strips are some 25 MB): drawn there
    where it can be (:func:`in_palette`: its cards, words and marks pasted mapped once each),
    otherwise drawn in RGB and mapped whole."""
    if in_palette(tightened(area, width, style), width, style):
        try:
            return draw_area_now(area, width, style, indexed=True)
        except TextOverlap:  # (two labels run into each other: blended as RGB blends them)
            pass
    strip = draw_area_now(area, width, style)
    return colours.indexed(strip) if strip is not None else None


@lru_cache(maxsize=256)
def indexed_beside(group: tuple[Area, ...], width: int, style: Style) -> Image.Image:
    """:func:`draw_beside` in the palette (the trick beside the last trick, each player's cards)."""
    try:
        return draw_beside(group, width, style, indexed=True)
    except TextOverlap:
        return colours.indexed(draw_beside(group, width, style))


@lru_cache(maxsize=256)
def indexed_heading(title: str, subtitle: str, width: int) -> Image.Image | None:
    """:func:`heading` in the palette, cached by its words (they change once a turn at most)."""
    try:
        return heading(Layout(title, subtitle, ()), width, indexed=True)
    except TextOverlap:
        head = heading(Layout(title, subtitle, ()), width)
        return colours.indexed(head) if head is not None else None


def compose(
    layout: Layout, blocks: Sequence[Block], plan: Plan, style: Style, indexed: bool = False
) -> Image.Image:
    """The picture of a plan: the felt, the heading and the columns, a light border round it
    (``indexed``: in the palette, see :func:`draw_layout`)."""
    draw = indexed_block if indexed else draw_block
    style = drawing(style)
    if indexed and drawlog.current() is None:
        head = indexed_heading(layout.title, layout.subtitle, plan.head_width)
    else:  # a recording draws (and logs) every word
        head = heading(layout, plan.head_width)
        head = colours.indexed(head) if indexed and head is not None else head
    columns = [
        [s for s in (draw(blocks[i], w, style) for i in ids) if s is not None]
        for ids, w in ((plan.left, plan.left_width), (plan.right, plan.right_width))
    ]
    space = gap(style)
    head_h = head.height + space if head is not None else 0
    left_h, right_h = (sum(s.height + space for s in col) - (space if col else 0) for col in columns)
    height = 2 * PAD + (max(left_h, head_h + right_h) if plan.head_right else head_h + max(left_h, right_h))
    width = max(plan.width, math.ceil(height * ASPECT))
    img = colours.new_indexed(width, height, FELT) if indexed else felt(width, height)
    right_x = PAD + plan.left_width + COLUMN_GAP
    if head is not None:
        hx = right_x if plan.head_right else PAD
        put(img, head, (hx, PAD, hx + head.width, PAD + head.height))
    top = PAD + (0 if plan.head_right else head_h)
    for x, strips, y in ((PAD, columns[0], top), (right_x, columns[1], top + (head_h if plan.head_right else 0))):
        for strip in strips:
            put(img, strip, (x, y, x + strip.width, y + strip.height))
            y += strip.height + space
    border = colours.index_of(BORDER) if indexed else BORDER
    rounded_box(img, (0, 0, width - 1, height - 1), 7, outline=border, width=2)
    log = drawlog.current()
    if log is not None:
        log.width = width
    return img


BESIDE_GAP = 17
"""Space between small rows drawn side by side."""


def row_width(area: Row, style: Style) -> int:
    """The width a small spaced row needs (its cards or its heading, whichever is wider)."""
    try:
        return measured_row_width(area, style)
    except TypeError:  # unhashable
        return measure_row_width(area, style)


@lru_cache(maxsize=4096)
def measured_row_width(area: Row, style: Style) -> int:
    return measure_row_width(area, style)


def measure_row_width(area: Row, style: Style) -> int:
    step = max(style.card + CARD_GAP, min_step(style.card, area.spots))  # labels wider than a card step wider
    cards = (len(area.spots) - 1) * step + style.card if area.spots else 0
    last = area.spots[-1].label.split("\n") if area.spots and area.spots[-1].label else []
    cards += max([0, *(rich_width(t, LABEL_SIZE, k == 0) - style.card for k, t in enumerate(last))])
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


def draw_beside(group: Sequence[Area], width: int, style: Style, indexed: bool = False) -> Image.Image:
    parts = []
    for area in group:
        assert isinstance(area, Row)
        parts.append(draw_row(area, row_width(area, style), style, indexed))
    img = felt(width, max(p.height for p in parts), indexed)
    x = 0
    for part in parts:
        put(img, part, (x, 0, x + part.width, part.height))
        x += part.width + BESIDE_GAP
    return img


def heading(layout: Layout, width: int, indexed: bool = False) -> Image.Image | None:
    if not layout.title and not layout.subtitle:
        return None
    if heading_in_one_line(layout, width):
        img = felt(width, int(TITLE_SIZE * 1.2), indexed)
        x = draw_text(img, (0, 0), layout.title, TITLE_SIZE, INK, True) + HEAD_SEP
        draw_text(img, (x, TITLE_SIZE - SUB_SIZE), layout.subtitle, SUB_SIZE, GOLD)
        return img
    lines: list[tuple[str, int, tuple[int, int, int], bool]] = []
    if layout.title:
        lines.append((clip_text(layout.title, width, TITLE_SIZE, True), TITLE_SIZE, INK, True))
    for line in wrap_text(layout.subtitle, width, SUB_SIZE)[:2] if layout.subtitle else []:
        lines.append((line, SUB_SIZE, GOLD, False))
    height = sum(int(size * 1.2) for _, size, _, _ in lines)
    img = felt(width, height, indexed)
    y = 0
    for text, size, colour, bold in lines:
        draw_text(img, (0, y), text, size, colour, bold)
        y += int(size * 1.2)
    return img


def draw_area(area: Area, width: int, style: Style) -> Image.Image | None:
    """The strip of ``area`` drawn ``width`` wide (from the cache when drawn before: the scores,
    the counts and the notes mostly stay the same from one move to the next). Callers only read it."""
    if drawlog.current() is not None:  # recording: every word is to be drawn (and logged)
        return draw_area_now(area, width, style)
    try:
        return drawn_area(area, width, style)
    except TypeError:  # unhashable: a game's hook built a list where a tuple belongs
        return draw_area_now(area, width, style)


@lru_cache(maxsize=64)
def drawn_area(area: Area, width: int, style: Style) -> Image.Image | None:
    return draw_area_now(area, width, style)


def draw_area_now(area: Area, width: int, style: Style, indexed: bool = False) -> Image.Image | None:
    """``indexed``: drawn in the palette (only an area :func:`in_palette`)."""
    area = tightened(area, width, style)
    if isinstance(area, Facts):
        return draw_facts(area, width, indexed=indexed)
    if isinstance(area, Row):
        return draw_row(area, width, style, indexed)
    if isinstance(area, Pile):
        return draw_pile(area, width, style, indexed)
    if isinstance(area, Grid):
        return draw_grid(area, width, style, indexed)
    if isinstance(area, Counts):
        return draw_counts(area, width)
    if isinstance(area, Scores):
        return draw_scores(area, width, tight=style.tight, indexed=indexed)
    return draw_notes(area, width, indexed)


def in_palette(area: Area, width: int, style: Style) -> bool:
    """Whether an area (as :func:`tightened` draws it ``width`` wide) is drawn straight in the
    palette: where nothing is drawn over anything but the plain ground it was mapped on (words on
    the felt, a chip, a badge or a score line; cards side by side). Cards that overlap, the backs
    of a hand, and a tight score table (whose lines are so close that a letter's tail reaches the
    next line's ground) are drawn in RGB and mapped whole."""
    if isinstance(area, Scores):
        return not style.tight or score_chips(area) is not None
    if isinstance(area, Row):
        return not area.overlap or not cards_overlap(area.spots, width, row_card_width(area, style), False)
    if isinstance(area, Pile):
        return not cards_overlap(area.spots, width - pile_badge(area), pile_card_width(area, style), False)
    return isinstance(area, Notes | Facts | Grid)


def cards_overlap(spots: Sequence[Spot], width: int, card_w: int, spaced: bool) -> bool:
    """Whether :func:`draw_cards` lays a card over another."""
    if len(spots) < 2:
        return False
    per_line, step = _fit(len(spots), width, card_w, spaced, spots)
    return per_line > 1 and step < card_w


def tightened(area: Area, width: int, style: Style) -> Area:
    """An area as a tight style draws it (see :attr:`Style.tight`): a pile only its latest cards
    that fit in one line, how many came before in its note (its total and the last cards are what
    the table plays to; the alt text, too, names only the last few); face-down hands as chips of
    a name and a count, a line or two where the backs took three. Other areas as they are."""
    if not style.tight:
        return area
    if isinstance(area, Pile):
        return folded(area, width, style)
    if isinstance(area, Counts) and area.items:
        return Scores(("Cards",), tuple(ScoreLine(name, (str(count),)) for name, count in area.items), title=area.title)
    return area


def folded(area: Pile, width: int, style: Style) -> Pile:
    """A pile with only its latest cards that fit in one line ``width`` wide."""
    badge_w = BADGE_W + 8 if area.total is not None else 0
    card_w = style.card if len(area.spots) <= 10 else SMALL_CARD_W
    keep = len(area.spots)
    while keep > 1 and _fit(keep, width - badge_w, card_w, False, area.spots[-keep:])[0] < keep:
        keep -= 1
    if keep == len(area.spots):
        return area
    earlier = f"{len(area.spots) - keep} earlier"
    return replace(area, spots=area.spots[-keep:], note=f"{area.note}, {earlier}" if area.note else earlier)


def area_title(title: str, note: str, width: int) -> tuple[list[str], int]:
    """The heading of an area (title, then the note in the same line if it fits)."""
    if not title and not note:
        return [], 0
    text = f"{title}  ·  {note}" if title and note else (title or note)
    lines = wrap_text(text, width, HEAD_SIZE, True)[:2]
    return lines, len(lines) * int(HEAD_SIZE * 1.2) + 2


def put_title(img: Image.Image, lines: Sequence[str]) -> None:
    y = 0
    for line in lines:
        draw_text(img, (0, y), line, HEAD_SIZE, GOLD, True)
        y += int(HEAD_SIZE * 1.2)


# --- facts, notes, counts, scores ------------------------------------------------------------------


def fact_chips(area: Facts, width: int) -> list[list[tuple[str, str, int]]]:
    """The facts as chips ``(name, value, width)``, in lines of at most ``width`` pixels."""
    size = TEXT_SIZE
    chips: list[tuple[str, str, int]] = []
    for name, value in area.items:
        name_text = f"{name} " if name else ""
        w = rich_width(name_text, size) + rich_width(value, size, True) + 12
        chips.append((name_text, value, min(w, width)))
    rows: list[list[tuple[str, str, int]]] = [[]]
    used = 0
    for chip in chips:
        if rows[-1] and used + chip[2] > width:
            rows.append([])
            used = 0
        rows[-1].append(chip)
        used += chip[2] + 5
    return rows


def draw_facts(
    area: Facts, width: int, marked: frozenset[int] = frozenset(), top: int = 0, indexed: bool = False
) -> Image.Image | None:
    """The facts as chips in lines; the chips numbered in ``marked`` outlined (whose turn it is),
    ``top`` pixels left free above them (for a title)."""
    if not area.items:
        return None
    size = TEXT_SIZE
    chip_h = int(size * 1.5)
    rows = fact_chips(area, width)
    height = top + len(rows) * (chip_h + 4) - 4
    img = felt(width, height, indexed)
    y = top
    k = 0
    for row in rows:
        x = 0
        for name_text, value, w in row:
            mark = k in marked
            rounded_box(
                img,
                (x, y, x + w, y + chip_h),
                chip_h // 2,
                fill=ink(img, FELT_LIGHT),
                outline=ink(img, LEGAL if mark else (70, 140, 100)),
                width=2 if mark else 1,
            )
            tx = x + 6
            ty = y + (chip_h - int(size * 1.2)) // 2
            tx += draw_text(img, (tx, ty), name_text, size, LEGAL if mark else MUTED, ground=FELT_LIGHT)
            value_text = clip_text(value, w - (tx - x) - 5, size, True)
            draw_text(img, (tx, ty), value_text, size, LEGAL if mark else INK, True, ground=FELT_LIGHT)
            x += w + 5
            k += 1
        y += chip_h + 4
    return img


def score_chips(area: Scores) -> Facts | None:
    """A table of one score a player, as chips (``P1 12``) in a line or two rather than a line a
    player: the same facts in a third of the height."""
    if max((len(x.values) for x in area.lines), default=0) != 1:
        return None
    return Facts(tuple((x.name, x.values[0]) for x in area.lines))


def draw_notes(area: Notes, width: int, indexed: bool = False) -> Image.Image | None:
    lines: list[str] = []
    for line in area.lines:
        lines.extend(wrap_text(line, width, TEXT_SIZE))
    title, top = area_title(area.title, "", width)
    if not lines and not title:
        return None
    lh = int(TEXT_SIZE * 1.25)
    img = felt(width, top + lh * len(lines), indexed)
    put_title(img, title)
    for i, line in enumerate(lines):
        draw_text(img, (0, top + i * lh), line, TEXT_SIZE, INK)
    return img


def draw_counts(area: Counts, width: int) -> Image.Image | None:
    if not area.items:
        return None
    title, top = area_title(area.title, "", width)
    back_w = COUNT_BACK_W
    bw, bh = card_size(back_w)
    cell = counts_cell(area)
    per_line = max(1, (width + 8) // cell)
    lines = (len(area.items) + per_line - 1) // per_line
    img = felt(width, top + lines * (bh + 5) - 5)
    put_title(img, title)
    back = card_face(None, back_w)
    for i, (name, count) in enumerate(area.items):
        x = (i % per_line) * cell
        y = top + (i // per_line) * (bh + 5)
        if count > 1:
            img.paste(back, (x + 3, y), back)
        if count:
            img.paste(back, (x, y + (0 if count <= 1 else 2)), back)
        else:
            rounded_box(img, (x, y, x + bw, y + bh), 3, outline=MUTED)
        num = str(count)
        nw = rich_width(num, TEXT_SIZE, True)
        cx, cy = x + bw // 2 + 1, y + bh // 2 + 1
        rounded_box(img, (cx - nw // 2 - 2, cy - 9, cx + nw // 2 + 2, cy + 9), 3, fill=(250, 250, 250))
        draw_text(img, (cx - nw // 2, cy - 9), num, TEXT_SIZE, (20, 20, 20), True)
        draw_text(img, (x + bw + 7, y + bh // 2 - 9), clip_text(name, cell - bw - 12, TEXT_SIZE, True), TEXT_SIZE, INK, True)
    return img


SPLIT_SCORES = 5
"""From this many players on, a short score table is drawn in two halves side by side..."""
SPLIT_WIDTH = 300
"""... where it is at least this wide (two halves of a narrow column would cut the names short)."""


def draw_scores(
    area: Scores, width: int, split: bool = True, tight: bool = False, indexed: bool = False
) -> Image.Image | None:
    if not area.lines:
        return None
    chips = score_chips(area)
    if chips is not None:
        title, top = area_title(area.title, "", width)
        marked = frozenset(i for i, x in enumerate(area.lines) if x.active)
        img = draw_facts(chips, width, marked, top, indexed)
        assert img is not None
        put_title(img, title)
        return img
    ncol = max((len(x.values) for x in area.lines), default=0)
    parts = score_parts(area, width, tight) if split else 1
    if parts > 1:
        per = -(-len(area.lines) // parts)
        part_w = (width - BESIDE_GAP * (parts - 1)) // parts
        title, top = area_title(area.title, "", width)
        drawn = [
            draw_scores(
                replace(area, lines=area.lines[k * per : (k + 1) * per], title=""), part_w, False, tight, indexed
            )
            for k in range(parts)
        ]
        img = felt(width, top + max(d.height for d in drawn if d is not None), indexed)
        put_title(img, title)
        for k, part in enumerate(drawn):
            if part is not None:
                x = k * (width + BESIDE_GAP) // parts
                put(img, part, (x, top, x + part.width, top + part.height))
        return img
    size = TEXT_SIZE
    lh = score_line_height(tight)
    title, top = area_title(area.title, "", width)
    columns = area.columns
    name_w, starts, ends = score_columns(area, width)
    header = any(columns) and tuple(columns) != ("Score",)
    img = felt(width, top + lh * (len(area.lines) + (1 if header else 0)), indexed)
    put_title(img, title)
    y = top
    if header:
        for i, name in enumerate(columns[:ncol]):
            draw_text(img, (starts[i], y + 2), clip_text(name, ends[i] - starts[i] - 4, LABEL_SIZE), LABEL_SIZE, MUTED)
        y += lh
    for k, line in enumerate(area.lines):
        ground = FELT_DARK if k % 2 == 0 else FELT
        if k % 2 == 0:  # (ImageDraw's rectangle: the last pixel included)
            put(img, ink(img, FELT_DARK), (0, y, min(width, ends[-1] if ends else name_w) + 1, y + lh))
        colour = LEGAL if line.active else INK
        if line.active:
            marker = [(2, y + lh // 2 - 5), (2, y + lh // 2 + 5), (9, y + lh // 2)]
            ImageDraw.Draw(img).polygon(marker, fill=ink(img, LEGAL))
        name = clip_text(line.name, name_w - 15, size, True)
        draw_text(img, (12, y + (lh - size) // 2 - 1), name, size, colour, True, ground=ground)
        for i, value in enumerate(line.values):
            if i < len(starts):
                cell = clip_text(value, ends[i] - starts[i] - 4, size, i == 0)
                draw_text(img, (starts[i], y + (lh - size) // 2 - 1), cell, size, colour, i == 0, ground=ground)
        y += lh
    return img


# --- cards in a row, a pile, a grid ------------------------------------------------------------------

NONE_H = 20
"""The height of an empty line of cards (the word "none")."""
LINE_GAP = 4
"""Space between lines of cards."""
BADGE_W, BADGE_H = 64, 52
"""The size of a pile's total."""
LABEL_GROUND = (20, 20, 20)
"""What a grid cell's label is written on, over its card."""
GRID_HEAD, GRID_GAP = 18, 4
"""A grid's row and column names' room, and the space between its cells."""


def _label_lines(spots: Sequence[Spot]) -> int:
    return max((len(s.label.split("\n")) for s in spots if s.label), default=0)


def min_step(card_w: int, spots: Sequence[Spot] = ()) -> int:
    """The narrowest overlap step at which each card's index shows whole ("10" then "8", never
    "108") and the labels under the cards do not run into each other."""
    return max(MIN_STEP, index_width(card_w), label_step(spots))


LABEL_GAP = 12
"""The least space between the labels of two cards ("sets 60" and "+10" must not read as one)."""


def label_width(spot: Spot) -> int:
    """The width of a card's widest line of label (0: none)."""
    return labels_width(spot.label) if spot.label else 0


@lru_cache(maxsize=4096)
def labels_width(label: str) -> int:
    """The width of the widest line of a card's label (the first line bold)."""
    return max([0, *(rich_width(t, LABEL_SIZE, k == 0) for k, t in enumerate(label.split("\n")))])


def label_step(spots: Sequence[Spot]) -> int:
    """The width of the widest label under a card but the last (which may reach further right),
    and the space between two (a pile is measured at several widths, and folded card by card:
    each label's width is measured once)."""
    return max([0, *(labels_width(s.label) + LABEL_GAP for s in spots[:-1] if s.label)])


def _fit(count: int, width: int, card_w: int, spaced: bool, spots: Sequence[Spot] = ()) -> tuple[int, int]:
    """How many cards a line holds and the step between them (room kept at the right for the
    last card's label, centred under it)."""
    if spots:
        width -= max(0, (label_width(spots[-1]) - card_w + 1) // 2)
    least = min_step(card_w, spots)
    full = max(card_w + CARD_GAP, least)
    if (count - 1) * full + card_w <= width:
        if spaced or count <= 1:
            return count, full
        return count, min(full, max(least, (width - card_w) // (count - 1)))
    per_line = max(1, (width - card_w) // least + 1)
    lines = (count + per_line - 1) // per_line
    per_line = (count + lines - 1) // lines
    step = min(full, (width - card_w) // max(1, per_line - 1)) if per_line > 1 else full
    return per_line, step


def draw_cards(
    spots: Sequence[Spot],
    width: int,
    card_w: int,
    spaced: bool = True,
    label_size: int = LABEL_SIZE,
    indexed: bool = False,
) -> Image.Image:
    """Cards in lines (overlapping when they would not fit, each index and label clear), labels
    under, marks drawn (``indexed``: in the palette, for cards that do not overlap)."""
    if not spots:
        img = felt(width, NONE_H, indexed)
        draw_text(img, (0, 1), "none", TEXT_SIZE, MUTED)
        return img
    cw, ch = card_size(card_w)
    per_line, step = _fit(len(spots), width, card_w, spaced, spots)
    labels = _label_lines(spots)
    label_h = labels * int(label_size * 1.15) + (2 if labels else 0)
    raised = any(s.mark == "legal" for s in spots)
    top = RAISE if raised else 3
    line_h = top + ch + 2 + label_h
    nlines = (len(spots) + per_line - 1) // per_line
    log = drawlog.current()
    if log is not None and len(spots) > 1 and step < cw:
        log.steps.append((step, index_width(card_w)))
    img = felt(width, nlines * line_h + (nlines - 1) * LINE_GAP, indexed)
    boxes: list[tuple[int, int, int, int]] = []
    ends = -LABEL_GAP  # where the line's labels so far end
    for i, spot in enumerate(spots):
        line, col = divmod(i, per_line)
        x = col * step
        y = line * (line_h + LINE_GAP) + top
        if spot.mark == "legal":
            y -= RAISE - 3
        place_card(img, spot, (x, y), card_w, on_felt=col == 0 or step >= cw)
        if col == 0:
            ends = -LABEL_GAP
        if spot.label:
            last = col == per_line - 1 or i == len(spots) - 1
            # a label is centred under its card, and starts at least LABEL_GAP after the one
            # before it (the first of a line, wider than its card, starts at the edge and may
            # end past its centred place): the step is at least the widest label and the gap,
            # so a label never starts right of its card. The last of a line may reach the
            # picture's edge, and is moved left (as far as the one before it allows) to end there.
            start = ends + LABEL_GAP
            slack = max(0, min(x - start, step - LABEL_GAP)) if col else x
            lw = width - x + slack if last else step - 2
            ly = line * (line_h + LINE_GAP) + top + ch + 3
            for k, text in enumerate(spot.label.split("\n")):
                text = clip_text(text, lw, label_size, k == 0)
                tw = rich_width(text, label_size, k == 0)
                tx = max(0, x + (cw - tw) // 2, start)
                if last:
                    tx = max(x - slack, min(tx, width - tw))
                colour = WINNING if spot.mark == "winning" and k == 0 else (INK if k == 0 else MUTED)
                ty = ly + k * int(label_size * 1.15)
                draw_text(img, (tx, ty), text, label_size, colour, k == 0)
                ends = max(ends, tx + tw)
                boxes.append((tx, ty, tx + tw, ty + int(label_size * 1.15)))
    if log is not None and boxes:
        log.labels.append(boxes)
    return img


def place_card(img: Image.Image, spot: Spot, xy: tuple[int, int], card_w: int, on_felt: bool = False) -> None:
    """Draw a spot's card (or its empty place) at ``xy``; ``on_felt``: nothing but the felt is
    under it, so the card is copied whole, its corners already blended with the felt."""
    cw, ch = card_size(card_w)
    x, y = xy
    if spot.empty:
        waiting = spot.mark == "waiting"
        rounded_box(
            img,
            (x, y, x + cw - 1, y + ch - 1),
            card_w // 10,
            fill=ink(img, FELT_DARK),
            outline=ink(img, LEGAL if waiting else (60, 120, 85)),
            width=2 if waiting else 1,
        )
        if waiting:
            size = cw // 2
            at = (x + (cw - rich_width("?", size, True)) // 2, y + (ch - size) // 2 - 4)
            draw_text(img, at, "?", size, LEGAL, True, ground=FELT_DARK)
        return
    dimmed = spot.mark == "dimmed"
    if img.mode == "P":  # (only cards that overlap nothing are drawn in the palette)
        assert on_felt, "overlapping cards are drawn in RGB"
        put(img, indexed_face(spot.card, card_w, dimmed), (x, y, x + cw, y + ch))
    elif on_felt:
        put(img, face_on_felt(spot.card, card_w, dimmed), (x, y, x + cw, y + ch))
    else:
        face = shaded_face(spot.card, card_w) if dimmed else card_face(spot.card, card_w)
        put(img, face, (x, y, x + cw, y + ch), face)
    if spot.mark in ("legal", "winning", "last"):
        colour = {"legal": LEGAL, "winning": WINNING, "last": LAST}[spot.mark]
        rounded_box(img, (x - 2, y - 2, x + cw + 1, y + ch + 1), card_w // 10 + 2, outline=ink(img, colour), width=2)


DIM = 105
"""How much of the dark felt (of 255) shades a card that may not be played."""


@lru_cache(maxsize=512)
def shaded_face(card: Card | None, width: int) -> Image.Image:
    """A card face shaded with the dark felt (a card that may not be played), its corners clear."""
    face = card_face(card, width)
    out = face.copy()
    out.paste(FELT_DARK, (0, 0, face.width, face.height), face.getchannel("A").point(lambda a: a * DIM // 255))
    out.putalpha(face.getchannel("A"))
    return out


@lru_cache(maxsize=512)
def indexed_face(card: Card | None, width: int, dimmed: bool = False) -> Image.Image:
    """:func:`face_on_felt` in the palette."""
    return colours.indexed(face_on_felt(card, width, dimmed))


@lru_cache(maxsize=512)
def face_on_felt(card: Card | None, width: int, dimmed: bool = False) -> Image.Image:
    """A card (shaded when ``dimmed``) on the felt, as an opaque picture pasted without a mask."""
    face = shaded_face(card, width) if dimmed else card_face(card, width)
    out = felt(face.width, face.height)
    out.paste(face, (0, 0), face)
    return out


def row_card_width(area: Row, style: Style) -> int:
    """A hand's cards are drawn larger than the table's (smaller again when there are very many)."""
    marked = any(s.mark in ("legal", "dimmed") for s in area.spots)
    card_w = style.hand if (area.overlap and (marked or area.title == "Your hand")) else style.card
    if area.overlap and len(area.spots) > 20:
        card_w = min(card_w, style.card)
    return card_w


def draw_row(area: Row, width: int, style: Style, indexed: bool = False) -> Image.Image:
    title, top = area_title(area.title, area.note, width)
    cards = draw_cards(area.spots, width, row_card_width(area, style), spaced=not area.overlap, indexed=indexed)
    img = felt(width, top + cards.height, indexed)
    put_title(img, title)
    put(img, cards, (0, top, cards.width, top + cards.height))
    return img


def pile_badge(area: Pile) -> int:
    """The width a pile's total takes before its cards (0: none)."""
    return BADGE_W + 8 if area.total is not None else 0


def pile_card_width(area: Pile, style: Style) -> int:
    return style.card if len(area.spots) <= 10 else SMALL_CARD_W


BADGE_GROUND = (250, 246, 230)
"""What a pile's total is written on."""


def draw_pile(area: Pile, width: int, style: Style, indexed: bool = False) -> Image.Image:
    title, top = area_title(area.title, area.note, width)
    badge_w = BADGE_W if area.total is not None else 0
    card_w = pile_card_width(area, style)
    cards = draw_cards(area.spots, width - pile_badge(area), card_w, False, indexed=indexed) if area.spots else None
    _, ch = card_size(card_w)
    height = max(cards.height if cards is not None else 0, BADGE_H + 2 if badge_w else 0)
    img = felt(width, top + height, indexed)
    put_title(img, title)
    if badge_w:
        by = top + max(0, (min(height, ch + 5) - BADGE_H) // 2)
        rounded_box(img, (0, by, badge_w - 1, by + BADGE_H), 8, fill=ink(img, BADGE_GROUND), outline=ink(img, GOLD), width=2)
        label = clip_text(area.total_label, badge_w - 6, LABEL_SIZE, True)
        lw = rich_width(label, LABEL_SIZE, True)
        draw_text(img, ((badge_w - lw) // 2, by + 3), label, LABEL_SIZE, (60, 60, 60), True, ground=BADGE_GROUND)
        num = str(area.total)
        size = 28 if len(num) <= 3 else 21
        nw = rich_width(num, size, True)
        draw_text(img, ((badge_w - nw) // 2, by + 21), num, size, (20, 20, 20), True, ground=BADGE_GROUND)
    if cards is not None:
        x = pile_badge(area)
        put(img, cards, (x, top, x + cards.width, top + cards.height))
    return img


def draw_grid(area: Grid, width: int, style: Style, indexed: bool = False) -> Image.Image:
    title, top = area_title(area.title, area.note, width)
    ncols, nrows = len(area.columns), len(area.rows)
    head = GRID_HEAD
    card_w = min(style.card, (width - head - (ncols - 1) * GRID_GAP) // max(1, ncols))
    cw, ch = card_size(card_w)
    img = felt(width, top + head + nrows * (ch + GRID_GAP), indexed)
    put_title(img, title)
    left = head + max(0, (width - head - ncols * (cw + GRID_GAP)) // 2)
    for c, name in enumerate(area.columns):
        tw = rich_width(name, HEAD_SIZE, True)
        draw_text(img, (left + c * (cw + GRID_GAP) + (cw - tw) // 2, top - 1), name, HEAD_SIZE, MUTED, True)
    for r, name in enumerate(area.rows):
        y = top + head + r * (ch + GRID_GAP)
        tw = rich_width(name, HEAD_SIZE, True)
        draw_text(img, (left - head + (head - tw) // 2 - 2, y + ch // 2 - HEAD_SIZE // 2 - 2), name, HEAD_SIZE, MUTED, True)
        for c in range(ncols):
            spot = area.cells[r * ncols + c]
            place_card(img, spot, (left + c * (cw + GRID_GAP), y), card_w, on_felt=True)
            if spot.label:
                lw = rich_width(spot.label, LABEL_SIZE, True)
                x = left + c * (cw + GRID_GAP) + (cw - lw) // 2
                rounded_box(img, (x - 2, y + ch - 20, x + lw + 2, y + ch - 1), 3, fill=ink(img, LABEL_GROUND))
                draw_text(img, (x, y + ch - 20), spot.label, LABEL_SIZE, INK, True, ground=LABEL_GROUND)
    return img


# --- heights, measured without drawing (to compare arrangements) ---------------------------------------
# Each mirrors its drawing function above: tests/bot/test_pictures.py checks that they agree.


HEAD_SEP = 12
"""Space between the title and the subtitle drawn beside it."""


def heading_in_one_line(layout: Layout, width: int) -> bool:
    """Whether the subtitle fits on the title's line (a line of the picture saved)."""
    if not layout.title or not layout.subtitle:
        return False
    return rich_width(layout.title, TITLE_SIZE, True) + HEAD_SEP + rich_width(layout.subtitle, SUB_SIZE) <= width


def heading_height(layout: Layout, width: int) -> int:
    if not layout.title and not layout.subtitle:
        return 0
    if heading_in_one_line(layout, width):
        return int(TITLE_SIZE * 1.2)
    subtitle = len(wrap_text(layout.subtitle, width, SUB_SIZE)[:2]) if layout.subtitle else 0
    return (int(TITLE_SIZE * 1.2) if layout.title else 0) + subtitle * int(SUB_SIZE * 1.2)


def area_height(area: Area, width: int, style: Style) -> int:
    """The height :func:`draw_area` draws ``area`` at, ``width`` wide (0: nothing drawn)."""
    try:
        return measured_height(area, width, style)
    except TypeError:  # unhashable
        return measure_area(area, width, style)


@lru_cache(maxsize=8192)
def measured_height(area: Area, width: int, style: Style) -> int:
    return measure_area(area, width, style)


def measure_area(area: Area, width: int, style: Style) -> int:
    area = tightened(area, width, style)
    if isinstance(area, Facts):
        return len(fact_chips(area, width)) * (int(TEXT_SIZE * 1.5) + 4) - 4 if area.items else 0
    if isinstance(area, Row):
        return row_height(area, width, style)
    if isinstance(area, Pile):
        _, top = area_title(area.title, area.note, width)
        badge_w = BADGE_W if area.total is not None else 0
        card_w = style.card if len(area.spots) <= 10 else SMALL_CARD_W
        cards = cards_height(area.spots, width - badge_w - (8 if badge_w else 0), card_w, False) if area.spots else 0
        return top + max(cards, BADGE_H + 2 if badge_w else 0)
    if isinstance(area, Grid):
        _, top = area_title(area.title, area.note, width)
        ncols = len(area.columns)
        card_w = min(style.card, (width - GRID_HEAD - (ncols - 1) * GRID_GAP) // max(1, ncols))
        return top + GRID_HEAD + len(area.rows) * (card_size(card_w)[1] + GRID_GAP)
    if isinstance(area, Counts):
        return counts_height(area, width)
    if isinstance(area, Scores):
        return scores_height(area, width, style.tight)
    lines = sum(len(wrap_text(line, width, TEXT_SIZE)) for line in area.lines)
    title, top = area_title(area.title, "", width)
    return top + int(TEXT_SIZE * 1.25) * lines if lines or title else 0


def row_height(area: Row, width: int, style: Style) -> int:
    _, top = area_title(area.title, area.note, width)
    return top + cards_height(area.spots, width, row_card_width(area, style), not area.overlap)


def cards_height(spots: Sequence[Spot], width: int, card_w: int, spaced: bool) -> int:
    if not spots:
        return NONE_H
    _, ch = card_size(card_w)
    per_line, _ = _fit(len(spots), width, card_w, spaced, spots)
    labels = _label_lines(spots)
    label_h = labels * int(LABEL_SIZE * 1.15) + (2 if labels else 0)
    top = RAISE if any(s.mark == "legal" for s in spots) else 3
    nlines = (len(spots) + per_line - 1) // per_line
    return nlines * (top + ch + 2 + label_h) + (nlines - 1) * LINE_GAP


def counts_height(area: Counts, width: int) -> int:
    if not area.items:
        return 0
    _, top = area_title(area.title, "", width)
    _, bh = card_size(COUNT_BACK_W)
    per_line = max(1, (width + 8) // counts_cell(area))
    lines = (len(area.items) + per_line - 1) // per_line
    return top + lines * (bh + 5) - 5


COUNT_BACK_W = 24
"""The width of the card backs that show how many cards each player holds."""


def counts_cell(area: Counts) -> int:
    """The width each player takes in a line of :class:`Counts`: the backs, then the name."""
    bw, _ = card_size(COUNT_BACK_W)
    return max(bw + 7 + min(rich_width(name, TEXT_SIZE, True), 90) + 8 for name, _ in area.items)


def score_columns(area: Scores, width: int) -> tuple[int, list[int], list[int]]:
    """Where a score table's columns start and end: each as wide as its heading or its widest
    value (the names' too), the last taking what is left; where they do not all fit, the columns
    after the names share the width evenly (their text clipped)."""
    size = TEXT_SIZE
    ncol = max((len(x.values) for x in area.lines), default=0)
    name_w = min(max(rich_width(x.name, size, True) for x in area.lines) + 22, int(width * 0.4))
    heads = [*area.columns[:ncol], *([""] * (ncol - len(area.columns[:ncol])))]
    wants = [
        max([rich_width(heads[i], LABEL_SIZE), *(rich_width(x.values[i], size, i == 0) for x in area.lines if i < len(x.values))])
        + 12
        for i in range(ncol)
    ]
    if name_w + sum(wants) <= width:
        wants[-1:] = [max(wants[-1], min(width - name_w - sum(wants[:-1]), 2 * wants[-1]))] if wants else []
    else:
        wants = [(width - name_w) // max(1, ncol)] * ncol
    starts, ends = [], []
    x = name_w
    for w in wants:
        starts.append(x)
        x += w
        ends.append(x)
    return name_w, starts, ends


def score_parts(area: Scores, width: int, tight: bool = False) -> int:
    """How many parts, side by side, a score table of many players is drawn in: two halves from
    :data:`SPLIT_SCORES` players where it is at least :data:`SPLIT_WIDTH` wide; in a tight style,
    thirds from :data:`THIRDS_FROM` players where each third holds its columns whole."""
    ncol = max((len(x.values) for x in area.lines), default=0)
    if len(area.lines) < SPLIT_SCORES or ncol > 2 or width < SPLIT_WIDTH:
        return 1
    if tight and len(area.lines) >= THIRDS_FROM:
        third = (width - 2 * BESIDE_GAP) // 3
        if scores_natural_width(area) <= third:
            return 3
    return 2


THIRDS_FROM = 9
"""A tight picture's score table of this many players or more may be drawn in thirds."""


def scores_natural_width(area: Scores) -> int:
    """The width a score table's names and columns ask for (:func:`score_columns`, unclipped)."""
    ncol = max((len(x.values) for x in area.lines), default=0)
    name_w = max(rich_width(x.name, TEXT_SIZE, True) for x in area.lines) + 22
    heads = [*area.columns[:ncol], *([""] * (ncol - len(area.columns[:ncol])))]
    wants = [
        max([rich_width(heads[i], LABEL_SIZE), *(rich_width(x.values[i], TEXT_SIZE, i == 0) for x in area.lines if i < len(x.values))])
        + 12
        for i in range(ncol)
    ]
    return name_w + sum(wants)


def score_line_height(tight: bool) -> int:
    """The height of a line of a score table (closer in a tight picture)."""
    return int(TEXT_SIZE * (1.3 if tight else 1.45))


def scores_height(area: Scores, width: int, tight: bool = False) -> int:
    if not area.lines:
        return 0
    _, top = area_title(area.title, "", width)
    chips = score_chips(area)
    if chips is not None:
        return top + area_height(chips, width, Style())
    lh = score_line_height(tight)
    header = 1 if any(area.columns) and tuple(area.columns) != ("Score",) else 0
    lines = -(-len(area.lines) // score_parts(area, width, tight))
    return top + lh * (lines + header)


__all__ = ["Style", "draw_layout", "paste_shape"]
