"""Following whose turn it is at each table: which players to ping, which pings to take down, and
which live views to bring up to date after a change.

A person whose turn starts is told once. A player watching a live private view is not pinged:
the view itself updates to show their choices (or already shows them: a ready hand, drawn while
they waited, is kept when their turn comes with the choices it offers). Anyone else gets one
short mention (in the new table message at a new deal, else a message of its own that is deleted
once they have moved).
The timers' turn reminder is followed the same way: deleted once the turn has passed (the player
moved, a bot took the seat, the table closed).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from bot.discord.live import LiveView, LiveViews, out_of_date
from bot.service.model import Table
from games.engine import View


@dataclass
class Calls:
    """What a change at a table asks of Discord, besides the table message itself."""

    pings: tuple[str, ...] = ()
    """Players whose turn has just started and who are not watching a live view."""
    unpings: list[str] = field(default_factory=list)
    """Ping messages to delete: everyone they mentioned has moved (or is no longer awaited)."""
    refreshes: list[str] = field(default_factory=list)
    """Players whose live view is out of date (their choices came back, a new deal)."""
    leavers: list[str] = field(default_factory=list)
    """People with a live view here whose seat a bot now plays (they left): their view is told."""


class TurnSignals:
    def __init__(self) -> None:
        self._awaited: dict[int, set[str]] = {}
        self._pings: dict[int, dict[str, tuple[tuple[str, ...], int]]] = {}
        """Per table: ping message id -> (who it mentions, how many actions the log held then)."""
        self._taken: set[int] = set()
        """Tables whose stored pings have been read (:meth:`take_over`)."""

    def follow(self, table: Table, live: LiveViews, public: View | None, timed_out: bool = False) -> Calls:
        """Note the table's awaited players after a change (``public``: the table's public view
        now; ``timed_out``: bots played for players whose time ran out) and say what Discord must
        be told."""
        state = table.state
        self.take_over(table)
        if table.mode != "online" or state is None or public is None or table.status != "playing" or state.is_over:
            return Calls(unpings=self.forget(table.id))
        people = _people(table)
        awaited = {people[s] for s in state.awaiting() if s in people}
        before = self._awaited.get(table.id, set())
        newly = awaited - before
        self._awaited[table.id] = awaited
        refreshes = []
        for seat, user_id in people.items():
            view = live.get(table.id, user_id)
            if view is None:
                continue
            if timed_out and view.legal and user_id in before and (user_id not in awaited or _bot_played(table, seat, view.turn)):
                view.passed = True  # it may still offer the turn a bot just played for them (their turn again or not)
            if self.due(table, view, seat, user_id, public.deal, user_id in awaited) and not live.busy(table.id, user_id):
                refreshes.append(user_id)  # a view being answered is brought up to date by the answer
        leavers = [  # a seat a bot took over from its person (they left) whose view is still live
            s.user_id for s in table.seats if s.bot is not None and s.user_id and live.get(table.id, s.user_id)
        ]
        pings = tuple(sorted(u for u in newly if not live.watching(table.id, u)))
        unpings = [
            message_id
            for message_id, (users, since) in self._pings.get(table.id, {}).items()
            if _passed(table, awaited, users, since)
        ]
        for message_id in unpings:
            del self._pings[table.id][message_id]
        return Calls(pings, unpings, refreshes, leavers)

    @staticmethod
    def due(table: Table, view: LiveView, seat: int, user_id: str, deal: int, mine: bool) -> bool:
        """Whether ``view`` must be redrawn, the table being as it is (``mine``: its owner is
        awaited): it is marked stale at once, under the lock, so a click on it no longer means its
        choices (except the card it showed, in the same deal: :meth:`LiveViews.offered`). Out of
        date: a new deal, their turn with other choices, a bot played the turn it offered, or its
        owner changed their hand since it was drawn (a move typed, or made on the web). A ready
        hand kept for their turn offers that turn from then on."""
        state = table.state
        assert state is not None
        legal = state.legal_actions(seat) if mine else ()
        moved = view.turn >= 0 and user_id in table.actors[view.turn :] and tuple(state.view(seat).hand) != view.hand
        if view.passed or moved or out_of_date(view, deal=deal, awaited=mine, legal=legal):
            view.stale = True
            return True
        if mine and view.ready:
            view.ready = False
        return False

    def take_over(self, table: Table) -> None:
        """A table this process has not followed yet (it was loaded after a restart or a crash):
        the pings its messages left up are followed again, and whoever one of them still tells of
        their turn counts as told (not pinged twice). Someone awaited with no ping up (the process
        stopped before sending it, or their view was open) is pinged at the next change. Once per
        table: what storage held is read only the first time (after :meth:`forget`, it is gone)."""
        if table.id in self._taken:
            return
        self._taken.add(table.id)
        if table.id in self._awaited or table.id in self._pings or not table.turn_pings:
            return
        try:
            stored = json.loads(table.turn_pings)
            pings = {str(m): (tuple(str(u) for u in users), int(since)) for m, (users, since) in stored.items()}
        except (ValueError, TypeError, AttributeError):
            return
        self._pings[table.id] = pings
        self._awaited[table.id] = {u for users, _ in pings.values() for u in users}

    def stored(self, table_id: int) -> str | None:
        """The table's pings still up, as kept in storage (``None``: none)."""
        pings = self._pings.get(table_id)
        if not pings:
            return None
        return json.dumps({m: [list(users), since] for m, (users, since) in pings.items()})

    def is_awaited(self, table_id: int, user_id: str) -> bool:
        return user_id in self._awaited.get(table_id, set())

    def pinged(self, table: Table, message_id: str, users: tuple[str, ...]) -> None:
        """A ping message went out; it is deleted once all of ``users`` have moved."""
        self.take_over(table)
        self._pings.setdefault(table.id, {})[message_id] = (users, len(table.actors))

    def reminded(self, table: Table, message_id: str, user_id: str, since: int) -> bool:
        """A turn reminder to ``user_id``, asked for when the log held ``since`` actions, went out:
        follow it like a ping. ``False``: the turn passed while it was on its way (delete it now)."""
        state = table.state
        if table.mode != "online" or table.status != "playing" or state is None or state.is_over:
            return False
        self.take_over(table)
        people = _people(table)
        if _passed(table, {people[s] for s in state.awaiting() if s in people}, (user_id,), since):
            return False
        self._pings.setdefault(table.id, {})[message_id] = ((user_id,), since)
        return True

    def forget(self, table_id: int) -> list[str]:
        """The table closed: forget it, returning the ping messages still up."""
        self._awaited.pop(table_id, None)
        return list(self._pings.pop(table_id, {}))


def _bot_played(table: Table, seat: int, since: int) -> bool:
    """Whether a bot made a move for the person at ``seat`` since turn ``since`` (their time ran
    out): logged with no actor. A move before what the state still holds counts as one (a redraw
    at worst)."""
    state = table.state
    assert state is not None
    if since < state.forgotten:
        return True
    moves = state.history[since - state.forgotten :]
    return any(s == seat and table.actors[i] is None for i, (s, _) in enumerate(moves, since))


def _people(table: Table) -> dict[int, str]:
    """The seats people play (not bots), with their user ids."""
    return {s: seat.user_id for s, seat in enumerate(table.seats) if seat.bot is None and seat.user_id}


def _passed(table: Table, awaited: set[str], users: tuple[str, ...], since: int) -> bool:
    """Whether the turn a ping or reminder for ``users`` (sent at log length ``since``) was about
    has passed: none of them is awaited any longer, or all of them have moved since."""
    return not (awaited & set(users)) or set(users) <= set(table.actors[since:])
