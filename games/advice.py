"""Advice for players, per game and optional: hints during play and analysis after a deal.

A game offers advice through its declaration (:func:`games.registry.declare`): ``hinter=`` and
``analyser=`` name the functions, imported on first use like the bot players. The bot and the
console ask through :func:`hint` and :func:`analyse` and say "no advice for this game" when they
return ``None``.

- A *hinter* sees exactly what a bot would: one seat's view and its legal actions. It returns
  lines of text (best choices with their values, in our own words).
- An *analyser* replays a match record, which it may read in full because the deal is over,
  and returns lines comparing the play with perfect play.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from games.engine import Action, MatchRecord, Seat, View
from games.registry import declaration, resolve

Hinter = Callable[[View, Sequence[Action]], list[str]]
Analyser = Callable[[MatchRecord, int | None, Seat | None], list[str]]
"""(record, deal number counted from 1 or None for the last finished deal, seat or None for all)."""

_HINTERS: dict[str, Hinter] = {}
_ANALYSERS: dict[str, Analyser] = {}
"""Advice given to games registered outside the catalogue (a test's toy game), by game id."""


class AnalysisError(ValueError):
    """The analysis cannot be made (no finished deal yet, a deal number out of range...)."""


def which_deals(finished: int) -> str:
    """The finished deals that can be analysed, as a phrase: "only deal 1 can be analysed"."""
    if finished <= 1:
        return "only deal 1 can be analysed"
    return f"deals 1 to {finished} can be analysed"


def finished_deal(deal: int | None, finished: int) -> int:
    """The deal to analyse (``None``: the last finished one) among ``finished`` finished deals;
    raises :class:`AnalysisError` with a friendly reason when there is none such."""
    if finished < 1:
        raise AnalysisError("No deal has been finished yet: analysis comes once a deal is over.")
    number = finished if deal is None else deal
    if not 1 <= number <= finished:
        raise AnalysisError(f"There is no finished deal {number}: {which_deals(finished)}.")
    return number


def register_hinter(game_id: str, hinter: Hinter) -> None:
    """Give a game registered outside the catalogue a hinter (tests); catalogue games declare theirs."""
    _HINTERS[game_id] = hinter


def register_analyser(game_id: str, analyser: Analyser) -> None:
    """Give a game registered outside the catalogue an analyser (tests); catalogue games declare theirs."""
    _ANALYSERS[game_id] = analyser


def _hinter(game_id: str) -> Hinter | None:
    if game_id in _HINTERS:
        return _HINTERS[game_id]
    reference = declaration(game_id).hinter
    return None if reference is None else resolve(reference)  # type: ignore[no-any-return]


def _analyser(game_id: str) -> Analyser | None:
    if game_id in _ANALYSERS:
        return _ANALYSERS[game_id]
    reference = declaration(game_id).analyser
    return None if reference is None else resolve(reference)  # type: ignore[no-any-return]


def has_hints(game_id: str) -> bool:
    return game_id in _HINTERS or declaration(game_id).hinter is not None


def has_analysis(game_id: str) -> bool:
    return game_id in _ANALYSERS or declaration(game_id).analyser is not None


def hint(game_id: str, view: View, legal: Sequence[Action]) -> list[str] | None:
    """Hint lines for the seat whose view this is, or ``None`` if the game offers none."""
    hinter = _hinter(game_id)
    return None if hinter is None else hinter(view, legal)


def analyse(record: MatchRecord, deal: int | None = None, seat: Seat | None = None) -> list[str] | None:
    """Analysis lines of a deal of ``record``, or ``None`` if the game offers none.

    Raises :class:`AnalysisError` with a friendly reason when the deal cannot be analysed.
    """
    analyser = _analyser(record.game)
    return None if analyser is None else analyser(record, deal, seat)
