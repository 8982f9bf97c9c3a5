"""A plain determinized Monte Carlo player for the three-hand trick games: a bench and test
opponent, not a level (issue 29: is each game's strong player at least level with it?).

What is generic (this module): a seat's memory of the deal from its views (every card it saw
played, the suits a player showed out of), deals of the unseen cards consistent with it (hand
sizes, cards known to be in a hand, voids; uniform over the deals that fit), and the search: for
each decision, ``samples`` such deals, every legal choice tried in each and the deal played out at
random by everyone (the same random plays for every choice in one deal, so luck cancels out), the
choice with the best average deal score (its own less the others' mean) taken.

What is per game (a :class:`TrickGame`, a few dozen lines each): the deal as the view shows it
(trick rules, the trick, counts, cards known to be in a hand, a card that must go to the first
trick), the deal's scores from the trick counts, and the calls before the play (tried the same
way, the others' calls at random: the player assumes nothing of how they call).

It is written from the rules (``shared/rules/``) and the views alone: it shares with the shipped
players nothing but the games' own rules code (:class:`games.tricks.TrickRules`, the scoring).
"""

from __future__ import annotations

import random
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from games.cards import Card, Suit
from games.engine import Action, View
from games.tricks import TrickRules

SEATS = 3
Plays = list[tuple[int, Card]]
Scores = Callable[[Sequence[int], "int | None", "int | None"], Sequence[float]]
"""A deal's scores for each seat from the trick counts, the first and the last trick's winners."""


# --- what a seat saw -----------------------------------------------------------------------------------


@dataclass
class Seen:
    """One seat's memory of one deal."""

    tricks: int = 0
    played: set[Card] = field(default_factory=set)
    void: list[set[Suit]] = field(default_factory=lambda: [set() for _ in range(SEATS)])


class SeatMemory:
    """What each seat remembers of the deal in progress, keyed by the table as its view shows it.
    A seat asked at every turn sees the trick in progress and the last one, so together they hold
    every card played; a stale record (a card now in the hand, more tricks than played) is dropped."""

    def __init__(self) -> None:
        self._seen: OrderedDict[tuple[object, ...], Seen] = OrderedDict()
        self._lock = threading.Lock()

    def update(
        self, key: tuple[object, ...], hand: Sequence[Card], tricks: int, rules: TrickRules, shown: Sequence[Plays]
    ) -> Seen:
        with self._lock:
            seen = self._seen.get(key)
            if seen is None or seen.tricks > tricks or any(c in seen.played for c in hand):
                seen = Seen()
            self._seen[key] = seen
            self._seen.move_to_end(key)
            while len(self._seen) > 256:
                self._seen.popitem(last=False)
        seen.tricks = tricks
        for plays in shown:
            if not plays:
                continue
            led = rules.suit_of(plays[0][1])
            for seat, card in plays:
                seen.played.add(card)
                suit = rules.suit_of(card)
                # a suitless card (a Joker) played to a suit shows nothing: it may be forced
                if led is not None and suit is not None and suit != led:
                    seen.void[seat].add(led)
        return seen


# --- one decision's deal -----------------------------------------------------------------------------


@dataclass
class Deal:
    """A deal in play as one seat knows it."""

    me: int
    rules: TrickRules
    hand: list[Card]
    trick: Plays
    leader: int
    """Who led the trick in progress (or leads the next one)."""
    counts: list[int]
    need: list[int]
    """How many unknown cards each other seat holds (beyond its ``fixed`` ones)."""
    pool: list[Card]
    """The cards the seat has not seen (held by the others)."""
    fixed: list[list[Card]]
    """Cards the seat knows another seat holds."""
    void: list[set[Suit]]
    scores: Scores
    first: int | None = None
    last: int | None = None
    must_first: Card | None = None
    """A card its holder must play to the first trick (Parity for Three's Joker)."""


def sample_hands(deal: Deal, rng: random.Random) -> list[list[Card]] | None:
    """The three hands: the seat's own and the others' unknown cards dealt at random among the
    deals that fit the voids (a card only one of them may hold goes to that one), or ``None``
    if nothing fits."""
    me, rules = deal.me, deal.rules
    a, b = (s for s in range(SEATS) if s != me)
    only_a: list[Card] = []
    only_b: list[Card] = []
    both: list[Card] = []
    for c in deal.pool:
        suit = rules.suit_of(c)
        ok_a, ok_b = suit not in deal.void[a], suit not in deal.void[b]
        if ok_a and ok_b:
            both.append(c)
        elif ok_a:
            only_a.append(c)
        elif ok_b:
            only_b.append(c)
        else:
            return None
    k = deal.need[a] - len(only_a)
    if k < 0 or len(both) - k != deal.need[b] - len(only_b) or deal.need[b] < len(only_b):
        return None
    rng.shuffle(both)
    hands: list[list[Card]] = [[], [], []]
    hands[me] = list(deal.hand)
    hands[a] = [*deal.fixed[a], *only_a, *both[:k]]
    hands[b] = [*deal.fixed[b], *only_b, *both[k:]]
    return hands


def playout(deal: Deal, hands: list[list[Card]], trick: Plays, leader: int, counts: list[int], rng: random.Random) -> float:
    """Play the deal out at random from here; the seat's deal score less the others' mean."""
    rules, must = deal.rules, deal.must_first
    first, last = deal.first, deal.last
    trick = list(trick)
    while True:
        if len(trick) == SEATS:
            winner = rules.winner(trick)
            counts[winner] += 1
            first = winner if first is None else first
            last, leader, trick = winner, winner, []
        seat = (leader + len(trick)) % SEATS
        hand = hands[seat]
        if not hand:
            break
        if must is not None and first is None and must in hand:
            card = must
        else:
            options = rules.follow_options(hand, trick[0][1] if trick else None)
            card = options[rng.randrange(len(options))]
        hand.remove(card)
        trick.append((seat, card))
    scores = deal.scores(counts, first, last)
    me = deal.me
    return scores[me] - (sum(scores) - scores[me]) / 2


def best_card(deal: Deal, legal: Sequence[Card], samples: int, rng: random.Random) -> Card:
    """The legal card with the best average score over ``samples`` sampled deals."""
    if len(legal) == 1:
        return legal[0]
    totals = dict.fromkeys(legal, 0.0)
    for _ in range(samples):
        hands = sample_hands(deal, rng)
        if hands is None:
            continue
        seed = rng.randrange(1 << 30)
        for card in legal:
            trial = [list(h) for h in hands]
            trial[deal.me].remove(card)
            totals[card] += playout(
                deal, trial, [*deal.trick, (deal.me, card)], deal.leader, list(deal.counts), random.Random(seed)
            )
    return max(legal, key=lambda c: totals[c])


# --- the player ------------------------------------------------------------------------------------


class TrickGame(Protocol):
    """A game's part: its deal as the view shows it, and its calls before the play."""

    def deal(self, view: Any, memory: SeatMemory) -> Deal | None:
        """The deal in play as the seat knows it (after taking in what the view shows), or
        ``None`` before the play."""

    def call(self, view: Any, legal: Sequence[Action], samples: int, rng: random.Random) -> Action:
        """A call before the play (several legal actions, none a card)."""


class MonteCarloTrickPlayer:
    """Determinized Monte Carlo with random playouts (see the module's notes)."""

    name = "mc"

    def __init__(self, game: TrickGame, samples: int = 60) -> None:
        self.game, self.samples = game, samples
        self.memory = SeatMemory()

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        deal = self.game.deal(view, self.memory)  # taken in at every turn, so no trick goes unseen
        if len(legal) == 1:
            return legal[0]
        cards = {a.card: a for a in legal if a.card is not None}
        if deal is None or not cards:
            return self.game.call(view, legal, self.samples, rng)
        return cards[best_card(deal, list(cards), self.samples, rng)]


# --- Parity for Three ------------------------------------------------------------------------------


class ParityForThreeMC:
    """Parity for Three's part (``shared/rules/parity_for_three``): trumps and the target parity
    are named from random deals (the Joker with its holder where that is known), the other
    non-holder naming the parity at random; the Joker goes to the first trick."""

    def __init__(self) -> None:
        from games.cards import JOKER, piquet_pack
        from games.parity_for_three import RANKS, player_score

        self.joker, self.pack, self.ranks, self.player_score = JOKER, piquet_pack(jokers=[JOKER]), RANKS, player_score

    def _rules(self, trump: Suit) -> TrickRules:
        return TrickRules(self.ranks, trump, jokers_are_trumps=False)

    def _scores(self, target: Any) -> Scores:
        return lambda counts, first, last: [self.player_score(t, target) for t in counts]

    def deal(self, view: Any, memory: SeatMemory) -> Deal | None:
        me = view.seat
        if view.trump is None or view.target is None or me is None:
            return None
        rules = self._rules(view.trump)
        tricks = sum(view.tricks_won)
        key = (tuple(view.players), me, view.deal, view.dealer, tuple(view.scores))
        seen = memory.update(key, view.hand, tricks, rules, [view.last_trick, view.trick])
        played = seen.played | {c for _, c in view.trick}
        fixed: list[list[Card]] = [[], [], []]
        holder = view.joker_holder
        if holder is not None and holder != me and self.joker not in played:
            fixed[holder].append(self.joker)
        known = played | set(view.hand) | {c for f in fixed for c in f}
        pool = [c for c in self.pack if c not in known]
        in_trick = {s for s, _ in view.trick}
        need = [11 - tricks - (s in in_trick) - len(fixed[s]) for s in range(SEATS)]
        if view.trick:
            leader = view.trick[0][0]
        elif view.last_winner is not None:
            leader = view.last_winner
        else:
            leader = ((view.dealer or 0) + 1) % SEATS
        return Deal(
            me, rules, list(view.hand), list(view.trick), leader, list(view.tricks_won), need, pool, fixed,
            [set(v) for v in seen.void], self._scores(view.target),
            first=0 if tricks else None,  # only whether the first trick is over matters here
            must_first=self.joker,
        )

    def call(self, view: Any, legal: Sequence[Action], samples: int, rng: random.Random) -> Action:
        from games.parity import ChooseParity, ChooseTrump, Parity

        me = view.seat
        dealer = view.dealer or 0
        holder = view.joker_holder
        trumps = [a for a in legal if isinstance(a, ChooseTrump) and a.suit is not None]
        if not trumps and holder is None:
            holder = dealer  # naming the target before the holder spoke: the holder speaks last
        unseen = [c for c in self.pack if c not in view.hand]
        totals = [0.0] * len(legal)
        for _ in range(samples):
            rng.shuffle(unseen)
            others = [s for s in range(SEATS) if s != me]
            hands: list[list[Card]] = [[], [], []]
            hands[me] = list(view.hand)
            hands[others[0]], hands[others[1]] = unseen[:11], unseen[11:]
            if holder is not None and holder != me and self.joker not in hands[holder]:
                other = others[0] if others[1] == holder else others[1]
                swap = rng.randrange(11)
                hands[holder][swap], hands[other][hands[other].index(self.joker)] = self.joker, hands[holder][swap]
            seed = rng.randrange(1 << 30)
            their = rng.choice(list(Parity))  # the other non-holder's target, when they name it
            for k, action in enumerate(legal):
                if isinstance(action, ChooseTrump) and action.suit is not None:
                    trump, target = action.suit, their
                elif isinstance(action, ChooseParity):
                    trump, target = view.trump, action.parity
                else:
                    continue
                deal = Deal(
                    me, self._rules(trump), [], [], (dealer + 1) % SEATS, [0, 0, 0], [0, 0, 0], [],
                    [[], [], []], [set(), set(), set()], self._scores(target), must_first=self.joker,
                )
                trial = [list(h) for h in hands]
                totals[k] += playout(deal, trial, [], deal.leader, [0, 0, 0], random.Random(seed))
        return legal[max(range(len(legal)), key=lambda k: totals[k])]


GAMES: dict[str, Callable[[], TrickGame]] = {"parity_for_three": ParityForThreeMC}
"""The games this player knows, by id."""


def monte_carlo_player(game_id: str, samples: int = 60) -> MonteCarloTrickPlayer:
    return MonteCarloTrickPlayer(GAMES[game_id](), samples)
