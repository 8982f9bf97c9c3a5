"""Live private views: the hand a player opened last, which the bot keeps up to date.

When a player opens their hand (Show my hand, ``/hand``) or clicks a choice in it, Discord hands
the bot an interaction whose token may edit that ephemeral message for 15 minutes. The bot keeps
the newest one per player and table, and edits the view in place when the player's choices come
back, so a move is one click. A view whose token is about to run out says so in one line and is
forgotten: the player is pinged instead, and the Show my hand button always opens a fresh view.
At the start, the bot sends each player their view itself, as an ephemeral followup of their
last click in the lobby (Join, Start), on that click's token for the time it has left.

Each live view remembers the choices it shows. A click on a view that is a turn or two behind
still means what the player saw: if that very action is still legal it is played; if not, the
engine says why (a Spec challenge whose window has closed, a card that no longer follows suit).
A view stops meaning anything the moment it is out of date (a new deal, choices it does not show:
marked under the table's lock, before it is redrawn), and a click from a view drawn before the
player's own last move is refused under the lock (a double click), so a click is never read as a
choice the player did not see.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord.safe import edit_original
from games.cards import Card
from games.engine import Action

TOKEN_LIFETIME = 15 * 60.0
"""How long Discord lets an interaction's response be edited."""
MARGIN = 60.0
"""A view is given up this long before its token runs out (an edit must not race the expiry)."""


@dataclass
class LiveView:
    interaction: discord.Interaction
    seat: int
    turn: int
    legal: list[Action]
    expires_at: float
    deal: int = 0
    stale: bool = False
    """The table moved on in a way this view does not show yet: its choices mean nothing now."""
    passed: bool = False
    """A bot played the turn it offers (the player's time ran out): redrawn even though its
    choices merely went away (which a view otherwise keeps until its owner clicks)."""
    followup: bool = False
    """A view the bot sends as a followup of its owner's last click in the lobby, at the start
    (the token's own message is the lobby or the table message): edited as that followup."""
    message_id: int | None = None
    """The followup's message, once sent."""
    lifetime: float = TOKEN_LIFETIME
    """Seconds its token had left when it was opened."""
    ready: bool = False
    """Drawn while its owner waited, offering what they could do if their turn came with the
    table as it stood (a ready hand): kept as it is when their turn comes with those choices."""
    refused: bool = False
    """It answers a click with a refusal, which is true of the turn it was drawn at: redrawn when
    its owner's turn comes even with the same choices."""
    hand: tuple[Card, ...] = ()
    """The hand it shows: a move its owner makes elsewhere (typed, on the web) that changes their
    hand makes it out of date."""

    @property
    def reachable(self) -> bool:
        """Whether the bot can edit it: a followup only once it is sent."""
        return not self.followup or self.message_id is not None

    async def edit(self, **fields: Any) -> None:
        """Edit the view in place: the message its token answered with, or its followup (never
        one not sent yet: that token's own message is someone else's)."""
        if not self.followup:
            await edit_original(self.interaction, **fields)
        elif self.message_id is not None:
            await self.interaction.followup.edit_message(self.message_id, **fields)


class LiveViews:
    """The newest private view of each (table, player), while Discord lets the bot edit it."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._views: dict[tuple[int, str], LiveView] = {}
        self._busy: dict[tuple[int, str], int] = {}
        """Per (table, player), how many of their own views are being answered or sent (the
        answer brings the view up to date): kept apart from the views, so a view opened while
        another is on its way is busy as long as either is, and no longer."""
        self.opened: Callable[[int, str, LiveView], None] | None = None
        """Told of each view opened (the notifier has it say it is out of date before its token lapses)."""

    def open(
        self,
        table_id: int,
        user_id: str,
        interaction: discord.Interaction,
        *,
        seat: int,
        turn: int,
        deal: int,
        legal: Sequence[Action],
        lifetime: float = TOKEN_LIFETIME,
        ready: bool = False,
        refused: bool = False,
        hand: Sequence[Card] = (),
    ) -> LiveView:
        """Remember the view ``interaction`` answered with (it replaces the player's older one);
        ``lifetime``: the seconds its token has left (less for an earlier click's token);
        ``legal``: the choices it offers (``ready``: offered while its owner waits)."""
        live = LiveView(
            interaction, seat, turn, list(legal), self.clock() + lifetime - MARGIN, deal, lifetime=lifetime,
            ready=ready, refused=refused, hand=tuple(hand),
        )
        self._views[(table_id, user_id)] = live
        if self.opened is not None:
            self.opened(table_id, user_id, live)
        return live

    def redrawn(
        self, live: LiveView, *, turn: int, deal: int, legal: Sequence[Action], ready: bool = False, hand: Sequence[Card] = ()
    ) -> None:
        """The bot edited ``live`` in place (same token, same expiry) to show a later turn."""
        live.turn, live.deal, live.legal, live.stale, live.passed = turn, deal, list(legal), False, False
        live.ready, live.refused, live.hand = ready, False, tuple(hand)

    def get(self, table_id: int, user_id: str) -> LiveView | None:
        live = self._views.get((table_id, user_id))
        if live is not None and live.expires_at <= self.clock():
            del self._views[(table_id, user_id)]
            return None
        return live

    def current(self, table_id: int, user_id: str) -> LiveView | None:
        """The player's newest view, even one whose token is about to lapse."""
        return self._views.get((table_id, user_id))

    def watching(self, table_id: int, user_id: str | None) -> bool:
        """Whether the player has a view the bot can still bring up to date."""
        return user_id is not None and self.get(table_id, user_id) is not None

    def drop(self, table_id: int, user_id: str, live: LiveView | None = None) -> None:
        """Forget a view (its token failed); with ``live``, only if it is still the newest."""
        current = self._views.get((table_id, user_id))
        if current is not None and (live is None or current is live):
            del self._views[(table_id, user_id)]

    def of_table(self, table_id: int) -> list[tuple[str, LiveView]]:
        """The table's live views still editable: (user id, view)."""
        return [(k[1], v) for k in list(self._views) if k[0] == table_id and (v := self.get(*k)) is not None]

    def forget_table(self, table_id: int) -> None:
        for key in [k for k in self._views if k[0] == table_id]:
            del self._views[key]
        for key in [k for k in self._busy if k[0] == table_id]:
            del self._busy[key]

    def begin_click(self, table_id: int, user_id: str) -> None:
        """One of the player's views is being answered or sent: the notifier leaves their view alone."""
        key = (table_id, user_id)
        self._busy[key] = self._busy.get(key, 0) + 1

    def end_click(self, table_id: int, user_id: str) -> None:
        key = (table_id, user_id)
        left = self._busy.get(key, 0) - 1
        if left > 0:
            self._busy[key] = left
        else:
            self._busy.pop(key, None)

    def busy(self, table_id: int, user_id: str) -> bool:
        """Whether a view of the player's is being answered or sent (its answer brings it up to date)."""
        return (table_id, user_id) in self._busy

    def offered(self, table_id: int, user_id: str, turn: int, index: int, deal: int) -> Action | None:
        """The action a live view showed at ``index`` when it was drawn at ``turn``: also while
        it waits to be redrawn in the same deal (a tap that beat the redraw means the card it
        showed; the caller plays it only if it is still legal), not once a bot played the turn it
        offered, nor across deals."""
        live = self.get(table_id, user_id)
        if live is None or live.turn != turn or not 0 <= index < len(live.legal):
            return None
        if live.stale and (live.passed or live.deal != deal):
            return None
        return live.legal[index]

    def shows(self, table_id: int, user_id: str, turn: int, choices: Sequence[Action]) -> bool:
        """Whether the player's live view, drawn at ``turn``, still offers ``choices`` (a ready
        hand kept for their turn: its groups open as drawn)."""
        live = self.get(table_id, user_id)
        return live is not None and not live.stale and live.turn == turn and live.legal == list(choices)


def out_of_date(live: LiveView, *, deal: int, awaited: bool, legal: Sequence[Action]) -> bool:
    """Whether a live view shows something out of date that matters: a new deal, or the player's
    turn with choices the view does not offer (or with a refusal of an earlier turn's click). A
    view whose choices went away is left as it is (a click on it is answered), optional acts out
    of turn are offered on the table message, and a ready hand whose choices are the player's
    when their turn comes stays as it is (it says nothing of whose turn it is)."""
    return live.deal != deal or (awaited and bool(legal) and (live.refused or list(legal) != live.legal))
