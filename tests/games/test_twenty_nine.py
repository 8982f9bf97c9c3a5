"""Twenty-Nine: values, Tens removed, sides, the worked examples, refusals and playouts."""

from __future__ import annotations

import pytest

from games.adders.twenty_nine import (
    another_trick_possible,
    can_play,
    card_value,
    cards_run_out,
    cards_value,
    deal_winners,
    is_blocked,
    playable_cards,
    side_card_counts,
    side_layout,
    tens_to_remove,
)
from games.cards import card, full_pack, parse_cards


def test_values_and_pack_total() -> None:
    assert [card_value(card(c)) for c in ("AS", "2H", "9D", "10C", "JS", "QH", "KD")] == [1, 2, 9, 10, 1, 1, 1]
    assert sum(card_value(c) for c in full_pack()) == 232 == 8 * 29


@pytest.mark.parametrize(
    ("players", "tens", "each", "total", "tricks", "left"),
    [(2, 0, 26, 232, 8, 0), (3, 1, 17, 222, 7, 19), (4, 0, 13, 232, 8, 0), (5, 2, 10, 212, 7, 9),
     (6, 4, 8, 192, 6, 18), (7, 3, 7, 202, 6, 28), (8, 4, 6, 192, 6, 18)],
)
def test_tens_removed_table(players: int, tens: int, each: int, total: int, tricks: int, left: int) -> None:
    assert tens_to_remove(players) == tens
    assert (52 - tens) // players == each and (52 - tens) % players == 0
    assert 232 - 10 * tens == total
    assert divmod(total, 29) == (tricks, left)


def test_play_example_reaches_29() -> None:
    total = 0
    for code in ("7S", "9H", "KD", "10C", "2S"):
        assert can_play(total, card(code))
        total += card_value(card(code))
    assert total == 29


def test_pass_example() -> None:
    assert playable_cards(27, parse_cards("5S 6H 7D 8C")) == []
    assert playable_cards(27, parse_cards("AH")) == [card("AH")]
    assert playable_cards(28, parse_cards("3C")) == []
    assert playable_cards(28, parse_cards("QS")) == [card("QS")]


def test_block_example() -> None:
    hands = [parse_cards("5S"), parse_cards("6H"), parse_cards("9D"), parse_cards("10C")]
    assert is_blocked(28, hands)
    assert another_trick_possible(28, cards_value(c for h in hands for c in h))
    assert not is_blocked(28, [*hands, parse_cards("AS")])


def test_last_trick_not_played_with_three() -> None:
    # three players: after seven tricks 19 points remain, which can never make an eighth 29
    assert not another_trick_possible(0, cards_value(parse_cards("10S 9H")))
    assert another_trick_possible(0, cards_value(parse_cards("10S 9H KD 9C")))


def test_cards_run_out_early_only_with_tens_removed() -> None:
    # three players (one Ten out): 19 points left can never make another 29, so the deal stops
    assert cards_run_out(0, 19, tens_removed=1)
    assert not cards_run_out(0, 29, tens_removed=1)
    # the full pack: after a block-take 10 points left make no 29, but they are still played
    assert not cards_run_out(0, 10, tens_removed=0)
    assert not cards_run_out(20, 10, tens_removed=0)
    assert cards_run_out(10, 0, tens_removed=0)


def test_side_layouts() -> None:
    assert side_layout(4, "standard") == [[0, 2], [1, 3]]
    assert side_layout(6, "standard") == [[0, 3], [1, 4], [2, 5]]
    assert side_layout(8, "standard") == [[0, 4], [1, 5], [2, 6], [3, 7]]
    assert side_layout(6, "two_teams") == [[0, 2, 4], [1, 3, 5]]
    assert side_layout(8, "two_teams") == [[0, 2, 4, 6], [1, 3, 5, 7]]
    assert side_layout(3, "standard") == [[0], [1], [2]]
    assert side_layout(4, "none") == [[0], [1], [2], [3]]
    with pytest.raises(ValueError):
        side_layout(5, "pairs")


def test_majority_and_unplayed_cards() -> None:
    assert side_card_counts([20, 28], [2, 1]) == [22, 29]
    assert side_card_counts([20, 28], [2, 1], "ignore") == [20, 28]
    assert deal_winners([22, 29]) == [1]
    assert deal_winners([26, 26]) == []
    assert deal_winners([20, 20, 11]) == []
    assert deal_winners([20, 19, 12]) == [0]


# --- whole matches -------------------------------------------------------------------------------

from collections.abc import Sequence  # noqa: E402
from typing import Any  # noqa: E402

from games.adders.twenty_nine import GAME, TwentyNineState  # noqa: E402
from games.cards import Card, Rank, sort_hand  # noqa: E402
from games.counting import stack_deck  # noqa: E402
from games.engine import IllegalAction, PlayCard, SetupError  # noqa: E402
from games.simulate import play_match  # noqa: E402
from tests.playout import run_playouts  # noqa: E402

NESW = ["N", "E", "S", "W"]


def stack(hands: Sequence[str], size: int) -> list[Card]:
    """A pack order dealing hands that start with the cards named (from the dealer's left)."""
    return stack_deck(full_pack(), [parse_cards(h) for h in hands], hand_size=size)


def start(options: dict[str, Any] | None = None, players: Sequence[str] = NESW,
          deck: list[Card] | None = None) -> TwentyNineState:
    state = GAME.start(players, {"first_dealer": len(players), **(options or {})}, seed=3, deck=deck)
    assert isinstance(state, TwentyNineState)
    return state


def position(state: TwentyNineState, hands: Sequence[str], total: int) -> None:
    """Put the deal in a position from the rules file: these hands, this total, first seat to play."""
    state.hands = [sort_hand(parse_cards(h)) for h in hands]
    state.total = total


def play(state: TwentyNineState, seat: int, code: str) -> None:
    state.apply(seat, PlayCard(play=card(code)))


def test_worked_example_trick() -> None:
    state = start(deck=stack(["7S 2S", "9H", "KD", "10C"], 13))
    assert state.awaiting() == {0}
    for seat, code, total in [(0, "7S", 7), (1, "9H", 16), (2, "KD", 17), (3, "10C", 27)]:
        play(state, seat, code)
        assert state.total == total
    play(state, 0, "2S")
    assert state.total == 0 and state.pile == []
    assert state.won[0] == parse_cards("7S 9H KD 10C 2S")  # the 5-card pile, to N and S
    assert state.won[1] == [] and state.awaiting() == {0}
    assert "N and S" in state.view(None).notes[0]


def test_pass_example_in_play() -> None:
    state = start()
    position(state, ["2C QS", "5S 6H 7D 8C", "AH", "3C"], 25)
    play(state, 0, "2C")
    assert state.total == 27 and state.awaiting() == {2}  # E cannot play and passes
    assert state.recent[-1].seat == 1 and state.recent[-1].card is None
    play(state, 2, "AH")
    assert state.total == 28 and state.awaiting() == {0}  # W passes with the 3
    play(state, 0, "QS")
    assert state.won[0] == parse_cards("2C AH QS") and state.total == 0
    assert state.awaiting() == {1}  # N has no card left: E, next in turn, leads


def block_position(options: dict[str, Any] | None = None) -> TwentyNineState:
    state = start(options)
    position(state, ["2C 5S", "6H", "9D", "10C"], 26)
    state.won = [parse_cards("KS KH KC"), parse_cards("QS")]
    return state


def test_block_ends_the_deal() -> None:
    state = block_position()
    play(state, 0, "2C")  # 28: nobody can add to it
    assert any(e.kind == "blocked" for e in state.log)
    assert state.deal_no == 2
    # N-S: 3 won + N's 5 and S's 9 still held = 5; E-W: 1 + 2 = 3
    assert state.scores == [1, 0, 1, 0]
    assert "N and S 5, E and W 3" in next(e.text for e in state.log if e.kind == "deal_score")


def test_block_unplayed_ignored() -> None:
    state = block_position({"unplayed": "ignore", "match_scoring": "cards"})
    play(state, 0, "2C")
    assert state.scores == [3, 1, 3, 1]


def test_block_last_player_takes() -> None:
    state = block_position({"on_block": "last_player_takes"})
    play(state, 0, "2C")
    assert state.deal_no == 1 and state.total == 0 and state.pile == []
    assert state.won[0] == parse_cards("KS KH KC 2C")  # what N-S had, and the pile
    assert state.awaiting() == {0}  # N played last, took the pile and leads


def test_last_player_takes_full_pack_plays_every_card() -> None:
    """The rules file's block (28, with 5, 6, 9 and 10 left in the hands) under last_player_takes
    with four players: nothing was removed, so play goes on after each block-take until every
    card is played, though the cards left can no longer make a 29."""
    state = block_position({"on_block": "last_player_takes", "unplayed": "ignore", "match_scoring": "cards"})
    play(state, 0, "2C")  # 28: blocked, N played last and takes the pile
    assert state.won[0] == parse_cards("KS KH KC 2C") and state.awaiting() == {0}
    play(state, 0, "5S")
    play(state, 1, "6H")
    play(state, 2, "9D")  # 20; W's Ten does not fit: blocked again, S takes
    assert state.deal_no == 1, "the deal goes on: W still holds a card"
    assert state.won[0] == parse_cards("KS KH KC 2C 5S 6H 9D")
    assert state.total == 0 and state.awaiting() == {3}  # S has no card left: W leads
    assert not any(e.kind == "deal_end" for e in state.log)
    play(state, 3, "10C")  # the last card: the deal ends and W, who played it, takes it
    assert "All the cards have been played." in [e.text for e in state.log]
    assert state.deal_no == 2
    assert state.scores == [7, 2, 7, 2]  # N-S 3 + 1 + 3, E-W 1 + the Ten (unplayed cards would not count)


def test_last_player_takes_with_tens_removed_stops_early() -> None:
    """With three players (a Ten removed) the deal still stops once no further 29 can be made,
    block-take or not: the cards left stay in their holders' hands."""
    state = start({"on_block": "last_player_takes"}, players=NESW[:3])
    position(state, ["2C 5S", "6H", "9D 10C"], 26)
    play(state, 0, "2C")  # 28: blocked, N takes; the 30 points held could still make 29
    assert state.deal_no == 1 and state.awaiting() == {0}
    play(state, 0, "5S")
    play(state, 1, "6H")
    play(state, 2, "9D")  # 20; blocked, S takes: 10 left cannot make 29, so the deal ends
    assert "The cards left cannot make another 29, so the deal ends here." in [e.text for e in state.log]
    assert state.deal_no == 2


def test_last_trick_not_played() -> None:
    state = start(players=NESW[:3])
    assert len(state.set_aside) == 1 and state.set_aside[0].rank is Rank.TEN
    assert [len(h) for h in state.hands] == [17, 17, 17]
    position(state, ["9C 5D", "4H", "6S"], 20)
    play(state, 0, "9C")  # 29; the 15 points left can never make another 29
    assert state.deal_no == 2
    event = next(e for e in state.log if e.kind == "deal_score")
    assert "N 2, E 1, S 1; N wins the deal" in event.text  # the pile and the Five held


@pytest.mark.parametrize(("players", "tens"), [(2, 0), (3, 1), (4, 0), (5, 2), (6, 4), (7, 3), (8, 4)])
def test_deal_sizes(players: int, tens: int) -> None:
    state = start(players=[f"P{i}" for i in range(players)])
    assert len(state.set_aside) == tens and all(c.rank is Rank.TEN for c in state.set_aside)
    assert {len(h) for h in state.hands} == {(52 - tens) // players}


def test_refusals() -> None:
    state = start()
    position(state, ["9C 3D", "4H", "6S", "KC"], 25)
    before = state.fingerprint()
    with pytest.raises(IllegalAction, match="from 25 to 34, past 29"):
        state.apply(0, PlayCard(play=card("9C")))
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(1, PlayCard(play=card("4H")))
    with pytest.raises(IllegalAction, match="do not hold"):
        state.apply(0, PlayCard(play=card("AS")))
    assert state.fingerprint() == before


def test_setup_refusals() -> None:
    with pytest.raises(SetupError, match="Partnerships need 4, 6 or 8 players"):
        GAME.start(["a", "b", "c", "d", "e"], {"teams": "pairs"})
    with pytest.raises(SetupError, match="Partnerships need 4, 6 or 8 players"):
        GAME.start(["a", "b"], {"teams": "two_teams"})
    with pytest.raises(SetupError, match="teams"):
        GAME.options({"teams": "threes"})


@pytest.mark.parametrize(
    ("players", "options", "teams"),
    [
        (4, {}, [[0, 2], [1, 3]]),
        (6, {}, [[0, 3], [1, 4], [2, 5]]),
        (6, {"teams": "two_teams"}, [[0, 2, 4], [1, 3, 5]]),
        (8, {"teams": "two_teams"}, [[0, 2, 4, 6], [1, 3, 5, 7]]),
        (4, {"teams": "none"}, None),
        (5, {}, None),
    ],
)
def test_match_sides(players: int, options: dict[str, Any], teams: list[list[int]] | None) -> None:
    state = play_match(GAME, players, options, seed=5)
    out = state.outcome
    assert out is not None and out.teams == teams
    for side in teams or []:
        assert len({out.scores[s] for s in side}) == 1 and len({out.ranks[s] for s in side}) == 1
    assert state.deal_no == players
    assert max(out.scores) <= players


def test_cards_scoring_counts_every_card() -> None:
    state = play_match(GAME, 3, {"match_scoring": "cards", "rounds": 2}, seed=11)
    assert state.outcome is not None and state.deal_no == 6
    # each deal counts the 51 cards dealt, less the unfinished piles left on the table at blocks
    assert sum(state.outcome.scores) <= 6 * 51


@pytest.mark.parametrize("players", range(2, 9))
def test_playouts_every_count(players: int) -> None:
    # the first matches of a run are checked at every position; test_many_playouts (slow) plays more
    run_playouts(GAME, players, matches=2 if players < 5 else 1)


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (4, {"teams": "none", "unplayed": "ignore"}),
        (4, {"on_block": "last_player_takes", "match_scoring": "cards"}),
        (3, {"on_block": "last_player_takes", "unplayed": "ignore"}),
        (6, {"teams": "two_teams", "match_scoring": "cards", "on_block": "last_player_takes"}),
        (2, {"rounds": 2}),
    ],
)
def test_playouts_options(players: int, options: dict[str, Any]) -> None:
    run_playouts(GAME, players, options, matches=1)


@pytest.mark.slow
@pytest.mark.parametrize("players", range(2, 9))
def test_many_playouts(players: int) -> None:
    run_playouts(GAME, players, matches=30, deep_every=15)
    run_playouts(GAME, players, {"on_block": "last_player_takes", "unplayed": "ignore"}, matches=10)
    run_playouts(GAME, players, {"match_scoring": "cards", "rounds": 2}, matches=5)
    if players in (6, 8):
        run_playouts(GAME, players, {"teams": "two_teams"}, matches=10)
