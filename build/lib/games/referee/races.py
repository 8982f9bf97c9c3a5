"""Results-only entry for the races to 31 (Wit and Reason I and II): who won each race.

With ``entries=result`` the table plays the race on its own and enters only its winner (or, in
Wit and Reason I with ``stalemate=draw``, that it was drawn); the bot keeps the match exactly as
the online game does (:mod:`games.adders.wit_and_reason`). A referee race state puts
:class:`RaceResults` first among its bases and its options extend :func:`race_options`.
"""

from __future__ import annotations

from typing import Any, Literal

from games.counting import CountingState
from games.engine import Action, Event, Seat


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


class RaceResults:
    """State mixin: the race's result instead of its cards, when the table chose entries=result."""

    draws: bool = False
    """Whether a race can end drawn (the game decides, from its options)."""

    def by_result(self) -> bool:
        state: Any = self
        return getattr(state.options, "entries", "cards") == "result"

    def can_draw(self) -> bool:
        return self.draws

    def awaiting(self) -> frozenset[Seat]:
        state: Any = self
        if self.by_result() and not state.is_over:
            return frozenset(range(state.n))
        return super().awaiting()  # type: ignore[misc, no-any-return]

    def legal_actions(self, seat: Seat) -> list[Action]:
        state: Any = self
        if self.by_result():
            if state.is_over:
                return []
            # a draw is nobody's: it is entered on the line of the race's starter
            return [WON, DRAWN] if self.can_draw() and seat == state.dealer else [WON]
        return super().legal_actions(seat)  # type: ignore[misc, no-any-return]

    def begin_turn(self, seat: Seat) -> list[Event]:
        if self.by_result():
            return []
        return super().begin_turn(seat)  # type: ignore[misc, no-any-return]

    def can_play(self, seat: Seat) -> bool:
        if self.by_result():
            return True
        return super().can_play(seat)  # type: ignore[misc, no-any-return]

    def explain_illegal(self, seat: Seat, action: Action) -> str | None:
        state: Any = self
        if self.by_result():
            if isinstance(action, DrawnRace):
                if self.can_draw():
                    return f"A drawn race is entered once, on the line of {state.name(state.dealer)}, who started it."
                return "A race in this game cannot be drawn: enter who won it."
            return f"This table enters only who won each race: enter the winner of race {state.deal_no}."
        if isinstance(action, (WonRace, DrawnRace)):
            return "This table enters every card (entries=cards), not the races' results."
        return super().explain_illegal(seat, action)  # type: ignore[misc, no-any-return]

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        if not self.by_result():
            return super()._apply(seat, action)  # type: ignore[misc, no-any-return]
        state: CountingState[Any] = self  # type: ignore[assignment]
        if isinstance(action, WonRace):
            events = state.win_race(seat, f"{state.name(seat)} won race {state.deal_no}.")  # type: ignore[attr-defined]
        else:
            state.close_deal()
            events = [state.event("stalemate", f"Race {state.deal_no} was drawn.")]
        return events + state._run(None)

    def result_due(self) -> str:
        state: Any = self
        draw = " (or that it was drawn)" if self.can_draw() else ""
        return f"who won race {state.deal_no}{draw}."
