"""A plain determinized Monte Carlo player for Hoodwink: a bench and test opponent, not a level.

It knows only what its seat's view shows and remembers what it saw (every trick it watched, the
suits a player showed out of). For each decision it samples ``samples`` deals of the unseen cards
consistent with that (bid cards still in hand, voids, hand sizes), tries every legal card in each
and plays the rest of the deal out at random; the card with the best average deal score (its own
less the others' mean) is chosen. Bids are chosen the same way, the others bidding a random card
of their sampled hands.

Written from the rules (``shared/rules/hoodwink.md``), sharing no code with the shipped players:
only the trick rules and the scoring, which are the rules themselves.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from games.cards import JOKER, Card, Suit
from games.engine import Action, PlayCard, View
from games.hoodwink import PACK, RANKS, Bid, HoodwinkView, NoEstimate, NoRequest
from games.hoodwink_scoring import (
    PLAYERS,
    TRICKS_PER_DEAL,
    determine_roles,
    resolve_open_partnerships,
    score_deal,
)
from games.tricks import TrickRules


@dataclass
class _Seen:
    done: int = 0
    played: set[Card] = field(default_factory=set)
    void: list[set[Suit | None]] = field(default_factory=lambda: [set(), set(), set()])


def _follow_suit(rules: TrickRules, card: Card) -> Suit | None:
    return rules.suit_of(card)


class MonteCarloHoodwinkPlayer:
    """Determinized Monte Carlo with random playouts (see the module's notes)."""

    name = "mc"

    def __init__(self, samples: int = 60) -> None:
        self.samples = samples
        self._memory: dict[tuple[object, ...], _Seen] = {}

    # -- memory ---------------------------------------------------------------------------------

    def _seen(self, view: HoodwinkView, rules: TrickRules | None) -> _Seen:
        key = (tuple(view.players), view.seat, view.deal, view.dealer, tuple(view.scores))
        seen = self._memory.get(key)
        done = sum(view.tricks_won)
        if seen is None or done < seen.done:  # a new deal (or a new match at the same scores)
            if len(self._memory) > 64:
                self._memory.clear()
            seen = self._memory[key] = _Seen()
        seen.done = done
        if rules is not None:
            for trick in (view.last_trick if done else [], view.trick):
                if not trick:
                    continue
                led = _follow_suit(rules, trick[0][1])
                for s, c in trick:
                    seen.played.add(c)
                    if _follow_suit(rules, c) != led:
                        seen.void[s].add(led)
        return seen

    # -- sampling -------------------------------------------------------------------------------

    def _deal(
        self, view: HoodwinkView, rules: TrickRules | None, seen: _Seen, sizes: Sequence[int], rng: random.Random
    ) -> list[list[Card]] | None:
        me = view.seat
        assert me is not None
        hands: list[list[Card]] = [[], [], []]
        hands[me] = list(view.hand)
        known = set(view.hand) | seen.played | {c for _, c in view.trick}
        for s, b in enumerate(view.bids or []):
            if s != me and b not in known:
                hands[s].append(b)
                known.add(b)
        others = [s for s in range(PLAYERS) if s != me]
        rest = [c for c in PACK if c not in known]
        for _attempt in range(20):
            rng.shuffle(rest)
            trial = [list(h) for h in hands]
            free: list[Card] = []
            ok = True
            for c in rest:
                suit = _follow_suit(rules, c) if rules is not None else None
                allowed = [s for s in others if suit not in seen.void[s]]
                if len(allowed) == 1:
                    trial[allowed[0]].append(c)
                elif not allowed:
                    ok = False
                    break
                else:
                    free.append(c)
            if not ok or any(len(trial[s]) > sizes[s] for s in others):
                continue
            for c in free:
                suit = _follow_suit(rules, c) if rules is not None else None
                allowed = [s for s in others if suit not in seen.void[s] and len(trial[s]) < sizes[s]]
                if not allowed:
                    ok = False
                    break
                trial[rng.choice(allowed)].append(c)
            if ok:
                return trial
        return None

    def _fallback_deal(self, view: HoodwinkView, seen: _Seen, sizes: Sequence[int], rng: random.Random) -> list[list[Card]]:
        me = view.seat
        assert me is not None
        known = set(view.hand) | seen.played | {c for _, c in view.trick}
        rest = [c for c in PACK if c not in known]
        rng.shuffle(rest)
        hands: list[list[Card]] = [[], [], []]
        hands[me] = list(view.hand)
        others = [s for s in range(PLAYERS) if s != me]
        hands[others[0]] = rest[: sizes[others[0]]]
        hands[others[1]] = rest[sizes[others[0]] :]
        return hands

    # -- playouts -------------------------------------------------------------------------------

    @staticmethod
    def _playout(
        rules: TrickRules,
        hands: list[list[Card]],
        trick: list[tuple[int, Card]],
        leader: int,
        counts: list[int],
        first: int | None,
        rng: random.Random,
    ) -> tuple[list[int], int | None, int | None]:
        counts = list(counts)
        last: int | None = None
        trick = list(trick)
        while any(hands):
            seat = (leader + len(trick)) % PLAYERS
            led = trick[0][1] if trick else None
            options = rules.follow_options(hands[seat], led)
            card = rng.choice(options)
            hands[seat].remove(card)
            trick.append((seat, card))
            if len(trick) == PLAYERS:
                winner = rules.winner(trick)
                counts[winner] += 1
                if first is None:
                    first = winner
                last = winner
                leader, trick = winner, []
        return counts, first, last

    @staticmethod
    def _value(view: HoodwinkView, partners: object, hood: int | None, counts: list[int], first: int | None, last: int | None) -> float:
        me = view.seat
        assert me is not None
        scoring = "v3" if view.scoring == "v3" else "standard"
        if partners is None or hood is None:
            scenario = view.open_scenario if view.open_scenario in ("2a", "2b", "2c", "2d") else "2a"
            partners, hood = resolve_open_partnerships(counts, scenario, first, last)  # type: ignore[arg-type]
        scores = score_deal(counts, partners, hood, scoring)  # type: ignore[arg-type]
        return scores[me] - sum(scores[s] for s in range(PLAYERS) if s != me) / 2

    # -- decisions ------------------------------------------------------------------------------

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        assert isinstance(view, HoodwinkView) and view.seat is not None
        bids = [a for a in legal if isinstance(a, Bid)]
        if bids:
            return self._bid(view, bids, rng)
        plays = [a for a in legal if isinstance(a, PlayCard)]
        if not plays:
            return next((a for a in legal if isinstance(a, (NoEstimate, NoRequest))), legal[0])
        if view.trumps is not None:  # remember the tricks seen, forced plays included
            self._seen(view, TrickRules(RANKS, view.trumps, jokers_low=(JOKER,)))
        if len(plays) == 1:
            return plays[0]
        return self._play(view, plays, rng)

    def _bid(self, view: HoodwinkView, bids: Sequence[Bid], rng: random.Random) -> Action:
        me = view.seat
        assert me is not None
        hand = list(view.hand) + ([view.my_bid] if view.my_bid is not None else [])
        rest = [c for c in PACK if c not in hand]
        leader = ((view.dealer or 0) + 1) % PLAYERS
        totals = [0.0] * len(bids)
        others = [s for s in range(PLAYERS) if s != me]
        for _ in range(self.samples):
            rng.shuffle(rest)
            hands: list[list[Card]] = [[], [], []]
            hands[me] = hand
            hands[others[0]], hands[others[1]] = rest[:TRICKS_PER_DEAL], rest[TRICKS_PER_DEAL:]
            their = {s: rng.choice([c for c in hands[s] if not c.is_joker]) for s in others}
            for k, bid in enumerate(bids):
                cards = [bid.bid if s == me else their[s] for s in range(PLAYERS)]
                roles = determine_roles(cards)
                rules = TrickRules(RANKS, roles.trumps, jokers_low=(JOKER,))
                counts, first, last = self._playout(rules, [list(h) for h in hands], [], leader, [0, 0, 0], None, rng)
                totals[k] += self._value(view, roles.partners, roles.hood, counts, first, last)
        return bids[max(range(len(bids)), key=lambda k: totals[k])]

    def _play(self, view: HoodwinkView, plays: Sequence[PlayCard], rng: random.Random) -> Action:
        me = view.seat
        assert me is not None and view.trumps is not None and view.leader is not None
        rules = TrickRules(RANKS, view.trumps, jokers_low=(JOKER,))
        seen = self._seen(view, rules)
        done = sum(view.tricks_won)
        in_trick = {s for s, _ in view.trick}
        sizes = [TRICKS_PER_DEAL - done - (1 if s in in_trick else 0) for s in range(PLAYERS)]
        partners = tuple(view.partners) if len(view.partners) == 2 else None
        totals = [0.0] * len(plays)
        for _ in range(self.samples):
            hands = self._deal(view, rules, seen, sizes, rng) or self._fallback_deal(view, seen, sizes, rng)
            for k, action in enumerate(plays):
                trial = [list(h) for h in hands]
                trial[me].remove(action.play)
                trick = [*view.trick, (me, action.play)]
                leader = view.trick[0][0] if view.trick else me
                counts = list(view.tricks_won)
                first = view.first_trick_winner
                if len(trick) == PLAYERS:
                    winner = rules.winner(trick)
                    counts[winner] += 1
                    first = winner if first is None else first
                    leader, trick = winner, []
                    if not any(trial):
                        totals[k] += self._value(view, partners, view.hood, counts, first, winner)
                        continue
                counts, first, last = self._playout(rules, trial, trick, leader, counts, first, rng)
                totals[k] += self._value(view, partners, view.hood, counts, first, last)
        return plays[max(range(len(plays)), key=lambda k: totals[k])]
