"""The table as a finished deal left it (``GameState.deal_end``), for every game of the catalogue:
taken when the match settles the deal, before the next deal is dealt, it is that deal's public
table at its end (its last trick, its final total, the revealed grid) with nobody to play, it
holds only cards the whole table could see at that moment, and it stays until the next deal ends.
A deal's message keeps its picture (issue 28, point 3)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.cards import Card
from games.engine import GameState, View, iter_cards
from games.layout import Scores, subtitle
from games.registry import catalogue, get_game

GAMES = [d.id for d in catalogue()]


def public_cards(state: GameState[Any]) -> set[Card]:
    """The cards the whole table may see now: in open places, or known to all."""
    seen = set(state.public_knowledge())
    for zone in state.card_zones():
        if zone.visible_to is None:
            seen.update(zone.cards)
    return seen


@pytest.mark.parametrize("game_id", GAMES)
def test_the_table_a_deal_left_is_kept_public_while_the_next_is_played(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = get_game(game_id)
    kept: list[tuple[View, set[Card]]] = []
    real = GameState.keep_deal_end

    def keep(state: GameState[Any]) -> None:  # what the table could see as the deal was settled
        real(state)
        assert state.deal_end is not None
        kept.append((state.deal_end, public_cards(state)))

    monkeypatch.setattr(GameState, "keep_deal_end", keep)
    state = game.start([f"p{i}" for i in range(game.player_counts[0])], seed=11)
    assert state.deal_end is None
    rng = random.Random(3)
    while not state.is_over and state.deal_no < 3:
        deal = state.deal_no
        seat = min(state.awaiting())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        if state.deal_no == deal:
            continue
        ended, seen = kept[-1]
        assert state.deal_end is ended and ended.deal == deal
        assert ended.seat is None and not ended.hand and not ended.awaiting and ended.deal_over
        shown = set(iter_cards(ended))
        assert shown <= seen, f"deal {deal}'s end shows {sorted(map(str, shown - seen))}, not public then"
        assert subtitle(ended) == f"Deal {deal} · over"
        scores = [area for area in ended.layout().areas if isinstance(area, Scores)]
        assert scores and not any(line.active for area in scores for line in area.lines)  # nobody to play
    assert len(kept) >= 2 or state.is_over
    # it stays while the next deal is played, until that deal ends
    if not state.is_over:
        before = state.deal_end
        seat = min(state.awaiting())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        assert state.deal_end is before or state.deal_no > 3
