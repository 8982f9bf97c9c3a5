"""The determinized Monte Carlo opponent of tests/bench/hoodwink_mc.py: its sampled deals agree with
what its seat saw, it plays legally, it is a real player (it beats random bots), and Hoodwink's
strong player is measured against it (long runs under the ``strength`` marker)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.cards import Card
from games.hoodwink import GAME as HOODWINK
from games.players import RandomPlayer
from games.simulate import play_match, wilson_interval
from tests.bench.hoodwink_duel import duel
from tests.bench.hoodwink_mc import MonteCarloHoodwinkPlayer

FAIR = 1 / 3


class Checked(MonteCarloHoodwinkPlayer):
    """Records every deal it samples, to compare with the real table."""

    def __init__(self, samples: int) -> None:
        super().__init__(samples)
        self.deals: list[tuple[list[list[Card]], bool]] = []

    def _deal(self, known: Any, me: int, rng: random.Random) -> list[list[Card]] | None:
        hands = super()._deal(known, me, rng)
        if hands is not None:
            self.deals.append(([list(h) for h in hands], True))
        return hands


def test_sampled_deals_hold_exactly_the_unseen_cards_and_respect_voids() -> None:
    mc = Checked(samples=6)
    others = [RandomPlayer(), RandomPlayer()]
    state: Any = HOODWINK.start(["Ann", "Bob", "Cat"], {"target": 30}, seed=11)
    rng = random.Random(11)
    checked = voids = 0
    showed_out: list[set[object]] = [set(), set(), set()]
    deal = state.deal_no
    while not state.is_over:
        seat = rng.choice(state.actors())
        legal = state.legal_actions(seat)
        if seat == 0:
            mc.deals.clear()
            action = mc.choose(state.view(0), legal, rng)
            for hands, _ in mc.deals:
                for s in (1, 2):
                    # the other hands hold exactly the cards really held, shared out afresh
                    assert len(hands[s]) == len(state.hands[s])
                    for c in hands[s]:
                        assert c in state.hands[1] or c in state.hands[2]
                        assert state.rules is None or state.rules.suit_of(c) not in showed_out[s]
                    voids += len(showed_out[s])
                    for b in state.bids or []:
                        if b in state.hands[s]:
                            assert b in hands[s], "a bid card still in hand stays with its bidder"
                checked += 1
        else:
            action = others[seat - 1].choose(state.view(seat), legal, rng)
        led = state.trick.led if state.phase == "play" else None
        state.apply(seat, action)
        if state.deal_no != deal:
            deal, showed_out = state.deal_no, [set(), set(), set()]
        elif (
            led is not None
            and hasattr(action, "play")
            and state.rules is not None
            and state.rules.suit_of(action.play) != state.rules.suit_of(led)
        ):
            showed_out[seat].add(state.rules.suit_of(led))
    assert checked > 100
    assert voids > 0, "some player should have shown out of a suit"


def test_the_monte_carlo_player_beats_random_bots() -> None:
    # a real opponent, not a straw man: 20 samples a decision, 12 matches to 30 (seeds 0..11).
    # Matches this short are mostly luck: on seeds 1000..1044 it won .49 of 45 with its own sampler
    # and the same .49 with the shared one; on these seeds 4 of 12, ahead by 1.4 points a match
    wins = margin = 0.0
    for i in range(12):
        seats: list[Any] = [RandomPlayer(), RandomPlayer(), RandomPlayer()]
        seats[i % 3] = MonteCarloHoodwinkPlayer(20)
        state = play_match(HOODWINK, 3, {"target": 30}, seed=i, policies=seats)
        assert state.outcome is not None
        if i % 3 in state.outcome.winners:
            wins += 1 / len(state.outcome.winners)
        scores = state.outcome.scores
        margin += scores[i % 3] - (sum(scores) - scores[i % 3]) / 2
    assert wins / 12 >= FAIR and margin / 12 >= 1


@pytest.mark.strength
@pytest.mark.slow
def test_a_monte_carlo_player_wins_no_more_than_a_fair_share_against_two_strong() -> None:
    # issue 29's goal. Before the strong player learned how the others bid (and bid from 24 deals)
    # the Monte Carlo player won .439 [.37, .51] of 180 against two of it (seeds 950000..950179).
    # Now, on seeds not used in tuning, .347 [.30, .40] of 300 (970000..970299, +3.4 points a
    # match); these are the first 150 of them (.353 [.28, .43])
    r = duel("mc", "strong", 150, seed=970000)
    low, _ = wilson_interval(r["share"], 150)
    assert low <= FAIR
