"""Bot players: given what a seat may see and what it may do, choose an action."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from games.engine import Action, GameState, Seat, View


class Player(Protocol):
    """A policy for one seat. It sees only the seat's view and legal actions, never the state."""

    name: str

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action: ...


class RandomPlayer:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        return rng.choice(list(legal))


def choose_for(state: GameState, seat: Seat, player: Player, rng: random.Random) -> Action:
    """Ask ``player`` for the move of ``seat`` in ``state``."""
    return player.choose(state.view(seat), state.legal_actions(seat), rng)


# Per-game policies by level; games register stronger players here as they gain them.
_POLICIES: dict[tuple[str, str], Player] = {}
LEVELS = ("easy", "strong")


def register_player(game_id: str, level: str, player: Player) -> None:
    _POLICIES[(game_id, level)] = player


_PLAYER_MODULES: dict[str, str] = {
    # game id -> the module that registers its bot players (imported on first use)
    "costly_colours": "games.players.costly_colours",
    "parity": "games.players.parity",
    "caterpillar": "games.players.caterpillar",
    "fifty_one": "games.players.adders",
    "hundred": "games.players.adders",
    "jubilee": "games.players.adders",
    "ninety_nine": "games.players.adders",
    "obstacle_race": "games.players.adders",
    "twenty_nine": "games.players.adders",
    "wit_and_reason_1": "games.players.wit_and_reason",
    "wit_and_reason_2": "games.players.wit_and_reason",
    "hoodwink": "games.players.hoodwink",
    "parity_for_three": "games.players.parity_for_three",
    "spec": "games.players.spec",
}


def _ensure_loaded(game_id: str) -> None:
    module = _PLAYER_MODULES.get(game_id)
    if module is not None:
        import importlib

        importlib.import_module(module)


def levels(game_id: str) -> list[str]:
    """The bot levels a game offers, weakest first: random, easy and strong always (a level a game
    lacks falls back to its best one, see :func:`bot_player`), then any extra level it registers."""
    _ensure_loaded(game_id)
    extra = sorted(lvl for (gid, lvl) in _POLICIES if gid == game_id and lvl not in LEVELS)
    return ["random", *LEVELS, *extra]


def bot_player(game_id: str, level: str = "easy") -> Player:
    """The bot policy for a game at a level, falling back to the best one available, then random."""
    if level == "random":
        return RandomPlayer()
    _ensure_loaded(game_id)
    for lvl in (level, *LEVELS[::-1]):
        if (game_id, lvl) in _POLICIES:
            return _POLICIES[(game_id, lvl)]
    return RandomPlayer()
