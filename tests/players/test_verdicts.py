"""The analysers' verdicts, as data, for every game that has an analyser: each names a real move of
the match record (its number is that move's place, the seat and the card or call are that move's),
every move of the kinds judged gets exactly one, the best alternatives are every option worth the
best value (equal ones together), and each seat's tally counts every such move it made.

The values are worked out again here, position by position, by replaying the record: the races by
a brute force written from the rules (:mod:`tests.players.test_true_hints`), Parity by a fresh
solver (itself checked against plain minimax in the solver tests), Spec by its adviser (checked
against an independent count in its own tests)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from games import advice
from games.adders import wit_and_reason_1 as wr1
from games.adders import wit_and_reason_2 as wr2
from games.counting import play_card_of
from games.engine import Action, MatchRecord, PlayCard, Seat
from games.players.parity_solver import ParitySolver, PlayPosition
from games.players.spec_adviser import advise, prediction_values, view_predictions
from games.registry import catalogue, get_game
from games.simulate import play_match, seat_policies
from games.spec import Call, Predict, call_text
from games.verdicts import Analysis, Verdict
from tests.players.test_true_hints import race_one, race_two

SOLVER = ParitySolver()
Options = dict[str, Fraction]
"""Every option open to the mover, by the name a verdict gives it, with its value to the mover."""
Truth = Callable[[Any, Seat, Action], "tuple[str, str, Options] | None"]
"""(position before a move, its seat, the move) -> (the kind judged, the move's name, every option
open with its value), or ``None`` for a move of a kind not judged."""


def _parity(state: Any, seat: Seat, action: Action) -> tuple[str, str, Options] | None:
    if state.phase != "play" or not isinstance(action, PlayCard):
        return None
    values = SOLVER.solve(PlayPosition.from_state(state)).values
    return "card", action.play.short, {c.short: Fraction(v) for c, v in values.items()}


def _race(results: Callable[[Any, Seat, int], int | None]) -> Truth:
    def truth(state: Any, seat: Seat, action: Action) -> tuple[str, str, Options] | None:
        card = play_card_of(action)
        if card is None:
            return None
        options: Options = {}
        for value in range(1, 11):
            result = None if state.total + value > 31 else results(state, seat, value)
            if result is not None:
                options[str(value)] = Fraction(1 if state.total + value == 31 else result)
        return "card", str(wr1.card_value(card)), options

    return truth


def _one(state: Any, seat: Seat, value: int) -> int | None:
    mine = [wr1.card_value(c) for c in state.hands[seat]]
    if value not in mine:
        return None
    if state.total == 0 and len(state.hands[1 - seat]) == len(state.hands[seat]) == sum(wr1.COLOUR_COUNTS):
        return 1 if value in (8, 9) else -1  # the rules' note on the opening (a search from here is long)
    mine.remove(value)
    theirs = tuple(wr1.card_value(c) for c in state.hands[1 - seat])
    return -race_one(state.total + value, theirs, tuple(mine), state.options.stalemate, True)


def _two(state: Any, seat: Seat, value: int) -> int | None:
    pool = [wr2.card_value(c) for c in state.pool]
    if value not in pool:
        return None
    pool.remove(value)
    return -race_two(state.total + value, tuple(pool))


def _spec(state: Any, seat: Seat, action: Action) -> tuple[str, str, Options] | None:
    view = state.view(seat)
    if isinstance(action, Predict):
        ranked = prediction_values(view_predictions(view), seat, state.options.joker_vs_deuce)
        return "prediction", call_text(action.prediction), {call_text(c): Fraction(w) for c, w in ranked}
    if isinstance(action, Call):
        return "call", call_text(action.call), {call_text(v.call): v.expected for v in advise(view).values}
    return None


TRUTH: dict[str, Truth] = {
    "parity": _parity,
    "wit_and_reason_1": _race(_one),
    "wit_and_reason_2": _race(_two),
    "spec": _spec,
}
MATCHES: dict[str, tuple[list[str], int, list[int]]] = {
    "parity": (["random", "easy"], 9, [1]),
    "wit_and_reason_1": (["random", "random"], 4, [1, 2]),
    "wit_and_reason_2": (["random", "random"], 4, [1, 2]),
    "spec": (["random", "strong", "random"], 2, [1]),
}
"""Per game: the players (a random one, so that moves give things away), the seed, the deals judged."""
TOLERANCE = {"call": Fraction(1, 20)}
"""What an analyser forgives before it says a move gave something away (Spec's rounding)."""


def test_every_game_with_an_analyser_is_checked() -> None:
    assert {d.game.id for d in catalogue() if advice.has_analysis(d.game.id)} == set(TRUTH)


def judged_moves(record: MatchRecord, truth: Truth, deals: list[int]) -> dict[int, list[tuple[int, Seat, str, str, Options]]]:
    """Per deal of ``deals``, each move of a kind judged: its number in the record, seat, kind,
    name, options."""
    game = get_game(record.game)
    state: Any = game.start(record.players, record.options, record.seed, record.deck)
    out: dict[int, list[tuple[int, Seat, str, str, Options]]] = {}
    for number, (seat, data) in enumerate(record.actions, 1):
        action = game.action_from_json(data)
        found = truth(state, seat, action) if state.deal_no in deals else None
        if found is not None:
            out.setdefault(state.deal_no, []).append((number, seat, *found))
        state.apply(seat, action)
    return out


@pytest.mark.parametrize("game_id", sorted(TRUTH))
def test_verdicts_name_real_moves_group_equal_alternatives_and_count_every_move(game_id: str) -> None:
    levels, seed, deals = MATCHES[game_id]
    game = get_game(game_id)
    names = ["Ann", "Bob", "Cat"][: len(levels)]
    state = play_match(game, names, {}, seed=seed, policies=seat_policies(game_id, levels))
    record = game.record(state)
    moves = judged_moves(record, TRUTH[game_id], deals)
    gave = 0
    for deal in deals:
        analysis = advice.analyse(record, deal)
        assert analysis is not None and analysis.deal == deal
        expected = moves[deal]
        # one verdict per judged move, in order, each naming the move the record holds at its number
        assert [(v.number, v.seat, v.kind, v.move) for v in analysis.verdicts] == [m[:4] for m in expected]
        for verdict, (_n, _s, kind, move, options) in zip(analysis.verdicts, expected, strict=True):
            check_values(verdict, move, options, TOLERANCE.get(kind, Fraction(0)))
            gave += verdict.gave_away
        check_tallies(analysis, expected)
        check_lines(analysis)
    assert gave, "a random player gives something away: the test sees verdicts of both kinds"


def check_values(verdict: Verdict, move: str, options: Options, tolerance: Fraction) -> None:
    best = max(options.values())
    assert verdict.best_value == best
    # every option worth the best, named together (the analyser's order), and nothing else
    assert sorted(verdict.best) == sorted(name for name, value in options.items() if value == best)
    if move in options:
        assert verdict.value == options[move] and not verdict.forbidden
        assert verdict.gave_away == (best - options[move] > tolerance)
    else:  # a call the rules forbade there: given away whatever it was worth had it stood
        assert verdict.forbidden and verdict.gave_away
    if verdict.gave_away:
        assert verdict.listed
        named = verdict.best[:4] if len(verdict.best) > 4 else verdict.best
        assert all(name in verdict.said for name in named), verdict.said
        assert verdict.why, f"a move that gave something away says why: {verdict.said}"
    else:
        assert move in verdict.best or verdict.lost <= tolerance


def check_tallies(analysis: Analysis, expected: list[tuple[int, Seat, str, str, Options]]) -> None:
    kind = analysis.tallies[0].kind
    counted = Counter(seat for _n, seat, k, _m, _o in expected if k == kind)
    assert {t.seat: t.judged for t in analysis.tallies} == dict(counted)  # every such move, forbidden ones too
    for tally in analysis.tallies:
        mine = [v for v in analysis.verdicts if v.seat == tally.seat and v.kind == kind]
        assert tally.gave_away == sum(v.gave_away for v in mine)
        assert tally.forbidden == sum(v.forbidden for v in mine)
        assert tally.lost == sum((max(Fraction(0), v.lost) for v in mine if v.gave_away), Fraction(0))


def check_lines(analysis: Analysis) -> None:
    lines = analysis.lines()
    for verdict in analysis.verdicts:
        assert (verdict.text in lines) == verdict.listed
    if any(t.gave_away for t in analysis.tallies):  # the summary counts each seat's moves
        summary = next(line for line in lines if line.startswith("In all"))
        for tally in analysis.tallies:
            assert f"{tally.judged} {tally.kind}" in summary, summary


def test_a_seat_asked_for_gets_its_own_verdicts_and_tally() -> None:
    game = get_game("wit_and_reason_2")
    state = play_match(game, ["Ann", "Bob"], {}, seed=4, policies=seat_policies(game.id, ["random", "random"]))
    record = game.record(state)
    whole = advice.analyse(record, 1)
    assert whole is not None
    for seat in (0, 1):
        mine = advice.analyse(record, 1, seat)
        assert mine is not None
        assert mine.verdicts == tuple(v for v in whole.verdicts if v.seat == seat)
        assert mine.tallies == tuple(t for t in whole.tallies if t.seat == seat)


def test_parity_names_the_trump_left_in_the_other_hand() -> None:
    """"The trick lost to a trump left in the other hand" is true of the hands: the trump named was
    in the other hand, which held none of the suit led, so it could take the card."""
    from games.parity import GAME

    state = play_match(GAME, ["Ann", "Bob"], {}, seed=11)
    record = GAME.record(state)
    analysis = advice.analyse(record, 1)
    assert analysis is not None
    ruffed = [v for v in analysis.verdicts if "still held a trump: the " in v.why]
    assert ruffed, "seed 11's first deal has a card lost to a trump"
    for verdict in ruffed:
        named = verdict.why.split("still held a trump: the ")[1].split(" takes the ")[0]
        replay: Any = GAME.start(record.players, record.options, record.seed)
        for seat, data in record.actions[: verdict.number - 1]:
            replay.apply(seat, GAME.action_from_json(data))
        pos = PlayPosition.from_state(replay)
        assert not pos.trick, "the card was led"
        other = list(replay.hands[1 - verdict.seat])
        trump = next(c for c in other if c.short == named)
        led = next(c for c in replay.hands[verdict.seat] if c.short == verdict.move)
        rules, role = pos.rules, pos.role
        assert rules.is_trump(role.get(trump, trump)) and not rules.is_trump(role.get(led, led))
        assert not any(rules.suit_of(role.get(c, c)) == rules.suit_of(role.get(led, led)) for c in other)
        assert verdict.why.split(", where the ")[1].split(" would win")[0] in verdict.best


def test_a_spec_prediction_found_wanting_says_why() -> None:
    """A Joker predicted where a card would do better: the reason counts the last cards each
    matches and those a better match of another player's would take, which leaves each one's worth."""
    game = get_game("spec")
    state: Any = game.start(["Ann", "Bob", "Cat"], {}, seed=3)
    while state.phase == "predict":  # the first to predict names the Joker, the others their first choice
        seat = state.to_move
        legal = state.legal_actions(seat)
        jokers = [a for a in legal if isinstance(a, Predict) and a.prediction.is_joker]
        state.apply(seat, (jokers or legal)[0])
    while state.deal_no == 1 and not state.is_over:
        seat = state.to_move if state.to_move is not None else min(state.awaiting())
        state.apply(seat, state.legal_actions(seat)[0])
    analysis = advice.analyse(game.record(state), 1)
    assert analysis is not None
    joker = next(v for v in analysis.verdicts if v.kind == "prediction" and v.move == "Joker")
    assert joker.gave_away and joker.value == 5  # the Joker matches itself and the four deuces
    best = joker.best[0]
    assert joker.why.startswith(f"Joker matches 5 of the 25; {best} matches ")
    matched, *rest = joker.why.split(f"{best} matches ")[1].rstrip(".").split(" and would lose ")
    assert int(matched) - (int(rest[0]) if rest else 0) == joker.best_value
