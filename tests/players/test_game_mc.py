"""The determinized Monte Carlo opponent of tests/bench/game_mc.py (Caterpillar, the adders,
Twenty-Nine, Costly Colours, Spec): every state it samples holds exactly the cards its seat has not seen, in the
places it cannot see, and offers the seat the same choices as the real table; it plays legally
and beats random play; the strong players are measured against it (long, under ``strength``)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from games.cards import Card, Rank
from games.engine import GameState
from games.players import RandomPlayer
from games.registry import get_game
from games.simulate import play_match
from tests.bench.game_duel import duel
from tests.bench.game_mc import MonteCarloPlayer, monte_carlo_player, playout
from tests.players.checked import Checked

GAMES = [
    ("caterpillar", 2),
    ("fifty_one", 3),
    ("hundred", 3),
    ("obstacle_race", 3),
    ("ninety_nine", 3),
    ("jubilee", 3),
    ("costly_colours", 2),
    ("spec", 2),
    ("twenty_nine", 4),
    ("twenty_nine", 3),  # one Ten left out, unseen
]


def hidden_from(state: GameState[Any], seat: int) -> Counter[Card]:
    """The cards in places ``seat`` cannot see (the cards turned up to start a pile are not among
    them: the view shows them, and the sampler reads them there)."""
    return Counter(
        c for z in state.card_zones() if z.visible_to is not None and seat not in z.visible_to for c in z.cards
    )


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_sampled_states_hold_exactly_the_unseen_cards_and_offer_the_same_choices(game_id: str, players: int) -> None:
    mc = monte_carlo_player(game_id, samples=2)
    state = get_game(game_id).start([f"P{i + 1}" for i in range(players)], None, seed=11)
    rng = random.Random(11)
    others = RandomPlayer()
    checked = refused = 0
    while not state.is_over and checked < 30:
        seat = rng.choice(state.actors())
        legal = state.legal_actions(seat)
        if seat != 0:
            state.apply(seat, others.choose(state.view(seat), legal, rng))
            continue
        view = state.view(0)
        sample = mc.side.sampler(view)
        for _ in range(3):
            sampled = sample(rng)
            if sampled is None:
                refused += 1
                continue
            checked += 1
            assert sampled.view(0).hand == view.hand
            assert sampled.legal_actions(0) == legal
            assert hidden_from(sampled, 0) == hidden_from(state, 0)
            assert getattr(sampled.view(0), "opening", None) == getattr(view, "opening", None)
            if game_id == "twenty_nine":  # the pile in play, the piles taken (their sizes shown), who played last
                real: Any = state
                got: Any = sampled
                assert got.view(0).notes == real.view(0).notes
                assert got.round.pile == real.round.pile
                assert got.deal.last_player == real.deal.last_player
                assert len(got.set_aside) == len(real.set_aside)
                assert all(c.rank is Rank.TEN for c in got.set_aside)
        # the player's own choice, so that it remembers it (Costly Colours: the card it passed)
        state.apply(0, mc.choose(view, legal, rng) if len(legal) < 30 else legal[rng.randrange(len(legal))])
    assert checked >= 20
    assert refused <= checked  # a refused draw (a Go it breaks) is the exception


def test_spec_samples_deal_the_unseen_showcards_into_the_face_down_cells() -> None:
    mc = monte_carlo_player("spec", samples=2)
    state: Any = get_game("spec").start(["Ann", "Bob"], None, seed=3)
    rng = random.Random(3)
    while state.deal.face_up.count(True) < 10:
        seat = rng.choice(state.actors())
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
    view = state.view(0)
    down_real = sorted(c.code for c, up in zip(state.deal.grid, state.deal.face_up, strict=True) if not up)
    grids = set()
    for _ in range(5):
        sampled: Any = mc.side.sampler(view)(rng)
        assert [c if up else None for c, up in zip(sampled.deal.grid, sampled.deal.face_up, strict=True)] == view.grid
        assert sorted(c.code for c, up in zip(sampled.deal.grid, sampled.deal.face_up, strict=True) if not up) == down_real
        grids.add(tuple(sampled.deal.grid))
    assert len(grids) > 1, "the face-down cells are shuffled afresh for each sample"


@pytest.mark.parametrize(
    ("game_id", "players", "options"),
    [
        ("jubilee", 3, None),
        ("jubilee", 2, {"zero_is_jubilee": True, "joker_on_jubilee": "score", "club_ace_value": 1}),
        ("hundred", 3, None),
        ("hundred", 2, {"second_point_200": True}),
        ("obstacle_race", 2, None),
        ("obstacle_race", 3, {"ace_value": 1, "finish_bonus": True, "score_floor": True, "allow_negative": True}),
    ],
)
def test_the_quick_playout_is_the_tables_own_playout(game_id: str, players: int, options: dict[str, Any] | None) -> None:
    """From sampled states of random matches, every legal play played out by the quick playout
    and by the table's own rules (a clone, :meth:`apply`, :func:`playout`) from the same random
    numbers ends the deal with the same points: the quick one is the same player, cheaper."""
    mc = monte_carlo_player(game_id, samples=2, options=options)
    quick = mc.side.quick_playout  # type: ignore[attr-defined]
    state: Any = get_game(game_id).start([f"P{i + 1}" for i in range(players)], options, seed=5)
    rng = random.Random(5)
    compared = differing = 0
    while not state.is_over and compared < 40:
        (seat,) = state.awaiting()
        legal = state.legal_actions(seat)
        if seat == 0 and len(legal) > 1:
            sampled = mc.side.sampler(state.view(0))(rng)
            assert sampled is not None
            seed = rng.randrange(1 << 30)
            for action in legal:
                trial = sampled.clone()
                trial.apply(0, action)
                slow = playout(trial, 0, list(sampled.scores), 1, random.Random(seed), sampled.deal_no)
                assert quick(sampled, 0, action, 1, random.Random(seed)) == slow, (action, state.total)
                compared += 1
                differing += slow != 0
        state.apply(seat, legal[rng.randrange(len(legal))])
    assert compared >= 40 and differing >= 10  # plays after which the deal still gave points


def short_matches(
    game_id: str, players: int, one: Any, matches: int, options: dict[str, Any] | None = None
) -> tuple[float, float]:
    """Matches on seeds 0.. with ``one`` in a seat rotating from match to match and random bots in
    the others: the matches ``one`` won (a tie shared) and its points over the others' mean, summed."""
    wins = margin = 0.0
    for i in range(matches):
        seats: list[Any] = [RandomPlayer() for _ in range(players)]
        seats[i % players] = one
        state = play_match(get_game(game_id), players, options, seed=i, policies=seats)
        assert state.outcome is not None
        if i % players in state.outcome.winners:
            wins += 1 / len(state.outcome.winners)
        scores = state.outcome.scores
        margin += scores[i % players] - (sum(scores) - scores[i % players]) / (players - 1)
    return wins, margin


def test_the_monte_carlo_player_plays_legally_and_beats_random_bots() -> None:
    # a real opponent against random bots (seeds 0.., seats rotating); a match is much luck, so
    # the points it is ahead count too. Measured when written: Caterpillar (one game a match, 10
    # samples) 1 of 2, 30 points ahead in all; Costly Colours (20 samples) 3 of 4, 51 points ahead
    for game_id, players, options, samples, matches in (
        ("caterpillar", 2, {"games": 1}, 10, 2),
        ("costly_colours", 2, None, 20, 4),
    ):
        mc = Checked(MonteCarloPlayer(monte_carlo_player(game_id, samples, options).side, samples))
        wins, margin = short_matches(game_id, players, mc, matches, options)
        assert mc.moves > 10
        assert wins >= matches / 2 and margin > 0, f"{game_id}: {wins} of {matches}, {margin:+.0f} points against random bots"


@pytest.mark.strength
@pytest.mark.slow
@pytest.mark.parametrize(
    ("game_id", "players", "matches", "seed", "most"),
    [
        # issue 29: the Monte Carlo player of 60 samples against strong, seats rotating, on fresh
        # seeds; it may not win clearly more than a fair share. Measured when written (a loaded
        # machine), from 997000: Caterpillar .230 [.16, .32] of 100, 259 points a match behind;
        # Fifty-One .204 [.15, .28] of 150 (fair .333); Costly Colours .500 [.42, .58] of 150,
        # level on points. From 998000: Jubilee at three .353 [.26, .47] of 75 (fair .333), 0.7
        # points a match behind (and .333 of 15 more from 998150: .350 [.26, .45] of 90); Hundred
        # .395 [.34, .45] of 300, 0.4 points a match behind
        ("caterpillar", 2, 100, 997000, 0.5),
        ("fifty_one", 3, 150, 997000, 1 / 3),
        ("costly_colours", 2, 150, 997000, 0.5),
        ("jubilee", 3, 75, 998000, 1 / 3),
        ("hundred", 2, 300, 998000, 0.5),
        # Obstacle Race at two: the 3-ply search lost (.665 [.61, .72] of 270 from 998000); the
        # playouts of the deal that replaced it, from 999500: .375 [.29, .47] of 100, 1.4 points a
        # match behind (and .460 [.37, .56] of 100 from 999600: .418 [.35, .49] of 200)
        ("obstacle_race", 2, 100, 999500, 0.5),
    ],
)
def test_a_monte_carlo_player_wins_no_more_than_a_fair_share_against_strong(
    game_id: str, players: int, matches: int, seed: int, most: float
) -> None:
    r = duel(game_id, players, "mc", "strong", matches, seed)
    assert r["low"] <= most, f"{game_id}: the Monte Carlo player won {r['share']:.3f} [{r['low']:.2f}, {r['high']:.2f}]"
