"""The analysers' verdicts on a finished deal, for the match page.

The analysers (:mod:`games.advice`: Parity's solver, the Wit and Reason games' exact results,
Spec's expected scorecards) return an :class:`~games.verdicts.Analysis`: a verdict on every move
they judge, each naming its move by its place in the match record, the very number the page's
replay gives that move (:attr:`bot.web.records.replay.Move.number`). The page sets each verdict
beside its move by that number and the deal's own lines beside the dealt table; ``/analyse``
writes the same analysis as lines. A game without an analyser, or a refereed match (the bot
never saw the hands), gets nothing: the page says nothing rather than guess.
"""

from __future__ import annotations

from bot.web.records.replay import Replay
from games import advice
from games.engine import MatchRecord
from games.verdicts import Analysis


def judged(game_id: str, mode: str) -> bool:
    return mode == "online" and advice.has_analysis(game_id)


def has_judgements(replay: Replay) -> bool:
    return judged(replay.record.game, replay.mode)


def analyse_record(record: MatchRecord, mode: str, deal: int) -> Analysis | None:
    """The analysis of ``deal`` of a finished match; ``None`` where the game has no analyser (or
    the deal nothing to analyse: a deal ended before any card was played). Takes the record alone,
    so that a worker process can be handed it."""
    if not judged(record.game, mode):
        return None
    try:
        return advice.analyse(record, deal)
    except advice.AnalysisError:
        return None


def analyse_deal(replay: Replay, deal: int) -> Analysis | None:
    return analyse_record(replay.record, replay.mode, deal)
