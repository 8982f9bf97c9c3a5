"""The entry reader at a real table (issue 23): the lines that were misread, the forms a phone
types, and every example the rules summaries, /help, the README and the entry form show, each
read at a position where what it says can be entered, and required to enter exactly that.

A position is found by playing random legal entries until the entries an example means can be
made one after another there; the example is then read at that position. A refusal must say
what was understood, and nothing changes (the reader only reads; the state is compared)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from games.cards import card
from games.counting import PlayAs
from games.engine import Action, GameState, Pass, PlayCard, Seat
from games.notation import MAX_ENTRY, AmbiguousEntry, EntryError, read_action, read_choice
from games.referee.series import Series, single_awaited
from games.registry import get_game, referee_game

Step = tuple[str | None, Action | str]
"""An entry an example means: the player (by name; ``None`` for the one awaited) and the action
(or its label)."""


def play(code: str) -> PlayCard:
    return PlayCard(play=card(code))


def _action_for(state: GameState[Any], seat: Seat, wanted: Action | str) -> Action | None:
    for action in state.legal_actions(seat):
        if (action == wanted) if isinstance(wanted, Action) else (action.label() == wanted):
            return action
    return None


def _makeable(state: GameState[Any], steps: list[Step]) -> tuple[Seat, Action] | None:
    """The entry (one, or a line) ``steps`` mean at this position, if they can all be made."""
    twin = state.clone()
    made: list[tuple[Seat, Action]] = []
    for name, wanted in steps:
        seat = twin.players.index(name) if name is not None else single_awaited(twin)
        if seat is None or twin.is_over:
            return None
        action = _action_for(twin, seat, wanted)
        if action is None:
            return None
        made.append((seat, action))
        twin.apply(seat, action)
    if len(made) == 1:
        return made[0]
    return made[0][0], Series(entries=tuple(a for _, a in made), seats=tuple(s for s, _ in made))


def position(
    game_id: str, players: list[str], steps: list[Step], *, referee: bool = True, **options: Any
) -> tuple[GameState[Any], tuple[Seat, Action]]:
    """A position (random legal play) where ``steps`` can be made, and the entry they make."""
    game = referee_game(game_id) if referee else get_game(game_id)
    for seed in range(60):
        rng = random.Random(seed)
        state = game.start(players, options, seed=seed)
        for _ in range(400):
            if state.is_over:
                break
            found = _makeable(state, steps)
            if found is not None:
                return state, found
            seat = rng.choice(sorted(state.actors()))
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    raise AssertionError(f"no position of {game_id} where {steps} can be entered")


def same(got: tuple[Seat, Action], expected: tuple[Seat, Action]) -> bool:
    if isinstance(expected[1], Series):
        return (
            isinstance(got[1], Series)
            and got[0] == expected[0]
            and list(got[1].entries) == list(expected[1].entries)
            and list(got[1].seats) == list(expected[1].seats)
        )
    return got == expected


def snapshot(state: GameState[Any]) -> tuple[Any, ...]:
    return (len(state.history), list(state.scores), state.turn, [state.legal_actions(s) for s in range(state.n)])


def reads_as(state: GameState[Any], text: str, expected: tuple[Seat, Action], *, referee: bool = True) -> None:
    before = snapshot(state)
    got = read_action(state, text, seat=None if referee else expected[0])
    assert same(got, expected), f"{text!r}: {got} != {expected}"
    assert snapshot(state) == before


def refused(state: GameState[Any], text: str, **kwargs: Any) -> str:
    before = snapshot(state)
    with pytest.raises(EntryError) as caught:
        read_action(state, text, seat=None, **kwargs)
    assert snapshot(state) == before
    return str(caught.value)


# --- the lines that were misread -----------------------------------------------------------------

JOKERS: list[Step] = [("ann", "Joker"), ("bob", "Joker"), ("cat", play("5S"))]


@pytest.mark.parametrize("text", ["joker joker 5S", "JK JK 5S", "joker, joker, 5S", "jk jk 5s", "ann: joker bob: joker cat: 5S"])
def test_two_equal_jokers_are_two_plays(text: str) -> None:
    state, expected = position("jubilee", ["ann", "bob", "cat"], JOKERS)
    reads_as(state, text, expected)


@pytest.mark.parametrize("text", ["JK JK", "joker, joker", "joker joker"])
def test_two_jokers_alone_are_two_plays(text: str) -> None:
    state, expected = position("jubilee", ["ann", "bob", "cat"], JOKERS[:2])
    reads_as(state, text, expected)


@pytest.mark.parametrize("name", ["jack", "ace"])
def test_a_seat_named_with_a_card_word_never_takes_a_bare_rank(name: str) -> None:
    players = ["ann", "bob", name]
    rank = name[0].upper()
    # bob is to play, then the player called jack (or ace): "JD J 10S" once read as "bob J♦, jack 10♠"
    state, meant = position("fifty_one", players, [("bob", play(f"{rank}D")), (name, play("10S"))])
    text = f"{rank}D {rank} 10S"
    message = refused(state, text)
    assert f"{rank}♦" in message  # what was understood is said
    reads_as(state, f"{rank}D {name}: 10S", meant)
    reads_as(state, f"bob: {rank}D {name}: 10S", meant)
    # a bare rank that fits one card only is that card, never the seat
    solo, expected = position("fifty_one", players, [(name, play("10S"))])
    reads_as(solo, f"{name}: 10S", expected)
    reads_as(solo, f"10S for {name}", expected)


@pytest.mark.parametrize("name", ["jack", "ace", "king", "ten", "joker"])
def test_card_word_seats_read_every_documented_form(name: str) -> None:
    players = ["ann", name, "cat"]
    state, expected = position("jubilee", players, [(name, play("9S"))])
    for text in (f"{name}: 9S", f"{name.upper()}: 9S", f"@{name} 9S", f"9S for {name}", "9S", "9♠", "9 s"):
        reads_as(state, text, expected)
    counts, tricks = position("parity", ["ann", name], [(name, "3 tricks")])
    for text in (f"{name}: 3 tricks", f"{name}: 3", f"3 tricks for {name}"):
        reads_as(counts, text, tricks)


def test_where_a_seat_is_expected_a_card_word_name_is_the_seat() -> None:
    # Hoodwink's bid cards go down together: several players may enter, so "Ace KH" names Ace
    state = referee_game("hoodwink").start(["Jack", "Queenie", "Ace"], {}, seed=7)
    seat, action = read_action(state, "Ace KH", seat=None)
    assert (seat, action.card) == (2, card("KH"))
    assert read_action(state, "Jack: KH", seat=None)[0] == 0


def test_the_documented_ninety_nine_line_with_a_lower_case_as() -> None:
    state, expected = position("ninety_nine", ["ann", "bob", "cat"], [(None, play("4H")), (None, "A♠ \u2192 46")])
    for text in ("4h as 46", "4H AS 46", "4h as46", "4♥ A♠ 46"):
        reads_as(state, text, expected)


# --- what a phone types --------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["Q❤", "Q❤️", "Q♥️", "Q♥", "Q h", "Q H", "♥Q", "♥️Q", "queen of hearts", "qh"])
def test_phone_forms_of_a_card(text: str) -> None:
    state, expected = position("jubilee", ["ann", "bob", "cat"], [(None, play("QH"))])
    reads_as(state, text, expected)


@pytest.mark.parametrize("text", ["10 h", "10 H", "10h", "♥10", "10❤", "10♥️", "ten of hearts"])
def test_phone_forms_of_a_ten(text: str) -> None:
    state, expected = position("jubilee", ["ann", "bob", "cat"], [(None, play("10H"))])
    reads_as(state, text, expected)


@pytest.mark.parametrize("text", ["QH-7H-10S", "QH, 7H, 10S", "QH; 7H; 10S", "QH / 7H / 10S", "Q♥️ 7♥️ 10♠️", "♥Q ♥7 ♠10"])
def test_separators_and_emoji_in_a_line(text: str) -> None:
    state, expected = position("jubilee", ["ann", "bob", "cat"], [(None, play("QH")), (None, play("7H")), (None, play("10S"))])
    reads_as(state, text, expected)


def test_values_written_with_signs_and_words() -> None:
    state, expected = position("ninety_nine", ["ann", "bob", "cat"], [(None, "A♠ \u2192 46")])
    for text in ("AS46", "AS 46", "as 46", "A♠ 46", "AS → 46"):
        reads_as(state, text, expected)
    minus, expected = position("obstacle_race", ["ann", "bob", "cat"], [(None, PlayAs(play=card("QS"), value=-3))])
    for text in ("QS-3", "QS -3", "QS minus 3", "QS minus three", "Q♠ as −3", "QS as -3"):
        reads_as(minus, text, expected)
    plus, expected = position("obstacle_race", ["ann", "bob", "cat"], [(None, PlayAs(play=card("QS"), value=3))])
    for text in ("QS+3", "QS +3", "QS plus 3", "QS 3", "QS as +3"):
        reads_as(plus, text, expected)


def test_number_words_and_pass_words() -> None:
    state, expected = position("parity", ["ann", "bob"], [("ann", "5 tricks")])
    for text in ("ann five", "ann: five", "ann 5", "ann five tricks"):
        reads_as(state, text, expected)
    passing, expected = position("jubilee", ["ann", "bob", "cat"], [("ann", Pass())])
    for text in ("ann passes", "ann pass", "ann passed", "ann: PASS", "pass for ann"):
        reads_as(passing, text, expected)


# --- refusals say what was understood ------------------------------------------------------------


def test_a_spec_turn_with_a_bare_number_says_what_was_read() -> None:
    state, _ = position("spec", ["ann", "bob"], [(None, "A1: K♥"), (None, "Turned up 10♠")])
    message = refused(state, "A1 KH 10")
    assert "A1: K♥" in message and "10" in message, message


def test_an_entry_longer_than_the_form_allows_is_refused() -> None:
    state, expected = position("jubilee", ["ann", "bob", "cat"], [(None, play("QH"))])
    long = "QH" + " " * (MAX_ENTRY - 1)  # spaces around an entry are not counted
    reads_as(state, long, expected)
    message = refused(state, "QH " + "x" * MAX_ENTRY)
    assert f"at most {MAX_ENTRY} characters" in message and "Nothing was entered" in message
    with pytest.raises(EntryError, match=f"at most {MAX_ENTRY} characters"):
        read_choice(state.legal_actions(expected[0]), "7" * (MAX_ENTRY + 1))


@pytest.mark.parametrize("digits", [12, 4_301, 10_000])
def test_a_huge_number_is_refused_in_words(digits: int) -> None:
    state, _ = position("ninety_nine", ["ann", "bob", "cat"], [(None, "A♠ \u2192 46")])
    number = "9" * digits
    for text in (f"AS {number}", number, f"#{number}"):
        message = refused(state, text)
        assert "too long" in message or f"at most {MAX_ENTRY} characters" in message, message


def test_an_ambiguous_line_lists_each_reading_and_how_to_type_it() -> None:
    for seed in range(20):
        table = referee_game("wit_and_reason_2").start(["ann", "bob"], {}, seed=seed)
        try:
            read_action(table, "2", seat=None)
        except AmbiguousEntry as exc:
            text = str(exc)
            assert " or " in text or "could mean" in text
            for typed in re.findall(r'type "([^"]+)"', text):
                read_action(table, typed, seat=None)  # each suggestion reads
            break


# --- every example shown to players --------------------------------------------------------------

EXAMPLES: list[tuple[str, str, list[str], list[Step], dict[str, Any]]] = [
    # the referee rules summaries
    ("parity", "hearts odd", ["ann", "bob"], [(None, "Hearts \u2665 trumps"), (None, "Odd")], {}),
    ("hoodwink", "Ann AH Bob 9H Cat 7S", ["Ann", "Bob", "Cat"], [("Ann", "Bid A♥"), ("Bob", "Bid 9♥"), ("Cat", "Bid 7♠")], {}),
    ("hoodwink", "Ann 4 Bob 5", ["Ann", "Bob", "Cat"], [("Ann", "4 tricks"), ("Bob", "5 tricks")], {}),
    ("spec", "A1 KH 10S", ["ann", "bob"], [(None, "A1: K♥"), (None, "Turned up 10♠")], {}),
    ("spec", "KH QS", ["ann", "bob"], [(None, "K♥"), (None, "Q♠")], {}),
    ("caterpillar", "7H 8H", ["ann", "bob"], [(None, play("7H")), (None, play("8H"))], {}),
    ("costly_colours", "KH 5S go 7D", ["ann", "bob"], [(None, play("KH")), (None, play("5S")), (None, "Go"), (None, play("7D"))], {}),
    ("fifty_one", "KH 7S 10D", ["ann", "bob", "cat"], [(None, play("KH")), (None, play("7S")), (None, play("10D"))], {}),
    ("hundred", "KH 7S 10D", ["ann", "bob", "cat"], [(None, play("KH")), (None, play("7S")), (None, play("10D"))], {}),
    ("jubilee", "5S pass 9C", ["ann", "bob", "cat"], [(None, play("5S")), (None, Pass()), (None, play("9C"))], {}),
    ("ninety_nine", "AS 12", ["ann", "bob", "cat"], [(None, "A♠ \u2192 12")], {}),
    ("ninety_nine", "KH AS 12 5D", ["ann", "bob", "cat"], [(None, play("KH")), (None, "A♠ \u2192 12"), (None, play("5D"))], {}),
    ("obstacle_race", "QS -3 7H AD", ["ann", "bob", "cat"], [(None, PlayAs(play=card("QS"), value=-3)), (None, play("7H")), (None, play("AD"))], {}),
    ("twenty_nine", "5S pass KD", ["ann", "bob", "cat", "dan"], [(None, play("5S")), (None, Pass()), (None, play("KD"))], {}),
    ("wit_and_reason_1", "KH 7S", ["ann", "bob"], [(None, play("KH")), (None, play("7S"))], {}),
    # the README, /help and the entry form
    ("parity", "bob: 3 tricks", ["ann", "bob"], [("bob", "3 tricks")], {}),
    ("jubilee", "KH 7H QH", ["ann", "bob", "cat"], [(None, play("KH")), (None, play("7H")), (None, play("QH"))], {}),
    ("jubilee", "bob: KH", ["ann", "bob", "cat"], [("bob", play("KH"))], {}),
    ("jubilee", "KH for bob", ["ann", "bob", "cat"], [("bob", play("KH"))], {}),
    ("spec", "A1 KH", ["ann", "bob"], [(None, "A1: K♥")], {}),
    ("jubilee", "jack: KH", ["ann", "jack", "cat"], [("jack", play("KH"))], {}),
]
"""(game, the example as shown, players, the entries it means, options): every entry example the
referee rules summaries, the README, the console's /help and the Discord entry form show."""

ONLINE_EXAMPLES: list[tuple[str, str, list[Step]]] = [
    # the console's /help: "a card (KH, kh, K♥, 10h, king of hearts), a count or a value (4, AS 12, QS -3), a suit (spades)"
    *((game, text, [(None, play("KH"))]) for game in ("jubilee",) for text in ("KH", "kh", "K♥", "king of hearts")),
    ("jubilee", "10h", [(None, play("10H"))]),
    ("ninety_nine", "AS 12", [(None, "A♠ \u2192 12")]),
    ("obstacle_race", "QS -3", [(None, PlayAs(play=card("QS"), value=-3))]),
    ("parity", "spades", [(None, "Spades \u2660 trumps")]),
]


@pytest.mark.parametrize(("game_id", "text", "players", "steps", "options"), EXAMPLES, ids=[f"{e[0]}:{e[1]}" for e in EXAMPLES])
def test_every_referee_example_enters_what_it_says(
    game_id: str, text: str, players: list[str], steps: list[Step], options: dict[str, Any]
) -> None:
    state, expected = position(game_id, players, steps, **options)
    reads_as(state, text, expected)


def test_a_bare_count_is_the_speakers_own() -> None:
    # /help: "a count or a value (4, ...)": at the trick counts either player may enter; typed by ann
    state, expected = position("parity", ["ann", "bob"], [("ann", "4 tricks")])
    assert read_action(state, "4", seat=None, speaker=0) == expected
    with pytest.raises(AmbiguousEntry, match='could be an entry for ann or bob: say whose, for example "ann: 4"'):
        read_action(state, "4", seat=None)


def test_wit_and_reason_2_examples_by_rank() -> None:
    # "2" (suits do not matter) and "2 5 1": the ranks played in turn
    state = referee_game("wit_and_reason_2").start(["ann", "bob"], {}, seed=3)
    _seat, action = read_action(state, "2", seat=None)
    assert action.card is not None and action.card.rank == 2
    _seat, line = read_action(state, "2 5 1", seat=None)
    assert isinstance(line, Series) and [e.card.rank for e in line.entries if e.card is not None] == [2, 5, 14]


@pytest.mark.parametrize(("game_id", "text", "steps"), ONLINE_EXAMPLES, ids=[f"{e[0]}:{e[1]}" for e in ONLINE_EXAMPLES])
def test_every_online_example_enters_what_it_says(game_id: str, text: str, steps: list[Step]) -> None:
    players = ["ann", "bob", "cat"] if game_id != "parity" else ["ann", "bob"]
    state, expected = position(game_id, players, steps, referee=False)
    reads_as(state, text, expected, referee=False)


def test_a_refused_line_says_what_was_read_and_which_part_was_refused() -> None:
    state, _ = position("jubilee", ["ann", "bob", "cat"], JOKERS)
    message = refused(state, "ann: ZZ bob: KH")
    assert "read as ann: zz bob: K♥" in message, message
    message = refused(state, "ann: joker cat: 5S")
    assert "as ann Joker; then 5♠, which is refused: 5♠ for cat: It is not your turn" in message, message
    message = refused(state, "ann: 5S bob: ZZ")
    assert 'as ann 5♠; then zz, which is refused: "zz" is not an entry that can follow' in message, message
    message = refused(state, "ann: 5S bob")
    assert "as ann 5♠; then bob, which is refused: nothing follows the player's name" in message, message


def test_a_phrase_is_one_entry_never_split_into_two() -> None:
    # "no mog" is one entry, though "no" and then "mog" (the next player's proposal) would each be one
    state, both = position("costly_colours", ["ann", "bob", "cat", "dan"], [("bob", "No mog"), (None, "Propose a mog")])
    assert isinstance(both[1], Series)
    expected = (both[0], both[1].entries[0])
    for text in ("bob: no mog", "bob no mog", "no mog for bob"):
        reads_as(state, text, expected)
