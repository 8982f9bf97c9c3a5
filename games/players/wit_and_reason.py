"""Bot players for the two Wit and Reason races to 31.

Both games are small enough to solve exactly (the game modules hold the solvers), so:

* ``easy`` makes 31 when it can, and otherwise avoids a total from which the other player can make
  31 with one card they may hold, choosing at random among the rest;
* ``strong`` plays perfectly: a winning play if there is one, else (I) one that draws, else the
  play that leaves the other player the fewest ways to win (II).

In (I) the other player's cards are their colour less what they have played this race; the view
carries every card played this race and the table's stalemate ruling, so both are solved as the
table plays them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from games.adders import wit_and_reason_1 as wr1
from games.adders import wit_and_reason_2 as wr2
from games.adders.wit_and_reason import TARGET
from games.advice import AnalysisError, Decision, finished_deal, replay_decisions
from games.cards import Card
from games.counting import CountingView, play_card_of
from games.engine import Action, MatchRecord, Seat, View
from games.verdicts import Analysis, Tally, Verdict, in_all, named_together, tallies


def _plays(legal: Sequence[Action]) -> list[tuple[int, Action]]:
    """(value, action) for each legal play, one per value."""
    out: dict[int, Action] = {}
    for action in legal:
        card = play_card_of(action)
        if card is not None:
            out.setdefault(_value(card), action)
    return sorted(out.items(), key=lambda item: item[0])


def _value(card: Card) -> int:
    return wr1.card_value(card)


# --- Wit and Reason (I) --------------------------------------------------------------------------


def opponent_counts(view: CountingView) -> tuple[int, ...]:
    """The value counts of the other player's hand: their colour less every card they played this
    race (the view carries the whole race, so nothing is guessed)."""
    assert isinstance(view, wr1.WitAndReason1View), "Wit and Reason (I) shows the whole race in the view"
    return view.other_counts()


class StrongWitAndReason1Player:
    """Perfect play by exhaustive search on the two hands' value counts."""

    name = "strong"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        assert isinstance(view, wr1.WitAndReason1View)
        mine = wr1.value_counts(view.hand)
        other = opponent_counts(view)
        rule = view.stalemate
        best: tuple[int, int] | None = None
        choice = legal[0]
        for value, action in _plays(legal):
            total = view.total + value
            if total == TARGET:
                return action
            result = -wr1.solve(total, other, wr1._less(mine, value), rule)
            key = (result, -value)
            if best is None or key > best:
                best, choice = key, action
        return choice


class EasyWitAndReason1Player:
    """Makes 31 when it can; otherwise keeps out of the other player's one-card reach."""

    name = "easy"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        assert isinstance(view, CountingView)
        other = opponent_counts(view)
        return _easy_choice(view.total, legal, lambda need: 1 <= need <= 10 and other[need - 1] > 0, rng)


def _easy_choice(total: int, legal: Sequence[Action], reachable: object, rng: random.Random) -> Action:
    plays = _plays(legal)
    for value, action in plays:
        if total + value == TARGET:
            return action
    assert callable(reachable)
    safe = [a for v, a in plays if not reachable(TARGET - total - v)]
    return rng.choice(safe or [a for _, a in plays] or list(legal))


# --- Wit and Reason (II) -------------------------------------------------------------------------


def _pool(view: View) -> list[Card]:
    pool = getattr(view, "pool", None)
    assert pool is not None, "Wit and Reason (II) shows the pool in the view"
    return list(pool)


class StrongWitAndReason2Player:
    """Perfect play: take a value that leaves the other player lost, if there is one."""

    name = "strong"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        assert isinstance(view, CountingView)
        counts = wr2.pool_counts(_pool(view))
        winning = wr2.winning_takes(view.total, counts)
        plays = _plays(legal)
        for value, action in plays:
            if value in winning:
                return action
        # lost against perfect play: leave the other player as few winning answers as possible
        return min(plays, key=lambda p: _answer_share(view.total + p[0], counts, p[0]))[1]


def _answer_share(total: int, counts: tuple[int, ...], taken: int) -> float:
    rest = (*counts[: taken - 1], counts[taken - 1] - 1, *counts[taken:])
    answers = [v for v in range(1, 7) if rest[v - 1] and total + v <= TARGET]
    if not answers:
        return 0.0  # the other player cannot take a card: they lose
    return len(wr2.winning_takes(total, rest)) / len(answers)


class EasyWitAndReason2Player:
    """Makes 31 when it can; otherwise leaves no single card that makes 31."""

    name = "easy"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        assert isinstance(view, CountingView)
        counts = list(wr2.pool_counts(_pool(view)))

        def reachable(need: int) -> bool:
            return 1 <= need <= 6 and counts[need - 1] > 0

        return _easy_choice(view.total, legal, reachable, rng)


# the players the two games' declarations name (games/adders/wit_and_reason_1.py, _2.py)
WIT_AND_REASON_1_EASY = EasyWitAndReason1Player()
WIT_AND_REASON_1_STRONG = StrongWitAndReason1Player()
WIT_AND_REASON_2_EASY = EasyWitAndReason2Player()
WIT_AND_REASON_2_STRONG = StrongWitAndReason2Player()


# --- advice: hints and analysis (both games are solved exactly) ------------------------------------

_RESULT = {1: "a win", 0: "a draw", -1: "a loss"}


def _values_text(values: Sequence[int]) -> str:
    return named_together([str(v) for v in values])


def _hint_lines(judged: dict[int, int]) -> list[str]:
    """Hint lines from each playable value's result for the mover (1, 0, -1) under perfect play."""
    lines = ["Each card you may play, if both then play perfectly:"]
    words = {1: "you win the race", 0: "the race is drawn", -1: "you lose the race"}
    for result in (1, 0, -1):
        values = sorted(v for v, r in judged.items() if r == result)
        if values:
            lines.append(f"{_values_text(values)}: {words[result]}.")
    return lines


def results_1(total: int, mover: tuple[int, ...], other: tuple[int, ...], stalemate: str) -> dict[int, int]:
    """Wit and Reason (I): each value the mover may play, with its result for the mover."""
    out: dict[int, int] = {}
    for i, count in enumerate(mover):
        value = i + 1
        if count and total + value <= TARGET:
            out[value] = 1 if total + value == TARGET else -wr1.solve(total + value, other, wr1._less(mover, value), stalemate)
    return out


def results_2(total: int, pool: tuple[int, ...]) -> dict[int, int]:
    """Wit and Reason (II): each value the mover may take, with its result for the mover."""
    out: dict[int, int] = {}
    for i, count in enumerate(pool):
        value = i + 1
        if count and total + value <= TARGET:
            rest = (*pool[:i], count - 1, *pool[i + 1 :])
            out[value] = 1 if total + value == TARGET else -wr2.solve(total + value, rest)
    return out


def hint_wit_and_reason_1(view: View, legal: Sequence[Action]) -> list[str]:
    """Every playable value with its result under perfect play (the other hand read from the plays)."""
    assert isinstance(view, CountingView)
    playable = {v for v, _ in _plays(legal)}
    if not playable:
        return ["Nothing for you to play right now."]
    assert isinstance(view, wr1.WitAndReason1View)
    judged = results_1(view.total, wr1.value_counts(view.hand), opponent_counts(view), view.stalemate)
    return _hint_lines({v: r for v, r in judged.items() if v in playable})


def hint_wit_and_reason_2(view: View, legal: Sequence[Action]) -> list[str]:
    """Every value that may be taken with its result under perfect play."""
    assert isinstance(view, CountingView)
    playable = {v for v, _ in _plays(legal)}
    if not playable:
        return ["Nothing for you to take right now."]
    judged = results_2(view.total, wr2.pool_counts(_pool(view)))
    return _hint_lines({v: r for v, r in judged.items() if v in playable})


Judged = tuple[int, dict[int, int], dict[int, dict[int, int]]]
"""What an analyser notes before a play: the total, each playable value's result for the mover,
and for each value the other player's results for their answers to it."""


def _handed_over(other: str, made: int, answers: dict[int, int]) -> str:
    """Why a play threw its result away: the answers the total it made gives the other player."""
    if not answers:
        return f"From {made} {other} cannot play, and the race is decided without them."
    best = max(answers.values())
    values = sorted(v for v, r in answers.items() if r == best)
    totals = _values_text([made + v for v in values])
    verb = {1: "wins", 0: "holds a draw", -1: "still loses"}[best]
    if best == 1 and any(made + v == TARGET for v in values):
        return f"{made} is within {other}'s reach: {TARGET - made} makes 31."
    return f"From {made}, {other} {verb} by answering {_values_text(values)} (making {totals})."


def _race_analysis(
    game_id: str,
    players: Sequence[str],
    number: int,
    decisions: Sequence[Decision[Judged]],
    seat: Seat | None,
    last_card_wins: bool,
) -> Analysis:
    """The analysis of one race from each play's position: the total and every value's result."""
    first = decisions[0]
    start = max(first.before[1].values())
    starter = players[first.seat]
    outcome = {1: f"{starter} wins", 0: "the race is drawn", -1: f"{players[1 - first.seat]} wins"}[start]
    opening = (f"Race {number}, started by {starter}: with perfect play from the first card, {outcome}.",)
    verdicts: list[Verdict] = []
    for d in decisions:
        card = play_card_of(d.action)
        if card is None or (seat is not None and d.seat != seat):
            continue
        verdicts.append(_play_verdict(players, d, _value(card)))
    seats = [0, 1] if seat is None else [seat]
    counted = tallies(verdicts, seats, "card")
    summary = in_all(players, counted, seat, "kept the best result there was with every card.", _tally_text)
    last = decisions[-1]
    card = play_card_of(last.action)
    made = last.before[0] + (_value(card) if card is not None else 0)
    if made == TARGET or last_card_wins:
        event = f"In the event, {players[last.seat]} won the race."
    else:
        event = "In the event, the race was drawn."
    return Analysis(game_id, number, opening, tuple(verdicts), counted, (summary, event))


def _play_verdict(players: Sequence[str], d: Decision[Judged], value: int) -> Verdict:
    """The verdict on one play of ``value``: the result it kept or threw away, the values that
    kept the best result, and why (the answers the total it made hands the other player)."""
    total, judged, replies = d.before
    best = max(judged.values())
    got = judged.get(value, best)
    keepers = sorted(v for v, r in judged.items() if r == best)
    name, made = players[d.seat], total + value
    played = f"{name}'s {value} on {total} (making {made})"
    lost = got < best
    if lost:
        verb = "keep" if best < 1 else "win"
        said = (
            f"{played} turned {_RESULT[best]} into {_RESULT[got]}; "
            f"{_values_text(keepers)} would {verb} {'it' if best < 1 else 'the race'}."
        )
        why = _handed_over(players[1 - d.seat], made, replies.get(value, {}))
    elif best > -1:
        said, why = f"{played} kept the {'win' if best == 1 else 'draw'}.", ""
    else:
        said, why = f"{played}: every card there loses against perfect play.", ""
    return Verdict(
        d.number, d.seat, "card", str(value), Fraction(got), Fraction(best), tuple(str(v) for v in keepers), "result",
        gave_away=lost, said=said, why=why, listed=lost,
    )


def _tally_text(name: str, tally: Tally) -> str:
    cards = f"{tally.judged} card{'s' if tally.judged != 1 else ''}"
    if not tally.gave_away:
        return f"{name} kept the best result with all {cards}"
    return f"{name} threw a result away with {tally.gave_away} of {cards}"


def _analyse_races(
    record: MatchRecord,
    game_id: str,
    deal: int | None,
    seat: Seat | None,
    note: Callable[[Any], Judged | None],
    last_card_wins: bool,
) -> Analysis:
    if seat is not None and seat not in (0, 1):
        raise AnalysisError("The race has two seats.")
    decisions, finished = replay_decisions(record, game_id, note)
    number = finished_deal(deal, finished, "race")
    plays = decisions.get(number, [])
    if not plays:
        raise AnalysisError(f"Race {number} has no play to analyse.")
    return _race_analysis(game_id, record.players, number, plays, seat, last_card_wins)


def analyse_wit_and_reason_1(record: MatchRecord, deal: int | None = None, seat: Seat | None = None) -> Analysis:
    """A finished race of (I) against perfect play: the plays that threw a result away, and the
    plays that would have kept it."""
    stalemate = str(record.options.get("stalemate", "draw"))

    def note(state: Any) -> Judged | None:
        mover = state.to_play
        if mover is None or not state.legal_actions(mover):
            return None
        mine, other = wr1.value_counts(state.hands[mover]), wr1.value_counts(state.hands[1 - mover])
        judged = results_1(state.total, mine, other, stalemate)
        replies = {v: results_1(state.total + v, other, wr1._less(mine, v), stalemate) for v in judged}
        return state.total, judged, replies

    return _analyse_races(record, "wit_and_reason_1", deal, seat, note, stalemate == "last_player_wins")


def analyse_wit_and_reason_2(record: MatchRecord, deal: int | None = None, seat: Seat | None = None) -> Analysis:
    """A finished race of (II) against perfect play (a player left without a card loses, so the
    last card taken always wins the race)."""

    def note(state: Any) -> Judged | None:
        mover = state.to_play
        if mover is None or not state.legal_actions(mover):
            return None
        pool = wr2.pool_counts(state.pool)
        judged = results_2(state.total, pool)
        replies = {v: results_2(state.total + v, wr1._less(pool, v)) for v in judged}
        return state.total, judged, replies

    return _analyse_races(record, "wit_and_reason_2", deal, seat, note, True)
