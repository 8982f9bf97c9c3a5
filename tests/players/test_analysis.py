"""Hints and analysis of the solved races (Wit and Reason I and II) and of Spec: known positions
give their known values, and the analysis names the play that threw a result away."""

from __future__ import annotations

from typing import Any

import pytest

from games import advice
from games.adders import wit_and_reason_1 as wr1
from games.adders import wit_and_reason_2 as wr2
from games.advice import AnalysisError
from games.engine import MatchRecord
from games.players.spec_adviser import advise, unseen_showcards
from games.players.spec_analysis import analyse_spec
from games.players.wit_and_reason import (
    analyse_wit_and_reason_1,
    analyse_wit_and_reason_2,
    hint_wit_and_reason_1,
    hint_wit_and_reason_2,
    results_1,
    results_2,
)
from games.registry import get_game
from games.simulate import play_match, seat_policies
from games.spec import Call
from games.spec_scoring import cards_won
from tests.players.test_true_hints import race_two


def test_the_three_games_offer_hints_and_analysis() -> None:
    for game in ("spec", "wit_and_reason_1", "wit_and_reason_2"):
        assert advice.has_analysis(game)
        assert advice.has_hints(game)
    for game in ("wit_and_reason_1", "wit_and_reason_2"):
        assert "hints" in get_game(game).Options.model_fields


def test_known_values_of_the_races() -> None:
    # (I): the starter wins by opening with an 8 or a 9 (the rules' note), and loses otherwise
    opening = results_1(0, wr1.COLOUR_COUNTS, wr1.COLOUR_COUNTS, "draw")
    assert {v for v, r in opening.items() if r == 1} == {8, 9}
    # (II): from 0 the starter wins with 1, 2 or 5 (Dudeney)
    assert {v for v, r in results_2(0, wr2.POOL_COUNTS).items() if r == 1} == {1, 2, 5}
    # on 26 with a 5 left, taking it makes 31
    assert results_2(26, (0, 0, 0, 0, 1, 0))[5] == 1


def play_values(game_id: str, values: list[int]) -> MatchRecord:
    game = get_game(game_id)
    state: Any = game.start(["Ann", "Bob"], {}, seed=1)
    for value in values:
        seat = state.to_play
        action = next(a for a in state.legal_actions(seat) if wr1.card_value(a.play) == value)
        state.apply(seat, action)
    assert state.deal_no == 2, "the race should be over"
    return game.record(state)


def _without(cards: tuple[int, ...], value: int) -> tuple[int, ...]:
    rest = list(cards)
    rest.remove(value)
    return tuple(rest)


def test_wit_and_reason_2_analysis_finds_the_throw_away() -> None:
    values: list[int] = []
    total, pool = 0, list(wr2.POOL_COUNTS)
    # the starter opens with 3 (a loss against perfect play), then both play perfectly if they can
    script = [3]
    while total < 31:
        counts = tuple(pool)
        judged = results_2(total, counts)
        if not judged:
            break
        value = script.pop(0) if script else max(judged, key=lambda v: (judged[v], -v))
        values.append(value)
        total += value
        pool[value - 1] -= 1
    record = play_values("wit_and_reason_2", values)
    lines = analyse_wit_and_reason_2(record, 1).lines()
    starter = record.players[0] if lines[0].startswith("Race 1, started by Ann") else record.players[1]
    assert lines[0] == f"Race 1, started by {starter}: with perfect play from the first card, {starter} wins."
    other = record.players[1] if starter == record.players[0] else record.players[0]
    # why: the answers to 3 that win for the other player, by the brute force of test_true_hints
    pool = list(wr2.POOL_COUNTS)
    pool[2] -= 1
    cards = tuple(v for v in range(1, 7) for _ in range(pool[v - 1]))
    answers = [v for v in range(1, 7) if v in cards and -race_two(3 + v, _without(cards, v)) == 1]
    assert answers == [3, 4]
    assert lines[1] == (
        f"{starter}'s 3 on 0 (making 3) turned a win into a loss; 1, 2 or 5 would win the race. "
        f"From 3, {other} wins by answering 3 or 4 (making 6 or 7)."
    )
    assert len([line for line in lines if "turned" in line]) == 1
    assert lines[-1] == f"In the event, {other} won the race."
    # asked about the other player only, nothing was thrown away
    seat = record.players.index(other)
    assert analyse_wit_and_reason_2(record, 1, seat).lines()[1] == f"{other} kept the best result there was with every card."


def test_wit_and_reason_1_analysis_and_refusals() -> None:
    game = get_game("wit_and_reason_1")
    state = play_match(game, ["Ann", "Bob"], {}, seed=5, policies=seat_policies(game.id, ["strong", "strong"]))
    record = game.record(state)
    for race in (1, 2):
        lines = analyse_wit_and_reason_1(record, race).lines()
        assert lines[0].startswith(f"Race {race}, started by ")
        assert "wins." in lines[0]  # the starter wins with perfect play
        assert lines[1] == "Both players kept the best result there was with every card."
    with pytest.raises(AnalysisError, match="There is no finished race 3: races 1 to 2 can be analysed"):
        analyse_wit_and_reason_1(record, 3)
    with pytest.raises(AnalysisError, match="Wit and Reason \\(I\\)"):
        analyse_wit_and_reason_1(record.model_copy(update={"game": "wit_and_reason_2"}), 1)


def test_race_hints() -> None:
    game = get_game("wit_and_reason_2")
    state: Any = game.start(["Ann", "Bob"], {"hints": True}, seed=2)
    seat = state.to_play
    lines = hint_wit_and_reason_2(state.view(seat), state.legal_actions(seat))
    assert lines[1] == "1, 2 or 5: you win the race."
    assert lines[2] == "3, 4 or 6: you lose the race."
    game1 = get_game("wit_and_reason_1")
    state1: Any = game1.start(["Ann", "Bob"], {"hints": True}, seed=2)
    seat = state1.to_play
    lines = hint_wit_and_reason_1(state1.view(seat), state1.legal_actions(seat))
    assert lines[1] == "8 or 9: you win the race."


def test_spec_analysis_values_calls_by_the_adviser() -> None:
    game = get_game("spec")
    policies = seat_policies("spec", ["strong", "random", "random"])
    state = play_match(game, ["Ann", "Bob", "Cat"], {}, seed=3, policies=policies)
    record = game.record(state)
    lines = analyse_spec(record, 1).lines()
    assert lines[0].startswith("Deal 1: a call is worth")
    assert sum(1 for line in lines if " predicted " in line) == 3
    assert lines[-1].startswith("In all, against the best calls: Ann gave away ")
    # the first call found wanting is worth what the adviser says in the position it was made from
    flagged = next(line for line in lines if line.startswith("Call ") and " was worth " in line)
    number = int(flagged.split(":")[0].removeprefix("Call "))
    replay: Any = game.start(record.players, record.options, record.seed)
    calls = 0
    for seat, data in record.actions:
        action = game.action_from_json(data)
        if isinstance(action, Call):
            calls += 1
            if calls == number:
                advice_ = advise(replay.view(seat))
                worth = advice_.value_of(action.call)
                assert worth is not None and worth < advice_.best_value
                assert f"was worth {float(worth):.1f} on average" in flagged
                assert f" {float(advice_.best_value):.1f}. " in flagged
                unseen = unseen_showcards(replay.view(seat).face_up_cards())
                pays = sum(1 for c in unseen if cards_won(action.call, c))
                assert f"{pays} of the {len(unseen)} face-down cards would pay" in flagged
                break
        replay.apply(seat, action)
    else:
        raise AssertionError("the flagged call was not found")
    with pytest.raises(AnalysisError, match="There is no finished deal 99"):
        analyse_spec(record, 99)


def test_spec_summary_counts_forbidden_calls_and_says_why() -> None:
    game = get_game("spec")
    policies = seat_policies("spec", ["random", "random", "strong"])
    state = play_match(game, ["Ann", "Bob", "Cat"], {}, seed=0, policies=policies)
    record = game.record(state)
    # count each player's calls in deal 1, and the forbidden ones, by replaying the record
    replay: Any = game.start(record.players, record.options, record.seed)
    calls, forbidden = [0, 0, 0], [0, 0, 0]
    for seat, data in record.actions:
        if replay.deal_no > 1:
            break
        action = game.action_from_json(data)
        if isinstance(action, Call):
            calls[seat] += 1
            if advise(replay.view(seat)).value_of(action.call) is None:
                forbidden[seat] += 1
        replay.apply(seat, action)
    assert sum(forbidden) > 0, "the random players should break a rule on this seed"
    lines = analyse_spec(record, 1).lines()
    summary = lines[-1]
    for s, name in enumerate(record.players):
        said = f"{name} gave away "
        part = summary[summary.index(said) :].split(";")[0]
        assert f"over {calls[s]} calls" in part
        assert (f"({forbidden[s]} of them forbidden)" in part) == (forbidden[s] > 0)
    forbidden_lines = [line for line in lines if "which was forbidden (" in line]
    assert len(forbidden_lines) == sum(forbidden)
    assert all("had it stood it was worth" in line for line in forbidden_lines)
    # a call found wanting says why: how many face-down cards pay it and the best call
    wanting = [line for line in lines if " was worth " in line and "forbidden" not in line]
    assert wanting and all("face-down cards would pay" in line for line in wanting)
    # forbidden calls count in what was given away: Ann's and Bob's totals exceed their allowed calls' losses
    assert "Ann gave away 0.0" not in summary
