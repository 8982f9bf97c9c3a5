"""Bot players for Hoodwink.

* ``easy``: bids the top card of its longest suit (the strongest suit it can propose); in play it
  works out, from the scoring, whom it wants to take the trick (a partner behind the other
  partner wants it, a partner level wants the Hood to have it, the Hood wants the partners kept
  apart, an odd count and a partner's count matched), then wins as cheaply as it can or plays
  under, shedding high cards when it wants to lose.
* ``strong``: the same view, but it plans. In play it draws hands for the other two consistent
  with what it has seen (the cards played, the bid cards still in hand, the suits a player showed
  out of) and tries each card in those deals (up to 100 of them, 1200 playouts a card decision),
  playing the rest out with the easy play, the others playing a random card a quarter of the time.
  Measured against two easy bots over 200 matches (seed 0): 24 deals and half-random playouts won
  .405 (margin +7 a match), 100 deals .475 (+12), 100 deals with quarter-random playouts .47 (+14);
  its bid
  is chosen the same way, over random deals of the unseen cards with the others bidding as the
  easy bot does.

Partner talk is left alone: the bots give no estimate and make no request.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Sequence

from games.cards import JOKER, SUITS, Card, Suit
from games.engine import Action, PlayCard, View
from games.hoodwink import PACK, RANKS, Bid, HoodwinkView, NoEstimate, NoRequest
from games.hoodwink_scoring import (
    PLAYERS,
    Scenario,
    Scoring,
    determine_roles,
    resolve_open_partnerships,
    score_deal,
)
from games.players import RandomPlayer
from games.players.trick_sim import (
    TRICKS,
    Goal,
    Knowledge,
    Memory,
    Ranking,
    World,
    cards_played,
    easy_choice,
    play_out,
    seat_knowledge,
    strong_choice,
    suit_strength,
)
from games.tricks import TrickRules

_RANKINGS: dict[Suit, Ranking] = {
    s: Ranking.build(PACK, TrickRules(RANKS, s, jokers_low=(JOKER,))) for s in SUITS
}


class HoodwinkGoal(Goal):
    """Hoodwink's deal scores for fixed roles, or for an open deal (variation 2) its scenario;
    when 2c or 2d needs a trick winner not known yet, the middle count stands for the Hood."""

    def __init__(
        self,
        partners: tuple[int, int] | None,
        hood: int | None,
        scoring: Scoring,
        scenario: Scenario | None,
    ) -> None:
        super().__init__()
        self.partners, self.hood, self.scoring, self.scenario = partners, hood, scoring, scenario
        self._scores: dict[tuple[object, ...], list[int]] = {}

    def scores(self, counts: Sequence[int], first: int | None, last: int | None) -> Sequence[int]:
        key = (*counts, first, last)
        known = self._scores.get(key)
        if known is not None:
            return known
        partners, hood = self.partners, self.hood
        if partners is None or hood is None:
            scenario: Scenario = self.scenario or "2a"
            if (scenario == "2c" and last is None) or (scenario == "2d" and first is None):
                scenario = "2b"
            partners, hood = resolve_open_partnerships(counts, scenario, first, last)
        out = score_deal(counts, partners, hood, self.scoring)
        self._scores[key] = out
        return out


_GOALS: dict[tuple[object, ...], HoodwinkGoal] = {}


def goal_for(
    partners: tuple[int, int] | None, hood: int | None, scoring: Scoring, scenario: Scenario | None
) -> HoodwinkGoal:
    key = (partners, hood, scoring, scenario)
    goal = _GOALS.get(key)
    if goal is None:
        goal = _GOALS[key] = HoodwinkGoal(partners, hood, scoring, scenario)
    return goal


def _scoring(view: HoodwinkView) -> Scoring:
    return "v3" if view.scoring == "v3" else "standard"


def _view_goal(view: HoodwinkView) -> HoodwinkGoal:
    partners = (view.partners[0], view.partners[1]) if len(view.partners) == 2 else None
    scenario: Scenario | None = None
    if view.open_scenario in ("2a", "2b", "2c", "2d"):
        scenario = view.open_scenario  # type: ignore[assignment]
    return goal_for(partners, view.hood, _scoring(view), scenario)


# --- bidding -----------------------------------------------------------------------------------------


def easy_bid_card(hand: Sequence[Card], allowed: Sequence[Card]) -> Card:
    """The top allowed card of the longest (then strongest) suit."""
    suits = [s for s in SUITS if any(c.suit == s for c in allowed)]
    best_suit = max(suits, key=lambda s: suit_strength(hand, s))
    return max((c for c in allowed if c.suit == best_suit), key=lambda c: int(c.rank or 0))


def _bid_candidates(allowed: Sequence[Card]) -> list[Card]:
    """Per suit, the highest and the lowest card (the rank only matters when all bid one suit)."""
    out: list[Card] = []
    for s in SUITS:
        cards = sorted((c for c in allowed if c.suit == s), key=lambda c: int(c.rank or 0))
        if cards:
            out.extend(dict.fromkeys((cards[-1], cards[0])))
    return out


def strong_bid_card(
    view: HoodwinkView, allowed: Sequence[Card], rng: random.Random, samples: int, noise: Sequence[float]
) -> Card:
    """Try each candidate bid in random deals of the unseen cards, each other player bidding as
    the easy bot does or (with chance ``noise``) any card, and everyone playing the deal out with
    the easy play (the others playing a random card with chance ``noise``)."""
    me = view.seat
    assert me is not None
    hand = list(view.hand)
    if view.my_bid is not None:
        hand.append(view.my_bid)
    candidates = _bid_candidates(allowed)
    if len(candidates) == 1:
        return candidates[0]
    unseen = [c for c in PACK if c not in hand]
    leader = ((view.dealer or 0) + 1) % PLAYERS
    totals = dict.fromkeys(candidates, 0.0)
    scoring = _scoring(view)
    for _ in range(samples):
        rng.shuffle(unseen)
        hands: list[list[Card]] = [[], [], []]
        hands[me] = hand
        others = [s for s in range(PLAYERS) if s != me]
        hands[others[0]], hands[others[1]] = unseen[:TRICKS], unseen[TRICKS:]
        bids: list[Card | None] = [None, None, None]
        for s in others:
            suited = [c for c in hands[s] if not c.is_joker]
            bids[s] = rng.choice(suited) if rng.random() < noise[s] else easy_bid_card(hands[s], suited)
        seed = rng.randrange(1 << 30)
        for candidate in candidates:
            bids[me] = candidate
            roles = determine_roles([b for b in bids if b is not None])
            rank = _RANKINGS[roles.trumps]
            world = World(rank, [[rank.index[c] for c in h] for h in hands], leader, [], [0, 0, 0], 0)
            goal = goal_for(roles.partners, roles.hood, scoring, None)
            play_out(world, goal, me, noise, random.Random(seed))
            totals[candidate] += goal.value(world.counts, me, world.first, world.last)
    return max(candidates, key=lambda c: totals[c])


# --- the others, as the table has shown them ------------------------------------------------------------


class TableModel:
    """What this match has shown of how the other players play, per (table, seat).

    The easy play always bids the top card it holds of the suit it proposes. A player who later
    plays a higher card of the suit they bid has shown that they do not bid that way, and from then
    on is modelled as playing at random in the playouts (``noise`` 1) instead of mostly like the
    easy play. Only public facts are used: the bid cards and the cards played."""

    def __init__(self) -> None:
        self._unlike: OrderedDict[tuple[object, ...], set[int]] = OrderedDict()

    def noise(self, view: HoodwinkView, usual: float) -> list[float]:
        me = view.seat
        assert me is not None
        key = (tuple(view.players), me, view.scoring, view.target)
        unlike = self._unlike.get(key)
        if unlike is None or (view.deal == 1 and not any(view.scores) and not view.last_trick and not view.trick):
            unlike = self._unlike[key] = set()  # a new match (deal 1 at love) starts afresh
            while len(self._unlike) > 256:
                self._unlike.popitem(last=False)
        if view.bids:
            seen = [*(view.last_trick if sum(view.tricks_won) else []), *view.trick]  # this deal's cards only
            for s, card in seen:
                bid = view.bids[s]
                if s != me and card.suit == bid.suit and int(card.rank or 0) > int(bid.rank or 0):
                    unlike.add(s)
        return [1.0 if s in unlike else usual for s in range(PLAYERS)]


_TABLES = TableModel()


# --- play ----------------------------------------------------------------------------------------------


_MEMORY = Memory()


def _knowledge(view: HoodwinkView) -> Knowledge:
    """The deal as this seat knows it; the known cards of the others are their bid cards still
    in hand."""
    me = view.seat
    assert me is not None and view.trumps is not None and view.leader is not None
    rank = _RANKINGS[view.trumps]
    key = ("hoodwink", tuple(view.players), me, view.deal, view.dealer, tuple(view.scores))
    seen = _MEMORY.update(key, view.hand, sum(view.tricks_won), rank, [view.last_trick, view.trick])
    played = cards_played(rank, seen, view.trick)
    fixed: list[list[int]] = [[], [], []]
    for s, b in enumerate(view.bids or []):
        if s != me and rank.index[b] not in played and b not in view.hand:
            fixed[s].append(rank.index[b])
    return seat_knowledge(
        rank, me, view.hand, view.trick, view.tricks_won, played, fixed, seen.void,
        leader=view.leader, first=view.first_trick_winner, last=view.last_trick_winner,
    )


def _plays(legal: Sequence[Action]) -> list[PlayCard]:
    return [a for a in legal if isinstance(a, PlayCard)]


def _action_for(plays: Sequence[PlayCard], card: Card) -> PlayCard:
    return next(a for a in plays if a.play == card)


def _talk(legal: Sequence[Action]) -> Action:
    """The bots stay quiet: no estimate, no request (and they never ask)."""
    for a in legal:
        if isinstance(a, (NoEstimate, NoRequest)):
            return a
    return legal[0]


class EasyHoodwinkPlayer:
    name = "easy"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        if not isinstance(view, HoodwinkView) or view.seat is None:
            return RandomPlayer().choose(view, legal, rng)
        bids = [a for a in legal if isinstance(a, Bid)]
        if bids:
            card = easy_bid_card(view.hand, [a.bid for a in bids])
            return next(a for a in bids if a.bid == card)
        plays = _plays(legal)
        if not plays:
            return _talk(legal)
        if len(plays) == 1:
            return plays[0]
        card = easy_choice(_knowledge(view), view.seat, [a.play for a in plays], _view_goal(view))
        return _action_for(plays, card)


class StrongHoodwinkPlayer:
    name = "strong"

    def __init__(self, budget: int = 1200, bid_samples: int = 6, noise: float = 0.25, max_worlds: int = 100) -> None:
        self.budget = budget
        self.max_worlds = max_worlds
        """Playouts per card decision (shared among the distinct cards tried)."""
        self.bid_samples = bid_samples
        self.noise = noise
        """How often the other seats play a random card in the playouts."""

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        if not isinstance(view, HoodwinkView) or view.seat is None:
            return RandomPlayer().choose(view, legal, rng)
        me = view.seat
        noise = _TABLES.noise(view, self.noise)
        bids = [a for a in legal if isinstance(a, Bid)]
        if bids:
            card = strong_bid_card(view, [a.bid for a in bids], rng, self.bid_samples, noise)
            return next(a for a in bids if a.bid == card)
        plays = _plays(legal)
        if not plays:
            return _talk(legal)
        if len(plays) == 1:
            return plays[0]
        known = _knowledge(view)
        card = strong_choice(known, me, [a.play for a in plays], _view_goal(view), self.budget, noise, rng, self.max_worlds)
        return _action_for(plays, card)


# the players Hoodwink's declaration names (games/hoodwink.py)
EASY = EasyHoodwinkPlayer()
STRONG = StrongHoodwinkPlayer()
