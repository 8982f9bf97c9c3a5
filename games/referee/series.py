"""Several entries in one: a round of an adding-up game, a Spec turn, a run of plays.

A table announces play the way it happens ("K♥, 7♥, Q♥"; "A1, King of Hearts... it's the 10♠"),
so a referee game may accept a *series*: the game's own entries in order, each made by the one
player the game waits for at that moment. A series is an ordinary action of the referee game
(``kind="series"``, its entries serialised as they would be one by one), so it is stored,
replayed, confirmed and undone as one entry. It is checked as a whole before anything changes:
the first entry that does not fit is refused with the game's own reason and nothing is applied.

A referee game lists ``series_of(entries)`` among its actions (``takes_series = True`` on its state);
its state, a :class:`~games.referee.state.RefereeState`, accepts it. The series never appears in
``legal_actions`` (there are too many); ``RefereeState.is_legal`` decides it directly by trying it
on a clone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal, Union

from pydantic import Discriminator, Field, create_model, model_validator

from games.engine import Action, GameState, Seat

SERIES = "series"


class Series(Action):
    """Entries made one after another: by the players named in ``seats`` (one per entry), or
    without ``seats`` each by the one player awaited at that point."""

    kind: Literal["series"] = "series"
    entries: tuple[Action, ...] = Field(min_length=1)
    seats: tuple[int, ...] = ()

    @model_validator(mode="after")
    def _a_seat_per_entry(self) -> Series:
        if self.seats and len(self.seats) != len(self.entries):
            raise ValueError("a series names the seat of every entry, or of none")
        return self

    def label(self) -> str:
        return ", ".join(e.label() for e in self.entries)

    def choice_path(self) -> tuple[str, ...]:
        return (self.label(),)

    def typed(self) -> str:
        """How the line is typed: each entry's short form, in order (``KH 7H QH``)."""
        from games.notation import typed_form

        return " ".join(typed_form(e) for e in self.entries)


def series_of(entries: Sequence[type[Action]]) -> type[Series]:
    """The series action of a referee game whose single entries are ``entries``."""
    kinds = [k for k in entries if not issubclass(k, Series)]
    one: Any = kinds[0] if len(kinds) == 1 else Annotated[Union[tuple(kinds)], Discriminator("kind")]  # noqa: UP007
    model: type[Series] = create_model(  # type: ignore[call-overload]
        "Series",
        __base__=Series,
        __module__=Series.__module__,
        entries=(tuple[one, ...], Field(min_length=1)),
    )
    return model


def single_awaited(state: GameState[Any]) -> Seat | None:
    """The one seat the game waits for, if it waits for exactly one."""
    if state.is_over:
        return None
    awaited = state.awaiting()
    return next(iter(awaited)) if len(awaited) == 1 else None
