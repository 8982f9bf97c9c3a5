# Over 400 lines: the three-hand trick simulator of the Hoodwink and Parity for Three bots, on card numbers for speed.
"""Three-hand trick play for the bots of Hoodwink and Parity for Three.

What the two games share, on card numbers (indices into the pack) rather than ``Card`` objects so
that thousands of simulated tricks a move stay cheap:

* :class:`Ranking`: one deal's trick rules (following suit, what beats what), built from
  :class:`games.tricks.TrickRules`;
* :class:`World`: a deal in progress with every hand known (one guess at the hidden cards);
* :class:`Goal`: what a deal's trick counts are worth to each seat, and from it the *wish* of a
  seat for the current trick (how much it gains, on average, from each seat winning it);
* :func:`easy_card`: the heuristic play (win cheaply when the wish says win, follow low when
  the trick is lost or unwanted, shed high cards when losing is the aim);
* :class:`Memory` and :func:`sample_hands`: what a seat has seen this deal (cards played, suits
  a player showed out of) and guesses of the other hands consistent with it;
* :func:`search_card`: the strong play, which tries each candidate card in sampled worlds and
  plays the rest of the deal out with :func:`easy_card` for everyone, the other seats playing a
  random card some of the time. A bot cannot tell how well its opponents play: modelling them as
  the easy bot alone misjudges random players, and half-random playouts do well against both
  (measured with every hand known: +8 a deal against easy players, +4 against random ones);
* :func:`random_playout_choice`: the same search with every seat playing at random after the
  card tried (Hoodwink's strong play: it assumes nothing of how the others play).
"""

from __future__ import annotations

import random
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from math import factorial

from games.cards import Card, Suit
from games.tricks import TrickRules

SEATS = 3
TRICKS = 11
Plays = list[tuple[int, Card]]


# --- the rules of one deal -------------------------------------------------------------------------


@dataclass(frozen=True)
class Ranking:
    """One deal's trick rules on card numbers. ``suit`` is the suit a card follows as (0-3) or -1
    for a suitless Joker (Parity for Three), ``trump`` the trump suit or -1."""

    pack: tuple[Card, ...]
    suit: tuple[int, ...]
    strength: tuple[int, ...]
    trump: int
    above: tuple[int, ...]
    """For each card, the bit mask of the cards of its suit that beat it."""
    index: dict[Card, int] = field(compare=False, hash=False)

    @classmethod
    def build(cls, pack: Sequence[Card], rules: TrickRules) -> Ranking:
        suits = sorted({s for c in pack if (s := rules.suit_of(c)) is not None}, key=str)
        code = {s: i for i, s in enumerate(suits)}
        suit = tuple(code[s] if (s := rules.suit_of(c)) is not None else -1 for c in pack)
        strength = tuple(rules.strength(c) for c in pack)
        above = tuple(
            sum(1 << j for j in range(len(pack)) if suit[j] == suit[i] >= 0 and strength[j] > strength[i])
            for i in range(len(pack))
        )
        trump = code[rules.trump] if rules.trump is not None and rules.trump in code else -1
        return cls(tuple(pack), suit, strength, trump, above, {c: i for i, c in enumerate(pack)})

    def power(self, c: int, led_suit: int, is_lead: bool) -> int:
        s = self.suit[c]
        if s < 0:
            return 10_000 if is_lead else 0
        if s == self.trump:
            return 1_000 + self.strength[c]
        if s == led_suit:
            return 100 + self.strength[c]
        return 0


# --- what trick counts are worth ---------------------------------------------------------------------


@cache
def splits(tricks: int) -> tuple[tuple[tuple[int, int, int], float], ...]:
    """Every way ``tricks`` tricks may fall to three seats, with its chance when each trick goes to
    any seat alike (the easy bots' picture of the future)."""
    out = []
    for a in range(tricks + 1):
        for b in range(tricks - a + 1):
            c = tricks - a - b
            ways = factorial(tricks) // (factorial(a) * factorial(b) * factorial(c))
            out.append(((a, b, c), ways / SEATS**tricks))
    return tuple(out)


class Goal:
    """A deal's scoring seen by the bots. Subclasses give :meth:`scores`; a seat's *value* is its
    score less the average of the other two (the race is against both)."""

    def __init__(self) -> None:
        self._wishes: dict[tuple[tuple[int, ...], int, int | None], tuple[float, ...]] = {}

    def scores(self, counts: Sequence[int], first: int | None, last: int | None) -> Sequence[int]:
        raise NotImplementedError

    def value(self, counts: Sequence[int], seat: int, first: int | None, last: int | None) -> float:
        s = self.scores(counts, first, last)
        return s[seat] - (sum(s) - s[seat]) / 2

    def wish(self, counts: Sequence[int], seat: int, first: int | None) -> tuple[float, ...]:
        """For each seat, what ``seat`` expects to end with if that seat wins the current trick
        (the later tricks falling at random)."""
        key = (tuple(counts), seat, first)
        known = self._wishes.get(key)
        if known is not None:
            return known
        left = TRICKS - sum(counts) - 1
        out = []
        for w in range(SEATS):
            now = list(counts)
            now[w] += 1
            first_w = w if first is None else first
            total = 0.0
            for (a, b, c), p in splits(left):
                final = (now[0] + a, now[1] + b, now[2] + c)
                total += p * self.value(final, seat, first_w, None)
            out.append(total)
        result = tuple(out)
        self._wishes[key] = result
        return result


# --- a deal with every hand known ----------------------------------------------------------------------


class World:
    """A deal in progress on card numbers; ``joker`` is the card that must go to the first trick
    (Parity for Three's Joker), or -1."""

    __slots__ = ("counts", "first", "hands", "joker", "last", "leader", "plays", "rank", "seen")

    def __init__(
        self,
        rank: Ranking,
        hands: list[list[int]],
        leader: int,
        plays: list[tuple[int, int]],
        counts: list[int],
        seen: int,
        first: int | None = None,
        last: int | None = None,
        joker: int = -1,
    ) -> None:
        self.rank = rank
        self.hands = hands
        self.leader = leader
        self.plays = plays
        self.counts = counts
        self.seen = seen
        self.first = first
        self.last = last
        self.joker = joker

    def copy(self) -> World:
        return World(
            self.rank,
            [list(h) for h in self.hands],
            self.leader,
            list(self.plays),
            list(self.counts),
            self.seen,
            self.first,
            self.last,
            self.joker,
        )

    @property
    def done(self) -> bool:
        return sum(self.counts) == TRICKS

    @property
    def to_play(self) -> int:
        return (self.leader + len(self.plays)) % SEATS

    def legal(self, seat: int) -> list[int]:
        hand = self.hands[seat]
        if self.joker >= 0 and self.first is None and self.joker in hand:
            return [self.joker]
        if not self.plays:
            return list(hand)
        led = self.rank.suit[self.plays[0][1]]
        if led < 0:
            return list(hand)
        suit = self.rank.suit
        same = [c for c in hand if suit[c] == led]
        return same or list(hand)

    def winning(self) -> tuple[int, int]:
        """The seat winning the trick so far and its card's power."""
        led = self.rank.suit[self.plays[0][1]]
        best_seat, best = self.plays[0][0], self.rank.power(self.plays[0][1], led, True)
        for s, c in self.plays[1:]:
            p = self.rank.power(c, led, False)
            if p > best:
                best_seat, best = s, p
        return best_seat, best

    def play(self, seat: int, c: int) -> None:
        self.hands[seat].remove(c)
        self.plays.append((seat, c))
        self.seen |= 1 << c
        if len(self.plays) < SEATS:
            return
        winner, _ = self.winning()
        self.counts[winner] += 1
        if self.first is None:
            self.first = winner
        self.last = winner
        self.leader = winner
        self.plays = []


# --- the easy play ----------------------------------------------------------------------------------------


def easy_card(world: World, seat: int, legal: Sequence[int], goal: Goal) -> int:
    """Win the trick cheaply if the seat's wish is to win it, else play under or shed high cards."""
    if len(legal) == 1:
        return legal[0]
    rank = world.rank
    wish = goal.wish(world.counts, seat, world.first)
    mine = wish[seat]
    want_win = all(mine > wish[s] + 1e-9 for s in range(SEATS) if s != seat)
    if not world.plays:
        return _lead(world, seat, legal, want_win)
    led = rank.suit[world.plays[0][1]]
    _, best = world.winning()
    powers = {c: rank.power(c, led, False) for c in legal}
    winners = [c for c in legal if powers[c] > best]
    losers = [c for c in legal if powers[c] <= best]
    last = len(world.plays) == SEATS - 1
    if want_win:
        if winners:
            if last:
                return min(winners, key=lambda c: powers[c])
            return max(winners, key=lambda c: powers[c])
        return _lowest(rank, losers)
    if losers:
        return _highest(rank, losers)
    return max(winners, key=lambda c: powers[c]) if last else min(winners, key=lambda c: powers[c])


def _worth(rank: Ranking, c: int) -> int:
    """How useful a card is for winning tricks later (trumps above everything)."""
    s = rank.suit[c]
    return rank.strength[c] + (100 if s == rank.trump else 0) + (200 if s < 0 else 0)


def _lowest(rank: Ranking, cards: Sequence[int]) -> int:
    return min(cards, key=lambda c: _worth(rank, c))


def _highest(rank: Ranking, cards: Sequence[int]) -> int:
    return max(cards, key=lambda c: _worth(rank, c))


def _lead(world: World, seat: int, legal: Sequence[int], want_win: bool) -> int:
    rank = world.rank
    if not want_win:
        return _lowest(rank, legal)
    known = world.seen | _mask(world.hands[seat])
    bosses = [c for c in legal if rank.suit[c] >= 0 and not (rank.above[c] & ~known)]
    if bosses:
        # a sure winner: trumps first (they cannot be ruffed), then the longest side suit
        return max(bosses, key=lambda c: (rank.suit[c] == rank.trump, rank.strength[c]))
    side = [c for c in legal if rank.suit[c] != rank.trump] or list(legal)
    return _lowest(rank, side)


def _mask(cards: Sequence[int]) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out




Noise = float | Sequence[float]
"""How often the other seats play a random card in a playout: one figure for all, or one per seat."""


def play_out(world: World, goal: Goal, me: int = -1, noise: Noise = 0.0, rng: random.Random | None = None) -> None:
    """Finish the deal with the easy play for every seat; with ``noise``, the seats other than
    ``me`` play a random card that often instead (the bot cannot tell how well others play)."""
    per_seat = [noise] * SEATS if isinstance(noise, (int, float)) else list(noise)
    while not world.done:
        seat = world.to_play
        legal = world.legal(seat)
        if per_seat[seat] and seat != me and rng is not None and rng.random() < per_seat[seat]:
            world.play(seat, legal[rng.randrange(len(legal))])
        else:
            world.play(seat, easy_card(world, seat, legal, goal))


# --- what a seat has seen ----------------------------------------------------------------------------------


@dataclass
class Seen:
    """A seat's memory of one deal: the cards played and the suits each seat showed out of."""

    tricks: int = 0
    played: set[Card] = field(default_factory=set)
    void: list[set[int]] = field(default_factory=lambda: [set() for _ in range(SEATS)])


class Memory:
    """What each bot seat remembers of the deal in progress, keyed by the table as the view shows it.

    A bot is asked at every trick, and each time sees the trick in progress and the last one, so
    together they hold every card played. A stale record (another match with the same names)
    shows itself by holding a card now in the hand, or more tricks than were played; it is dropped.
    """

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._seen: OrderedDict[tuple[object, ...], Seen] = OrderedDict()
        self._lock = threading.Lock()  # the table service lets bots think in worker threads

    def update(
        self, key: tuple[object, ...], hand: Sequence[Card], tricks: int, rank: Ranking, shown: Sequence[Plays]
    ) -> Seen:
        with self._lock:
            record = self._seen.get(key)
            if record is None or record.tricks > tricks or any(c in record.played for c in hand):
                record = Seen()
            self._seen[key] = record
            self._seen.move_to_end(key)
            while len(self._seen) > self.size:
                self._seen.popitem(last=False)
        record.tricks = tricks
        for plays in shown:
            if not plays:
                continue
            led = rank.suit[rank.index[plays[0][1]]]
            for seat, c in plays:
                record.played.add(c)
                s = rank.suit[rank.index[c]]
                if led >= 0 and s >= 0 and s != led:
                    record.void[seat].add(led)
        return record


def sample_hands(
    rank: Ranking,
    me: int,
    pool: Sequence[int],
    need: Sequence[int],
    fixed: Sequence[Sequence[int]],
    void: Sequence[set[int]],
    rng: random.Random,
) -> list[list[int]] | None:
    """Hands for the two other seats: their ``fixed`` (known) cards plus cards from ``pool``,
    ``need[s]`` more each, avoiding suits a seat showed out of. If the pool holds more cards than
    needed (a seat that joined mid-deal remembers less), the surplus stands for cards played."""
    a, b = (s for s in range(SEATS) if s != me)
    need_a, need_b = need[a], need[b]
    only_a, only_b, both = [], [], []
    for c in pool:
        s = rank.suit[c]
        ok_a, ok_b = s not in void[a], s not in void[b]
        if ok_a and ok_b:
            both.append(c)
        elif ok_a:
            only_a.append(c)
        elif ok_b:
            only_b.append(c)
    rng.shuffle(both)
    rng.shuffle(only_a)
    rng.shuffle(only_b)
    if len(only_a) > need_a or len(only_b) > need_b or len(only_a) + len(only_b) + len(both) < need_a + need_b:
        cards = list(pool)  # the memory disagrees with the counts: forget the voids
        if len(cards) < need_a + need_b:
            return None
        rng.shuffle(cards)
        only_a, only_b, both = [], [], cards
    k = need_a - len(only_a)
    hand_a = only_a + both[:k]
    rest = both[k:]
    hand_b = only_b + rest[: need_b - len(only_b)]
    hands: list[list[int]] = [[], [], []]
    hands[a] = [*fixed[a], *hand_a]
    hands[b] = [*fixed[b], *hand_b]
    return hands


# --- the strong play -------------------------------------------------------------------------------------------


def distinct_choices(world: World, seat: int, legal: Sequence[int], unknown: int) -> list[int]:
    """The legal cards with equivalent ones left out: of two cards of one suit with nothing but
    the seat's own cards (or cards played) between them, only the lower is tried."""
    rank = world.rank
    out: list[int] = []
    mine = _mask(world.hands[seat])
    for c in sorted(legal, key=lambda c: (rank.suit[c], rank.strength[c])):
        if out and rank.suit[out[-1]] == rank.suit[c] >= 0:
            between = rank.above[out[-1]] & ~rank.above[c] & ~(1 << c)
            if not (between & unknown & ~mine):
                continue
        out.append(c)
    return out


def search_card(
    worlds: Sequence[World],
    seat: int,
    choices: Sequence[int],
    goal: Goal,
    noise: Noise = 0.0,
    rng: random.Random | None = None,
) -> int:
    """The card with the best average value over the sampled worlds, each played out by the
    easy play after it (the same worlds for every card, so luck cancels out)."""
    if len(choices) == 1 or not worlds:
        return choices[0]
    totals = dict.fromkeys(choices, 0.0)
    base = rng.randrange(1 << 30) if rng is not None else 0
    for i, world in enumerate(worlds):
        for c in choices:
            w = world.copy()
            w.play(seat, c)
            # the same random plays for every candidate in one world, so luck cancels out
            play_out(w, goal, seat, noise, random.Random(base + i) if noise else None)
            totals[c] += goal.value(w.counts, seat, w.first, w.last)
    return max(choices, key=lambda c: totals[c])


# --- what both games' players share -------------------------------------------------------------------


@dataclass
class Knowledge:
    """A deal as one seat knows it: a world holding only its own hand (the others are guessed per
    sample), the mask and the pool of the cards it has not seen, how many more each other seat
    holds beyond its ``fixed`` (known) cards, and the suits each seat showed out of."""

    rank: Ranking
    world: World
    unknown: int
    pool: list[int]
    need: list[int]
    fixed: list[list[int]]
    voids: list[set[int]]


def cards_played(rank: Ranking, seen: Seen, trick: Sequence[tuple[int, Card]]) -> set[int]:
    """The cards a seat has seen played this deal, the trick in progress included."""
    return {rank.index[c] for c in seen.played} | {rank.index[c] for _, c in trick}


def seat_knowledge(
    rank: Ranking,
    me: int,
    hand: Sequence[Card],
    trick: Sequence[tuple[int, Card]],
    tricks_won: Sequence[int],
    played: set[int],
    fixed: list[list[int]],
    voids: Sequence[set[int]],
    *,
    leader: int,
    first: int | None = None,
    last: int | None = None,
    joker: int = -1,
) -> Knowledge:
    """What ``me`` knows, from its hand, the cards ``played`` and the known cards ``fixed`` of
    the others; ``leader``, ``first``, ``last`` and ``joker`` are as in :class:`World`."""
    idx = rank.index
    mine = [idx[c] for c in hand]
    known = played | set(mine) | {c for f in fixed for c in f}
    pool = [i for i in range(len(rank.pack)) if i not in known]
    in_trick = {s for s, _ in trick}
    tricks = sum(tricks_won)
    need = [TRICKS - tricks - (1 if s in in_trick else 0) - len(fixed[s]) for s in range(SEATS)]
    hands: list[list[int]] = [[] for _ in range(SEATS)]
    hands[me] = mine
    plays = [(s, idx[c]) for s, c in trick]
    world = World(rank, hands, leader, plays, list(tricks_won), _mask(sorted(played)), first, last, joker)
    unknown = _mask(pool) | _mask([c for f in fixed for c in f])
    return Knowledge(rank, world, unknown, pool, need, fixed, [set(v) for v in voids])


def easy_choice(known: Knowledge, me: int, legal: Sequence[Card], goal: Goal) -> Card:
    """The easy play among the ``legal`` cards."""
    rank = known.rank
    return rank.pack[easy_card(known.world, me, [rank.index[c] for c in legal], goal)]


def strong_choice(
    known: Knowledge,
    me: int,
    legal: Sequence[Card],
    goal: Goal,
    budget: int,
    noise: Noise,
    rng: random.Random,
    max_worlds: int = 24,
) -> Card:
    """The strong play: each distinct legal card tried in sampled deals of the unseen cards, the
    deal played out after it (``budget`` playouts in all, 4 to ``max_worlds`` deals)."""
    rank, base = known.rank, known.world
    choices = distinct_choices(base, me, [rank.index[c] for c in legal], known.unknown)
    if len(choices) == 1:
        return rank.pack[choices[0]]
    worlds = []
    for _ in range(max(4, min(max_worlds, budget // len(choices)))):
        hands = sample_hands(rank, me, known.pool, known.need, known.fixed, known.voids, rng)
        if hands is None:
            continue
        w = base.copy()
        for s in range(SEATS):
            if s != me:
                w.hands[s] = hands[s]
        worlds.append(w)
    return rank.pack[search_card(worlds, me, choices, goal, noise, rng)]


Keep = Callable[[list[list[int]]], float]
"""The chance a sampled deal (the others' hands as card indices) is kept: how likely the others'
hands are given what they said before the play, relative to the likeliest."""


def sample_kept(known: Knowledge, me: int, rng: random.Random, keep: Keep | None, tries: int = 12) -> list[list[int]] | None:
    """One sampled deal of the others' hands, kept with the chance ``keep`` gives (rejection
    sampling); after ``tries`` refusals the last one drawn is used."""
    hands = None
    for _ in range(tries):
        hands = sample_hands(known.rank, me, known.pool, known.need, known.fixed, known.voids, rng)
        if hands is None or keep is None or rng.random() < keep(hands):
            return hands
    return hands


def random_playout_choice(
    known: Knowledge,
    me: int,
    legal: Sequence[Card],
    goal: Goal,
    samples: int,
    rng: random.Random,
    keep: Keep | None = None,
) -> Card:
    """Each distinct legal card tried in ``samples`` sampled deals of the unseen cards, every seat
    then playing at random (the same random plays for every card in one deal). Random playouts
    assume nothing of how the others play, where the easy play's picture of them is often wrong.
    With ``keep``, deals are drawn in proportion to how likely the calls made them (:func:`sample_kept`)."""
    rank, base = known.rank, known.world
    choices = distinct_choices(base, me, [rank.index[c] for c in legal], known.unknown)
    if len(choices) == 1:
        return rank.pack[choices[0]]
    totals = dict.fromkeys(choices, 0.0)
    for _ in range(samples):
        hands = sample_kept(known, me, rng, keep)
        if hands is None:
            continue
        seed = rng.randrange(1 << 30)
        for c in choices:
            w = base.copy()
            for s in range(SEATS):
                if s != me:
                    w.hands[s] = list(hands[s])
            w.play(me, c)
            play_out(w, goal, -1, 1.0, random.Random(seed))
            totals[c] += goal.value(w.counts, me, w.first, w.last)
    return rank.pack[max(choices, key=lambda c: totals[c])]


def suit_strength(hand: Sequence[Card], suit: Suit) -> tuple[int, list[int]]:
    """Length first, then the ranks from the top."""
    ranks = sorted((int(c.rank) for c in hand if c.suit == suit and c.rank is not None), reverse=True)
    return len(ranks), ranks


def whole_hands(pack: Sequence[Card], plays: Sequence[set[Card]], hand: Sequence[Card], me: int) -> list[list[list[Card]]]:
    """Every way the others' whole hands may have been at the end of a three-hand deal, from the
    cards each seat was seen to play (``plays``), the seat's own last ``hand`` and the cards never
    seen (the last trick's, when the seat played before its end): at most two ways."""
    shown = set().union(*plays) | set(hand)
    unseen = [c for c in pack if c not in shown]
    others = [s for s in range(len(plays)) if s != me]
    short = [TRICKS - len(plays[s]) for s in others]
    if min(short) < 0 or sum(short) != len(unseen) or len(unseen) > 2:
        return []
    ways: list[list[list[Card]]] = []
    for order in dict.fromkeys([tuple(unseen), tuple(reversed(unseen))]):
        hands: list[list[Card]] = [[] for _ in plays]
        hands[others[0]] = [*plays[others[0]], *order[: short[0]]]
        hands[others[1]] = [*plays[others[1]], *order[short[0] :]]
        ways.append(hands)
    return ways
