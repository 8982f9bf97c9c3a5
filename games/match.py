"""A game's match, apart from its deals.

Every deal ends in *facts* the match scores: the calls and trick counts of a Parity deal, the
loser of an adding-up round. A deal dealt and played here (online) and a deal played with real
cards and entered (referee mode) produce the same facts, so a game declares its match once, as a
:class:`Match`: who deals first, how the facts of a deal score, when the match ends and who deals
next. The online state and the referee state each hold that one match and hand it the facts of
every finished deal (:meth:`Match.settle`): the two modes share one scoring by construction.

The facts of the last settled deal stay on the state (``state.settled``), and a referee state says
what a table enters for given facts (:meth:`games.referee.state.RefereeState.entries`): the
generic mirror test (``tests/games/mirror.py``) plays online deals at random and feeds their
facts to the referee game, for every game and player count.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Generic, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict

from games.engine import Event, Outcome, Seat


class DealFacts(BaseModel):
    """What one finished deal produced that the match scores. Public by the time it exists (the
    table saw the deal end), immutable, and the same whichever mode the deal was played in."""

    model_config = ConfigDict(frozen=True)


FactsT = TypeVar("FactsT", bound=DealFacts)


class MatchState(Protocol):
    """What a match reads and writes on the state that holds it: the fields and helpers every
    online and referee state has (:class:`games.engine.GameState` and a ``dealer``)."""

    players: tuple[str, ...]
    options: Any
    scores: list[int]
    deal_no: int
    dealer: Seat
    settled: DealFacts | None

    @property
    def n(self) -> int: ...

    def name(self, seat: Seat) -> str: ...

    def event(self, kind: str, text: str, to: Seat | None = None) -> Event: ...

    def finish(self, outcome: Outcome) -> Event: ...

    def choose_first_dealer(self) -> Seat: ...

    def keep_deal_end(self) -> None: ...


class Match(ABC, Generic[FactsT]):
    """A game's match, declared once in the game's module and held (as a class attribute) by both
    of its states. It keeps no data of its own: the scores, the dealer and the deal number live on
    the state, so a state's copy, snapshot and replay need nothing from here."""

    def begin(self, state: MatchState) -> None:
        """Set up the match on a new state, before its first deal: the first dealer."""
        state.dealer = state.choose_first_dealer()
        state.settled = None

    def settle(self, state: MatchState, facts: FactsT) -> list[Event]:
        """Score a finished deal from its facts; the state then starts the next deal unless the
        match is over. Returns what the table is told."""
        state.settled = facts
        events = self.score(state, facts)
        state.keep_deal_end()  # the table as the deal left it, before the next deal is dealt
        return events

    @abstractmethod
    def score(self, state: MatchState, facts: FactsT) -> list[Event]:
        """Add the deal's points, then either finish the match or pass the deal on."""

