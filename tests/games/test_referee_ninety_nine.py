"""Ninety-Nine refereed: the rules file's reversal example with its bust, the card effects, Bust
refused while a card must fit, the new stock, the match to its end, and a deal played out with
nobody bust (stock_out=play_out) in results mode."""

from __future__ import annotations

import pytest

from games.adders.ninety_nine import NinetyNineFacts
from games.cards import card
from games.engine import PlayCard
from games.match import DealFacts
from games.notation import read_action
from games.players import bot_player
from games.referee.ninety_nine import Bust, PlayedOut
from games.registry import get_game, referee_game
from tests.games.mirror import mirror
from tests.games.referee_adders_support import play, refused, start, texts

A, B, C, D = 0, 1, 2, 3


def test_reversal_example_and_bust() -> None:
    state = start("ninety_nine", ["A", "B", "C", "D"], first_dealer=4)  # A plays first
    assert refused(state, A, Bust()) == "A cannot be stuck now: with the total at 0, every card could be played."
    play(state, "5S", "JS")  # B's Jack reverses: A plays next
    assert state.total == 15 and state.to_play == A and "The Jack turns the direction of play round." in texts(state)
    play(state, "9S", "4S")  # A makes 99, then D (counter-clockwise) plays a Four
    assert state.total == 99 and state.to_play == C
    assert refused(state, C, "KH") == "Your K♥ adds 10: that would make 109, past 99."
    assert Bust() in state.legal_actions(C)
    state.apply(C, Bust())
    assert "C cannot play without passing 99 and loses a life." in texts(state)
    assert state.lives == [3, 3, 2, 3] and state.scores == [3, 3, 2, 3]
    assert state.deal_no == 2 and state.dealer == A and state.total == 0 and state.to_play == B


def test_what_may_be_played_at_99() -> None:
    state = start("ninety_nine", ["A", "B", "C"])
    play(state, "9S")
    ranks = {a.card.rank.code for a in state.legal_actions(state.to_play) if a.card is not None}
    assert ranks == {"3", "4", "10", "9", "A"}
    aces = {a.card.short for a in state.legal_actions(state.to_play) if a.card is not None and a.card.rank.code == "A"}
    assert aces == {"A♠", "A♣"}  # the black Aces set the total; a red Ace busts
    play(state, "AC=0")
    assert state.total == 0


def test_card_effects() -> None:
    state = start("ninety_nine", ["A", "B", "C"])
    for code, total in [("8S", 8), ("3S", 8), ("4S", 8), ("TS", -2), ("AH", 0), ("KS", 10), ("AS=40", 40), ("AD", 42)]:
        play(state, code)
        assert state.total == total, code
    state = start("ninety_nine", ["A", "B", "C"], red_ace_value=1, below_zero="clamp0")
    play(state, "4S", "TS", "AH")
    assert state.total == 1


def test_a_ten_below_zero_refused_when_forbidden() -> None:
    state = start("ninety_nine", ["A", "B", "C"], below_zero="forbid")
    play(state, "4S")
    assert refused(state, state.to_play, "TS") == "A Ten would take the total from 0 below 0, which this table does not allow."
    assert refused(state, state.to_play, PlayCard(play=card("AS"))).startswith("Say how your A♠ counts: A♠ → 0")


def test_played_cards_return_with_the_new_stock() -> None:
    names = [f"P{i}" for i in range(13)]
    state = start("ninety_nine", names)  # 39 cards dealt, 13 in the stock
    cards = ["3S", "3H", "3D", "3C", "4S", "4H", "4D", "4C", "2S", "2H", "2D", "2C", "5S"]
    play(state, *cards)
    assert state.view(None).stock == 0 and state.total == 13
    assert refused(state, state.to_play, "3S") == "3♠ has already been played this deal, by P1."
    play(state, "5H")  # the draw after it shuffles the played cards but the 5♥ into a new stock
    assert "The played cards but the top one are shuffled to make a new stock." in texts(state)
    assert state.view(None).stock == 12 and card("3S") in state.unseen and card("5H") not in state.unseen
    play(state, "3S")
    assert state.total == 18


def test_match_to_its_end() -> None:
    state = start("ninety_nine", ["A", "B", "C"])
    deals = 0
    while not state.is_over:  # C goes bust in every deal
        deals += 1
        lows = iter(["3S", "3H", "3D"])
        while state.to_play != B:
            play(state, next(lows))
        play(state, "9S")
        state.apply(C, Bust())
    assert deals == 3 and state.outcome is not None and state.outcome.ranks == [1, 1, 3]
    assert state.outcome.notes == ["C has lost all three lives and is the overall loser."]


def test_results_only_match() -> None:
    state = start("ninety_nine", ["A", "B", "C"], entries="result")
    assert state.awaiting() == {A, B, C} and state.legal_actions(B) == [Bust()]
    assert refused(state, A, "9S") == "This table enters only the result of each deal: who went bust in deal 1."
    state.apply(B, Bust())
    assert state.lives == [3, 2, 3] and state.deal_no == 2
    assert "Next entry: who went bust in deal 2." in state.view(None).text_lines()
    state.apply(B, Bust())
    state.apply(B, Bust())
    assert state.is_over and state.outcome is not None and state.outcome.ranks == [1, 3, 1]


def test_results_deal_played_out_with_nobody_bust() -> None:
    """stock_out=play_out: a deal can end with every hand empty; the dealer's line enters it, no
    life is lost and the deal passes on, as online."""
    state = start("ninety_nine", ["A", "B", "C"], entries="result", stock_out="play_out")  # A deals
    assert state.legal_actions(A) == [Bust(), PlayedOut()] and state.legal_actions(B) == [Bust()]
    assert "Next entry: who went bust in deal 1, or that it was played out." in state.view(None).text_lines()
    assert refused(state, B, PlayedOut()) == "A deal played out is entered once, on the line of A, who dealt it."
    assert read_action(state, "played out", seat=None, speaker=B) == (A, PlayedOut())
    state.apply(A, PlayedOut())
    assert "Nobody has a card left, so the deal ends and nobody loses a life." in texts(state)
    assert state.lives == [3, 3, 3] and state.scores == [3, 3, 3]
    assert state.deal_no == 2 and state.dealer == B and not state.is_over
    state.apply(C, Bust())
    assert state.lives == [3, 3, 2] and state.deal_no == 3 and state.dealer == C


def test_played_out_refused_where_every_deal_ends_in_a_bust() -> None:
    state = start("ninety_nine", ["A", "B", "C"], entries="result")  # the stock is reshuffled
    assert PlayedOut() not in state.legal_actions(A)
    assert refused(state, A, PlayedOut()) == (
        "At this table the played cards make a new stock when it runs out (stock_out=reshuffle), "
        "so a deal ends only when someone goes bust."
    )
    state = start("ninety_nine", ["A", "B", "C"], stock_out="play_out")  # every card entered
    assert refused(state, B, PlayedOut()) == "This table enters every card: when every hand is empty the bot ends the deal itself."


@pytest.mark.parametrize("entries", ["result", "cards"])
def test_online_deals_played_out_mirrored(entries: str) -> None:
    """Random play never empties every hand; the easy bot does, in this seeded match: its deals,
    that one among them, are entered from their facts and score as online."""
    seen: list[DealFacts] = []
    options = {"stock_out": "play_out", "entries": entries}
    mirror(get_game("ninety_nine"), referee_game("ninety_nine"), 4, options, 12, bot_player("ninety_nine"), seen)
    assert any(isinstance(f, NinetyNineFacts) and f.bust is None for f in seen)
