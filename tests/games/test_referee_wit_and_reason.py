"""Wit and Reason (I) and (II) refereed: the colours found from the first card, the rules files'
lines entered, refusals, passes and losses the bot declares itself, the match."""

from __future__ import annotations

from games.cards import card
from games.counting import play_card
from tests.games.referee_adders_support import play, refused, start, texts

P, Q = 0, 1


def test_first_card_shows_the_colours_and_the_simple_line_wins() -> None:
    state = start("wit_and_reason_1", ["Pat", "Quin"])  # Pat starts the first race
    assert len(state.legal_actions(P)) == 52 and state.awaiting() == {P}
    assert "Colours: not known until the first card is entered." in state.view(None).notes
    play(state, "9H")
    assert "Pat holds the red cards and Quin the black." in texts(state)
    assert refused(state, Q, "5H") == "5♥ is Pat's: Quin holds the black cards."
    assert refused(state, Q, "9H") == "9♥ has already been played in this race."
    play(state, "5S", "6H", "4S", "7D")  # 14, 20, 24, 31
    assert "Pat makes exactly 31 and wins the race." in texts(state)
    assert state.scores == [1, 0] and state.deal_no == 2 and state.to_play == Q
    assert refused(state, Q, "5H") == "5♥ is Pat's: Quin holds the black cards."  # colours stay for the match


def test_thirty_needs_an_ace() -> None:
    state = start("wit_and_reason_1", ["Pat", "Quin"])
    play(state, "KH", "KS", "QH")
    assert state.total == 30 and state.to_play == Q
    assert refused(state, Q, "2S") == "That would take the total from 30 to 32, past 31."
    play(state, "AS")  # 31
    assert state.scores == [0, 1]


def test_passes_and_stalemate_are_the_bots() -> None:
    state = start("wit_and_reason_1", ["Pat", "Quin"])
    play(state, "AH", "AS", "AD", "AC", "KH", "KS", "6H")  # 30, and no Ace is left
    assert "Quin cannot play and passes." in texts(state)
    assert "Neither player can make 31 any more: the race is drawn." in texts(state)
    assert state.scores == [0, 0] and state.deal_no == 2
    state = start("wit_and_reason_1", ["Pat", "Quin"], stalemate="last_player_wins")
    play(state, "AH", "AS", "AD", "AC", "KH", "KS", "6H")
    assert state.scores == [1, 0]


def test_dudeney_trap_line() -> None:
    state = start("wit_and_reason_2", ["Ann", "Bob"])  # Ann starts
    play(state, "3S", "4S", "3H", "3D", "4H", "4D", "3C", "4C")
    assert state.total == 28
    values = sorted(a.card.rank.code for a in state.legal_actions(P) if a.card is not None)
    assert values == ["2", "A"]
    assert refused(state, P, "5S") == "That would take the total from 28 to 33, past 31."
    play(state, "AS", "2S")
    assert "Bob makes exactly 31 and wins the race." in texts(state)
    assert "Next entry: the value Bob takes from the table (total 0)." in state.view(None).text_lines()


def test_a_player_who_cannot_take_a_card_loses() -> None:
    state = start("wit_and_reason_2", ["Ann", "Bob"])
    takes = ["AS", "AH", "AD", "AC", "2S", "2H", "2D", "2C", "3S", "3H", "3D", "3C", "4S"]  # 28
    for code in takes:
        state.apply(state.to_play, play_card(card(code)))
    assert "Bob cannot take a card without passing 31, so Ann wins the race." in texts(state)
    assert state.scores == [1, 0]
    for code in takes:
        state.apply(state.to_play, play_card(card(code)))
    assert state.is_over and state.outcome is not None and state.outcome.scores == [1, 1]
