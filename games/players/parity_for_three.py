# Over 400 lines: one game's bot levels with what the strong level knows (the deal memory, the table model that learns each opponent's calls, the deal sampler); the trick simulation it plays sampled deals out with is games/players/trick_sim.py.
"""Bot players for Parity for Three.

* ``easy``: names as trumps its longest (then strongest) suit; names the parity of the tricks its
  hand looks worth (Aces, guarded Kings, long trumps); in play it wants a trick when its count has
  the wrong parity and not when it has the right one (weighing the 10 for no trick and the other
  players' parities through the same expected-score reckoning the Hoodwink bot uses), wins
  cheaply or plays under.
* ``strong``: determinized Monte Carlo search on the same view. For a card it draws 100 deals of
  the unseen cards consistent with what its seat has seen (cards played, the announced Joker with
  its holder, suits players showed out of), in proportion to how likely each makes the calls the
  others made (:class:`TableModel`), tries every distinct legal card in each and plays the rest
  out at random for everyone, choosing the best average deal score (its own less the others'
  mean). Each call is tried the same way in 120 random deals of the unseen cards (the Joker with
  its holder): naming trumps, the other non-holder names the target the easy bot would with the
  chance the table has shown for that player, the other parity otherwise; naming the target, the
  deals are drawn in proportion to how likely the trump caller was to name these trumps. Budgets
  are counts, never times.
  History (issue 29). The earlier strong player played deals out with the easy play (the others
  playing a random card half the time, 120 playouts a card) and called from 10 deals, and it
  skipped its memory on forced plays. A plain Monte Carlo player of 60 samples a decision
  (tests/bench/trick_mc.py) won .600 [.49, .70] of 75 matches against two of it, 14.6 points a
  match ahead (seeds 990000..990074, tests/bench/trick_duel.py). With random playouts and calls
  from 60 deals it still won .493 [.38, .60] of 75 (992000..992074, +8.5 a match), which led to
  a bug in the call: naming the target before the Joker was announced, the search gave the Joker
  to either other seat where it can only be the dealer's (:func:`joker_holder`). With that fixed:
  .427 [.32, .54] of 75 (994000..994074, +4.8 a match); strong won .792 [.60, .91] of 24 against
  two easy bots (993000..993023). Then the others' calls were modelled from the table: over 16
  matches (990500..) the Monte Carlo player's trumps were the easy bot's (its longest suit) in 33
  of 49 calls and its targets in 28 of 43, strong's in 31 of 38 and 24 of 44, which set the priors
  (0.7 and 0.6). The shipped player, on seeds not used in tuning: the Monte Carlo player won .340
  [.29, .40] of 300 matches against two of it, +0.3 points a match (996000..996299, two runs of
  150 each .340); strong won .844 [.71, .92] of 45 against two easy bots (997000..997044, +27.7 a
  match). Strong's CPU per decision p99 57 ms, max 78 ms.
"""

from __future__ import annotations

import random
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from games.cards import JOKER, SUITS, Card, Suit, piquet_pack
from games.engine import Action, PlayCard, View
from games.parity import Parity
from games.parity_for_three import (
    PLAYERS,
    RANKS,
    ChooseParity,
    ChooseTrump,
    ParityForThreeView,
    player_score,
)
from games.players import RandomPlayer
from games.players.trick_sim import (
    TRICKS,
    Goal,
    Keep,
    Knowledge,
    Memory,
    Ranking,
    World,
    cards_played,
    easy_choice,
    play_out,
    random_playout_choice,
    seat_knowledge,
    strong_choice,
    suit_strength,
    whole_hands,
)
from games.tricks import TrickRules

PACK: tuple[Card, ...] = tuple(piquet_pack(jokers=[JOKER]))
_RANKINGS: dict[Suit, Ranking] = {
    s: Ranking.build(PACK, TrickRules(RANKS, s, jokers_are_trumps=False)) for s in SUITS
}
_JOKER = PACK.index(JOKER)


class ParityGoal(Goal):
    """Everyone scores 1 a trick (10 for none) plus 10 on the target parity."""

    def __init__(self, target: Parity) -> None:
        super().__init__()
        self.target = target
        self._scores: dict[tuple[int, ...], list[int]] = {}

    def scores(self, counts: Sequence[int], first: int | None, last: int | None) -> Sequence[int]:
        key = tuple(counts)
        known = self._scores.get(key)
        if known is None:
            known = self._scores[key] = [player_score(t, self.target) for t in counts]
        return known


GOALS: dict[Parity, ParityGoal] = {p: ParityGoal(p) for p in Parity}


# --- announcements ------------------------------------------------------------------------------------


def easy_trump(hand: Sequence[Card]) -> Suit:
    """The longest suit, the higher cards breaking ties."""
    return max(SUITS, key=lambda s: suit_strength(hand, s))


def trick_estimate(hand: Sequence[Card], trump: Suit) -> float:
    """A rough count of the tricks a hand takes: Aces, Kings with a guard, trumps beyond three."""
    worth = 0.0
    for s in SUITS:
        length, ranks = suit_strength(hand, s)
        worth += sum(1.0 for r in ranks if r == 14)
        worth += sum(0.5 for r in ranks if r == 13 and length >= 2)
        if s == trump:
            worth += 0.6 * max(0, length - 3)
    return worth


def easy_parity(hand: Sequence[Card], trump: Suit) -> Parity:
    return Parity.ODD if round(trick_estimate(hand, trump)) % 2 else Parity.EVEN


def joker_holder(view: ParityForThreeView) -> int | None:
    """Who holds the Joker, where the seat can tell: its announced holder, or, once trumps are
    named and nobody has announced it, the dealer (the only seat yet to speak: the trump caller
    does not hold it, and a holder who had spoken would have said so)."""
    if view.joker_holder is not None:
        return view.joker_holder
    if view.trump is not None and JOKER not in view.hand:
        return view.dealer
    return None


def _deal_worlds(
    view: ParityForThreeView,
    rng: random.Random,
    samples: int,
    keep: Callable[[list[list[Card]]], float] | None = None,
    tries: int = 12,
) -> list[tuple[list[list[Card]], int]]:
    """Random deals of the unseen cards to the other two (the Joker to its holder where the seat
    knows it), with the seat holding the Joker in each; with ``keep``, each kept with the chance
    it gives (after ``tries`` refusals the last one drawn is used)."""
    me = view.seat
    assert me is not None
    others = [s for s in range(PLAYERS) if s != me]
    unseen = [c for c in PACK if c not in view.hand]
    holder = joker_holder(view)

    def draw() -> list[list[Card]]:
        rng.shuffle(unseen)
        hands: list[list[Card]] = [[], [], []]
        hands[me] = list(view.hand)
        hands[others[0]], hands[others[1]] = unseen[:TRICKS], unseen[TRICKS:]
        if holder is not None and holder != me and JOKER not in hands[holder]:
            other = others[1] if holder == others[0] else others[0]
            swap = hands[holder].pop(rng.randrange(TRICKS))
            hands[other].remove(JOKER)
            hands[holder].append(JOKER)
            hands[other].append(swap)
        return hands

    out = []
    for _ in range(samples):
        hands = draw()
        for _ in range(tries - 1 if keep is not None else 0):
            if rng.random() < keep(hands):  # type: ignore[misc]
                break
            hands = draw()
        owner = next(s for s in range(PLAYERS) if JOKER in hands[s])
        out.append((hands, owner))
    return out


Playouts = Literal["random", "easy"]
"""How a search plays a sampled deal out after the choice tried: every seat at random, or the
easy play (the others playing a random card with the chance ``noise`` gives)."""


def _announcement_value(
    hands: list[list[Card]],
    trump: Suit,
    target: Parity,
    leader: int,
    me: int,
    rng: random.Random,
    noise: float,
    playouts: Playouts = "easy",
) -> float:
    rank = _RANKINGS[trump]
    world = World(rank, [[rank.index[c] for c in h] for h in hands], leader, [], [0, 0, 0], 0, joker=_JOKER)
    goal = GOALS[target]
    if playouts == "random":
        play_out(world, goal, -1, 1.0, rng)
    else:
        play_out(world, goal, me, noise, rng)
    return goal.value(world.counts, me, world.first, world.last)


def strong_trump(
    view: ParityForThreeView,
    rng: random.Random,
    samples: int,
    noise: float,
    playouts: Playouts = "easy",
    model: CallModel | None = None,
) -> Suit:
    """The trump suit with the best average result, the other non-holder then naming the parity
    as the easy bot would or, with random playouts, as the easy bot would or (with chance
    ``noise``) either parity; with a ``model`` of the table, the easy parity with the chance the
    table has shown for that player and the other parity otherwise."""
    me = view.seat
    assert me is not None
    leader = ((view.dealer or 0) + 1) % PLAYERS
    totals = dict.fromkeys(SUITS, 0.0)
    for i, (hands, owner) in enumerate(_deal_worlds(view, rng, samples)):
        (caller,) = (s for s in range(PLAYERS) if s not in (me, owner))
        seed = rng.randrange(1 << 30) if playouts == "random" else i
        either = playouts == "random" and rng.random() < noise
        anyhow = rng.choice(list(Parity))
        named_easy = model is not None and rng.random() < model.target[caller]
        for suit in SUITS:
            easy = easy_parity(hands[caller], suit)
            if model is not None:
                target = easy if named_easy else _other(easy)
            else:
                target = anyhow if either else easy
            totals[suit] += _announcement_value(hands, suit, target, leader, me, random.Random(seed), noise, playouts)
    return max(SUITS, key=lambda s: totals[s])


def _other(parity: Parity) -> Parity:
    return Parity.EVEN if parity is Parity.ODD else Parity.ODD


def strong_parity(
    view: ParityForThreeView,
    rng: random.Random,
    samples: int,
    noise: float,
    playouts: Playouts = "easy",
    model: CallModel | None = None,
) -> Parity:
    """The target with the best average result; with a ``model`` of the table, the deals drawn in
    proportion to how likely the trump caller was to name these trumps holding its sampled hand."""
    me = view.seat
    assert me is not None and view.trump is not None
    trump = view.trump
    leader = ((view.dealer or 0) + 1) % PLAYERS
    keep = None
    holder = joker_holder(view)
    if model is not None and holder is not None:
        trump_caller = callers(view.dealer or 0, holder)[0]
        if trump_caller != me:
            keep = lambda hands: model.trump_chance(trump_caller, hands[trump_caller], trump)  # noqa: E731
    totals = dict.fromkeys(Parity, 0.0)
    for i, (hands, _) in enumerate(_deal_worlds(view, rng, samples, keep)):
        seed = rng.randrange(1 << 30) if playouts == "random" else i
        for parity in Parity:
            totals[parity] += _announcement_value(hands, trump, parity, leader, me, random.Random(seed), noise, playouts)
    return max(Parity, key=lambda p: totals[p])


# --- the others, as the table has shown them ------------------------------------------------------------


def callers(dealer: int, holder: int) -> tuple[int, int]:
    """Who names trumps and who names the target: the first and second non-holder from the dealer's left."""
    order = [s for s in ((dealer + k) % PLAYERS for k in (1, 2, 3)) if s != holder]
    return order[0], order[1]


@dataclass
class _DealSeen:
    """One deal as a seat watched it: the calls, the cards each seat was seen to play, and the
    seat's own hand at its last turn (the cards never seen played make up the final trick)."""

    deal: int
    calls: tuple[int, int, Suit, Parity] | None = None  # trump caller, target caller, trumps, target
    plays: list[set[Card]] = field(default_factory=lambda: [set() for _ in range(PLAYERS)])
    hand: list[Card] = field(default_factory=list)


@dataclass
class _TableSeen:
    easy: list[list[int]] = field(default_factory=lambda: [[0, 0] for _ in range(PLAYERS)])  # [trumps, target]
    seen: list[list[int]] = field(default_factory=lambda: [[0, 0] for _ in range(PLAYERS)])
    deal: _DealSeen = field(default_factory=lambda: _DealSeen(0))


def _whole_hands(seen: _DealSeen, me: int) -> list[list[list[Card]]]:
    return whole_hands(PACK, seen.plays, seen.hand, me)


@dataclass
class CallModel:
    """For each seat, the chance it names the easy call (:func:`easy_trump`, :func:`easy_parity`)."""

    trumps: list[float]
    target: list[float]
    played: list[list[Card]]
    """The cards each seat was seen to play this deal."""

    def trump_chance(self, seat: int, hand: Sequence[Card], trump: Suit) -> float:
        """How likely ``seat`` names ``trump`` holding ``hand``, relative to its likeliest call."""
        f = self.trumps[seat]
        easy, other = f, (1 - f) / 3
        return (easy if easy_trump(hand) == trump else other) / max(easy, other)

    def target_chance(self, seat: int, hand: Sequence[Card], trump: Suit, target: Parity) -> float:
        f = self.target[seat]
        return (f if easy_parity(hand, trump) == target else 1 - f) / max(f, 1 - f)


class TableModel:
    """What this match has shown of how the other players call, per (table, seat): an opponent
    model learned from the table, not assumed (as Hoodwink's bids are learned).

    After each deal the seat has seen every card the others held, so it can tell whether the
    trump caller named its easy trump (the longest suit) and the target caller its easy target
    (the parity of the tricks its hand looks worth). Each chance is the share of the calls seen
    that were the easy one, starting from the ``usual`` chance as a prior worth ``PRIOR`` deals.
    Only what the seat saw is used: the calls and the cards played."""

    PRIOR = 3.0
    USUAL_TRUMPS = 0.7
    USUAL_TARGET = 0.6

    def __init__(self) -> None:
        self._tables: OrderedDict[tuple[object, ...], _TableSeen] = OrderedDict()
        self._lock = threading.Lock()  # the table service lets bots think in worker threads

    def model(self, view: ParityForThreeView) -> CallModel:
        me = view.seat
        assert me is not None
        key = (tuple(view.players), me)
        with self._lock:
            table = self._tables.get(key)
            fresh = view.deal == 1 and not any(view.scores) and not view.last_trick and not view.trick
            if table is None or fresh:
                table = self._tables[key] = _TableSeen(deal=_DealSeen(view.deal))  # a new match starts afresh
                while len(self._tables) > 256:
                    self._tables.popitem(last=False)
            self._tables.move_to_end(key)
        if view.deal != table.deal.deal:
            self._learn(table, me)
            table.deal = _DealSeen(view.deal)
        seen = table.deal
        holder = joker_holder(view)
        if view.trump is not None and view.target is not None and holder is not None:
            seen.calls = (*callers(view.dealer or 0, holder), view.trump, view.target)
            seen.hand = list(view.hand)
            shown = [*(view.last_trick if sum(view.tricks_won) else []), *view.trick]  # this deal's cards only
            for s, card in shown:
                seen.plays[s].add(card)
        usual = (self.USUAL_TRUMPS, self.USUAL_TARGET)
        chances = [
            [(table.easy[s][k] + usual[k] * self.PRIOR) / (table.seen[s][k] + self.PRIOR) for s in range(PLAYERS)]
            for k in (0, 1)
        ]
        return CallModel(chances[0], chances[1], [list(p) for p in seen.plays])

    @staticmethod
    def _learn(table: _TableSeen, me: int) -> None:
        """Count each other caller's finished deal as an easy call or not, where the cards seen settle it."""
        seen = table.deal
        if seen.calls is None:
            return
        ways = _whole_hands(seen, me)
        if not ways:
            return
        trump_caller, target_caller, trump, target = seen.calls
        for k, seat in enumerate((trump_caller, target_caller)):
            if seat == me:
                continue
            verdicts = set()
            for hands in ways:
                hand = [c for c in hands[seat] if c != JOKER]
                verdicts.add(easy_trump(hand) == trump if k == 0 else easy_parity(hand, trump) == target)
            if len(verdicts) == 1:
                table.seen[seat][k] += 1
                table.easy[seat][k] += int(verdicts.pop())


_TABLES = TableModel()


def play_keep(view: ParityForThreeView, model: CallModel, rank: Ranking) -> Keep | None:
    """How likely a sampled deal is, given the calls the others made (their dealt hands being the
    sampled cards and the ones they were seen to play)."""
    me, holder = view.seat, joker_holder(view)
    if holder is None or view.trump is None or view.target is None:
        return None
    trump, target = view.trump, view.target
    trump_caller, target_caller = callers(view.dealer or 0, holder)
    pack = rank.pack

    def keep(hands: list[list[int]]) -> float:
        chance = 1.0
        if trump_caller != me:
            dealt = [*(pack[c] for c in hands[trump_caller]), *model.played[trump_caller]]
            chance *= model.trump_chance(trump_caller, dealt, trump)
        if target_caller != me:
            dealt = [*(pack[c] for c in hands[target_caller]), *model.played[target_caller]]
            chance *= model.target_chance(target_caller, [c for c in dealt if c != JOKER], trump, target)
        return chance

    return keep


# --- play ------------------------------------------------------------------------------------------------


_MEMORY = Memory()


def _leader(view: ParityForThreeView) -> int:
    if view.trick:
        return view.trick[0][0]
    if view.last_winner is not None:
        return view.last_winner
    return ((view.dealer or 0) + 1) % PLAYERS


def _knowledge(view: ParityForThreeView) -> Knowledge:
    """The deal as this seat knows it (see the Hoodwink bot); the known card of another seat is
    the announced Joker until the first trick, which it must go to, is over."""
    me = view.seat
    assert me is not None and view.trump is not None
    rank = _RANKINGS[view.trump]
    tricks = sum(view.tricks_won)
    key = ("parity_for_three", tuple(view.players), me, view.deal, view.dealer, tuple(view.scores))
    seen = _MEMORY.update(key, view.hand, tricks, rank, [view.last_trick, view.trick])
    played = cards_played(rank, seen, view.trick)
    if tricks:
        played.add(_JOKER)  # the Joker always goes to the first trick
    fixed: list[list[int]] = [[], [], []]
    holder = view.joker_holder
    if holder is not None and holder != me and _JOKER not in played:
        fixed[holder].append(_JOKER)
    first = view.last_winner if tricks else None  # only "whether the first trick is over" matters here
    return seat_knowledge(
        rank, me, view.hand, view.trick, view.tricks_won, played, fixed, seen.void,
        leader=_leader(view), first=first, joker=_JOKER,
    )


def _plays(legal: Sequence[Action]) -> list[PlayCard]:
    return [a for a in legal if isinstance(a, PlayCard)]


def _action_for(plays: Sequence[PlayCard], card: Card) -> PlayCard:
    return next(a for a in plays if a.play == card)


def _trump_action(legal: Sequence[Action], suit: Suit) -> Action:
    return next(a for a in legal if isinstance(a, ChooseTrump) and a.suit == suit)


def _parity_action(legal: Sequence[Action], parity: Parity) -> Action:
    return next(a for a in legal if isinstance(a, ChooseParity) and a.parity == parity)


class EasyParityForThreePlayer:
    name = "easy"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        if not isinstance(view, ParityForThreeView) or view.seat is None:
            return RandomPlayer().choose(view, legal, rng)
        if len(legal) == 1:
            return legal[0]
        if any(isinstance(a, ChooseTrump) for a in legal):
            return _trump_action(legal, easy_trump(view.hand))
        if any(isinstance(a, ChooseParity) for a in legal):
            assert view.trump is not None
            return _parity_action(legal, easy_parity(view.hand, view.trump))
        plays = _plays(legal)
        if not plays or view.target is None:
            return legal[0]
        card = easy_choice(_knowledge(view), view.seat, [a.play for a in plays], GOALS[view.target])
        return _action_for(plays, card)


class StrongParityForThreePlayer:
    """Determinized Monte Carlo search (see the module's notes). Every setting is a count, never a
    time, so a choice depends only on the view, the legal actions and the ``rng`` given."""

    name = "strong"

    def __init__(
        self,
        budget: int = 120,
        call_samples: int = 120,
        noise: float = 0.5,
        playouts: Playouts = "random",
        samples: int = 100,
        learn: int = 1,
    ) -> None:
        self.budget = budget
        """With easy playouts: playouts per card decision (shared among the distinct cards tried)."""
        self.call_samples = call_samples
        """Random deals per call (every candidate call is tried in each)."""
        self.noise = noise
        """How often the other seats play a random card in easy playouts; with random playouts,
        how often the other non-holder names either parity rather than the easy one."""
        self.playouts = playouts
        self.samples = samples
        """With random playouts: sampled deals per card decision (every distinct card tried in each)."""
        self.learn = bool(learn)
        """Whether the others' calls are modelled from what the table has shown (:class:`TableModel`)."""

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        if not isinstance(view, ParityForThreeView) or view.seat is None:
            return RandomPlayer().choose(view, legal, rng)
        me = view.seat
        known = _knowledge(view) if view.trump is not None and view.target is not None else None
        model = _TABLES.model(view) if self.learn else None
        if len(legal) == 1:  # taken in at every turn, forced plays too, so no trick goes unseen
            return legal[0]
        if any(isinstance(a, ChooseTrump) for a in legal):
            suit = strong_trump(view, rng, self.call_samples, self.noise, self.playouts, model)
            return _trump_action(legal, suit)
        if any(isinstance(a, ChooseParity) for a in legal):
            parity = strong_parity(view, rng, self.call_samples, self.noise, self.playouts, model)
            return _parity_action(legal, parity)
        plays = _plays(legal)
        if not plays or view.target is None or known is None:
            return legal[0]
        cards, goal = [a.play for a in plays], GOALS[view.target]
        if self.playouts == "random":
            keep = play_keep(view, model, known.rank) if model is not None else None
            card = random_playout_choice(known, me, cards, goal, self.samples, rng, keep)
        else:
            card = strong_choice(known, me, cards, goal, self.budget, self.noise, rng)
        return _action_for(plays, card)


# the players Parity for Three's declaration names (games/parity_for_three.py)
EASY = EasyParityForThreePlayer()
STRONG = StrongParityForThreePlayer()
