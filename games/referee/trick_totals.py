"""Trick counts entered at the end of a deal, one entry per player.

Shared by the referee games whose deal is settled by how many tricks each player took (Parity,
Parity for Three, Hoodwink), as the part :class:`TrickCounts`. Every player still to be counted is
awaited at once, in any order; a count larger than the tricks left is refused. The last player's
count has only one possible value, so the bot fills it in; a table that enters it anyway, as it had
to before, is told it was already filled in (:meth:`RefereeState.filled_in`), and older records
replay unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field

from games.engine import Action, Event, Seat
from games.referee.state import RefereeState

Counts = list[int | None]
"""Each seat's entered trick count, ``None`` while not yet entered."""


class TricksWon(Action):
    """How many tricks one player took this deal."""

    kind: Literal["tricks_won"] = "tricks_won"
    tricks: int = Field(ge=0)

    def label(self) -> str:
        return f"{self.tricks} trick{'' if self.tricks == 1 else 's'}"


_ENTRIES: dict[int, TricksWon] = {}


def tricks_entry(tricks: int) -> TricksWon:
    """The (cached, immutable) entry of a count: menus are rebuilt after every entry."""
    entry = _ENTRIES.get(tricks)
    if entry is None:
        entry = _ENTRIES[tricks] = TricksWon(tricks=tricks)
    return entry


def missing(counts: Counts) -> list[Seat]:
    """The seats whose count is still to be entered."""
    return [s for s, c in enumerate(counts) if c is None]


def left(counts: Counts, total: int) -> int:
    """Tricks not yet accounted for by the counts entered."""
    return total - sum(c for c in counts if c is not None)


def count_choices(counts: Counts, total: int, seat: Seat) -> list[TricksWon]:
    """The counts ``seat`` may enter: any that fits what is left; the last one must fill it."""
    if counts[seat] is not None:
        return []
    rest = left(counts, total)
    if missing(counts) == [seat]:
        return [tricks_entry(rest)]
    return [tricks_entry(t) for t in range(rest + 1)]


def entered_text(counts: Counts, names: Sequence[str]) -> str:
    """``Ann 4 and Bob 5``: the counts entered so far."""
    parts = [f"{names[s]} {c}" for s, c in enumerate(counts) if c is not None]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def count_refusal(counts: Counts, total: int, seat: Seat, tricks: int, names: Sequence[str]) -> str:
    """Why ``seat`` cannot have taken ``tricks`` given the counts already entered."""
    name = names[seat]
    if counts[seat] is not None:
        return already_entered(counts, seat, names)
    if tricks > total:
        return f"A deal has {total} tricks: {name} cannot have taken {tricks}."
    rest = left(counts, total)
    others = entered_text(counts, names)
    if missing(counts) == [seat]:
        return (
            f"The trick counts must add up to {total}: after {others}, {name} took {rest}. "
            "If a count already entered is wrong, undo it first."
        )
    return (
        f"Only {rest} of the {total} tricks are left for {name} once {others} are counted. "
        "If a count already entered is wrong, undo it first."
    )


def already_entered(counts: Counts, seat: Seat, names: Sequence[str]) -> str:
    return (
        f"{names[seat]}'s trick count is already entered ({counts[seat]}): undo it, or ask the host "
        "to correct it."
    )


def counts_line(counts: Counts, names: Sequence[str], total: int) -> str:
    """``Trick counts: Ann 4, Bob (to enter), Cat (to enter); 7 of 11 left``."""
    parts = [f"{names[s]} {c}" if c is not None else f"{names[s]} (to enter)" for s, c in enumerate(counts)]
    return f"Trick counts: {', '.join(parts)}; {left(counts, total)} of {total} tricks not yet counted."


def referee_lines(last_deal: Sequence[str], counts: str, due: str) -> list[str]:
    """The lines every trick-count referee view adds: the last deal's result, the counts entered
    so far and the entry due next."""
    lines = list(last_deal)
    if counts:
        lines.append(counts)
    if due:
        lines.append(f"Next entry: {due}")
    return lines


@dataclass
class TrickCounts:
    """The trick counts of one deal, as a part of a referee state (Parity, Parity for Three,
    Hoodwink): every player still to be counted is awaited at once, in any order; a count that
    does not fit what is left is refused with the reason; once all but one are in, the bot fills
    in the last (the state accepts it typed anyway: :meth:`RefereeState.filled_in`)."""

    total: int
    counts: Counts

    @classmethod
    def new(cls, players: int, total: int) -> TrickCounts:
        return cls(total, [None] * players)

    @property
    def complete(self) -> bool:
        return not missing(self.counts)

    def awaiting(self) -> frozenset[Seat]:
        return frozenset(missing(self.counts))

    def choices(self, seat: Seat) -> list[Action]:
        return list(count_choices(self.counts, self.total, seat))

    def refusal(self, seat: Seat, tricks: int, names: Sequence[str]) -> str:
        return count_refusal(self.counts, self.total, seat, tricks, names)

    def enter(self, state: RefereeState[Any], seat: Seat, tricks: int) -> list[Event]:
        """Enter ``seat``'s count, and the last count when it is forced."""
        self.counts[seat] = tricks
        events = [state.event("tricks", f"{state.name(seat)} took {tricks} of the {self.total} tricks.")]
        still = missing(self.counts)
        if len(still) == 1:  # the last count can only make up the total
            (other,) = still
            rest = self.counts[other] = left(self.counts, self.total)
            filled = f"{state.name(other)} took the other {rest} (filled in: the counts add up to {self.total})."
            events.append(state.event("tricks", filled))
            echo = f"{state.name(other)}'s count ({rest}) was already filled in: nothing changes."
            state.filled_in(other, tricks_entry(rest), Event(kind="tricks", text=echo))
        return events

    def line(self, names: Sequence[str]) -> str:
        return counts_line(self.counts, names, self.total)

    def won(self) -> list[int]:
        """The counts, once complete."""
        return [c or 0 for c in self.counts]
