"""Twenty-Nine's strong player at three or more (games/players/twenty_nine.py): what it reads of
the others' hands, the deals it samples, the playouts it judges by, and its choices."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.adders.twenty_nine import card_value
from games.cards import card, parse_cards
from games.counting import CountingView, play_card
from games.players import bot_player
from games.players.adders import TWENTY_NINE
from games.players.twenty_nine import Deal, TwentyNineStrong, cards_won, known_lacks, playout, sample_hands
from games.registry import get_game
from tests.players.test_counting_bots import plays, view_of

PAIRS = [0, 1, 0, 1]
"""Seat to side at four: partners sit opposite."""


def counts(values: str) -> list[int]:
    """A hand as counts of each value (``"10 9 1"``)."""
    hand = [0] * 11
    for v in values.split():
        hand[int(v)] += 1
    return hand


def test_a_pass_and_a_pile_left_untaken_say_what_a_seat_cannot_hold() -> None:
    # seat 1 passed on 26 (so holds nothing up to 3); seat 2 played a Five on 20 when a Nine would
    # have made 29 (so holds no Nine); seat 3 made 29, which says nothing of what it kept
    recent = [
        {"seat": 1, "card": None, "total": 26},
        {"seat": 2, "card": card("5S"), "total": 25},
        {"seat": 3, "card": card("4S"), "total": 0, "note": "takes 5 cards"},
        {"seat": 3, "card": card("3S"), "total": 3},
    ]
    view = view_of("twenty_nine", "KS 4D", 3, players=4, recent=recent)
    assert known_lacks(view) == {1: {1, 2, 3}, 2: {9}}


def test_cards_won_counts_each_taken_pile_for_the_takers_side() -> None:
    played = [("7S", 7), ("9H", 16), ("KS", 17), ("10C", 27), ("2S", 29), ("5D", 5), ("9D", 14)]
    recent = [
        {"seat": s % 4, "card": card(c), "total": 0 if t == 29 else t, "note": "takes 5 cards" if t == 29 else ""}
        for s, (c, t) in enumerate(played)
    ]
    recent[5]["seat"], recent[6]["seat"] = 0, 1  # the taker (seat 0) leads again
    view = view_of("twenty_nine", "AS", 14, players=4, seat=2, recent=recent)
    assert cards_won(view, PAIRS, 2) == [5, 0]


def test_sampled_hands_keep_to_the_unseen_cards_and_what_each_seat_cannot_hold() -> None:
    pool = parse_cards("AS KS QS 2S 3S 4S 9S 9D 10S 10D 8H 7H")
    values = Counter(card_value(c) for c in pool)
    sizes = [0, 4, 4, 4]
    lacks = {1: {1, 2, 3, 4}, 3: {9, 10}}
    for seed in range(50):
        hands = sample_hands(list(pool), sizes, lacks, random.Random(seed))
        assert [sum(h) for h in hands] == sizes
        dealt = Counter({v: sum(h[v] for h in hands) for v in range(11)})
        assert not dealt - values
        assert not any(hands[1][v] for v in (1, 2, 3, 4)) and not any(hands[3][v] for v in (9, 10))
    # a seat that cannot hold any of what is left is dealt any cards rather than none
    hands = sample_hands(parse_cards("AS KS"), [0, 2], {1: {1}}, random.Random(0))
    assert hands[1][1] == 2


def test_a_playout_takes_piles_and_ends_at_a_block() -> None:
    # 10, 10 and 9 make 29 for seats 0 and 2 (three cards); seat 3's Five is left alone on the
    # pile when every card is out, and belongs to nobody
    deal = Deal([counts("10"), counts("10"), counts("9"), counts("5")], 0, 0, [2, 4], 0)
    assert playout(deal, 0, 4, PAIRS, 0, random.Random(0)) == [5, 4]
    # on 25 nobody holds a card of 4 or less: a block, and each side counts the cards it holds
    deal = Deal([counts("5 9"), counts("6"), counts("7"), counts("8 8 8")], 25, 3, [0, 0], 0)
    assert playout(deal, 0, 4, PAIRS, 0, random.Random(0)) == [3, 4]


def test_strong_at_four_does_not_hand_the_next_opponent_a_29() -> None:
    # on 20 with an Eight or a Two: the Eight leaves 28, which any Ace or court makes 29; every Seven
    # is gone, so after the Two the next player cannot take the pile
    hand = "8S 2H"
    gone = parse_cards("7S 7H 7D 7C")
    recent = [{"seat": s, "card": c, "total": 20} for s, c in zip((1, 2, 3, 0), gone, strict=True)]
    view = view_of("twenty_nine", hand, 20, players=4, recent=recent, hand_counts=[2, 10, 10, 10])
    player = bot_player("twenty_nine", "strong")
    assert {player.choose(view, plays(hand), random.Random(s)) for s in range(3)} == {play_card(card("2H"))}


def test_strong_at_four_plays_only_legal_cards_through_a_whole_match() -> None:
    state: Any = get_game("twenty_nine").start(["A", "B", "C", "D"], {}, seed=3)
    players = [TwentyNineStrong(TWENTY_NINE, samples=8), bot_player("twenty_nine", "easy")] * 2
    rng = random.Random(3)
    while not state.is_over:
        seat = min(state.awaiting())
        view = state.view(seat)
        assert isinstance(view, CountingView)
        legal = state.legal_actions(seat)
        action = players[seat].choose(view, legal, rng)
        assert action in legal
        state.apply(seat, action)


def test_the_strong_player_reads_the_sides_the_table_is_seated_in() -> None:
    """The ``teams`` option decides who partners whom; the player takes the sides from its view
    (every seat for itself at four with teams=none, three a side at six with two_teams), not the
    standard pairs, so it never feeds an opponent it took for a partner."""
    for players, teams, sides in ((4, "none", [0, 1, 2, 3]), (6, "two_teams", [0, 1, 0, 1, 0, 1]), (4, "standard", [0, 1, 0, 1])):
        state = get_game("twenty_nine").start([f"P{i}" for i in range(players)], {"teams": teams}, seed=3)
        view = state.view(0)
        assert isinstance(view, CountingView)
        assert view.side_of == sides and TWENTY_NINE.sides(view) == sides
        assert TWENTY_NINE.care(view, 0, 2) == (1.0 if sides[2] == 0 else TWENTY_NINE.care(view, 0, 1))
