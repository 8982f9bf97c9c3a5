"""Spec's best-call adviser, and a bot that plays by it.

The "simple calculation" of the rules: every face-down cell is equally likely to hold any
showcard not yet seen, so the choice of cell does not matter and a call is worth the average, over
the unseen showcards, of the points it would take from the top of the stack. The adviser uses only
public facts (the face-up cards, the stack, the previous call), so a view from any seat, or the
table's view, gives the same advice.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from games.cards import Card
from games.engine import Action, View
from games.spec import Call, Challenge, Predict, Reveal, SpecView
from games.spec_scoring import (
    SHOWCARDS,
    RepeatJokerCall,
    allowed_calls,
    call_fault,
    cards_won,
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
