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
