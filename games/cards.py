"""Cards, suits, ranks and the packs the games use.

A card is an immutable value. Suited cards have a suit and a rank; jokers have no suit and
may carry a colour (red or black) or none at all (an undifferentiated joker). A pack may hold
several equal jokers, so collections of cards are multisets, not sets.

Short codes: ``QS``, ``10H`` (also ``TH``), ``Q♠``, ``Joker``, ``RJ`` (red joker), ``BJ`` (black joker).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from functools import cache
from typing import Any

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema


class Colour(StrEnum):
    RED = "red"
    BLACK = "black"


class Suit(StrEnum):
    """The four suits; the value is the one-letter code."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def colour(self) -> Colour:
        return Colour.RED if self in (Suit.HEARTS, Suit.DIAMONDS) else Colour.BLACK

    @property
    def title(self) -> str:  # type: ignore[override]
        return self.name.capitalize()

    def __str__(self) -> str:
        return self.symbol


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SYMBOL_SUITS = {v: k for k, v in _SUIT_SYMBOLS.items()}
SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


class Rank(IntEnum):
    """Ranks by their face value; the Ace is 14 here, and each game decides its own order."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def code(self) -> str:
        return _RANK_CODES[self]

    @property
    def title(self) -> str:
        return _RANK_NAMES[self]

    @property
    def is_court(self) -> bool:
        return self in (Rank.JACK, Rank.QUEEN, Rank.KING)


_RANK_CODES = {r: str(int(r)) for r in Rank if r <= 10} | {
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.ACE: "A",
}
_CODE_RANKS = {v: k for k, v in _RANK_CODES.items()} | {"T": Rank.TEN, "1": Rank.ACE}
_RANK_NAMES = {
    Rank.TWO: "Two",
    Rank.THREE: "Three",
    Rank.FOUR: "Four",
    Rank.FIVE: "Five",
    Rank.SIX: "Six",
    Rank.SEVEN: "Seven",
    Rank.EIGHT: "Eight",
    Rank.NINE: "Nine",
    Rank.TEN: "Ten",
    Rank.JACK: "Jack",
    Rank.QUEEN: "Queen",
    Rank.KING: "King",
    Rank.ACE: "Ace",
}
RANKS: tuple[Rank, ...] = tuple(Rank)


_CARDS: dict[tuple[Rank | None, Suit | None, Colour | None], Card] = {}
"""The one instance of each card, by its fields (filled with every card below the class, so that a
card made with equal values of other types, ``14`` for ``Rank.ACE``, is still the usual one)."""


class CardError(ValueError):
    """A card code that does not name a card."""


@dataclass(frozen=True, slots=True, init=False, eq=False, order=False)
class Card:
    """A playing card. ``rank``/``suit`` are ``None`` for a joker; ``colour`` is set for coloured jokers.

    Equal cards are one object: ``Card(...)``, unpickling and copying all give the one instance of
    that card, so ``==`` and ``hash`` are identity's, which Python does without calling into Python
    code (bots and the tests' checks look cards up in dicts, sets and lists millions of times)."""

    rank: Rank | None
    suit: Suit | None
    colour: Colour | None = None

    def __new__(cls, rank: Rank | None, suit: Suit | None, colour: Colour | None = None) -> Card:
        key = (rank, suit, colour)
        card = _CARDS.get(key)
        if card is None:
            card = object.__new__(cls)
            object.__setattr__(card, "rank", rank)
            object.__setattr__(card, "suit", suit)
            object.__setattr__(card, "colour", colour)
            card = _CARDS.setdefault(key, card)
        return card

    @staticmethod
    def joker(colour: Colour | None = None) -> Card:
        return Card(None, None, colour)

    def __reduce__(self) -> tuple[Any, tuple[Rank | None, Suit | None, Colour | None]]:
        """Pickled by value, unpickled (and copied) as the one instance of the card."""
        return (_shared_card, (self.rank, self.suit, self.colour))

    @property
    def is_joker(self) -> bool:
        return self.rank is None

    @property
    def card_colour(self) -> Colour | None:
        """The colour of a suited card or a coloured joker."""
        return self.suit.colour if self.suit is not None else self.colour

    @property
    def code(self) -> str:
        if self.rank is None:
            return {None: "Joker", Colour.RED: "RJ", Colour.BLACK: "BJ"}[self.colour]
        assert self.suit is not None
        return self.rank.code + self.suit.value

    @property
    def short(self) -> str:
        """Compact display with a suit symbol: ``Q♠``, ``10♥``, ``Joker``, ``Red Joker``."""
        if self.rank is None:
            return self.name
        assert self.suit is not None
        return self.rank.code + self.suit.symbol

    @property
    def name(self) -> str:
        """Readable name: ``Queen of Spades``, ``Red Joker``."""
        if self.rank is None:
            return "Joker" if self.colour is None else f"{self.colour.value.capitalize()} Joker"
        assert self.suit is not None
        return f"{self.rank.title} of {self.suit.title}"

    def __str__(self) -> str:
        return self.short

    def __repr__(self) -> str:
        return f"Card({self.code})"

    @classmethod
    def parse(cls, text: str) -> Card:
        return parse_card(text)

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        def validate(value: Any) -> Card:
            if isinstance(value, Card):
                return value
            if isinstance(value, str):
                return parse_card(value)
            raise ValueError("a card must be given as a code such as 'QS' or '10H'")

        return core_schema.no_info_plain_validator_function(
            validate,
            serialization=core_schema.plain_serializer_function_ser_schema(
                lambda c: c.code, when_used="always"
            ),
        )


_CARDS.update(((r, s, None), Card(r, s)) for r in RANKS for s in SUITS)
_CARDS.update(((None, None, c), Card.joker(c)) for c in (None, Colour.RED, Colour.BLACK))

_JOKER_WORDS = {
    "joker": None,
    "jk": None,
    "j*": None,
    "rj": Colour.RED,
    "redjoker": Colour.RED,
    "bj": Colour.BLACK,
    "blackjoker": Colour.BLACK,
}


def parse_card(text: str) -> Card:
    """Parse a card code (``QS``, ``10h``, ``TH``, ``Q♠``, ``Joker``, ``RJ``, ``Red Joker``)."""
    raw = text.strip()
    key = raw.lower().replace(" ", "").replace("-", "")
    if key in _JOKER_WORDS:
        return Card.joker(_JOKER_WORDS[key])
    if len(raw) < 2:
        raise CardError(f"'{text}' is not a card: try a code such as QS, 10H or Joker")
    suit_part = raw[-1]
    rank_part = raw[:-1].strip().upper()
    suit = _SYMBOL_SUITS.get(suit_part) or _suit_from_letter(suit_part)
    rank = _CODE_RANKS.get(rank_part)
    if suit is None or rank is None:
        raise CardError(f"'{text}' is not a card: try a code such as QS, 10H or Joker")
    return Card(rank, suit)


def _shared_card(rank: Rank | None, suit: Suit | None, colour: Colour | None) -> Card:
    """What a pickled card is read back with (the name is in pickles already written)."""
    return Card(rank, suit, colour)


def _suit_from_letter(letter: str) -> Suit | None:
    try:
        return Suit(letter.upper())
    except ValueError:
        return None


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse a space- or comma-separated list of card codes."""
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(p) for p in parts]


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(c.short for c in cards) or "-"


def card(code: str) -> Card:
    """Shorthand for tests and tables: ``card('QS')``."""
    return parse_card(code)


# --- packs -------------------------------------------------------------------------------------

RED_JOKER = Card.joker(Colour.RED)
BLACK_JOKER = Card.joker(Colour.BLACK)
JOKER = Card.joker()


def make_pack(
    ranks: Iterable[Rank] = RANKS,
    suits: Iterable[Suit] = SUITS,
    jokers: Sequence[Card] = (),
) -> list[Card]:
    """Every (rank, suit) pair in suit-major order, then the jokers given."""
    rank_list = list(ranks)
    return [Card(r, s) for s in suits for r in rank_list] + list(jokers)


def ranks_from(codes: str) -> list[Rank]:
    """Ranks from a compact string such as ``"AKQJT98"``."""
    return [_CODE_RANKS[ch] for ch in codes.upper()]


def full_pack(jokers: Sequence[Card] = ()) -> list[Card]:
    """52 cards, plus any jokers given."""
    return make_pack(jokers=jokers)


def piquet_pack(jokers: Sequence[Card] = ()) -> list[Card]:
    """32 cards, A K Q J 10 9 8 7 in each suit, plus any jokers given."""
    return make_pack(ranks_from("AKQJT987"), jokers=jokers)


def shuffled(cards: Sequence[Card], rng: random.Random) -> list[Card]:
    out = list(cards)
    rng.shuffle(out)
    return out


def same_cards(a: Iterable[Card], b: Iterable[Card]) -> bool:
    """True when the two collections hold the same cards, counting duplicates."""
    return Counter(a) == Counter(b)


def sort_hand(cards: Iterable[Card], suit_order: Sequence[Suit] = SUITS) -> list[Card]:
    """Group by suit (jokers last), highest rank first within a suit."""
    if suit_order is SUITS:  # the usual order: each card's key once (a draw sorts the hand again)
        return sorted(cards, key=_usual_key)
    return sorted(cards, key=_hand_key(suit_order))


def _hand_key(suit_order: Sequence[Suit]) -> Callable[[Card], tuple[int, int, str]]:
    """The sort key of :func:`sort_hand` for one order of the suits."""
    order = {s: i for i, s in enumerate(suit_order)}

    def key(c: Card) -> tuple[int, int, str]:
        if c.suit is None:
            return (len(order), 0, c.code)
        return (order.get(c.suit, len(order)), -int(c.rank or 0), "")

    return key


_usual_key = cache(_hand_key(SUITS))
