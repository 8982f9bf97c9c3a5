"""Spec in referee mode: predictions, calls and the cards turned up entered at a real grid; the
worked examples of the rules file through entries, refusals with their messages and no change of
state (a cell already turned, a card already seen, a claim after the window), whole matches
mirrored from the online game, replays and random entries."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from games import spec as online
from games.cards import JOKER, Card, card
from games.engine import Action, IllegalAction
from games.referee.spec import GAME, RefereeSpecState, TurnedUp
from games.registry import referee_game
from games.spec import CELLS, Call, Challenge, Predict, Reveal
from games.spec_scoring import DEUCES, NAMEABLE, SHOWCARDS, STACK_TOTAL, cards_won
from tests.games.mirror import mirror as mirror_facts
from tests.playout import run_playouts

ALICE, BOB, CAROL = 0, 1, 2


def start(names: Sequence[str] = ("Alice", "Bob"), **options: object) -> RefereeSpecState:
    state = GAME.start(list(names), {"first_dealer": 1, **options}, seed=5)
    assert isinstance(state, RefereeSpecState)
    return state


def predict(state: RefereeSpecState, *codes: str) -> None:
    for code in codes:
        state.apply(state.to_move, Predict(prediction=card(code)))


def turn(state: RefereeSpecState, cell: str, call: str, turned: str) -> None:
    """One calling turn: the call entered, then the card found at the cell."""
    seat = state.to_move
    state.apply(seat, Call(cell=cell, call=card(call)))
    state.apply(seat, TurnedUp(turned=card(turned)))


def refused(state: RefereeSpecState, seat: int, action: Action) -> str:
    before = (state.view(None).model_dump_json(), [state.legal_actions(s) for s in range(state.n)], state.fingerprint())
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)
    after = (state.view(None).model_dump_json(), [state.legal_actions(s) for s in range(state.n)], state.fingerprint())
    assert after == before
    return str(info.value)


def held(state: RefereeSpecState, seat: int) -> int:
    return state.view(None).deal_points[seat]


def replayed(state: RefereeSpecState) -> None:
    again = GAME.replay(GAME.record(state))
    assert again.fingerprint() == state.fingerprint()


def test_referee_game_is_registered() -> None:
    assert referee_game("spec") is GAME and GAME.id == online.GAME.id
    assert GAME.player_counts == (2, 3, 4)


# --- the worked examples ------------------------------------------------------------------------


def test_t1_prediction_constraints() -> None:
    state = start(("P1", "P2", "P3", "P4"))
    predict(state, "AS", "KH", "Joker")
    legal = {a.prediction for a in state.legal_actions(3) if isinstance(a, Predict)}
    assert legal == {card(c) for c in ("QC", "JC", "TC", "QD", "JD", "TD")}
    assert refused(state, 3, Predict(prediction=card("AD"))).startswith("P1 has already predicted")
    assert "only one player may" in refused(state, 3, Predict(prediction=JOKER))
    assert "each suit may be predicted once" in refused(state, 3, Predict(prediction=card("QH")))
    assert refused(state, 3, TurnedUp(turned=card("QC"))) == (
        "Everyone predicts the last card before any card is turned up."
    )


T2 = [("QH", "QH", 4), ("JS", "JD", 2), ("AC", "2C", 1), ("AC", "KC", 1), ("Joker", "2D", 2),
      ("Joker", "Joker", 4), ("KH", "Joker", 0), ("Joker", "AS", 0), ("TS", "2H", 0)]


@pytest.mark.parametrize(("call", "turned", "won"), T2)
def test_t2_call_outcomes_through_entries(call: str, turned: str, won: int) -> None:
    state = start()
    predict(state, "JC", "KD")
    turn(state, "C3", call, turned)
    assert state.view(None).recent_calls[-1].won == won == cards_won(card(call), card(turned))
    assert state.view(None).grid[CELLS.index("C3")] == card(turned)


def t3(state: RefereeSpecState) -> None:
    """Rules example T3: four turns from a fresh stack."""
    turn(state, "A1", "QH", "QH")
    assert held(state, ALICE) == 38
    turn(state, "A2", "Joker", "2C")
    assert held(state, BOB) == 18
    turn(state, "A3", "AS", "KS")
    assert held(state, ALICE) == 46
    turn(state, "A4", "KD", "KC")
    assert held(state, BOB) == 34


def test_t3_scorecards_come_from_the_fixed_stack() -> None:
    state = start()
    predict(state, "JC", "KD")
    t3(state)
    view = state.view(None)
    assert view.stack_count == 21 and sum(view.stack) == STACK_TOTAL - 80 and view.stack[:2] == (8, 7)
    assert view.scorecards == [[10, 10, 9, 9, 8], [9, 9, 8, 8]]
    assert "Bob calls K♦ at A4 and turns up the K♣: takes 2 scorecard(s), 8, 8, worth 16." in state.log[-1].text


def test_t4_t5_a_forbidden_call_challenged_inside_the_window() -> None:
    state = start()
    predict(state, "JC", "KD")
    t3(state)
    turn(state, "A5", "KD", "2H")  # Alice repeats Bob's K♦: forbidden, scored as usual (nothing won)
    assert Challenge(call_no=5) in state.legal_actions(BOB)
    assert refused(state, ALICE, Challenge(call_no=5)) == "You cannot challenge your own call."
    state.apply(BOB, Challenge(call_no=5))
    assert (held(state, ALICE), held(state, BOB)) == (36, 44)
    assert state.log[-1].text == (
        "Bob challenges call 5: Alice called K♦ straight after the same call. Bob takes Alice's Joker scorecard."
    )
    # T4: once K♠ is face up nobody may call it; a challenge of a legal call is refused, costs nothing
    turn(state, "B1", "KS", "AH")
    state.apply(ALICE, Challenge(call_no=6))
    assert "Alice challenges call 6: Bob called the K♠, which was already face up." in state.log[-1].text
    turn(state, "B2", "AD", "AD")
    state.apply(BOB, Challenge(call_no=7))
    assert state.log[-1].text.endswith("was allowed. Nothing happens.")
    replayed(state)


def test_refusals_a_cell_already_turned_a_card_already_seen_a_claim_after_the_window() -> None:
    state = start()
    predict(state, "JC", "KD")
    assert refused(state, ALICE, TurnedUp(turned=card("QH"))) == (
        "Enter Alice's call (the cell and the card named) before the card turned up."
    )
    turn(state, "A1", "QH", "QH")
    turn(state, "A2", "QH", "2C")  # Bob repeats the Q♥ (and it is face up): forbidden
    assert refused(state, BOB, Call(cell="A1", call=card("AS"))).startswith("It is not your turn")
    assert refused(state, ALICE, Call(cell="A1", call=card("AS"))) == (
        "The card at A1 is already face up: choose a face-down cell."
    )
    state.apply(ALICE, Call(cell="B2", call=card("AS")))  # Alice calls instead of challenging
    assert state.legal_actions(BOB) == [] and state.awaiting() == {ALICE}
    assert refused(state, ALICE, TurnedUp(turned=card("QH"))) == (
        "The Q♥ is already face up at A1: enter the card found at B2."
    )
    assert refused(state, ALICE, TurnedUp(turned=card("7C"))).startswith("The Seven of Clubs is not a showcard")
    assert refused(state, BOB, TurnedUp(turned=card("AS"))) == "The card at B2 is entered for Alice, who called it."
    assert refused(state, ALICE, Challenge(call_no=2)) == (
        "Call 2 can no longer be challenged: the window closed when Alice announced the next call."
    )
    assert refused(state, ALICE, Call(cell="C2", call=card("AD"))) == (
        "Alice called A♠ at B2: first enter the card turned up there."
    )
    assert "Next entry: the card turned up at B2." in state.view(None).text_lines()
    state.apply(ALICE, TurnedUp(turned=card("AS")))
    assert refused(state, ALICE, Challenge(call_no=2)) == (
        "Call 2 can no longer be challenged: the window closed when the next call was made."
    )
    assert len([a for a in state.legal_actions(BOB) if isinstance(a, Call)]) == 22 * 21
    replayed(state)


def misses(turned: Card) -> Card:
    """A call that wins nothing when ``turned`` comes up."""
    return next(c for c in [*NAMEABLE, JOKER] if cards_won(c, turned) == 0)


def play_deal(state: RefereeSpecState, order: Sequence[Card], won: Sequence[int]) -> None:
    """24 turns turning ``order`` cell by cell; turn i calls so as to win ``won[i]`` cards."""
    for i, turned in enumerate(order):
        want = won[i] if i < len(won) else 0
        call = next(c for c in [*NAMEABLE, JOKER] if cards_won(c, turned) == want) if want else misses(turned)
        seat = state.to_move
        state.apply(seat, Call(cell=CELLS[i], call=call))
        state.apply(seat, TurnedUp(turned=turned))


def all_but(last: str) -> list[Card]:
    return [c for c in SHOWCARDS if c != card(last)]


def test_t6_the_best_prediction_takes_the_rest_of_the_stack() -> None:
    state = start()
    predict(state, "JC", "KD")
    order = [c for c in all_but("KC") if c in NAMEABLE][:6]
    order += [c for c in all_but("KC") if c not in order]
    play_deal(state, order, [4] * 6 + [1] * 3)  # 27 scorecards taken: 3, 3, 3 are left
    assert state.phase == "reveal" and state.view(None).stack == (3, 3, 3)
    before = list(state.view(None).deal_points)
    assert state.legal_actions(ALICE) == [Reveal(), Challenge(call_no=24)]  # Bob made call 24
    assert state.legal_actions(BOB) == []  # nobody challenges their own call
    state.apply(ALICE, Reveal())
    texts = [e.text for e in state.log[-4:]]
    assert "The last card, at E5, is the K♣." in texts
    assert any("Bob's prediction of K♦ is the best match (rank): Bob takes the 3 scorecard(s) left" in t for t in texts)
    assert state.deal_results[0] == [before[0], before[1] + 9]
    assert sum(state.deal_results[0]) == STACK_TOTAL  # T9


def test_t6_an_empty_stack_gives_a_flat_ten_and_t9() -> None:
    state = start()
    predict(state, "JC", "KD")
    order = [c for c in all_but("KC") if c in NAMEABLE][:8]
    order += [c for c in all_but("KC") if c not in order]
    play_deal(state, order, [4] * 8)
    state.apply(ALICE, Reveal())
    assert sum(state.deal_results[0]) == STACK_TOTAL + 10
    assert "the stack ran out earlier, so Bob scores a bonus of 10." in " ".join(e.text for e in state.log[-5:])


def test_t7_a_joker_prediction_beats_a_suit_on_a_deuce() -> None:
    state = start()
    predict(state, "Joker", "QH")
    play_deal(state, all_but("2H"), [1])
    state.apply(ALICE, Reveal())
    assert any("Alice's prediction of Joker is the best match (rank)" in e.text for e in state.log[-5:])


def test_t8_no_match_goes_to_the_last_winner() -> None:
    state = start(("Alice", "Bob", "Carol"))
    predict(state, "AS", "KH", "Joker")
    won = [0] * 24
    won[22] = 1  # turn 23 (Bob's, as Alice calls first) is the only one to win a card: 2♣ called as A♣
    play_deal(state, all_but("TD"), won)
    state.apply(state.to_move, Reveal())
    award = [e.text for e in state.log if e.kind == "award"][-1]
    assert award.startswith("No prediction matches, so it goes to Bob, the last to win a scorecard")


# --- whole matches ------------------------------------------------------------------------------


def mirror(players: int, options: dict[str, Any], seed: int) -> RefereeSpecState:
    """Play the online game at random and enter the same predictions, calls, turned cards,
    challenges and reveals: scores must agree after every deal and the match end the same way."""
    names = ["Ann", "Bob", "Cat", "Dan"][:players]
    real = online.GAME.start(names, options, seed=seed)
    ref = GAME.start(names, options, seed=seed)
    assert isinstance(real, online.SpecState) and isinstance(ref, RefereeSpecState)
    rng = random.Random(seed)
    while not real.is_over:
        seat = rng.choice(real.actors())
        legal = real.legal_actions(seat)
        challenges = [a for a in legal if isinstance(a, Challenge)]
        action = challenges[0] if challenges and rng.random() < 0.3 else rng.choice(legal)
        if isinstance(action, Call):
            turned = real.deal.grid[online.CELL_INDEX[action.cell]]
            real.apply(seat, action)
            ref.apply(seat, action)
            ref.apply(seat, TurnedUp(turned=turned))
        else:
            deal = real.deal_no
            real.apply(seat, action)
            ref.apply(seat, action)
            if real.deal_no != deal or real.is_over:
                assert ref.scores == real.scores and ref.deal_results == real.deal_results
        assert [len(w) for w in ref.deal.won] == [len(w) for w in real.deal.won] and ref.deal.stack == real.deal.stack
    assert ref.is_over and ref.outcome == real.outcome
    replayed(ref)
    return ref


MIRRORS = [
    (2, {}),
    (3, {"false_challenge_penalty": "card", "joker_vs_deuce": "exact"}),
    (4, {"illegal_call_mode": "strict", "end_mode": "fixed", "repeat_joker_call": "allow"}),
    (2, {"tie_break": "extra_deal", "joker_vs_deuce": "none"}),
]


@pytest.mark.parametrize(("players", "options"), MIRRORS)
def test_matches_mirrored_from_the_online_game(players: int, options: dict[str, Any]) -> None:
    for m in range(3):
        state = mirror(players, options, seed=70 + m)
        assert state.outcome is not None and state.deal_no <= players + 1


@pytest.mark.parametrize(("players", "options"), MIRRORS)
def test_deal_facts_entered_score_alike(players: int, options: dict[str, Any]) -> None:
    """The generic mirror (each online deal's facts entered as a table would) with each option set."""
    assert sum(mirror_facts(online.GAME, GAME, players, options, seed) for seed in (80, 81)) >= 2


def test_strict_mode_refuses_forbidden_calls() -> None:
    state = start(illegal_call_mode="strict")
    predict(state, "JC", "KD")
    turn(state, "A1", "QH", "QH")
    assert refused(state, BOB, Call(cell="A2", call=card("QH"))) == "The Q♥ is already face up, so it cannot be called."
    turn(state, "A2", "Joker", "2C")
    assert refused(state, ALICE, Call(cell="A3", call=JOKER)) == (
        "Bob has just called Joker: the same call may not follow straight after."
    )
    assert refused(state, BOB, Challenge(call_no=2)) == (
        "In strict mode forbidden calls are refused, so there is nothing to challenge."
    )
    assert all(c in DEUCES or c in NAMEABLE or c == JOKER for c in SHOWCARDS)


def test_random_entries() -> None:
    for players in (2, 3):
        for state in run_playouts(GAME, players, {}, matches=2, seed=players, deep_every=40, sample_legal=6):
            assert state.outcome is not None
    for state in run_playouts(GAME, 4, {"illegal_call_mode": "strict"}, matches=1, deep_every=60, sample_legal=6):
        assert state.outcome is not None
