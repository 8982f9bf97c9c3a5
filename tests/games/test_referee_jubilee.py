"""Jubilee refereed: the rules file's table replayed as entries, the black opening, passes, copies
of a card, the void deal (card by card, and in results mode at two players), the match."""

from __future__ import annotations

from games.adders.jubilee import JubileeState, is_black, jubilee_pack
from games.cards import Colour
from games.counting import CountingFacts, play_card
from games.engine import Pass
from games.notation import read_action
from games.referee.counting import deal_points_entry
from games.referee.jubilee import VoidDeal
from games.registry import get_game
from tests.games.referee_adders_support import play, refused, start, texts

A, B, C = 0, 1, 2


def test_worked_table_entered() -> None:
    state = start("jubilee", ["Ann", "Ben", "Cat"])  # Ben opens
    assert refused(state, B, "9H") == "The deal must open with a black card (a spade or a club)."
    rows = [("KS", 10, [0, 0, 0]), ("AC", 25, [0, 0, 10]), ("9H", 16, [0, 0, 10]),
            ("JS", 26, [0, -5, 10]), ("AH", 11, [0, -5, 5]), ("JK", 11, [0, -5, 5])]
    for code, total, scores in rows:
        play(state, code)
        assert (state.total, state.scores) == (total, scores), code
    play(state, "KH")  # 11 - 10 = 1
    assert refused(state, state.to_play, "2H") == (
        "Hearts subtract: 2♥ would take the total from 1 to -1, and it may not go below 0."
    )
    assert "Cat scores 10 (jubilee on 25)." in texts(state)


def test_copies_and_cards_not_in_the_pack() -> None:
    state = start("jubilee", ["Ann", "Ben", "Cat"])
    play(state, "5S", "5S")
    assert refused(state, A, "5S") == "The pack has 2 5♠ and all of them have been played this deal."
    assert refused(state, A, "TC") == "10♣ is not in this game's pack."
    assert refused(state, A, "5D") == "5♦ is not in this game's pack."
    play(state, "JK", "JK", "JK", "JK")
    assert refused(state, state.to_play, "JK") == "The pack has 4 Joker and all of them have been played this deal."


def test_passes_are_checked() -> None:
    state = start("jubilee", ["Ann", "Ben", "Cat"])
    assert Pass() in state.legal_actions(B)  # no black card to open with: believable
    state.apply(B, Pass())
    assert "Ben has no card that can be played and passes." in texts(state)
    play(state, "KS", "AS")  # Cat opens, Ann makes 25
    assert state.total == 25 and state.to_play == B
    assert refused(state, B, Pass()) == "Ben cannot be stuck now: with the total at 25, every card can be played."


def test_nobody_can_open_voids_the_deal() -> None:
    state = start("jubilee", ["Ann", "Ben"])
    state.apply(B, Pass())
    state.apply(A, Pass())
    assert "Nobody holds a black card to open with: the deal is void and the same dealer deals again." in texts(state)
    assert state.deal_no == 2 and state.dealer == A and state.deals_played() == 1 and state.to_play == B


def test_whole_deal_adds_up_to_217_and_ends_the_match() -> None:
    state = start("jubilee", ["Ann", "Ben"], rounds=1)
    blacks = [c for c in state.unseen_cards() if c.card_colour is Colour.BLACK and not c.is_joker]
    others = [c for c in state.unseen_cards() if c not in blacks]
    for c in blacks + others:  # every black card first, then hearts (never below 0) and Jokers
        state.apply(state.to_play, play_card(c))
    assert state.final_totals == [217] and state.deal_no == 2
    for c in blacks + others:
        state.apply(state.to_play, play_card(c))
    assert state.is_over and state.final_totals == [217, 217]


def test_passes_must_fit_the_cards_together() -> None:
    """Hearts and Jokers are 17 cards: two hands of 8 may hold no black card, a third cannot."""
    state = start("jubilee", ["Ann", "Ben", "Cat"])
    state.apply(B, Pass())
    state.apply(C, Pass())
    assert refused(state, A, Pass()) == "Ann cannot be stuck now: Ann could still hold a black card to open with."
    play(state, "2S")
    assert Pass() in state.legal_actions(B)


def test_results_void_deal_at_two_players() -> None:
    """Two players: the dealer may enter the deal as void; it scores nothing, the same dealer deals
    again and it does not count toward the match's deals."""
    state = start("jubilee", ["Ann", "Ben"], entries="result", rounds=1)  # Ann deals
    assert state.legal_actions(A)[-1] == VoidDeal() and VoidDeal() not in state.legal_actions(B)
    assert "Next entry: the points of Ann, Ben in deal 1, or that it was void." in state.view(None).text_lines()
    assert refused(state, B, VoidDeal()) == "A void deal is entered once, on the line of Ann, who dealt it and deals again."
    assert read_action(state, "void", seat=None, speaker=B) == (A, VoidDeal())
    state.apply(A, VoidDeal())
    assert "Nobody holds a black card to open with: the deal is void and the same dealer deals again." in texts(state)
    assert state.scores == [0, 0] and state.deal_no == 2 and state.dealer == A and state.deals_played() == 1
    assert "Deal 1 of 2." in state.view(None).text_lines()
    state.apply(B, deal_points_entry(20))
    assert VoidDeal() not in state.legal_actions(A)
    assert refused(state, A, VoidDeal()) == "Ben's points for deal 2 are entered, so it was played: undo them to enter a void deal."
    state.apply(A, deal_points_entry(-5))
    assert state.scores == [-5, 20] and state.dealer == B and not state.is_over
    state.apply(A, deal_points_entry(10))
    state.apply(B, deal_points_entry(0))
    assert state.is_over and state.deal_no == 3 and state.scores == [5, 20]


def test_void_deal_refused_where_it_cannot_happen() -> None:
    state = start("jubilee", ["Ann", "Ben", "Cat"], entries="result")
    assert all(VoidDeal() not in state.legal_actions(s) for s in range(3))
    assert refused(state, A, VoidDeal()) == (
        "With 3 players 24 cards are dealt and only 17 are hearts or Jokers, so someone always holds "
        "a black card: a deal cannot be void."
    )
    state = start("jubilee", ["Ann", "Ben"])  # every card entered: the passes void the deal
    assert refused(state, B, VoidDeal()) == "This table enters every card: enter a pass for each player, and the bot voids the deal."


def test_online_void_deal_entered_by_its_facts() -> None:
    """An online deal where nobody holds a black card (a fixed deck) and the same deal in results
    mode, entered from its facts: the same scores, dealer, deal number and deals counted."""
    pack = jubilee_pack()
    deck = [c for c in pack if not is_black(c)] + [c for c in pack if is_black(c)]  # 16 dealt, none black
    real = get_game("jubilee").start(["Ann", "Ben"], {"first_dealer": 1}, seed=5, deck=deck)
    assert isinstance(real, JubileeState) and isinstance(real.settled, CountingFacts) and real.settled.void
    state = start("jubilee", ["Ann", "Ben"], entries="result")
    assert state.entries(real.settled) == [(A, VoidDeal())]
    for seat, entry in state.entries(real.settled):
        state.apply(seat, entry)
    assert (state.scores, state.dealer, state.deal_no, state.deals_played()) == (
        real.scores, real.dealer, real.deal_no, real.deals_played()
    )
