"""Bots never make an illegal move, whatever the table's options: for every game, every option a
player may choose (each value of a choice, a switched flag) plays one match with the bot levels
sharing the seats. Legality always comes from the game; the bots assume the standard rules."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import SetupError
from games.players import bot_player
from games.registry import catalogue
from games.simulate import play_match
from tests.players.checked import Checked

SHORT: dict[str, dict[str, Any]] = {
    # options that keep one match short, laid under each variation (the variation wins a clash)
    "hoodwink": {"target": 30},
    "parity_for_three": {"match_end": "open", "open_deal_cap": 1},
    "caterpillar": {"games": 1},
}


def variations() -> list[tuple[str, str, Any]]:
    out: list[tuple[str, str, Any]] = []
    for found in catalogue():
        for info in found.game.option_fields():
            if info.name in ("first_dealer", "hints"):
                continue
            if info.kind == "bool":
                out.append((found.id, info.name, not info.default))
            elif info.kind == "choice":
                out += [(found.id, info.name, c) for c in info.choices if c != info.default]
    return out


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "name", "value"), variations())
def test_bots_stay_legal_under_every_option(game_id: str, name: str, value: Any) -> None:
    found = next(d for d in catalogue() if d.id == game_id)
    game = found.game
    options = {**SHORT.get(game_id, {}), name: value}
    for players in game.player_counts:
        try:
            game.check_players(players, game.Options(**options))
        except (SetupError, ValueError):
            continue
        levels = [lvl for lvl in found.levels() if lvl != "vulcan"] or ["random"]
        seats = [Checked(bot_player(game_id, levels[(s + 1) % len(levels)])) for s in range(players)]
        try:
            state = play_match(game, players, options, seed=7, policies=seats)
        except (SetupError, ValueError):
            return  # this option needs others set with it: not a table anyone can open
        assert state.is_over
        assert any(p.moves for p in seats if p.name == "strong") or "strong" not in levels
        return
