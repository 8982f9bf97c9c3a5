"""Spec's best-call adviser, and a bot that plays by it.

The "simple calculation" of the rules: every face-down cell is equally likely to hold any
showcard not yet seen, so the choice of cell does not matter and a call is worth the average, over
the unseen showcards, of the points it would take from the top of the stack. The adviser uses only
public facts (the face-up cards, the stack, the previous call), so a view from any seat, or the
table's view, gives the same advice.

Predictions are judged the same way: the last card is any of the 25 showcards alike, so a
prediction is worth the number of them on which it would be the best match (the players still to
predict are assumed to pick their own best in turn). The hinter (registered for ``/hint``) puts
both into a few lines.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from games.advice import AnalysisError, Decision, finished_deal, replay_decisions
from games.cards import Card
from games.engine import Action, MatchRecord, Seat, View
from games.spec import Call, Challenge, Predict, Reveal, SpecView, call_text
from games.spec_scoring import (
    SHOWCARDS,
    Fault,
    JokerVsDeuce,
    MatchLevel,
    RepeatJokerCall,
    allowed_calls,
    best_prediction,
    call_fault,
    cards_won,
    legal_predictions,
    prediction_match,
)
from games.verdicts import Analysis, Verdict, named_together, tallies


@dataclass(frozen=True)
class CallValue:
    """A call and the points it is expected to win."""

    call: Card
    expected: Fraction

    @property
    def label(self) -> str:
        return "Joker" if self.call.is_joker else self.call.short


@dataclass(frozen=True)
class Advice:
    values: tuple[CallValue, ...]
    """Every allowed call, best first (ties in menu order)."""

    @property
    def best_value(self) -> Fraction:
        return self.values[0].expected

    @property
    def best(self) -> tuple[Card, ...]:
        """All the calls sharing the highest expected value."""
        return tuple(v.call for v in self.values if v.expected == self.best_value)

    def value_of(self, call: Card) -> Fraction | None:
        return next((v.expected for v in self.values if v.call == call), None)


def unseen_showcards(face_up: Iterable[Card]) -> list[Card]:
    """The showcards not yet turned up: what the face-down cells hold, in some order."""
    left = Counter(SHOWCARDS)
    left.subtract(face_up)
    return [c for c in SHOWCARDS if left[c] > 0]


def expected_points(call: Card, unseen: Sequence[Card], stack: Sequence[int]) -> Fraction:
    """Average points ``call`` takes from ``stack`` (values, top first) over the unseen cards."""
    prefix = [0]
    for v in stack:
        prefix.append(prefix[-1] + v)
    total = sum(prefix[min(cards_won(call, card), len(stack))] for card in unseen)
    return Fraction(total, len(unseen))


def call_values(
    face_up: Iterable[Card],
    stack: Sequence[int],
    previous_call: Card | None = None,
    repeat_joker_call: RepeatJokerCall = "forbid",
) -> Advice:
    """The expected points of every allowed call, best first.

    If every call is forbidden (only joker-class cards are left and Joker was just called), the
    repeated call is valued: strict mode allows it then, and in challenge mode it is the only call.
    """
    up = list(face_up)
    unseen = unseen_showcards(up)
    calls = allowed_calls(previous_call, up, repeat_joker_call)
    values = [CallValue(c, expected_points(c, unseen, stack)) for c in calls]
    values.sort(key=lambda v: -v.expected)
    return Advice(tuple(values))


def advise(view: SpecView) -> Advice:
    """The adviser for the position a view shows (any seat's view, or the table's)."""
    previous = Card.parse(view.previous_call) if view.previous_call is not None else None
    repeat: RepeatJokerCall = "allow" if view.joker_may_repeat else "forbid"
    return call_values(view.face_up_cards(), view.stack, previous, repeat)


def open_call_was_forbidden(view: SpecView) -> bool:
    """Whether the call open to challenge broke a rule, judged from the public history."""
    if view.open_challenge is None or not view.recent_calls:
        return False
    last = view.recent_calls[-1]
    before = [c for c in view.recent_calls if c.number == last.number - 1]
    previous = Card.parse(before[0].call) if before else None
    up = view.face_up_cards()
    up.remove(last.turned)  # the grid as it was when the call was made
    repeat: RepeatJokerCall = "allow" if view.joker_may_repeat else "forbid"
    return call_fault(Card.parse(last.call), previous, up, repeat) is not None


class SpecAdviserPlayer:
    """Calls one of the best calls at a random face-down cell, challenges forbidden calls only,
    and predicts at random."""

    name = "spec-adviser"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        assert isinstance(view, SpecView)
        challenges = [a for a in legal if isinstance(a, Challenge)]
        if challenges and open_call_was_forbidden(view):
            return challenges[0]
        calls = [a for a in legal if isinstance(a, Call)]
        if calls:
            best = set(advise(view).best)
            good = [a for a in calls if a.call in best]
            return rng.choice(good or calls)
        for kind in (Reveal, Predict):
            options = [a for a in legal if isinstance(a, kind)]
            if options:
                return rng.choice(options)
        return rng.choice(list(legal))


# --- predictions -------------------------------------------------------------------------------------


def prediction_wins(
    predictions: Sequence[Card | None], seat: int, joker_vs_deuce: JokerVsDeuce = "rank"
) -> int:
    """On how many of the 25 possible last cards ``seat``'s prediction is the best match."""
    return sum(1 for last in SHOWCARDS if best_prediction(predictions, last, joker_vs_deuce) == seat)


def _still_to_predict(predictions: Sequence[Card | None], seat: int) -> list[int]:
    """The seats that predict after ``seat``, in turn (predictions go left from the first caller)."""
    n = len(predictions)
    return [s for s in ((seat + k) % n for k in range(1, n)) if predictions[s] is None]


def _own_best(table: Sequence[Card | None], seat: int, joker_vs_deuce: JokerVsDeuce) -> Card:
    """The open prediction that wins ``seat`` the most last cards, given the others so far."""
    taken = [p for p in table if p is not None]
    best: tuple[int, Card] | None = None
    for choice in legal_predictions(taken):
        trial = list(table)
        trial[seat] = choice
        wins = prediction_wins(trial, seat, joker_vs_deuce)
        if best is None or wins > best[0]:
            best = (wins, choice)
    assert best is not None
    return best[1]


def prediction_values(
    predictions: Sequence[Card | None], seat: int, joker_vs_deuce: JokerVsDeuce = "rank"
) -> list[tuple[Card, int]]:
    """Every open prediction for ``seat`` with the number of last cards it would win, best first,
    assuming each player still to predict then takes the prediction best for them."""
    made = [p for p in predictions if p is not None]
    out = []
    for option in legal_predictions(made):
        table = predicted_table(predictions, seat, option, joker_vs_deuce)
        out.append((option, prediction_wins(table, seat, joker_vs_deuce)))
    out.sort(key=lambda pair: -pair[1])
    return out


def predicted_table(
    predictions: Sequence[Card | None], seat: int, option: Card, joker_vs_deuce: JokerVsDeuce = "rank"
) -> list[Card | None]:
    """The predictions once ``seat`` predicts ``option`` and each player still to predict then
    takes the prediction best for them."""
    table = list(predictions)
    table[seat] = option
    for other in _still_to_predict(predictions, seat):
        table[other] = _own_best(table, other, joker_vs_deuce)
    return table


def view_predictions(view: SpecView) -> list[Card | None]:
    return [Card.parse(p) if p is not None else None for p in view.predictions]


# --- the hinter ----------------------------------------------------------------------------------------


def _points(value: Fraction) -> str:
    return f"{float(value):.1f}"


def spec_hint(view: View, legal: Sequence[Action]) -> list[str]:
    """What the adviser would do in this seat: challenge a call the record shows was forbidden,
    the best calls with the points they bring on average, or the predictions that win most often."""
    if not isinstance(view, SpecView):
        return ["No advice: this is not a Spec table."]
    lines: list[str] = []
    if any(isinstance(a, Challenge) for a in legal) and open_call_was_forbidden(view):
        lines.append(f"Call {view.open_challenge} broke a rule: challenge it and its caller hands you a scorecard.")
    if any(isinstance(a, Predict) for a in legal) and view.seat is not None:
        options = prediction_values(view_predictions(view), view.seat)
        top = options[0][1]
        best = [c for c, wins in options if wins == top]
        lines.append(
            f"Predict {', '.join(call_text(c) for c in best[:6])}: the best match for {top} of the 25 "
            "cards that may be left last (it then takes the rest of the stack)."
        )
        worse = [(c, w) for c, w in options if w < top][:3]
        if worse:
            lines.append("Less likely: " + ", ".join(f"{call_text(c)} ({w} of 25)" for c, w in worse) + ".")
    elif any(isinstance(a, Call) for a in legal):
        advice = advise(view)
        calls = advice.best
        lines.append(
            f"Best call{'s' if len(calls) > 1 else ''}: {', '.join(call_text(c) for c in calls[:8])}"
            f"{' and more' if len(calls) > 8 else ''}, worth {_points(advice.best_value)} points on average."
        )
        others = [v for v in advice.values if v.expected < advice.best_value][:3]
        if others:
            lines.append("Next: " + ", ".join(f"{v.label} {_points(v.expected)}" for v in others) + ".")
        lines.append("Any face-down cell will do: nothing tells them apart.")
    elif any(isinstance(a, Reveal) for a in legal):
        lines.append("All calls are made: turn up the last card.")
    if not lines:
        lines.append("Nothing for you to decide right now.")
    return lines



# --- the analyser ----------------------------------------------------------------------------------------


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
        f"{players[t.seat]} gave away {_points(t.lost)} points over {t.judged} call{'s' if t.judged != 1 else ''}"
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
            f"{_points(value)} on average; {_named(top)} {_points(best)}."
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
            said = f"Call {number}: {name}'s {mine} was worth {_points(worth)} on average; {_named(top)} {_points(best)}."
            why = _call_reason(call, top, choice)
        elif worth == best:
            said, why = f"Call {number}: {name}'s {mine}, worth {_points(worth)} on average, was one of the best calls.", ""
        else:
            said = f"Call {number}: {name}'s {mine} was worth {_points(worth)} on average, within a twentieth of a point of the best."
            why = ""
    return Verdict(
        d.number, d.seat, "call", mine, value, best, tuple(call_text(c) for c in top), "points",
        gave_away=gave_away, said=said, why=why, listed=gave_away, forbidden=forbidden,
    )
