"""Advice for players, per game and optional: hints during play and analysis after a deal.

A game offers advice by registering functions from a module listed in ``_ADVICE_MODULES``
(imported on first use, like the bot players). The bot and the console ask through
:func:`hint` and :func:`analyse` and say "no advice for this game" when they return ``None``.

- A *hinter* sees exactly what a bot would: one seat's view and its legal actions. It returns
  lines of text (best choices with their values, in our own words).
- An *analyser* replays a match record, which it may read in full because the deal is over,
  and returns lines comparing the play with perfect play.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence

from games.engine import Action, MatchRecord, Seat, View

Hinter = Callable[[View, Sequence[Action]], list[str]]
Analyser = Callable[[MatchRecord, int | None, Seat | None], list[str]]
"""(record, deal number counted from 1 or None for the last finished deal, seat or None for all)."""

_HINTERS: dict[str, Hinter] = {}
_ANALYSERS: dict[str, Analyser] = {}

_ADVICE_MODULES: dict[str, str] = {
    # game id -> the module that registers its hinter and/or analyser (imported on first use)
    "spec": "games.players.spec_adviser",
    "parity": "games.players.parity",
}


class AnalysisError(ValueError):
    """The analysis cannot be made (no finished deal yet, a deal number out of range...)."""


def register_hinter(game_id: str, hinter: Hinter) -> None:
    _HINTERS[game_id] = hinter


def register_analyser(game_id: str, analyser: Analyser) -> None:
    _ANALYSERS[game_id] = analyser


def _ensure_loaded(game_id: str) -> None:
    module = _ADVICE_MODULES.get(game_id)
    if module is not None:
        importlib.import_module(module)


def has_hints(game_id: str) -> bool:
    _ensure_loaded(game_id)
    return game_id in _HINTERS


def has_analysis(game_id: str) -> bool:
    _ensure_loaded(game_id)
    return game_id in _ANALYSERS


def hint(game_id: str, view: View, legal: Sequence[Action]) -> list[str] | None:
    """Hint lines for the seat whose view this is, or ``None`` if the game offers none."""
    _ensure_loaded(game_id)
    hinter = _HINTERS.get(game_id)
    return None if hinter is None else hinter(view, legal)


def analyse(record: MatchRecord, deal: int | None = None, seat: Seat | None = None) -> list[str] | None:
    """Analysis lines of a deal of ``record``, or ``None`` if the game offers none.

    Raises :class:`AnalysisError` with a friendly reason when the deal cannot be analysed.
    """
    _ensure_loaded(record.game)
    analyser = _ANALYSERS.get(record.game)
    return None if analyser is None else analyser(record, deal, seat)
