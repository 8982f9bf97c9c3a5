"""Referee mode's entries: one menu of every seat's possible entries, and which seat an entry
is for. Shared by the play desk (which applies entries) and the referee desk."""

from __future__ import annotations

from typing import Any, Literal

from bot.service.model import HandInfo, Table, TableError, User
from bot.settings import GuildSettings
from games.engine import Action


class SeatEntry(Action):
    """Referee mode: one entry for a named seat, so that everyone's possible entries can share
    one menu ("Ann / Hearts / Q♥"). The table service unwraps it before the game sees it."""

    kind: Literal["seat_entry"] = "seat_entry"
    seat: int
    name: str
    entry: Action

    @property
    def card(self) -> Any:
        return self.entry.card

    def label(self) -> str:
        return f"{self.name}: {self.entry.label()}"

    def choice_path(self) -> tuple[str, ...]:
        return (self.name, *self.entry.choice_path()[:-1], self.label())


def referee_hand(table: Table, user: User) -> HandInfo:
    """Referee mode: the entries open now, for every seat, as one menu (and the open view)."""
    if not table.is_member(user) and not user.is_moderator:
        raise TableError("Only the players at this table (and its host) can make entries.")
    state = table.state
    if state is None:
        raise TableError("The game has not started yet.")
    legal: list[Action] = []
    if table.status == "playing":
        legal = [
            SeatEntry(seat=seat, name=table.seats[seat].name, entry=a)
            for seat in state.actors()
            for a in state.legal_actions(seat)
        ]
    own = table.seat_of(user.id)
    return HandInfo(own if own is not None else -1, state.view(None), legal, state.turn, [])


def referee_seat(table: Table, settings: GuildSettings, user: User, action: Action, seat: int | None) -> int:
    """The seat an entry is for: the one named, the entering player's own if it fits, the only
    seat it fits, or the only awaited seat."""
    state = table.state
    assert state is not None
    if settings.referee_confirmation and table.confirmed_by and table.confirmed_by[-1] is None:
        raise TableError("The last entry needs confirming by another player first (Confirm).")
    actors = state.actors()
    if seat is not None:
        if seat not in actors:
            if 0 <= seat < len(table.seats):
                raise TableError(f"There is no entry to make for {table.seats[seat].name} now.")
            raise TableError("There is no such player.")
        return seat
    own = table.seat_of(user.id)
    if own is not None and action in state.legal_actions(own):
        return own
    fitting = [s for s in actors if action in state.legal_actions(s)]
    if len(fitting) == 1:
        return fitting[0]
    awaited = sorted(state.awaiting())
    if len(awaited) == 1:
        return awaited[0]
    raise TableError("Say which player this entry is for.")
