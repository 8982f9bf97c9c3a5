"""The trick in progress says who is winning it (issue 28, point 9), in every game with tricks:
in the view's text, in the picture (the card marked, "winning" under its player's name: not in
the trick's heading, where a long name widened the picture) and so in its description, by the engine's own trick ranking. Checked over random deals: who is winning after
each card is the one who took the trick when no later card beat them."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine import GameState, PlayCard
from games.layout import Row
from games.registry import get_game

TRICK_GAMES = ["parity", "parity_for_three", "hoodwink"]


def trick_row(state: GameState[Any]) -> Row | None:
    rows = [a for a in state.view(None).layout().areas if isinstance(a, Row) and a.title == "Trick"]
    return rows[0] if rows else None


@pytest.mark.parametrize("game_id", TRICK_GAMES)
def test_the_trick_in_progress_names_who_is_winning_it(game_id: str) -> None:
    game = get_game(game_id)
    state = game.start([f"p{i}" for i in range(game.player_counts[0])], seed=21)
    rng = random.Random(5)
    tricks = 0
    while not state.is_over and state.deal_no <= 2:
        view = state.view(None)
        seat = min(state.awaiting())
        action = rng.choice(state.legal_actions(seat))
        if view.trick:  # type: ignore[attr-defined]
            winning = view.winning  # type: ignore[attr-defined]
            assert winning in [s for s, _ in view.trick]  # type: ignore[attr-defined]
            name = view.players[winning]
            assert any(line.endswith(f"({name} winning)") for line in view.table_lines())
            row = trick_row(state)
            assert row is not None and not row.note
            marked = [s.label for s in row.spots if s.mark == "winning"]
            said = [s.label for s in row.spots if "winning" in s.label]
            if len(view.trick) > 1:  # type: ignore[attr-defined]
                assert marked == said == [f"{name}\nwinning"]
                assert f"{name} winning" in state.view(None).layout().text()
            else:  # a lone lead is winning by itself: its mark alone
                assert marked == [name] and not said
        else:
            winning = None
            assert not any("winning" in line for line in view.table_lines())
        state.apply(seat, action)
        after = state.view(None)
        if not isinstance(action, PlayCard):
            continue
        if winning is None:  # the lead: its player is winning the trick, or took it at once
            assert after.winning == seat or not after.trick  # type: ignore[attr-defined]
            continue
        if after.deal == view.deal and after.trick:  # type: ignore[attr-defined]
            assert after.winning in (winning, seat)  # type: ignore[attr-defined]
            continue
        # the trick is complete: whoever was winning took it, unless the last card beat them
        ended = after if after.deal == view.deal else state.deal_end
        assert ended is not None
        [last] = [a for a in ended.layout().areas if isinstance(a, Row) and a.title == "Last trick"]
        [taker] = [s.label for s in last.spots if s.mark == "winning"]
        assert taker in (view.players[winning], view.players[seat])
        tricks += 1
    assert tricks >= 10
