"""Hoodwink's strong player models the others from what the table has shown: after each deal it
has seen every card the others held, so it learns how often each bid was the easy bid (the top card
of the longest suit); a player seen to play above their own bid card is played as bidding any card.
The easy bots are learned to be easy, random bidders to be random."""

from __future__ import annotations

import random
from typing import Any

from games.hoodwink import GAME as HOODWINK
from games.players import RandomPlayer
from games.players.hoodwink import EASY, TableModel, easy_bid_card

USUAL = 0.5


def watch(lineup: list[Any], seed: int, deals: int) -> tuple[set[int], list[list[bool]], list[float]]:
    """Play ``deals`` deals with seat 0 watched by a fresh model: the seats that really played a
    card above their bid card in its suit, whether each seat's bid really was the easy bid in each
    deal (from the real hands), and the model's noise for each seat at the end."""
    model = TableModel()
    state: Any = HOODWINK.start(["Ann", "Bob", "Cat"], {}, seed=seed)
    rng = random.Random(seed)
    showed: set[int] = set()
    easy: list[list[bool]] = [[], [], []]
    noise: list[float] = []
    held: list[list[Any]] = []
    while not state.is_over and state.deal_no <= deals:
        seat = rng.choice(state.actors())
        if state.bids is not None and not held:
            held = [list(h) for h in state.hands]  # the whole hands, bid cards back in them
            for s in range(3):
                suited = [c for c in held[s] if not c.is_joker]
                easy[s].append(easy_bid_card(held[s], suited) == state.bids[s])
        if seat == 0:
            noise = model.noise(state.view(0), USUAL)
        action = lineup[seat].choose(state.view(seat), state.legal_actions(seat), rng)
        if seat != 0 and state.bids and hasattr(action, "play"):
            bid = state.bids[seat]
            if action.play.suit == bid.suit and int(action.play.rank or 0) > int(bid.rank or 0):
                showed.add(seat)
        deal = state.deal_no
        state.apply(seat, action)
        if state.deal_no != deal:
            held = []
    return showed, easy, noise


def test_random_bidders_are_found_out_and_played_at_random() -> None:
    found = 0
    for seed in range(6):
        showed, easy, noise = watch([EASY, RandomPlayer(), RandomPlayer()], seed, deals=3)
        for s in (1, 2):
            if noise[s] == 1.0:
                assert s in showed, "noise 1 only for a player seen to play above their bid card"
            elif not all(easy[s][:2]):
                assert noise[s] > USUAL, "a bid seen not to be the easy bid raises the noise"
        found += sum(1 for s in (1, 2) if noise[s] > USUAL)
    assert found >= 10, "random bidders should mostly be found out within three deals"


def test_easy_bots_are_learned_to_bid_the_easy_way() -> None:
    lowest = 1.0
    for seed in range(4):
        showed, easy, noise = watch([EASY, EASY, EASY], seed, deals=4)
        assert not showed
        assert all(all(e) for e in easy), "the easy bots bid the top card of the longest suit"
        assert noise[0] == USUAL, "a seat learns nothing about itself"
        for s in (1, 2):
            assert noise[s] < USUAL, "every bid seen was the easy bid"
            lowest = min(lowest, noise[s])
    assert lowest <= 0.2 + 1e-9, "three easy bids seen take the noise from .5 to .2 (a prior worth two deals)"


def test_a_new_match_at_the_same_table_starts_afresh() -> None:
    model = TableModel()
    state: Any = HOODWINK.start(["Ann", "Bob", "Cat"], {}, seed=3)
    rng = random.Random(3)
    lineup: list[Any] = [EASY, RandomPlayer(), RandomPlayer()]
    while state.deal_no <= 3:
        seat = rng.choice(state.actors())
        if seat == 0:
            model.noise(state.view(0), USUAL)
        state.apply(seat, lineup[seat].choose(state.view(seat), state.legal_actions(seat), rng))
    assert model.noise(state.view(0), USUAL)[1] > USUAL
    fresh: Any = HOODWINK.start(["Ann", "Bob", "Cat"], {}, seed=4)
    assert model.noise(fresh.view(0), USUAL) == [USUAL] * 3
