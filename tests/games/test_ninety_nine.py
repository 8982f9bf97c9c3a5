"""Ninety-Nine: the value table, the worked examples of the rules file, refusals and playouts."""

from __future__ import annotations

import pytest

from games.adders.ninety_nine import (
    NinetyNineOptions,
    can_play,
    is_bust,
    new_total,
    playable_cards,
    reverses,
)
from games.cards import card, parse_cards

RED_ONE = NinetyNineOptions(red_ace_value=1)


@pytest.mark.parametrize(
    ("code", "after"),
    [("3S", 40), ("4H", 40), ("10D", 30), ("9C", 99), ("JS", 50), ("QH", 50), ("KD", 50),
     ("2C", 42), ("5S", 45), ("6H", 46), ("7D", 47), ("8C", 48), ("AH", 42), ("AD", 42)],
)
def test_values_on_forty(code: str, after: int) -> None:
    assert new_total(40, card(code)) == after


def test_jack_reverses_and_black_ace_sets_any_total() -> None:
    assert reverses(card("JH")) and not reverses(card("QH"))
    assert new_total(40, card("AS"), chosen=0) == 0
    assert new_total(40, card("AC"), chosen=99) == 99
    assert new_total(40, card("AC"), chosen=40) == 40
    with pytest.raises(ValueError):
        new_total(40, card("AS"))
    with pytest.raises(ValueError):
        new_total(40, card("AS"), chosen=100)


def test_red_ace_option() -> None:
    assert new_total(40, card("AH"), RED_ONE) == 41
    assert new_total(40, card("AD")) == 42


def test_legal_plays_at_99() -> None:
    legal = {"3S", "4D", "10H", "AS", "AC", "9D"}
    for c in parse_cards("AS AC AH AD 2S 3S 4D 5C 6H 7S 8D 9D 10H JC QS KH"):
        assert can_play(99, c) == (c.code in legal), c
    assert not can_play(99, card("9D"), NinetyNineOptions(nine_on_99="forbid"))
    assert can_play(98, card("9D"), NinetyNineOptions(nine_on_99="forbid"))
    assert not can_play(99, card("AH"), RED_ONE)


def test_at_95_only_the_black_ace() -> None:
    hand = parse_cards("7H AC QD")
    assert playable_cards(95, hand) == [card("AC")]
    assert not is_bust(95, hand)
    assert is_bust(95, parse_cards("7H QD"))


def test_below_zero_options() -> None:
    assert new_total(4, card("10S")) == -6
    assert can_play(4, card("10S"))
    assert not can_play(4, card("10S"), NinetyNineOptions(below_zero="forbid"))
    assert can_play(10, card("10S"), NinetyNineOptions(below_zero="forbid"))
    assert new_total(4, card("10S"), NinetyNineOptions(below_zero="clamp0")) == 0
    assert can_play(4, card("10S"), NinetyNineOptions(below_zero="clamp0"))


def test_reversal_example_bust_hand() -> None:
    # after A 5, B J, A 9, D 4 the total is 99; C's 2, 6 and K all pass it
    total = 0
    for code in ("5S", "JS", "9H", "4C"):
        total = new_total(total, card(code))
    assert total == 99
    assert is_bust(total, parse_cards("2D 6H KS"))


# --- whole matches -------------------------------------------------------------------------------

from collections.abc import Sequence  # noqa: E402
from typing import Any  # noqa: E402

from games.adders.ninety_nine import GAME, NinetyNineState  # noqa: E402
from games.cards import Card, full_pack  # noqa: E402
from games.counting import PlayAs, stack_deck  # noqa: E402
from games.engine import IllegalAction, PlayCard  # noqa: E402
from games.simulate import play_match  # noqa: E402
from tests.playout import run_playouts  # noqa: E402

NAMES = ["A", "B", "C", "D"]


def stack(hands: Sequence[str], then: str = "") -> list[Card]:
    """A pack order dealing ``hands`` (from the dealer's left) with ``then`` on top of the stock."""
    return stack_deck(full_pack(), [parse_cards(h) for h in hands], parse_cards(then) if then else [])


def start(options: dict[str, Any] | None = None, hands: Sequence[str] = (), then: str = "",
          players: Sequence[str] = NAMES) -> NinetyNineState:
    deck = stack(hands, then) if hands else None
    state = GAME.start(players, {"first_dealer": len(players), **(options or {})}, seed=7, deck=deck)
    assert isinstance(state, NinetyNineState)
    return state


def play(state: NinetyNineState, seat: int, code: str, chosen: int | None = None) -> None:
    c = card(code)
    state.apply(seat, PlayAs(play=c, value=chosen, sets_total=True) if chosen is not None else PlayCard(play=c))


def refused(state: NinetyNineState, seat: int, action: Any) -> str:
    before = state.fingerprint()
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)
    assert state.fingerprint() == before
    return str(info.value)


REVERSAL_HANDS = ["5S 9H 8C", "JS 7C 6C", "2D 6H KS", "4C 7D 8D"]


def test_reversal_example() -> None:
    state = start(hands=REVERSAL_HANDS, then="QH QD QC KH")
    assert state.awaiting() == {0}
    play(state, 0, "5S")
    assert state.total == 5 and state.awaiting() == {1}
    play(state, 1, "JS")
    assert state.total == 15 and state.direction == -1
    assert state.awaiting() == {0}  # the player of the card before the Jack
    play(state, 0, "9H")
    assert state.total == 99 and state.awaiting() == {3}
    play(state, 3, "4C")
    # C holds 2, 6 and K: every one passes 99, so C loses a life and a new deal begins
    assert state.lives == [3, 3, 2, 3] and state.scores == [3, 3, 2, 3]
    bust = [e for e in state.log if e.kind == "bust"]
    assert len(bust) == 1 and bust[0].text.startswith("C ")
    assert state.deal_no == 2 and state.dealer == 0 and state.total == 0
    assert state.awaiting() == {1} and state.direction == 1


def test_first_jack_reverses_at_once() -> None:
    state = start(hands=["JS 5C 6C", "7C 8C 2C", "2D 6H KS", "4C 7D 8D"])
    play(state, 0, "JS")
    assert state.total == 10 and state.awaiting() == {3}  # back to the dealer, at A's right


def test_at_99_the_legal_plays() -> None:
    state = start(hands=["9H 5C 6C", "3S 4D 10H", "2D AH KS", "AC 7D 9D"])
    play(state, 0, "9H")
    assert {a.play.code for a in state.legal_actions(1)} == {"3S", "4D", "10H"}  # type: ignore[attr-defined]
    play(state, 1, "10H")
    assert state.total == 89
    play(state, 2, "KS")
    assert state.total == 99
    legal = state.legal_actions(3)
    assert {a.play.code for a in legal} == {"AC", "9D"}  # type: ignore[attr-defined]
    assert len([a for a in legal if isinstance(a, PlayAs)]) == 100
    assert "past 99" in refused(state, 3, PlayCard(play=card("7D")))


def test_nine_on_99_forbidden_option() -> None:
    state = start({"nine_on_99": "forbid"}, hands=["9H 5C 6C", "9S 4D 10H", "2D AH KS", "AC 7D 9D"])
    play(state, 0, "9H")
    assert "Nine may not be played on 99" in refused(state, 1, PlayCard(play=card("9S")))
    play(state, 1, "4D")


def test_at_95_only_the_black_ace_with_its_choice_of_totals() -> None:
    state = start(hands=["9H 3D 6C", "10S 4D 2H", "7H AC 6H", "3C 7D 8D"], then="5C 5D QD 2S")
    for seat, code in [(0, "9H"), (1, "10S"), (2, "6H"), (3, "3C"), (0, "3D"), (1, "4D")]:
        play(state, seat, code)
    # the rules file's position: 95, and C holds 7, the black Ace and a Queen
    assert state.total == 95 and state.hands[2] == sorted_hand("7H AC QD")
    legal = state.legal_actions(2)
    assert all(isinstance(a, PlayAs) and a.play == card("AC") for a in legal)
    assert sorted(a.value for a in legal) == list(range(100))  # type: ignore[attr-defined]
    assert "105, past 99" in refused(state, 2, PlayCard(play=card("QD")))
    assert "Say how your A♣ counts" in refused(state, 2, PlayCard(play=card("AC")))
    assert "You do not hold" in refused(state, 2, PlayCard(play=card("AS")))
    assert "not your turn" in refused(state, 0, PlayCard(play=card("6C")))
    play(state, 2, "AC", chosen=0)
    assert state.total == 0


def test_black_ace_menu_is_two_steps_of_at_most_25() -> None:
    action = PlayAs(play=card("AS"), value=65, sets_total=True)
    assert action.choice_path() == ("Spades", "A♠", "50-74", "A♠ → 65")
    groups: dict[tuple[str, ...], set[str]] = {}
    for v in range(100):
        path = PlayAs(play=card("AS"), value=v, sets_total=True).choice_path()
        for depth in range(len(path) - 1):
            groups.setdefault(path[:depth], set()).add(path[depth])
        groups.setdefault(path[:-1], set()).add(path[-1])
    assert max(len(v) for v in groups.values()) <= 25


def test_red_ace_and_below_zero_in_play() -> None:
    state = start({"red_ace_value": 1}, hands=["AH 5C 6C", "10S 4D 2H", "7H AC QD", "3C 7D 8D"])
    play(state, 0, "AH")
    assert state.total == 1
    play(state, 1, "10S")
    assert state.total == -9
    forbid = start({"below_zero": "forbid"}, hands=["AH 5C 6C", "10S 4D 2H", "7H AC QD", "3C 7D 8D"])
    play(forbid, 0, "AH")
    assert forbid.total == 2
    assert "below 0" in refused(forbid, 1, PlayCard(play=card("10S")))
    clamp = start({"below_zero": "clamp0"}, hands=["AH 5C 6C", "10S 4D 2H", "7H AC QD", "3C 7D 8D"])
    play(clamp, 0, "AH")
    play(clamp, 1, "10S")
    assert clamp.total == 0


def test_stock_reshuffle_keeps_the_top_card() -> None:
    state = start(hands=["5C 6C 7C", "4D 7H 8C", "2D 6H KS", "4C 7D 8D"])
    state.pile, state.stock = state.stock, []  # as if the whole stock had been played
    played = len(state.pile)
    play(state, 0, "5C")
    assert any(e.kind == "restock" for e in state.log)
    assert state.pile == [card("5C")] and len(state.stock) == played - 1
    assert len(state.hands[0]) == 3 and state.total == 5
    assert sum(map(len, state.hands)) + len(state.stock) + len(state.pile) == 52


def test_play_out_skips_empty_hands_and_ends_without_a_life() -> None:
    state = start({"stock_out": "play_out"}, hands=["3C 4C 3D", "4D 3H 4H", "3S 5C 6C", "4S 7C 8C"])
    state.stock = []
    state.hands = [parse_cards("3C"), parse_cards("4D"), [], parse_cards("3S")]
    play(state, 0, "3C")
    assert state.awaiting() == {1}
    play(state, 1, "4D")
    assert state.awaiting() == {3}  # C has no cards and is skipped
    play(state, 3, "3S")
    assert state.deal_no == 2 and state.lives == [3, 3, 3, 3]


def test_long_deal_cap() -> None:
    state = start(hands=["3C 5C 6C", "4D 7C 8C", "2D 6H KS", "4C 7D 8D"])
    state.deal.plays_this_deal = 999
    play(state, 0, "3C")
    assert state.deal_no == 2 and state.lives == [3, 3, 3, 3]


def test_first_to_three_losses_ends_the_match() -> None:
    for seed in range(20):
        state = play_match(GAME, 5, {}, seed=seed)
        assert isinstance(state, NinetyNineState)
        out = state.outcome
        assert out is not None and state.lives is not None
        assert state.lives.count(0) == 1
        loser = state.lives.index(0)
        assert out.ranks[loser] == max(out.ranks) and out.ranks[loser] > 1
        assert "overall loser" in out.notes[0]
        assert sum(3 - v for v in state.lives) == state.deal_no - sum(
            1 for e in state.log if e.kind == "deal_end"
        )


def test_last_survivor_ranks_by_elimination() -> None:
    for seed in range(10):
        state = play_match(GAME, 4, {"mode": "last_survivor"}, seed=seed)
        assert isinstance(state, NinetyNineState)
        out = state.outcome
        assert out is not None and state.lives is not None
        alive = [s for s in range(4) if state.lives[s] > 0]
        assert len(alive) == 1 and out.winners == alive
        order = sorted(range(4), key=lambda s: out.ranks[s])
        knocked = [state.knocked_out_in[s] for s in order[1:]]
        assert knocked == sorted(knocked, key=lambda d: -(d or 0))  # later out ranks higher
        assert sorted(out.ranks) == [1, 2, 3, 4]


def test_views_hide_other_hands() -> None:
    state = start(hands=REVERSAL_HANDS)
    public = state.view(None)
    assert public.hand == [] and public.total == 0
    mine = state.view(2)
    assert mine.hand == sorted_hand("2D 6H KS")
    text = "\n".join(mine.text_lines())
    assert "Total: 0" in text and "To play: A" in text and "Lives: A 3" in text


def sorted_hand(codes: str) -> list[Card]:
    from games.cards import sort_hand

    return sort_hand(parse_cards(codes))


def test_options_refused_with_a_message() -> None:
    from games.engine import SetupError

    with pytest.raises(SetupError, match="red_ace_value"):
        GAME.options({"red_ace_value": 3})
    with pytest.raises(SetupError, match="below_zero"):
        GAME.options({"below_zero": "never"})
    with pytest.raises(SetupError, match="3-13|3, 4"):
        GAME.start(["A", "B"])


@pytest.mark.parametrize("players", range(3, 14))
def test_playouts_every_count(players: int) -> None:
    # one match per count: the first matches of a run are checked at every position, which is
    # costly when a black Ace offers 100 plays; test_many_playouts (slow) plays many more
    run_playouts(GAME, players, matches=1)


@pytest.mark.parametrize(
    "options",
    [
        {"red_ace_value": 1, "below_zero": "forbid"},
        {"below_zero": "clamp0", "nine_on_99": "forbid"},
        {"stock_out": "play_out"},
        {"mode": "last_survivor"},
        {"mode": "last_survivor", "stock_out": "play_out", "red_ace_value": 1},
    ],
)
def test_playouts_options(options: dict[str, Any]) -> None:
    run_playouts(GAME, 4, options, matches=1)


@pytest.mark.slow
@pytest.mark.parametrize("players", range(3, 14))
def test_many_playouts(players: int) -> None:
    run_playouts(GAME, players, matches=30, deep_every=15)
    run_playouts(GAME, players, {"mode": "last_survivor", "stock_out": "play_out"}, matches=10, deep_every=15)
    run_playouts(GAME, players, {"red_ace_value": 1, "below_zero": "forbid", "nine_on_99": "forbid"}, matches=10)
