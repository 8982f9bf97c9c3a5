"""Parity for two: the worked examples of rules/parity.md part A, refusals, views and playouts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from games.cards import BLACK_JOKER, JOKER, RED_JOKER, Card, Suit, card, parse_cards
from games.engine import IllegalAction, PlayCard, SetupError, iter_cards
from games.parity import (
    GAME,
    ChooseParity,
    ChooseTrump,
    Parity,
    ParityOptions,
    ParityState,
    deal_score,
    deal_scores,
    game_value,
    lurch_status,
    match_winner,
    parity_pack,
)
from games.simulate import play_match
from tests.playout import run_playouts

DEALER, NON_DEALER = 0, 1  # first_dealer=1 makes seat 0 the dealer of deal 1


def start(non_dealer: str | Sequence[str], **options: Any) -> ParityState:
    """A match whose first deal gives the non-dealer exactly these cards (the dealer the rest)."""
    opts = ParityOptions(first_dealer=1, **options)
    nd = parse_cards(non_dealer)
    rest = Counter(parity_pack(opts))
    rest.subtract(nd)
    dealer = list(rest.elements())
    assert len(nd) == 15 and len(dealer) == 15 and min(rest.values()) >= 0
    order = [c for pair in zip(nd, dealer, strict=True) for c in pair]  # one at a time, non-dealer first
    state = GAME.start(["Ann", "Bob"], opts, seed=7, deck=order)
    assert isinstance(state, ParityState)
    assert Counter(state.hands[NON_DEALER]) == Counter(nd)
    return state


def call(state: ParityState, trump: Suit | None, target: Parity) -> None:
    state.apply(NON_DEALER, ChooseTrump(suit=trump))
    state.apply(DEALER, ChooseParity(parity=target))


def play(state: ParityState, seat: int, code: str) -> None:
    state.apply(seat, PlayCard(play=card(code)))


def playable(state: ParityState, seat: int) -> set[Card]:
    return {a.play for a in state.legal_actions(seat) if isinstance(a, PlayCard)}


def refused(state: ParityState, seat: int, action: Any) -> str:
    before = state.fingerprint()
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)
    assert state.fingerprint() == before
    return str(info.value)


# --- scoring table (rules §6) -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("no_trump", "target", "non_dealer", "dealer", "expected"),
    [
        (False, Parity.ODD, 7, 8, [17, 0]),
        (False, Parity.EVEN, 0, 15, [10, 0]),
        (False, Parity.ODD, 15, 0, [25, 0]),
        (False, Parity.EVEN, 15, 0, [0, 10]),
        (True, Parity.ODD, 9, 6, [29, 0]),
        (True, Parity.EVEN, 9, 6, [0, 26]),
    ],
)
def test_score_table(no_trump: bool, target: Parity, non_dealer: int, dealer: int, expected: list[int]) -> None:
    assert deal_scores([non_dealer, dealer], target, no_trump) == expected


def test_exactly_one_player_scores_and_range_is_10_to_25() -> None:
    seen = set()
    for target in Parity:
        for t in range(16):
            scores = deal_scores([t, 15 - t], target)
            assert sum(1 for s in scores if s) == 1
            seen.add(max(scores))
    assert min(seen) == 10 and max(seen) == 25
    assert deal_score(0, Parity.EVEN, no_trump=True) == 20


def test_deal_scores_refuses_impossible_counts() -> None:
    with pytest.raises(ValueError):
        deal_scores([7, 7], Parity.ODD)


@pytest.mark.parametrize(
    ("loser", "status", "value"),
    [(99, "normal", 1), (67, "normal", 1), (66, "lurched", 2), (50, "lurched", 2), (49, "double-lurched", 3), (0, "double-lurched", 3)],
)
def test_lurch_thresholds(loser: int, status: str, value: int) -> None:
    assert lurch_status(loser) == status
    assert game_value(loser) == value


def test_match_winner_only_at_100() -> None:
    assert match_winner([99, 90]) is None
    assert match_winner([60, 100]) == 1


# --- trick resolution through a dealt state (rules §6) ------------------------------------------


def test_void_follower_trumps_a_plain_lead() -> None:
    # hearts trumps: led K♠, the follower has no spades and plays 2♥, which wins
    s = start("AS KS QS JS 10S 5S 2S AH KH QH JH AD KD QD JD")
    call(s, Suit.HEARTS, Parity.ODD)
    play(s, NON_DEALER, "KS")
    assert playable(s, DEALER) == set(s.hands[DEALER])  # void in spades: anything goes
    play(s, DEALER, "2H")
    assert s.tricks_won == [1, 0]
    assert s.awaiting() == {DEALER}


def test_led_red_joker_must_be_followed_with_a_trump() -> None:
    # hearts trumps: led red Joker; the follower holds the black Joker and A♥ and must play a trump
    s = start("RJ AS KS QS JS 10S 5S 2S AC KC QC JC 10C 5C 2C")
    call(s, Suit.HEARTS, Parity.EVEN)
    play(s, NON_DEALER, "RJ")
    assert playable(s, DEALER) == {BLACK_JOKER, *parse_cards("AH KH QH JH 10H 5H 2H")}
    reason = refused(s, DEALER, PlayCard(play=card("AD")))
    assert reason == "You must follow suit: trumps (♥) were led and you hold a trump."
    play(s, DEALER, "BJ")
    assert s.tricks_won == [0, 1]  # the Joker of the trump colour is highest


def test_black_joker_tops_black_trumps() -> None:
    s = start("RJ AS KS QS JS 10S 5S 2S AC KC QC JC 10C 5C 2C")
    call(s, Suit.SPADES, Parity.EVEN)
    play(s, NON_DEALER, "RJ")
    assert playable(s, DEALER) == {BLACK_JOKER}
    play(s, DEALER, "BJ")
    assert s.tricks_won == [1, 0]


def test_no_trump_led_joker_wins_and_follower_is_free() -> None:
    s = start("RJ AH KH QH JH 10H 5H 2H AD KD QD JD 10D 5D 2D", no_trump=True)
    call(s, None, Parity.ODD)
    assert s.no_trump and s.trump is None
    play(s, NON_DEALER, "RJ")
    assert card("AS") in playable(s, DEALER)
    assert playable(s, DEALER) == set(s.hands[DEALER])
    play(s, DEALER, "2C")  # a discard although A♠ is held
    assert s.tricks_won == [0, 1]
    # the void follower may now play the black Joker to a diamond lead, and it loses
    play(s, NON_DEALER, "2D")
    assert BLACK_JOKER in playable(s, DEALER)
    play(s, DEALER, "BJ")
    assert s.tricks_won == [0, 2]


def test_no_trump_second_joker_to_a_led_joker_is_a_free_discard() -> None:
    s = start("RJ AH KH QH JH 10H 5H 2H AD KD QD JD 10D 5D 2D", no_trump=True)
    call(s, None, Parity.EVEN)
    play(s, NON_DEALER, "RJ")
    play(s, DEALER, "BJ")
    assert s.tricks_won == [0, 1]


def test_no_trump_joker_refused_while_holding_the_led_suit() -> None:
    s = start("RJ AS KS QS JS AH KH QH JH 10H 5H 2H AD KD QD", no_trump=True)
    call(s, None, Parity.EVEN)
    play(s, NON_DEALER, "AS")
    assert playable(s, DEALER) == set(parse_cards("10S 5S 2S"))
    reason = refused(s, DEALER, PlayCard(play=BLACK_JOKER))
    assert reason == "You must follow suit: spades were led and you hold one."


def test_undifferentiated_jokers_first_played_wins() -> None:
    s = start(["Joker", *["AS", "KS", "QS", "JS", "10S", "5S", "2S", "AC", "KC", "QC", "JC", "10C", "5C", "2C"]], undifferentiated_jokers=True)
    assert s.hands[DEALER].count(JOKER) == 1
    call(s, Suit.HEARTS, Parity.ODD)
    play(s, NON_DEALER, "Joker")
    assert JOKER in playable(s, DEALER)
    play(s, DEALER, "Joker")
    assert s.tricks_won == [0, 1]


def test_undifferentiated_jokers_beat_the_trump_ace() -> None:
    s = start(["Joker", "Joker", *["AS", "KS", "QS", "JS", "10S", "5S", "2S", "AC", "KC", "QC", "JC", "10C", "5C"]], undifferentiated_jokers=True)
    assert len(s.legal_actions(NON_DEALER)) == 4
    call(s, Suit.DIAMONDS, Parity.ODD)
    assert [a.play for a in s.legal_actions(NON_DEALER) if isinstance(a, PlayCard)].count(JOKER) == 1
    play(s, NON_DEALER, "AS")  # dealer is void in spades
    play(s, DEALER, "AD")
    assert s.tricks_won == [1, 0]
    play(s, DEALER, "KD")
    play(s, NON_DEALER, "Joker")
    assert s.tricks_won == [1, 1]


def test_sevens_stand_in_for_the_jokers() -> None:
    opts = {"ranks": "AKQJ1098", "sevens_as_jokers": True}
    s = start("7H AS KS QS JS 10S 9S 8S AH KH QH JH 10H 9H 8H", **opts)
    assert set(s.hands[DEALER]) >= {card("7S"), card("AC")}
    call(s, Suit.CLUBS, Parity.ODD)
    play(s, NON_DEALER, "7H")  # the red Joker: a trump, below the black one with clubs trumps
    assert playable(s, DEALER) == {card("7S"), *parse_cards("AC KC QC JC 10C 9C 8C")}
    play(s, DEALER, "7S")
    assert s.tricks_won == [1, 0]
    assert any("7♥ and 7♠" in line for line in s.view(DEALER).text_lines())


def test_seven_joker_is_not_a_heart() -> None:
    s = start("AH KS QS JS 10S 9S 8S AC KC QC JC 10C 9C 8C AD", ranks="AKQJ1098", sevens_as_jokers=True)
    call(s, Suit.CLUBS, Parity.ODD)
    play(s, NON_DEALER, "AH")
    hearts = set(parse_cards("KH QH JH 10H 9H 8H"))
    assert playable(s, DEALER) == hearts  # the 7♥ is a trump here, not a heart
    assert "hearts were led" in refused(s, DEALER, PlayCard(play=card("7H")))


# --- a whole deal from a fixed deck -------------------------------------------------------------

WHOLE_DEAL = "AS KS QS JS 10S 5S 2S AH KH QH AD KD AC KC QC"
# (leader, leader's card, follower's card) for all 15 tricks, with spades trumps
WHOLE_DEAL_PLAY = [
    (NON_DEALER, "AH", "2H"),
    (NON_DEALER, "KH", "5H"),
    (NON_DEALER, "QH", "10H"),
    (NON_DEALER, "AD", "2D"),
    (NON_DEALER, "KD", "5D"),
    (NON_DEALER, "AC", "2C"),
    (NON_DEALER, "KC", "5C"),
    (NON_DEALER, "QC", "10C"),
    (NON_DEALER, "2S", "BJ"),  # the dealer must trump; the black Joker is top with spades
    (DEALER, "JH", "5S"),
    (NON_DEALER, "10S", "RJ"),
    (DEALER, "QD", "JS"),
    (NON_DEALER, "QS", "JD"),
    (NON_DEALER, "KS", "10D"),
    (NON_DEALER, "AS", "JC"),
]


def play_whole_deal(s: ParityState) -> None:
    call(s, Suit.SPADES, Parity.EVEN)
    for i, (leader, led, reply) in enumerate(WHOLE_DEAL_PLAY):
        assert s.awaiting() == {leader}, f"trick {i + 1}"
        play(s, leader, led)
        if i == 8:
            assert playable(s, DEALER) == {RED_JOKER, BLACK_JOKER}
        play(s, 1 - leader, reply)


def test_whole_deal_final_scores() -> None:
    s = start(WHOLE_DEAL)
    play_whole_deal(s)
    # 13 tricks to the non-dealer (odd), 2 to the dealer (even): the dealer scores 10 + 2
    assert s.scores == [12, 0]
    assert "Ann scores 12" in " ".join(e.text for e in s.log)
    # the next deal has begun with the other player dealing
    assert s.deal_no == 2 and s.dealer == NON_DEALER and s.awaiting() == {DEALER}
    assert not s.is_over


@pytest.mark.parametrize(
    ("before", "loser_note", "stake"),
    [
        ([90, 60], "Bob is lurched (below 67).", "Stake: the game counts 2 (lurched)."),
        ([95, 40], "Bob is double-lurched (below 50).", "Stake: the game counts 3 (double-lurched)."),
        ([88, 70], "Bob reached 67: no lurch.", "Stake: the game counts 1 (single)."),
    ],
)
def test_match_ends_at_100_with_lurch_notes(before: list[int], loser_note: str, stake: str) -> None:
    s = start(WHOLE_DEAL, lurch_values=True)
    s.scores = list(before)  # a match late on: the dealer needs 12 at most to reach 100
    play_whole_deal(s)
    assert s.is_over and s.outcome is not None
    assert s.outcome.scores == [before[0] + 12, before[1]]
    assert s.outcome.winners == [DEALER]
    assert loser_note in s.outcome.notes and stake in s.outcome.notes
    assert s.awaiting() == frozenset() and s.legal_actions(0) == []


def test_no_stake_note_without_the_option() -> None:
    s = start(WHOLE_DEAL)
    s.scores = [90, 60]
    play_whole_deal(s)
    assert s.outcome is not None
    assert not any(n.startswith("Stake") for n in s.outcome.notes)


# --- calls, refusals, options -------------------------------------------------------------------


def test_call_labels() -> None:
    assert ChooseTrump(suit=Suit.HEARTS).label() == "Hearts ♥ trumps"
    assert ChooseTrump(suit=None).label() == "No trumps"
    assert ChooseParity(parity=Parity.ODD).label() == "Odd"
    assert ChooseParity(parity=Parity.EVEN).label() == "Even"


def test_trump_menu_with_and_without_no_trump() -> None:
    s = start(WHOLE_DEAL)
    assert [a.label() for a in s.legal_actions(NON_DEALER)] == [
        "Spades ♠ trumps",
        "Hearts ♥ trumps",
        "Diamonds ♦ trumps",
        "Clubs ♣ trumps",
    ]
    assert s.legal_actions(DEALER) == []
    nt = start(WHOLE_DEAL, no_trump=True)
    assert nt.legal_actions(NON_DEALER)[-1] == ChooseTrump(suit=None)


def test_refusals_change_nothing() -> None:
    s = start(WHOLE_DEAL)
    assert "No-trump is not allowed" in refused(s, NON_DEALER, ChooseTrump(suit=None))
    assert refused(s, DEALER, ChooseParity(parity=Parity.ODD)).startswith("It is not your turn")
    assert "trumps and the target parity" in refused(s, NON_DEALER, PlayCard(play=card("AS")))
    s.apply(NON_DEALER, ChooseTrump(suit=Suit.SPADES))
    assert refused(s, DEALER, ChooseTrump(suit=Suit.HEARTS)) == "Trumps have already been named for this deal."
    s.apply(DEALER, ChooseParity(parity=Parity.EVEN))
    assert refused(s, NON_DEALER, PlayCard(play=card("2H"))) == "You do not hold the Two of Hearts."
    assert refused(s, NON_DEALER, ChooseParity(parity=Parity.ODD)) == "The target parity is already set for this deal."
    play(s, NON_DEALER, "AH")
    assert refused(s, DEALER, PlayCard(play=card("QD"))) == "You must follow suit: hearts were led and you hold one."


def test_sevens_need_the_32_card_ranks() -> None:
    with pytest.raises(SetupError) as info:
        GAME.options({"sevens_as_jokers": True})
    assert "ranks=AKQJ1098" in str(info.value)
    assert GAME.options({"sevens_as_jokers": True, "ranks": "AKQJ1098"}).sevens_as_jokers


def test_bad_options_and_player_counts() -> None:
    with pytest.raises(SetupError):
        GAME.options({"ranks": "AKQJ1076"})
    with pytest.raises(SetupError):
        GAME.options({"no_jokers": True})
    with pytest.raises(SetupError):
        GAME.start(["A", "B", "C"])


@pytest.mark.parametrize(
    "options",
    [{}, {"ranks": "AKQJ1098"}, {"ranks": "AKQJ1098", "sevens_as_jokers": True}, {"undifferentiated_jokers": True}],
)
def test_pack_has_thirty_cards(options: dict[str, Any]) -> None:
    pack = parity_pack(ParityOptions(**options))
    assert len(pack) == 30
    assert sum(1 for c in pack if c.is_joker) == (0 if options.get("sevens_as_jokers") else 2)


def test_actions_round_trip_through_json() -> None:
    for action in [ChooseTrump(suit=None), ChooseTrump(suit=Suit.CLUBS), ChooseParity(parity=Parity.EVEN), PlayCard(play=RED_JOKER)]:
        assert GAME.action_from_json(GAME.action_to_json(action)) == action


# --- views --------------------------------------------------------------------------------------


def test_both_hands_open_to_players_but_not_to_the_public() -> None:
    s = start(WHOLE_DEAL)
    call(s, Suit.SPADES, Parity.EVEN)
    play(s, NON_DEALER, "AH")
    for seat in (0, 1):
        v = s.view(seat)
        assert v.hand == s.hands[seat]
        assert v.other_hands == {1 - seat: s.hands[1 - seat]}
    public = s.view(None)
    assert public.hand == [] and public.other_hands == {}
    assert set(iter_cards(public)) == {card("AH")}
    assert all(z.visible_to == {0, 1} for z in s.card_zones() if z.name.startswith("hand"))
    assert public.trump is Suit.SPADES and public.target is Parity.EVEN
    assert public.trick == [(NON_DEALER, card("AH"))] and public.awaiting == [DEALER]
    play(s, DEALER, "2H")
    v = s.view(DEALER)
    assert v.tricks_won == [0, 1] and v.last_winner == NON_DEALER
    assert v.last_trick == [(NON_DEALER, card("AH")), (DEALER, card("2H"))]
    text = "\n".join(v.text_lines())
    assert "Trumps: Spades ♠" in text and "Target: an even number" in text and "Last trick" in text


# --- random playouts ----------------------------------------------------------------------------

PLAYOUT_OPTIONS: list[dict[str, Any]] = [
    {},
    {"no_trump": True, "undifferentiated_jokers": True, "lurch_values": True},
    {"ranks": "AKQJ1098", "sevens_as_jokers": True, "no_trump": True},
]
SLOW_ONLY_OPTIONS: list[dict[str, Any]] = [
    {"no_trump": True},
    {"ranks": "AKQJ1098"},
    {"undifferentiated_jokers": True},
    {"ranks": "AKQJ1098", "sevens_as_jokers": True},
    {"ranks": "AKQJ1098", "sevens_as_jokers": True, "undifferentiated_jokers": True, "lurch_values": True},
]


def check_final(s: Any) -> None:
    assert s.outcome is not None
    winner = s.outcome.winners[0]
    assert len(s.outcome.winners) == 1 and s.scores[winner] >= 100 and s.scores[1 - winner] < 100
    status = lurch_status(s.scores[1 - winner])
    assert any(status.replace("normal", "no lurch") in n for n in s.outcome.notes)
    assert any(n.startswith("Stake") for n in s.outcome.notes) == s.options.lurch_values
    # every deal gave 10 to 25 points (20 to 35 after no-trump) to exactly one player
    deal_points = [e for e in s.log if e.kind == "deal_score"]
    assert len(deal_points) == s.deal_no


@pytest.mark.parametrize("options", PLAYOUT_OPTIONS)
def test_random_playouts(options: dict[str, Any]) -> None:
    for final in run_playouts(GAME, 2, options, matches=4, deep_every=25):
        check_final(final)


def test_many_random_matches_end_properly() -> None:
    every = PLAYOUT_OPTIONS + SLOW_ONLY_OPTIONS
    for i in range(64):
        options = every[i % len(every)]
        check_final(play_match(GAME, 2, options, seed=1000 + i))


@pytest.mark.slow
@pytest.mark.parametrize("options", PLAYOUT_OPTIONS + SLOW_ONLY_OPTIONS)
def test_many_random_playouts(options: dict[str, Any]) -> None:
    for final in run_playouts(GAME, 2, options, matches=150, seed=5, deep_every=15):
        check_final(final)
