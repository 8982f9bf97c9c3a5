"""Costly Colours scoring as pure functions of the cards.

Everything here takes only the facts (cards, the trump suit, the running series), so the
dealt game and a referee mode for people playing with real cards score through the same code.

* :func:`score_show` scores a four-card hand (a player's own three cards plus the deck card) and
  returns each scoring part with its points and a readable label.
* :func:`score_play_card` scores one card played to the count (sequences and 15/25/31).
* :func:`go_points`, :func:`heels_points`, :func:`mog_gift_points` cover the small pegs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from games.cards import Card, Rank, Suit

TARGET = 121
"""Points that win the game; reaching them at any moment ends it."""

MAX_COUNT = 31
"""The running count of a series may not pass this."""

POINT_TOTALS = (15, 25, 31)
"""Totals that score 1 per card involved, in the play and in the show."""

HEELS = 4
"""What the dealer pegs when the deck card is a Jack or a Deuce."""

_TOTAL_NAMES = {15: "Fifteen", 25: "Twenty-five", 31: "Thirty-one"}
_SEQ_RANK: dict[Rank, int] = {r: (1 if r is Rank.ACE else int(r)) for r in Rank}
_RANK_WORDS: dict[Rank, str] = {
    Rank.ACE: "Aces",
    Rank.TWO: "Deuces",
    Rank.THREE: "Threes",
    Rank.FOUR: "Fours",
    Rank.FIVE: "Fives",
    Rank.SIX: "Sixes",
    Rank.SEVEN: "Sevens",
    Rank.EIGHT: "Eights",
    Rank.NINE: "Nines",
    Rank.TEN: "Tens",
    Rank.JACK: "Jacks",
    Rank.QUEEN: "Queens",
    Rank.KING: "Kings",
}


@dataclass(frozen=True)
class ScorePart:
    """One scoring combination: its category, a readable label, the points and the cards."""

    category: str
    label: str
    points: int
    cards: tuple[Card, ...] = ()

    def text(self) -> str:
        return f"{self.label}: {self.points}"


@dataclass(frozen=True)
class ShowScore:
    """The whole count of one hand at the show."""

    parts: tuple[ScorePart, ...]

    @property
    def total(self) -> int:
        return sum(p.points for p in self.parts)

    def category_total(self, category: str) -> int:
        return sum(p.points for p in self.parts if p.category == category)

    def lines(self) -> list[str]:
        """One line per part, then the total (``"nothing"`` for an empty hand)."""
        if not self.parts:
            return ["Nothing to score: 0"]
        return [p.text() for p in self.parts] + [f"Total: {self.total}"]


# categories, in the order the show counts them
POINTS = "points"
JACKS_AND_DEUCES = "jacks_and_deuces"
PAIRS = "pairs"
COLOURS = "colours"
MOG = "mog"
"""Points a neglectful giver left for the receiver (``muggins`` on)."""


# --- card facts --------------------------------------------------------------------------------


def _rank(card: Card) -> Rank:
    if card.rank is None or card.suit is None:
        raise ValueError("Costly Colours is played without jokers.")
    return card.rank


def card_value(card: Card) -> int:
    """The counting value: Ace 1, pips at face value, Ten and courts 10."""
    return min(_SEQ_RANK[_rank(card)], 10)


def sequence_rank(card: Card) -> int:
    """Place in a sequence: Ace 1 (low only) up to King 13."""
    return _SEQ_RANK[_rank(card)]


def is_jack_or_deuce(card: Card) -> bool:
    return _rank(card) in (Rank.JACK, Rank.TWO)


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(c.short for c in cards)


# --- small pegs --------------------------------------------------------------------------------


def heels_points(deck_card: Card) -> int:
    """The dealer's peg for turning a Jack or a Deuce as the deck card."""
    return HEELS if is_jack_or_deuce(deck_card) else 0


def mog_gift_points(card: Card, trump: Suit) -> int:
    """What a player pegs for giving a Jack or Deuce away in the mog: 4 in trumps, else 2."""
    if not is_jack_or_deuce(card):
        return 0
    return 4 if card.suit == trump else 2


def go_points(total: int, go_point_on_31: bool = True) -> int:
    """The last player of a series pegs 1 for the go; at exactly 31 only if ``go_point_on_31``.

    The 31 itself (1 per card) is scored when the card is played, by :func:`score_play_card`.
    """
    if total > MAX_COUNT:
        raise ValueError(f"A count of {total} is past {MAX_COUNT}.")
    if total == MAX_COUNT:
        return 1 if go_point_on_31 else 0
    return 1


# --- the play ----------------------------------------------------------------------------------


def series_total(series: Sequence[Card]) -> int:
    return sum(card_value(c) for c in series)


def sequence_length(series: Sequence[Card]) -> int:
    """Length of the longest run ending with the last card: the most recent k >= 3 cards, taken in
    any order, are k consecutive ranks with no repeat. 0 when there is none."""
    return run_length([sequence_rank(c) for c in series])


def run_length(ranks: Sequence[int]) -> int:
    """:func:`sequence_length` on sequence ranks (Ace 1 ... King 13), for fast searches."""
    for k in range(len(ranks), 2, -1):
        tail = ranks[-k:]
        if len(set(tail)) == k and max(tail) - min(tail) == k - 1:
            return k
    return 0


def play_points_of(ranks: Sequence[int], total: int) -> int:
    """What the last card of a series pegs, from the series' sequence ranks and its count: the
    points of :func:`score_play_card` without the labels (bots search with this)."""
    return run_length(ranks) + (len(ranks) if total in POINT_TOTALS else 0)


def score_play_card(series: Sequence[Card]) -> list[ScorePart]:
    """What the player of the last card of ``series`` (the series so far, that card included)
    pegs for it: a sequence (1 per card) and a total of 15, 25 or 31 (1 per card in the series)."""
    if not series:
        return []
    parts: list[ScorePart] = []
    run = sequence_length(series)
    if run:
        tail = tuple(series[-run:])
        parts.append(ScorePart("sequence", f"Sequence of {run} ({cards_text(tail)})", run, tail))
    total = series_total(series)
    if total > MAX_COUNT:
        raise ValueError(f"A count of {total} is past {MAX_COUNT}.")
    if total in POINT_TOTALS:
        n = len(series)
        name = _TOTAL_NAMES[total]
        parts.append(ScorePart("points", f"{name} with {n} cards", n, tuple(series)))
    return parts


# --- the show ----------------------------------------------------------------------------------


def _check_hand(own: Sequence[Card], deck_card: Card) -> None:
    if len(own) != 3:
        raise ValueError(f"A hand has three cards besides the deck card, not {len(own)}.")
    cards = [*own, deck_card]
    for c in cards:
        _rank(c)
    if len(set(cards)) != len(cards):
        raise ValueError("A card appears twice in this hand.")


def points_parts(cards: Sequence[Card]) -> list[ScorePart]:
    """Category 1: every distinct group of cards totalling 15, 25 or 31 scores 1 per card."""
    parts: list[ScorePart] = []
    for size in range(2, len(cards) + 1):
        for group in combinations(cards, size):
            total = sum(card_value(c) for c in group)
            if total in POINT_TOTALS:
                name = _TOTAL_NAMES[total]
                parts.append(ScorePart(POINTS, f"{name} ({cards_text(group)})", size, group))
    return parts


def jacks_and_deuces_parts(own: Sequence[Card], trump: Suit) -> list[ScorePart]:
    """Category 2: each Jack or Deuce among the player's own cards (never the deck card)."""
    parts: list[ScorePart] = []
    for c in own:
        if not is_jack_or_deuce(c):
            continue
        word = "Jack" if c.rank is Rank.JACK else "Deuce"
        if c.suit == trump:
            parts.append(ScorePart(JACKS_AND_DEUCES, f"{word} of trumps, his nob ({c.short})", 4, (c,)))
        else:
            parts.append(ScorePart(JACKS_AND_DEUCES, f"{word} ({c.short})", 2, (c,)))
    return parts


_SET_NAMES = {2: ("Pair", 2), 3: ("Prial", 9), 4: ("Double prial", 18)}


def pairs_parts(cards: Sequence[Card]) -> list[ScorePart]:
    """Category 3: for each rank held more than once, only the best name (a prial is not also
    three pairs). Two different pairs score one each."""
    counts = Counter(_rank(c) for c in cards)
    parts: list[ScorePart] = []
    for rank, n in sorted(counts.items(), key=lambda rn: (-rn[1], -_SEQ_RANK[rn[0]])):
        if n < 2:
            continue
        name, points = _SET_NAMES[n]
        group = tuple(c for c in cards if c.rank is rank)
        parts.append(ScorePart(PAIRS, f"{name} of {_RANK_WORDS[rank]} ({cards_text(group)})", points, group))
    return parts


def colours_part(cards: Sequence[Card]) -> ScorePart | None:
    """Category 4: only the single best description of the hand's colours and suits counts."""
    colours = Counter(c.suit.colour for c in cards if c.suit is not None)
    colour, in_colour = colours.most_common(1)[0]
    group = tuple(c for c in cards if c.suit is not None and c.suit.colour is colour)
    in_suit = max(Counter(c.suit for c in group).values())
    if in_colour == 4:
        if in_suit == 4:
            return ScorePart(COLOURS, f"Four in suit, Costly Colours ({cards_text(group)})", 6, group)
        if in_suit == 3:
            return ScorePart(COLOURS, f"Four in colour, three in suit ({cards_text(group)})", 5, group)
        return ScorePart(COLOURS, f"Four in colour ({cards_text(group)})", 4, group)
    if in_colour == 3:
        if in_suit == 3:
            return ScorePart(COLOURS, f"Three in suit ({cards_text(group)})", 3, group)
        return ScorePart(COLOURS, f"Three in colour ({cards_text(group)})", 2, group)
    return None


def score_show(own: Sequence[Card], deck_card: Card, trump: Suit | None = None) -> ShowScore:
    """Score a hand at the show: the player's own three cards plus the deck card.

    ``trump`` defaults to the deck card's suit. No sequences count in the show.
    """
    _check_hand(own, deck_card)
    cards = [*own, deck_card]
    trump_suit = trump if trump is not None else deck_card.suit
    assert trump_suit is not None
    parts = points_parts(cards) + jacks_and_deuces_parts(own, trump_suit) + pairs_parts(cards)
    colour = colours_part(cards)
    if colour is not None:
        parts.append(colour)
    return ShowScore(tuple(parts))


def unclaimed_gift_part(card: Card, trump: Suit) -> ScorePart | None:
    """With ``muggins`` on: the points a giver forgot to claim for a Jack or Deuce passed in the
    mog go to the receiver at the show."""
    points = mog_gift_points(card, trump)
    if not points:
        return None
    return ScorePart(MOG, f"Unclaimed {card.short} received in the mog", points, (card,))
