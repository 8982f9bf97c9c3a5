"""Bot players for Caterpillar.

What matters: a face card still held at the end is worth 100, so face cards are spent only when
no numeral of the suit to follow is left (or to score a total on a multiple of five); a numeral
that makes a multiple of five scores the whole total; and a face card that changes the suit hands
the other player a suit they may lack (then they must spend a face card, or, holding none, they
are court short and take 100 for each face card *we* hold).

* ``easy`` (:class:`EasyCaterpillarPlayer`): plays the numeral that scores most now, less what the
  other player could score straight after it (judged from the unseen cards); with no numeral to
  play, the face card that scores or that turns to the suit it holds most numerals of.
* ``strong`` (:class:`RolloutCaterpillarPlayer`): deals the unseen cards at random into the other
  player's hand and the stock, up to 100 times, and for each distinct card plays the game out to
  its end on each deal (the same deals and the same random choices for every card) with a quick
  policy: a numeral that scores, else the lowest numeral, a face card only when nothing else may
  follow. The other player in the playouts is careful (that policy, one play in ten any card) or
  careless (any card, every play), careless on as many deals as the chance :func:`careless_chance`
  gives from what they have played this game: a careful player spends a face card only when it
  has no numeral of the suit and takes a score when it holds one, a careless one does either at
  random. The end counts what a short search cannot see: the face cards each player still holds
  when the stock runs out, and the court-short settlement (a player with no face card left who
  cannot follow takes 100 for each face card the other holds, so spending the last one can pay).
  The easy play stands unless another card gains 25 points a game more on average.

  Against the easy bot over 200 matches (seed 0) an earlier three-ply search over sampled deals
  won .645, playouts .705 (60 deals), .73
  (100 deals, or 60 deals with the easy play standing). Against random play, playouts with a
  careful other player won .92, no more than the easy bot: nearly every match lost was lost to a
  court short, the random player spending its face cards early, being stuck, and taking 100 for
  each face card held; the careful model never saw that coming. With the other player judged from
  its plays, .96 (seeds 0-199; a careless model told the truth, .955). On fresh seeds (600 matches
  from seed 10000): against random .950 (.930-.965) where the easy bot wins .893 (.866-.916),
  against easy .725 (.688-.759), a move 31 ms median and 70 ms at the 99th percentile; from seed
  30000, against random .927 (.903-.945) where easy wins .882 (.854-.906). Over the 1,200:
  .939 (.923-.951) against easy's .888 (.868-.904). Weighing
  each playout by the chance of winning the match rather than the game's margin (the totals of
  two games are added up) won hardly more against random (.97 against .96) and less against easy
  (.71 against .765), over the same 200 matches from seed 0: not kept.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from games.cards import Card, Suit, full_pack
from games.caterpillar import FACE_BONUS, HAND_SIZE, MULTIPLE, CaterpillarView, card_value, is_face
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


def _rollout_pick(hand: Sequence[Card], previous: Card | None, total: int, rng: random.Random, wild: bool) -> Card | None:
    """A quick policy for playouts: a numeral that scores (the most), else the lowest numeral of
    the suit, else a face card turning to the suit we hold most numerals of; ``wild``: any card."""
    playable = [c for c in hand if _may_follow(previous, c)]
    if not playable:
        return None
    if wild:
        return playable[rng.randrange(len(playable))]
    numerals = [c for c in playable if not _FACE[c]]
    if numerals:
        best = None
        best_key = (-1, 0)
        for c in numerals:
            new = total + _VALUE[c]
            key = (new if new % MULTIPLE == 0 else 0, -_VALUE[c])
            if key > best_key:
                best, best_key = c, key
        return best
    mine = _numerals_by_suit(hand)
    return max(playable, key=lambda c: (_points(total, previous, c)[1], mine.get(c.suit, 0)))


def _playout(
    me: int, hands: list[list[Card]], stock: list[Card], seat: int, previous: Card | None, total: int,
    rng: random.Random, wild: float,
) -> float:
    """Play the game out from ``seat``'s turn; the margin for ``me`` (points, held face cards)."""
    points = [0, 0]
    while True:
        hand = hands[seat]
        card = _rollout_pick(hand, previous, total, rng, seat != me and rng.random() < wild)
        if card is None:  # court short: the stuck player takes our face cards
            faces = sum(1 for c in hands[1 - seat] if _FACE[c])
            points[seat] += FACE_BONUS * faces
            break
        total, gained = _points(total, previous, card)
        points[seat] += gained
        hand.remove(card)
        previous = card
        if not stock:
            for s in (0, 1):
                points[s] += FACE_BONUS * sum(1 for c in hands[s] if _FACE[c])
            break
        hand.append(stock.pop())
        if not stock:
            for s in (0, 1):
                points[s] += FACE_BONUS * sum(1 for c in hands[s] if _FACE[c])
            break
        seat = 1 - seat
    return points[me] - points[1 - me]


def _none_among(pool: int, wanted: int, drawn: int = HAND_SIZE) -> float:
    """The chance that ``drawn`` cards taken at random from ``pool`` include none of ``wanted``."""
    chance = 1.0
    for k in range(drawn):
        if pool - k <= 0:
            return 0.0
        chance *= max(0, pool - wanted - k) / (pool - k)
    return chance


def careless_chance(view: CaterpillarView, prior: float = 0.5, slip: float = 0.08) -> float:
    """How likely the other player is to play at random rather than with care, from their plays
    in this game (Bayes' rule, from even odds).

    For each of their plays after the first, the cards they may have held then are those not yet
    in the row, not in our hand now and not played by us since. A careful player spends a face
    card only when it holds no numeral of the suit (the chance a hand of 13 from those cards has
    none), and plays a numeral that scores whenever it holds one; a careless one picks any card it
    may play (a face card about as often as face cards are among the face cards and numerals of the
    suit it may hold, a scoring numeral as often as they are among the suit's numerals). ``slip``:
    how often a careful player departs from its rule anyway (a face card that scores, one spent
    to be court short). A same-suit face card that scores is no evidence either way.
    """
    me, first, row = view.seat, view.first_player, view.caterpillar
    if me is None or first is None:
        return prior
    odds = prior / (1 - prior)
    out = set(view.hand) | {row[j] for j in range(len(row)) if (first + j) % 2 == me}
    total = _VALUE[row[0]] if row else 0
    for i in range(1, len(row)):
        card, previous = row[i], row[i - 1]
        before, total = total, total + _VALUE[card]
        if (first + i) % 2 == me:
            out.discard(card)  # ours from here on: it was in our hand or the stock before
            continue
        if _FACE[card] and card.suit == previous.suit and before % MULTIPLE == 0 and before:
            continue
        pool = [c for c in _PACK if c not in out and c not in row[:i]]
        suit = [c for c in pool if not _FACE[c] and c.suit == previous.suit]
        faces = sum(1 for c in pool if _FACE[c])
        careful_face = _none_among(len(pool), len(suit)) * (1 - slip) + slip
        careless_face = min(0.9, max(0.1, faces / (faces + len(suit)))) if faces + len(suit) else 0.5
        if _FACE[card]:
            odds *= careless_face / careful_face
            continue
        odds *= (1 - careless_face) / (1 - careful_face)
        scoring = [c for c in suit if (before + _VALUE[c]) % MULTIPLE == 0]
        if scoring:
            holds_numeral = 1 - _none_among(len(pool), len(suit))
            holds_scoring = 1 - _none_among(len(pool), len(scoring))
            careful_scores = min(0.95, max(0.05, holds_scoring / max(holds_numeral, 1e-9) * (1 - slip)))
            careless_scores = len(scoring) / len(suit)
            if total % MULTIPLE == 0:
                odds *= careless_scores / careful_scores
            else:
                odds *= (1 - careless_scores) / (1 - careful_scores)
    return odds / (1 + odds) if math.isfinite(odds) else 1.0


class RolloutCaterpillarPlayer:
    """Tries each distinct card over sampled deals of the unseen cards and plays the game out to
    its end with a quick policy (the other player careful on some deals, careless on others, as
    likely as their plays so far make it)."""

    name = "strong"

    def __init__(
        self, samples: int = 100, wild: float = 0.1, doubt: float = 25.0, budget: int = 500, careless: float | None = None
    ) -> None:
        self.samples = samples
        self.careless = careless
        """The chance the other player plays at random; ``None``: judged from their plays."""
        self.budget = budget
        """At most this many playouts a move (fewer deals when there are many distinct cards)."""
        self.wild = wild
        self.doubt = doubt
        """How many points a game another card must gain on average over the easy play's to replace it."""

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        assert isinstance(view, CaterpillarView) and view.seat is not None
        me = view.seat
        cards = _distinct([c for a in legal if (c := play_card_of(a)) is not None])
        if len(cards) <= 1:
            return legal[0]
        previous = view.caterpillar[-1] if view.caterpillar else None
        unseen = _unseen(view)
        held = view.hand_counts[1 - me]
        careless = careless_chance(view) if self.careless is None else self.careless
        margins = [0.0] * len(cards)
        samples = max(1, min(self.samples, self.budget // len(cards)))
        for _ in range(samples):
            rng.shuffle(unseen)
            seed = rng.getrandbits(32)
            wild = 1.0 if rng.random() < careless else self.wild
            for i, card in enumerate(cards):
                hands: list[list[Card]] = [[], []]
                hands[me] = [c for c in view.hand if c != card]
                hands[1 - me] = unseen[:held]
                stock = unseen[held : held + view.stock]
                total, gained = _points(view.total, previous, card)
                margin: float
                if not stock:
                    margin = gained + FACE_BONUS * (sum(1 for c in hands[me] if _FACE[c]) - sum(1 for c in hands[1 - me] if _FACE[c]))
                else:
                    hands[me].append(stock[-1])
                    stock = stock[:-1]
                    if not stock:
                        margin = gained + FACE_BONUS * (
                            sum(1 for c in hands[me] if _FACE[c]) - sum(1 for c in hands[1 - me] if _FACE[c])
                        )
                    else:
                        margin = gained + _playout(me, hands, stock, 1 - me, card, total, random.Random(seed), wild)
                margins[i] += margin
        best = max(range(len(cards)), key=lambda i: (margins[i], _VALUE[cards[i]]))
        # the easy play stands unless the playouts find another clearly better: their verdict is
        # noisy (a face card held to the end swings a game by 100), the easy play's rules are not
        usual = easy_pick(view.hand, previous, view.total, unseen, held)
        kin = next((i for i, c in enumerate(cards) if _same_effect(c, usual)), None)
        if kin is not None and margins[best] - margins[kin] < self.doubt * samples:
            return play_card(usual)
        return play_card(cards[best])


def _same_effect(a: Card, b: Card) -> bool:
    return (a.suit, -1 if _FACE[a] else _VALUE[a]) == (b.suit, -1 if _FACE[b] else _VALUE[b])


# the players Caterpillar's declaration names (games/caterpillar.py)
EASY = EasyCaterpillarPlayer()
STRONG = RolloutCaterpillarPlayer()
