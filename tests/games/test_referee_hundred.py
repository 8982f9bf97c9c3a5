"""Hundred refereed: the rules file's worked examples entered card by card, refusals, the match."""

from __future__ import annotations

from games.cards import card
from games.engine import Pass
from games.referee.counting import starter_entry
from tests.games.referee_adders_support import play, refused, start, texts, turn_up

A, B, C = 0, 1, 2


def test_worked_deal_entered() -> None:
    state = start("hundred", ["Ann", "Ben", "Cat"])  # Ann deals, Ben plays first
    assert state.view(None).due == "a card Ann turned up to start the pile."
    turn_up(state, "7S")
    assert state.awaiting() == {A} and state.total == 0  # the count opens once both are down
    assert refused(state, A, "7H") == "First enter the card Ann turns up to start the pile."
    assert refused(state, A, starter_entry(card("7S"))) == "7♠ was turned up to start the pile: it is in nobody's hand."
    turn_up(state, "AS")
    assert state.total == 18 and state.awaiting() == {B}
    assert refused(state, B, "AS") == "A♠ was turned up to start the pile: it is in nobody's hand."
    totals = []
    for code in ["TS", "AH", "9S", "KS", "8S", "TH", "JS", "9H", "QS", "8H"]:
        play(state, code)
        totals.append(state.total)
    assert totals == [28, 39, 48, 52, 60, 70, 72, 81, 84, 92]
    assert refused(state, C, "KS") == "K♠ has already been played this deal, by Ben."
    assert refused(state, C, Pass()) == "In this game a player always has a card to play: enter the card Cat plays."
    play(state, "8D")  # Cat makes exactly 100
    assert "Cat makes exactly 100 and scores a point." in texts(state)
    assert state.scores == [0, 0, 1] and state.deal_no == 2 and state.dealer == B


def test_jumping_past_100_loses_a_point() -> None:
    state = start("hundred", ["Ann", "Ben", "Cat"])
    turn_up(state, "7S", "AS")
    play(state, "TS", "AH", "9S", "KS", "8S", "TH", "JS", "9H", "QS", "QH", "8H")
    assert state.total == 95 and state.to_play == A
    play(state, "7H")  # 95 -> 102
    assert "Ann jumps past 100 and loses a point." in texts(state)
    assert state.scores == [-1, 0, 0] and state.deal_no == 2


def test_second_point_at_200() -> None:
    state = start("hundred", ["Ann", "Ben"], second_point_200=True)  # 16 each, no starters
    assert state.awaiting() == {B} and state.total == 0
    play(state, "AS", "AH", "AD", "AC", "TS", "TH", "TD", "TC", "9S", "7S")  # Ann makes 100
    assert state.scores == [1, 0] and state.deal_no == 1
    play(state, "9H", "9D", "9C", "8S", "8H", "8D", "8C", "KS", "KH", "KD", "KC", "QS", "QH", "QD", "QC")
    play(state, "JS", "JH", "JD")
    assert state.total == 193 and state.to_play == B
    play(state, "7H")
    assert "Ben makes exactly 200 and scores a point." in texts(state)
    assert state.scores == [1, 1] and state.deal_no == 2


def test_refereed_match_to_its_end() -> None:
    state = start("hundred", ["Ann", "Ben"])
    for _ in range(2):  # two deals, each ended by exactly 100
        play(state, "AS", "AH", "AD", "AC", "TS", "TH", "TD", "TC", "9S", "7S")
    assert state.is_over and state.outcome.scores == [1, 1] and state.outcome.ranks == [1, 1]
    assert refused(state, A, "8S") == "This match is over."
