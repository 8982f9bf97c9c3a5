"""Twenty-Nine: values, Tens removed, sides, the worked examples, refusals and playouts."""

from __future__ import annotations

import pytest

from games.adders.twenty_nine import (
    another_trick_possible,
    can_play,
    card_value,
    deal_winners,
    is_blocked,
    playable_cards,
    side_card_counts,
    side_layout,
    tens_to_remove,
)
from games.cards import card, full_pack, parse_cards


def test_values_and_pack_total() -> None:
    assert [card_value(card(c)) for c in ("AS", "2H", "9D", "10C", "JS", "QH", "KD")] == [1, 2, 9, 10, 1, 1, 1]
    assert sum(card_value(c) for c in full_pack()) == 232 == 8 * 29


@pytest.mark.parametrize(
    ("players", "tens", "each", "total", "tricks", "left"),
    [(2, 0, 26, 232, 8, 0), (3, 1, 17, 222, 7, 19), (4, 0, 13, 232, 8, 0), (5, 2, 10, 212, 7, 9),
     (6, 4, 8, 192, 6, 18), (7, 3, 7, 202, 6, 28), (8, 4, 6, 192, 6, 18)],
)
def test_tens_removed_table(players: int, tens: int, each: int, total: int, tricks: int, left: int) -> None:
    assert tens_to_remove(players) == tens
    assert (52 - tens) // players == each and (52 - tens) % players == 0
    assert 232 - 10 * tens == total
    assert divmod(total, 29) == (tricks, left)


def test_play_example_reaches_29() -> None:
    total = 0
    for code in ("7S", "9H", "KD", "10C", "2S"):
        assert can_play(total, card(code))
        total += card_value(card(code))
    assert total == 29


def test_pass_example() -> None:
    assert playable_cards(27, parse_cards("5S 6H 7D 8C")) == []
    assert playable_cards(27, parse_cards("AH")) == [card("AH")]
    assert playable_cards(28, parse_cards("3C")) == []
    assert playable_cards(28, parse_cards("QS")) == [card("QS")]


def test_block_example() -> None:
    hands = [parse_cards("5S"), parse_cards("6H"), parse_cards("9D"), parse_cards("10C")]
    assert is_blocked(28, hands)
    assert another_trick_possible(28, [c for h in hands for c in h])
    assert not is_blocked(28, [*hands, parse_cards("AS")])


def test_last_trick_not_played_with_three() -> None:
    # three players: after seven tricks 19 points remain, which can never make an eighth 29
    assert not another_trick_possible(0, parse_cards("10S 9H"))
    assert another_trick_possible(0, parse_cards("10S 9H KD 9C"))


def test_side_layouts() -> None:
    assert side_layout(4, "standard") == [[0, 2], [1, 3]]
    assert side_layout(6, "standard") == [[0, 3], [1, 4], [2, 5]]
    assert side_layout(8, "standard") == [[0, 4], [1, 5], [2, 6], [3, 7]]
    assert side_layout(6, "two_teams") == [[0, 2, 4], [1, 3, 5]]
    assert side_layout(8, "two_teams") == [[0, 2, 4, 6], [1, 3, 5, 7]]
    assert side_layout(3, "standard") == [[0], [1], [2]]
    assert side_layout(4, "none") == [[0], [1], [2], [3]]
    with pytest.raises(ValueError):
        side_layout(5, "pairs")


def test_majority_and_unplayed_cards() -> None:
    assert side_card_counts([20, 28], [2, 1]) == [22, 29]
    assert side_card_counts([20, 28], [2, 1], "ignore") == [20, 28]
    assert deal_winners([22, 29]) == [1]
    assert deal_winners([26, 26]) == []
    assert deal_winners([20, 20, 11]) == []
    assert deal_winners([20, 19, 12]) == [0]
