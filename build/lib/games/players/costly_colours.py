"""Bot players for Costly Colours.

* ``easy``: always proposes and accepts a mog, passes the card that leaves the best two cards
  with the deck card, keeps the best three cards after mogging with the stock, and plays the card
  that pegs most now, avoiding counts that hand the next player an easy 15, 25 or 31.
* ``strong``: weighs each mog by the expected show value of the hand after it (averaged over the
  cards it may receive) against the point a refusal gives away; passes the card that keeps the
  best hand, counting what the card is worth to the receiver (a help to a partner, a gift to an
  opponent), so Jacks and Deuces go to a partner (they score for the giver and again at the
  partner's show) but rarely to an opponent; and chooses each card of the play by searching the
  rest of the play over sampled hands for the unseen cards, consistent with the Go's already
  said (to the end with two hands, six cards ahead with four).

Both see only the seat's view. Scores come from :mod:`games.costly_colours_scoring`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.cards import Card, full_pack
from games.costly_colours import (
    AcceptMog,
    BuryCard,
    CostlyColoursView,
    GiveCard,
    NoMog,
    ProposeMog,
    RefuseMog,
    TakeStock,
)
from games.costly_colours_scoring import (
    MAX_COUNT,
    card_value,
    colours_part,
    go_points,
    jacks_and_deuces_parts,
    mog_gift_points,
    pairs_parts,
    play_points_of,
    points_parts,
    score_show,
    sequence_rank,
)
from games.engine import Action, PlayCard, View
from games.players import RandomPlayer

_PACK = full_pack()
_RANK = {c: sequence_rank(c) for c in _PACK}
_VALUE = {c: card_value(c) for c in _PACK}
_RANK_VALUE = [0] + [min(r, 10) for r in range(1, 14)]  # counting value by sequence rank

SWAP_GAIN = 1.8
"""What a player gains on average at the show by swapping their least useful card for an unseen
one (measured over random hands): the value of a mog to the other side."""

GIVE_SAMPLES = 16
"""Unseen cards drawn to estimate the show value of a hand after a mog."""

RECEIVER_SAMPLES = 12
RECEIVER_WEIGHT = 1.0
"""How many random pairs of cards stand for the receiver's hand when judging what a passed card
is worth to them, and how much that counts against (or, for a partner, towards) the pass."""


# --- what the bots know -------------------------------------------------------------------------


def _unseen(view: CostlyColoursView) -> list[Card]:
    """Cards this seat has not seen: not in its hand, not the deck card, not played."""
    seen = set(view.hand)
    if view.deck_card is not None:
        seen.add(view.deck_card)
    for cards in view.played:
        seen.update(cards)
    return [c for c in _PACK if c not in seen]


def _partner(view: CostlyColoursView) -> int | None:
    if view.teams is None or view.seat is None:
        return None
    return (view.seat + 2) % len(view.players)


def _show(own: Sequence[Card], deck: Card) -> int:
    return score_show(own, deck).total


def _partial(two: Sequence[Card], deck: Card) -> int:
    """What two own cards and the deck card score on their own (the three-card part of a show)."""
    cards = [*two, deck]
    assert deck.suit is not None
    total = sum(p.points for p in points_parts(cards))
    total += sum(p.points for p in jacks_and_deuces_parts(two, deck.suit))
    total += sum(p.points for p in pairs_parts(cards))
    colour = colours_part(cards)
    return total + (colour.points if colour is not None else 0)


def _gift_balance(card: Card, deck: Card, to_partner: bool) -> int:
    """The points a pass of ``card`` moves besides the hands: the giver's peg for a Jack or Deuce,
    and the same again at the receiver's show (for a partner: ours; for an opponent: theirs)."""
    assert deck.suit is not None
    points = mog_gift_points(card, deck.suit)
    return points + (points if to_partner else -points)


def _gives(legal: Sequence[Action]) -> dict[Card, GiveCard]:
    """The card each pass gives, preferring the claiming version (muggins) of a Jack or Deuce."""
    out: dict[Card, GiveCard] = {}
    for a in legal:
        if isinstance(a, GiveCard) and (a.give not in out or a.claim):
            out[a.give] = a
    return out


def _pick(legal: Sequence[Action], kind: type[Action]) -> Action:
    return next((a for a in legal if isinstance(a, kind)), legal[0])


def _best_bury(view: CostlyColoursView, legal: Sequence[Action]) -> Action:
    """Keep the three cards that show best with the deck card."""
    assert view.deck_card is not None
    deck = view.deck_card

    def kept(a: Action) -> int:
        assert isinstance(a, BuryCard)
        rest = [c for c in view.hand if c != a.bury]
        return _show(rest, deck) - _VALUE[a.bury] // 10  # on a tie, bury a ten or a court

    return max(legal, key=kept)


# --- the play ------------------------------------------------------------------------------------


def _play_cards(legal: Sequence[Action]) -> list[PlayCard]:
    return [a for a in legal if isinstance(a, PlayCard)]


def _greedy_card(view: CostlyColoursView, plays: Sequence[PlayCard]) -> PlayCard:
    """Most points now; then avoid a count the next player turns into 15, 25 or 31 with a ten
    or a court (the commonest cards); then the higher card, keeping low ones for late in a series."""
    ranks = [_RANK[c] for c in view.series]

    def key(a: PlayCard) -> tuple[int, int, int]:
        total = view.count + _VALUE[a.play]
        points = play_points_of([*ranks, _RANK[a.play]], total)
        risky = 1 if total in (5, 15, 21) else 0
        return (points, -risky, _VALUE[a.play])

    return max(plays, key=key)


class _Search:
    """The rest of the play with every hand known (one sample of the unseen cards): the seats of
    ``mine`` maximise their side's points minus the other side's, the others minimise. Hands are
    sorted tuples of sequence ranks (suits do not matter in the play); results are remembered
    across the samples of one decision, which often share the later positions."""

    def __init__(self, mine: Sequence[bool]) -> None:
        self.mine = list(mine)
        self.n = len(mine)
        self.memo: dict[tuple[object, ...], int] = {}

    def turn(self, hands: tuple[tuple[int, ...], ...], ranks: tuple[int, ...], total: int, actor: int, depth: int) -> int:
        key = (hands, ranks, total, actor, depth)
        known = self.memo.get(key)
        if known is not None:
            return known
        room = MAX_COUNT - total
        mine = self.mine[actor]
        best: int | None = None
        last = -1
        for r in hands[actor]:
            if r == last or _RANK_VALUE[r] > room:
                continue
            last = r
            score = self.after_card(hands, ranks, total, actor, r, depth)
            if best is None or (score > best if mine else score < best):
                best = score
        assert best is not None
        self.memo[key] = best
        return best

    def after_card(
        self, hands: tuple[tuple[int, ...], ...], ranks: tuple[int, ...], total: int, actor: int, rank: int, depth: int
    ) -> int:
        new_ranks = (*ranks, rank)
        new_total = total + _RANK_VALUE[rank]
        points = play_points_of(new_ranks, new_total)
        held = list(hands[actor])
        held.remove(rank)
        new_hands = (*hands[:actor], tuple(held), *hands[actor + 1 :])
        gained = points if self.mine[actor] else -points
        return gained + self.next_turn(new_hands, new_ranks, new_total, actor, depth - 1)

    def next_turn(
        self, hands: tuple[tuple[int, ...], ...], ranks: tuple[int, ...], total: int, last: int, depth: int
    ) -> int:
        room = MAX_COUNT - total
        for step in range(1, self.n + 1):
            s = (last + step) % self.n
            held = hands[s]
            if held and _RANK_VALUE[held[0]] <= room:
                return self.turn(hands, ranks, total, s, depth) if depth > 0 else 0
        go = go_points(total)  # nobody can go on: the series ends
        gained = go if self.mine[last] else -go
        if depth <= 0:
            return gained
        for step in range(1, self.n + 1):
            s = (last + step) % self.n
            if hands[s]:
                return gained + self.turn(hands, (), 0, s, depth)
        return gained


def _sample_hands(
    view: CostlyColoursView, pool: list[Card], rng: random.Random
) -> tuple[tuple[int, ...], ...] | None:
    """Hands for the other seats drawn from the unseen cards; a seat that said Go in this series
    gets only cards that would not fit now."""
    assert view.seat is not None
    room = MAX_COUNT - view.count
    others = [s for s in range(len(view.players)) if s != view.seat and view.cards_left[s]]
    hands: list[tuple[int, ...]] = [()] * len(view.players)
    hands[view.seat] = tuple(sorted(_RANK[c] for c in view.hand))
    wanted = sum(view.cards_left[s] for s in others)
    if wanted > len(pool):
        return None
    if not any(view.said_go[s] for s in others):
        drawn = rng.sample(pool, wanted)
        for s in others:
            need = view.cards_left[s]
            hands[s] = tuple(sorted(_RANK[c] for c in drawn[:need]))
            drawn = drawn[need:]
        return tuple(hands)
    cards = list(pool)
    rng.shuffle(cards)
    others.sort(key=lambda s: not view.said_go[s])  # the constrained seats first
    for s in others:
        need = view.cards_left[s]
        fitting = [c for c in cards if _VALUE[c] > room] if view.said_go[s] else cards
        chosen = fitting[:need]
        if len(chosen) < need:
            return None
        for c in chosen:
            cards.remove(c)
        hands[s] = tuple(sorted(_RANK[c] for c in chosen))
    return tuple(hands)


def _searched_card(
    view: CostlyColoursView, plays: Sequence[PlayCard], rng: random.Random, samples: int, depth: int
) -> PlayCard:
    assert view.seat is not None
    by_rank: dict[int, PlayCard] = {}
    for a in sorted(plays, key=lambda a: a.play.code):
        by_rank.setdefault(_RANK[a.play], a)
    if len(by_rank) == 1:
        return next(iter(by_rank.values()))
    n = len(view.players)
    partner = _partner(view)
    mine = [s == view.seat or s == partner for s in range(n)]
    search = _Search(mine)
    pool = _unseen(view)
    ranks = tuple(_RANK[c] for c in view.series)
    totals = dict.fromkeys(by_rank, 0)
    drawn = 0
    for _ in range(samples * 2):
        hands = _sample_hands(view, pool, rng)
        if hands is None:
            continue
        drawn += 1
        for r in by_rank:
            totals[r] += search.after_card(hands, ranks, view.count, view.seat, r, depth)
        if drawn >= samples:
            break
    if not drawn:
        return _greedy_card(view, plays)
    greedy = _greedy_card(view, plays)
    # the greedy choice breaks ties between equally good searched cards
    best = max(by_rank, key=lambda r: (totals[r], r == _RANK[greedy.play]))
    return by_rank[best]


# --- the mog -------------------------------------------------------------------------------------


def _expected_after_give(hand: Sequence[Card], give: Card, deck: Card, incoming: Sequence[Card]) -> float:
    rest = [c for c in hand if c != give]
    return sum(_show([*rest, x], deck) for x in incoming) / len(incoming)


def _incoming(view: CostlyColoursView, rng: random.Random) -> list[Card]:
    pool = _unseen(view)
    return rng.sample(pool, min(GIVE_SAMPLES, len(pool)))


def _swap_gain(view: CostlyColoursView, rng: random.Random) -> tuple[float, Card]:
    """The best pass for this hand and what it gains this side on average (pegs for the pass
    included). The choice also weighs what the card is worth to the receiver (with two random
    cards of theirs): a help to a partner, a gift to an opponent."""
    assert view.deck_card is not None
    deck = view.deck_card
    incoming = _incoming(view, rng)
    to_partner = view.teams is not None
    pool = _unseen(view)
    theirs = [rng.sample(pool, 2) for _ in range(RECEIVER_SAMPLES)]
    sign = 1 if to_partner else -1
    now = _show(view.hand, deck)
    best: tuple[float, float, Card] | None = None
    for c in sorted(view.hand, key=lambda c: c.code):
        value = _expected_after_give(view.hand, c, deck, incoming) + _gift_balance(c, deck, to_partner)
        use = sum(_show([*pair, c], deck) for pair in theirs) / len(theirs) if theirs else 0.0
        rank = value + sign * RECEIVER_WEIGHT * use
        if best is None or rank > best[0]:
            best = (rank, value, c)
    assert best is not None
    return best[1] - now, best[2]


def _mog_worth_it(view: CostlyColoursView, rng: random.Random) -> bool:
    """Two hands: the swap helps the other side too, and saying no gives them 1. Partners: the
    swap helps our side twice and a refusal scores nothing."""
    gain, _ = _swap_gain(view, rng)
    if view.teams is not None:
        return gain + SWAP_GAIN > 0
    return gain - SWAP_GAIN > -1


# --- the players ---------------------------------------------------------------------------------


class EasyCostlyColoursPlayer:
    name = "easy"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        if not isinstance(view, CostlyColoursView) or view.deck_card is None:
            return RandomPlayer().choose(view, legal, rng)
        plays = _play_cards(legal)
        if plays:
            return _greedy_card(view, plays)
        if any(isinstance(a, ProposeMog) for a in legal):
            return _pick(legal, ProposeMog)
        if any(isinstance(a, AcceptMog) for a in legal):
            return _pick(legal, AcceptMog)
        if any(isinstance(a, TakeStock) for a in legal):
            return _pick(legal, TakeStock)
        if any(isinstance(a, BuryCard) for a in legal):
            return _best_bury(view, legal)
        gives = _gives(legal)
        if gives:
            deck = view.deck_card
            to_partner = view.teams is not None

            def kept(c: Card) -> int:
                rest = [h for h in view.hand if h != c]
                return _partial(rest, deck) + _gift_balance(c, deck, to_partner)

            return gives[max(sorted(gives, key=lambda c: c.code), key=kept)]
        return legal[0]


class StrongCostlyColoursPlayer:
    name = "strong"

    def __init__(self, samples_two: int = 60, samples_four: int = 30, depth_four: int = 6) -> None:
        self.samples_two = samples_two
        self.samples_four = samples_four
        self.depth_four = depth_four

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        if not isinstance(view, CostlyColoursView) or view.deck_card is None:
            return RandomPlayer().choose(view, legal, rng)
        plays = _play_cards(legal)
        if plays:
            if view.teams is None:
                return _searched_card(view, plays, rng, self.samples_two, depth=2 * 3)
            return _searched_card(view, plays, rng, self.samples_four, depth=self.depth_four)
        if any(isinstance(a, ProposeMog) for a in legal):
            return _pick(legal, ProposeMog if _mog_worth_it(view, rng) else NoMog)
        if any(isinstance(a, AcceptMog) for a in legal):
            return _pick(legal, AcceptMog if _mog_worth_it(view, rng) else RefuseMog)
        if any(isinstance(a, TakeStock) for a in legal):
            return _pick(legal, TakeStock)  # never worse: the card taken may go straight back
        if any(isinstance(a, BuryCard) for a in legal):
            return _best_bury(view, legal)
        gives = _gives(legal)
        if gives:
            _, card = _swap_gain(view, rng)
            return gives.get(card, next(iter(gives.values())))
        return legal[0]


# the players Costly Colours' declaration names (games/costly_colours.py)
EASY = EasyCostlyColoursPlayer()
STRONG = StrongCostlyColoursPlayer()
