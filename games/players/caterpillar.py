"""Bot players for Caterpillar.

What matters: a face card still held at the end is worth 100, so face cards are spent only when
no numeral of the suit to follow is left (or to score a total on a multiple of five); a numeral
that makes a multiple of five scores the whole total; and a face card that changes the suit hands
the other player a suit they may lack (then they must spend a face card, or, holding none, they
are court short and take 100 for each face card *we* hold).

* ``easy`` (:class:`EasyCaterpillarPlayer`): plays the numeral that scores most now, less what the
  other player could score straight after it (judged from the unseen cards); with no numeral to
  play, the face card that scores or that turns to the suit it holds most numerals of.
* ``strong`` (:class:`StrongCaterpillarPlayer`): deals the unseen cards at random into the other
  player's hand and the stock, several times, and searches three plies (its card, the reply, its
  next card) on each deal, counting points scored, 100 for each face card spent and the
  court-short settlement; the card with the best average margin wins.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.cards import Card, Suit, full_pack
from games.caterpillar import FACE_BONUS, MULTIPLE, CaterpillarView, card_value, is_face
from games.counting import play_card, play_card_of
from games.engine import Action, View

_PACK = full_pack()
_VALUE = {c: card_value(c) for c in _PACK}
_FACE = {c: is_face(c) for c in _PACK}


def _may_follow(previous: Card | None, card: Card) -> bool:
    return previous is None or _FACE[card] or card.suit == previous.suit


def _points(total: int, previous: Card | None, card: Card) -> tuple[int, int]:
    """The new total and the points for playing ``card`` (the rules of :func:`score_play`)."""
    new = total + _VALUE[card]
    if _FACE[card] and (previous is None or previous.suit != card.suit):
        return new, 0
    return new, new if new % MULTIPLE == 0 and new else 0


def _numerals_by_suit(cards: Sequence[Card]) -> dict[Suit | None, int]:
    out: dict[Suit | None, int] = {}
    for c in cards:
        if not _FACE[c]:
            out[c.suit] = out.get(c.suit, 0) + 1
    return out


def _threat(total: int, card: Card, unseen_values: dict[tuple[Suit | None, int], int], unseen: int, held: int) -> float:
    """Roughly what the other player may score straight after ``card``: for each numeral of the
    suit to follow that would make a multiple of five, its total times the chance they hold one."""
    if unseen <= 0:
        return 0.0
    threat = 0.0
    need = (-total) % MULTIPLE
    for v in (need, need + 5) if need else (5, 10):
        count = unseen_values.get((card.suit, v), 0)
        if count and 1 <= v <= 10:
            chance = 1 - (1 - min(1.0, held / unseen)) ** count
            threat = max(threat, chance * (total + v))
    return threat


def easy_pick(
    hand: Sequence[Card],
    previous: Card | None,
    total: int,
    unseen: Sequence[Card],
    held: int,
) -> Card:
    """The easy policy on plain facts ."""
    playable = [c for c in hand if _may_follow(previous, c)]
    numerals = [c for c in playable if not _FACE[c]]
    if numerals:
        counts: dict[tuple[Suit | None, int], int] = {}
        for c in unseen:
            if not _FACE[c]:
                kind = (c.suit, _VALUE[c])
                counts[kind] = counts.get(kind, 0) + 1
        best: tuple[float, int] | None = None
        pick = numerals[0]
        for c in numerals:
            new, points = _points(total, previous, c)
            key = (points - _threat(new, c, counts, len(unseen), held), _VALUE[c])
            if best is None or key > best:
                best, pick = key, c
        return pick
    # only face cards: score if one keeps the suit on a multiple of five; else turn to our best suit
    mine = _numerals_by_suit(hand)
    faces = playable

    def face_key(c: Card) -> tuple[int, int]:
        _, points = _points(total, previous, c)
        return points, mine.get(c.suit, 0)

    return max(faces, key=face_key)


def _unseen(view: CaterpillarView) -> list[Card]:
    gone = set(view.hand) | set(view.caterpillar)
    return [c for c in _PACK if c not in gone]


class EasyCaterpillarPlayer:
    name = "easy"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        assert isinstance(view, CaterpillarView) and view.seat is not None
        previous = view.caterpillar[-1] if view.caterpillar else None
        held = view.hand_counts[1 - view.seat]
        card = easy_pick(view.hand, previous, view.total, _unseen(view), held)
        action = play_card(card)
        return action if action in legal else legal[0]


def _distinct(cards: Sequence[Card]) -> list[Card]:
    """One card per distinct effect: numerals differ by value, face cards only by suit."""
    seen: dict[tuple[Suit | None, int], Card] = {}
    for c in cards:
        seen.setdefault((c.suit, -1 if _FACE[c] else _VALUE[c]), c)
    return list(seen.values())


class _Deal:
    """One sampled deal of the unseen cards, searched a few plies deep. Values are the margin
    for ``me``: points scored, 100 for each face card spent (it no longer counts at the end), and
    the court-short settlement when a player is stuck."""

    def __init__(self, me: int, hands: list[list[Card]], stock: list[Card]) -> None:
        self.me = me
        self.hands = hands
        self.stock = stock

    def move(self, seat: int, card: Card, previous: Card | None, total: int, depth: int) -> float:
        """The margin for ``seat`` of playing ``card`` and what follows, ``depth`` plies more."""
        hand = self.hands[seat]
        new, points = _points(total, previous, card)
        value = points - (FACE_BONUS if _FACE[card] else 0)
        if depth <= 0:
            return value
        hand.remove(card)
        drawn = self.stock.pop() if self.stock else None
        if drawn is not None:
            hand.append(drawn)
        try:
            if not self.stock:
                return value  # the game ends with this draw: held face cards count for their holders
            return value - self.turn(1 - seat, card, new, depth)
        finally:
            if drawn is not None:
                hand.remove(drawn)
                self.stock.append(drawn)
            hand.append(card)

    def turn(self, seat: int, previous: Card | None, total: int, depth: int) -> float:
        """The best margin ``seat`` can make from here."""
        playable = [c for c in self.hands[seat] if _may_follow(previous, c)]
        if not playable:  # court short: our face cards go to the stuck player
            other = sum(1 for c in self.hands[1 - seat] if _FACE[c])
            return 2 * FACE_BONUS * other
        return max(self.move(seat, c, previous, total, depth - 1) for c in _distinct(playable))


class StrongCaterpillarPlayer:
    """Searches each candidate three plies deep over sampled deals of the unseen cards."""

    name = "strong"

    def __init__(self, samples: int = 12, depth: int = 3) -> None:
        self.samples = samples
        self.depth = depth

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        assert isinstance(view, CaterpillarView) and view.seat is not None
        me = view.seat
        cards = _distinct([c for a in legal if (c := play_card_of(a)) is not None])
        if len(cards) <= 1:
            return legal[0]
        previous = view.caterpillar[-1] if view.caterpillar else None
        unseen = _unseen(view)
        held = view.hand_counts[1 - me]
        margins = [0.0] * len(cards)
        for _ in range(self.samples):
            rng.shuffle(unseen)
            hands: list[list[Card]] = [[], []]
            hands[me] = list(view.hand)
            hands[1 - me] = unseen[:held]
            deal = _Deal(me, hands, unseen[held:])
            for i, card in enumerate(cards):
                margins[i] += deal.move(me, card, previous, view.total, self.depth - 1)
        best = max(range(len(cards)), key=lambda i: (margins[i], _VALUE[cards[i]]))
        return play_card(cards[best])


# the players Caterpillar's declaration names (games/caterpillar.py)
EASY = EasyCaterpillarPlayer()
STRONG = StrongCaterpillarPlayer()
