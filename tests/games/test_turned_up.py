"""The cards turned up to start a deal's pile (Fifty-One's starter, the left-over cards of Hundred
and Obstacle Race) are public at a real table: every seat's view carries them, in its fields, its
text and its picture, online and refereed, and still shows no card the seat may not see."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.cards import parse_cards
from games.counting import CountingView
from games.layout import Facts
from games.players import RandomPlayer
from games.registry import get_game
from tests.games.referee_adders_support import play, start, turn_up
from tests.playout import check_views

TURNED_UP = [("fifty_one", 3, 1), ("hundred", 3, 2), ("obstacle_race", 3, 2), ("obstacle_race", 5, 2)]


def shown_everywhere(view: CountingView, cards: list[Any]) -> None:
    """The turned-up cards in the view's field, its table text and its picture's facts."""
    assert view.opening == cards
    named = " ".join(c.short for c in cards)
    assert f"Turned up to start: {named}" in view.table_lines()
    facts = [a for a in view.layout().areas if isinstance(a, Facts)]
    assert facts and ("Turned up", named) in facts[0].items


@pytest.mark.parametrize(("game_id", "players", "count"), TURNED_UP)
def test_every_seat_sees_the_turned_up_cards_and_no_hidden_card(game_id: str, players: int, count: int) -> None:
    state: Any = get_game(game_id).start([f"P{i + 1}" for i in range(players)], None, seed=4)
    rng, other = random.Random(4), RandomPlayer()
    deals = set()
    while not state.is_over and state.deal_no <= 2:
        turned = list(state.round.opening)
        assert len(turned) == count and turned == state.pile[:count]
        for seat in [None, *range(players)]:
            shown_everywhere(state.view(seat), turned)
        check_views(state)  # no other seat's hand, no stock card
        deals.add(state.deal_no)
        seat = state.to_play
        state.apply(seat, other.choose(state.view(seat), state.legal_actions(seat), rng))
    assert deals == {1, 2}


def test_nothing_turned_up_with_four_at_obstacle_race_or_two_at_hundred() -> None:
    for game_id, players in (("obstacle_race", 4), ("hundred", 2)):
        view = get_game(game_id).start([f"P{i + 1}" for i in range(players)], None, seed=1).view(0)
        assert view.opening == []
        assert not any(line.startswith("Turned up") for line in view.table_lines())
        assert not any(name == "Turned up" for name, _ in view.table_facts())


def test_refereed_the_turned_up_cards_show_once_entered() -> None:
    state = start("fifty_one", ["P1", "P2"], first_dealer=2)
    assert state.view(None).opening == []  # not entered yet
    turn_up(state, "8S")
    for seat in (None, 0, 1):
        shown_everywhere(state.view(seat), parse_cards("8S"))
    play(state, "AS", "KS")
    assert state.view(None).opening == parse_cards("8S")

    state = start("hundred", ["Ann", "Ben", "Cat"])
    turn_up(state, "7S")
    assert state.view(None).opening == []  # one of two entered: the pile is not started yet
    turn_up(state, "AD")
    shown_everywhere(state.view(None), parse_cards("7S AD"))

    state = start("obstacle_race", ["Ann", "Ben", "Cat"])
    turn_up(state, "QS", "AS")
    shown_everywhere(state.view(1), parse_cards("QS AS"))


def test_refereed_by_results_nothing_is_turned_up() -> None:
    state = start("fifty_one", ["P1", "P2"], entries="result")
    view = state.view(None)
    assert view.opening == [] and not any(line.startswith("Turned up") for line in view.table_lines())
