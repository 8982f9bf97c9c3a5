"""Results-only entry for the races to 31 (Wit and Reason I and II): who won each race.

With ``entries=result`` the table plays the race on its own and enters only its winner (or, in
Wit and Reason I with ``stalemate=draw``, that it was drawn); the bot keeps the match exactly as
the online game does (:mod:`games.adders.wit_and_reason`). A referee race state is a
:class:`RefereeRace` holding the game's rules and deal.
"""

from __future__ import annotations

from typing import Literal

from games.adders.wit_and_reason import RO, RaceDeal, RaceFacts, RaceState
from games.counting import CountingFacts
from games.engine import Action, Event, Seat
from games.referee.counting import RefereeAdder


class WonRace(Action):
    """Results mode: this player won the race (made 31, or the other could not take a card)."""

    kind: Literal["won_race"] = "won_race"

    def label(self) -> str:
        return "Won the race"

    def spoken(self) -> tuple[str, ...]:
        return ("won", "win", "wins", "won race", "31")

    def typed(self) -> str:
        return "won"


class DrawnRace(Action):
    """Results mode (Wit and Reason I, stalemate=draw): neither player could reach 31."""

    kind: Literal["drawn_race"] = "drawn_race"

    def label(self) -> str:
        return "Drawn race"

    def spoken(self) -> tuple[str, ...]:
        return ("draw", "drawn", "stalemate")

    def typed(self) -> str:
        return "draw"


WON = WonRace()
DRAWN = DrawnRace()


class RefereeRace(RefereeAdder[RO], RaceState[RO]):
    """A refereed race: every card as online, or with entries=result the race's result instead of
    its cards. The races' shared state (:class:`RaceState`: the match of races, its notes and
    phase) follows among the bases; a game's own parts (its rules, its deal and, for Wit and
    Reason I, its match) are held as class attributes, as the online state names them."""

    draws: bool = False
    """Whether a race can end drawn (the game decides, from its options)."""

    def can_draw(self) -> bool:
        return self.draws

    def _awaiting(self) -> frozenset[Seat]:
        if self.by_result():
            return frozenset(range(self.n))
        return super()._awaiting()

    def _legal(self, seat: Seat) -> list[Action]:
        if self.by_result():
            # a draw is nobody's: it is entered on the line of the race's starter
            return [WON, DRAWN] if self.can_draw() and seat == self.dealer else [WON]
        return super()._legal(seat)

    def begin_turn(self, seat: Seat) -> list[Event]:
        if self.by_result():
            return []
        return super().begin_turn(seat)

    def can_play(self, seat: Seat) -> bool:
        if self.by_result():
            return True
        return super().can_play(seat)

    def _refusal(self, seat: Seat, action: Action) -> str | None:
        if self.by_result():
            if isinstance(action, DrawnRace):
                if self.can_draw():
                    return f"A drawn race is entered once, on the line of {self.name(self.dealer)}, who started it."
                return "A race in this game cannot be drawn: enter who won it."
            return f"This table enters only who won each race: enter the winner of race {self.deal_no}."
        if isinstance(action, (WonRace, DrawnRace)):
            return "This table enters every card (entries=cards), not the races' results."
        return super()._refusal(seat, action)

    def _enter(self, seat: Seat, action: Action) -> list[Event]:
        if not self.by_result():
            return super()._enter(seat, action)
        if isinstance(action, WonRace):
            deal = self.deal
            assert isinstance(deal, RaceDeal)
            events = deal.win_race(self, seat, f"{self.name(seat)} won race {self.deal_no}.")
        else:
            self.close_deal()
            events = [self.event("stalemate", f"Race {self.deal_no} was drawn.")]
        return events + self.deal.run(self, None)

    def result_entries_for(self, facts: CountingFacts) -> list[tuple[Seat, Action]]:
        assert isinstance(facts, RaceFacts)
        return [(self.dealer, DRAWN)] if facts.winner is None else [(facts.winner, WON)]

    def result_due(self) -> str:
        draw = " (or that it was drawn)" if self.can_draw() else ""
        return f"who won race {self.deal_no}{draw}."
