"""Jubilee refereed: every card as it is played, and a pass for a player who cannot play; or only
each player's points for the deal (``entries=result``).

The hands are unknown, so a pass is entered by the table; the bot accepts it only while the
player's hand could be all unplayable cards (no black card before the opening, or hearts bigger
than the total). With two copies of most black cards, a third 5♠ is refused. Jubilees, skips, the
void deal when nobody can open, and the match are the online game's (:mod:`games.adders.jubilee`).

A void deal is entered card by card as a pass from each player; with ``entries=result`` the dealer
enters it as :class:`VoidDeal`, offered only where it can happen (two players: sixteen cards dealt
may all be hearts and Jokers).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from games.adders.jubilee import GAME as ONLINE
from games.adders.jubilee import HAND_SIZE, MATCH, JubileeDeal, JubileeOptions, JubileeRules, is_black
from games.counting import CountingFacts
from games.engine import Action, Event, Game, Pass, PlayCard, Seat
from games.referee import entries_alias, referee_mode
from games.referee.counting import DealPoints, RefereeCounting

RESULT_POINTS = range(-200, 201, 5)
"""A player's points in one deal, in results mode: every score is 5, 10 or 20, up or down."""


class RefereeJubileeOptions(JubileeOptions):
    entries: Literal["cards", "result"] = Field(
        "cards",
        description="What the table enters: cards (each card as it is played) or result (only each "
        "player's points at the end of each deal).",
    )

    _entries = field_validator("entries", mode="before")(entries_alias(plural=False))


class VoidDeal(Action):
    """Results mode: nobody held a black card to open with (two players only); the same dealer
    deals again and the deal does not count."""

    kind: Literal["void_deal"] = "void_deal"

    def label(self) -> str:
        return "Void deal (no black card)"

    def spoken(self) -> tuple[str, ...]:
        return ("void", "void deal", "no black card")


VOID_DEAL = VoidDeal()


SUMMARY = """
Referee mode: play Jubilee with its real 61-card pack (one heart suit, two spade suits, two runs of
clubs from Ace to Nine, four Jokers) and enter each card as it is played; the bot keeps the total,
scores every jubilee and skip, and runs the match exactly as the online game does.

Draw from the stock at the table as usual: the bot only counts it. Enter each card in turn from
the dealer's left, or Pass for a player who has no card to play (no black card to open with, or
only hearts bigger than the total); a pass is refused when the player must have a playable card.
A card whose copies are all played is refused, as is a first card that is not black, and a heart
that would take the total below 0. Landing on a multiple of 25 scores 10 (20 on a multiple of 100),
jumping over one costs 5. If every player passes before the opening, the deal is void and the
same dealer deals again. The deal ends when all 61 cards are down; most points after one deal per
player (times rounds) wins. A whole round may be entered in one line, in playing order
("5S pass 9C"). With entries=result the table keeps the count itself and enters only each
player's points for the deal (multiples of 5, in any order), or, with two players, that the deal
was void (the dealer enters it); the bot keeps the match.
"""


class RefereeJubileeState(RefereeCounting[RefereeJubileeOptions]):
    """Jubilee's parts (its rules, its deal and its match), held, not inherited from the online
    state."""

    rules_class = JubileeRules
    match = MATCH
    deal_class = JubileeDeal
    draw_timing = "after"
    floor = 0
    show_hand_on_pass = True
    final_totals: list[int]

    entry_kinds = (PlayCard, Pass, DealPoints, VoidDeal)
    rules_summary = SUMMARY
    options_model = RefereeJubileeOptions
    takes_series = True

    result_points = RESULT_POINTS

    def stuck_reason(self, seat: Seat) -> str:
        if not self.round.opened:
            return f"{self.name(seat)} could still hold a black card to open with."
        if self.total >= 15:
            return f"with the total at {self.total}, every card can be played."
        return super().stuck_reason(seat)

    # -- the void deal in results mode -----------------------------------------------------------

    def not_black(self) -> int:
        """How many cards of the pack are not black (hearts and Jokers)."""
        return sum(1 for c in self.pack() if not is_black(c))

    def may_be_void(self) -> bool:
        """Whether every hand dealt can be without a black card (two players: 16 cards of 17)."""
        return HAND_SIZE * len(self.active_seats()) <= self.not_black()

    def void_open(self) -> bool:
        """Whether the deal may still be entered as void: it can be, and no points are entered."""
        return self.may_be_void() and all(p is None for p in self.entered_points)

    def result_question(self) -> str:
        question = super().result_question()
        return f"{question}, or that it was void" if self.void_open() else question

    def result_entries_for(self, facts: CountingFacts) -> list[tuple[Seat, Action]]:
        """Each player's points, or (a void deal) the void deal on the dealer's line."""
        return [(self.dealer, VOID_DEAL)] if facts.void else super().result_entries_for(facts)

    def result_entries(self, seat: Seat) -> list[Action]:
        entries = super().result_entries(seat)
        if seat == self.dealer and self.void_open():
            entries.append(VOID_DEAL)
        return entries

    def settle_entry(self, seat: Seat, action: Action) -> list[Event]:
        if isinstance(action, VoidDeal):
            return self.on_blocked()  # the online game's void deal: nobody could open
        return super().settle_entry(seat, action)

    def result_refusal(self, seat: Seat, action: Action) -> str | None:
        if not isinstance(action, VoidDeal):
            return super().result_refusal(seat, action)
        if not self.may_be_void():
            players = len(self.active_seats())
            return (
                f"With {players} players {HAND_SIZE * players} cards are dealt and only {self.not_black()} "
                "are hearts or Jokers, so someone always holds a black card: a deal cannot be void."
            )
        entered = [self.name(s) for s, p in enumerate(self.entered_points) if p is not None]
        if entered:
            return (
                f"{' and '.join(entered)}'s points for deal {self.deal_no} are entered, so it was played: "
                "undo them to enter a void deal."
            )
        if seat != self.dealer:
            return f"A void deal is entered once, on the line of {self.name(self.dealer)}, who dealt it and deals again."
        return None

    def _refusal(self, seat: Seat, action: Action) -> str | None:
        if isinstance(action, VoidDeal) and not self.by_result():
            return "This table enters every card: enter a pass for each player, and the bot voids the deal."
        return super()._refusal(seat, action)


GAME: Game[RefereeJubileeOptions] = referee_mode(ONLINE, RefereeJubileeState)
