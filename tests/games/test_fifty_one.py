"""Fifty-One: the worked examples of the rules file, refusals, options and random playouts."""

from __future__ import annotations

import pytest

from games.adders.fifty_one import GAME, FiftyOneState, loses, new_total, pack_total
from games.cards import Card, card, piquet_pack
from games.counting import PlayAs, stack_deck
from games.engine import IllegalAction, PlayCard, SetupError
from tests.playout import run_playouts


def cards(codes: str) -> list[Card]:
    return [card(c) for c in codes.split()]


# P1 (dealer's left) and P2; P2 deals. The stock is drawn P1, P2, P1, P2...
EXAMPLE_HANDS = [cards("AS TS 8S 7S JS"), cards("KS 9S AH QS 7H")]
EXAMPLE_STOCK = cards("8H JH 8D JD KH 9H KD 9D QH")  # 8H is the starter


def example_state(stock: list[Card] = EXAMPLE_STOCK, **options: object) -> FiftyOneState:
    deck = stack_deck(piquet_pack(), EXAMPLE_HANDS, stock)
    state = GAME.start(["P1", "P2"], {"first_dealer": 2, **options}, seed=3, deck=deck)
    assert isinstance(state, FiftyOneState)
    return state


def play(state: FiftyOneState, seat: int, code: str) -> None:
    state.apply(seat, PlayCard(play=card(code)))


def test_pack_totals() -> None:
    assert pack_total() == 136
    assert pack_total("german") == 96


def test_worked_sequence_second_player_must_bust() -> None:
    state = example_state()
    assert state.total == 8 and state.pile == [card("8H")]
    assert len(state.hands[0]) == 6, "the first player draws before playing"
    totals = []
    for seat, code in [(0, "AS"), (1, "KS"), (0, "TS"), (1, "9S"), (0, "8S"), (1, "AH"), (0, "7S")]:
        play(state, seat, code)
        totals.append(state.total)
    assert totals == [19, 23, 22, 22, 30, 41, 48]
    assert sorted(state.hands[1], key=str) == sorted(cards("QS 7H 8D KH KD QH"), key=str)
    legal = state.legal_actions(1)
    assert {a.card for a in legal} == set(cards("QS 7H 8D KH KD QH")), "every card must be playable"
    for action in legal:  # each of them loses
        trial = example_state()
        for seat, code in [(0, "AS"), (1, "KS"), (0, "TS"), (1, "9S"), (0, "8S"), (1, "AH"), (0, "7S")]:
            play(trial, seat, code)
        trial.apply(1, action)
        assert trial.scores == [0, 1] and trial.deal_no == 2
    play(state, 1, "QS")
    assert state.scores == [0, 1]
    assert any(e.kind == "deal_lost" and "P2" in e.text for e in state.log)


def test_a_jack_at_48_is_safe() -> None:
    # same deal, but P2's last draw is a Jack: 48 + 2 = 50 does not lose
    state = example_state(cards("8H JH 8D JD KH 9H KD 9D JC"))
    for seat, code in [(0, "AS"), (1, "KS"), (0, "TS"), (1, "9S"), (0, "8S"), (1, "AH"), (0, "7S")]:
        play(state, seat, code)
    play(state, 1, "JC")
    assert state.total == 50 and state.scores == [0, 0] and state.deal_no == 1


def test_ten_and_nine_at_fifty() -> None:
    assert new_total(50, -1) == 49 and not loses(49)
    assert new_total(50, 0) == 50 and not loses(50)
    assert loses(51) and loses(52)


def test_floor_zero() -> None:
    assert new_total(0, -1) == -1
    assert new_total(0, -1, floor_zero=True) == 0
    state = example_state(floor_zero=True)
    state.total = 0
    state.apply(0, PlayCard(play=card("TS")))
    assert state.total == 0


def test_floor_zero_clamps_a_ten_turned_up() -> None:
    # a Ten as the starter is worth -1: with floor_zero the total opens at 0, not -1
    state = example_state(cards("TH 8D JD"), floor_zero=True)
    assert state.pile == [card("TH")]
    assert state.total == 0 and state.view(None).total == 0
    assert "10♥ is turned up to start the pile: the total opens at 0." in [e.text for e in state.log]
    play(state, 0, "AS")
    assert state.total == 11, "the Ace counts from 0"


def test_ten_turned_up_opens_below_zero_by_default() -> None:
    state = example_state(cards("TH 8D JD"))
    assert state.total == -1
    play(state, 0, "AS")
    assert state.total == 10


def test_below_zero_by_default() -> None:
    state = example_state()
    state.total = 0
    state.apply(0, PlayCard(play=card("TS")))
    assert state.total == -1


def test_german_seven_is_a_choice() -> None:
    state = example_state(values="german")
    assert state.total == 8
    legal = state.legal_actions(0)
    assert PlayAs(play=card("7S"), value=1) in legal and PlayAs(play=card("7S"), value=7) in legal
    assert PlayCard(play=card("7S")) not in legal
    before = state.fingerprint()
    with pytest.raises(IllegalAction, match="Say how your 7♠ counts"):
        state.apply(0, PlayCard(play=card("7S")))
    assert state.fingerprint() == before
    state.apply(0, PlayAs(play=card("7S"), value=1))
    assert state.total == 9
    state.apply(1, PlayCard(play=card("AH")))
    assert state.total == 10, "the German Ace counts 1"


def test_german_seven_starter_counts_seven() -> None:
    state = example_state(cards("7D"), values="german")
    assert state.total == 7


def test_refusals_change_nothing() -> None:
    state = example_state()
    before = state.fingerprint()
    with pytest.raises(IllegalAction, match="You do not hold King of Hearts"):
        state.apply(0, PlayCard(play=card("KH")))
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(1, PlayCard(play=card("KS")))
    assert state.fingerprint() == before


def test_option_refusals() -> None:
    with pytest.raises(SetupError, match="lives only counts with match=lives"):
        GAME.options({"lives": 5})
    with pytest.raises(SetupError, match="rounds only counts with match=penalties"):
        GAME.options({"match": "lives", "rounds": 2})
    with pytest.raises(SetupError, match="values"):
        GAME.options({"values": "french"})
    with pytest.raises(SetupError, match="for 2, 3, 4, 5 players"):
        GAME.start(["a"] * 6)


def test_penalty_match_length_and_winner() -> None:
    state = run_playouts(GAME, 3, {"rounds": 2}, matches=1, seed=5)[0]
    assert state.deal_no == 6
    assert sum(state.scores) == 6, "one loser per deal"
    assert state.outcome is not None
    best = min(state.scores)
    assert state.outcome.winners == [s for s in range(3) if state.scores[s] == best]


def test_lives_match_last_survivor_wins() -> None:
    state = run_playouts(GAME, 4, {"match": "lives", "lives": 2}, matches=1, seed=2)[0]
    assert isinstance(state, FiftyOneState)
    assert state.outcome is not None and state.lives is not None
    survivors = [s for s in range(4) if state.lives[s] > 0]
    assert len(survivors) == 1 and state.outcome.winners == survivors
    assert sorted(state.outcome.ranks) == [1, 2, 3, 4]
    assert sum(state.scores) == state.deal_no, "one life lost per deal"


def test_view_shows_own_hand_only() -> None:
    state = example_state()
    mine, public = state.view(0), state.view(None)
    assert mine.hand and not public.hand
    assert public.total == 8 and public.stock == len(state.stock) and public.to_play == 0
    text = "\n".join(state.view(0).text_lines())
    assert "Total: 8" in text and "Your hand" in text and "Stock:" in text


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_playouts(players: int) -> None:
    run_playouts(GAME, players, matches=5, deep_every=15, seed=players)


@pytest.mark.parametrize(
    "options",
    [
        {"values": "german"},
        {"match": "lives"},
        {"floor_zero": True},
        {"values": "german", "match": "lives", "lives": 1, "floor_zero": True},
        {"rounds": 2, "values": "german"},
    ],
)
@pytest.mark.parametrize("players", [2, 5])
def test_playouts_with_options(players: int, options: dict) -> None:
    run_playouts(GAME, players, options, matches=3, deep_every=11, seed=players + 11)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_many_playouts(players: int) -> None:
    run_playouts(GAME, players, matches=200, seed=100 + players)
    run_playouts(GAME, players, {"values": "german", "match": "lives"}, matches=100, seed=200 + players)
