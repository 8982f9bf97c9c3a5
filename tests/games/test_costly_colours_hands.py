"""Costly Colours hand scoring: the show table of the rules file and hands worked out by hand,
plus the pure scoring of the play (sequences, 15/25/31, the go) and the small pegs."""

from __future__ import annotations

import pytest

from games.cards import JOKER, Suit, card, parse_cards
from games.costly_colours_scoring import (
    COLOURS,
    JACKS_AND_DEUCES,
    PAIRS,
    POINTS,
    card_value,
    colours_part,
    go_points,
    heels_points,
    mog_gift_points,
    score_play_card,
    score_show,
    sequence_length,
    sequence_rank,
    unclaimed_gift_part,
)

# own three cards, deck card (its suit is trumps), then points, jacks & deuces, pairs, colours, total
RULES_EXAMPLES = [
    # the worked examples of costly_colours.md section 6
    ("5H 5D 10C", "5S", 13, 0, 9, 0, 22),
    ("5H 4H 8H", "JH", 2, 0, 0, 6, 8),
    ("JS 2H 7S", "8S", 5, 6, 0, 3, 14),
    ("KH QH 5H", "AD", 7, 0, 0, 5, 12),
    ("9C 6C 6S", "10S", 14, 0, 2, 4, 20),
    ("JH JS JC", "JD", 0, 6, 18, 0, 24),
    ("2D AD KD", "QD", 0, 4, 0, 6, 10),
]

WORKED_BY_HAND = [
    # H1 5♣ 5♦ 5♥ + 5♠: the four three-card groups of fives make 15 (4 x 3 = 12); all four are 20.
    #    Four fives: double prial 18. Two red, two black: no colours. 12 + 18 = 30.
    ("5C 5D 5H", "5S", 12, 0, 18, 0, 30),
    # H2 10♠ J♠ Q♠ + K♠: sums 20, 30, 40 only: no points. J♠ is a trump Jack: 4. Four spades: 6.
    ("10S JS QS", "KS", 0, 4, 0, 6, 10),
    # H3 7♥ 8♥ A♣ + 6♦: 7+8 = 15 (2), 8+1+6 = 15 (3); no 25; all four 22. Three red of two suits: 2.
    ("7H 8H AC", "6D", 5, 0, 0, 2, 7),
    # H4 2♣ 2♦ J♣ + 3♣ (clubs trumps): 2+10+3 = 15 with either deuce (3 + 3); 2+2+10 = 14; all 17.
    #    Deuce of trumps 4, deuce of diamonds 2, Jack of trumps 4 = 10. Pair of deuces 2.
    #    2♣ J♣ 3♣: three in suit 3 (2♦ is the odd colour). 6 + 10 + 2 + 3 = 21.
    ("2C 2D JC", "3C", 6, 10, 2, 3, 21),
    # H5 K♦ Q♣ 5♠ + 5♥: each court with each five = 15 (4 x 2 = 8); K+Q+each five = 25 (2 x 3 = 6);
    #    all four 30. Pair of fives 2. Two of each colour: nothing. 14 + 2 = 16.
    ("KD QC 5S", "5H", 14, 0, 2, 0, 16),
    # H6 4♠ 6♠ 9♣ + 6♣: 9+6 twice = 15 (2 x 2); all four 4+6+9+6 = 25 (4). Pair of sixes 2.
    #    Four black, two spades two clubs: 4. 8 + 2 + 4 = 14.
    ("4S 6S 9C", "6C", 8, 0, 2, 4, 14),
    # H7 A♥ 2♥ 3♥ + 4♥: total 10, no points; sequences never count in the show. 2♥ trump deuce 4.
    #    Four hearts 6. 4 + 6 = 10.
    ("AH 2H 3H", "4H", 0, 4, 0, 6, 10),
    # H8 10♦ 10♥ 10♣ + A♠: no 15 or 25 (10, 11, 20, 21, 30); all four 31 (4). Prial of tens 9.
    #    Red 10♦ 10♥, black 10♣ A♠: nothing. 4 + 9 = 13.
    ("10D 10H 10C", "AS", 4, 0, 9, 0, 13),
    # H9 J♦ 2♠ 9♦ + 6♦ (diamonds trumps): 9+6 = 15 (2); J+9+6 = 25 (3); all four 27.
    #    J♦ trump 4, 2♠ 2. Three diamonds: 3. 5 + 6 + 3 = 14.
    ("JD 2S 9D", "6D", 5, 6, 0, 3, 14),
    # H10 Q♠ 3♥ 2♣ + K♦: 10+3+2 = 15 with the Queen and with the King (3 + 3); all four 25 (4).
    #     2♣ (not trumps) 2. Two red, two black. 10 + 2 = 12.
    ("QS 3H 2C", "KD", 10, 2, 0, 0, 12),
    # H11 8♣ 8♠ 8♥ + 7♣: 8+7 three ways (3 x 2 = 6); all four 31 (4). Prial of eights 9.
    #     Black 8♣ 8♠ 7♣ in two suits: three in colour 2. 10 + 9 + 2 = 21.
    ("8C 8S 8H", "7C", 10, 0, 9, 2, 21),
    # H12 3♦ 9♥ K♥ + 3♥: 3+9+3 = 15 (3); all four 25 (4). Pair of threes 2.
    #     Four red, three hearts: 5. 7 + 2 + 5 = 14.
    ("3D 9H KH", "3H", 7, 0, 2, 5, 14),
    # H13 four Aces: sums up to 4 only. Double prial 18; two red two black. 18.
    ("AC AD AH", "AS", 0, 0, 18, 0, 18),
    # H14 5♦ 10♦ 5♣ + Q♣: each five with each ten-card = 15 (4 x 2 = 8); 5+10+10 with either five = 25
    #     (2 x 3 = 6); 5+5+10 = 20; all four 30. Pair of fives 2. Two of each colour. 14 + 2 = 16.
    ("5D 10D 5C", "QC", 14, 0, 2, 0, 16),
    # H15 6♥ 9♥ 7♦ + 8♦: 6+9 and 7+8 = 15 (2 + 2); threes 21-24, all 30. Four red, two per suit: 4.
    #     4 + 4 = 8.
    ("6H 9H 7D", "8D", 4, 0, 0, 4, 8),
    # H16 J♥ 2♥ K♠ + 4♥ (hearts trumps): sums 12, 14, 6, 20, 16, 22, 24, 26: no points.
    #     J♥ and 2♥ both of trumps: 4 + 4. J♥ 2♥ 4♥ three in suit 3. 8 + 3 = 11.
    ("JH 2H KS", "4H", 0, 8, 0, 3, 11),
    # H17 4♣ 4♠ 7♣ + 4♦: 4+4+7 = 15 for each two of the three fours (3 x 3 = 9); 4+4+4 = 12; all 19.
    #     Prial of fours 9. Black 4♣ 4♠ 7♣ in two suits: 2. 9 + 9 + 2 = 20.
    ("4C 4S 7C", "4D", 9, 0, 9, 2, 20),
    # H18 9♠ 3♣ K♣ + 2♦: 3+10+2 = 15 (3); all four 24. The turned 2♦ is the dealer's heels and does
    #     not count in a hand: 0. Three black in two suits: 2. 3 + 2 = 5.
    ("9S 3C KC", "2D", 3, 0, 0, 2, 5),
    # H19 6♠ 7♠ 8♠ + 2♠: 7+8 = 15 (2); 6+7+2 = 15 (3); all four 23. The deck 2♠ does not count.
    #     Four spades 6 (the 6-7-8 run is worth nothing in the show). 5 + 6 = 11.
    ("6S 7S 8S", "2S", 5, 0, 0, 6, 11),
    # H20 Q♥ J♣ 5♦ + 10♥: each of three ten-cards with the five = 15 (3 x 2 = 6); each two of them with
    #     the five = 25 (3 x 3 = 9); all four 35. J♣ not trumps 2. Three red, two hearts: 2.
    #     15 + 2 + 2 = 19.
    ("QH JC 5D", "10H", 15, 2, 0, 2, 19),
    # H21 2♦ 2♣ 2♥ + 9♠: all four 2+2+2+9 = 15 (4); 2+2+9 = 13. Three deuces, none trumps: 6.
    #     Prial 9. Two red, two black. 4 + 6 + 9 = 19.
    ("2D 2C 2H", "9S", 4, 6, 9, 0, 19),
    # H22 5♣ 10♣ J♣ + Q♣ (clubs trumps): five with each ten-card (3 x 2 = 6); five with each two of
    #     them = 25 (3 x 3 = 9). J♣ trump 4. Four clubs 6. 15 + 4 + 6 = 25.
    ("5C 10C JC", "QC", 15, 4, 0, 6, 25),
    # H23 3♠ 3♣ 9♦ + 9♥: 3+3+9 with either nine = 15 (3 + 3); all four 24. Two pairs: 2 + 2.
    #     Two black, two red. 6 + 4 = 10.
    ("3S 3C 9D", "9H", 6, 0, 4, 0, 10),
    # H24 7♦ 7♥ A♠ + K♦: 7+7+1 = 15 (3); all four 25 (4). Pair of sevens 2.
    #     Red 7♦ 7♥ K♦, two suits: 2. 7 + 2 + 2 = 11.
    ("7D 7H AS", "KD", 7, 0, 2, 2, 11),
    # H25 5♠ 10♠ K♣ + Q♠: as H22 for points (15); no Jack or Deuce. Four black, three spades: 5.
    #     15 + 5 = 20.
    ("5S 10S KC", "QS", 15, 0, 0, 5, 20),
]


@pytest.mark.parametrize(
    ("own", "deck", "points", "jd", "pairs", "colours", "total"), RULES_EXAMPLES + WORKED_BY_HAND
)
def test_show_table(own: str, deck: str, points: int, jd: int, pairs: int, colours: int, total: int) -> None:
    score = score_show(parse_cards(own), card(deck))
    assert score.category_total(POINTS) == points
    assert score.category_total(JACKS_AND_DEUCES) == jd
    assert score.category_total(PAIRS) == pairs
    assert score.category_total(COLOURS) == colours
    assert score.total == total
    # at most one colours line, and the labels are readable sentences with the points
    assert sum(1 for p in score.parts if p.category == COLOURS) <= 1
    for part in score.parts:
        assert part.label and part.points > 0 and part.cards


def test_table_is_large_enough() -> None:
    assert len(WORKED_BY_HAND) >= 20


def test_breakdown_labels_for_the_bot() -> None:
    score = score_show(parse_cards("JS 2H 7S"), card("8S"))
    assert score.lines() == [
        "Fifteen (7♠ 8♠): 2",
        "Twenty-five (J♠ 7♠ 8♠): 3",
        "Jack of trumps, his nob (J♠): 4",
        "Deuce (2♥): 2",
        "Three in suit (J♠ 7♠ 8♠): 3",
        "Total: 14",
    ]
    costly = score_show(parse_cards("2D AD KD"), card("QD"))
    assert [p.label for p in costly.parts] == [
        "Deuce of trumps, his nob (2♦)",
        "Four in suit, Costly Colours (2♦ A♦ K♦ Q♦)",
    ]
    prial = score_show(parse_cards("8C 8S 8H"), card("7C"))
    assert "Prial of Eights (8♣ 8♠ 8♥): 9" in prial.lines()
    assert score_show(parse_cards("AS 3D 6C"), card("QH")).lines() == ["Nothing to score: 0"]


def test_explicit_trump_overrides_deck_suit() -> None:
    # referee mode may give trumps explicitly: with hearts trumps J♠ is an ordinary Jack (2)
    score = score_show(parse_cards("JS 2H 7S"), card("8S"), trump=Suit.HEARTS)
    assert score.category_total(JACKS_AND_DEUCES) == 2 + 4


def test_colours_best_line_only() -> None:
    part = colours_part(parse_cards("2S 5S 9S KS"))
    assert part is not None and part.points == 6
    assert colours_part(parse_cards("2S 5H 9D KC")) is None


@pytest.mark.parametrize(
    "cards",
    [["JS", "2H"], ["JS", "2H", "3C", "4D"], ["JS", "JS", "3C"]],
)
def test_show_rejects_bad_hands(cards: list[str]) -> None:
    with pytest.raises(ValueError):
        score_show(parse_cards(cards), card("5D"))


def test_show_rejects_jokers() -> None:
    with pytest.raises(ValueError):
        score_show([JOKER, card("2H"), card("3C")], card("5D"))


def test_card_values_and_sequence_ranks() -> None:
    assert [card_value(card(c)) for c in ["AS", "2S", "9S", "10S", "JS", "QS", "KS"]] == [
        1,
        2,
        9,
        10,
        10,
        10,
        10,
    ]
    assert [sequence_rank(card(c)) for c in ["AS", "10S", "JS", "QS", "KS"]] == [1, 10, 11, 12, 13]


# --- the play -----------------------------------------------------------------------------------


def _play_points(codes: str) -> dict[str, int]:
    return {p.category: p.points for p in score_play_card(parse_cards(codes))}


def test_seed_sequence_example() -> None:
    # Annie 8, Benny 6, Annie 7: count 21, 3 for the sequence; Benny's 5 (26) or 9 (30) makes four
    assert _play_points("8H 6S 7D") == {"sequence": 3}
    assert _play_points("8H 6S 7D 5C") == {"sequence": 4}
    assert _play_points("8H 6S 7D 9C") == {"sequence": 4}


def test_seed_points_example() -> None:
    # 7 4 4 = 15 (3); a court or Ten = 25 (4); a Six = 31 (5)
    assert _play_points("7H 4S 4D") == {"points": 3}
    assert _play_points("7H 4S 4D KC") == {"points": 4}
    assert _play_points("7H 4S 4D 10C") == {"points": 4}
    assert _play_points("7H 4S 4D KC 6S") == {"points": 5}
    assert [p.label for p in score_play_card(parse_cards("7H 4S 4D KC 6S"))] == ["Thirty-one with 5 cards"]


def test_sequence_and_points_together() -> None:
    # 4 5 6 = 15 and a run of three: 3 + 3
    assert _play_points("4H 5S 6D") == {"sequence": 3, "points": 3}


@pytest.mark.parametrize(
    ("codes", "run"),
    [
        ("5H 7C 8H 9H", 3),  # the five is not part of it
        ("AH 2S 3D", 3),  # Ace low
        ("QH KS AD", 0),  # no wrap round
        ("JH QS KD", 3),
        ("3H 4S 4D 5C", 0),  # a repeated rank breaks it
        ("3H 4S 5D 3C", 3),  # the latest three: 4 5 3
        ("6H 5S", 0),  # two cards are not a sequence
        ("9C 2H 5S 3D 4C 6H", 5),  # 2 5 3 4 6 in any order
    ],
)
def test_sequence_length(codes: str, run: int) -> None:
    assert sequence_length(parse_cards(codes)) == run


def test_play_past_31_is_an_error() -> None:
    with pytest.raises(ValueError):
        score_play_card(parse_cards("KH KS KD 2C"))


def test_go_points() -> None:
    assert go_points(29) == 1
    assert go_points(31) == 1
    assert go_points(31, go_point_on_31=False) == 0
    assert go_points(4, go_point_on_31=False) == 1


# --- heels and the mog ----------------------------------------------------------------------------


def test_heels() -> None:
    assert heels_points(card("JH")) == 4
    assert heels_points(card("2C")) == 4
    assert heels_points(card("QH")) == 0


def test_mog_gift_points() -> None:
    assert mog_gift_points(card("JH"), Suit.HEARTS) == 4
    assert mog_gift_points(card("2S"), Suit.HEARTS) == 2
    assert mog_gift_points(card("3H"), Suit.HEARTS) == 0
    part = unclaimed_gift_part(card("2H"), Suit.HEARTS)
    assert part is not None and part.points == 4 and "2♥" in part.label
    assert unclaimed_gift_part(card("KH"), Suit.HEARTS) is None
