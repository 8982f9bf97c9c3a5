"""Parity for Three: the worked examples of rules/parity.md part B, announcements, the Joker on
trick 1, match ends and ties, refusals, views and playouts."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from games.cards import JOKER, Card, Suit, card, parse_cards, piquet_pack
from games.engine import IllegalAction, PlayCard, SetupError, iter_cards
from games.parity import ChooseParity, ChooseTrump, Parity
from games.parity_for_three import (
    GAME,
    AnnounceJoker,
    ParityForThreeOptions,
    ParityForThreeState,
    deal_scores,
    match_over,
    player_score,
    successes,
)
from games.simulate import play_match
from tests.playout import run_playouts

# first_dealer=3 makes seat 2 the dealer of deal 1: seat 0 speaks first and leads
NAMES = ["Ann", "Bob", "Cy"]


def start(hands: list[str], **options: Any) -> ParityForThreeState:
    """A match whose first deal gives seats 0, 1 and 2 exactly these cards."""
    cards = [parse_cards(h) for h in hands]
    assert [len(h) for h in cards] == [11, 11, 11]
    order = [c for trio in zip(*cards, strict=True) for c in trio]  # one at a time from seat 0
    state = GAME.start(NAMES, {"first_dealer": 3, **options}, seed=11, deck=order)
    assert isinstance(state, ParityForThreeState)
    assert [sorted(map(str, h)) for h in state.hands] == [sorted(map(str, h)) for h in cards]
    return state


def play(state: ParityForThreeState, seat: int, code: str) -> None:
    state.apply(seat, PlayCard(play=card(code)))


def playable(state: ParityForThreeState, seat: int) -> set[Card]:
    return {a.play for a in state.legal_actions(seat) if isinstance(a, PlayCard)}


def refused(state: ParityForThreeState, seat: int, action: Any) -> str:
    before = state.fingerprint()
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)
    assert state.fingerprint() == before
    return str(info.value)


# --- scoring table (rules B §5) -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "tricks", "scores", "succeeded"),
    [
        (Parity.EVEN, [4, 4, 3], [14, 14, 3], 2),
        (Parity.ODD, [0, 5, 6], [10, 15, 6], 1),
        (Parity.EVEN, [0, 5, 6], [20, 5, 16], 2),
        (Parity.ODD, [1, 3, 7], [11, 13, 17], 3),
        (Parity.EVEN, [0, 0, 11], [20, 20, 11], 2),
        (Parity.ODD, [0, 0, 11], [10, 10, 21], 1),
    ],
)
def test_score_table(target: Parity, tricks: list[int], scores: list[int], succeeded: int) -> None:
    assert deal_scores(tricks, target) == scores
    assert successes(tricks, target) == succeeded


def test_success_counts_over_every_split() -> None:
    for a, b in itertools.product(range(12), repeat=2):
        c = 11 - a - b
        if c < 0:
            continue
        odd = sum(1 for t in (a, b, c) if t % 2)
        assert successes([a, b, c], Parity.ODD) == odd
        assert successes([a, b, c], Parity.EVEN) == 3 - odd
        assert successes([a, b, c], Parity.ODD) in (1, 3)
        assert successes([a, b, c], Parity.EVEN) in (0, 2)


def test_zero_tricks_scores_ten_and_twenty_on_even() -> None:
    assert player_score(0, Parity.ODD) == 10
    assert player_score(0, Parity.EVEN) == 20
    with pytest.raises(ValueError):
        deal_scores([4, 4, 4], Parity.ODD)


@pytest.mark.parametrize(
    ("scores", "deals", "match_end", "ties", "cap", "over"),
    [
        ([99, 50, 98], 7, "points", "extra_deal", 20, False),
        ([100, 50, 98], 7, "points", "extra_deal", 20, True),
        ([101, 101, 90], 7, "points", "extra_deal", 20, False),
        ([101, 101, 90], 7, "points", "shared", 20, True),
        ([120, 101, 90], 7, "nine_deals", "extra_deal", 20, False),
        ([60, 61, 62], 9, "nine_deals", "extra_deal", 20, True),
        ([62, 61, 62], 9, "nine_deals", "extra_deal", 20, False),
        ([62, 61, 62], 10, "nine_deals", "shared", 20, True),
        ([300, 61, 62], 19, "open", "extra_deal", 20, False),
        ([300, 61, 62], 20, "open", "extra_deal", 20, True),
        ([30, 61, 62], 3, "open", "shared", 3, True),
    ],
)
def test_match_end_rules(scores: list[int], deals: int, match_end: Any, ties: Any, cap: int, over: bool) -> None:
    assert match_over(scores, deals, match_end, ties, cap) is over


# --- a whole deal from a fixed deck -------------------------------------------------------------

WHOLE_DEAL = [
    "Joker AS KS QS JS 10S 9S 8S 7S AH KH",
    "QH JH 10H 9H 8H 7H AD KD QD JD 10D",
    "9D 8D 7D AC KC QC JC 10C 9C 8C 7C",
]
# (leader, cards in playing order) for all 11 tricks, with clubs trumps
WHOLE_DEAL_PLAY = [
    (0, "Joker 7H 7D"),  # the led Joker wins; the others play anything
    (0, "AS 8H 7C"),  # Cy, void in spades, trumps
    (2, "AC 7S 9H"),
    (2, "KC 8S 10H"),
    (2, "QC 9S JH"),
    (2, "JC 10S QH"),
    (2, "10C JS 10D"),
    (2, "9C QS JD"),
    (2, "8C KS QD"),
    (2, "8D KH AD"),
    (1, "KD 9D AH"),
]


def announce(s: ParityForThreeState, trump: Suit, target: Parity) -> None:
    while s.phase == "announce":
        seat = s.speaker
        if seat == s.joker_holder:
            s.apply(seat, AnnounceJoker())
        elif s.trump is None:
            s.apply(seat, ChooseTrump(suit=trump))
        else:
            s.apply(seat, ChooseParity(parity=target))


def play_whole_deal(s: ParityForThreeState) -> None:
    announce(s, Suit.CLUBS, Parity.ODD)
    for i, (leader, cards) in enumerate(WHOLE_DEAL_PLAY):
        assert s.awaiting() == {leader}, f"trick {i + 1}"
        for k, code in enumerate(cards.split()):
            play(s, (leader + k) % 3, code)


def test_whole_deal_final_scores() -> None:
    s = start(WHOLE_DEAL)
    play_whole_deal(s)
    # tricks 1, 2, 8 with an odd target: 1 + 10, 2, 8
    assert s.scores == [11, 2, 8]
    assert "Ann 1 trick +11, Bob 2 tricks +2, Cy 8 tricks +8" in " ".join(e.text for e in s.log)
    assert s.deal_no == 2 and s.dealer == 0 and s.awaiting() == {1}


def test_tie_at_100_plays_an_extra_deal() -> None:
    s = start(WHOLE_DEAL)
    s.scores = [90, 99, 93]  # late in a match: this deal brings everyone to 101
    play_whole_deal(s)
    assert s.scores == [101, 101, 101]
    assert not s.is_over and s.deal_no == 2
    assert s.log[-2].text == "First place is tied: an extra deal decides it."


def test_tie_at_100_can_be_shared() -> None:
    s = start(WHOLE_DEAL, ties="shared")
    s.scores = [90, 99, 93]
    play_whole_deal(s)
    assert s.is_over and s.outcome is not None
    assert s.outcome.ranks == [1, 1, 1] and s.outcome.winners == [0, 1, 2]
    assert "First place is shared on 101 points." in s.outcome.notes


def test_highest_score_wins_when_two_pass_100() -> None:
    s = start(WHOLE_DEAL)
    s.scores = [95, 98, 80]
    play_whole_deal(s)
    assert s.outcome is not None and s.outcome.scores == [106, 100, 88]
    assert s.outcome.winners == [0]


# --- announcements ------------------------------------------------------------------------------


def hands_with_joker_at(seat: int) -> list[str]:
    """A deal with the Joker in ``seat``'s hand."""
    pack = piquet_pack()
    hands = [pack[0:11], pack[11:22], [*pack[22:32], JOKER]]
    hands[2], hands[seat] = hands[seat], hands[2]
    return [" ".join(c.code for c in h) for h in hands]


@pytest.mark.parametrize(
    ("holder", "expected"),
    [
        (0, ["joker", "trump", "parity"]),
        (1, ["trump", "joker", "parity"]),
        (2, ["trump", "parity", "joker"]),
    ],
)
def test_announcement_order(holder: int, expected: list[str]) -> None:
    s = start(hands_with_joker_at(holder))
    kinds = []
    for seat in (0, 1, 2):
        assert s.awaiting() == {seat}
        legal = s.legal_actions(seat)
        kinds.append(legal[0].kind)
        assert {a.kind for a in legal} == {legal[0].kind}
        assert len(legal) == {"joker": 1, "trump": 4, "parity": 2}[legal[0].kind]
        s.apply(seat, legal[0])
    assert kinds == expected
    assert s.phase == "play" and s.awaiting() == {0}
    assert s.view(None).joker_holder == holder


def test_joker_announcement_is_public() -> None:
    s = start(hands_with_joker_at(1))
    assert s.view(0).joker_holder is None
    s.apply(0, ChooseTrump(suit=Suit.HEARTS))
    s.apply(1, AnnounceJoker())
    assert s.log[-1].text == "Bob holds the Joker." and s.log[-1].to is None
    assert s.view(None).joker_holder == 1 and s.view(2).joker_holder == 1
    assert "Bob holds the Joker" in s.view(None).text_lines()
    assert s.public_knowledge() == [JOKER]


def test_announcement_refusals() -> None:
    s = start(hands_with_joker_at(1))
    assert refused(s, 0, AnnounceJoker()) == "You do not hold the Joker."
    assert "target parity comes second" in refused(s, 0, ChooseParity(parity=Parity.ODD))
    assert "no no-trump" in refused(s, 0, ChooseTrump(suit=None))
    assert refused(s, 1, AnnounceJoker()).startswith("It is not your turn")
    s.apply(0, ChooseTrump(suit=Suit.HEARTS))
    assert "only announcement" in refused(s, 1, ChooseTrump(suit=Suit.SPADES))
    s.apply(1, AnnounceJoker())
    assert "Trumps are already named" in refused(s, 2, ChooseTrump(suit=Suit.SPADES))
    assert "once the announcements are done" in refused(s, 2, PlayCard(play=s.hands[2][0]))
    s.apply(2, ChooseParity(parity=Parity.EVEN))
    assert refused(s, 0, ChooseTrump(suit=Suit.SPADES)) == "The announcements are over for this deal."


def test_labels() -> None:
    assert AnnounceJoker().label() == "I hold the Joker"
    assert ChooseTrump(suit=Suit.SPADES).label() == "Spades ♠ trumps"
    for action in [AnnounceJoker(), ChooseTrump(suit=Suit.DIAMONDS), ChooseParity(parity=Parity.ODD), PlayCard(play=JOKER)]:
        assert GAME.action_from_json(GAME.action_to_json(action)) == action


# --- the Joker on the first trick ---------------------------------------------------------------


def test_led_joker_wins_and_others_play_anything() -> None:
    s = start(WHOLE_DEAL)
    announce(s, Suit.CLUBS, Parity.ODD)
    assert playable(s, 0) == {JOKER}
    assert "must be played to the first trick" in refused(s, 0, PlayCard(play=card("AS")))
    play(s, 0, "Joker")
    assert playable(s, 1) == set(s.hands[1])
    play(s, 1, "AD")
    assert playable(s, 2) == set(s.hands[2])
    play(s, 2, "AC")  # even a trump loses to the led Joker
    assert s.tricks_won == [1, 0, 0]


JOKER_SECOND = [
    "AS 7S AH KH QH JH 10H 9H 8H 7H AD",
    "Joker KS QS JS 10S KD QD JD 10D 9D 8D",
    "9S 8S 7D AC KC QC JC 10C 9C 8C 7C",
]


def test_joker_holder_must_play_it_even_holding_the_led_suit() -> None:
    s = start(JOKER_SECOND)
    announce(s, Suit.CLUBS, Parity.EVEN)
    play(s, 0, "AS")
    assert playable(s, 1) == {JOKER}
    reason = refused(s, 1, PlayCard(play=card("KS")))
    assert reason == "You hold the Joker: it must be played to the first trick."
    play(s, 1, "Joker")
    # the third player follows the suit led, as usual
    assert playable(s, 2) == {card("9S"), card("8S")}
    assert refused(s, 2, PlayCard(play=card("AC"))) == "You must follow suit: spades were led and you hold one."
    play(s, 2, "9S")
    assert s.tricks_won == [1, 0, 0]  # the Joker lost; A♠ beats 9♠


def test_joker_not_led_loses_to_a_trump() -> None:
    s = start(JOKER_SECOND)
    announce(s, Suit.CLUBS, Parity.EVEN)
    play(s, 0, "AH")
    play(s, 1, "Joker")
    assert playable(s, 2) == set(s.hands[2])  # void in hearts
    play(s, 2, "7C")
    assert s.tricks_won == [0, 0, 1]
    # from trick 2 on, the normal rules apply to everyone
    assert s.awaiting() == {2}
    play(s, 2, "AC")
    assert playable(s, 0) == set(s.hands[0])


def test_joker_held_third() -> None:
    hands = hands_with_joker_at(2)
    s = start(hands)
    announce(s, Suit.HEARTS, Parity.ODD)
    lead = s.hands[0][0]
    play(s, 0, lead.code)
    play(s, 1, next(iter(playable(s, 1))).code)
    assert playable(s, 2) == {JOKER}
    play(s, 2, "Joker")
    assert s.tricks_won[2] == 0


# --- options ------------------------------------------------------------------------------------


def test_option_refusals() -> None:
    with pytest.raises(SetupError) as info:
        GAME.options({"open_deal_cap": 5})
    assert "match_end=open" in str(info.value)
    assert GAME.options({"open_deal_cap": 5, "match_end": "open"}).open_deal_cap == 5
    with pytest.raises(SetupError):
        GAME.options({"match_end": "forever"})
    with pytest.raises(SetupError):
        GAME.options({"ties": "coin"})
    with pytest.raises(SetupError):
        GAME.start(["A", "B"])
    assert ParityForThreeOptions().match_end == "points"


# --- views --------------------------------------------------------------------------------------


def test_views_hide_other_hands() -> None:
    s = start(WHOLE_DEAL)
    announce(s, Suit.CLUBS, Parity.ODD)
    play(s, 0, "Joker")
    play(s, 1, "7H")
    for seat in range(3):
        v = s.view(seat)
        assert v.hand == s.hands[seat] and v.other_hands == {}
        assert set(iter_cards(v)) == set(s.hands[seat]) | {JOKER, card("7H")}
    public = s.view(None)
    assert public.hand == [] and set(iter_cards(public)) == {JOKER, card("7H")}
    assert public.trump is Suit.CLUBS and public.target is Parity.ODD and public.awaiting == [2]
    play(s, 2, "7D")
    v = s.view(1)
    assert v.tricks_won == [1, 0, 0] and v.last_winner == 0 and v.trick == []
    text = "\n".join(v.text_lines())
    assert "Trumps: Clubs ♣" in text and "Last trick: Ann Joker, Bob 7♥, Cy 7♦; won by Ann" in text
    assert "First to 100 points wins." in text


# --- random playouts ----------------------------------------------------------------------------

PLAYOUT_OPTIONS: list[dict[str, Any]] = [
    {},
    {"match_end": "nine_deals", "ties": "shared"},
    {"match_end": "open", "open_deal_cap": 3},
]
SLOW_ONLY_OPTIONS: list[dict[str, Any]] = [
    {"ties": "shared"},
    {"match_end": "nine_deals"},
    {"match_end": "open", "open_deal_cap": 5, "ties": "shared"},
    {"match_end": "open"},
]


def check_final(s: Any) -> None:
    o = s.options
    assert s.outcome is not None
    top = max(s.scores)
    if o.ties == "extra_deal":
        assert s.scores.count(top) == 1 and len(s.outcome.winners) == 1
    assert s.outcome.winners == [i for i, v in enumerate(s.scores) if v == top]
    limit = {"nine_deals": 9, "open": o.open_deal_cap}.get(o.match_end)
    if limit is None:
        assert top >= 100
    elif o.ties == "shared":
        assert s.deal_no == limit
    else:
        assert s.deal_no >= limit


@pytest.mark.parametrize("options", PLAYOUT_OPTIONS)
def test_random_playouts(options: dict[str, Any]) -> None:
    for final in run_playouts(GAME, 3, options, matches=4, deep_every=25):
        check_final(final)


def test_many_random_matches_end_properly() -> None:
    for i in range(42):
        options = (PLAYOUT_OPTIONS + SLOW_ONLY_OPTIONS)[i % 7]
        check_final(play_match(GAME, 3, options, seed=2000 + i))


@pytest.mark.slow
@pytest.mark.parametrize("options", PLAYOUT_OPTIONS + SLOW_ONLY_OPTIONS)
def test_many_random_playouts(options: dict[str, Any]) -> None:
    for final in run_playouts(GAME, 3, options, matches=150, seed=5, deep_every=15):
        check_final(final)
