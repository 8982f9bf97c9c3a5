"""Hoodwink's strong player models the others from what the table has shown: a player seen to bid
below the top of their suit is played out at random; the easy bots never are."""

from __future__ import annotations

import random
from typing import Any

from games.hoodwink import GAME as HOODWINK
from games.players import RandomPlayer
from games.players.hoodwink import EASY, TableModel


def watch(lineup: list[Any], seed: int, deals: int) -> tuple[set[int], list[float]]:
    """Play ``deals`` deals with seat 0 watched by a fresh model; the seats that really played a
    card above their bid card in its suit, and the model's noise for each seat at the end."""
    model = TableModel()
    state: Any = HOODWINK.start(["Ann", "Bob", "Cat"], {}, seed=seed)
    rng = random.Random(seed)
    showed: set[int] = set()
    noise: list[float] = []
    while not state.is_over and state.deal_no <= deals:
        seat = rng.choice(state.actors())
        if seat == 0:
            noise = model.noise(state.view(0), 0.25)
        action = lineup[seat].choose(state.view(seat), state.legal_actions(seat), rng)
        if seat != 0 and state.bids and hasattr(action, "play"):
            bid = state.bids[seat]
            if action.play.suit == bid.suit and int(action.play.rank or 0) > int(bid.rank or 0):
                showed.add(seat)
        state.apply(seat, action)
    return showed, noise


def test_random_bidders_are_found_out_and_played_at_random() -> None:
    found = 0
    for seed in range(6):
        showed, noise = watch([EASY, RandomPlayer(), RandomPlayer()], seed, deals=2)
        # the model flags what it has seen (the last deal's final trick is seen at the next turn)
        for s in (1, 2):
            if noise[s] == 1.0:
                assert s in showed
        found += sum(1 for s in (1, 2) if noise[s] == 1.0)
    assert found >= 6, "random bidders should mostly be found out within two deals"


def test_easy_bots_are_never_taken_for_random() -> None:
    for seed in range(4):
        showed, noise = watch([EASY, EASY, EASY], seed, deals=3)
        assert not showed and noise == [0.25, 0.25, 0.25]
