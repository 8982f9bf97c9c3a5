"""What a picture draws, recorded for tests and benchmarks (never while serving).

Inside ``with recording() as log:`` every line of text drawn is logged with its font size in the
picture's pixels, and every line of overlapping cards with the step between cards and the width of
the card's index (rank and pip). A test then scales these by the width a viewer sees the picture
at, without reading pixels back.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field


@dataclass
class DrawLog:
    texts: list[tuple[str, int]] = field(default_factory=list)
    """``(text, font size in pixels)`` of each run of text drawn."""
    steps: list[tuple[int, int]] = field(default_factory=list)
    """``(step, index width)`` of each line of overlapping cards: the index is shown whole when the
    step is at least its width."""
    labels: list[list[tuple[int, int, int, int]]] = field(default_factory=list)
    """The boxes ``(left, top, right, bottom)`` of the lines of labels under each line of cards
    drawn (one list per line of cards, in its own pixels; a label's lines stack without overlap)."""
    width: int = 0
    """The finished picture's width in pixels."""

    def smallest_text(self, shown_width: int) -> float:
        """The smallest font size drawn, in pixels of a picture shown ``shown_width`` wide."""
        sizes = [size for text, size in self.texts if text.strip()]
        return min(sizes, default=0) * shown_width / max(1, self.width)

    def covered_indices(self) -> list[tuple[int, int]]:
        """The lines of cards whose step hides part of a card's index."""
        return [(step, index) for step, index in self.steps if step < index]

    def crossed_labels(self) -> list[tuple[tuple[int, int, int, int], tuple[int, int, int, int]]]:
        """The pairs of lines of labels under cards that run into each other."""
        return [
            (a, b)
            for boxes in self.labels
            for k, a in enumerate(boxes)
            for b in boxes[:k]
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
        ]


_current: ContextVar[DrawLog | None] = ContextVar("drawlog", default=None)


def current() -> DrawLog | None:
    return _current.get()


@contextmanager
def recording() -> Iterator[DrawLog]:
    log = DrawLog()
    token = _current.set(log)
    try:
        yield log
    finally:
        _current.reset(token)
