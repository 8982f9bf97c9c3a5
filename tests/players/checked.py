"""A wrapper around a bot player for the bot tests: every choice must be one of the legal actions."""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.engine import Action, View
from games.players import Player


class Checked:
    """Wraps a player, checks each choice (:meth:`check`, extended by a game's tests) and counts them."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.name = player.name
        self.moves = 0

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        action = self.player.choose(view, legal, rng)
        assert action in legal, f"{self.name} chose {action!r}, not among the legal actions {legal}"
        self.check(view, action)
        self.moves += 1
        return action

    def check(self, view: View, action: Action) -> None:
        """A game's further condition on a legal choice."""
