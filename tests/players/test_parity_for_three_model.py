"""Parity for Three's strong player models the others from what the table has shown: after each
deal it has seen every card the others held, so it learns how often each player's trump call was
the easy bot's (the longest suit) and how often its target was the easy bot's; in play it draws
the others' hands in proportion to how likely they make the calls heard."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.cards import JOKER, Suit, parse_cards
from games.parity import ChooseParity, ChooseTrump, Parity
from games.parity_for_three import GAME as PARITY3
from games.parity_for_three import ParityForThreeState
from games.players import RandomPlayer
from games.players.parity_for_three import (
    EASY,
    CallModel,
    TableModel,
    _knowledge,
    callers,
    easy_parity,
    easy_trump,
    play_keep,
)
from games.players.trick_sim import sample_kept

OPTIONS = {"match_end": "open", "open_deal_cap": 5}


def watch(lineup: list[Any], seed: int) -> tuple[list[list[list[bool]]], CallModel, TableModel]:
    """Play a match with seat 0 watched by a fresh model: for each seat, whether each of its trump
    calls and target calls really was the easy one (from the real hands) in the deals finished
    before the last, and the model at the end."""
    model = TableModel()
    state: Any = PARITY3.start(["Ann", "Bob", "Cat"], OPTIONS, seed=seed)
    assert isinstance(state, ParityForThreeState)
    rng = random.Random(seed)
    easy: list[list[list[bool]]] = [[[], []] for _ in range(3)]
    this_deal: list[tuple[int, int, bool]] = []
    held = [list(h) for h in state.hands]
    seen = model.model(state.view(0))
    deals = 0
    while not state.is_over:
        (seat,) = state.actors()
        view = state.view(seat)
        if seat == 0:
            seen = model.model(view)
        action = lineup[seat].choose(view, state.legal_actions(seat), rng)
        if isinstance(action, ChooseTrump) and action.suit is not None:
            this_deal.append((seat, 0, action.suit == easy_trump(held[seat])))
        if isinstance(action, ChooseParity):
            assert state.trump is not None
            this_deal.append((seat, 1, action.parity == easy_parity(held[seat], state.trump)))
        deal = state.deal_no
        state.apply(seat, action)
        if state.deal_no != deal and not state.is_over:
            for s, k, was_easy in this_deal:
                easy[s][k].append(was_easy)
            this_deal, held = [], [list(h) for h in state.hands]
            deals += 1
    assert deals >= 3
    return easy, seen, model


def test_the_model_counts_each_players_easy_calls_from_the_cards_seen() -> None:
    # a call is counted only where the cards seen settle it (the last trick's cards after the
    # seat's own play are unseen, and two ways of sharing them out may disagree)
    counted = real = 0
    for seed in range(4):
        easy, model, table = watch([EASY, RandomPlayer(), EASY], seed)
        (record,) = table._tables.values()
        for s in (1, 2):
            for k, usual in enumerate((TableModel.USUAL_TRUMPS, TableModel.USUAL_TARGET)):
                n_easy, n_seen = record.easy[s][k], record.seen[s][k]
                assert n_easy <= sum(easy[s][k]) and n_seen - n_easy <= easy[s][k].count(False)
                chance = (model.trumps, model.target)[k][s]
                assert chance == pytest.approx((n_easy + usual * TableModel.PRIOR) / (n_seen + TableModel.PRIOR))
                counted, real = counted + n_seen, real + len(easy[s][k])
        assert model.trumps[0] == pytest.approx(TableModel.USUAL_TRUMPS), "a seat learns nothing about itself"
        assert all(easy[2][0]) and all(easy[2][1]), "the easy bot names the easy calls"
    assert real >= 10 and counted >= 0.75 * real


def test_easy_callers_are_learned_easy_and_random_ones_less_so() -> None:
    easy_high = random_low = 0
    for seed in range(3):
        easy, model, _ = watch([EASY, RandomPlayer(), EASY], seed)
        if easy[2][0]:
            assert model.trumps[2] > TableModel.USUAL_TRUMPS
            easy_high += 1
        if easy[1][0] and not all(easy[1][0]):
            assert model.trumps[1] < TableModel.USUAL_TRUMPS
            random_low += 1
    assert easy_high >= 2 and random_low >= 1


def test_a_new_match_at_the_same_table_starts_afresh() -> None:
    _, model, table = watch([EASY, RandomPlayer(), EASY], 1)
    assert model.trumps != [TableModel.USUAL_TRUMPS] * 3
    fresh: Any = PARITY3.start(["Ann", "Bob", "Cat"], OPTIONS, seed=9)
    again = table.model(fresh.view(0))
    assert again.trumps == pytest.approx([TableModel.USUAL_TRUMPS] * 3)
    assert again.target == pytest.approx([TableModel.USUAL_TARGET] * 3)


def test_callers_follow_the_dealers_left_past_the_joker_holder() -> None:
    assert callers(dealer=2, holder=0) == (1, 2)
    assert callers(dealer=2, holder=2) == (0, 1)
    assert callers(dealer=0, holder=1) == (2, 0)


def test_in_play_the_trump_caller_is_drawn_long_in_trumps() -> None:
    # seat 1 named spades; seat 0 (the watcher) draws seat 1's and seat 2's hands: with the calls
    # weighed, seat 1 holds more spades on average than in draws that ignore the call
    hands = [
        "Joker AH KH QH JH 10H 9H AD KD QD 8H",
        "AS KS QS JS 10S 7H JD 10D 9D AC KC",
        "9S 8S 7S 8D 7D QC JC 10C 9C 8C 7C",
    ]
    cards = [parse_cards(h) for h in hands]
    order = [c for trio in zip(*cards, strict=True) for c in trio]
    state: Any = PARITY3.start(["A", "B", "C"], {"first_dealer": 3}, seed=1, deck=order)
    assert isinstance(state, ParityForThreeState) and state.dealer == 2
    while state.phase == "announce":
        seat = state.speaker
        legal = state.legal_actions(seat)
        pick = next(
            (a for a in legal if getattr(a, "suit", None) == Suit.SPADES or getattr(a, "parity", None) == Parity.ODD),
            legal[0],
        )
        state.apply(seat, pick)
    assert state.trump == Suit.SPADES and state.joker_holder == 0
    view = state.view(0)
    table = TableModel()
    model = table.model(view)


    known = _knowledge(view)
    keep = play_keep(view, model, known.rank)
    assert keep is not None
    spades = {known.rank.index[c] for c in known.rank.pack if c != JOKER and c.suit == Suit.SPADES}

    def mean_spades(with_keep: bool) -> float:
        rng, total = random.Random(4), 0
        for _ in range(400):
            drawn = sample_kept(known, 0, rng, keep if with_keep else None)
            assert drawn is not None
            total += sum(1 for c in drawn[1] if c in spades)
        return total / 400

    assert mean_spades(True) > mean_spades(False) + 0.5
