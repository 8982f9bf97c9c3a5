"""What a player's private view says "just for you": only this deal's notes, and a DM at a new
deal only where the seat knows something the table does not."""

from __future__ import annotations

from bot.service.hands import has_secrets, private_notes, this_deal
from games.engine import Event
from games.registry import get_game


def test_notes_of_an_earlier_deal_are_not_carried_into_the_next() -> None:
    log = [
        Event(kind="draw", text="You draw A♦", to=0),
        Event(kind="deal", text="Deal 2: ann deals."),
        Event(kind="draw", text="You draw 7♣", to=0),
        Event(kind="draw", text="You draw 9♥", to=1),
    ]
    assert [e.text for e in private_notes(log, 0)] == ["You draw 7♣"]
    assert [e.text for e in private_notes(log, 1)] == ["You draw 9♥"]
    assert [e.text for e in private_notes(log[:1], 0)] == ["You draw A♦"]  # no deal began since
    dealt = [Event(kind="deal", text="Deal 1"), Event(kind="hand", text="Your hand: A♠ 9♠", to=0)]
    assert private_notes(dealt, 0) == []  # the hand as dealt: the view shows it as it is now


def test_recent_starts_with_the_deal_in_play() -> None:
    log = [Event(kind="play", text="old"), Event(kind="deal_start", text="Deal 2"), Event(kind="play", text="new")]
    assert [e.text for e in this_deal(log)] == ["Deal 2", "new"]


def test_a_private_message_only_where_the_seat_has_secrets() -> None:
    hidden = get_game("hoodwink")
    state = hidden.start(["ann", "bob", "cat"], hidden.options(), 1)
    assert all(has_secrets(state, seat) for seat in range(3))  # each holds a hand
    spec = get_game("spec")
    state = spec.start(["ann", "bob"], spec.options(), 1)
    assert not any(has_secrets(state, seat) for seat in range(2))  # the grid is face down for all
