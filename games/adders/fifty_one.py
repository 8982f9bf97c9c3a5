"""Fifty-One (German Einundfünfzig): draw, play, and do not be the one who takes the total past 50."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from pydantic import Field, model_validator

from games.cards import Card, Rank, piquet_pack
from games.counting import (
    CountingDeal,
    CountingFacts,
    CountingMatch,
    CountingOptions,
    CountingRules,
    CountingState,
    PlayAs,
)
from games.counting_deal import DealTable
from games.engine import Action, Event, Game, Outcome, PlayCard, Seat
from games.registry import declare

LIMIT = 50
"""The highest safe total: a play that makes it 51 or more loses the deal."""

PENGUIN_VALUES: dict[Rank, int] = {
    Rank.ACE: 11,
    Rank.KING: 4,
    Rank.QUEEN: 3,
    Rank.JACK: 2,
    Rank.TEN: -1,
    Rank.NINE: 0,
    Rank.EIGHT: 8,
    Rank.SEVEN: 7,
}
GERMAN_VALUES: dict[Rank, int] = {**PENGUIN_VALUES, Rank.ACE: 1}
GERMAN_SEVEN_CHOICES = (1, 7)
HAND_SIZE = 5


def card_values(values: str) -> dict[Rank, int]:
    """The value table: ``"penguin"`` (Ace 11) or ``"german"`` (Ace 1; a Seven 1 or 7 when played)."""
    return dict(GERMAN_VALUES if values == "german" else PENGUIN_VALUES)


def new_total(before: int, value: int, floor_zero: bool = False) -> int:
    """The total after adding ``value``; with ``floor_zero`` it never drops below 0."""
    after = before + value
    return max(after, 0) if floor_zero else after


def loses(total: int) -> bool:
    """Whether a play that made this total loses the deal (only totals above 50 do)."""
    return total > LIMIT


def pack_total(values: str = "penguin") -> int:
    """The sum of all 32 cards (Sevens as 7): 136 with the Penguin values, 96 with the German."""
    table = card_values(values)
    return sum(table[c.rank] for c in piquet_pack() if c.rank is not None)


class FiftyOneOptions(CountingOptions):
    values: Literal["penguin", "german"] = Field(
        "penguin",
        description="Card values: penguin (Ace 11) or german (Ace 1, and a Seven counts 1 or 7 as its player chooses).",
    )
    match: Literal["penalties", "lives"] = Field(
        "penalties",
        description="penalties: each deal's loser takes a penalty point and the fewest after the planned deals wins; "
        "lives: each loss costs a life and the last player with lives left wins.",
    )
    lives: int = Field(3, ge=1, le=10, description="Lives each player starts with (only with match=lives).")
    floor_zero: bool = Field(
        False, description="The total never drops below 0: a Ten played at 0 leaves it at 0."
    )

    @model_validator(mode="after")
    def _check(self) -> FiftyOneOptions:
        if self.match == "penalties" and self.lives != 3:
            raise ValueError("lives only counts with match=lives; choose match=lives or leave lives at 3")
        if self.match == "lives" and self.rounds != 1:
            raise ValueError(
                "rounds only counts with match=penalties; a match played for lives ends when one player is left"
            )
        return self


class FiftyOneFacts(CountingFacts):
    """A deal of Fifty-One: who took the total past 50."""

    loser: Seat


class FiftyOneMatch(CountingMatch[FiftyOneFacts]):
    """The loser of each deal takes a penalty point; with match=lives also loses a life, and the
    match goes on until one player has a life left."""

    higher_is_better = False  # scores are penalty points (deals lost)

    def init_match(self, state: CountingState[Any]) -> None:
        st: FiftyOneState = state  # type: ignore[assignment]
        st.elimination_order = []
        if st.options.match == "lives":
            st.lives = [st.options.lives] * st.n

    def view_fields(self, state: CountingState[Any]) -> dict[str, Any]:
        if state.options.match == "penalties":
            return {"deals_left": max(0, self.planned_deals(state) - state.deals_played())}
        return {}

    def book(self, state: CountingState[Any], facts: FiftyOneFacts) -> list[Event]:
        st: FiftyOneState = state  # type: ignore[assignment]
        seat = facts.loser
        st.scores[seat] += 1
        if st.lives is None:
            return []
        events = st.lose_life(seat)
        if st.out[seat]:
            st.elimination_order.append(seat)
        return events

    def over(self, state: CountingState[Any]) -> bool:
        if state.options.match == "lives":
            return len(state.active_seats()) <= 1
        return super().over(state)

    def outcome(self, state: CountingState[Any]) -> Outcome:
        st: FiftyOneState = state  # type: ignore[assignment]
        if st.options.match == "penalties":
            return Outcome.from_scores(st.scores, higher_is_better=False, notes=["Fewest deals lost wins."])
        # the survivor first, then by how long each lasted
        order = st.active_seats() + list(reversed(st.elimination_order))
        ranks = [0] * st.n
        for place, seat in enumerate(order, start=1):
            ranks[seat] = place
        return Outcome.from_scores(
            st.scores, ranks=ranks, notes=[f"{st.name(order[0])} is the last player with a life left."]
        )


MATCH = FiftyOneMatch()


class FiftyOneRules(CountingRules):
    """The value table of the table's options (``values``), the German Seven's choice, and the
    total kept at 0 or over with ``floor_zero``."""

    options: FiftyOneOptions

    @classmethod
    def values_for(cls, options: Any, values: Mapping[Rank, int]) -> Mapping[Rank, int]:
        return card_values(options.values)

    def pack(self) -> list[Card]:
        return piquet_pack()

    def hand_size(self, players: int) -> int:
        return HAND_SIZE

    def value_choices(self, card: Card) -> Sequence[int] | None:
        if self.options.values == "german" and card.rank == Rank.SEVEN:
            return GERMAN_SEVEN_CHOICES
        return None

    def resulting_total(self, action: Action, before: int) -> int:
        if isinstance(action, PlayAs):
            value = action.value
        else:
            card = action.card
            assert card is not None
            value = self.card_value(card)
        return new_total(before, value, self.options.floor_zero)


@dataclass
class FiftyOneDeal(CountingDeal):
    """A deal of Fifty-One: who took the total past 50 (once someone has)."""

    loser: Seat | None = None

    def init_deal(self, table: DealTable) -> None:
        self.loser = None

    def facts(self, table: DealTable) -> dict[str, Any]:
        assert self.loser is not None
        return {**super().facts(table), "loser": self.loser}

    def after_deal(self, table: DealTable, rest: list[Card]) -> list[Event]:
        starter = rest[0]
        self.cards.place(stock=rest[1:])
        rnd = self.round
        rnd.pile = [starter]
        # the starter opens the total from 0 like any card played: with floor_zero a Ten opens it at 0
        rnd.total = new_total(0, self.rules.card_value(starter), table.options.floor_zero)
        return [table.event("starter", f"{starter.short} is turned up to start the pile: the total opens at {rnd.total}.")]

    def after_play(self, table: DealTable, seat: Seat, action: Action, before: int, after: int) -> list[Event]:
        if not loses(after):
            return []
        self.note("over 50: loses")
        return self.lose_deal(table, seat)

    def lose_deal(self, table: DealTable, seat: Seat) -> list[Event]:
        """``seat`` took the total past 50: the deal ends (the match books the penalty or life)."""
        self.loser = seat
        table.add_points(seat, 1)
        self.round.close()
        return [table.event("deal_lost", f"{table.name(seat)} has taken the total past {LIMIT} and loses the deal.")]

    def view_notes(self, table: DealTable, seat: Seat | None) -> list[str]:
        notes = [f"Safe up to {LIMIT}; whoever takes the total past it loses."]
        if table.options.match == "penalties":
            notes.append(f"Scores count deals lost (fewest wins); deal {table.deals_played()} of {table.planned_deals()}.")
        else:
            notes.append("Scores count deals lost; a player with no lives left is out.")
        return notes


class FiftyOneState(CountingState[FiftyOneOptions]):
    rules_class = FiftyOneRules
    draw_timing = "before"
    match: ClassVar[CountingMatch[Any]] = MATCH
    deal_class = FiftyOneDeal
    facts_class = FiftyOneFacts
    deal: FiftyOneDeal
    elimination_order: list[Seat]


SUMMARY = """\
Fifty-One, for 2 to 5 players with a 32-card pack (A K Q J 10 9 8 7).
Values: Ace 11, King 4, Queen 3, Jack 2, Ten minus 1, Nine 0, Eight 8, Seven 7.
Each player gets 5 cards; the next card is turned up and its value opens the total.
On your turn you first draw from the stock (while it lasts), then play a card; the bot keeps the total.
Once the stock is gone you play on from your hand. A total of exactly 50 is safe; whoever makes it 51
or more loses the deal at once, and you must play even when every card you hold would do that.
Match (penalties): the loser of each deal takes a penalty point; after every player has dealt (times
the rounds option) the fewest penalties wins, ties shared. Match (lives): each loss costs a life, a
player with none left is out, and the last one standing wins.
German values (option): Ace 1, and a Seven counts 1 or 7 as you choose (a Seven turned up counts 7).
Totals may go below zero unless floor_zero is set, when the total stops at 0 instead (a Ten
turned up then opens it at 0).
"""

GAME = declare(
    Game(
        id="fifty_one",
        title="Fifty-One",
        min_players=2,
        max_players=5,
        options=FiftyOneOptions,
        state=FiftyOneState,
        actions=[PlayCard, PlayAs],
        summary=SUMMARY,
    ),
    referee="games.referee.fifty_one:RefereeFiftyOneState",
    bots={
        "easy": "games.players.adders:FIFTY_ONE_EASY",
        "strong": "games.players.adders:FIFTY_ONE_STRONG",
    },
)
