"""Caterpillar: the worked examples of caterpillar.md, refusals, the court-short end, playouts."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from games.cards import Card, card, full_pack, parse_cards
from games.caterpillar import (
    GAME,
    CaterpillarState,
    card_value,
    final_scores,
    is_court_short,
    may_follow,
    running_points,
    score_play,
    score_row,
)
from games.counting import stack_deck
from games.engine import IllegalAction, PlayCard, SetupError
from tests.playout import run_playouts

N, D = 0, 1  # with first_dealer=2 the second seat deals and the first seat (N) leads


def arrange(first: Sequence[Card], second: Sequence[Card], stock: Sequence[Card]) -> list[Card]:
    """A pack order dealing ``first`` to the player who leads and ``second`` to the dealer, with
    ``stock`` on top of the stock and the rest of the pack below it."""
    assert len(first) == len(second) == 13
    return stack_deck(full_pack(), [first, second], stock)


def start(deck: list[Card], **options: object) -> CaterpillarState:
    state = GAME.start(["North", "Dee"], {"first_dealer": 2, **options}, seed=5, deck=deck)
    assert isinstance(state, CaterpillarState)
    return state


def play(state: CaterpillarState, seat: int, code: str) -> list[str]:
    return [e.text for e in state.apply(seat, PlayCard(play=card(code)))]


# --- the illustration: 950 to 680 ----------------------------------------------------------------

# A full caterpillar consistent with every fact the seed gives about its illustrated game.
ILLUSTRATION = parse_cards(
    "10H 6H 9H 2H 3H JS 4S AS 3S 8S 9S 10S 5S QS JC 10C JD KD 10D QD AD 9D 2D 8D 3D 7D"
)
LEADER_ENDS_WITH = parse_cards("KS KH QH JH AH 4H 5H 2S 6S 7S AC 2C 3C")  # 4 face cards
SECOND_ENDS_WITH = parse_cards("KC QC 7H 8H 4C 5C 6C 7C 8C 9C 4D 5D 6D")  # 2 face cards


def illustration_deck() -> list[Card]:
    leader = ILLUSTRATION[0::2]
    second = ILLUSTRATION[1::2]
    stock = [c for pair in zip(LEADER_ENDS_WITH, SECOND_ENDS_WITH, strict=True) for c in pair]
    return arrange(leader, second, stock)


def test_illustration_row_scores() -> None:
    steps = score_row(ILLUSTRATION)
    assert running_points(ILLUSTRATION) == [280, 750]
    leader_scores = [s for s in steps if s.seat == 0 and s.points]
    second_scores = [s for s in steps if s.seat == 1 and s.points]
    assert (leader_scores[0].card, leader_scores[0].points) == (card("10H"), 10)
    assert (second_scores[0].card, second_scores[0].points) == (card("AS"), 35)
    assert [s.points for s in steps[-6::2]] == [0, 0, 0]  # the leader scores nothing after the ♦Q
    assert [s.points for s in steps[-7::2]] == [90, 100, 110, 120]
    assert steps[-7].card == card("QD") and steps[-8].card.suit == card("QD").suit
    assert sum(1 for c in ILLUSTRATION if c.rank is not None and c.rank.is_court) == 6


def test_illustration_final_scores() -> None:
    assert final_scores([280, 750], [4, 2]) == [680, 950]


def test_illustration_played_through_the_engine() -> None:
    state = start(illustration_deck(), games=1)
    assert state.awaiting() == {N}
    for i, c in enumerate(ILLUSTRATION):
        assert state.stock, "the stock ran out early"
        texts = play(state, i % 2, c.code)
    assert state.is_over and state.outcome is not None
    assert state.outcome.scores == [680, 950]
    assert state.outcome.winners == [D]
    assert any("950 to 680" in t for t in texts)
    assert len(state.pile) == 26 and [len(h) for h in state.hands] == [13, 13]


def test_court_short_on_the_last_turn() -> None:
    # The illustration's game, but the leader lacks the 3♦ for the 25th card and draws no face card
    # and no diamond: with the stock not yet empty they are court short on their 13th turn.
    leader = [c for c in ILLUSTRATION[0::2] if c != card("3D")] + [card("5H")]
    leader_draws = parse_cards("4H 7H 8H AH 2S 6S 7S AC 2C 3C 4C 5C 6C")
    second_draws = parse_cards("KS KH QH JH KC QC 3D 4D 5D 6D 7C 8C 9C")
    stock = [c for pair in zip(leader_draws, second_draws, strict=True) for c in pair]
    state = start(arrange(leader, ILLUSTRATION[1::2], stock), games=1)
    for i, c in enumerate(ILLUSTRATION[:24]):
        play(state, i % 2, c.code)
    assert state.is_over and state.outcome is not None
    assert len(state.stock) == 2
    # 280 from totals for the leader, plus 100 for each of the 6 face cards the other player holds
    assert state.outcome.scores == [880, 630]


# --- the constructed sequence and the court-short end ---------------------------------------------

SEQUENCE = [("5H", 5, 5), ("10H", 15, 15), ("KH", 15, 15), ("QS", 15, 0),
            ("10S", 25, 25), ("4S", 29, 0), ("JC", 29, 0), ("AC", 30, 30)]  # fmt: skip

N_HAND = parse_cards("5H KH 10S JC AH 2H 3H 4H 6H 7H 8H 9H AD")
D_HAND = parse_cards("10H QS 4S AC KS KD QD 2C 3C 4C 5C 6C 7C")
# N draws 2D 3D 4D 5D (still no club, no face card); D draws clubs and spades numerals
STOCK = parse_cards("2D 8C 3D 9C 4D 2S 5D 3S")


def sequence_state(**options: object) -> CaterpillarState:
    return start(arrange(N_HAND, D_HAND, STOCK), **options)


def test_constructed_sequence_totals_and_scores() -> None:
    total, previous, points = 0, None, [0, 0]
    for i, (code, want_total, want_points) in enumerate(SEQUENCE):
        total, got = score_play(total, previous, card(code))
        assert (total, got) == (want_total, want_points), code
        points[i % 2] += got
        previous = card(code)
    assert points == [45, 45]


def test_constructed_sequence_in_the_engine_then_court_short() -> None:
    state = sequence_state(games=1)
    for i, (code, total, _) in enumerate(SEQUENCE[:6]):
        play(state, i % 2, code)
        assert state.total == total
    assert state.view(None).follow == card("4S").suit
    # after 4♠, North may play a face card or a spade numeral, not 7♥
    assert state.legal_actions(N) == [PlayCard(play=card("JC"))]
    play(state, N, "JC")
    texts = play(state, D, "AC")
    assert state.is_over and state.outcome is not None
    assert state.outcome.scores == [345, 45]
    assert state.outcome.winners == [N]
    assert any("court short" in t for t in texts)
    assert len(state.stock) == 18  # play stopped with cards still in the stock


def test_court_short_scoring() -> None:
    assert final_scores([45, 45], [0, 3], court_short=0) == [345, 45]
    assert final_scores([45, 45], [3, 0], court_short=1) == [45, 345]
    with pytest.raises(ValueError):
        final_scores([0, 0], [1, 0], court_short=0)


def test_court_short_detection() -> None:
    hand = parse_cards("AH 2H 3D 9D")
    assert is_court_short(hand, card("AC"))
    assert not is_court_short(hand, card("4H"))
    assert not is_court_short([*hand, card("JS")], card("AC"))
    assert not is_court_short(hand, None)


def test_follow_rule() -> None:
    four_spades = card("4S")
    assert not may_follow(four_spades, card("7H"))
    assert may_follow(four_spades, card("9S"))
    assert may_follow(four_spades, card("KD"))
    assert may_follow(card("QD"), card("JS"))  # face on face
    assert may_follow(None, card("7H"))


def test_values_and_face_scoring() -> None:
    assert [card_value(card(c)) for c in ("AS", "7D", "10C", "JH", "QH", "KH")] == [1, 7, 10, 0, 0, 0]
    assert score_play(0, None, card("5D")) == (5, 5)
    assert score_play(0, None, card("10D")) == (10, 10)
    assert score_play(0, None, card("KD")) == (0, 0)  # a face card may open; it scores nothing
    assert score_play(20, card("3C"), card("QC")) == (20, 20)
    assert score_play(20, card("3C"), card("QH")) == (20, 0)
    assert score_play(21, card("3C"), card("QC")) == (21, 0)
    with pytest.raises(ValueError):
        score_play(4, card("4S"), card("7H"))


def test_face_card_first_sets_the_suit() -> None:
    state = sequence_state()
    n_hand = parse_cards("KH AH 2H 3H 4H 6H 7H 8H 9H AD 5H 10S JC")
    assert sorted(state.hands[N], key=str) == sorted(n_hand, key=str)
    play(state, N, "KH")
    assert state.total == 0 and state.deal_points == [0, 0]
    assert state.view(None).follow == card("KH").suit
    assert PlayCard(play=card("QS")) in state.legal_actions(D)
    assert PlayCard(play=card("2C")) not in state.legal_actions(D)


# --- refusals ------------------------------------------------------------------------------------


def test_refuses_off_suit_numeral() -> None:
    state = sequence_state()
    for i, (code, _, _) in enumerate(SEQUENCE[:6]):
        play(state, i % 2, code)
    before = state.fingerprint()
    with pytest.raises(IllegalAction) as info:
        state.apply(N, PlayCard(play=card("7H")))
    assert str(info.value) == "7♥ cannot go on 4♠: play a spade numeral or any King, Queen or Jack."
    assert state.fingerprint() == before


def test_refuses_out_of_turn() -> None:
    state = sequence_state()
    before = state.fingerprint()
    with pytest.raises(IllegalAction) as info:
        state.apply(D, PlayCard(play=card("10H")))
    assert str(info.value) == "It is not your turn: the table is waiting for North."
    assert state.fingerprint() == before


def test_refuses_card_not_held() -> None:
    state = sequence_state()
    before = state.fingerprint()
    with pytest.raises(IllegalAction) as info:
        state.apply(N, PlayCard(play=card("QS")))
    assert str(info.value) == "You do not hold Queen of Spades."
    assert state.fingerprint() == before


# --- views and events ----------------------------------------------------------------------------


def test_draws_are_private() -> None:
    state = sequence_state()
    events = state.apply(N, PlayCard(play=card("5H")))
    drawn = [e for e in events if e.to is not None]
    assert [(e.to, e.text) for e in drawn] == [(N, f"You draw {card('2D').short}.")]
    public = " ".join(e.text for e in events if e.to is None)
    assert card("2D").short not in public
    assert card("2D") in state.hands[N]
    view = state.view(None)
    assert view.hand == [] and view.stock == 25 and view.caterpillar == [card("5H")]
    assert view.total == 5 and view.game_points == [5, 0] and view.hand_counts == [13, 13]
    assert card("2D") in state.view(N).hand and card("2D") not in state.view(D).hand
    assert any("Total: 5" in line for line in view.table_lines())


# --- match play ----------------------------------------------------------------------------------


def test_match_alternates_first_player_and_adds_scores() -> None:
    state = sequence_state()  # 2 games by default
    for i, (code, _, _) in enumerate(SEQUENCE):
        play(state, i % 2, code)
    assert not state.is_over
    assert state.scores == [345, 45]
    assert state.deal_no == 2 and state.dealer == N and state.awaiting() == {D}
    assert state.pile == [] and state.total == 0 and len(state.stock) == 26
    assert state.view(None).last_result[-1] == "Match: North 345, Dee 45."


def tied_deck() -> list[Card]:
    """North opens 2♥ and Dee, with no heart and no face card, is court short: 0 to 0."""
    north = parse_cards("2H 3H 4H 5H 6H 7H 8H 9H 10H AH AS 2S 3S")
    dee = parse_cards("4S 5S 6S 7S 8S 9S 10S AC 2C 3C 4C 5C 6C")
    return arrange(north, dee, parse_cards("7C"))


def test_tie_is_a_draw_by_default() -> None:
    state = start(tied_deck(), games=1)
    play(state, N, "2H")
    assert state.outcome is not None and state.outcome.scores == [0, 0]
    assert state.outcome.winners == [N, D]


def test_tie_replay_plays_another_game() -> None:
    state = start(tied_deck(), games=1, tie="replay")
    texts = play(state, N, "2H")
    assert not state.is_over and state.deal_no == 2
    assert any("level" in t for t in texts)


def test_target_option() -> None:
    opts = GAME.parse_options(["target=1000"])
    assert opts.target == 1000 and opts.games is None
    state = start(tied_deck(), target=5)
    play(state, N, "2H")  # 0 to 0: nobody has reached 5 yet
    assert not state.is_over


def test_invalid_option_combinations() -> None:
    with pytest.raises(SetupError, match="not both"):
        GAME.options({"games": 3, "target": 500})
    with pytest.raises(SetupError, match="how long"):
        GAME.options({"games": None})
    with pytest.raises(SetupError):
        GAME.parse_options(["tie=coin"])
    with pytest.raises(SetupError):
        GAME.start(["A", "B", "C"])


# --- random playouts -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "matches"),
    [
        ({}, 40),
        ({"games": 1}, 50),
        ({"games": 3, "tie": "replay"}, 20),
        ({"target": 800, "first_dealer": 1}, 15),
        ({"games": 1, "tie": "replay", "first_dealer": 2}, 30),
    ],
)
def test_random_playouts(options: dict[str, object], matches: int) -> None:
    finals = run_playouts(GAME, 2, options, matches=matches, deep_every=13)
    for state in finals:
        assert state.outcome is not None and sum(state.outcome.scores) == sum(state.scores)
        assert all(s % 5 == 0 for s in state.scores)
        if options.get("target"):
            assert max(state.scores) >= 800


@pytest.mark.slow
def test_many_random_playouts() -> None:
    run_playouts(GAME, 2, {"games": 4}, matches=1500, deep_every=7)
