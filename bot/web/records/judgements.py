"""The analysers' verdicts on a finished deal, placed beside the moves they are about.

The analysers (:mod:`games.advice`: Parity's solver, the Wit and Reason games' exact results,
Spec's expected scorecards) write the lines ``/analyse`` shows: a line for the deal, a line for
each move that gave something away (with the best alternative, the equal ones named together, and
why), and a closing line. The page shows those very lines; this module only finds which move each
is about, by the words the analyser starts it with (who played what, from which total), and says
of the other moves of the kind the analyser judges that nothing was lost. A game without an
analyser gets nothing: the page says nothing rather than guess.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.web.records.replay import Move, Replay, build
from games import advice
from games.counting import play_card_of
from games.engine import GameState, MatchRecord, PlayCard
from games.spec import Call, Predict


@dataclass(frozen=True)
class Verdict:
    text: str
    lost: bool
    """Whether the move gave something away (the analyser's own line) or kept the best there was."""


@dataclass(frozen=True)
class DealAnalysis:
    notes: tuple[str, ...]
    """The analyser's lines about the whole deal (perfect play from the start, what happened)."""
    verdicts: dict[int, Verdict]
    """By move number."""


Matcher = Callable[[Move, GameState[Any], GameState[Any], Sequence[str]], "Verdict | None"]
"""A move, the positions before and after it, and the analyser's lines for the deal: the verdict
for it, if the analyser judges moves of its kind."""


def _parity(move: Move, before: GameState[Any], after: GameState[Any], lines: Sequence[str]) -> Verdict | None:
    if not isinstance(move.action, PlayCard):
        return None
    name, card = before.players[move.seat], move.action.play.short
    for line in lines:  # a card is played once a deal, so who and which card name the move
        if line.startswith("Trick ") and f": {name}'s {card} lost " in line:
            return Verdict(line, True)
    return Verdict("No points lost: as good as perfect play.", False)


def _wit_and_reason(move: Move, before: GameState[Any], after: GameState[Any], lines: Sequence[str]) -> Verdict | None:
    if play_card_of(move.action) is None:
        return None
    total, made = getattr(before, "total", None), getattr(after, "total", None)
    if total is None or made is None or made <= total:  # the race was won or reset by this card
        made = None
    name = before.players[move.seat]
    for line in lines:  # the running total only grows within a race: it names the move
        if line.startswith(f"{name}'s ") and f" on {total} (making " in line and (made is None or f"(making {made})" in line):
            return Verdict(line, True)
    return Verdict("Kept the best result there was.", False)


def _spec(move: Move, before: GameState[Any], after: GameState[Any], lines: Sequence[str]) -> Verdict | None:
    name = before.players[move.seat]
    if isinstance(move.action, Predict):
        for line in lines:
            if line.startswith(f"{name} predicted "):
                return Verdict(line, "one of the best" not in line)
        return None
    if not isinstance(move.action, Call):
        return None
    number = 1 + sum(1 for a in _deal_moves_before(move, before) if isinstance(a, Call))
    for line in lines:
        if line.startswith(f"Call {number}: {name}"):
            return Verdict(line, True)
    return Verdict("Within a twentieth of a point of the best call, on average.", False)


def _deal_moves_before(move: Move, before: GameState[Any]) -> list[Any]:
    """The actions of this deal before ``move`` (Spec numbers its calls within the deal)."""
    return [a for _, a in before.history[len(before.history) - (move.index - 1) :]] if move.index > 1 else []


MATCHERS: dict[str, Matcher] = {
    "parity": _parity,
    "wit_and_reason_1": _wit_and_reason,
    "wit_and_reason_2": _wit_and_reason,
    "spec": _spec,
}


def has_judgements(replay: Replay) -> bool:
    return replay.mode == "online" and replay.record.game in MATCHERS and advice.has_analysis(replay.record.game)


def analyse_deal(replay: Replay, deal: int) -> DealAnalysis | None:
    """The analyser's lines for ``deal``, placed beside its moves; ``None`` where the game has no
    analyser (or the deal nothing to analyse: a deal ended before any card was played)."""
    if not has_judgements(replay):
        return None
    try:
        lines = advice.analyse(replay.record, deal) or []
    except advice.AnalysisError:
        return None
    matcher = MATCHERS[replay.record.game]
    verdicts: dict[int, Verdict] = {}
    state = replay.starts[deal].clone()
    for move in replay.by_deal[deal]:
        before = state.clone()
        state.apply_checked(move.seat, move.action)
        verdict = matcher(move, before, state, lines)
        if verdict is not None:
            verdicts[move.number] = verdict
    placed = {v.text for v in verdicts.values()}
    return DealAnalysis(tuple(line for line in lines if line not in placed), verdicts)


_BUILT: dict[tuple[str, int, tuple[str, ...], int, str], Replay] = {}


def analyse_record(record: MatchRecord, mode: str, deal: int) -> DealAnalysis | None:
    """:func:`analyse_deal` from the record alone, for a worker process (the page's replay is not
    sent over; the worker rebuilds it once and keeps the last few)."""
    key = (record.game, record.seed, tuple(record.players), len(record.actions), mode)
    replay = _BUILT.get(key)
    if replay is None:
        if len(_BUILT) >= 8:
            _BUILT.pop(next(iter(_BUILT)))
        replay = _BUILT[key] = build(record, mode)
    return analyse_deal(replay, deal)
