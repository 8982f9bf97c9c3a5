"""The state every referee game is built on: a match of entries, by composition.

A referee state holds its game's :class:`~games.match.Match` (the very object the online state
holds) and the entry deals of :mod:`games.referee` (trick counts, a line of entries, ...) as parts;
it does not inherit the online state. What it adds to :class:`~games.engine.GameState`, for every
referee game alike:

* **a line of entries** (:class:`~games.referee.series.Series`), checked as a whole on a copy before
  anything changes, when the game lists ``series_of(...)`` among its actions;
* **a filled-in entry typed anyway**: when the bot fills in the one entry that could only have one
  value (the last trick count), the same entry made right after it is accepted and changes nothing
  (tables used to enter it, and older records hold it), even if the fill ended the match;
* **the deal's end**: :meth:`settle` hands the facts to the match and starts the next deal unless
  the match is over.

A game's referee state implements the entry hooks (``_awaiting``, ``_legal``, ``_refusal``,
``_enter``), ``_start_deal``, ``view`` and :meth:`entries` (what a table enters for a deal with
given facts: the generic mirror test feeds it the facts of online deals).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

from games.cards import Card
from games.engine import Action, BaseOptions, Event, GameState, IllegalAction, OptionsT, Seat, Zone
from games.match import DealFacts, Match
from games.referee.series import Series


class RefereeState(GameState[OptionsT]):
    """A refereed match: entries, no cards. See the module's docstring."""

    match: ClassVar[Match[Any]]
    dealer: Seat

    # -- the referee mode this state is (read by :func:`games.referee.referee_mode`) -------------
    entry_kinds: ClassVar[tuple[type[Action], ...]] = ()
    """The entries a table makes: the referee game's actions."""
    rules_summary: ClassVar[str] = ""
    """The rules of referee mode, as the players read them."""
    options_model: ClassVar[type[BaseOptions] | None] = None
    """The options of referee mode, where it adds settings of its own (``entries=result``) to the
    online game's; ``None``: the online game's options."""
    takes_series: ClassVar[bool] = False
    """Whether a line of several entries (:mod:`games.referee.series`) may be made at once."""

    def __init__(
        self,
        players: Sequence[str],
        options: OptionsT,
        seed: int,
        deck: Sequence[Card] | Sequence[Sequence[Card]] | None = None,
    ) -> None:
        super().__init__(players, options, seed, deck)
        self.filled: tuple[Seat, Action, Event] | None = None
        """The entry the bot last filled in, accepted once more if typed right after, and what
        the table is then told."""
        self.match.begin(self)
        self.log.extend(self._start_deal())

    # -- what each game writes ----------------------------------------------------------------

    @abstractmethod
    def _start_deal(self) -> list[Event]:
        """Begin the next deal's entries (the deal number goes up here)."""

    @abstractmethod
    def _awaiting(self) -> frozenset[Seat]:
        """The seats whose entries the deal waits for (the match is not over)."""

    @abstractmethod
    def _legal(self, seat: Seat) -> list[Action]:
        """The single entries ``seat`` may make now (the match is not over)."""

    def _refusal(self, seat: Seat, action: Action) -> str | None:
        """Why a single entry is refused, or ``None`` to leave it to the base."""
        return None

    @abstractmethod
    def _enter(self, seat: Seat, action: Action) -> list[Event]:
        """Apply a single entry already known to be legal."""

    @abstractmethod
    def entries(self, facts: DealFacts) -> list[tuple[Seat, Action]]:
        """What the table enters, from the start of the current deal, for a deal whose facts
        are ``facts`` (the entries the bot fills in may be left out)."""

    # -- the deal's end --------------------------------------------------------------------------

    def settle(self, facts: DealFacts) -> list[Event]:
        """The deal is entered: score it, then begin the next unless the match is over."""
        events = self.match.settle(self, facts)
        if not self.is_over:
            events += self._start_deal()
        return events

    def keep_deal_end(self) -> None:
        """Nothing: the cards of a refereed deal are on the players' own table, and its entries
        are all on the table message (an online deal keeps its last table, for its picture)."""

    def filled_in(self, seat: Seat, action: Action, echo: Event) -> None:
        """``action`` was just entered for ``seat`` on the table's behalf (the only value it could
        have); ``echo`` is what the table is told if it enters the same anyway."""
        self.filled = (seat, action, echo)

    def is_echo(self, seat: Seat, action: Action) -> bool:
        return self.filled is not None and self.filled[:2] == (seat, action)

    # -- the protocol ----------------------------------------------------------------------------

    def awaiting(self) -> frozenset[Seat]:
        return frozenset() if self.is_over else self._awaiting()

    def legal_actions(self, seat: Seat) -> list[Action]:
        return [] if self.is_over else self._legal(seat)

    def is_legal(self, seat: Seat, action: Action) -> bool:
        if self.is_echo(seat, action):
            return True
        if isinstance(action, Series):
            return self.series_refusal(seat, action) is None
        return super().is_legal(seat, action)

    def check(self, seat: Seat, action: Action) -> None:
        if not self.is_echo(seat, action):  # accepted even after the fill ended the match
            super().check(seat, action)

    def explain_illegal(self, seat: Seat, action: Action) -> str | None:
        if isinstance(action, Series):
            return self.series_refusal(seat, action)
        return self._refusal(seat, action)

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        echo = self.filled[2] if self.filled is not None and self.is_echo(seat, action) else None
        self.filled = None  # any other entry forgets the fill
        if echo is not None:
            return [echo]
        if not isinstance(action, Series):
            return self._enter(seat, action)
        events: list[Event] = []
        for number, entry in enumerate(action.entries, 1):
            who = action.seats[number - 1] if action.seats else seat if number == 1 else self.single_awaited()
            assert who is not None  # checked by series_refusal
            self.check(who, entry)
            events += self._apply(who, entry)
        return events

    # -- a line of entries ------------------------------------------------------------------------

    def single_awaited(self) -> Seat | None:
        """The one seat the game waits for, if it waits for exactly one."""
        if self.is_over:
            return None
        awaited = self.awaiting()
        return next(iter(awaited)) if len(awaited) == 1 else None

    def series_refusal(self, seat: Seat, series: Series) -> str | None:
        """Why ``series`` cannot be entered for ``seat`` now, or ``None`` if it can: its entries
        are tried in order on a copy, each by its named seat or by the one seat then awaited."""
        twin = self.clone()
        if series.seats and series.seats[0] != seat:
            return "A line of entries is entered for the player of its first entry."
        who: Seat | None = seat
        for number, entry in enumerate(series.entries, 1):
            if isinstance(entry, Series):
                return "A series cannot hold another series."
            if series.seats:
                who = series.seats[number - 1]
                if not 0 <= who < twin.n:
                    return "There is no such player."
            elif number > 1:
                who = twin.single_awaited()
            if who is None:
                where = "the match is over" if twin.is_over else "several players may enter at that point"
                return (
                    f"Entry {number} of the line ({entry.label()}) cannot follow on: {where}. "
                    "Enter it on its own."
                )
            try:
                twin.check(who, entry)
            except (IllegalAction, ValueError) as exc:  # ValueError: a card of another pack
                if len(series.entries) == 1:
                    return str(exc)
                return f"Entry {number} of the line, {entry.label()} for {twin.name(who)}: {exc}"
            twin._apply(who, entry)
        return None

    def card_zones(self) -> list[Zone]:
        return []  # the bot never holds a card
