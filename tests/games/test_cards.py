import pytest
from pydantic import BaseModel

from games.cards import (
    BLACK_JOKER,
    JOKER,
    RED_JOKER,
    Card,
    CardError,
    Colour,
    Rank,
    Suit,
    full_pack,
    parse_card,
    parse_cards,
    piquet_pack,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("QS", Card(Rank.QUEEN, Suit.SPADES)),
        ("10H", Card(Rank.TEN, Suit.HEARTS)),
        ("th", Card(Rank.TEN, Suit.HEARTS)),
        ("Q♠", Card(Rank.QUEEN, Suit.SPADES)),
        ("a♦", Card(Rank.ACE, Suit.DIAMONDS)),
        ("2c", Card(Rank.TWO, Suit.CLUBS)),
        ("Joker", JOKER),
        ("RJ", RED_JOKER),
        ("Black Joker", BLACK_JOKER),
    ],
)
def test_parse(text: str, expected: Card) -> None:
    assert parse_card(text) == expected


@pytest.mark.parametrize("text", ["", "Q", "1X", "11H", "ZS", "Jokers"])
def test_parse_rejects_with_a_readable_message(text: str) -> None:
    with pytest.raises(CardError, match="not a card"):
        parse_card(text)


def test_codes_round_trip_for_every_card() -> None:
    for c in full_pack([JOKER, RED_JOKER, BLACK_JOKER]):
        assert parse_card(c.code) == c
        assert parse_card(c.short) == c


def test_names_and_colours() -> None:
    assert parse_card("QS").name == "Queen of Spades"
    assert parse_card("10H").short == "10♥"
    assert RED_JOKER.name == "Red Joker" and RED_JOKER.card_colour is Colour.RED
    assert Suit.DIAMONDS.colour is Colour.RED and Suit.CLUBS.colour is Colour.BLACK
    assert parse_cards("QS, 10H Joker") == [parse_card("QS"), parse_card("10H"), JOKER]


def test_packs() -> None:
    assert len(full_pack()) == 52 and len(set(full_pack())) == 52
    assert len(piquet_pack([JOKER])) == 33


def test_cards_serialise_as_codes_in_models() -> None:
    class M(BaseModel):
        c: Card
        cs: list[Card]

    m = M(c="QS", cs=["10H", "Joker"])  # type: ignore[arg-type]
    assert m.model_dump(mode="json") == {"c": "QS", "cs": ["10H", "Joker"]}
    assert M.model_validate_json(m.model_dump_json()) == m
