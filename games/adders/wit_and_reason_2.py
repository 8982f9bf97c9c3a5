"""Wit and Reason (II): the 24-card race to 31 (Dudeney's Thirty-one game), as reconstructed.

Rules: ``shared/rules/wit_and_reason.md`` part II. The Aces to Sixes lie face up between the two
players; in turn each takes one, adding its value to the total. Making exactly 31 wins; a player
who cannot take a card without passing 31 loses.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from pydantic import Field

from games.adders.wit_and_reason import TARGET, RaceDeal, RaceOptions, RaceState
from games.cards import SUITS, Card, Rank, make_pack
from games.counting import CountingRound, CountingRules, CountingView, play_card
from games.counting_deal import DealTable
from games.engine import Action, Event, Game, PlayCard, Seat, Zone
from games.layout import Grid, Layout, Pile, Spot, finish, subtitle
from games.registry import declare

TAKES_SHOWN = 1
"""The takes a picture shows beside the total: with the grid beside them, more would make it wider
than a phone shows legibly (464 px)."""

VALUES = tuple(range(1, 7))
POOL_COUNTS = (4, 4, 4, 4, 4, 4)
RANKS = (Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX)
PACK: tuple[Card, ...] = tuple(make_pack(RANKS))


RANK_VALUES: dict[Rank, int] = {r: 1 if r is Rank.ACE else int(r) for r in {c.rank for c in PACK} if r is not None}


def card_value(card: Card) -> int:
    """Ace 1, the others their pips."""
    assert card.rank is not None
    return RANK_VALUES[card.rank]


def by_value(cards: Iterable[Card]) -> list[Card]:
    """Cards in value order (suits in the usual order within a value)."""
    suits = {s: i for i, s in enumerate(SUITS)}
    return sorted(cards, key=lambda c: (card_value(c), suits[c.suit] if c.suit is not None else 0))


def pool_counts(pool: Iterable[Card]) -> tuple[int, ...]:
    counts = [0] * 6
    for c in pool:
        counts[card_value(c) - 1] += 1
    return tuple(counts)


@cache
def solve(total: int, pool: tuple[int, ...]) -> int:
    """Perfect play for the player to move: 1 win, -1 loss (a player who cannot take a card loses)."""
    for i, count in enumerate(pool):
        value = i + 1
        if count and total + value == TARGET:
            return 1
    for i, count in enumerate(pool):
        value = i + 1
        if count and total + value < TARGET:
            rest = (*pool[:i], count - 1, *pool[i + 1 :])
            if solve(total + value, rest) == -1:
                return 1
    return -1


def winning_takes(total: int, pool: tuple[int, ...]) -> list[int]:
    """The values the player to move may take and still win against any defence."""
    out = []
    for i, count in enumerate(pool):
        value = i + 1
        if not count or total + value > TARGET:
            continue
        rest = (*pool[:i], count - 1, *pool[i + 1 :])
        if total + value == TARGET or solve(total + value, rest) == -1:
            out.append(value)
    return out


# --- the match ----------------------------------------------------------------------------------


class WitAndReason2Options(RaceOptions):
    pass


class PoolView(CountingView):
    """The race's table, with the cards still face up between the players."""

    pool: list[Card] = Field(default_factory=list)

    def table_lines(self) -> list[str]:
        lines = super().table_lines()
        lines = [line for line in lines if not line.startswith(("Stock:", "Cards in hand:"))]
        counts = pool_counts(self.pool)
        left = ", ".join(f"{v}×{c}" for v, c in zip(VALUES, counts, strict=True) if c)
        lines.insert(1, f"On the table: {left or 'nothing'}")
        return lines

    # -- the picture -------------------------------------------------------------------------------

    def pool_grid(self, playable: Iterable[Card] | None = None) -> Grid:
        """The cards left between the players, a column per value and a row per suit; with
        ``playable`` given, those are marked and the others dimmed."""
        can = set(playable) if playable is not None else None
        here = set(self.pool)
        cells = []
        for suit in SUITS:
            for rank in RANKS:
                c = Card(rank, suit)
                if c not in here:
                    cells.append(Spot(empty=True))
                elif can is None:
                    cells.append(Spot(c))
                else:
                    cells.append(Spot(c, mark="legal" if c in can else "dimmed"))
        return Grid(
            "On the table", tuple(s.symbol for s in SUITS), tuple(r.code for r in RANKS), tuple(cells), named_cells=False
        )

    def recent_pile(self) -> Pile:
        """The running total with the last :data:`TAKES_SHOWN` takes (the table's text lists them
        all), titled with the goal: "Race to 31"."""
        pile = self.pile_area(last=TAKES_SHOWN)
        return replace(pile, title=f"Race to {TARGET}") if pile.spots else pile

    def layout(self) -> Layout:
        """The running total with the last take, the cards still on the table and the scores
        (which race this is and who started it the subtitle and the table's text say)."""
        return finish(
            self,
            [self.recent_pile(), self.pool_grid(), self.scores_area()],
            self.table_facts(),
        )

    def hand_layout(self, playable: Iterable[Card] = ()) -> Layout:
        """Nobody holds a hand: the seat chooses from the table, so its picture is the table with
        the values it may take marked."""
        can = list(playable)
        areas = (self.recent_pile(), self.pool_grid(can if can else None))
        return Layout(title="", subtitle=subtitle(self), areas=areas)


class WitAndReason2Rules(CountingRules):
    """Each card adds its value and the total may not pass 31; suits do not matter."""

    def pack(self) -> list[Card]:
        return list(PACK)

    def hand_size(self, players: int) -> int:
        return 0


    def quick_plays(self, deal: CountingRound, candidates: Sequence[Card]) -> list[Action]:
        """One card of each value that fits: cards of equal value are interchangeable."""
        out: list[Action] = []
        seen: set[int] = set()
        for card in candidates:
            value = card_value(card)
            if value not in seen and deal.total + value <= TARGET:
                seen.add(value)
                out.append(play_card(card))
        return out


@dataclass
class WitAndReason2Deal(RaceDeal):
    """A race of Wit and Reason (II): the cards still face up between the players (what both take
    from), and the loss of a player who cannot take one."""

    pool: list[Card] = field(default_factory=list)

    def init_deal(self, table: DealTable) -> None:
        super().init_deal(table)
        self.pool = []

    def after_deal(self, table: DealTable, rest: list[Card]) -> list[Event]:
        self.pool = by_value(rest)
        return [table.event("pool", f"The {len(rest)} cards from Ace to Six are laid face up between the players.")]

    def on_stuck(self, table: DealTable, seat: Seat) -> list[Event]:
        """A player who cannot take a card without passing 31 has been driven beyond: they lose."""
        other = 1 - seat
        table.record_pass(seat)
        return self.win_race(
            table,
            other,
            f"{table.name(seat)} cannot take a card without passing 31, so {table.name(other)} wins the race.",
        )


class WitAndReason2State(RaceState[WitAndReason2Options]):
    """The shared face-up pool (what every seat plays from), and the loss of a player who cannot
    take a card."""

    rules_class = WitAndReason2Rules
    values = RANK_VALUES
    deal_class = WitAndReason2Deal
    deal: WitAndReason2Deal

    @property
    def pool(self) -> list[Card]:
        """The cards still face up between the players (the deal's)."""
        return self.deal.pool

    def source_cards(self, seat: Seat) -> list[Card]:
        return self.pool

    def take_card(self, seat: Seat, card: Card) -> None:
        self.pool.remove(card)

    def explain_illegal(self, seat: Seat, action: Action) -> str | None:
        if seat not in self.awaiting():
            return None  # the base says whose turn it is
        card = action.play if isinstance(action, PlayCard) else None
        if card is not None and card in self.pool and self.total + card_value(card) <= TARGET:
            offered = next(a for a in self.legal_plays(seat) if card_value(a.play) == card_value(card))  # type: ignore[attr-defined]
            return f"Suits do not matter here: take the {card_value(card)} on offer, {offered.label()}."
        if card is not None and card not in self.pool:
            return f"{card.short} is not on the table."
        return super().explain_illegal(seat, action)

    def view(self, seat: Seat | None) -> PoolView:
        return PoolView(**self.view_fields(seat))

    def view_fields(self, seat: Seat | None) -> dict[str, Any]:
        return {**super().view_fields(seat), "pool": list(self.pool)}

    def extra_zones(self) -> list[Zone]:
        return [Zone("table", self.pool)]


SUMMARY = """Two players, the 24 cards from Ace to Six (Ace counts 1). The cards lie face up between the players.
In turn each player takes any one of them, turns it down and adds its value to a running total that
starts at 0; a card may be taken only if the total stays at 31 or under. Whoever makes exactly 31 wins
the race; a player who cannot take a card without passing 31 loses it. Suits do not matter, so the
menu offers one card of each value.

This game is reconstructed: the printed description breaks off after its first words, and these are
the rules of the classic Thirty-one game played with these 24 cards.

Match: an even number of races (two by default, option rounds), the players taking turns to start
(first_dealer names who starts the first). One point per race won. With perfect play the starter wins
by taking a 1, a 2 or a 5 first.
"""

GAME = declare(
    Game(
        id="wit_and_reason_2",
        title="Wit and Reason (II)",
        min_players=2,
        max_players=2,
        options=WitAndReason2Options,
        state=WitAndReason2State,
        actions=[PlayCard],
        summary=SUMMARY,
    ),
    referee="games.referee.wit_and_reason_2:RefereeWitAndReason2State",
    bots={
        "easy": "games.players.wit_and_reason:WIT_AND_REASON_2_EASY",
        "strong": "games.players.wit_and_reason:WIT_AND_REASON_2_STRONG",
    },
    hinter="games.players.wit_and_reason:hint_wit_and_reason_2",
    analyser="games.players.wit_and_reason:analyse_wit_and_reason_2",
)
