"""Jubilee: the pack and its total, the worked table of the rules file, passing, the void deal,
refusals, options and random playouts."""

from __future__ import annotations

from collections import Counter

import pytest

from games.adders.jubilee import (
    GAME,
    PACK_TOTAL,
    JubileeState,
    card_value,
    jubilee_pack,
    pack_total,
    play_points,
)
from games.cards import JOKER, Card, card
from games.counting import stack_deck
from games.engine import IllegalAction, PlayCard, SetupError
from tests.playout import check_views, run_playouts


def cards(codes: str) -> list[Card]:
    return [card(c) for c in codes.split()]


def start(hands: list[list[Card]], dealer: int, **options: object) -> JubileeState:
    deck = stack_deck(jubilee_pack(), hands, hand_size=8)
    names = [f"P{i + 1}" for i in range(len(hands))]
    state = GAME.start(names, {"first_dealer": dealer, **options}, seed=7, deck=deck)
    assert isinstance(state, JubileeState)
    return state


def test_pack_make_up_and_total() -> None:
    pack = jubilee_pack()
    assert len(pack) == 61
    suits = Counter(c.suit.name if c.suit else "JOKER" for c in pack)
    assert suits == {"HEARTS": 13, "SPADES": 26, "CLUBS": 18, "JOKER": 4}
    assert Counter(pack)[card("5S")] == 2 and card("TC") not in pack and card("KC") not in pack
    assert pack_total() == PACK_TOTAL == 217, "the book's 189 is a misprint"
    assert pack_total(club_ace_value=1) == 189


def test_values() -> None:
    assert card_value(card("AS")) == 15 and card_value(card("AH")) == -15
    assert card_value(card("KS")) == 10 and card_value(card("QH")) == -10 and card_value(card("TH")) == -10
    assert card_value(card("9C")) == 9 and card_value(JOKER) == 0
    assert card_value(card("AC"), club_ace_value=1) == 1 and card_value(card("AS"), club_ace_value=1) == 15


@pytest.mark.parametrize(
    ("before", "after", "points"),
    [
        (0, 10, 0),  # opening King of spades
        (10, 25, 10),  # jubilee
        (25, 16, 0),  # leaving 25 is not skipping it
        (16, 26, -5),  # skipped 25
        (26, 11, -5),  # skipped 25 downwards
        (11, 11, 0),  # a Joker
        (95, 100, 20),  # a multiple of 100
        (92, 102, -5),  # skipped 100
        (105, 95, -5),  # skipped 100 downwards
        (40, 30, 0),  # nothing in between
        (10, 0, 0),  # 0 is not a jubilee by default
    ],
)
def test_worked_table(before: int, after: int, points: int) -> None:
    assert play_points(before, after) == points


def test_zero_and_standing_options() -> None:
    assert play_points(9, 0, zero_is_jubilee=True) == 20
    assert play_points(25, 25) == 0
    assert play_points(25, 25, standing_scores=True) == 10
    assert play_points(100, 100, standing_scores=True) == 20
    assert play_points(0, 0, standing_scores=True) == 0
    assert play_points(0, 0, standing_scores=True, zero_is_jubilee=True) == 20


def test_worked_sequence_in_play() -> None:
    hands = [cards("KS JS"), cards("AC AH"), [*cards("9H"), JOKER]]
    state = start(hands, dealer=3)
    assert state.to_play == 0
    for seat, c, total in [(0, "KS", 10), (1, "AC", 25), (2, "9H", 16), (0, "JS", 26), (1, "AH", 11)]:
        state.apply(seat, PlayCard(play=card(c)))
        assert state.total == total
    state.apply(2, PlayCard(play=JOKER))
    assert state.total == 11
    assert state.scores == [-5, 5, 0]
    assert all(len(h) == 8 for h in state.hands), "each player draws after playing"


def test_opening_must_be_black() -> None:
    state = start([cards("AH 5S"), cards("2S"), cards("3S")], dealer=3)
    legal = state.legal_actions(0)
    assert legal and all(a.card is not None and a.card.suit is not None and a.card.suit.name in ("SPADES", "CLUBS") for a in legal)
    before = state.fingerprint()
    with pytest.raises(IllegalAction, match="must open with a black card"):
        state.apply(0, PlayCard(play=card("AH")))
    with pytest.raises(IllegalAction, match="You do not hold"):
        state.apply(0, PlayCard(play=card("KC")))
    assert state.fingerprint() == before


def test_eldest_without_black_passes_and_shows_hand() -> None:
    hearts = [*cards("AH KH QH JH TH 9H 8H"), JOKER]
    state = start([hearts, cards("KS 7H"), cards("2C")], dealer=3)
    assert state.to_play == 1, "the eldest could not open and passed"
    passes = [e for e in state.log if e.kind == "pass"]
    assert len(passes) == 1 and passes[0].text.startswith("P1") and "A♥" in passes[0].text
    view = state.view(None)
    assert view.recent[0].card is None and Counter(view.recent[0].shown) == Counter(hearts)
    check_views(state)  # the shown cards are public knowledge now
    state.apply(1, PlayCard(play=card("KS")))
    assert state.total == 10
    # P3 plays a black card, then P1 holds only hearts and may subtract those not above the total
    state.apply(2, PlayCard(play=card("2C")))
    assert state.total == 12 and state.to_play == 0
    legal = {a.card for a in state.legal_actions(0)}
    assert legal == set(cards("KH QH JH TH 9H 8H")) | {JOKER}
    before = state.fingerprint()
    with pytest.raises(IllegalAction, match=r"Hearts subtract: A♥ would take the total from 12 to −3|from 12 to -3"):
        state.apply(0, PlayCard(play=card("AH")))
    assert state.fingerprint() == before


def test_heart_below_zero_refused() -> None:
    state = start([cards("KS AH"), cards("2S"), cards("3S")], dealer=3)
    state.total = 7
    state.opened = True
    before = state.fingerprint()
    with pytest.raises(IllegalAction, match="may not go below 0"):
        state.apply(0, PlayCard(play=card("AH")))
    assert state.fingerprint() == before


def test_no_black_card_anywhere_voids_the_deal() -> None:
    all_hearts = cards("AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H")
    deck = stack_deck(jubilee_pack(), [all_hearts[:8], all_hearts[8:] + [JOKER] * 3])
    state = GAME.start(["P1", "P2"], {"first_dealer": 2}, seed=11, deck=deck)
    assert isinstance(state, JubileeState)
    assert any(e.kind == "void" for e in state.log)
    assert state.deal_no == 2 and state.deals_played() == 1 and state.dealer == 1
    assert state.scores == [0, 0] and state.to_play is not None


def test_every_deal_ends_at_217() -> None:
    for state in run_playouts(GAME, 3, matches=1, seed=5, deep_every=40):
        ends = [e.text for e in state.log if e.kind == "deal_end"]
        assert len(ends) == 3 and all("61 cards" in t and "ends at 217" in t for t in ends)


def test_club_aces_at_one_end_at_189() -> None:
    state = run_playouts(GAME, 2, {"club_ace_value": "1"}, matches=1, seed=6, deep_every=40)[0]
    assert state.final_totals == [189, 189]  # type: ignore[attr-defined]


def test_option_refusals() -> None:
    with pytest.raises(SetupError, match="club_ace_value"):
        GAME.options({"club_ace_value": 10})
    with pytest.raises(SetupError, match="joker_on_jubilee"):
        GAME.options({"joker_on_jubilee": "double"})
    assert GAME.parse_options(["club_ace_value=1"]).club_ace_value == 1
    with pytest.raises(SetupError, match="2, 3, 4, 5, 6, 7 players"):
        GAME.start(["a"])


def test_view_shows_total_turn_and_own_hand() -> None:
    state = start([cards("KS"), cards("2S"), cards("3S")], dealer=3)
    view = state.view(0)
    assert view.total == 0 and view.to_play == 0 and len(view.hand) == 8 and view.stock == 61 - 24
    assert state.view(1).hand == state.hands[1] and not state.view(None).hand
    text = "\n".join(view.text_lines())
    assert "The first card must be black." in text and "Nearest jubilees: 25" in text


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_playouts(players: int) -> None:
    run_playouts(GAME, players, matches=2 if players <= 3 else 1, deep_every=25, seed=players)


@pytest.mark.parametrize(
    "options",
    [{"zero_is_jubilee": True}, {"joker_on_jubilee": "score"}, {"club_ace_value": 1, "zero_is_jubilee": True, "joker_on_jubilee": "score"}],
)
def test_playouts_with_options(options: dict) -> None:
    run_playouts(GAME, 2, options, matches=1, deep_every=25, seed=17)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_many_playouts(players: int) -> None:
    run_playouts(GAME, players, matches=30, seed=100 + players)
    run_playouts(GAME, players, {"zero_is_jubilee": True, "joker_on_jubilee": "score"}, matches=10, seed=200 + players)
