"""Spec's analysis of a finished deal (``/analyse`` and the match page): each prediction and call
valued by the adviser (:mod:`games.players.spec_adviser`) against the best one open, with why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from games.advice import AnalysisError, Decision, finished_deal, replay_decisions
from games.cards import Card
from games.engine import MatchRecord, Seat
from games.players.spec_adviser import (
    advise,
    expected_points,
    points_text,
    predicted_table,
    prediction_values,
    unseen_showcards,
    view_predictions,
)
from games.spec import Call, Challenge, Predict, call_text
from games.spec_scoring import (
    SHOWCARDS,
    Fault,
    JokerVsDeuce,
    MatchLevel,
    RepeatJokerCall,
    best_prediction,
    call_fault,
    cards_won,
    prediction_match,
)
from games.verdicts import Analysis, Verdict, named_together, tallies


@dataclass(frozen=True)
class _Choice:
    """What the adviser made of a position where a player predicted or called."""

    kind: str  # "predict" or "call"
    values: dict[Card, Fraction]
    """Each choice open to the player, with its worth (points on average, or last cards matched)."""
    unseen: tuple[Card, ...] = ()
    """The showcards still face down (a call's worth is counted over them)."""
    stack: tuple[int, ...] = ()
    previous: Card | None = None
    face_up: tuple[Card, ...] = ()
    repeat: RepeatJokerCall = "forbid"
    predictions: tuple[Card | None, ...] = ()
    """The predictions made before this one (a prediction's worth depends on them)."""
    joker_vs_deuce: JokerVsDeuce = "rank"


def _note(state: Any) -> _Choice | None:
    if state.phase not in ("predict", "call") or state.to_move is None:
        return None
    view = state.view(state.to_move)
    if state.phase == "predict":
        made = tuple(view_predictions(view))
        ranked = prediction_values(made, state.to_move, state.options.joker_vs_deuce)
        return _Choice(
            "predict", {c: Fraction(w) for c, w in ranked}, predictions=made, joker_vs_deuce=state.options.joker_vs_deuce
        )
    previous = Card.parse(view.previous_call) if view.previous_call is not None else None
    up = tuple(view.face_up_cards())
    repeat: RepeatJokerCall = "allow" if view.joker_may_repeat else "forbid"
    return _Choice(
        "call",
        {v.call: v.expected for v in advise(view).values},
        tuple(unseen_showcards(up)),
        tuple(view.stack),
        previous,
        up,
        repeat,
    )


_FAULTS = {
    Fault.REPEAT: "it repeated the call just made",
    Fault.FACE_UP: "that card was already face up",
    Fault.JOKERS_OUT: "the Joker and all four deuces were already up",
}


def _scoring(call: Card, unseen: Sequence[Card]) -> int:
    """How many of the face-down cards would win the call at least one scorecard."""
    return sum(1 for card in unseen if cards_won(call, card))


def _call_reason(mine: Card, best: Sequence[Card], choice: _Choice) -> str:
    """Why the best calls beat this one: how many face-down cards would pay each."""
    n = len(choice.unseen)
    theirs = _scoring(best[0], choice.unseen)
    named = _named(best)
    return (
        f"{_scoring(mine, choice.unseen)} of the {n} face-down cards would pay {call_text(mine)} a scorecard, "
        f"{theirs} would pay {named}."
    )


def analyse_spec(record: MatchRecord, deal: int | None = None, seat: Seat | None = None) -> Analysis:
    """A finished deal of Spec against the adviser: a verdict on each prediction and each call,
    what it was worth against the best one open and why, and what each player gave away over all
    their calls (forbidden calls included: each is valued as if it stood, and a challenge's cost is
    named)."""
    decisions, finished = replay_decisions(record, "spec", _note)
    number = finished_deal(deal, finished)
    players = record.players
    if seat is not None and not 0 <= seat < len(players):
        raise AnalysisError(f"This match has seats 1 to {len(players)}.")
    taken = decisions.get(number, [])
    chosen = [d for d in taken if isinstance(d.action, (Predict, Call))]
    if not chosen:
        raise AnalysisError(f"Deal {number} has no prediction or call to analyse.")
    challenged: set[int] = set()
    calls_so_far = 0
    for d in taken:
        if isinstance(d.action, Call):
            calls_so_far += 1
        elif isinstance(d.action, Challenge):
            challenged.add(calls_so_far)
    opening = (
        f"Deal {number}: a call is worth the points it takes on average over the cards still face down "
        "(any cell is as good as another); a prediction, the number of the 25 possible last cards "
        "it is the best match for, the players after it predicting their best.",
    )
    verdicts: list[Verdict] = []
    number_of_call = 0
    for d in chosen:
        if isinstance(d.action, Call):
            number_of_call += 1
        if seat is not None and d.seat != seat:
            continue
        name = players[d.seat]
        if isinstance(d.action, Predict):
            verdicts.append(_prediction_verdict(name, d, players))
        else:
            verdicts.append(_call_verdict(name, d, number_of_call, number_of_call in challenged))
    seats = range(len(players)) if seat is None else [seat]
    counted = tallies(verdicts, seats, "call")
    summary = [
        f"{players[t.seat]} gave away {points_text(t.lost)} points over {t.judged} call{'s' if t.judged != 1 else ''}"
        + (f" ({t.forbidden} of them forbidden)" if t.forbidden else "")
        for t in counted
    ]
    closing = ("In all, against the best calls: " + "; ".join(summary) + ".",) if summary else ()
    return Analysis("spec", number, opening, tuple(verdicts), counted, closing)


def _named(cards: Sequence[Card]) -> str:
    return named_together([call_text(c) for c in cards], most=4)


def _taken(choice: _Choice, seat: Seat, option: Card, players: Sequence[str]) -> tuple[int, list[str]]:
    """How many last cards ``option`` would match, and each of them a better match of another
    player's would take instead ("Cat's K♠ on K♥"), the players still to predict predicting their best."""
    table = predicted_table(choice.predictions, seat, option, choice.joker_vs_deuce)
    matched = [c for c in SHOWCARDS if prediction_match(option, c, choice.joker_vs_deuce) > MatchLevel.NONE]
    taken = []
    for card in matched:
        winner = best_prediction(table, card, choice.joker_vs_deuce)
        theirs = None if winner is None or winner == seat else table[winner]
        if winner is not None and theirs is not None:
            taken.append(f"{players[winner]}'s {call_text(theirs)} on {card.short}")
    return len(matched), taken


def _prediction_reason(players: Sequence[str], d: Decision[_Choice], mine: Card, best: Card) -> str:
    """Why the best prediction beats this one: the cards each matches, and those a better match
    of another player's takes from it."""
    matched, taken = _taken(d.before, d.seat, mine, players)
    matched_best, taken_best = _taken(d.before, d.seat, best, players)
    named = f" ({', '.join(taken[:3])}{' and more' if len(taken) > 3 else ''})" if taken else ""
    lost = f" but would lose {len(taken)} to better matches{named}" if taken else ""
    lost_best = f" and would lose {len(taken_best)}" if taken_best else ""
    return f"{call_text(mine)} matches {matched} of the 25{lost}; {call_text(best)} matches {matched_best}{lost_best}."


def _prediction_verdict(name: str, d: Decision[_Choice], players: Sequence[str]) -> Verdict:
    assert isinstance(d.action, Predict)
    values = d.before.values
    best = max(values.values())
    top = [c for c, v in values.items() if v == best]
    got = values.get(d.action.prediction, Fraction(0))
    mine = call_text(d.action.prediction)
    if got >= best:
        said, why = f"{name} predicted {mine}, one of the best ({int(best)} of 25).", ""
    else:
        said = f"{name} predicted {mine} ({int(got)} of 25); {_named(top)} would match {int(best)} of 25."
        why = _prediction_reason(players, d, d.action.prediction, top[0])
    return Verdict(
        d.number, d.seat, "prediction", mine, got, best, tuple(call_text(c) for c in top), "last cards of 25",
        gave_away=got < best, said=said, why=why, listed=True,
    )


def _call_verdict(name: str, d: Decision[_Choice], number: int, challenged: bool) -> Verdict:
    """The verdict on call ``number`` of the deal: against the adviser's best, a forbidden one as
    if it stood (and what breaking the rule cost or risked)."""
    assert isinstance(d.action, Call)
    choice = d.before
    best = max(choice.values.values())
    top = [c for c, v in choice.values.items() if v == best]
    call = d.action.call
    worth = choice.values.get(call)
    mine = call_text(call)
    forbidden = worth is None
    if worth is None:
        fault = call_fault(call, choice.previous, choice.face_up, choice.repeat)
        broke = _FAULTS.get(fault, "the rules forbade it there") if fault is not None else "the rules forbade it there"
        value = expected_points(call, choice.unseen, choice.stack) if choice.unseen else Fraction(0)
        said = (
            f"Call {number}: {name} called {mine}, which was forbidden ({broke}); had it stood it was worth "
            f"{points_text(value)} on average; {_named(top)} {points_text(best)}."
        )
        why = (
            "It was challenged, which hands the challenger a scorecard."
            if challenged
            else "It stood unchallenged, but a challenge would have cost a scorecard."
        )
        gave_away = True
    else:
        value, gave_away = worth, best - worth > Fraction(1, 20)
        if gave_away:
            said = f"Call {number}: {name}'s {mine} was worth {points_text(worth)} on average; {_named(top)} {points_text(best)}."
            why = _call_reason(call, top, choice)
        elif worth == best:
            said, why = f"Call {number}: {name}'s {mine}, worth {points_text(worth)} on average, was one of the best calls.", ""
        else:
            said = f"Call {number}: {name}'s {mine} was worth {points_text(worth)} on average, within a twentieth of a point of the best."
            why = ""
    return Verdict(
        d.number, d.seat, "call", mine, value, best, tuple(call_text(c) for c in top), "points",
        gave_away=gave_away, said=said, why=why, listed=gave_away, forbidden=forbidden,
    )
