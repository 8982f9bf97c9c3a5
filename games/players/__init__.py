"""Bot players: given what a seat may see and what it may do, choose an action."""

from __future__ import annotations

import random

from games.engine import Action, GameState, Seat, SetupError
from games.parts import Player as Player
from games.parts import RandomPlayer as RandomPlayer
from games.registry import declaration, resolve


def choose_for(state: GameState, seat: Seat, player: Player, rng: random.Random) -> Action:
    """Ask ``player`` for the move of ``seat`` in ``state``."""
    return player.choose(state.view(seat), state.legal_actions(seat), rng)


class UnknownLevel(SetupError):
    """A bot level the game does not declare."""


def levels(game_id: str) -> list[str]:
    """The bot levels a game offers, weakest first: ``random``, then the levels its declaration
    names (every game of the catalogue has ``easy`` and ``strong``; Parity adds ``vulcan``)."""
    return declaration(game_id).levels()


def bot_player(game_id: str, level: str = "easy") -> Player:
    """The bot player of a game at a level; raises :class:`UnknownLevel` for a level the game's
    declaration does not name (nothing falls back to another level)."""
    found = declaration(game_id)
    if level == "random":
        return RandomPlayer()
    reference = found.bots.get(level)
    if reference is None:
        raise UnknownLevel(
            f"{found.game.title} has no {level!r} bot; its levels are {', '.join(found.levels())}."
        )
    player = resolve(reference)
    if not callable(getattr(player, "choose", None)):
        raise TypeError(f"{reference!r}, the {level} bot of {found.id}, is not a player.")
    return player  # type: ignore[no-any-return]
