"""The shared adding-up machinery, on two small games made up for the purpose:

* *Twenty* (2-4 players): Two to Nine in spades and hearts at pip value, 3 cards each, draw after
  playing, the total may not pass 20; a Nine reverses play, an Eight sets any total 0-20, a Seven
  counts +7 or -7; a player with no legal card loses a life (2 each), and the stock is remade from
  the pile when it runs out. The last player with lives wins.
* *Stall* (2-3 players): Two to Six of spades, all dealt, ceiling 9, forced passes showing the
  hand; when nobody can play the deal ends; one point per card played.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from games.cards import Card, Rank, Suit, card, make_pack
from games.counting import (
    CountingFacts,
    CountingMatch,
    CountingOptions,
    CountingState,
    PlayAs,
    multiples_crossed,
    signed,
    stack_deck,
    targets_crossed,
)
from games.engine import Action, BaseOptions, Event, Game, IllegalAction, Outcome, PlayCard, Seat
from tests.playout import run_playouts


def cards(codes: str) -> list[Card]:
    return [card(c) for c in codes.split()]


TWENTY_PACK = make_pack([Rank(r) for r in range(2, 10)], [Suit.SPADES, Suit.HEARTS])


class TwentyMatch(CountingMatch[CountingFacts]):
    """Elimination: the match ends when one seat is left; the order out ranks the others."""

    def over(self, state: CountingState[Any]) -> bool:
        return len(state.active_seats()) <= 1

    def outcome(self, state: CountingState[Any]) -> Outcome:
        assert isinstance(state, TwentyState)
        order = state.active_seats() + state.order_out[::-1]
        ranks = [order.index(s) + 1 for s in range(state.n)]
        return Outcome.from_scores([0] * state.n, ranks=ranks)


class TwentyState(CountingState[BaseOptions]):
    draw_timing = "after"
    floor = 0
    ceiling = 20
    match = TwentyMatch()

    def init_match(self) -> None:
        self.lives = [2] * self.n
        self.order_out: list[Seat] = []

    def pack(self) -> list[Card]:
        return list(TWENTY_PACK)

    def hand_size(self) -> int:
        return 3

    def card_value(self, c: Card) -> int:
        assert c.rank is not None
        return int(c.rank)

    def value_choices(self, c: Card) -> Sequence[int] | None:
        return (7, -7) if c.rank == Rank.SEVEN else None

    def total_choices(self, c: Card) -> Sequence[int] | None:
        return range(21) if c.rank == Rank.EIGHT else None

    def after_play(self, seat: Seat, action: Action, before: int, after: int) -> list[Event]:
        if action.card is not None and action.card.rank == Rank.NINE:
            self.reverse()
            self.note("reverse")
        return []

    def on_stock_empty(self) -> list[Event]:
        return self.restock_from_pile(keep=1)

    def on_stuck(self, seat: Seat) -> list[Event]:
        events = self.lose_life(seat)
        if self.out[seat]:
            self.order_out.append(seat)
        self.close_deal()
        return events



TWENTY = Game(
    id="twenty_test",
    title="Twenty",
    min_players=2,
    max_players=4,
    options=BaseOptions,
    state=TwentyState,
    actions=[PlayCard, PlayAs],
    summary="test game",
)


STALL_PACK = make_pack([Rank(r) for r in range(2, 7)], [Suit.SPADES])


class StallState(CountingState[CountingOptions]):
    ceiling = 9
    show_hand_on_pass = True

    def pack(self) -> list[Card]:
        return list(STALL_PACK)

    def hand_size(self) -> int:
        return 5 // self.n

    def after_deal(self, rest: list[Card]) -> list[Event]:
        self.set_aside = rest
        return []

    def card_value(self, c: Card) -> int:
        assert c.rank is not None
        return int(c.rank)

    def after_play(self, seat: Seat, action: Action, before: int, after: int) -> list[Event]:
        self.add_points(seat, 1)
        return []


STALL = Game(
    id="stall_test",
    title="Stall",
    min_players=2,
    max_players=3,
    options=CountingOptions,
    state=StallState,
    actions=[PlayCard],
    summary="test game",
)


# --- pure helpers ---------------------------------------------------------------------------------


def test_targets_crossed() -> None:
    obstacles = (55, 66)
    assert targets_crossed(50, 55, obstacles) == ([55], [])
    assert targets_crossed(54, 56, obstacles) == ([], [55])
    assert targets_crossed(58, 55, obstacles) == ([55], [])
    assert targets_crossed(67, 54, obstacles) == ([], [55, 66])
    assert targets_crossed(55, 52, obstacles) == ([], []), "leaving a target is neither"
    assert targets_crossed(55, 55, obstacles) == ([], []), "standing still makes nothing"


def test_multiples_crossed() -> None:
    assert multiples_crossed(10, 25, 25) == ([25], [])
    assert multiples_crossed(16, 26, 25) == ([], [25])
    assert multiples_crossed(105, 95, 25) == ([], [100])
    assert multiples_crossed(10, 0, 25) == ([], [])
    assert multiples_crossed(10, 0, 25, include_zero=True) == ([0], [])
    assert multiples_crossed(-3, 3, 25) == ([], [])
    assert multiples_crossed(-3, 3, 25, include_zero=True) == ([], [0])
    assert multiples_crossed(40, 101, 25) == ([], [50, 75, 100])


def test_signed() -> None:
    assert signed(4) == "+4" and signed(-1) == "\u22121" and signed(0) == "0"


def test_stack_deck() -> None:
    deck = stack_deck(TWENTY_PACK, [cards("2S 3S"), cards("4S 5S")], cards("9H"), hand_size=3)
    assert deck[:4] == cards("2S 4S 3S 5S") and deck[6] == card("9H")
    assert sorted(map(str, deck)) == sorted(map(str, TWENTY_PACK))
    with pytest.raises(ValueError, match="not all in the pack"):
        stack_deck(TWENTY_PACK, [cards("AS")])
    with pytest.raises(ValueError, match="same number"):
        stack_deck(TWENTY_PACK, [cards("2S 3S"), cards("4S")], hand_size=1)


def test_play_as_labels_and_menus() -> None:
    q = PlayAs(play=card("QS"), value=-3)
    assert q.label() == "Q♠ as \u22123" and q.choice_path() == ("Spades", "Q♠", "Q♠ as \u22123")
    ace = PlayAs(play=card("AC"), value=57, sets_total=True)
    assert ace.label() == "A♣ \u2192 57" and ace.choice_path() == ("Clubs", "A♣", "50-74", "A♣ \u2192 57")


# --- Twenty ---------------------------------------------------------------------------------------


def twenty(hands: list[list[Card]], then: Sequence[Card] = (), players: int = 3) -> TwentyState:
    deck = stack_deck(TWENTY_PACK, hands, then, hand_size=3)
    names = [f"P{i + 1}" for i in range(players)]
    state = TWENTY.start(names, {"first_dealer": players}, seed=5, deck=deck)
    assert isinstance(state, TwentyState)
    return state


def test_draw_after_play_and_announced_total() -> None:
    state = twenty([cards("2S"), cards("3S"), cards("4S")], cards("6H 5H"))
    assert state.to_play == 0 and state.total == 0 and len(state.stock) == 16 - 9
    state.apply(0, PlayCard(play=card("2S")))
    assert state.total == 2 and card("6H") in state.hands[0] and len(state.hands[0]) == 3
    assert state.to_play == 1
    assert any(e.to == 0 and "6♥" in e.text for e in state.log), "the draw is told to the drawer only"
    assert state.view(None).recent[-1].total == 2


def test_reversal() -> None:
    state = twenty([cards("9S"), cards("2S"), cards("3S"), cards("4S")], players=4)
    state.apply(0, PlayCard(play=card("9S")))
    assert state.direction == -1 and state.to_play == 3, "after a reversal the seat on the right plays"
    state.apply(3, PlayCard(play=card("4S")))
    assert state.to_play == 2
    assert "play goes to the right" in "\n".join(state.view(None).text_lines())


def test_choices_and_refusals() -> None:
    state = twenty([cards("7S 8S 9S"), cards("2S 5H"), cards("3S")])
    legal = state.legal_actions(0)
    assert PlayAs(play=card("7S"), value=7) in legal and PlayAs(play=card("7S"), value=-7) not in legal
    assert sum(1 for a in legal if isinstance(a, PlayAs) and a.sets_total) == 21
    before = state.fingerprint()
    with pytest.raises(IllegalAction, match="below 0"):
        state.apply(0, PlayAs(play=card("7S"), value=-7))
    with pytest.raises(IllegalAction, match="Say how your 7♠ counts: 7♠ as \\+7, 7♠ as \u22127"):
        state.apply(0, PlayCard(play=card("7S")))
    with pytest.raises(IllegalAction, match="Say how your 8♠ counts"):
        state.apply(0, PlayAs(play=card("8S"), value=25, sets_total=True))
    with pytest.raises(IllegalAction, match="You do not hold Two of Hearts"):
        state.apply(0, PlayCard(play=card("2H")))
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(1, PlayCard(play=card("2S")))
    assert state.fingerprint() == before
    state.apply(0, PlayAs(play=card("8S"), value=17, sets_total=True))
    assert state.total == 17
    with pytest.raises(IllegalAction, match="from 17 to 22, past 20"):
        state.apply(1, PlayCard(play=card("5H")))


def test_stuck_player_loses_a_life_and_the_next_deal_starts() -> None:
    state = twenty([cards("8S"), cards("6S 5S 4S"), cards("2S")])
    state.apply(0, PlayAs(play=card("8S"), value=20, sets_total=True))
    # P2 holds 6, 5, 4: all pass 20
    assert state.lives == [2, 1, 2]
    assert state.deal_no == 2 and state.dealer == 0 and state.to_play == 1


def test_elimination_skips_the_seat_and_ends_the_match() -> None:
    for state in run_playouts(TWENTY, 3, matches=6, seed=4, deep_every=5):
        assert isinstance(state, TwentyState) and state.lives is not None and state.outcome is not None
        assert sum(1 for v in state.lives if v > 0) == 1
        assert state.outcome.winners == [s for s in range(3) if state.lives[s] > 0]


def test_restock_keeps_the_top_card() -> None:
    state = twenty([cards("2S"), cards("3S"), cards("4S")])
    state.pile, state.stock = list(state.stock), []  # as if the stock had all been played
    under = list(state.pile)
    state.apply(0, PlayCard(play=card("2S")))
    assert state.pile == [card("2S")], "the card just played stays on the pile"
    drawn = [c for c in state.hands[0] if c in under]
    assert len(drawn) == 1 and Counter(state.stock + drawn) == Counter(under)
    assert any(e.kind == "restock" for e in state.log)


def test_state_copies_are_independent() -> None:
    state = twenty([cards("2S"), cards("3S"), cards("4S")])
    clone = state.clone()
    assert clone.fingerprint() == state.fingerprint()
    clone.apply(0, PlayCard(play=card("2S")))
    assert state.total == 0 and card("2S") in state.hands[0] and state.turn == 0
    assert clone.rng is not state.rng and clone.hands[1] is not state.hands[1]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_twenty_playouts(players: int) -> None:
    run_playouts(TWENTY, players, matches=6, seed=players, deep_every=5)


# --- Stall -------------------------------------------------------------------------------------


def test_forced_pass_shows_hand_and_block_ends_the_deal() -> None:
    # P1: 5 6, P2: 2 3 (4 set aside). P1 plays 6 (6); P2 plays 3 (9); P1 stuck (5 -> 14), shows 5;
    # P2 holds 2 -> 11, stuck too: blocked, the deal ends.
    deck = stack_deck(STALL_PACK, [cards("5S 6S"), cards("2S 3S")], cards("4S"))
    state = STALL.start(["P1", "P2"], {"first_dealer": 2}, seed=1, deck=deck)
    assert isinstance(state, StallState)
    state.apply(0, PlayCard(play=card("6S")))
    state.apply(1, PlayCard(play=card("3S")))
    kinds = [e.kind for e in state.log]
    assert kinds.count("pass") == 2 and "blocked" in kinds
    assert state.deal_no == 2 and state.scores == [1, 1]
    shown = next(e.text for e in state.log if e.kind == "pass")
    assert shown.startswith("P1") and "5♠" in shown


@pytest.mark.parametrize("players", [2, 3])
def test_stall_playouts(players: int) -> None:
    finals = run_playouts(STALL, players, {"rounds": 2}, matches=10, seed=players, deep_every=3)
    assert all(s.deal_no == 2 * players for s in finals)
