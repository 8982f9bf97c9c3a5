"""What a seat is shown: a player's private view and choices (or a referee table's entries), the
private notes of the deal in play, and the events of the current deal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.service.entries import referee_hand
from bot.service.model import HandInfo, Table, TableError, User
from games.engine import Event

RECENT_EVENTS = 8
DEAL_STARTS = frozenset({"deal", "new_deal", "deal_start"})
"""Kinds of event that start a deal: the table message is posted afresh and hands go out."""


def hand_of(table: Table, user: User) -> HandInfo:
    """A seated player's private view, what they may do (nothing once the table has closed), and
    their private notes of this deal."""
    seat = table.seat_of(user.id)
    if seat is None:
        raise TableError("You are not playing at this table.")
    if table.state is None:
        raise TableError("The game has not started yet.")
    state = table.state
    playing = table.status == "playing"
    legal = state.legal_actions(seat) if playing else []
    ready = state.ready_actions(seat) if playing and not legal else []
    view = state.view(seat)
    public = None if seat in view.awaiting or view.over else state.view(None)  # what a waiting view leaves out
    return HandInfo(seat, view, legal, state.turn, private_notes(state.log, seat), ready, public)


def hand_info(table: Table, user: User) -> HandInfo:
    """What ``user`` sees and may do at ``table``, also once the table has closed: their private
    view, or at a referee table everyone's possible entries (for anyone at the table)."""
    return referee_hand(table, user) if table.mode == "referee" else hand_of(table, user)


def this_deal(events: Sequence[Event]) -> list[Event]:
    """The last few of ``events`` since the current deal began: "Recent" on a table message
    (the events of an ended deal went with that deal's message)."""
    starts = [i for i, e in enumerate(events) if e.kind in DEAL_STARTS]
    return list(events[starts[-1] if starts else 0 :])[-RECENT_EVENTS:]


HAND_LISTINGS = frozenset({"hand"})
"""Kinds of private event that only list the hand dealt: the private view shows the hand as it is."""


def private_notes(log: Sequence[Event], seat: int, keep: int = 5) -> list[Event]:
    """The last few events only ``seat`` was told, in the deal now being played (not the listing
    of the hand dealt, which the view shows as it is now)."""
    notes: list[Event] = []
    for event in reversed(log[-30:]):
        if event.kind in DEAL_STARTS:
            break
        if event.to == seat and event.kind not in HAND_LISTINGS:
            notes.append(event)
    return notes[:keep][::-1]


def has_secrets(state: Any, seat: int) -> bool:
    """Whether ``seat`` knows something the table does not (a hand, a hidden card): only then is
    a private message worth sending."""
    own = state.view(seat).model_dump(exclude={"seat"})
    public = state.view(None).model_dump(exclude={"seat"})
    return bool(own != public)
