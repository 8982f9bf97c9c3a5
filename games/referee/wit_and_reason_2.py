"""Wit and Reason (II) refereed: every card taken from the face-up pool.

The pool lies face up, so the bot knows everything the players do: an entry is the value taken
(suits do not matter), and a player who cannot take a card without passing 31 loses, as online.
The race and the match are the online game's (:mod:`games.adders.wit_and_reason_2`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from games.adders.wit_and_reason_2 import GAME as ONLINE
from games.adders.wit_and_reason_2 import (
    RANK_VALUES,
    PoolView,
    WitAndReason2Deal,
    WitAndReason2Options,
    WitAndReason2Rules,
)
from games.cards import Card
from games.engine import Action, Game, PlayCard, Seat, Zone
from games.referee import entries_alias, referee_mode
from games.referee.counting import options_line
from games.referee.races import DrawnRace, RefereeRace, WonRace


class RefereeWitAndReason2Options(WitAndReason2Options):
    entries: Literal["cards", "result"] = Field(
        "cards",
        description="What the table enters: cards (each value as it is taken) or result (only who won each race).",
    )

    _entries = field_validator("entries", mode="before")(entries_alias(plural=False))


class RefereePoolView(PoolView):
    due: str = ""

    def table_lines(self) -> list[str]:
        lines = super().table_lines()
        return [*lines, f"Next entry: {self.due}"] if self.due else lines


SUMMARY = """
Referee mode: play Wit and Reason (II) with the 24 cards from Ace to Six laid face up, and enter
the value each player takes; the bot keeps the total and the races exactly as the online game does.

Suits do not matter, so each entry is a value from 1 to 6 still on the table that keeps the total
at 31 or under ("2"; several in a row in one entry: "2 5 1"). Whoever makes exactly 31 wins the race; when the player to move cannot take a card
without passing 31, the bot declares that they lose it. The players take turns to start, over two
races (times rounds). With entries=result the table enters only who won each race, and the bot
keeps the match.
"""


class RefereeWitAndReason2State(RefereeRace[RefereeWitAndReason2Options]):
    """The game's parts (its rules and its deal, which keeps the pool), held, not inherited from
    the online state; the race and the match are :class:`RefereeRace`'s."""

    rules_class = WitAndReason2Rules
    values = RANK_VALUES
    deal_class = WitAndReason2Deal
    deal: WitAndReason2Deal

    entry_kinds = (PlayCard, WonRace)
    rules_summary = SUMMARY
    options_model = RefereeWitAndReason2Options
    takes_series = True

    def due(self) -> str:
        if self.is_over or self.to_play is None:
            return ""
        if self.by_result():
            return self.result_due()
        return f"the value {self.name(self.to_play)} takes from the table (total {self.total})."

    def view_notes(self, seat: Seat | None) -> list[str]:
        line = options_line(self.options)
        return [*super().view_notes(seat), line] if line else super().view_notes(seat)

    @property
    def pool(self) -> list[Card]:
        """The cards still face up between the players (the deal's)."""
        return self.deal.pool

    def _refusal(self, seat: Seat, action: Action) -> str | None:
        if not self.by_result() and not isinstance(action, (WonRace, DrawnRace)):
            text = self.deal.refusal(self, seat, action)
            if text is not None:
                return text
        return super()._refusal(seat, action)

    def view(self, seat: Seat | None) -> RefereePoolView:
        return RefereePoolView(**self.view_fields(seat), pool=list(self.pool), due=self.due())

    def extra_zones(self) -> list[Zone]:
        return self.deal.zones()


GAME: Game[RefereeWitAndReason2Options] = referee_mode(ONLINE, RefereeWitAndReason2State)
