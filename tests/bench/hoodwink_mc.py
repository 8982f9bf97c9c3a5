"""A plain determinized Monte Carlo player for Hoodwink: a bench and test opponent, not a level.

It knows only what its seat's view shows and remembers what it saw (every trick it watched, the
suits a player showed out of). For each decision it samples ``samples`` deals of the unseen cards
consistent with that (bid cards still in hand, voids, hand sizes; the sampler is the shipped
players' own, ``games.players.hoodwink.sample_deal``, so that logic exists once), tries every legal card in each
and plays the rest of the deal out at random; the card with the best average deal score (its own
less the others' mean) is chosen. Bids are chosen the same way, the others bidding a random card
of their sampled hands.

Its search is written from the rules (``shared/rules/hoodwink.md``), sharing with the shipped
players only the deal sampler, the trick rules and the scoring.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.cards import JOKER, Card
from games.engine import Action, PlayCard, View
from games.hoodwink import PACK, RANKS, Bid, HoodwinkView, NoEstimate, NoRequest
from games.hoodwink_scoring import (
    PLAYERS,
    TRICKS_PER_DEAL,
    determine_roles,
    resolve_open_partnerships,
    score_deal,
)
from games.players.hoodwink import remember, sample_deal
from games.players.trick_sim import Knowledge
from games.tricks import TrickRules


class MonteCarloHoodwinkPlayer:
    """Determinized Monte Carlo with random playouts (see the module's notes)."""

    name = "mc"

    def __init__(self, samples: int = 60) -> None:
        self.samples = samples

    def _deal(self, known: Knowledge, me: int, rng: random.Random) -> list[list[Card]] | None:
        """One guess at the hidden hands (the shipped players' sampler: one copy of that logic)."""
        return sample_deal(known, me, rng)

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
        known = remember(view)  # remember the tricks seen, forced plays included
        if len(plays) == 1:
            return plays[0]
        return self._play(view, known, plays, rng)

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

    def _play(self, view: HoodwinkView, known: Knowledge, plays: Sequence[PlayCard], rng: random.Random) -> Action:
        me = view.seat
        assert me is not None and view.trumps is not None and view.leader is not None
        rules = TrickRules(RANKS, view.trumps, jokers_low=(JOKER,))
        partners = tuple(view.partners) if len(view.partners) == 2 else None
        totals = [0.0] * len(plays)
        for _ in range(self.samples):
            hands = self._deal(known, me, rng)
            if hands is None:
                continue
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
