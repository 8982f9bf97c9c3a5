"""What an analyser finds in a finished deal, as data: a verdict per judged move and a tally per seat.

An analyser (:mod:`games.advice`) replays a finished deal and judges each move of the kind it can
value (Parity's cards, the Wit and Reason races' cards, Spec's predictions and calls) against the
best move open in that position. Each :class:`Verdict` names the move by its place in the match
record, so a replay places it beside its move without reading its words; it carries the values,
every best alternative (equal ones together) and a short reason. ``/analyse`` and the match page
both render from an :class:`Analysis`: the chat lists its :meth:`Analysis.lines`, the page sets
each verdict beside its move.

Pure data, no I/O. The words are the analyser's own (short, in our own words); the numbers beside
them are what the words were made from.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from games.engine import Seat


@dataclass(frozen=True)
class Verdict:
    """One judged move: what it was worth to its player against the best move open."""

    number: int
    """The move judged: its place in the match record, from 1 (``record.actions[number - 1]``)."""
    seat: Seat
    kind: str
    """What was judged, in a word: ``"card"``, ``"prediction"`` or ``"call"``."""
    move: str
    """The move as the game names it (the card or value played, the card called or predicted)."""
    value: Fraction
    """What the move was worth to its player, in :attr:`unit`."""
    best_value: Fraction
    """What the best move open was worth."""
    best: tuple[str, ...]
    """Every move open worth :attr:`best_value`, named together in the game's order."""
    unit: str
    """What the values count: ``"points"`` (a score difference, or points on average),
    ``"result"`` (1 a win, 0 a draw, -1 a loss) or ``"last cards of 25"``."""
    gave_away: bool
    """Whether the move gave something away (an analyser may forgive a rounding's worth: Spec's
    twentieth of a point), or broke a rule (Spec's forbidden calls)."""
    said: str
    """What the move was worth against the best, in a sentence."""
    why: str = ""
    """Why, in a sentence a player can use (empty where the move kept the best and needs none)."""
    listed: bool = False
    """Whether ``/analyse`` lists it: every move that gave something away, and any other the
    analyser always names (Spec's predictions)."""
    forbidden: bool = False
    """The move broke a rule (a Spec call): :attr:`value` is what it was worth had it stood."""

    @property
    def lost(self) -> Fraction:
        """The value given away against the best move (0 for a best move)."""
        return self.best_value - self.value

    @property
    def text(self) -> str:
        return f"{self.said} {self.why}" if self.why else self.said


@dataclass(frozen=True)
class Tally:
    """One seat's judged moves of one kind in the deal, counted."""

    seat: Seat
    kind: str
    judged: int
    """Every move of the kind the seat made in the deal (forbidden ones included)."""
    gave_away: int
    """How many of them gave something away."""
    lost: Fraction
    """The value they gave away in all, in the verdicts' unit."""
    forbidden: int = 0
    """How many broke a rule (Spec's calls)."""


@dataclass(frozen=True)
class Analysis:
    """A finished deal against the best play: lines about the deal, a verdict for every judged
    move in the order played, each seat's tally, and the closing lines (the tally in words, what
    happened)."""

    game: str
    deal: int
    opening: tuple[str, ...]
    verdicts: tuple[Verdict, ...]
    tallies: tuple[Tally, ...]
    closing: tuple[str, ...]

    def lines(self) -> list[str]:
        """The analysis as ``/analyse`` writes it: the deal, the listed verdicts, the close."""
        return [*self.opening, *(v.text for v in self.verdicts if v.listed), *self.closing]

    def by_number(self) -> dict[int, Verdict]:
        """The verdicts by the number of the move they judge."""
        return {v.number: v for v in self.verdicts}


def tallies(verdicts: list[Verdict] | tuple[Verdict, ...], seats: range | list[Seat], kind: str) -> tuple[Tally, ...]:
    """Each of ``seats``' tally of its ``kind`` verdicts (a seat with none is left out)."""
    out = []
    for seat in seats:
        mine = [v for v in verdicts if v.seat == seat and v.kind == kind]
        if mine:
            given = [v for v in mine if v.gave_away]
            lost = sum((max(Fraction(0), v.lost) for v in given), Fraction(0))
            out.append(Tally(seat, kind, len(mine), len(given), lost, sum(1 for v in mine if v.forbidden)))
    return tuple(out)


def named_together(words: Sequence[str], most: int | None = None) -> str:
    """Equal alternatives in one phrase: "8♠", "8♠ or 9♠", "1, 2 or 5"; past ``most`` of them,
    how many more ("A♥, K♥, Q♥, J♥ or 3 more")."""
    if most is not None and len(words) > most:
        return ", ".join(words[:most]) + f" or {len(words) - most} more"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def in_all(
    players: Sequence[str], counted: Sequence[Tally], seat: Seat | None, all_kept: str, each: Callable[[str, Tally], str]
) -> str:
    """The summary of a deal's tallies in a sentence: ``all_kept`` after who it is about when
    nobody gave anything away, else each seat's tally in ``each``'s words."""
    if not any(t.gave_away for t in counted):
        return f"{'Both players' if seat is None else players[seat]} {all_kept}"
    return "In all, against perfect play: " + "; ".join(each(players[t.seat], t) for t in counted) + "."
