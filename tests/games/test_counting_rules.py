"""The adders' and Caterpillar's rules object (:class:`games.counting.CountingRules`): the plays a
game lists directly (``quick_plays``) are exactly those its refusal allows; the referee state runs
the same rules; and the one rules object is shared by a state's copies."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.counting import CountingRules, CountingState, play_card_of
from games.engine import Action
from games.registry import game_ids, get_game, referee_game

GAMES = [g for g in game_ids() if issubclass(get_game(g).state_cls, CountingState)]
"""Every game played on a running total (the adders and Caterpillar), read from the registry so a
new one is checked without being listed here."""


def refusal_plays(state: CountingState[Any], seat: int) -> set[Action]:
    """Every way to play every card the seat may play from that the rules' refusal lets through."""
    rules, before = state.rules, state.total
    return {
        action
        for card in state.source_cards(seat)
        for action in state.plays_for(card)
        if rules.refusal(state.round, state.cards, seat, action, before, rules.resulting_total(action, before)) is None
    }


def distinct_values(actions: set[Action]) -> set[int]:
    """Wit and Reason II lists one card of each value (suits do not matter there)."""
    cards = [play_card_of(a) for a in actions]
    return {c.rank.value for c in cards if c is not None and c.rank is not None}


@pytest.mark.parametrize("game_id", GAMES)
def test_listed_plays_are_what_the_refusal_allows(game_id: str) -> None:
    """At every turn of random matches, the legal plays are the plays the refusal lets through
    (for the games that list them directly, the quick listing agrees with the refusal)."""
    game = get_game(game_id)
    players = max(game.min_players, min(3, game.max_players))
    rng = random.Random(27)
    turns = 0
    for seed in range(6):
        state = game.start([f"P{i + 1}" for i in range(players)], {}, seed=seed)
        assert isinstance(state, CountingState)
        while not state.is_over:
            (seat,) = state.awaiting()
            legal = set(state.legal_actions(seat))
            allowed = refusal_plays(state, seat)
            if game_id == "wit_and_reason_2":
                assert legal <= allowed and distinct_values(legal) == distinct_values(allowed)
            else:
                assert legal == allowed, (game_id, state.total, seat)
            turns += 1
            state.apply(seat, rng.choice(sorted(legal, key=lambda a: a.label())))
    assert turns > 50


@pytest.mark.parametrize("game_id", GAMES)
def test_one_rules_object_for_both_modes_and_every_copy(game_id: str) -> None:
    """The referee state runs the online game's rules (or a refinement of them), built from the
    table's options; copies of a state share the one immutable rules object."""
    online = get_game(game_id)
    players = [f"P{i + 1}" for i in range(max(online.min_players, min(3, online.max_players)))]
    state = online.start(players, {}, seed=1)
    refereed = referee_game(game_id).start(players, {}, seed=1)
    assert isinstance(state, CountingState) and isinstance(refereed, CountingState)
    assert type(state.rules) is type(state).rules_class
    assert type(state.rules) is not CountingRules
    assert isinstance(refereed.rules, type(state).rules_class)
    assert state.rules.options == state.options and refereed.rules.options == refereed.options
    twin = state.clone()
    assert twin.rules is state.rules
    assert twin.legal_actions(twin.to_play or 0) == state.legal_actions(state.to_play or 0)
