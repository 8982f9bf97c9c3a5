"""Referee mode: games played with real cards, entered into the bot as they happen.

A referee game is an ordinary :class:`~games.engine.Game` whose actions are *entries* ("Ann bid
the Q♥", "the tricks were 4, 5 and 2", "Bob played the 7♣"), so it replays, persists and renders
like any other game. It knows no hidden cards: it checks what can be checked from the entries
(totals that must add up, a card already played, a suit not followed, a claim after its window)
and scores with the very functions the online game uses.

Each module ``games/referee/<game id>.py`` ends with ``GAME = referee_mode(<the online game>, ...)``:
the id, title and player counts are the online game's, and the online game's declaration names
the module (``referee="games.referee.<game id>"``). At a referee table any seated member may enter
for any awaited seat; the table service adds confirmation, undo of the last entry and corrections
by the host.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine import Action, Game, View
from games.referee.series import series_of
from games.referee.state import RefereeState


def referee_mode(
    online: Game[Any],
    *,
    state: type[RefereeState[Any]],
    actions: Sequence[type[Action]],
    summary: str,
    options: type[Any] | None = None,
    series: bool = False,
) -> Game[Any]:
    """The referee-mode game of ``online``: its id, title, player counts and options model, with
    the referee's own state, entries and summary. ``options`` may extend the online options with
    settings of referee mode alone (``entries=result``, say). ``series`` adds the entry that holds
    several entries in a row (:mod:`games.referee.series`), which every
    :class:`~games.referee.state.RefereeState` accepts."""
    model = online.Options if options is None else options
    if series:
        actions = [*actions, series_of(actions)]
    if not issubclass(model, online.Options):
        raise TypeError(f"The referee options of {online.id} must extend {online.Options.__name__}.")
    return Game(
        id=online.id,
        title=online.title,
        min_players=online.min_players,
        max_players=online.max_players,
        player_counts=online.player_counts,
        options=model,
        state=state,
        actions=actions,
        summary=summary,
    )


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
