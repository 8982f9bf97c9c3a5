"""Ninety-Nine: the Penguin's adding game for 3 to 13 players (not the trick game of that name).

Rules: ``shared/rules/ninety_nine.md``. Everyone holds three cards, plays one and draws one. The
running total may never pass 99; whoever cannot play without passing it loses a life, and the
first to lose three lives is the overall loser.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, Literal

from pydantic import Field

from games.cards import Card, Colour, Rank, Suit, format_cards, full_pack
from games.counting import (
    CardSource,
    CountingDeal,
    CountingFacts,
    CountingMatch,
    CountingRound,
    CountingRules,
    CountingState,
    PlayAs,
    play_as,
    play_card,
)
from games.counting_deal import DealTable
from games.engine import Action, BaseOptions, Event, Game, Outcome, PlayCard, Seat, rank_scores
from games.registry import declare

LIMIT = 99
LIVES = 3
HAND_SIZE = 3
PLAY_CAP = 1000
"""A deal this long ends with no life lost (random play never comes near it)."""


class NinetyNineOptions(BaseOptions):
    red_ace_value: int = Field(
        2,
        ge=1,
        le=2,
        description="What a red Ace adds: 2 as the book prints it, or 1.",
    )
    below_zero: Literal["allow", "forbid", "clamp0"] = Field(
        "allow",
        description="A Ten on a total under 10: allow a negative total, forbid the Ten, or stop the total at 0.",
    )
    nine_on_99: Literal["allow", "forbid"] = Field(
        "allow",
        description="May a Nine be played when the total is already 99 (it leaves it at 99)?",
    )
    stock_out: Literal["reshuffle", "play_out"] = Field(
        "reshuffle",
        description="When the stock runs out: reshuffle the played cards (all but the top one) into a new "
        "stock, or stop drawing and play the hands out.",
    )
    mode: Literal["first_to_three_losses", "last_survivor"] = Field(
        "first_to_three_losses",
        description="End the match when someone loses a third life, or knock players out at three lost lives "
        "and play on until one is left.",
    )


# --- the value table: pure functions ------------------------------------------------------------

_BLACK_SUITS = frozenset(s for s in Suit if s.colour is Colour.BLACK)


def is_black_ace(card: Card) -> bool:
    return card.rank is Rank.ACE and card.suit in _BLACK_SUITS


def reverses(card: Card) -> bool:
    """A Jack turns the direction of play round."""
    return card.rank is Rank.JACK


def new_total(
    total: int,
    card: Card,
    options: NinetyNineOptions | None = None,
    chosen: int | None = None,
) -> int:
    """The total after ``card`` is played on ``total`` (``chosen``: the value a black Ace names).

    The result may pass 99: :func:`can_play` says whether the play is allowed.
    """
    opts = options or NinetyNineOptions()
    rank = card.rank
    if is_black_ace(card):
        if chosen is None or not 0 <= chosen <= LIMIT:
            raise ValueError("a black Ace needs a chosen total from 0 to 99")
        return chosen
    if rank is Rank.ACE:
        return total + opts.red_ace_value
    if rank is Rank.NINE:
        return LIMIT
    if rank is Rank.TEN:
        lower = total - 10
        return max(0, lower) if opts.below_zero == "clamp0" else lower
    if rank in (Rank.THREE, Rank.FOUR):
        return total
    if rank in (Rank.JACK, Rank.QUEEN, Rank.KING):
        return total + 10
    assert rank is not None
    return total + int(rank)


def can_play(total: int, card: Card, options: NinetyNineOptions | None = None) -> bool:
    """Whether ``card`` may be played on ``total`` without breaking a rule."""
    opts = options or NinetyNineOptions()
    if is_black_ace(card):
        return True
    if card.rank is Rank.NINE:
        return total < LIMIT or opts.nine_on_99 == "allow"
    if card.rank is Rank.TEN and opts.below_zero == "forbid":
        return total - 10 >= 0
    return new_total(total, card, opts) <= LIMIT


def playable_cards(total: int, hand: list[Card], options: NinetyNineOptions | None = None) -> list[Card]:
    return [c for c in hand if can_play(total, c, options)]


def is_bust(total: int, hand: list[Card], options: NinetyNineOptions | None = None) -> bool:
    """A player holding cards, none of which can be played, loses a life."""
    return bool(hand) and not playable_cards(total, hand, options)


def value_text(card: Card, options: NinetyNineOptions | None = None) -> str:
    """What a card does, in a few words (for the rules summary and refusals)."""
    opts = options or NinetyNineOptions()
    if is_black_ace(card):
        return "sets the total to any number from 0 to 99"
    rank = card.rank
    if rank is Rank.ACE:
        return f"adds {opts.red_ace_value}"
    if rank is Rank.NINE:
        return "makes the total 99"
    if rank is Rank.TEN:
        return "takes 10 off"
    if rank is Rank.JACK:
        return "adds 10 and reverses the direction"
    if rank in (Rank.THREE, Rank.FOUR):
        return "adds nothing"
    return f"adds {10 if rank in (Rank.QUEEN, Rank.KING) else int(rank or 0)}"


# --- the match ----------------------------------------------------------------------------------


class NinetyNineFacts(CountingFacts):
    """A deal of Ninety-Nine: who went bust (``None``: the deal ended with no life lost)."""

    bust: Seat | None = None


class NinetyNineMatch(CountingMatch[NinetyNineFacts]):
    """A bust costs a life (the scores are the lives left); the match ends at the first player
    with none left, or (last_survivor) when one player is left."""

    def init_match(self, state: CountingState[Any]) -> None:
        st: NinetyNineState = state  # type: ignore[assignment]
        st.lives = [LIVES] * st.n
        st.scores = [LIVES] * st.n
        st.knocked_out_in = [None] * st.n
        st.overall_loser = None

    def view_fields(self, state: CountingState[Any]) -> dict[str, Any]:
        return {"ends_at_first_out": state.options.mode == "first_to_three_losses"}

    def book(self, state: CountingState[Any], facts: NinetyNineFacts) -> list[Event]:
        st: NinetyNineState = state  # type: ignore[assignment]
        seat = facts.bust
        if seat is None:
            return []
        events = st.lose_life(seat)
        assert st.lives is not None
        st.scores[seat] = st.lives[seat]
        if st.lives[seat] <= 0:
            st.knocked_out_in[seat] = st.deal_no
            if st.overall_loser is None:
                st.overall_loser = seat
        return events

    def over(self, state: CountingState[Any]) -> bool:
        st: NinetyNineState = state  # type: ignore[assignment]
        if st.options.mode == "first_to_three_losses":
            return st.overall_loser is not None
        return len(st.active_seats()) <= 1

    def outcome(self, state: CountingState[Any]) -> Outcome:
        st: NinetyNineState = state  # type: ignore[assignment]
        assert st.lives is not None
        if st.options.mode == "first_to_three_losses":
            assert st.overall_loser is not None
            note = f"{st.name(st.overall_loser)} has lost all three lives and is the overall loser."
            return Outcome.from_scores(st.lives, notes=[note])
        order = [
            lives * 10_000 + (out_in if out_in is not None else 9_999)
            for lives, out_in in zip(st.lives, st.knocked_out_in, strict=True)
        ]
        survivors_left = [st.name(s) for s in st.active_seats()]
        note = f"{' and '.join(survivors_left)} outlasted everyone." if survivors_left else ""
        return Outcome.from_scores(st.lives, ranks=rank_scores(order), notes=[note] if note else [])


MATCH = NinetyNineMatch()


class NinetyNineRules(CountingRules):
    """Values, the black Ace's chosen total and what may be played under 99 (the options': a Nine
    on 99, a Ten below 0)."""

    options: NinetyNineOptions

    def pack(self) -> list[Card]:
        return full_pack()

    def hand_size(self, players: int) -> int:
        return HAND_SIZE

    def total_choices(self, card: Card) -> Sequence[int] | None:
        return range(LIMIT + 1) if is_black_ace(card) else None

    def quick_plays(self, deal: CountingRound, candidates: Sequence[Card]) -> list[Action]:
        # the same plays the machinery would list, cached: a black Ace alone offers 100 of them
        return list(_legal_plays(deal.total, tuple(candidates), self.options))

    def resulting_total(self, action: Action, before: int) -> int:
        chosen = action.value if isinstance(action, PlayAs) else None
        card = action.play if isinstance(action, (PlayCard, PlayAs)) else None
        assert card is not None
        return new_total(before, card, self.options, chosen)

    def refusal(
        self, deal: CountingRound, cards: CardSource, seat: Seat, action: Action, before: int, after: int
    ) -> str | None:
        card = action.play if isinstance(action, (PlayCard, PlayAs)) else None
        assert card is not None
        if can_play(before, card, self.options):
            return None
        if card.rank is Rank.NINE:
            return "The total is already 99, and at this table a Nine may not be played on 99."
        if card.rank is Rank.TEN and self.options.below_zero == "forbid":
            return f"A Ten would take the total from {before} below 0, which this table does not allow."
        return f"Your {card.short} {value_text(card, self.options)}: that would make {after}, past 99."

    def effect_text(self, action: Action, before: int, after: int) -> str:
        card = action.play if isinstance(action, (PlayCard, PlayAs)) else None
        if isinstance(action, PlayAs):
            return f"sets {action.value}"
        if card is not None and card.rank is Rank.NINE:
            return "makes 99"
        text = super().effect_text(action, before, after)
        return f"{text}, reverse" if card is not None and reverses(card) else text


@dataclass
class NinetyNineDeal(CountingDeal):
    """A deal of Ninety-Nine: how many cards have been played (a deal is stopped at
    :data:`PLAY_CAP`) and who went bust (the match takes their life)."""

    plays_this_deal: int = 0
    bust: Seat | None = None

    def init_deal(self, table: DealTable) -> None:
        self.plays_this_deal = 0
        self.bust = None

    def facts(self, table: DealTable) -> dict[str, Any]:
        return {**super().facts(table), "bust": self.bust}

    def after_play(self, table: DealTable, seat: Seat, action: Action, before: int, after: int) -> list[Event]:
        self.plays_this_deal += 1
        events: list[Event] = []
        card = action.play if isinstance(action, (PlayCard, PlayAs)) else None
        rnd = self.round
        if card is not None and reverses(card):
            rnd.direction = -rnd.direction
            self.note("direction reversed")
            events.append(table.event("reverse", "The Jack turns the direction of play round."))
        if self.plays_this_deal >= PLAY_CAP:
            rnd.close()
            events.append(
                table.event("deal_end", f"After {PLAY_CAP} plays the deal is stopped; nobody loses a life.")
            )
        return events

    def on_stuck(self, table: DealTable, seat: Seat) -> list[Event]:
        """No card fits under 99: the seat goes bust and the deal ends (the hand is shown); the
        match takes the life."""
        known = self.cards.hands[seat]  # the cards online; referee mode knows none of them
        holding = f" (holding {format_cards(known)})" if known else ""
        self.bust = seat
        self.round.close()
        return [table.event("bust", f"{table.name(seat)} cannot play without passing 99{holding} and loses a life.")]

    def on_exhausted(self, table: DealTable) -> list[Event]:
        self.round.close()
        return [table.event("deal_end", "Nobody has a card left, so the deal ends and nobody loses a life.")]

    def on_stock_empty(self, table: DealTable) -> list[Event]:
        if table.options.stock_out == "reshuffle":
            return table.restock_from_pile(keep=1)
        return []

    def view_notes(self, table: DealTable, seat: Seat | None) -> list[str]:
        """The rule that ends the match, while it is played (at its end the result says it)."""
        notes: list[str] = []
        if table.is_over:
            return notes
        if table.options.mode == "last_survivor":
            notes.append("Players with no lives left are out; the last one in wins.")
        else:
            notes.append("The first player to lose all three lives loses the match.")
        return notes


class NinetyNineState(CountingState[NinetyNineOptions]):
    """Values, the black Ace's chosen total, the Jack's reversal and busts; the turns, drawing,
    restocking and dealing are the shared counting machinery, the lives the match's."""

    rules_class = NinetyNineRules
    draw_timing = "after"
    ceiling = LIMIT
    match: ClassVar[CountingMatch[Any]] = MATCH
    deal_class = NinetyNineDeal
    facts_class = NinetyNineFacts
    deal: NinetyNineDeal

    knocked_out_in: list[int | None]
    overall_loser: Seat | None


@lru_cache(maxsize=8192)
def _legal_plays(total: int, hand: tuple[Card, ...], options: NinetyNineOptions) -> tuple[Action, ...]:
    out: list[Action] = []
    for card in dict.fromkeys(hand):
        if is_black_ace(card):
            out.extend(_black_ace_plays(card))
        elif can_play(total, card, options):
            out.append(play_card(card))
    return tuple(out)


@lru_cache(maxsize=4)
def _black_ace_plays(card: Card) -> tuple[PlayAs, ...]:
    return tuple(play_as(card, v, True) for v in range(LIMIT + 1))


SUMMARY = """Three to thirteen players, a 52-card pack. Each deal everyone gets three cards; the rest is the stock.
Starting at 0, players in turn (to the left at first) play a card, say the new total and draw a
replacement. The total may never go past 99.

Card effects: black Ace sets the total to any number from 0 to 99 you name; red Ace adds 2 (1 with
red_ace_value=1); Two adds 2; Three and Four add nothing; Five to Eight add their pips; Nine makes the
total 99; Ten takes 10 off; Queen and King add 10; Jack adds 10 and turns the direction of play round,
so the player who played just before the Jack plays next.

A player whose turn comes with no card that keeps the total at 99 or under loses one of their three
lives and the deal ends; the deal then passes to the left. The first to lose all three lives is the
overall loser (ranks follow lives left); with mode=last_survivor, players with no lives drop out and the
last one left wins.

Referee's rulings: a Nine may be played on 99 (option nine_on_99); a Ten may take the total below 0
(option below_zero); when the stock runs out, the played cards except the top one are shuffled into a
new stock (option stock_out=play_out instead plays the hands out: a player with no cards is skipped,
and if nobody has a card the deal ends with no life lost). A Jack played first simply reverses the
direction. A deal stopped after 1,000 plays costs nobody a life.
"""

GAME = declare(
    Game(
        id="ninety_nine",
        title="Ninety-Nine",
        min_players=3,
        max_players=13,
        options=NinetyNineOptions,
        state=NinetyNineState,
        actions=[PlayCard, PlayAs],
        summary=SUMMARY,
    ),
    referee="games.referee.ninety_nine:RefereeNinetyNineState",
    bots={
        "easy": "games.players.adders:NINETY_NINE_EASY",
        "strong": "games.players.adders:NINETY_NINE_STRONG",
    },
)
