import copy
import dataclasses
import pickle

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


def test_a_card_however_made_is_equal_to_itself_and_to_nothing_else() -> None:
    """Equality of cards is identity (one instance a card), so every way of making a card must
    give that instance: the constructor, parsing, pickling, copying, ``dataclasses.replace``."""
    ace = Card(Rank.ACE, Suit.SPADES)
    made = [
        parse_card("AS"),
        parse_card("A♠"),
        Card(14, "S"),  # type: ignore[arg-type]  # equal values of other types
        pickle.loads(pickle.dumps(ace)),
        copy.copy(ace),
        copy.deepcopy([ace])[0],
        dataclasses.replace(parse_card("KS"), rank=Rank.ACE),
    ]
    for card in made:
        assert card is ace and card == ace and hash(card) == hash(ace)
        assert card.rank is Rank.ACE and card.suit is Suit.SPADES
    assert len({*made, *full_pack()}) == 52
    assert Card.joker() == parse_card("Joker") != parse_card("RJ") == Card.joker(Colour.RED)
    assert ace != parse_card("AH") and ace != "AS"
