"""The shapes of the parts a game's declaration names besides the game itself: a bot player, a
hinter and an analyser (:func:`games.registry.declare`), and the player every game has, ``random``.

They sit apart from ``players`` and ``advice``, which look declarations up in the registry, so
that the registry can name them without importing either (no import circle).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from games.engine import Action, MatchRecord, Seat, View
from games.verdicts import Analysis


class Player(Protocol):
    """A policy for one seat. It sees only the seat's view and legal actions, never the state."""

    name: str

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action: ...


class RandomPlayer:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        return rng.choice(list(legal))


Hinter = Callable[[View, Sequence[Action]], list[str]]
"""(a seat's view, its legal actions) -> lines of advice."""

Analyser = Callable[[MatchRecord, int | None, Seat | None], Analysis]
"""(record, deal number counted from 1 or None for the last finished deal, seat or None for all)
-> the deal's verdicts (:mod:`games.verdicts`)."""
