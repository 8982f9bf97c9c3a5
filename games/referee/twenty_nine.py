"""Twenty-Nine refereed: every card as it is played, and a pass for a player who cannot play.

The Tens taken out so that the cards divide evenly stay unknown (suits do not matter), so the bot
counts them instead: once as many Tens have been played as are in the deal, another is refused.
A pass is accepted only while the player's hand could be all cards too big for the pile. Tricks,
blocks, the end of the deal, sides and the match are the online game's
(:mod:`games.adders.twenty_nine`). With ``entries=result`` the table enters only the cards each
side counts at the end of the deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import Field, field_validator

from games.adders.twenty_nine import GAME as ONLINE
from games.adders.twenty_nine import (
    MATCH,
    TARGET,
    VALUES,
    TwentyNineDeal,
    TwentyNineFacts,
    TwentyNineOptions,
    TwentyNineRules,
    card_value,
    check_sides,
    side_text,
    tens_to_remove,
)
from games.cards import Card, Rank
from games.counting import CardSource, CountingFacts, CountingRound
from games.engine import Action, Event, Game, Pass, PlayCard, Seat
from games.referee import entries_alias, referee_mode
from games.referee.counting import RefereeCounting, UnseenCards

TENS = 4
PACK_SIZE = 52


class RefereeTwentyNineOptions(TwentyNineOptions):
    entries: Literal["cards", "result"] = Field(
        "cards",
        description="What the table enters: cards (each card as it is played) or result (only the cards "
        "each side counts at the end of each deal).",
    )

    _entries = field_validator("entries", mode="before")(entries_alias(plural=False))


class CardsTaken(Action):
    """Results mode: the cards a side counts at the end of the deal (piles won, and cards still
    held unless unplayed=ignore), entered on the line of the side's first player."""

    kind: Literal["cards_taken"] = "cards_taken"
    count: int = Field(ge=0, le=PACK_SIZE)

    def label(self) -> str:
        return f"{self.count} card{'' if self.count == 1 else 's'} taken"

    def choice_path(self) -> tuple[str, ...]:
        low = self.count // 10 * 10
        return (f"{low} to {low + 9}", self.label())


_TAKEN = [CardsTaken(count=n) for n in range(PACK_SIZE + 1)]


SUMMARY = """
Referee mode: play Twenty-Nine with a real 52-card pack and enter each card as it is played; the
bot keeps the pile's total, gives each 29 to its side, detects blocks and the end of the deal, and
runs the match exactly as the online game does.

Take out the Tens the bot asks for (1 with 3 players, 2 with 5, 3 with 7, 4 with 6 or 8) and deal
everything. Enter each card in turn from the dealer's left, or Pass for a player who cannot add a
card without passing 29; a pass is refused when the player must hold a card that fits, and when no
card left unseen could fit the bot passes for everyone. A card already played, a card that would
pass 29, and a Ten beyond those in the deal are refused. Whoever makes exactly 29 takes the pile for
their side and starts the next one. Cards still held at the end count for their holder's side
(unless unplayed=ignore); the side with most cards wins the deal. A whole round may be entered in
one line, in playing order ("5S pass KD"). With entries=result the table plays on its own and
enters only the cards each side counts at the end of the deal (on the line of the side's first
player); the bot scores the deal and keeps the match.
"""


def tens_left(cards: UnseenCards) -> int:
    """Tens still in the hands: the unseen Tens but those taken out."""
    return sum(k for c, k in cards.unseen.items() if c.rank is Rank.TEN) - cards.aside


class RefereeTwentyNineRules(TwentyNineRules):
    """The online rules, and no more Tens than the deal holds (those taken out are unknown)."""

    def refusal(
        self, deal: CountingRound, cards: CardSource, seat: Seat, action: Action, before: int, after: int
    ) -> str | None:
        card = action.card
        if card is not None and card.rank is Rank.TEN and isinstance(cards, UnseenCards) and tens_left(cards) <= 0:
            return f"Only {TENS - cards.aside} Tens are in this deal ({cards.aside} taken out), and all of them have been played."
        return super().refusal(deal, cards, seat, action, before, after)

    def quick_plays(self, deal: CountingRound, candidates: Sequence[Card]) -> list[Action] | None:
        """``None``: play by play (:meth:`refusal`), as the online listing does not know how many
        Tens are left (it is not given the cards)."""
        return None

    def held_value(self, cards: CardSource) -> int:
        """Every unseen card may be in a hand, but the Tens taken out before the deal."""
        if not isinstance(cards, UnseenCards):
            return super().held_value(cards)
        return sum(card_value(c) * k for c, k in cards.unseen.items()) - 10 * cards.aside  # a Ten counts 10


class RefereeTwentyNineState(RefereeCounting[RefereeTwentyNineOptions]):
    """Twenty-Nine's parts (its rules, refined for unseen cards, its deal and its match), held, not
    inherited from the online state."""

    rules_class = RefereeTwentyNineRules
    values = VALUES
    ceiling = TARGET
    match = MATCH
    deal_class = TwentyNineDeal
    facts_class = TwentyNineFacts
    deal: TwentyNineDeal
    sides: list[list[Seat]]
    side_of: list[int]
    deals_won: list[int]

    entry_kinds = (PlayCard, Pass, CardsTaken)
    rules_summary = SUMMARY
    options_model = RefereeTwentyNineOptions
    takes_series = True

    result_entry = _TAKEN[0]

    # -- results mode: one count per side, on its first player's line -------------------------

    def cards_in_deal(self) -> int:
        return PACK_SIZE - tens_to_remove(len(self.active_seats()))

    def result_seats(self) -> list[Seat]:
        return [side[0] for side in self.sides if self.entered_points[side[0]] is None]

    def result_entries_for(self, facts: CountingFacts) -> list[tuple[Seat, Action]]:
        assert isinstance(facts, TwentyNineFacts)
        return [(side[0], _TAKEN[count]) for side, count in zip(self.sides, facts.counts, strict=True)]

    def result_entries(self, seat: Seat) -> list[Action]:
        room = self.cards_in_deal() - sum(p for p in self.entered_points if p is not None)
        return list(_TAKEN[: room + 1])

    def settle_entry(self, seat: Seat, action: Action) -> list[Event]:
        assert isinstance(action, CardsTaken)
        self.entered_points[seat] = action.count
        side = self.side_of[seat]
        events = [self.event("cards_taken", f"{self.side_text(side)}: {action.count} cards taken.")]
        if not self.result_seats():
            self.close_deal()
        return events

    def score_deal(self) -> list[Event]:
        return [] if self.by_result() else super().score_deal()

    @classmethod
    def check_setup(cls, players: int, options: TwentyNineOptions) -> None:
        check_sides(players, options)

    def side_text(self, side: int) -> str:
        return side_text(self, side)

    def side_counts(self) -> list[int]:
        """The cards each side counts: the deal's count, or those entered (results mode)."""
        if not self.by_result():
            return self.deal.side_counts(self)
        return [self.entered_points[side[0]] or 0 for side in self.sides]

    def result_question(self) -> str:
        names = "; ".join(self.side_text(self.side_of[s]) for s in self.result_seats())
        return f"the cards taken in deal {self.deal_no} by {names}"

    def result_refusal(self, seat: Seat, action: Action) -> str | None:
        if not isinstance(action, CardsTaken):
            return None
        side = self.side_of[seat]
        if seat != self.sides[side][0]:
            first = self.name(self.sides[side][0])
            return f"Each side's cards are entered once, on its first player's line: enter them for {first}."
        entered = self.entered_points[seat]
        if entered is not None:
            return f"The cards of {self.side_text(side)} are already entered ({entered}): undo the entry to change it."
        room = self.cards_in_deal() - sum(p for p in self.entered_points if p is not None)
        return f"This deal has {self.cards_in_deal()} cards and {room} are not yet counted: {action.count} is too many."

    # -- cards mode ---------------------------------------------------------------------------

    def aside_count(self, rest: int) -> int:
        return rest  # the Tens taken out before the deal

    def after_deal(self, rest: list[Card]) -> list[Event]:
        events = super().after_deal(rest)
        if self.aside:
            word = "Ten" if self.aside == 1 else "Tens"
            events.append(self.event("set_aside", f"Take {self.aside} {word} out of the pack (any suits) before dealing."))
        return events

    def view_notes(self, seat: Seat | None) -> list[str]:
        notes = super().view_notes(seat)
        if self.aside:
            notes.insert(-1, f"Tens taken out: {self.aside}")
        return notes



GAME: Game[RefereeTwentyNineOptions] = referee_mode(ONLINE, RefereeTwentyNineState)
