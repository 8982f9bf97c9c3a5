"""Fifty-One refereed: the rules file's worked deal entered card by card, refusals, the match."""

from __future__ import annotations

from games.engine import Pass
from games.referee.fifty_one import LostDeal
from tests.games.referee_adders_support import play, refused, start, texts, turn_up

P1, P2 = 0, 1


def test_worked_deal_entered() -> None:
    state = start("fifty_one", ["P1", "P2"], first_dealer=2)  # P2 deals, P1 plays first
    assert state.awaiting() == {P2} and len(state.legal_actions(P2)) == 32
    assert refused(state, P1, "AS") == "It is not your turn: the table is waiting for P2."
    assert refused(state, P2, "AS") == "First enter the card P2 turns up to start the pile."
    turn_up(state, "8S")
    assert state.total == 8 and state.view(None).stock == 20 and state.awaiting() == {P1}
    assert state.view(None).hand_counts == [6, 5]  # P1 has drawn before playing
    play(state, "AS", "KS", "TS", "9S", "8H", "AH", "7S")
    assert state.total == 48 and state.scores == [0, 0]
    assert refused(state, P2, "AS") == "A♠ has already been played this deal, by P1."
    assert refused(state, P2, "8S") == "8♠ was turned up to start the pile: it is in nobody's hand."
    assert refused(state, P2, "2S") == "2♠ is not in this game's pack."
    assert refused(state, P2, Pass()) == "In this game a player always has a card to play: enter the card P2 plays."
    play(state, "QS")  # 51: P2 loses the deal
    assert "P2 has taken the total past 50 and loses the deal." in texts(state)
    assert state.scores == [0, 1] and state.deal_no == 2 and state.dealer == P1
    assert state.awaiting() == {P1}  # the new dealer turns up a card
    assert state.view(None).due == "a card P1 turned up to start the pile."


def test_exactly_fifty_is_safe_and_tens_and_nines_never_raise() -> None:
    state = start("fifty_one", ["P1", "P2"], first_dealer=2)
    turn_up(state, "8S")
    play(state, "AS", "KS", "TS", "9S", "8H", "AH", "7S", "JS")  # 48 + 2 = 50, safe
    assert state.total == 50 and state.scores == [0, 0]
    play(state, "9H")
    assert state.total == 50
    play(state, "TH")
    assert state.total == 49 and state.scores == [0, 0] and state.deal_no == 1


def test_german_seven_is_entered_as_one_or_seven() -> None:
    state = start("fifty_one", ["P1", "P2"], first_dealer=2, values="german")
    turn_up(state, "7S")
    assert state.total == 7  # a Seven turned up counts 7
    assert refused(state, P1, "7H") == "Say how your 7♥ counts: 7♥ as +1, 7♥ as +7."
    play(state, "7H+1", "AS")
    assert state.total == 9
    assert "Table options: values=german" in state.view(None).notes


def test_lives_match_to_its_end() -> None:
    state = start("fifty_one", ["P1", "P2"], match="lives", lives=1)
    turn_up(state, "AS")
    play(state, "AH", "AD", "AC", "KS")  # 11 + 33 = 44, then 48
    play(state, "8S")  # 56: the player who made it loses the deal, and with one life the match
    assert state.is_over and state.outcome.winners == [0]
    assert state.awaiting() == frozenset() and state.view(None).due == ""


def test_results_only_match() -> None:
    state = start("fifty_one", ["P1", "P2", "P3"], entries="result", match="lives", lives=2)
    assert state.awaiting() == {0, 1, 2} and state.view(None).due == "who took the total past 50 in deal 1."
    assert refused(state, 1, "AS") == "This table enters only the result of each deal: who took the total past 50 in deal 1."
    for seat in (1, 1, 2):
        state.apply(seat, LostDeal())
    assert "P2 has lost their last life and is out of the match." in texts(state)
    assert state.awaiting() == {0, 2} and state.deal_no == 4
    state.apply(2, LostDeal())
    assert state.is_over and state.outcome is not None and state.outcome.ranks == [1, 3, 2]


def test_floor_zero_clamps_a_ten_turned_up() -> None:
    state = start("fifty_one", ["P1", "P2"], first_dealer=2, floor_zero=True)
    turn_up(state, "TS")  # a Ten is worth -1: with floor_zero the total opens at 0
    assert state.total == 0 and state.view(None).total == 0
    assert "10♠ is turned up to start the pile: the total opens at 0." in texts(state)
    play(state, "AS")
    assert state.total == 11
    assert "Table options: floor_zero=true" in state.view(None).notes


def test_ten_turned_up_opens_below_zero_by_default() -> None:
    state = start("fifty_one", ["P1", "P2"], first_dealer=2)
    turn_up(state, "TS")
    assert state.total == -1
    play(state, "AS")
    assert state.total == 10
