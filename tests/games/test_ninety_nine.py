"""Ninety-Nine: the value table, the worked examples of the rules file, refusals and playouts."""

from __future__ import annotations

import pytest

from games.adders.ninety_nine import (
    NinetyNineOptions,
    can_play,
    is_bust,
    new_total,
    playable_cards,
    reverses,
)
from games.cards import card, parse_cards

RED_ONE = NinetyNineOptions(red_ace_value=1)


@pytest.mark.parametrize(
    ("code", "after"),
    [("3S", 40), ("4H", 40), ("10D", 30), ("9C", 99), ("JS", 50), ("QH", 50), ("KD", 50),
     ("2C", 42), ("5S", 45), ("6H", 46), ("7D", 47), ("8C", 48), ("AH", 42), ("AD", 42)],
)
def test_values_on_forty(code: str, after: int) -> None:
    assert new_total(40, card(code)) == after


def test_jack_reverses_and_black_ace_sets_any_total() -> None:
    assert reverses(card("JH")) and not reverses(card("QH"))
    assert new_total(40, card("AS"), chosen=0) == 0
    assert new_total(40, card("AC"), chosen=99) == 99
    assert new_total(40, card("AC"), chosen=40) == 40
    with pytest.raises(ValueError):
        new_total(40, card("AS"))
    with pytest.raises(ValueError):
        new_total(40, card("AS"), chosen=100)


def test_red_ace_option() -> None:
    assert new_total(40, card("AH"), RED_ONE) == 41
    assert new_total(40, card("AD")) == 42


def test_legal_plays_at_99() -> None:
    legal = {"3S", "4D", "10H", "AS", "AC", "9D"}
    for c in parse_cards("AS AC AH AD 2S 3S 4D 5C 6H 7S 8D 9D 10H JC QS KH"):
        assert can_play(99, c) == (c.code in legal), c
    assert not can_play(99, card("9D"), NinetyNineOptions(nine_on_99="forbid"))
    assert can_play(98, card("9D"), NinetyNineOptions(nine_on_99="forbid"))
    assert not can_play(99, card("AH"), RED_ONE)


def test_at_95_only_the_black_ace() -> None:
    hand = parse_cards("7H AC QD")
    assert playable_cards(95, hand) == [card("AC")]
    assert not is_bust(95, hand)
    assert is_bust(95, parse_cards("7H QD"))


def test_below_zero_options() -> None:
    assert new_total(4, card("10S")) == -6
    assert can_play(4, card("10S"))
    assert not can_play(4, card("10S"), NinetyNineOptions(below_zero="forbid"))
    assert can_play(10, card("10S"), NinetyNineOptions(below_zero="forbid"))
    assert new_total(4, card("10S"), NinetyNineOptions(below_zero="clamp0")) == 0
    assert can_play(4, card("10S"), NinetyNineOptions(below_zero="clamp0"))


def test_reversal_example_bust_hand() -> None:
    # after A 5, B J, A 9, D 4 the total is 99; C's 2, 6 and K all pass it
    total = 0
    for code in ("5S", "JS", "9H", "4C"):
        total = new_total(total, card(code))
    assert total == 99
    assert is_bust(total, parse_cards("2D 6H KS"))
