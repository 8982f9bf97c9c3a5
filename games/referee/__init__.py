"""Referee mode: games played with real cards, entered into the bot as they happen.

A referee game is an ordinary :class:`~games.engine.Game` whose actions are *entries* ("Ann bid
the Q♥", "the tricks were 4, 5 and 2", "Bob played the 7♣"), so it replays, persists and renders
like any other game. It knows no hidden cards: it checks what can be checked from the entries
(totals that must add up, a card already played, a suit not followed, a claim after its window)
and scores with the very functions the online game uses.

A game's referee mode is its referee state, a :class:`~games.referee.state.RefereeState` that
declares its entries, rules summary and options as class attributes; the online game's declaration
names it (``referee="games.referee.<game id>:Referee<Game>State"``) and the registry derives the
referee game from it (:func:`referee_mode`: the id, title and player counts are the online
game's); the module's ``GAME`` is that same game. At a referee table any seated member may enter
for any awaited seat; the table service adds confirmation, undo of the last entry and corrections
by the host.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine import Action, Game, View
from games.referee.series import series_of
from games.referee.state import RefereeState

_MODES: dict[tuple[int, type[RefereeState[Any]]], tuple[Game[Any], Game[Any]]] = {}
"""The referee games made so far, by online game and state: one game object for each."""


def referee_mode(online: Game[Any], state: type[RefereeState[Any]]) -> Game[Any]:
    """The referee-mode game of ``online`` whose state is ``state``: the online game's id, title,
    player counts and options model, with what the state declares of its mode (its entries, its
    rules summary, options of its own extending the online ones such as ``entries=result``, and
    whether a line of several entries, :mod:`games.referee.series`, may be made at once). Asked
    twice, it answers the same game: a declaration's ``referee=`` and the referee module agree."""
    key = (id(online), state)
    made = _MODES.get(key)
    if made is not None and made[0] is online:
        return made[1]
    model = online.Options if state.options_model is None else state.options_model
    actions: Sequence[type[Action]] = list(state.entry_kinds)
    if not actions:
        raise TypeError(f"{state.__name__} declares no entries (entry_kinds).")
    if state.takes_series:
        actions = [*actions, series_of(actions)]
    if not issubclass(model, online.Options):
        raise TypeError(f"The referee options of {online.id} must extend {online.Options.__name__}.")
    game: Game[Any] = Game(
        id=online.id,
        title=online.title,
        min_players=online.min_players,
        max_players=online.max_players,
        player_counts=online.player_counts,
        options=model,
        state=state,
        actions=actions,
        summary=state.rules_summary,
    )
    _MODES[key] = (online, game)
    return game


def dealer_line(view: View) -> list[str]:
    """``Dealer: Bob``: every referee view names the dealer (the real cards need one, and a random
    first dealer is otherwise known only from the first event)."""
    if view.over or view.dealer is None or not 0 <= view.dealer < len(view.players):
        return []
    return [f"Dealer: {view.players[view.dealer]}"]


def entries_alias(plural: bool) -> classmethod:  # type: ignore[type-arg]
    """A before-validator for a referee ``entries`` option: ``result`` and ``results`` (and
    ``card``/``cards``) mean the same, whichever spelling the game's option uses."""

    def validate(cls: type, value: object) -> object:
        if isinstance(value, str):
            word = value.strip().lower()
            if word in ("result", "results"):
                return "results" if plural else "result"
            if word in ("card", "cards"):
                return "cards"
        return value

    return classmethod(validate)
