"""Hoodwink: every worked example of shared/rules/hoodwink.md §6, refusals, views and playouts."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from games.cards import JOKER, SUITS, Card, Suit, card, parse_cards, piquet_pack
from games.engine import Action, IllegalAction, PlayCard, SetupError
from games.hoodwink import (
    GAME,
    RANKS,
    AskRequests,
    Bid,
    Estimate,
    HoodwinkState,
    NoEstimate,
    NoRequest,
    Request,
)
from games.hoodwink_scoring import (
    determine_roles,
    disciplined_bid_cards,
    resolve_open_partnerships,
    score_deal,
    standard_match_over,
    standard_scores,
    variation3_match_over,
    variation3_scores,
)
from games.layout import Notes, Scores
from games.tricks import TrickRules
from tests.playout import check_position, check_replay, check_views, run_playouts, zone_cards

NAMES = ["Ann", "Bob", "Cy"]


# --- helpers ------------------------------------------------------------------------------------


def deck_for(hands: Sequence[Sequence[Card]], dealer: int) -> list[Card]:
    """The pack order that deals these hands, one card at a time from the dealer's left."""
    deck: list[Card] = []
    for k in range(11):
        for j in range(3):
            deck.append(hands[(dealer + 1 + j) % 3][k])
    assert sorted(map(str, deck)) == sorted(map(str, piquet_pack(jokers=(JOKER,))))
    return deck


def cards(text: str) -> list[Card]:
    return parse_cards(text)


# Deal A: seat 2 deals, seat 0 leads. Bids A♠, A♦, A♣: spades and clubs are black, so seats 0 and 2
# are partners, seat 1 is the Hood and hearts (unbid) are trumps.
HANDS_A = [
    cards("AS KS QS JS 10S 9S 8S 7S AH KH QH"),
    cards("AD KD QD JD 10D 9D 8D 7D JH 10H 9H"),
    [*cards("AC KC QC JC 10C 9C 8C 7C 8H 7H"), JOKER],
]
DECK_A = deck_for(HANDS_A, dealer=2)
# Deal B: seat 0 deals, seat 1 leads. Bids A♣ (seat 1), A♦ (seat 2), A♠ (seat 0): seats 0 and 1 are
# partners, seat 2 is the Hood, hearts are trumps; seat 2 is void in clubs and holds the Joker.
HANDS_B = [
    cards("KC AS KS QS JS 10S 9S 8S 7S 8H 7H"),
    cards("AC QC JC 10C 9C 8C 7C AH KH QH JH"),
    [JOKER, *cards("AD KD QD JD 10D 9D 8D 7D 10H 9H")],
]
DECK_B = deck_for(HANDS_B, dealer=0)


def start(options: dict[str, Any] | None = None, decks: Sequence[list[Card]] = (DECK_A,)) -> HoodwinkState:
    opts = {"first_dealer": 3, **(options or {})}
    state = GAME.start(NAMES, opts, seed=7, deck=list(decks))
    assert isinstance(state, HoodwinkState)
    return state


def bid_all(state: HoodwinkState, codes: Sequence[str]) -> None:
    for seat, code in enumerate(codes):
        state.apply(seat, Bid(bid=card(code)))


def play(state: HoodwinkState, *codes: str) -> None:
    """Play cards in turn order, each by the seat whose turn it is."""
    for code in codes:
        seat = next(iter(state.awaiting()))
        state.apply(seat, PlayCard(play=card(code)))


def refused(state: HoodwinkState, seat: int, action: Action) -> str:
    before = state.fingerprint()
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)
    assert state.fingerprint() == before
    return str(info.value)


def play_deal_a(state: HoodwinkState) -> None:
    """Seat 0 draws trumps with A♥ K♥ Q♥ (seat 2's third trump is the forced Joker), then runs spades."""
    play(state, "AH", "JH", "8H", "KH", "10H", "7H", "QH", "9H", "Joker")
    losers_1 = ["AD", "KD", "QD", "JD", "10D", "9D", "8D", "7D"]
    losers_2 = ["AC", "KC", "QC", "JC", "10C", "9C", "8C", "7C"]
    for lead, d, c in zip(["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S"], losers_1, losers_2, strict=True):
        play(state, lead, d, c)


# --- §6 role determination ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bids", "trumps", "partners", "hood"),
    [
        ("AH 9H 7H", Suit.HEARTS, (0, 2), 1),
        ("8S QS 10D", Suit.DIAMONDS, (0, 1), 2),
        ("KH JC 9D", Suit.SPADES, (0, 2), 1),
        ("10C AD 7S", Suit.HEARTS, (0, 2), 1),
    ],
)
def test_role_table(bids: str, trumps: Suit, partners: tuple[int, int], hood: int) -> None:
    roles = determine_roles(cards(bids))
    assert (roles.trumps, roles.partners, roles.hood) == (trumps, partners, hood)


def test_roles_all_same_open_under_variation_2() -> None:
    roles = determine_roles(cards("AH 9H 7H"), open_when_all_same=True)
    assert (roles.trumps, roles.partners, roles.hood) == (Suit.HEARTS, None, None)


def test_roles_refuse_joker_and_bad_bids() -> None:
    with pytest.raises(ValueError, match="Joker"):
        determine_roles([card("AH"), card("9H"), JOKER])
    with pytest.raises(ValueError, match="three"):
        determine_roles(cards("AH 9H"))


# --- §6 standard scoring ------------------------------------------------------------------------


STANDARD_TABLE = [
    (5, 1, 5, (5, 1, 35)),
    (3, 5, 3, (3, 5, 33)),
    (1, 9, 1, (1, 9, 31)),
    (2, 0, 9, (2, 0, 29)),
    (5, 5, 1, (15, 15, 1)),
    (0, 0, 11, (10, 10, 11)),
    (4, 3, 4, (4, 3, 24)),
    (5, 0, 6, (5, 0, 16)),
    (4, 2, 5, (4, 2, 25)),
]
"""(partner 1's tricks, partner 2's, the Hood's, the three scores): the rules file's table."""


@pytest.mark.parametrize(("p1", "p2", "h", "expected"), STANDARD_TABLE)
def test_standard_table(p1: int, p2: int, h: int, expected: tuple[int, int, int]) -> None:
    assert standard_scores(p1, p2, h) == expected


def test_standard_hood_maximum_is_35() -> None:
    best = max(
        standard_scores(p1, p2, 11 - p1 - p2)[2] for p1 in range(12) for p2 in range(12 - p1)
    )
    assert best == 35


def test_scores_refuse_impossible_counts() -> None:
    with pytest.raises(ValueError, match="11"):
        standard_scores(5, 5, 5)
    with pytest.raises(ValueError):
        variation3_scores(-1, 6, 6)


# --- §6 variation 3 -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("p1", "p2", "h", "expected"),
    [
        (4, 2, 5, (4, 2, 25)),
        (3, 5, 3, (3, 5, 43)),
        (11, 0, 0, (11, 0, 220)),
        (5, 5, 1, (55, 55, 1)),
        (1, 1, 9, (11, 11, 9)),
        (0, 0, 11, (0, 0, 11)),
        (6, 2, 3, (6, 2, 43)),
    ],
)
def test_variation3_table(p1: int, p2: int, h: int, expected: tuple[int, int, int]) -> None:
    assert variation3_scores(p1, p2, h) == expected


# --- §6 variation 2 -----------------------------------------------------------------------------


def test_variation2_equal_counts_make_partners() -> None:
    for scenario in ("2a", "2b", "2c", "2d"):
        partners, hood = resolve_open_partnerships([4, 4, 3], scenario, 2, 2)  # type: ignore[arg-type]
        assert (partners, hood) == ((0, 1), 2)
        assert score_deal([4, 4, 3], partners, hood) == [14, 14, 3]


def test_variation2_all_counts_differ() -> None:
    counts = [6, 3, 2]
    # 2a: no bonuses at all
    assert resolve_open_partnerships(counts, "2a") == (None, None)
    assert score_deal(counts, None, None) == [6, 3, 2]
    # 2b: the middle count (3) is the Hood: 3 + 10 + 10 (odd)
    partners, hood = resolve_open_partnerships(counts, "2b")
    assert (partners, hood) == ((0, 2), 1)
    assert score_deal(counts, partners, hood) == [6, 23, 2]
    # 2c: the 2-trick player won the last trick: 2 + 10
    partners, hood = resolve_open_partnerships(counts, "2c", first_trick_winner=0, last_trick_winner=2)
    assert score_deal(counts, partners, hood) == [6, 3, 12]
    # 2d: the 6-trick player won the first trick: 6 + 10
    partners, hood = resolve_open_partnerships(counts, "2d", first_trick_winner=0, last_trick_winner=2)
    assert score_deal(counts, partners, hood) == [16, 3, 2]


def test_variation2_equal_overrides_off_keeps_the_scenario_hood() -> None:
    # counts 4, 4, 3 and seat 0 won the first trick: with overrides off, 2d makes seat 0 the Hood,
    # and its partners (4 and 3) have failed: 4 + 10 + 10 (matching a partner's 4)
    partners, hood = resolve_open_partnerships([4, 4, 3], "2d", 0, 2, equal_overrides=False)
    assert (partners, hood) == ((1, 2), 0)
    assert score_deal([4, 4, 3], partners, hood) == [24, 4, 3]
    # 2b has no Hood to name when two counts are level, so equal counts still decide
    assert resolve_open_partnerships([4, 4, 3], "2b", equal_overrides=False) == ((0, 1), 2)


def test_variation2_needs_the_trick_winner() -> None:
    with pytest.raises(ValueError, match="last trick"):
        resolve_open_partnerships([6, 3, 2], "2c")


# --- §6 follow suit with the Joker ---------------------------------------------------------------


def test_joker_follow_cases_pure() -> None:
    rules = TrickRules(RANKS, Suit.HEARTS, jokers_low=(JOKER,))
    assert rules.follow_options([JOKER, card("AC")], card("7H")) == [JOKER]
    assert rules.winner([(0, card("7H")), (1, JOKER)]) == 0
    assert rules.follow_options([JOKER, card("7C")], card("AC")) == [card("7C")]
    assert rules.winner([(0, card("AC")), (1, JOKER), (2, card("KC"))]) == 1
    assert rules.winner([(0, card("AC")), (1, JOKER), (2, card("7H"))]) == 2


def test_joker_must_be_played_when_it_is_the_only_trump() -> None:
    state = start()
    bid_all(state, ["AS", "AD", "AC"])
    play(state, "AH", "JH", "8H", "KH", "10H", "7H", "QH", "9H")
    assert state.legal_actions(2) == [PlayCard(play=JOKER)]
    message = refused(state, 2, PlayCard(play=card("AC")))
    assert message == "You must follow suit: trumps (♥) were led and you hold a trump."
    play(state, "Joker")
    assert state.tricks_won == [3, 0, 0]  # the Joker lost to the hearts


def test_void_player_wins_with_the_joker() -> None:
    state = start(decks=[DECK_A, DECK_B])
    bid_all(state, ["AS", "AD", "AC"])
    play_deal_a(state)
    assert state.deal_no == 2 and state.dealer == 0 and state.awaiting() == {0, 1, 2}
    bid_all(state, ["AS", "AC", "AD"])
    assert state.roles is not None
    assert (state.roles.trumps, state.roles.partners, state.roles.hood) == (Suit.HEARTS, (0, 1), 2)
    assert state.awaiting() == {1}  # dealer's left leads
    play(state, "AC")
    assert PlayCard(play=JOKER) in state.legal_actions(2)  # void in clubs: anything goes
    play(state, "Joker")
    assert state.legal_actions(0) == [PlayCard(play=card("KC"))]
    message = refused(state, 0, PlayCard(play=card("AS")))
    assert message == "You must follow suit: clubs were led and you hold one."
    play(state, "KC")
    assert state.tricks_won == [0, 0, 1]
    assert state.awaiting() == {2}


def test_joker_may_not_follow_a_plain_suit_held() -> None:
    state = start(decks=[DECK_A, DECK_B])
    bid_all(state, ["AS", "AD", "AC"])
    play_deal_a(state)
    bid_all(state, ["AS", "AC", "AD"])
    play(state, "AH")  # trumps led: seat 2 holds 10♥ 9♥ and the Joker
    assert {a.card for a in state.legal_actions(2)} == {card("10H"), card("9H"), JOKER}
    message = refused(state, 2, PlayCard(play=card("AD")))
    assert "trumps" in message


# --- a whole deal from a fixed deck ------------------------------------------------------------


def test_whole_deal_standard() -> None:
    state = start(decks=[DECK_A, DECK_B])
    assert state.dealer == 2 and state.awaiting() == {0, 1, 2}
    assert [sorted(map(str, h)) for h in state.hands] == [sorted(map(str, h)) for h in HANDS_A]
    bid_all(state, ["AS", "AD", "AC"])
    assert state.roles is not None
    assert (state.roles.trumps, state.roles.partners, state.roles.hood) == (Suit.HEARTS, (0, 2), 1)
    assert all(len(h) == 11 for h in state.hands)  # the bid cards went back into hand
    play_deal_a(state)
    # partners 11 and 0, Hood 0: 10 for splitting them and 10 for matching the partner's 0
    assert state.scores == [11, 20, 0]
    assert state.deal_no == 2 and state.dealer == 0
    text = " ".join(e.text for e in state.log if e.kind == "deal_scored")
    assert "Bob, the Hood, splits the partners and scores 20" in text
    assert state.view(None).last_deal[0] == "Deal 1 tricks: Ann 11, Bob 0, Cy 0."


def test_whole_deal_variation3_hood_maximum() -> None:
    state = start({"scoring": "v3", "deals": 3}, decks=[DECK_A])
    bid_all(state, ["AS", "AD", "AC"])
    play_deal_a(state)
    assert state.scores == [11, 220, 0]


def test_whole_deal_all_same_suit() -> None:
    # all bid hearts: A♥ (high) and 8♥ (low) are partners, J♥ (middle) is the Hood
    state = start()
    bid_all(state, ["AH", "JH", "8H"])
    assert state.roles is not None and (state.roles.partners, state.roles.hood) == ((0, 2), 1)
    play_deal_a(state)
    assert state.scores == [11, 20, 0]


def test_whole_deal_variation2_open_partnerships() -> None:
    state = start({"v2_scenario": "2b", "communication": True})
    bid_all(state, ["AH", "JH", "8H"])
    view = state.view(None)
    assert view.partners == [] and view.hood is None and view.open_scenario == "2b"
    assert view.trumps == Suit.HEARTS
    # no partners before play, so no talk at all
    assert state.legal_actions(0) == [PlayCard(play=c) for c in state.hands[0]]
    assert state.legal_actions(2) == []
    message = refused(state, 2, Estimate(low=0, high=1))
    assert message == "Everyone bid the same suit, so nobody has a partner to talk to yet."
    play_deal_a(state)
    # counts 11, 0, 0: Bob and Cy finish level and become successful partners
    assert state.scores == [11, 10, 10]
    assert any("Bob and Cy end up as partners" in e.text for e in state.log)


def test_variation2_2d_shows_the_first_trick_winner() -> None:
    state = start({"v2_by_suit": "H:2d,S:2a,D:2b,C:2c"})
    bid_all(state, ["AH", "JH", "8H"])
    play(state, "AH", "JH", "8H")
    view = state.view(1)
    assert view.first_trick_winner == 0
    assert "Ann won the first trick: Hood unless two players finish level." in view.table_lines()


# --- bidding: simultaneous, hidden, final ---------------------------------------------------------


def test_bids_are_simultaneous_hidden_and_final() -> None:
    state = start()
    assert state.awaiting() == {0, 1, 2}
    state.apply(1, Bid(bid=card("9D")))
    assert state.awaiting() == {0, 2}
    own, other, public = state.view(1), state.view(0), state.view(None)
    assert own.my_bid == card("9D") and card("9D") not in own.hand
    assert other.my_bid is None and other.bids is None and public.bids is None
    assert public.bids_placed == [False, True, False]
    assert card("9D") not in list(_all_cards(other)) + list(_all_cards(public))
    assert "Your bid (face down): 9♦" in own.table_lines()
    message = refused(state, 1, Bid(bid=card("AD")))
    assert message.startswith("Your bid card is already face down and cannot be changed")
    assert refused(state, 1, PlayCard(play=card("AD"))).startswith("Your bid card is already face down")
    state.apply(2, Bid(bid=card("8H")))
    state.apply(0, Bid(bid=card("QS")))
    public = state.view(None)
    assert public.bids == cards("QS 9D 8H")
    assert state.public_knowledge() == cards("QS 9D 8H")
    # three suits: diamonds and hearts are both red, so Bob and Cy are partners; clubs were not bid
    assert (public.trumps, public.partners, public.hood) == (Suit.CLUBS, [1, 2], 0)
    play(state, "QS")
    assert state.public_knowledge() == cards("9D 8H")


def _all_cards(view: Any) -> list[Card]:
    from games.engine import iter_cards

    return list(iter_cards(view))


def test_bid_refusals() -> None:
    state = start()
    assert refused(state, 2, Bid(bid=JOKER)) == "The Joker has no suit of its own, so it cannot be your bid card."
    assert refused(state, 0, Bid(bid=card("AD"))) == "You do not hold the Ace of Diamonds."
    message = refused(state, 0, PlayCard(play=card("AS")))
    assert message == "Trick play has not started: first put a card face down to propose trumps."
    bid_all(state, ["AS", "AD", "AC"])
    assert refused(state, 0, Bid(bid=card("KS"))) == "The bids are already revealed; play goes on."


def test_play_refusals() -> None:
    state = start()
    bid_all(state, ["AS", "AD", "AC"])
    assert refused(state, 1, PlayCard(play=card("AD"))).startswith("It is not your turn")
    assert refused(state, 0, PlayCard(play=card("AD"))) == "You do not hold the Ace of Diamonds."
    play(state, "AH")
    message = refused(state, 1, PlayCard(play=card("AD")))
    assert message == "You must follow suit: trumps (♥) were led and you hold a trump."


# --- variation 1 ------------------------------------------------------------------------------


def test_disciplined_bid_longest_suit() -> None:
    assert disciplined_bid_cards(HANDS_A[0]) == [card("AS")]
    assert disciplined_bid_cards(HANDS_A[2]) == [card("AC")]  # the Joker does not lengthen hearts


def test_disciplined_bid_ties() -> None:
    # equal lengths: the higher top card
    hand = cards("KS QS JS 10S AH 7H 8H 9H 7D 8D 7C")
    assert disciplined_bid_cards(hand) == [card("AH")]
    # equal tops: the next card
    hand = cards("AS KS 8S 7S AH QH JH 10H 7D 8D 7C")
    assert disciplined_bid_cards(hand) == [card("AS")]
    # identical ranks: the player chooses
    hand = cards("AS 9S 7S AH 9H 7H KD JD KC JC 8C")
    assert disciplined_bid_cards(hand) == [card("AS"), card("AH")]
    # the Joker never counts: hearts have four, diamonds four with the better cards
    hand = [JOKER, *cards("KH QH JH 7H AD 8D 9D 10D 7S 8S")]
    assert disciplined_bid_cards(hand) == [card("AD")]


def test_disciplined_bids_in_play() -> None:
    state = start({"disciplined_bids": True})
    assert state.legal_actions(0) == [Bid(bid=card("AS"))]
    message = refused(state, 0, Bid(bid=card("7S")))
    assert message == "Disciplined bidding: you must show the top card of your longest suit (A♠)."


# --- partnership communication -------------------------------------------------------------------


def test_communication_estimates_and_requests() -> None:
    state = start({"communication": True})
    assert refused(state, 0, NoEstimate()) == "Partner talk opens once the bid cards are turned up."
    bid_all(state, ["AS", "AD", "AC"])  # Ann and Cy partners, Bob the Hood
    assert state.awaiting() == {0}
    # the Hood has nothing to say; the other partner may speak without being waited for
    assert state.legal_actions(1) == []
    assert refused(state, 1, Estimate(low=2, high=3)) == "Only the partners give estimates; the Hood keeps quiet."
    cy = state.legal_actions(2)
    assert Estimate(low=2, high=3) in cy and NoEstimate() in cy and Estimate(low=6, high=11) in cy
    assert all(isinstance(a, (Estimate, NoEstimate)) for a in cy)
    state.apply(2, Estimate(low=2, high=3))
    assert state.view(None).estimates == [None, None, "2-3"]
    assert refused(state, 2, Estimate(low=0, high=1)) == "You have already said your piece about your estimate."
    assert refused(state, 0, Estimate(low=3, high=5)).startswith("Choose one of the set ranges")
    assert AskRequests() in state.legal_actions(0)
    state.apply(0, AskRequests())
    assert state.awaiting() == {0}  # the leader need not wait for an answer
    assert AskRequests() not in state.legal_actions(0)
    answers = state.legal_actions(2)
    assert Request(mode="lead", suit=Suit.SPADES) in answers and NoRequest() in answers
    state.apply(2, Request(mode="avoid", suit=Suit.CLUBS))
    view = state.view(None)
    assert view.requests == ["Ann asks Cy: any requests?", "Cy's request: please do not lead clubs."]
    assert "Cy expects to take 2-3 tricks." in view.talk
    assert refused(state, 2, NoRequest()).startswith("You may answer only when")
    play(state, "AH")
    # Ann played her first card: her estimate chance has gone
    assert refused(state, 0, NoEstimate()) == "Estimates are given before you play your first card."
    play(state, "JH", "8H")
    assert state.view(None).requests == []
    assert not any(isinstance(a, (Estimate, NoEstimate)) for a in state.legal_actions(0))
    # a new lead: Ann may ask again; if she just plays, Cy's chance to answer never opens
    assert AskRequests() in state.legal_actions(0)
    play(state, "KH")
    assert refused(state, 2, Request(mode="lead", suit=Suit.SPADES)).startswith("You may answer only when")


def test_no_communication_by_default() -> None:
    state = start()
    bid_all(state, ["AS", "AD", "AC"])
    assert state.legal_actions(2) == []
    assert all(isinstance(a, PlayCard) for a in state.legal_actions(0))
    assert refused(state, 0, AskRequests()) == (
        "Partner talk is not part of this game (the communication option is off)."
    )


# --- the end of the match --------------------------------------------------------------------


def test_match_end_functions() -> None:
    assert not standard_match_over([99, 50, 40])
    assert standard_match_over([100, 50, 40])
    assert not standard_match_over([104, 104, 40], tie_break="extra_deal")
    assert standard_match_over([104, 104, 40], tie_break="shared")
    assert standard_match_over([104, 101, 40])
    assert not variation3_match_over([10, 20, 30], deals_played=8, deals=9)
    assert variation3_match_over([10, 20, 30], deals_played=9, deals=9)
    assert not variation3_match_over([30, 20, 30], deals_played=9, deals=9)
    assert not variation3_match_over([30, 20, 31], deals_played=10, deals=9)  # play-offs in threes
    assert variation3_match_over([30, 20, 31], deals_played=12, deals=9)
    assert variation3_match_over([30, 20, 30], deals_played=9, deals=9, tie_break="shared")


def test_tie_at_the_target_shared() -> None:
    state = start({"tie_break": "shared"})
    state.scores = [89, 80, 0]
    bid_all(state, ["AS", "AD", "AC"])
    play_deal_a(state)
    assert state.is_over and state.outcome is not None
    assert state.outcome.winners == [0, 1]
    assert state.outcome.notes[0] == "Ann and Bob share first place with 100 points each."


def test_tie_at_the_target_plays_another_deal() -> None:
    state = start()
    state.scores = [89, 80, 0]
    bid_all(state, ["AS", "AD", "AC"])
    play_deal_a(state)
    assert not state.is_over and state.deal_no == 2 and state.scores == [100, 100, 0]


def test_winner_named_in_the_notes() -> None:
    state = start()
    state.scores = [95, 20, 0]
    bid_all(state, ["AS", "AD", "AC"])
    play_deal_a(state)
    assert state.outcome is not None and state.outcome.winners == [0]
    assert state.outcome.notes == ["Ann wins with 106 points.", "Final scores: Ann 106, Bob 40, Cy 0."]
    assert state.log[-1].text == "The match is over: Ann wins."


def test_variation3_lasts_the_agreed_deals() -> None:
    from games.simulate import play_match

    state = play_match(GAME, 3, {"scoring": "v3", "deals": 6, "tie_break": "shared"}, seed=3)
    assert state.deal_no == 6


# --- options -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"scoring": "v3", "deals": 10}, "deals must be a multiple of 3"),
        ({"deals": 6}, "deals only counts with variation 3"),
        ({"scoring": "v3", "target": 150}, "target only counts with standard scoring"),
        ({"v2_by_suit": "S:2e"}, "is not a scenario"),
        ({"v2_by_suit": "X:2a"}, "is not a suit"),
        ({"v2_by_suit": "S:2a,S:2b"}, "Spades appears twice"),
        ({"v2_by_suit": "S:2a"}, "gives no scenario for hearts, diamonds, clubs"),
        ({"v2_equal_overrides": False}, "only matters with variation 2"),
        ({"tie_break": "coin"}, "tie_break"),
    ],
)
def test_option_refusals(options: dict[str, Any], fragment: str) -> None:
    with pytest.raises(SetupError, match=fragment):
        GAME.options(options)


def test_option_mapping_is_normalised() -> None:
    opts = GAME.parse_options(["v2_by_suit=c:d, h:2B", "v2_scenario=2a", "v2_equal_overrides=false"])
    assert opts.v2_by_suit == "H:2b,C:2d"
    assert opts.scenario_for(Suit.CLUBS) == "2d"
    assert opts.scenario_for(Suit.SPADES) == "2a"
    assert GAME.options({}).scenario_for(Suit.SPADES) is None


def test_only_three_players() -> None:
    with pytest.raises(SetupError):
        GAME.start(["A", "B"])


def test_every_option_is_described() -> None:
    assert all(f.description for f in GAME.option_fields())


# --- random playouts --------------------------------------------------------------------------

SHORT = {"target": 40}
PLAYOUTS: list[tuple[dict[str, Any], int]] = [
    ({}, 6),
    ({"communication": True, **SHORT}, 8),
    ({"disciplined_bids": True, "tie_break": "shared", **SHORT}, 5),
    ({"v2_scenario": "2a", "communication": True, **SHORT}, 5),
    ({"v2_scenario": "2c", "v2_equal_overrides": False, **SHORT}, 5),
    ({"v2_by_suit": "S:2a,H:2b,D:2c,C:2d", "communication": True, "disciplined_bids": True, **SHORT}, 5),
    ({"v2_scenario": "2b", "v2_by_suit": "H:2d", **SHORT}, 5),
    ({"scoring": "v3", "deals": 3}, 8),
    ({"scoring": "v3", "deals": 3, "communication": True, "v2_scenario": "2d", "tie_break": "shared"}, 8),
]


@pytest.mark.parametrize(("options", "matches"), PLAYOUTS)
def test_random_playouts(options: dict[str, Any], matches: int) -> None:
    finals = run_playouts(GAME, 3, options, matches=matches, deep_every=25)
    for state in finals:
        assert state.outcome is not None
        assert all(state.players[w] in state.outcome.notes[0] for w in state.outcome.winners)


def open_deal_playout(options: dict[str, Any], seed: int, deep_every: int) -> HoodwinkState:
    """A random match in which everyone bids the same suit whenever all three hold it, so that
    variation 2's open deals come up every deal; every invariant of tests.playout is checked."""
    state = GAME.start(NAMES, options, seed=seed)
    assert isinstance(state, HoodwinkState)
    rng = random.Random(seed)
    pack = set(zone_cards(state))
    steps, chosen_for, chosen = 0, 0, Suit.SPADES
    while not state.is_over:
        if state.phase == "bidding" and chosen_for != state.deal_no:
            common = [s for s in SUITS if all(any(c.suit == s for c in h) for h in state.hands)]
            chosen, chosen_for = rng.choice(common or list(SUITS)), state.deal_no
        seat = rng.choice(state.actors())
        legal = state.legal_actions(seat)
        if state.phase == "bidding":
            legal = [a for a in legal if a.card is not None and a.card.suit == chosen] or legal
        state.apply(seat, rng.choice(legal))
        steps += 1
        check_views(state)
        check_position(state, rng, pack, deep=steps % deep_every == 0)
        assert zone_cards(state) == Counter(pack)
    check_replay(GAME, state)
    return state


@pytest.mark.parametrize(
    "options",
    [
        {"v2_scenario": "2a", "communication": True},
        {"v2_scenario": "2b"},
        {"v2_scenario": "2c", "v2_equal_overrides": False},
        {"v2_scenario": "2d", "scoring": "v3", "deals": 6},
        {"v2_by_suit": "S:2a,H:2b,D:2c,C:2d", "v2_equal_overrides": False, "communication": True},
    ],
)
def test_open_deal_playouts(options: dict[str, Any]) -> None:
    for seed in range(3):
        state = open_deal_playout({"target": 40, **options} if "scoring" not in options else options, seed, 15)
        assert state.outcome is not None
        assert any("partnerships stay open" in e.text for e in state.log)


@pytest.mark.slow
@pytest.mark.parametrize(("options", "matches"), PLAYOUTS)
def test_random_playouts_long(options: dict[str, Any], matches: int) -> None:
    run_playouts(GAME, 3, {k: v for k, v in options.items() if k != "target"}, matches=matches * 10, seed=11)


def test_copy_and_replay_of_a_deal() -> None:
    state = start({"communication": True})
    bid_all(state, ["AS", "AD", "AC"])
    twin = state.clone()
    assert twin.fingerprint() == state.fingerprint()
    record = GAME.record(state)
    assert GAME.replay(record).fingerprint() == state.fingerprint()


def test_the_table_a_deal_left_tells_that_deal_beside_its_scores() -> None:
    """The deal's message keeps the table as the deal left it: its notes give that deal's verdict
    (they once gave the deal before's, or nothing), beside a score table of that deal's tricks and
    the scores; the notes do not say the tricks and scores again (the picture grew past 464 px)."""
    state = GAME.start(NAMES, seed=11)
    rng = random.Random(5)
    ended = 0
    while not state.is_over and ended < 3:
        deal = state.deal_no
        seat = min(state.awaiting())
        events = state.apply(seat, rng.choice(state.legal_actions(seat)))
        if state.deal_no == deal and not state.is_over:
            continue
        ended += 1
        end = state.deal_end
        assert end is not None and end.deal == deal
        said = [e.text for e in events if e.kind == "deal_scored"]
        assert said[0].startswith(f"Deal {deal} tricks: ") and said[2].startswith("Scores: ")
        notes = [line for area in end.layout().areas if isinstance(area, Notes) for line in area.lines]
        assert notes == [said[1]]
        table = next(area for area in end.layout().areas if isinstance(area, Scores))
        assert table.columns == ("Score", "Tricks")
        assert [line.values[0] for line in table.lines] == [str(points) for points in state.scores]
        won = ", ".join(f"{name} {line.values[1]}" for name, line in zip(NAMES, table.lines, strict=True))
        assert said[0] == f"Deal {deal} tricks: {won}."
    assert ended == 3
