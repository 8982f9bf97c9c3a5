"""Wit and Reason (I) refereed: every card as it is played.

Each player holds a whole colour, so once the first card of the match shows which colour its
player holds, the bot knows both hands: it refuses a card of the other colour or one already
played, and passes for a player who cannot play, as online. The race, the stalemate ruling and
the match are the online game's (:mod:`games.adders.wit_and_reason_1`).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator

from games.adders.wit_and_reason_1 import (
    COLOURS_MATCH,
    RANK_VALUES,
    WitAndReason1Deal,
    WitAndReason1Options,
    WitAndReason1Rules,
)
from games.adders.wit_and_reason_1 import GAME as ONLINE
from games.cards import Card, Colour
from games.counting import play_card_of
from games.engine import Action, Event, Game, PlayCard, Seat
from games.referee import entries_alias, referee_mode
from games.referee.counting import RefereeCountingView, options_line
from games.referee.races import DrawnRace, RefereeRace, WonRace


class RefereeWitAndReason1Options(WitAndReason1Options):
    entries: Literal["cards", "result"] = Field(
        "cards",
        description="What the table enters: cards (each card as it is played) or result (only who won "
        "each race, or that it was drawn).",
    )

    _entries = field_validator("entries", mode="before")(entries_alias(plural=False))


SUMMARY = """
Referee mode: play Wit and Reason (I) with a real 52-card pack, one player holding all the red
cards and the other all the black; enter each card as it is played and the bot keeps the total and
the score of the races exactly as the online game does.

Both players' cards may go in one entry, in playing order ("KH 7S"). The first card entered in
the match tells the bot who holds which colour. After that a card of the
other colour, a card already played in the race, and a card that would pass 31 are refused. The
bot knows both hands, so it passes for a player who cannot play (they sit out the rest of the race)
and declares a drawn race when neither can reach 31 (stalemate=last_player_wins: the last to play
wins it). Ace 1, Two to Ten their pips, courts 10. Whoever makes exactly 31 wins the race; the
players take turns to start, over two races (times rounds). With entries=result the table enters
only who won each race (or that it was drawn), and the bot keeps the match.
"""


class RefereeWitAndReason1State(RefereeRace[RefereeWitAndReason1Options]):
    """The online race with the colours unknown until the first card is entered: the game's parts
    (its rules, its deal and its match, which draws who holds red), held, not inherited from the
    online state."""

    rules_class = WitAndReason1Rules
    values = RANK_VALUES
    match = COLOURS_MATCH
    deal_class = WitAndReason1Deal
    deal: WitAndReason1Deal
    red_seat: Seat

    entry_kinds = (PlayCard, WonRace, DrawnRace)
    rules_summary = SUMMARY
    options_model = RefereeWitAndReason1Options
    takes_series = True

    def can_draw(self) -> bool:
        return self.options.stalemate == "draw"

    def init_match(self) -> None:
        self.colours_known = False
        super().init_match()

    def after_deal(self, rest: list[Card]) -> list[Event]:
        events = super().after_deal(rest)
        if self.by_result():
            return []  # the cards are not entered: who holds which colour never matters
        if self.colours_known:
            return events
        return [self.event("colours", "One player holds the red cards and the other the black: the first card entered shows who holds which.")]

    def source_cards(self, seat: Seat) -> list[Card]:
        """Until the first card shows who holds which colour, either may hold any card."""
        if self.colours_known:
            return super().source_cards(seat)
        return [*self.hands[0], *self.hands[1]]

    def _refusal(self, seat: Seat, action: Action) -> str | None:
        if self.by_result() or isinstance(action, (WonRace, DrawnRace)):
            return super()._refusal(seat, action)
        if seat not in self.awaiting():
            return None  # the base says whose turn it is
        card = play_card_of(action)
        if card is not None and card not in self.hands[seat]:
            if card in self.pile:
                return f"{card.short} has already been played in this race."
            if card in self.hands[1 - seat]:
                return f"{card.short} is {self.name(1 - seat)}'s: {self.name(seat)} holds the {self.colour_of(seat)} cards."
        return super()._refusal(seat, action)

    def colour_of(self, seat: Seat) -> str:
        return "red" if seat == self.red_seat else "black"

    def _enter(self, seat: Seat, action: Action) -> list[Event]:
        if self.by_result():
            return super()._enter(seat, action)
        events: list[Event] = []
        card = play_card_of(action)
        if not self.colours_known and card is not None:
            self.red_seat = seat if card.card_colour is Colour.RED else 1 - seat
            self.colours_known = True
            events += self.after_deal([])  # hand each player their colour
        return events + super()._enter(seat, action)

    def view_notes(self, seat: Seat | None) -> list[str]:
        unknown = not self.colours_known and not self.by_result()
        notes = super().view_notes(seat) + self.deal.notes(self, colours=not unknown)
        if unknown:
            notes.append("Colours: not known until the first card is entered.")
        line = options_line(self.options)
        return [*notes, line] if line else notes

    def due(self) -> str:
        if self.is_over or self.to_play is None:
            return ""
        if self.by_result():
            return self.result_due()
        return f"the card {self.name(self.to_play)} plays (total {self.total})."

    def view(self, seat: Seat | None) -> RefereeCountingView:
        return RefereeCountingView(**self.view_fields(seat))

    def view_fields(self, seat: Seat | None) -> dict[str, Any]:
        return {**super().view_fields(seat), "due": self.due()}


GAME: Game[RefereeWitAndReason1Options] = referee_mode(ONLINE, RefereeWitAndReason1State)
