"""Jubilee, a Czech adding game: black cards add, hearts subtract, and multiples of 25 score."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, ClassVar, Literal, Protocol

from pydantic import Field, field_validator

from games.cards import JOKER, Card, Colour, Rank, Suit, format_cards, make_pack, ranks_from
from games.counting import (
    CardSource,
    CountingDeal,
    CountingFacts,
    CountingMatch,
    CountingOptions,
    CountingRound,
    CountingRules,
    CountingState,
    multiples_crossed,
    play_card,
    signed,
)
from games.counting_deal import DealTable
from games.engine import Action, Event, Game, Outcome, PlayCard, Seat
from games.registry import declare

HAND_SIZE = 8
STEP = 25
"""Every multiple of 25 is a jubilee."""
HIT_POINTS = 10
HUNDRED_POINTS = 20
SKIP_PENALTY = -5
PACK_TOTAL = 217
"""The signed sum of the whole pack; the book's 189 does not follow from its own values."""

FACE_VALUES: dict[Rank, int] = {r: int(r) for r in Rank if r <= Rank.NINE} | {
    Rank.TEN: 10,
    Rank.JACK: 10,
    Rank.QUEEN: 10,
    Rank.KING: 10,
    Rank.ACE: 15,
}


def jubilee_pack() -> list[Card]:
    """61 cards: one heart suit, two spade suits, two runs of clubs Ace to Nine, four Jokers."""
    hearts = make_pack(suits=[Suit.HEARTS])
    spades = make_pack(suits=[Suit.SPADES]) * 2
    clubs = make_pack(ranks_from("A98765432"), suits=[Suit.CLUBS]) * 2
    return hearts + spades + clubs + [JOKER] * 4


@cache
def card_value(card: Card, club_ace_value: int = 15) -> int:
    """The signed value: black cards add, hearts subtract, Jokers count nothing."""
    if card.rank is None or card.suit is None:
        return 0
    size = club_ace_value if (card.suit == Suit.CLUBS and card.rank == Rank.ACE) else FACE_VALUES[card.rank]
    return -size if card.suit == Suit.HEARTS else size


def pack_total(club_ace_value: int = 15) -> int:
    """217 with the stated values; 189 (the book's figure) only if the club Aces count 1."""
    return sum(card_value(c, club_ace_value) for c in jubilee_pack())


def is_black(card: Card) -> bool:
    return card.card_colour == Colour.BLACK and not card.is_joker


@cache
def _play_facts(club_ace_value: int) -> dict[Card, tuple[bool, int, PlayCard]]:
    """Each card of the pack: whether it is black, its signed value, and the action that plays it."""
    return {c: (is_black(c), card_value(c, club_ace_value), play_card(c)) for c in jubilee_pack()}


def play_points(before: int, after: int, *, zero_is_jubilee: bool = False, standing_scores: bool = False) -> int:
    """What a play from ``before`` to ``after`` scores: +10 for landing on a multiple of 25 (+20 on
    a multiple of 100), -5 for each multiple jumped over, in either direction.

    ``standing_scores``: a play that leaves the total where it was (a Joker) scores a jubilee it
    stands on. ``zero_is_jubilee``: landing on 0 counts (as a multiple of 100).
    """
    hit, skipped = multiples_crossed(before, after, STEP, include_zero=zero_is_jubilee)
    if not hit and standing_scores and after == before and after % STEP == 0 and (after or zero_is_jubilee):
        hit = [after]
    points = SKIP_PENALTY * len(skipped)
    for m in hit:
        points += HUNDRED_POINTS if m % 100 == 0 else HIT_POINTS
    return points


class JubileeOptions(CountingOptions):
    zero_is_jubilee: bool = Field(
        False, description="Bringing the total down to exactly 0 counts as a jubilee worth 20."
    )
    joker_on_jubilee: Literal["none", "score"] = Field(
        "none",
        description="A Joker played while the total stands on a multiple of 25: none scores nothing, score scores it again.",
    )
    club_ace_value: Literal[15, 1] = Field(
        15,
        description="The club Aces count 15 like the other Aces, or 1 as plain numerals (then the pack adds up to the book's 189).",
    )


    @field_validator("club_ace_value", mode="before")
    @classmethod
    def _number(cls, value: object) -> object:
        return int(value) if isinstance(value, str) and value.strip().isdigit() else value


class JubileeMatch(CountingMatch[CountingFacts]):
    """Each deal's jubilee points add up; most points after the planned deals wins (a void deal
    is dealt again by the same dealer and not counted)."""

    def init_match(self, state: CountingState[Any]) -> None:
        st: JubileeState = state  # type: ignore[assignment]
        st.final_totals = []

    def outcome(self, state: CountingState[Any]) -> Outcome:
        return Outcome.from_scores(state.scores, notes=["Most jubilee points after the planned deals wins."])


MATCH = JubileeMatch()


class JubileeRules(CountingRules):
    """The values (the Ace of clubs as the options say), a black card to open the deal, and the
    total kept at 0 or over (the ``floor``)."""

    options: JubileeOptions

    def pack(self) -> list[Card]:
        return jubilee_pack()

    def hand_size(self, players: int) -> int:
        return HAND_SIZE

    def card_value(self, card: Card) -> int:
        return card_value(card, self.options.club_ace_value)

    def refusal(
        self, deal: CountingRound, cards: CardSource, seat: Seat, action: Action, before: int, after: int
    ) -> str | None:
        card = action.card
        assert card is not None
        if not deal.opened and not is_black(card):
            return "The deal must open with a black card (a spade or a club)."
        if after < 0:
            return f"Hearts subtract: {card.short} would take the total from {before} to {after}, and it may not go below 0."
        return None

    def quick_plays(self, deal: CountingRound, candidates: Sequence[Card]) -> list[Action]:
        """What :meth:`refusal` allows, in one pass over the cards (each card once): a black card
        to open, then any card that keeps the total at 0 or over. Playouts list them millions of
        times."""
        total, opened, facts = deal.total, deal.opened, _play_facts(self.options.club_ace_value)
        out: list[Action] = []
        for card in dict.fromkeys(candidates):
            black, value, play = facts[card]
            if (opened or black) and total + value >= 0:
                out.append(play)
        return out


class JubileeTable(DealTable, Protocol):
    """What a deal of Jubilee asks of its table beyond :class:`DealTable`: the match's record of
    each deal's last total."""

    final_totals: list[int]


class JubileeDeal(CountingDeal):
    """A deal of Jubilee: a black card opens it, a play scores the jubilees it lands on or skips,
    nobody able to open voids it, and it ends with every card down."""

    def after_play(self, table: DealTable, seat: Seat, action: Action, before: int, after: int) -> list[Event]:
        self.round.opened = True
        options = table.options
        card = action.card
        standing = options.joker_on_jubilee == "score" and card is not None and card.is_joker
        points = play_points(before, after, zero_is_jubilee=options.zero_is_jubilee, standing_scores=standing)
        if not points:
            return []
        table.add_points(seat, points)
        hit, skipped = multiples_crossed(before, after, STEP, include_zero=options.zero_is_jubilee)
        what = []
        if hit or (standing and not skipped):
            what.append(f"jubilee on {after}")
        what += [f"skipped {m}" for m in skipped]
        self.note(f"{', '.join(what)}: {signed(points)}")
        verb = "scores" if points > 0 else "loses"
        return [table.event("score", f"{table.name(seat)} {verb} {abs(points)} ({', '.join(what)}).")]

    def on_blocked(self, table: DealTable) -> list[Event]:
        if self.round.opened:  # cannot happen (see the rules file), but never leave a stall
            return super().on_blocked(table)
        self.round.close(void=True)
        return [table.event("void", "Nobody holds a black card to open with: the deal is void and the same dealer deals again.")]

    def on_exhausted(self, table: DealTable) -> list[Event]:
        rnd = self.round
        totals: JubileeTable = table  # type: ignore[assignment]
        totals.final_totals.append(rnd.total)  # the match's record of each deal's last total
        rnd.close()
        return [table.event("deal_end", f"All {len(rnd.pile)} cards are down and the total ends at {rnd.total}.")]

    def view_notes(self, table: DealTable, seat: Seat | None) -> list[str]:
        if table.is_over:
            return []
        lines = []
        total = self.round.total
        if not self.round.opened:
            lines.append("The first card must be black.")
        lower = (total // STEP) * STEP
        targets = [m for m in (lower, lower + STEP) if m != total and (m > 0 or table.options.zero_is_jubilee)]
        if targets:
            lines.append("Nearest jubilees: " + ", ".join(map(str, targets)))
        shown = [f"{table.name(s)} showed {format_cards(c)}" for s, c in enumerate(self.shown) if c]
        lines += shown
        lines.append(f"Deal {table.deals_played()} of {table.planned_deals()}.")
        return lines


class JubileeState(CountingState[JubileeOptions]):
    rules_class = JubileeRules
    match: ClassVar[CountingMatch[Any]] = MATCH
    deal_class = JubileeDeal
    draw_timing = "after"
    floor = 0
    show_hand_on_pass = True

    final_totals: list[int]

    @property
    def opened(self) -> bool:
        """Whether a card has opened this deal (the round's)."""
        return self.round.opened

    @opened.setter
    def opened(self, value: bool) -> None:
        self.round.opened = value


SUMMARY = """\
Jubilee, a Czech game for 2 to 7 players with a 61-card pack: one suit of hearts (Ace to King), two
suits of spades, two runs of clubs from Ace to Nine, and four Jokers.
Values: Ace 15, King, Queen, Jack and Ten 10 each, other cards their pips, Jokers 0. Spades and
clubs add their value to the total, hearts take it away, Jokers leave it alone.
Each player gets 8 cards and the rest is the stock. The player at the dealer's left opens with a
black card; whoever cannot (nobody to open yet, or only hearts too big to subtract) shows their hand
and passes, and the bot does that for them. If nobody holds a black card the deal is void and the
same dealer deals again.
Then each player in turn plays a card and draws from the stock while it lasts. The total may never
go below 0. Landing on a multiple of 25 scores 10 (20 on a multiple of 100), up or down; jumping
over one costs 5. Moving off a multiple is free, and a Joker on a multiple scores nothing (option).
The deal ends when all 61 cards are down, at a total of 217. The match lasts one deal per player
(times the rounds option); most points wins, ties shared.
"""

GAME = declare(
    Game(
        id="jubilee",
        title="Jubilee",
        min_players=2,
        max_players=7,
        options=JubileeOptions,
        state=JubileeState,
        actions=[PlayCard],
        summary=SUMMARY,
    ),
    referee="games.referee.jubilee:RefereeJubileeState",
    bots={
        "easy": "games.players.adders:JUBILEE_EASY",
        "strong": "games.players.adders:JUBILEE_STRONG",
    },
)
