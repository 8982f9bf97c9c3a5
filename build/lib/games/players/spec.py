"""Bot players for Spec.

Both levels keep the rules: they never make a forbidden call (unless every call is forbidden,
when the adviser's pick stands), and they challenge a call exactly when the public record proves
it broke a rule (a right challenge always gains a scorecard; a wrong one gains nothing).

* ``easy``: predicts a card at random among the open ones; calls the adviser's best call most of
  the time and any allowed call otherwise.
* ``strong``: predicts the card that is the best match for the most possible last cards (the last
  card takes the rest of the stack, about 30 points on average between bots), counting the
  players still to predict; calls the best call after a one-turn look ahead: what the call takes on average, less
  what the next player can then expect (a call the next player may not repeat, and the stack
  left lower, both count), and on the last call also the rest of the stack if it makes the bot
  the last to win a card when nobody's prediction matches.

Every face-down cell is as likely as any other to hold any unseen showcard, so the cell chosen
does not matter: both take one at random.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

from games.cards import Card
from games.engine import Action, View
from games.players import RandomPlayer
from games.players.spec_adviser import (
    advise,
    open_call_was_forbidden,
    prediction_values,
    unseen_showcards,
    view_predictions,
)
from games.spec import Call, Challenge, Predict, Reveal, SpecView
from games.spec_scoring import DEUCES, JOKER, RepeatJokerCall, best_prediction, cards_won

CLOSE = Fraction(3)
"""Calls within this many points of the best are compared by the look ahead."""
EASY_BEST_SHARE = 0.7
"""How often the easy bot makes the adviser's best call (otherwise any allowed call)."""


def _prefix(stack: Sequence[int]) -> list[int]:
    out = [0]
    for v in stack:
        out.append(out[-1] + v)
    return out


def _allowed(call: Card, previous: Card | None, up: set[Card], repeat: RepeatJokerCall) -> bool:
    if call.is_joker:
        if all(c in up for c in (*DEUCES, JOKER)):
            return False
        return not (previous is not None and previous.is_joker and repeat == "forbid")
    return call not in up and call != previous


def lookahead_values(view: SpecView, calls: Sequence[Card], weight: float) -> dict[Card, float]:
    """For each call: its average take, less ``weight`` times the best the next player can then
    expect (after the card it turns up and the cards it takes), plus, on the last call, the rest of
    the stack when the call makes this seat the fallback winner of the last card."""
    up = view.face_up_cards()
    unseen = unseen_showcards(up)
    stack = view.stack
    prefix = _prefix(stack)
    repeat: RepeatJokerCall = "allow" if view.joker_may_repeat else "forbid"
    options = advise(view).values
    names = [v.call for v in options]
    # the next player's takes: for each depth of stack taken now, each call's total over all unseen
    # cards (the turned card is then taken out of the sum)
    depths = sorted({min(cards_won(c, u), len(stack)) for c in calls for u in unseen})
    later = {d: _prefix(stack[d:]) for d in depths}
    totals = {
        d: {x: sum(later[d][min(cards_won(x, u), len(stack) - d)] for u in unseen) for x in names} for d in depths
    }
    last_call = len(unseen) == 2
    predictions = view_predictions(view)
    up_set = set(up)
    out: dict[Card, float] = {}
    for c in calls:
        value = 0.0
        for u in unseen:
            d = min(cards_won(c, u), len(stack))
            value += prefix[d]
            rest = len(unseen) - 1
            if last_call:
                (last,) = (x for x in unseen if x != u)
                left = len(stack) - d
                if best_prediction(predictions, last) is None and (d > 0 or view.last_winner == view.seat):
                    value += sum(stack[d:]) if left else 10
                continue
            now_up = up_set | {u}
            best_next = 0.0
            for x in names:
                if not _allowed(x, c, now_up, repeat):
                    continue
                take = totals[d][x] - later[d][min(cards_won(x, u), len(stack) - d)]
                best_next = max(best_next, take / rest)
            value -= weight * best_next
        out[c] = value / len(unseen)
    return out


def _calls(legal: Sequence[Action]) -> dict[Card, list[Call]]:
    by_call: dict[Card, list[Call]] = {}
    for a in legal:
        if isinstance(a, Call):
            by_call.setdefault(a.call, []).append(a)
    return by_call


def _at_random_cell(options: list[Call], rng: random.Random) -> Call:
    return options[rng.randrange(len(options))]


def _common(view: SpecView, legal: Sequence[Action]) -> Action | None:
    """What both levels do alike: challenge a proven fault, turn up the last card, and (asked while
    only an unfounded challenge is on offer, which a simulation may do) make it, as it costs
    nothing under the default rules. ``None``: a prediction or a call is to be chosen."""
    challenges = [a for a in legal if isinstance(a, Challenge)]
    if challenges and open_call_was_forbidden(view):
        return challenges[0]
    moves = [a for a in legal if not isinstance(a, Challenge)]
    if not moves:
        return legal[0]
    return next((a for a in moves if isinstance(a, Reveal)), None)


def _no_challenge(legal: Sequence[Action]) -> list[Action]:
    return [a for a in legal if not isinstance(a, Challenge)]


class EasySpecPlayer:
    name = "easy"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        if not isinstance(view, SpecView):
            return RandomPlayer().choose(view, legal, rng)
        common = _common(view, legal)
        if common is not None:
            return common
        moves = _no_challenge(legal)
        predictions = [a for a in moves if isinstance(a, Predict)]
        if predictions:
            return predictions[rng.randrange(len(predictions))]
        by_call = _calls(moves)
        if not by_call:
            return moves[0]
        advice = advise(view)
        allowed = [v.call for v in advice.values if v.call in by_call]
        if rng.random() < EASY_BEST_SHARE:
            pick = [c for c in advice.best if c in by_call] or allowed
        else:
            pick = allowed
        if not pick:
            pick = list(by_call)
        return _at_random_cell(by_call[pick[rng.randrange(len(pick))]], rng)


class StrongSpecPlayer:
    name = "strong"

    def __init__(self, candidates: int = 8, weight: float = 1.0, close: Fraction = CLOSE) -> None:
        self.candidates = candidates
        """How many of the adviser's best calls are looked at more closely."""
        self.weight = weight
        """How much the next player's best take counts against a call (shared among the opponents).
        Against two easy bots over 600 matches (seeds from 50000) weights 0.5, 1 and 2 all won
        .38-.39: the look ahead only breaks near ties, and what decides Spec is the luck of the grid."""
        self.close = close

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        if not isinstance(view, SpecView):
            return RandomPlayer().choose(view, legal, rng)
        common = _common(view, legal)
        if common is not None:
            return common
        moves = _no_challenge(legal)
        predictions = {a.prediction: a for a in moves if isinstance(a, Predict)}
        if predictions and view.seat is not None:
            ranked = prediction_values(view_predictions(view), view.seat)
            top = ranked[0][1]
            best = [c for c, wins in ranked if wins == top and c in predictions]
            return predictions[best[rng.randrange(len(best))]] if best else next(iter(predictions.values()))
        by_call = _calls(moves)
        if not by_call:
            return moves[0]
        advice = advise(view)
        # the closer look only matters among calls of nearly equal worth
        cut = advice.best_value - self.close
        shortlist = [v.call for v in advice.values if v.call in by_call and v.expected >= cut]
        if not shortlist:
            return _at_random_cell(next(iter(by_call.values())), rng)
        shortlist = shortlist[: max(self.candidates, len(advice.best))]
        if len(shortlist) == 1:
            return _at_random_cell(by_call[shortlist[0]], rng)
        weight = self.weight / max(1, len(view.players) - 1)
        values = lookahead_values(view, shortlist, weight)
        highest = max(values.values())
        best = [c for c in shortlist if values[c] >= highest - 1e-9]
        return _at_random_cell(by_call[best[rng.randrange(len(best))]], rng)


# the players Spec's declaration names (games/spec.py)
EASY = EasySpecPlayer()
STRONG = StrongSpecPlayer()
