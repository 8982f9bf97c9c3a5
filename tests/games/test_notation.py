"""Reading what people type (games.notation): card notations, numbers, values, cells, suits, seats,
positions, and refusals that say what was understood."""

from __future__ import annotations

from typing import Any

import pytest

from games.cards import Card, Suit, card
from games.counting import PlayAs
from games.engine import GameState, PlayCard
from games.notation import EntryError, read_action, read_choice, tokenize, typed_form
from games.parity import ChooseTrump
from games.referee.trick_totals import TricksWon
from games.registry import get_game, referee_game
from games.spec import Call, Predict

KH = card("KH")


def referee(game_id: str, players: list[str], **options: Any) -> GameState[Any]:
    return referee_game(game_id).start(players, options, seed=7)


def online(game_id: str, players: list[str], **options: Any) -> GameState[Any]:
    return get_game(game_id).start(players, options, seed=7)


@pytest.mark.parametrize(
    "text",
    ["KH", "kh", "K♥", "k♥", "K ♥", "king of hearts", "King of Hearts", "K hearts", "K of H", "kings of hearts"],
)
def test_every_common_notation_of_a_card(text: str) -> None:
    assert [t.value for t in tokenize(text)] == [KH]


@pytest.mark.parametrize("text", ["10h", "10H", "Th", "T♥", "10♥", "ten of hearts", "10 hearts"])
def test_tens(text: str) -> None:
    assert [t.value for t in tokenize(text)] == [card("10H")]


@pytest.mark.parametrize(("text", "suit"), [("spades", Suit.SPADES), ("S", Suit.SPADES), ("♠", Suit.SPADES), ("Hearts", Suit.HEARTS), ("d", Suit.DIAMONDS), ("club", Suit.CLUBS)])
def test_suits_by_name_letter_or_symbol(text: str, suit: Suit) -> None:
    assert [(t.kind, t.value) for t in tokenize(text)] == [("suit", suit)]


def test_hoodwink_bid_needs_its_seat_unless_the_speaker_fits() -> None:
    state = referee("hoodwink", ["ann", "bob", "cat"])
    for text in ("bob: KH", "bob KH", "KH for bob", "Bob: king of hearts", "@bob K♥"):
        assert read_action(state, text, seat=None) == (1, state.legal_actions(1)[[a.card for a in state.legal_actions(1)].index(KH)])
    seat, action = read_action(state, "KH", seat=None, speaker=2)
    assert seat == 2 and action.card == KH
    with pytest.raises(EntryError, match=r"could be an entry for ann, bob or cat: say whose, for example \"ann: KH\""):
        read_action(state, "KH", seat=None)


def test_parity_trump_call_by_suit_name_letter_or_symbol() -> None:
    state = referee("parity", ["ann", "bob"])
    caller = next(iter(state.awaiting()))
    for text in ("spades", "S", "s", "♠", "Spades ♠ trumps"):
        assert read_action(state, text, seat=None) == (caller, ChooseTrump(suit=Suit.SPADES))


def test_no_trump_refused_with_the_games_reason() -> None:
    state = referee("parity", ["ann", "bob"])
    with pytest.raises(EntryError, match="No trumps .* refused: .*no_trump option"):
        read_action(state, "no trumps", seat=None)
    state = referee("parity", ["ann", "bob"], no_trump=True)
    assert read_action(state, "NT", seat=None)[1] == ChooseTrump(suit=None)


def test_spec_calls_in_any_notation_and_predictions_by_code() -> None:
    state = referee("spec", ["ann", "bob"])
    first = next(iter(state.awaiting()))
    assert read_action(state, "KH", seat=None) == (first, Predict(prediction=KH))
    assert read_action(state, "joker", seat=None)[1] == Predict(prediction=Card.joker())
    for seat in range(2):  # both predictions in
        who = next(iter(state.awaiting()))
        state.apply(who, read_action(state, ["KH", "QS"][seat], seat=None)[1])
    for text in ("A1 KH", "A1: KH", "A1 K♥", "a1 kh", "A1: K♥", "A1 king of hearts"):
        assert read_action(state, text, seat=None)[1] == Call(cell="A1", call=KH)


def test_black_ace_and_queen_values_in_plain_ascii() -> None:
    state = referee("ninety_nine", ["ann", "bob", "cat"])
    for text in ("AS 12", "A♠ 12", "A♠ → 12", "as 12", "AS -> 12", "AS=12"):
        assert read_action(state, text, seat=None)[1] == PlayAs(play=card("AS"), value=12, sets_total=True)
    with pytest.raises(EntryError, match=r"could mean A♠ → 0, A♠ → 1.*say which"):
        read_action(state, "AS", seat=None)
    race = referee("obstacle_race", ["ann", "bob", "cat", "dan"], allow_negative=True)  # four: no starters
    minus = PlayAs(play=card("QS"), value=-3)
    for text in ("QS -3", "Q♠ as −3", "QS −3", "qs as -3", "queen of spades -3"):
        assert read_action(race, text, seat=None)[1] == minus
    assert read_action(race, "QS +3", seat=None)[1] == PlayAs(play=card("QS"), value=3)
    with pytest.raises(EntryError, match="could mean Q♠ as \\+3, Q♠ as −3"):
        read_action(race, "QS", seat=None)


def test_wit_and_reason_2_bare_number_is_the_value_never_a_position() -> None:
    state = referee("wit_and_reason_2", ["ann", "bob"])
    seat = next(iter(state.awaiting()))
    for value in range(1, 7):
        _, action = read_action(state, str(value), seat=None)
        assert isinstance(action, PlayCard) and action.play.rank is not None
        assert (1 if action.play.rank == 14 else int(action.play.rank)) == value
    # take all four Aces: now "2" is still the value 2, though it is first in the list
    for _ in range(4):
        who = next(iter(state.awaiting()))
        state.apply(who, read_action(state, "1", seat=None)[1])
    legal = state.legal_actions(next(iter(state.awaiting())))
    assert next(a.card.rank for a in legal if a.card is not None) == 2
    _, action = read_action(state, "2", seat=None)
    assert action.card is not None and action.card.rank == 2
    _, action = read_action(state, "#2", seat=None)
    assert action.card is not None and action.card.rank == 3  # a position only when written as one
    with pytest.raises(EntryError, match="1"):
        read_action(state, "1", seat=None)
    del seat


def test_trick_counts_are_numbers_not_positions() -> None:
    state = referee("parity", ["ann", "bob"])
    for _ in range(2):
        who = next(iter(state.awaiting()))
        state.apply(who, state.legal_actions(who)[0])
    assert read_action(state, "ann: 10", seat=None) == (0, TricksWon(tricks=10))
    assert read_action(state, "ann 10 tricks", seat=None) == (0, TricksWon(tricks=10))
    assert read_action(state, "10", seat=None, speaker=1) == (1, TricksWon(tricks=10))
    with pytest.raises(EntryError, match="could be an entry for ann or bob"):
        read_action(state, "10", seat=None)
    with pytest.raises(EntryError, match="16 tricks for ann, which is refused: A deal has 15 tricks"):
        read_action(state, "ann: 16", seat=None)


def test_online_refusal_gives_the_engines_reason() -> None:
    state = online("parity", ["ann", "bob"])
    while state.phase != "play":
        who = next(iter(state.awaiting()))
        state.apply(who, state.legal_actions(who)[0])
    leader = next(iter(state.awaiting()))
    state.apply(leader, state.legal_actions(leader)[0])
    seat = next(iter(state.awaiting()))
    legal = state.legal_actions(seat)
    led = legal[0].card
    assert led is not None
    hand = state.view(seat).hand
    off = [c for c in hand if PlayCard(play=c) not in legal]
    if off:
        with pytest.raises(EntryError, match=f"Read \"{off[0].code}\" as {off[0].short}, which is refused: You must follow suit"):
            read_action(state, off[0].code, seat=seat)
    with pytest.raises(EntryError, match="It is not your turn"):
        read_action(state, led.code, seat=1 - seat)
    assert read_action(state, led.name, seat=seat) == (seat, PlayCard(play=led))


def test_nothing_understood_shows_an_example_that_works() -> None:
    state = referee("spec", ["ann", "bob"])
    with pytest.raises(EntryError, match=r"Nothing in \"\?\?\" reads as an entry. For example: \"(\w+)\"") as info:
        read_action(state, "??", seat=None)
    example = info.value.message.rsplit('"', 2)[-2]
    read_action(state, example, seat=None)
    with pytest.raises(EntryError, match=r"read as frobnicate.*For example"):
        read_action(state, "frobnicate", seat=None)


def test_explicit_positions_only() -> None:
    state = referee("parity", ["ann", "bob"])
    seat = next(iter(state.awaiting()))
    assert read_action(state, "#1", seat=None) == (seat, state.legal_actions(seat)[0])
    with pytest.raises(EntryError, match="no entry #99"):
        read_action(state, "#99", seat=None)


def test_typed_forms_read_back_to_their_action() -> None:
    for game_id, players in (("spec", ["ann", "bob"]), ("ninety_nine", ["a", "b", "c"]), ("parity", ["a", "b"])):
        state = referee(game_id, players)
        for seat in state.actors():
            for action in state.legal_actions(seat)[:60]:
                if isinstance(action, PlayAs) and action.value % 7:
                    continue
                assert read_choice(state.legal_actions(seat), typed_form(action)) == action, typed_form(action)


def test_correction_choices_read_a_count_as_a_count() -> None:
    """``/correct 3 10`` on a trick count: 10 is the count 10, never the tenth choice (9 tricks)."""
    choices = [TricksWon(tricks=t) for t in range(16)]
    assert read_choice(choices, "10") == TricksWon(tricks=10)
    assert read_choice(choices, "#10") == TricksWon(tricks=9)
    assert read_choice(choices, "10 tricks") == TricksWon(tricks=10)
    with pytest.raises(EntryError, match=r'"16" \(read as 16\) is not one of the choices'):
        read_choice(choices, "16")


def test_labels_and_menu_paths_still_read() -> None:
    state = referee("jubilee", ["ann", "bob"])
    seat = next(iter(state.awaiting()))
    legal = state.legal_actions(seat)
    spade = next(a for a in legal if a.card is not None and a.card.suit == Suit.SPADES)
    assert spade.card is not None
    for text in (" / ".join(spade.choice_path()), spade.label(), f"{state.name(seat)} / {' / '.join(spade.choice_path())}"):
        assert read_action(state, text, seat=None) == (seat, spade)


def test_phrases_for_passes_busts_and_challenges() -> None:
    state = referee("ninety_nine", ["ann", "bob", "cat"])
    seat = next(iter(state.awaiting()))
    for _ in range(30):  # play up to a total where a Bust is believable
        if any(a.kind == "bust" for a in state.legal_actions(seat)):
            break
        high = [a for a in state.legal_actions(seat) if a.kind == "play" and a.card is not None and a.card.rank in (12, 13)]
        state.apply(seat, (high or state.legal_actions(seat))[0])
        seat = next(iter(state.awaiting()))
    assert any(a.kind == "bust" for a in state.legal_actions(seat))
    assert read_action(state, "bust", seat=None)[1].kind == "bust"
    spec = referee("spec", ["ann", "bob"], first_dealer=1)
    for text in ("KH", "QS", "A1 KH 10S", "A2 KH 10H"):  # A2 calls K♥ again: forbidden, but entered
        who, action = read_action(spec, text, seat=None)
        spec.apply(who, action)
    caller = spec.history[-1][0]  # call 2 was made by the second player; the other may challenge it
    assert read_action(spec, "challenge 2", seat=None) == (1 - caller, read_action(spec, "challenge", seat=None)[1])
    with pytest.raises(EntryError, match="Challenge call 2 for .*, which is refused: You cannot challenge your own call"):
        read_action(spec, f"{spec.name(caller)}: challenge", seat=None)


def test_a_name_that_is_also_a_card_word() -> None:
    state = referee("hoodwink", ["Jack", "Queenie", "Ace"])
    assert read_action(state, "Jack: KH", seat=None)[0] == 0
    assert read_action(state, "Ace KH", seat=None)[0] == 2
    assert read_action(state, "jack of hearts for Queenie", seat=None)[1].card == card("JH")
