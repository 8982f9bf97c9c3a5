# Over 400 lines: the picture's data types, their descriptions (alt text) and the default pictures every view gets.
"""A picture of a view, as pure data: what to draw, never how.

A game's view describes itself with :meth:`games.engine.View.layout` (the table) and
:meth:`games.engine.View.hand_layout` (a seat's hand with the cards it may play marked). The
renderers in ``bot/render/`` turn a :class:`Layout` into an image and a short description; nothing
here knows about pixels, fonts or files.

A layout is built from the view alone, so it can never show more than the view holds: a card is
either face up (:class:`Spot` with a card) or face down (a spot without one, or a count in
:class:`Counts`). Everything is frozen and hashable, so a renderer may cache images by layout.

The areas, in reading order (top to bottom; the renderer may set the later ones beside the earlier
ones, in a second column, to keep the picture landscape, so a game lists first what belongs on the
left, as Spec does its grid):

* :class:`Facts`: short facts in a line (trumps, target, whose deal), suits written as symbols;
* :class:`Row`: face-up cards in a line, each with an optional label under it (who played it)
  and mark (``legal``, ``winning``, ``dimmed``);
* :class:`Pile`: cards played one on another with a running total beside them;
* :class:`Grid`: a board of cells (Spec's 5x5), each a card, a face-down card or empty;
* :class:`Counts`: face-down hands as counts ("Bob: 5 cards");
* :class:`Scores`: one line per player, with extra columns (tricks won, lives) and whose turn;
* :class:`Notes`: a few lines of text.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from games.cards import Card

Mark = Literal["legal", "winning", "dimmed", "last", "waiting"]
"""How a card stands out: ``legal`` (may be played now: raised, outlined), ``winning`` (took or
is taking the trick), ``dimmed`` (may not be played now), ``last`` (the card played last),
``waiting`` (an empty place for the card the table waits for)."""


@dataclass(frozen=True, slots=True)
class Spot:
    """One card place: face up (``card``), face down (``card is None`` and ``empty`` false) or an
    empty place (``empty``). ``label`` is written under it (``\\n`` starts a second line)."""

    card: Card | None = None
    label: str = ""
    mark: Mark | None = None
    empty: bool = False

    @property
    def face_up(self) -> bool:
        return self.card is not None


@dataclass(frozen=True, slots=True)
class Facts:
    """Short facts in one line, each ``(name, value)``: ``("Trumps", "♠")``, ``("Target", "odd")``."""

    items: tuple[tuple[str, str], ...]
    title: str = ""


@dataclass(frozen=True, slots=True)
class Row:
    """Face-up (or face-down) cards in a line. ``overlap`` packs them tightly (a hand)."""

    title: str
    spots: tuple[Spot, ...]
    note: str = ""
    overlap: bool = False


@dataclass(frozen=True, slots=True)
class Pile:
    """Cards played in turn, oldest first, with the running total (``total``) shown large."""

    title: str
    spots: tuple[Spot, ...]
    total: int | None = None
    total_label: str = "Total"
    note: str = ""


@dataclass(frozen=True, slots=True)
class Grid:
    """A board of ``len(rows) x len(columns)`` cells, row by row (Spec: rows A-E, columns 1-5)."""

    title: str
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    cells: tuple[Spot, ...]
    note: str = ""
    named_cells: bool = True
    """Whether a cell's name (``B3``) matters; a grid that only sorts cards (by suit and value) has
    its cards described without their cells."""


@dataclass(frozen=True, slots=True)
class Counts:
    """Face-down hands and stacks, as counts: ``(("Bob", 5), ("Stock", 12))``."""

    title: str
    items: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class ScoreLine:
    name: str
    values: tuple[str, ...]
    active: bool = False
    """Whose turn it is (drawn highlighted)."""


@dataclass(frozen=True, slots=True)
class Scores:
    """One line per player: ``columns`` names the values of each :class:`ScoreLine`."""

    columns: tuple[str, ...]
    lines: tuple[ScoreLine, ...]
    title: str = "Scores"
    active_text: str = "to play"
    """What a highlighted line means, for descriptions (``winner`` in a final ranking)."""


@dataclass(frozen=True, slots=True)
class Notes:
    lines: tuple[str, ...]
    title: str = ""


Area = Facts | Row | Pile | Grid | Counts | Scores | Notes


@dataclass(frozen=True, slots=True)
class Layout:
    """A whole picture: a title line, a subtitle and the areas, top to bottom."""

    title: str
    subtitle: str = ""
    areas: tuple[Area, ...] = field(default_factory=tuple)
    players: tuple[str, ...] = ()
    """The players' names, seat by seat, wherever the text above holds them: a renderer may draw
    them shortened to fit (the description, :meth:`text`, keeps them whole)."""

    def spots(self) -> Iterator[Spot]:
        """Every card place of the picture."""
        for area in self.areas:
            if isinstance(area, Row | Pile):
                yield from area.spots
            elif isinstance(area, Grid):
                yield from area.cells

    def cards(self) -> list[Card]:
        """Every face-up card of the picture (for leak checks and descriptions)."""
        return [s.card for s in self.spots() if s.card is not None]

    def text(self) -> str:
        """A plain description of the picture (an image's alt text): only what it shows."""
        head = ": ".join(p for p in (self.title, self.subtitle) if p)
        parts = [head]
        parts.extend(describe(area) for area in self.areas)
        return ". ".join(p.rstrip(".") for p in parts if p) + "."


# --- descriptions ---------------------------------------------------------------------------------


def spot_text(spot: Spot) -> str:
    if spot.empty:
        return spot.label.replace("\n", " ").strip() or "empty"
    label = spot.label.replace("\n", " ").strip()
    if spot.card is None:
        return f"{label} face down" if label else "face down"
    text = spot.card.short
    return f"{label} {text}" if label else text


def describe(area: Area) -> str:
    """One sentence for an area (alt text)."""
    if isinstance(area, Facts):
        return ", ".join(f"{k} {v}" if k else v for k, v in area.items)
    if isinstance(area, Row):
        shown = ", ".join(spot_text(s) for s in area.spots) or "none"
        notes = [n for n in (area.note, won_by(area)) if n]
        return f"{area.title}: {shown}" + (f" ({'; '.join(notes)})" if notes else "")
    if isinstance(area, Pile):
        total = f"{area.total_label} {area.total}" if area.total is not None else ""
        last = area.spots[-3:]
        played = "; last played " + ", ".join(spot_text(s) for s in last) if last else ""
        return f"{area.title}: {total}{played}".rstrip(": ")
    if isinstance(area, Grid):
        up = [
            f"{r}{c} {spot_text(s)}" if area.named_cells else spot_text(s)
            for (r, c), s in zip(grid_cells(area), area.cells, strict=True)
            if s.card is not None
        ]
        down = sum(1 for s in area.cells if s.card is None and not s.empty)
        hidden = f", {down} face down" if down else ""
        return f"{area.title}: {len(up)} face up ({', '.join(up) or 'none'}){hidden}"
    if isinstance(area, Counts):
        return f"{area.title}: " + ", ".join(f"{n} {c}" for n, c in area.items)
    if isinstance(area, Scores):
        cols = area.columns
        lines = []
        for line in area.lines:
            vals = ", ".join(f"{c} {v}" if c else v for c, v in zip(cols, line.values, strict=False) if v)
            lines.append(f"{line.name}{f' ({area.active_text})' if line.active else ''} {vals}")
        return f"{area.title}: " + "; ".join(lines)
    return " ".join(area.lines)


def won_by(row: Row) -> str:
    """Who took a finished trick ("won by Ann"), from its card marked ``winning``: the picture
    shows it by the mark alone. A trick in play (a card still awaited) says "winning" under its
    leader's name instead, and a row with no such card says nothing."""
    if any(s.mark == "waiting" for s in row.spots):
        return ""
    won = [s for s in row.spots if s.mark == "winning" and s.card is not None and s.label]
    if len(won) != 1 or "\n" in won[0].label:
        return ""
    return f"won by {won[0].label}"


def grid_cells(grid: Grid) -> list[tuple[str, str]]:
    return [(r, c) for r in grid.rows for c in grid.columns]


# --- builders the games share -----------------------------------------------------------------------


def spots(cards: Iterable[Card], mark: Mark | None = None) -> tuple[Spot, ...]:
    return tuple(Spot(c, mark=mark) for c in cards)


def played_row(
    title: str,
    players: Sequence[str],
    plays: Iterable[tuple[int, Card]],
    winner: int | None = None,
    note: str = "",
    to_play: Iterable[int] = (),
    winner_line: str = "",
) -> Row:
    """A trick: each card labelled with who played it; the winner's card marked ``winning`` (and,
    once a card follows the lead, ``winner_line``, "winning", under its player's name: a lone lead
    is winning by itself, and a second line of label would make a trick of one card taller); an
    empty place for each seat in ``to_play`` (whose card the trick waits for)."""
    plays = tuple(plays)
    line = f"\n{winner_line}" if winner_line and len(plays) > 1 else ""
    played = tuple(
        Spot(c, label=players[s] + line, mark="winning") if winner is not None and s == winner else Spot(c, label=players[s])
        for s, c in plays
    )
    waiting = tuple(Spot(label=f"{players[s]}\nto play", mark="waiting", empty=True) for s in to_play)
    return Row(title, played + waiting, note=note)


def face_down_row(title: str, labels: Iterable[str]) -> Row:
    """Face-down cards, one per label (bid cards laid face down)."""
    return Row(title, tuple(Spot(None, label=label) for label in labels))


def hand_row(hand: Sequence[Card], playable: Iterable[Card] | None, title: str = "Your hand") -> Row:
    """The seat's hand, overlapped: with ``playable`` given, those cards are marked ``legal`` and the
    others ``dimmed``; with none given (or none of them in the hand), nothing is marked."""
    can = set(playable or ())
    marking = bool(can & set(hand))
    return Row(
        title,
        tuple(
            Spot(c, mark=("legal" if c in can else "dimmed") if marking else None) for c in hand
        ),
        overlap=True,
    )


def score_lines(
    players: Sequence[str],
    awaiting: Iterable[int],
    *columns: Sequence[object],
) -> tuple[ScoreLine, ...]:
    """One :class:`ScoreLine` a player: the values of each column in turn, ``None`` left blank."""
    active = set(awaiting)
    return tuple(
        ScoreLine(
            name,
            tuple("" if col[s] is None else str(col[s]) for col in columns if s < len(col)),
            active=s in active,
        )
        for s, name in enumerate(players)
    )


# --- the defaults every view gets -------------------------------------------------------------------


class OutcomeData(Protocol):
    """What a picture reads of a match's end (:class:`games.engine.Outcome`)."""

    @property
    def scores(self) -> Sequence[int]: ...
    @property
    def ranks(self) -> Sequence[int]: ...
    @property
    def notes(self) -> Sequence[str]: ...


class ViewData(Protocol):
    """What a picture reads of a view: the fields and methods every :class:`games.engine.View`
    has. Written out here, the engine imports this module for the views' default pictures and
    this module imports nothing of the engine (no import circle)."""

    @property
    def players(self) -> Sequence[str]: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def deal(self) -> int: ...
    @property
    def dealer(self) -> int | None: ...
    @property
    def scores(self) -> Sequence[int]: ...
    @property
    def awaiting(self) -> Sequence[int]: ...
    @property
    def phase(self) -> str: ...
    @property
    def hand(self) -> Sequence[Card]: ...
    @property
    def over(self) -> bool: ...
    @property
    def outcome(self) -> OutcomeData | None: ...
    @property
    def deal_over(self) -> bool: ...
    def hand_context(self) -> tuple[Area, ...]: ...
    def layout(self) -> Layout: ...


BASE_FIELDS = frozenset(
    {"game", "players", "seat", "deal", "dealer", "scores", "awaiting", "phase", "hand", "over", "outcome", "deal_over"}
)
"""The fields every view has (:class:`games.engine.View`); the generic picture reads the others."""


def field_title(name: str) -> str:
    return name.replace("_", " ").strip().capitalize()


def subtitle(view: ViewData) -> str:
    """``Deal 3 · trick 5 of 15``, ``Deal 3 · over`` at a deal's end, or the match's end."""
    if view.over:
        return "Final result"
    parts = [f"Deal {view.deal}"] if view.deal else []
    if view.deal_over:
        parts.append("over")
    elif view.phase:
        parts.append(view.phase)
    return " · ".join(parts)


def standard_scores(view: ViewData, *extra: tuple[str, Sequence[object]]) -> Scores:
    """The scores with optional extra columns (``("Tricks", tricks_won)``); whose turn is marked."""
    columns = ("Score", *(name for name, _ in extra))
    values = (view.scores, *(col for _, col in extra))
    awaiting = () if view.over else view.awaiting
    return Scores(columns, score_lines(view.players, awaiting, *values))


def ranked_scores(view: ViewData) -> Scores | None:
    """The final ranking, from the view's outcome."""
    outcome = view.outcome
    if outcome is None:
        return None
    order = sorted(range(len(view.players)), key=lambda s: (outcome.ranks[s], s))
    return Scores(
        ("Place", "Score"),
        tuple(
            ScoreLine(view.players[s], (ordinal(outcome.ranks[s]), str(outcome.scores[s])), active=outcome.ranks[s] == 1)
            for s in order
        ),
        title="Final result",
        active_text="winner",
    )


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def dealer_facts(view: ViewData) -> tuple[tuple[str, str], ...]:
    if view.dealer is None or not 0 <= view.dealer < len(view.players):
        return ()
    return (("Dealer", view.players[view.dealer]),)


def card_areas(view: ViewData) -> list[Area]:
    """A row for every card-holding field of the view beyond the common ones: a card, a list of
    cards, a list of ``(seat, card)`` plays, a ``{seat: cards}`` map (open hands)."""
    areas: list[Area] = []
    for name in _field_names(view):
        if name in BASE_FIELDS:
            continue
        value = getattr(view, name)
        title = field_title(name)
        if isinstance(value, Card):
            areas.append(Row(title, (Spot(value),)))
        elif isinstance(value, list | tuple) and value:
            if all(isinstance(v, Card) for v in value):
                areas.append(Row(title, spots(value), overlap=len(value) > 8))
            elif all(_is_play(v, len(view.players)) for v in value):
                areas.append(played_row(title, view.players, value))
        elif isinstance(value, dict) and value:
            for seat, cards in sorted(value.items(), key=lambda kv: str(kv[0])):
                if (
                    isinstance(seat, int)
                    and 0 <= seat < len(view.players)
                    and isinstance(cards, list)
                    and all(isinstance(c, Card) for c in cards)
                ):
                    areas.append(Row(f"{view.players[seat]}'s {title.lower()}", spots(cards), overlap=True))
    return areas


def _field_names(view: ViewData) -> list[str]:
    """The view's fields in their declared order (every view is a pydantic model; the class
    attribute is not part of :class:`ViewData`)."""
    fields: dict[str, object] = getattr(type(view), "model_fields")  # noqa: B009
    return list(fields)


def _is_play(value: object, players: int) -> bool:
    return (
        isinstance(value, tuple)
        and len(value) == 2
        and isinstance(value[0], int)
        and 0 <= value[0] < players
        and isinstance(value[1], Card)
    )


def own_hand(view: ViewData) -> tuple[Area, ...]:
    """The seat's own hand, in a seat's view (never in the public one)."""
    if view.seat is None or not view.hand:
        return ()
    return (Row("Your hand", spots(view.hand), overlap=True),)


def finish(
    view: ViewData,
    areas: Iterable[Area | None],
    facts: Iterable[tuple[str, str]] = (),
    result_notes: int | None = None,
) -> Layout:
    """A layout with the standard heading, the given facts first, then the areas; the final ranking
    replaces the scores once the match is over, with the result's notes under it (its first
    ``result_notes`` only, where the others, in the table's text, would make the picture too tall)."""
    shown: list[Area] = []
    items = tuple(facts)
    if items:
        shown.append(Facts(items))
    for area in areas:
        if area is None:
            continue
        if view.over and isinstance(area, Scores) and area.title == "Scores":
            final = ranked_scores(view)
            shown.append(final if final is not None else area)
            if view.outcome is not None and view.outcome.notes[:result_notes]:
                shown.append(Notes(tuple(view.outcome.notes[:result_notes])))
        else:
            shown.append(area)
    return Layout(title="", subtitle=subtitle(view), areas=tuple(shown))


def generic_layout(view: ViewData) -> Layout:
    """The picture of a view whose game offers none of its own: its cards, field by field, the
    seat's hand in a seat's view, and the scores."""
    return finish(view, [*card_areas(view), *own_hand(view), standard_scores(view)], dealer_facts(view))


def generic_hand_layout(view: ViewData, playable: Iterable[Card], context: bool = True) -> Layout:
    """A seat's hand with the cards it may play marked, under the context the game gives
    (:meth:`~games.engine.View.hand_context`: the trick to follow, the total to add to).

    A seat with no hand of its own (a referee table, a game played from the table) gets the table
    as the seat sees it, with the cards it may choose from in a row when there are few of them.
    Without ``context`` (a view kept while others play), the hand alone under the deal's number,
    and nothing for a seat without a hand: the rest changes with every move."""
    can = list(dict.fromkeys(playable))
    if not context:
        kept = f"Deal {view.deal}" if view.deal and not view.over else subtitle(view)
        return Layout(title="", subtitle=kept, areas=(hand_row(view.hand, can),) if view.hand else ())
    if view.hand:
        areas: list[Area] = [*view.hand_context(), hand_row(view.hand, can)]
        return Layout(title="", subtitle=subtitle(view), areas=tuple(areas))
    table = view.layout()
    shown = set(table.cards())
    extra: list[Area] = []
    if can and len(can) <= CHOICES_SHOWN and not set(can) <= shown:
        extra.append(Row("You may choose", spots(can, "legal"), overlap=len(can) > 8))
    return Layout(title=table.title, subtitle=table.subtitle, areas=(*table.areas, *extra))


CHOICES_SHOWN = 16
"""At most this many choices from outside the hand are drawn (a referee's entries can be the pack)."""
