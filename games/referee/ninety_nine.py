"""Ninety-Nine refereed: every card as it is played, and "Bust" for a player who cannot play.

A black Ace is entered with the total its player names; a Bust is accepted only while the
player's three cards could all be unplayable (every card left unseen that fits under 99 may be in
someone else's hand). When the stock runs out and the played cards are shuffled into a new one,
they become unseen again. Values, the Jack's reversal, lives and the match are the online game's
(:mod:`games.adders.ninety_nine`).

With ``entries=result`` the table enters who went bust; at a table playing the hands out
(``stock_out=play_out``) a deal may also end with every hand empty and nobody bust, entered once
on the dealer's line as :class:`PlayedOut` (no life lost, the deal passes on, as online).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from games.adders.ninety_nine import GAME as ONLINE
from games.adders.ninety_nine import (
    LIMIT,
    MATCH,
    NinetyNineDeal,
    NinetyNineFacts,
    NinetyNineOptions,
    NinetyNineRules,
)
from games.counting import CountingFacts, PlayAs
from games.engine import Action, Event, Game, PlayCard, Seat
from games.referee import entries_alias, referee_mode
from games.referee.counting import RefereeCounting


class RefereeNinetyNineOptions(NinetyNineOptions):
    entries: Literal["cards", "result"] = Field(
        "cards",
        description="What the table enters: cards (each card as it is played) or result (only who went bust in each deal).",
    )

    _entries = field_validator("entries", mode="before")(entries_alias(plural=False))


class Bust(Action):
    """The player to move has no card that keeps the total at 99 or under: they lose a life."""

    kind: Literal["bust"] = "bust"

    def label(self) -> str:
        return "Bust: cannot play"


BUST = Bust()


class PlayedOut(Action):
    """Results mode with ``stock_out=play_out``: every hand was played out and nobody went bust."""

    kind: Literal["played_out"] = "played_out"

    def label(self) -> str:
        return "Played out (no bust)"

    def spoken(self) -> tuple[str, ...]:
        return ("played out", "no bust", "nobody bust")


PLAYED_OUT = PlayedOut()


SUMMARY = """
Referee mode: play Ninety-Nine with a real 52-card pack and enter each card as it is played; the
bot keeps the total and the direction of play, takes the lives and runs the match exactly as the
online game does.

Draw from the stock at the table as usual: the bot only counts it (when it runs out, the played
cards but the top one are shuffled into a new stock, unless stock_out=play_out). Enter each card in
turn; a black Ace with the total its player names (0 to 99, "AS 12"); a whole round may go in one
entry, in playing order ("KH AS 12 5D"). A card already played, a card that
would take the total past 99, and a Ten or Nine the table options forbid are refused. When the
player to move cannot play, enter Bust: they lose a life and the deal ends. Bust is refused while
that player must hold a card that fits (when the total is low, say); when no card left unseen
could fit, the bot declares the bust itself. Card effects: black Ace sets 0-99, red Ace +2 (or 1),
Two +2, Three and Four 0, Five to Eight their pips, Nine makes 99, Ten -10, Jack +10 and reverses,
Queen and King +10. Three lives each; the first to lose all three loses the match (or, with
mode=last_survivor, the last one left wins). With entries=result the table enters only who went
bust in each deal, and the bot keeps the lives and the match; with stock_out=play_out a deal in
which every hand is played out with nobody bust is entered as Played out, on the dealer's line.
"""


class RefereeNinetyNineState(RefereeCounting[RefereeNinetyNineOptions]):
    """Ninety-Nine's parts (its rules, its deal and its match), held, not inherited from the
    online state."""

    rules_class = NinetyNineRules
    draw_timing = "after"
    ceiling = LIMIT
    match = MATCH
    deal_class = NinetyNineDeal
    facts_class = NinetyNineFacts
    deal: NinetyNineDeal
    knocked_out_in: list[int | None]
    overall_loser: Seat | None

    entry_kinds = (PlayCard, PlayAs, Bust, PlayedOut)
    rules_summary = SUMMARY
    options_model = RefereeNinetyNineOptions
    takes_series = True

    stuck_entry = BUST
    result_entry = BUST

    def settle_result(self, seat: Seat) -> list[Event]:
        return self.on_stuck(seat)

    def result_entries_for(self, facts: CountingFacts) -> list[tuple[Seat, Action]]:
        """Who went bust, or (nobody bust) that the deal was played out, on the dealer's line."""
        assert isinstance(facts, NinetyNineFacts)
        return [(self.dealer, PLAYED_OUT)] if facts.bust is None else [(facts.bust, BUST)]

    def plays_out(self) -> bool:
        """Whether a deal can end with nobody bust: the hands are played out when the stock is gone."""
        return self.options.stock_out == "play_out"

    def result_question(self) -> str:
        if self.plays_out():
            return f"who went bust in deal {self.deal_no}, or that it was played out"
        return f"who went bust in deal {self.deal_no}"

    def result_entries(self, seat: Seat) -> list[Action]:
        if self.plays_out() and seat == self.dealer:
            return [BUST, PLAYED_OUT]
        return [BUST]

    def settle_entry(self, seat: Seat, action: Action) -> list[Event]:
        if isinstance(action, PlayedOut):
            return self.on_exhausted()  # the online game's end of a deal with every hand empty
        return super().settle_entry(seat, action)

    def result_refusal(self, seat: Seat, action: Action) -> str | None:
        if not isinstance(action, PlayedOut):
            return super().result_refusal(seat, action)
        if not self.plays_out():
            return (
                "At this table the played cards make a new stock when it runs out (stock_out=reshuffle), "
                "so a deal ends only when someone goes bust."
            )
        if seat != self.dealer:
            return f"A deal played out is entered once, on the line of {self.name(self.dealer)}, who dealt it."
        return None

    def _refusal(self, seat: Seat, action: Action) -> str | None:
        if isinstance(action, PlayedOut) and not self.by_result():
            return "This table enters every card: when every hand is empty the bot ends the deal itself."
        return super()._refusal(seat, action)


GAME: Game[RefereeNinetyNineOptions] = referee_mode(ONLINE, RefereeNinetyNineState)
