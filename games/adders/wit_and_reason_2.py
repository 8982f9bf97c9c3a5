"""Wit and Reason (II): the 24-card race to 31 (Dudeney's Thirty-one game), as reconstructed.

Rules: ``shared/rules/wit_and_reason.md`` part II. The Aces to Sixes lie face up between the two
players; in turn each takes one, adding its value to the total. Making exactly 31 wins; a player
who cannot take a card without passing 31 loses.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from random import Random

from pydantic import Field

from games.adders.wit_and_reason import TARGET, RaceDeal, RaceOptions, RaceState
from games.cards import SUITS, Card, Rank, make_pack
from games.counting import CardSource, CountingRound, CountingRules, CountingView, play_card
from games.counting_deal import DealTable
from games.engine import Action, Event, Game, PlayCard, Seat, Zone
from games.layout import Grid, Layout, Pile, Spot, finish, generic_hand_layout, subtitle
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

    def hand_layout(self, playable: Iterable[Card] = (), context: bool = True) -> Layout:
        """Nobody holds a hand: the seat chooses from the table, so its picture is the table with
        the values it may take marked (nothing without ``context``: it all changes with each move)."""
        if not context:
            return generic_hand_layout(self, playable, context)
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
class PoolCards(CardSource):
    """What the seats play from in a race: nobody holds a hand; every seat takes from the cards
    lying face up between the players (the same for the online and the refereed game)."""

    pool: list[Card]
    n: int

    @property
    def hands(self) -> list[list[Card]]:
        return [[] for _ in range(self.n)]

    @property
    def stock(self) -> list[Card]:
        return []

    @property
    def set_aside(self) -> list[Card]:
        return []

    def candidates(self, seat: Seat) -> list[Card]:
        return self.pool

    def count(self, seat: Seat) -> int:
        return 0

    def stock_size(self) -> int:
        return 0

    def take(self, seat: Seat, card: Card) -> None:
        self.pool.remove(card)

    def draw(self, seat: Seat) -> Card | None:
        raise AssertionError("nobody draws in Wit and Reason (II)")

    def restock(self, cards: list[Card], rng: Random) -> None:
        raise AssertionError("nobody draws in Wit and Reason (II)")

    def place(self, stock: list[Card] | None = None, aside: list[Card] | None = None) -> None:
        assert not stock and not aside, "every card left after the deal lies in the pool"


@dataclass
class WitAndReason2Deal(RaceDeal):
    """A race of Wit and Reason (II): the cards still face up between the players (what both take
    from: :class:`PoolCards`), the refusal of a card not on offer, and the loss of a player who
    cannot take one."""

    @property
    def pool(self) -> list[Card]:
        """The cards still face up between the players."""
        return self.cards.pool if isinstance(self.cards, PoolCards) else []

    def after_deal(self, table: DealTable, rest: list[Card]) -> list[Event]:
        self.cards = PoolCards(by_value(rest), table.n)
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

    def refusal(self, table: DealTable, seat: Seat, action: Action) -> str | None:
        """Why a card is refused where it is not the one on offer (another suit of a value offered:
        suits do not matter) or not on the table; ``None`` leaves it to the shared refusals."""
        if seat not in table.awaiting():
            return None  # the base says whose turn it is
        card = action.play if isinstance(action, PlayCard) else None
        if card is None:
            return None
        if card in self.pool and self.round.total + card_value(card) <= TARGET:
            offered = next(a for a in table.legal_plays(seat) if card_value(a.play) == card_value(card))  # type: ignore[attr-defined]
            return f"Suits do not matter here: take the {card_value(card)} on offer, {offered.label()}."
        if card not in self.pool:
            return f"{card.short} is not on the table."
        return None

    def zones(self) -> list[Zone]:
        """The cards face up between the players (public)."""
        return [Zone("table", self.pool)]


class WitAndReason2State(RaceState[WitAndReason2Options]):
    """A race from the shared face-up pool (the deal's), with a loss for a player who cannot take
    a card."""

    rules_class = WitAndReason2Rules
    values = RANK_VALUES
    deal_class = WitAndReason2Deal
    deal: WitAndReason2Deal

    @property
    def pool(self) -> list[Card]:
        """The cards still face up between the players (the deal's)."""
        return self.deal.pool

    def explain_illegal(self, seat: Seat, action: Action) -> str | None:
        return self.deal.refusal(self, seat, action) or super().explain_illegal(seat, action)

    def view(self, seat: Seat | None) -> PoolView:
        return PoolView(**self.view_fields(seat), pool=list(self.pool))

    def extra_zones(self) -> list[Zone]:
        return self.deal.zones()


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
