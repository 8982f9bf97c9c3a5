"""Wit and Reason (I): Cotton's race to 31, red cards against black.

Rules: ``shared/rules/wit_and_reason.md`` part I. Each player holds a whole colour (two of every
rank), plays in turn onto a common total and must play if they can without passing 31; whoever
makes exactly 31 wins the race.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal, Protocol

from pydantic import Field

from games.adders.wit_and_reason import TARGET, RaceDeal, RaceMatch, RaceOptions, RaceState
from games.cards import Card, Colour, Rank, full_pack, sort_hand
from games.counting import CountingRound, CountingRules, CountingState, CountingView, play_card
from games.counting_deal import DealTable
from games.engine import Action, Event, Game, PlayCard, Seat
from games.registry import declare

VALUES = tuple(range(1, 11))
COLOUR_COUNTS = (2, 2, 2, 2, 2, 2, 2, 2, 2, 8)
"""How many cards of each value 1..10 one colour holds (Ten, Jack, Queen and King all count 10)."""


class WitAndReason1Options(RaceOptions):
    stalemate: Literal["draw", "last_player_wins"] = Field(
        "draw",
        description="When neither player can reach 31 any more: the race is drawn, or the last player to "
        "play a card wins it.",
    )


def rank_value(rank: Rank) -> int:
    """Ace 1, numerals their pips, courts 10."""
    if rank is Rank.ACE:
        return 1
    return 10 if rank.is_court else int(rank)


RANK_VALUES: dict[Rank, int] = {r: rank_value(r) for r in Rank}


def card_value(card: Card) -> int:
    assert card.rank is not None
    return RANK_VALUES[card.rank]


def playable_cards(total: int, hand: Iterable[Card]) -> list[Card]:
    return [c for c in hand if total + card_value(c) <= TARGET]


def stalemate_winner(last_player: int | None, rule: str) -> int | None:
    """Who wins a race in which neither player can reach 31: nobody (a draw) or the last to play."""
    return last_player if rule == "last_player_wins" else None


def value_counts(hand: Iterable[Card]) -> tuple[int, ...]:
    """How many cards of each value 1..10 a hand holds (the solver's view of a hand)."""
    counts = [0] * 10
    for c in hand:
        counts[card_value(c) - 1] += 1
    return tuple(counts)


@cache
def solve(total: int, mover: tuple[int, ...], other: tuple[int, ...], stalemate: str = "draw") -> int:
    """The result of perfect play for the player to move: 1 win, 0 draw, -1 loss.

    ``mover`` and ``other`` are value counts (see :func:`value_counts`). A player who cannot play
    passes and the other plays on alone; if neither can play the race is stalemated, and the last
    card was the other player's, so ``last_player_wins`` makes it a loss for the mover.
    """
    best = -2
    for i, count in enumerate(mover):
        value = i + 1
        if not count or total + value > TARGET:
            continue
        if total + value == TARGET:
            return 1
        rest = (*mover[:i], count - 1, *mover[i + 1 :])
        best = max(best, -solve(total + value, other, rest, stalemate))
        if best == 1:
            return 1
    if best > -2:
        return best
    if any(c and total + i + 1 <= TARGET for i, c in enumerate(other)):
        return -solve(total, other, mover, stalemate)  # the mover passes; the other plays on
    return 0 if stalemate == "draw" else -1


def winning_plays(
    total: int, mover: tuple[int, ...], other: tuple[int, ...], stalemate: str = "draw"
) -> list[int]:
    """The values the player to move may play and still win against any defence."""
    out = []
    for i, count in enumerate(mover):
        value = i + 1
        if not count or total + value > TARGET:
            continue
        if total + value == TARGET or -solve(total + value, other, _less(mover, value), stalemate) == 1:
            out.append(value)
    return out


def winning_openings(stalemate: str = "draw") -> list[int]:
    """The opening values with which the first player wins against any defence."""
    return winning_plays(0, COLOUR_COUNTS, COLOUR_COUNTS, stalemate)


def _less(counts: tuple[int, ...], value: int) -> tuple[int, ...]:
    i = value - 1
    return (*counts[:i], counts[i] - 1, *counts[i + 1 :])


# --- the match ----------------------------------------------------------------------------------


class WitAndReason1View(CountingView):
    """The race's table with what both players know of it: every card played this race (not only
    the recent ones), who holds which colour, and the table's stalemate ruling."""

    played: list[Card] = Field(default_factory=list)
    red_seat: Seat = 0
    stalemate: str = "draw"

    def other_counts(self) -> tuple[int, ...]:
        """The value counts of the other player's hand: their whole colour less what they played."""
        assert self.seat is not None
        colour = Colour.BLACK if self.seat == self.red_seat else Colour.RED
        spent = value_counts(c for c in self.played if c.card_colour is colour)
        return tuple(a - b for a, b in zip(COLOUR_COUNTS, spent, strict=True))


class WitAndReason1Rules(CountingRules):
    """Each card adds its value; the total may not pass 31 (the ``ceiling``)."""

    def pack(self) -> list[Card]:
        return full_pack()


    def quick_plays(self, deal: CountingRound, candidates: Sequence[Card]) -> list[Action]:
        # what the machinery would list (each card keeping the total at 31 or under), faster
        total = deal.total
        return [play_card(c) for c in candidates if total + RANK_VALUES[c.rank] <= TARGET]  # type: ignore[index]


class ColoursTable(DealTable, Protocol):
    """What a race of Wit and Reason (I) asks of its table beyond :class:`DealTable`: who holds red."""

    red_seat: Seat


class ColoursMatch(RaceMatch):
    """The match of races in which one player holds the red cards all match, drawn at random as
    it begins (before the first shuffle: the order of the draws is the game's)."""

    def init_match(self, state: CountingState[Any]) -> None:
        state.red_seat = state.rng.randrange(2)  # type: ignore[attr-defined]


COLOURS_MATCH = ColoursMatch()


@dataclass
class WitAndReason1Deal(RaceDeal):
    """A race of Wit and Reason (I): each player's colour, who has passed (they sit out the rest
    of the race), and the stalemate once neither can play."""

    passed: list[bool] = field(default_factory=list)

    def init_deal(self, table: DealTable) -> None:
        super().init_deal(table)
        self.passed = [False] * table.n

    def after_deal(self, table: DealTable, rest: list[Card]) -> list[Event]:
        """Each player takes a whole colour, whatever the shuffle gave."""
        colours: ColoursTable = table  # type: ignore[assignment]
        hands = self.cards.hands
        cards = [c for hand in hands for c in hand] + rest
        for seat in range(table.n):
            colour = Colour.RED if seat == colours.red_seat else Colour.BLACK
            hands[seat] = sort_hand(c for c in cards if c.card_colour is colour)
        red, black = table.name(colours.red_seat), table.name(1 - colours.red_seat)
        return [table.event("colours", f"{red} holds the red cards and {black} the black.")]

    def sits_out(self, seat: Seat) -> bool:
        """A player who has passed can never play again in this race: turns skip them."""
        return self.passed[seat]

    def notes(self, table: ColoursTable, colours: bool = True) -> list[str]:
        """Who holds which colour (unless ``colours`` is false) and who is out of this race."""
        notes = [f"{table.name(table.red_seat)} plays the red cards, {table.name(1 - table.red_seat)} the black."] if colours else []
        passed = [table.name(s) for s in range(table.n) if self.passed[s]]
        if passed:
            notes.append(f"Out of this race (cannot play again): {', '.join(passed)}")
        return notes

    def on_stuck(self, table: DealTable, seat: Seat) -> list[Event]:
        self.passed[seat] = True
        events = table.record_pass(seat)
        other = 1 - seat
        if not self.passed[other]:
            events.append(table.event("alone", f"{table.name(other)} plays on alone and needs exactly 31."))
        return events

    def on_blocked(self, table: DealTable) -> list[Event]:
        # The machinery calls this once every seat still taking turns has passed. The first pass of
        # a race also takes the passer out of the turns, so the other may yet be able to play on.
        if any(table.legal_plays(s) for s in table.turn_takers()):
            return []
        winner = stalemate_winner(self.last_player, table.options.stalemate)
        if winner is None:
            self.round.close()
            return [table.event("stalemate", "Neither player can make 31 any more: the race is drawn.")]
        return self.win_race(
            table,
            winner,
            f"Neither player can make 31 any more; {table.name(winner)} played last and wins the race.",
        )


class WitAndReason1State(RaceState[WitAndReason1Options]):
    """The colours (the match's), the passer who sits out the rest of the race and the stalemate
    (the deal's)."""

    rules_class = WitAndReason1Rules
    values = RANK_VALUES
    match = COLOURS_MATCH
    deal_class = WitAndReason1Deal
    deal: WitAndReason1Deal
    red_seat: Seat

    @property
    def passed(self) -> list[bool]:
        """Who has passed in this race (the deal's): they sit out the rest of it."""
        return self.deal.passed

    def view(self, seat: Seat | None) -> CountingView:
        """The race's view with the whole race's plays (the referee's scorekeeping view overrides it)."""
        return WitAndReason1View(
            **self.view_fields(seat),
            played=list(self.pile),
            red_seat=self.red_seat,
            stalemate=self.options.stalemate,
        )

    def view_notes(self, seat: Seat | None) -> list[str]:
        return super().view_notes(seat) + self.deal.notes(self)


SUMMARY = """Two players, a 52-card pack. One player holds all 26 red cards, the other all 26 black ones (drawn
at random for the match), so each has two cards of every rank. Ace counts 1, Two to Ten their pips,
Jack, Queen and King 10.

Players take turns adding a card to a running total that starts at 0 and may not go past 31; you must
play if you can. Whoever makes exactly 31 wins the race. A player who cannot play passes (the bot passes
for you) and can never play again that race, so the other plays on alone, trying to make 31.

Referee's ruling: if neither player can make 31 any more, the race is drawn (or, with
stalemate=last_player_wins, won by whoever played the last card).

Match: an even number of races (two by default, option rounds), the players taking turns to start
(first_dealer names who starts the first). One point per race won. With perfect play the starter wins
by opening with an 8 or a 9.
"""

GAME = declare(
    Game(
        id="wit_and_reason_1",
        title="Wit and Reason (I)",
        min_players=2,
        max_players=2,
        options=WitAndReason1Options,
        state=WitAndReason1State,
        actions=[PlayCard],
        summary=SUMMARY,
    ),
    referee="games.referee.wit_and_reason_1:RefereeWitAndReason1State",
    bots={
        "easy": "games.players.wit_and_reason:WIT_AND_REASON_1_EASY",
        "strong": "games.players.wit_and_reason:WIT_AND_REASON_1_STRONG",
    },
    hinter="games.players.wit_and_reason:hint_wit_and_reason_1",
    analyser="games.players.wit_and_reason:analyse_wit_and_reason_1",
)
