"""Spec's best-call adviser, and a bot that plays by it.

The "simple calculation" of the rules: every face-down cell is equally likely to hold any
showcard not yet seen, so the choice of cell does not matter and a call is worth the average, over
the unseen showcards, of the points it would take from the top of the stack. The adviser uses only
public facts (the face-up cards, the stack, the previous call), so a view from any seat, or the
table's view, gives the same advice.

Predictions are judged the same way: the last card is any of the 25 showcards alike, so a
prediction is worth the number of them on which it would be the best match (the players still to
predict are assumed to pick their own best in turn). The hinter (registered for ``/hint``) puts
both into a few lines; :mod:`games.players.spec_analysis` judges a finished deal by the same
values.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from games.cards import Card
from games.engine import Action, View
from games.spec import Call, Challenge, Predict, Reveal, SpecView, call_text
from games.spec_scoring import (
    SHOWCARDS,
    JokerVsDeuce,
    RepeatJokerCall,
    allowed_calls,
    best_prediction,
    call_fault,
    cards_won,
    legal_predictions,
)


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


def points_text(value: Fraction) -> str:
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
            f"{' and more' if len(calls) > 8 else ''}, worth {points_text(advice.best_value)} points on average."
        )
        others = [v for v in advice.values if v.expected < advice.best_value][:3]
        if others:
            lines.append("Next: " + ", ".join(f"{v.label} {points_text(v.expected)}" for v in others) + ".")
        lines.append("Any face-down cell will do: nothing tells them apart.")
    elif any(isinstance(a, Reveal) for a in legal):
        lines.append("All calls are made: turn up the last card.")
    if not lines:
        lines.append("Nothing for you to decide right now.")
    return lines
