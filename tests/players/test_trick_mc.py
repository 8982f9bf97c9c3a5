"""The determinized Monte Carlo opponent of tests/bench/trick_mc.py on Parity for Three: its sampled
deals agree with what its seat saw, it plays legally, and the strong player is measured against it
(short on fixed seeds here, long under the ``strength`` marker)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from games.cards import JOKER, Card
from games.parity_for_three import GAME as PARITY3
from games.parity_for_three import ParityForThreeState
from games.players import RandomPlayer
from games.players.parity_for_three import StrongParityForThreePlayer
from games.simulate import play_match, wilson_interval
from tests.bench import trick_mc
from tests.bench.trick_duel import duel
from tests.bench.trick_mc import Deal, monte_carlo_player
from tests.players.checked import Checked

FAIR = 1 / 3


def short_matches(one: Callable[[], Any], other: Callable[[], Any], matches: int) -> tuple[float, float]:
    """Two-deal matches on seeds 0.. with ``one()`` in a seat rotating from match to match and
    ``other()`` in the others: the matches ``one`` won (a tie shared) and its points over the
    others' mean, summed."""
    wins = margin = 0.0
    for i in range(matches):
        seats: list[Any] = [other(), other(), other()]
        seats[i % 3] = one()
        state = play_match(PARITY3, 3, {"match_end": "open", "open_deal_cap": 2}, seed=i, policies=seats)
        assert state.outcome is not None
        if i % 3 in state.outcome.winners:
            wins += 1 / len(state.outcome.winners)
        scores = state.outcome.scores
        margin += scores[i % 3] - (sum(scores) - scores[i % 3]) / 2
    return wins, margin


def test_sampled_deals_hold_exactly_the_unseen_cards_and_respect_voids(monkeypatch: pytest.MonkeyPatch) -> None:
    sampled: list[tuple[Deal, list[list[Card]]]] = []
    real = trick_mc.sample_hands

    def recorded(deal: Deal, rng: random.Random) -> list[list[Card]] | None:
        hands = real(deal, rng)
        if hands is not None:
            sampled.append((deal, hands))
        return hands

    monkeypatch.setattr(trick_mc, "sample_hands", recorded)
    mc = monte_carlo_player("parity_for_three", samples=3)
    others = RandomPlayer()
    state: Any = PARITY3.start(["Ann", "Bob", "Cat"], {"match_end": "open", "open_deal_cap": 2}, seed=5)
    assert isinstance(state, ParityForThreeState)
    rng = random.Random(5)
    shown_out: list[set[object]] = [set(), set(), set()]
    checked = voids = 0
    deal_no = state.deal_no
    while not state.is_over:
        (seat,) = state.actors()
        legal = state.legal_actions(seat)
        if seat == 0:
            sampled.clear()
            action = mc.choose(state.view(0), legal, rng)
            for deal, hands in sampled:
                for s in (1, 2):
                    # the others hold exactly the cards really held between them, shared out afresh
                    assert len(hands[s]) == len(state.hands[s])
                    assert set(hands[s]) <= set(state.hands[1]) | set(state.hands[2])
                    assert not {c.suit for c in hands[s] if c != JOKER} & shown_out[s]
                    if JOKER in state.hands[s] and state.joker_announced:
                        assert JOKER in hands[s], "the announced Joker stays with its holder"
                    voids += len(shown_out[s])
                    assert deal.void[s] == shown_out[s]
                assert hands[0] == state.hands[0]
                assert Counter(hands[1] + hands[2]) == Counter(state.hands[1] + state.hands[2])
                checked += 1
        else:
            action = others.choose(state.view(seat), legal, rng)
        led = state.trick.led if state.phase == "play" else None
        state.apply(seat, action)
        if state.deal_no != deal_no:
            deal_no, shown_out = state.deal_no, [set(), set(), set()]
            continue
        played = action.card
        if led is not None and played is not None and JOKER not in (led, played) and played.suit != led.suit:
            shown_out[seat].add(led.suit)
    assert checked > 40
    assert voids > 0, "some player should have shown out of a suit"


def test_the_monte_carlo_player_plays_legally_and_beats_random_bots() -> None:
    # a real opponent, not a straw man: 20 samples a decision, 6 two-deal matches against two
    # random bots (seeds 0..5); measured when written: 5 of 6, 14.3 points a match ahead (0.6 s CPU)
    mc = Checked(monte_carlo_player("parity_for_three", samples=20))
    wins, margin = short_matches(lambda: mc, RandomPlayer, 6)
    assert mc.moves > 50
    assert wins / 6 > 0.5 and margin / 6 >= 5


def test_strong_holds_a_monte_carlo_player_in_short_matches() -> None:
    # one Monte Carlo player of 30 samples against two strong, 4 two-deal matches (seeds 0..3, seats
    # rotating): it won 1 and was 7.0 points a match behind (about 3 s CPU); against strong before
    # the table model (learn=0, call_samples=60) none, 6.9 behind. Against strong with its earlier
    # settings (playouts=easy, call_samples=10) it won 3 of these 4, 3.8 points a match ahead, so
    # the test tells the two apart. Matches this short are mostly luck: the long test below is
    # the measure
    wins, margin = short_matches(lambda: monte_carlo_player("parity_for_three", samples=30), StrongParityForThreePlayer, 4)
    assert wins <= 1 and margin < 0


@pytest.mark.strength
@pytest.mark.slow
def test_a_monte_carlo_player_wins_no_more_than_a_fair_share_against_two_strong() -> None:
    # issue 29's goal for Parity for Three. Measured on these seeds (not used in tuning): the Monte
    # Carlo player won .340 of each 150, .340 [.29, .40] of 300, 0.3 points a match ahead (about
    # 1,000 s CPU): level with strong. Before the table model it won .427 [.32, .54] of 75 (seeds
    # 994000..), and against the strong player before issue 29 .600 [.49, .70] of 75 (990000..).
    # See games/players/parity_for_three.py for the history
    runs = [duel("parity_for_three", "mc", "strong", 150, seed=seed) for seed in (996000, 996150)]
    share = sum(r["share"] for r in runs) / len(runs)
    low, high = wilson_interval(share, 300)
    assert low <= FAIR and high < 0.45
