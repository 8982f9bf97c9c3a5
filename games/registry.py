"""The catalogue of games: id -> :class:`~games.engine.Game`.

Each game module defines a module-level ``GAME``. Adding a game is a module in ``games/``, its
tests, and one line in ``_MODULES`` below; nothing outside ``games/`` changes.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from games.engine import Game, SetupError

# Game ids never change once released: they are stored with every session.
_MODULES: dict[str, str] = {
    "parity": "games.parity",
    "parity_for_three": "games.parity_for_three",
    "hoodwink": "games.hoodwink",
    "spec": "games.spec",
    "caterpillar": "games.caterpillar",
    "costly_colours": "games.costly_colours",
    "fifty_one": "games.adders.fifty_one",
    "hundred": "games.adders.hundred",
    "jubilee": "games.adders.jubilee",
    "ninety_nine": "games.adders.ninety_nine",
    "obstacle_race": "games.adders.obstacle_race",
    "twenty_nine": "games.adders.twenty_nine",
    "wit_and_reason_1": "games.adders.wit_and_reason_1",
    "wit_and_reason_2": "games.adders.wit_and_reason_2",
}


_EXTRA: dict[str, Game[Any]] = {}


def register(game: Game[Any]) -> None:
    """Add a game defined outside the catalogue (a test's toy game, a plug-in)."""
    _EXTRA[game.id] = game


@cache
def _import(game_id: str) -> Game[Any] | None:
    module_name = _MODULES[game_id]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:  # a game not written yet; any other import error is a bug
        if exc.name == module_name:
            return None
        raise
    game: Game[Any] = module.GAME
    assert game.id == game_id, f"{module_name} declares id {game.id!r}, expected {game_id!r}"
    return game


def _load(game_id: str) -> Game[Any] | None:
    if game_id in _EXTRA:
        return _EXTRA[game_id]
    return _import(game_id) if game_id in _MODULES else None


@cache
def _import_referee(game_id: str) -> Game[Any] | None:
    module_name = f"games.referee.{game_id}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            return None
        raise
    game: Game[Any] = module.GAME
    assert game.id == game_id, f"{module_name} declares id {game.id!r}, expected {game_id!r}"
    return game


_EXTRA_REFEREE: dict[str, Game[Any]] = {}


def register_referee(game: Game[Any]) -> None:
    """Add a referee game defined outside ``games/referee`` (tests)."""
    _EXTRA_REFEREE[game.id] = game


def referee_game(game_id: str) -> Game[Any]:
    """The referee-mode version of a game (entries typed in as people play with real cards)."""
    game = get_game(game_id)
    ref = _EXTRA_REFEREE.get(game.id) or (_import_referee(game.id) if game.id in _MODULES else None)
    if ref is None:
        raise SetupError(f"Referee mode is not available for {game.title} yet.")
    return ref


def all_games() -> list[Game[Any]]:
    """Every available game, in catalogue order."""
    return [g for gid in [*_MODULES, *_EXTRA] if (g := _load(gid)) is not None]


def game_ids() -> list[str]:
    return [g.id for g in all_games()]


def get_game(game_id: str) -> Game[Any]:
    """The game with this id; raises :class:`SetupError` with a list of known ids otherwise."""
    key = game_id.strip().lower().replace("-", "_").replace(" ", "_")
    game = _load(key)
    if game is None:
        for g in all_games():
            if g.title.lower().replace(" ", "_").replace("-", "_") == key:
                return g
        raise SetupError(f"There is no game called '{game_id}'. Games: {', '.join(game_ids())}.")
    return game
