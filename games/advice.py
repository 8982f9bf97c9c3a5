"""Advice for players, per game and optional: hints during play and analysis after a deal.

A game offers advice through its declaration (:func:`games.registry.declare`): ``hinter=`` and
``analyser=`` name the functions, imported on first use like the bot players. The bot and the
console ask through :func:`hint` and :func:`analyse` and say "no advice for this game" when they
return ``None``.

- A *hinter* sees exactly what a bot would: one seat's view and its legal actions. It returns
  lines of text (best choices with their values, in our own words).
- An *analyser* replays a match record, which it may read in full because the deal is over,
  and returns an :class:`~games.verdicts.Analysis`: a verdict on each move it judges (which move
  of the record, what it was worth against the best, the best alternatives, why) and a tally
  per seat. ``/analyse`` and the match page both render from it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from games.engine import Action, GameState, IllegalAction, MatchRecord, Seat, View
from games.parts import Analyser as Analyser
from games.parts import Hinter as Hinter
from games.registry import declaration, get_game, resolve
from games.verdicts import Analysis

T = TypeVar("T")


_HINTERS: dict[str, Hinter] = {}
_ANALYSERS: dict[str, Analyser] = {}
"""Advice given to games registered outside the catalogue (a test's toy game), by game id."""


class AnalysisError(ValueError):
    """The analysis cannot be made (no finished deal yet, a deal number out of range...)."""


def which_deals(finished: int, noun: str = "deal") -> str:
    """The finished deals that can be analysed, as a phrase: "only deal 1 can be analysed"."""
    if finished <= 1:
        return f"only {noun} 1 can be analysed"
    return f"{noun}s 1 to {finished} can be analysed"


def finished_deal(deal: int | None, finished: int, noun: str = "deal") -> int:
    """The deal to analyse (``None``: the last finished one) among ``finished`` finished deals;
    raises :class:`AnalysisError` with a friendly reason when there is none such. ``noun`` names
    a deal in the game's own word (a race)."""
    if finished < 1:
        raise AnalysisError(f"No {noun} has been finished yet: analysis comes once a {noun} is over.")
    number = finished if deal is None else deal
    if not 1 <= number <= finished:
        raise AnalysisError(f"There is no finished {noun} {number}: {which_deals(finished, noun)}.")
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


def analyse(record: MatchRecord, deal: int | None = None, seat: Seat | None = None) -> Analysis | None:
    """The analysis of a deal of ``record`` (``seat``: that seat's moves only), or ``None`` if the
    game offers none.

    Raises :class:`AnalysisError` with a friendly reason when the deal cannot be analysed.
    """
    analyser = _analyser(record.game)
    return None if analyser is None else analyser(record, deal, seat)


@dataclass(frozen=True)
class Decision(Generic[T]):
    """One action of a replayed match with what an analyser noted of the position before it."""

    before: T
    seat: Seat
    action: Action
    number: int
    """The action's place in the match record, from 1."""


def replay_decisions(
    record: MatchRecord, game_id: str, note: Callable[[GameState[Any]], T | None]
) -> tuple[dict[int, list[Decision[T]]], int]:
    """Replay ``record`` and gather, per deal (from 1), each action whose position ``note`` judged
    worth noting (``note`` returns ``None`` to skip it); and how many deals are finished.

    Raises :class:`AnalysisError` for a record of another game or one that no longer replays."""
    if record.game != game_id:
        raise AnalysisError(f"This analysis is for {get_game(game_id).title}.")
    game = get_game(game_id)
    try:
        state = game.start(record.players, record.options, record.seed, record.deck)
        out: dict[int, list[Decision[T]]] = {}
        deal, noted = state.deal_no, note(state)
        for number, seat, action, _events in game.replay_steps(record, state):
            if noted is not None:
                out.setdefault(deal, []).append(Decision(noted, seat, action, number))
            deal, noted = state.deal_no, (None if state.is_over else note(state))
    except (IllegalAction, ValueError) as exc:
        raise AnalysisError(f"This match record cannot be replayed: {exc}") from None
    finished = state.deal_no if state.is_over else state.deal_no - 1
    return out, finished
