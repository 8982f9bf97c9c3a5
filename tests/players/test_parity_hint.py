"""Parity's hint: every choice with its exact value, best first, as perfect play sees it."""

from __future__ import annotations

import random

from games import advice
from games.parity import GAME, ChooseParity, ChooseTrump
from games.players import bot_player
from games.players.parity_solver import ParitySolver, PlayPosition


def test_hints_rank_calls_and_cards_by_their_exact_value() -> None:
    state = GAME.start(["Ann", "Bob"], {"hints": True}, seed=11)
    vulcan = bot_player("parity", "vulcan")
    rng = random.Random(1)
    seen_calls = seen_cards = 0
    while not state.is_over and state.deal_no == 1:
        seat = min(state.awaiting())
        view, legal = state.view(seat), state.legal_actions(seat)
        lines = advice.hint("parity", view, legal)
        assert lines is not None and len(lines) >= 2
        values = [int(line.rsplit(" ", 1)[1]) for line in lines[1:] if ": " in line and not line.startswith("Your")]
        assert values == sorted(values, reverse=True)
        choice = vulcan.choose(view, legal, rng)
        if isinstance(choice, (ChooseTrump, ChooseParity)):
            seen_calls += 1
            listed = {line.rsplit(": ", 1)[0]: int(line.rsplit(" ", 1)[1]) for line in lines[1:]}
            assert listed[choice.label()] == values[0]  # perfect play picks a call the hint ranks first
        else:
            seen_cards += 1
            exact = ParitySolver().value(PlayPosition.from_view(view))
            assert values[0] == exact  # the best card listed keeps the position's value
        state.apply(seat, choice)
    assert seen_calls == 2 and seen_cards == 30
