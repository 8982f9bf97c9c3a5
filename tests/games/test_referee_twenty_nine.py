"""Twenty-Nine refereed: the rules file's trick, pass and block examples entered, the Tens taken
out, the end of a deal, sides and the match."""

from __future__ import annotations

from games.engine import Pass
from tests.games.referee_adders_support import play, refused, start, texts

N, E, S, W = 0, 1, 2, 3
A, B = 0, 1
FOUR = ["N", "E", "S", "W"]


def test_trick_example() -> None:
    state = start("twenty_nine", FOUR, first_dealer=4)  # W deals, N leads
    assert refused(state, N, Pass()) == "N cannot be stuck now: with the total at 0, every card could be played."
    play(state, "7S", "9S", "KS", "TS", "2S")
    assert "N makes 29 and takes the 5 cards of the pile." in texts(state)
    assert state.total == 0 and state.to_play == N and [len(w) for w in state.deal.won] == [5, 0]


def test_pass_example() -> None:
    state = start("twenty_nine", FOUR, first_dealer=4)
    play(state, "TS", "TH", "3S", "2S", "2H")  # N makes 27
    assert state.total == 27 and state.to_play == E
    assert refused(state, E, "5S") == "That would take the total from 27 to 32, past 29."
    state.apply(E, Pass())
    play(state, "AS")
    state.apply(W, Pass())
    play(state, "QS")
    assert "N makes 29 and takes the 7 cards of the pile." in texts(state)
    assert [len(w) for w in state.deal.won] == [7, 0] and state.to_play == N


def test_passes_must_fit_the_cards_together() -> None:
    """At 28 only the 33 unseen cards worth 2 or more are unplayable: W and N may both hold no card
    of 1, but then E cannot (37 cards between the three is too many)."""
    state = start("twenty_nine", FOUR, first_dealer=4)
    play(state, "TS", "TH", "8S")  # 28: W to play
    for seat in (W, N):
        state.apply(seat, Pass())
    assert refused(state, E, Pass()) == (
        "E cannot be stuck now: only 33 of the cards not yet seen could not be played at 28, and the "
        "players who passed already hold 25 of them; E holds 12 more."
    )


def test_block_found_by_the_bot() -> None:
    """The rules file's block: at 28 every card left is worth 2 or more (here 5, 6, 9 and 10)."""
    state = start("twenty_nine", ["A", "B"])
    tricks = [
        ["TH", "TD", "9H"], ["TC", "9D", "9C", "AS"], ["8S", "8H", "8D", "5H"], ["8C", "7S", "7H", "7D"],
        ["7C", "6H", "6D", "6C", "4S"], ["5D", "5C", "4H", "4D", "4C", "3S", "3H", "AH"],
    ]
    for trick in tricks:
        play(state, *trick)
    play(state, "3D", "3C", "2S", "2H", "2D", "2C", "AD", "AC", "KS", "KH", "KD", "KC", "QS", "QH", "QD", "QC", "JS", "JH", "JD")
    assert state.total == 27 and state.deal_no == 1
    play(state, "JC")  # 28, and nobody can hold a card that fits: the bot passes for both
    assert "Nobody can add to the pile without passing 29, so the deal ends." in texts(state)
    assert state.deal_no == 2


def test_tens_taken_out_are_counted() -> None:
    state = start("twenty_nine", ["A", "B", "C"])  # one Ten out: 17 cards each
    assert "Take 1 Ten out of the pack (any suits) before dealing." in texts(state)
    play(state, "TS", "TH", "9S")  # 29
    play(state, "TD", "2S")
    assert refused(state, state.to_play, "TC") == "Only 3 Tens are in this deal (1 taken out), and all of them have been played."


def test_the_deal_ends_when_no_further_29_can_be_made() -> None:
    state = start("twenty_nine", ["A", "B"])  # 26 each, 232 = 8 x 29
    tricks = [
        ["TS", "TH", "9S"], ["TD", "TC", "9H"], ["9D", "9C", "8S", "3S"], ["8H", "8D", "8C", "5S"],
        ["7S", "7H", "7D", "7C", "AS"], ["6S", "6H", "6D", "6C", "5H"], ["5D", "5C", "4S", "4H", "4D", "4C", "3H"],
    ]
    for trick in tricks:
        play(state, *trick)
    assert sum(len(w) for w in state.deal.won) == 31 and state.deal_no == 1
    play(state, "2S", "2H", "2D", "2C", "3D", "3C", "AH", "AD", "AC", "KS", "KH", "KD", "KC", "QS", "QH", "QD", "QC", "JS", "JH")
    assert state.deal_no == 1 and state.total == 27
    play(state, "JD", "JC")  # 29: the last card makes the 8th trick
    assert "All the cards have been played." in texts(state)
    assert "Cards taken: A 25, B 27; B wins the deal." in texts(state)
    assert state.deal_no == 2 and state.scores == [0, 1]


def test_last_player_takes_plays_every_card_of_a_full_pack() -> None:
    """The block above under on_block=last_player_takes: with two players no Ten is removed, so
    play goes on after each block-take until every card is played, though the cards left (5, 6,
    9 and 10) can make no further 29."""
    state = start("twenty_nine", ["A", "B"], on_block="last_player_takes", unplayed="ignore")
    tricks = [
        ["TH", "TD", "9H"], ["TC", "9D", "9C", "AS"], ["8S", "8H", "8D", "5H"], ["8C", "7S", "7H", "7D"],
        ["7C", "6H", "6D", "6C", "4S"], ["5D", "5C", "4H", "4D", "4C", "3S", "3H", "AH"],
    ]
    for trick in tricks:
        play(state, *trick)
    play(state, "3D", "3C", "2S", "2H", "2D", "2C", "AD", "AC", "KS", "KH", "KD", "KC", "QS", "QH", "QD", "QC", "JS", "JH", "JD")
    play(state, "JC")  # 28: nobody can add to it, and A played last
    assert "A played last and takes the 20 cards of the pile." in texts(state)
    assert state.total == 0 and state.to_play == A and [len(w) for w in state.deal.won] == [33, 15]
    play(state, "5S", "6S", "9S")  # 20: only the Ten is unseen and it does not fit, so the bot passes for B
    assert "A played last and takes the 3 cards of the pile." in texts(state)
    assert state.deal_no == 1 and state.to_play == B, "B still holds a card: the deal goes on"
    assert "The cards left cannot make another 29, so the deal ends here." not in texts(state)
    play(state, "TS")  # the last card; B played it last and takes it
    assert "All the cards have been played." in texts(state)
    assert "Cards taken: A 36, B 16; A wins the deal." in texts(state)
    assert state.deal_no == 2 and state.scores == [1, 0]


def test_the_listing_of_plays_knows_when_no_ten_is_left() -> None:
    """With one Ten taken out and the other three played, no listing of plays offers a Ten: the
    referee's own and the machinery's the online game uses (the rules' quick list included)."""
    from games.counting import CountingState

    state = start("twenty_nine", ["A", "B", "C"])
    play(state, "TS", "TH", "9S")
    play(state, "TD", "2S")
    seat = state.to_play
    assert seat is not None
    for plays in (state.legal_plays(seat), CountingState.legal_plays(state, seat)):
        assert plays and not [a for a in plays if a.card is not None and a.card.rank.name == "TEN"]


def test_the_rules_are_read_only_and_survive_a_snapshot() -> None:
    """The values a table's rules read are its own and cannot be changed; a snapshot keeps them."""
    import pickle

    import pytest

    from games.cards import Rank

    state = start("twenty_nine", ["A", "B"])
    other = start("twenty_nine", ["A", "B"])
    with pytest.raises(TypeError):
        state.rules.values[Rank.TEN] = 0  # type: ignore[index]
    assert state.rules.values is not other.rules.values and state.rules.values == other.rules.values
    again = pickle.loads(state.snapshot())
    assert dict(again.rules.values) == dict(state.rules.values) and again.clone().rules == state.rules
    with pytest.raises(TypeError):
        again.rules.values[Rank.TEN] = 0  # type: ignore[index]
