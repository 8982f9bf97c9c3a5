"""Entries a real table can keep up with: series (a round, a Spec turn) in one entry, forced counts
filled in, results-only modes, the dealer named, and the first_dealer option."""

from __future__ import annotations

from typing import Any

import pytest

from games.cards import card
from games.engine import GameState, IllegalAction, PlayCard, SetupError
from games.notation import EntryError, read_action
from games.referee.series import Series
from games.registry import CATALOGUE, get_game, referee_game


def referee(game_id: str, players: list[str], **options: Any) -> GameState[Any]:
    return referee_game(game_id).start(players, options, seed=11)


def enter(state: GameState[Any], text: str, speaker: int | None = None) -> None:
    seat, action = read_action(state, text, seat=None, speaker=speaker)
    state.apply(seat, action)


# --- the first dealer -------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", ["parity", "hundred", "spec"])
def test_first_dealer_blank_means_random_and_a_seat_out_of_range_is_reported_before_start(game_id: str) -> None:
    for game in (get_game(game_id), referee_game(game_id)):
        assert game.parse_options(["first_dealer="]).first_dealer is None
        assert game.parse_options(["first_dealer=random"]).first_dealer is None
        options = game.parse_options(["first_dealer=5"])
        with pytest.raises(SetupError, match="first_dealer must be a seat from 1 to 2"):
            game.check_players(2, options)
        assert "blank" in next(f for f in game.option_fields() if f.name == "first_dealer").description


def test_every_referee_view_names_the_dealer_or_the_starter() -> None:
    for module in CATALOGUE:  # the served games (tests may register toys besides)
        ref = referee_game(module.rpartition(".")[2])
        n = 2 if 2 in ref.player_counts else ref.player_counts[0]
        names = ["Ann", "Bob", "Cat", "Dan"][:n]
        state = ref.start(names, {}, seed=3)  # a random first dealer
        lines = state.view(None).text_lines()
        dealer = getattr(state, "dealer", None)
        assert dealer is not None
        said = f"Dealer: {names[dealer]}" in lines or any(f"started by {names[dealer]}" in line for line in lines)
        assert said, (ref.id, lines)


# --- series ---------------------------------------------------------------------------------------


def test_a_round_in_one_entry_is_one_action_that_replays_and_undoes() -> None:
    game = referee_game("hundred")
    state = game.start(["Ann", "Bob", "Cat"], {"first_dealer": 1}, seed=1)
    enter(state, "7S 8S")  # the two cards left over
    seat, action = read_action(state, "KH 7H QH", seat=None)
    assert seat == 1 and isinstance(action, Series)
    assert action.entries == (PlayCard(play=card("KH")), PlayCard(play=card("7H")), PlayCard(play=card("QH")))
    before = state.total
    state.apply(seat, action)
    assert state.total == before + 4 + 7 + 3 and state.to_play == 1
    data = game.action_to_json(action)
    assert data == {
        "kind": "series",
        "entries": [{"kind": "play", "play": "KH"}, {"kind": "play", "play": "7H"}, {"kind": "play", "play": "QH"}],
        "seats": [1, 2, 0],
    }
    assert game.action_from_json(data) == action
    again = game.replay(game.record(state))
    assert again.fingerprint() == state.fingerprint()


def test_a_series_is_checked_whole_and_refused_with_the_games_reason() -> None:
    state = referee("hundred", ["Ann", "Bob", "Cat"], first_dealer=1)
    enter(state, "7S 8S")
    before = state.fingerprint()
    with pytest.raises(EntryError, match=r"Read \"KH KH 9D\" as Bob K♥; then K♥ 9♦, which is refused: K♥ for Cat: K♥ has already been played this deal, by Bob"):
        read_action(state, "KH KH 9D", seat=None)
    bad = Series(entries=(PlayCard(play=card("KH")), PlayCard(play=card("KH"))))
    series_type = next(k for k in state.game.action_types if issubclass(k, Series))
    with pytest.raises(IllegalAction, match="Entry 2 of the line, K♥ for Cat: K♥ has already been played this deal, by Bob"):
        state.apply(1, series_type(entries=bad.entries))
    assert state.fingerprint() == before


def test_a_spec_turn_in_one_entry() -> None:
    state = referee("spec", ["Ann", "Bob"], first_dealer=1)
    enter(state, "KH QS")  # both predictions, in turn
    assert state.phase == "call"
    caller = state.to_move
    seat, action = read_action(state, "A1 KH 10S", seat=None)
    assert seat == caller and isinstance(action, Series) and [e.kind for e in action.entries] == ["call", "turned_up"]
    state.apply(seat, action)
    assert state.deal.face_up[0] and state.deal.grid[0] == card("10S")
    for text in ("A2: K♥ 10H", "a3 k♥ ten of clubs"):
        enter(state, text)
    assert sum(state.deal.face_up) == 3
    with pytest.raises(EntryError, match="The 10♠ is already face up at A1"):
        read_action(state, "B1 KH 10S", seat=None)


# --- forced counts --------------------------------------------------------------------------------


def test_the_last_trick_count_is_filled_in() -> None:
    state = referee("hoodwink", ["Ann", "Bob", "Cat"], first_dealer=1)
    for text in ("Ann: AH", "Bob: 9H", "Cat: 7S"):
        enter(state, text)
    enter(state, "Ann: 4")
    enter(state, "5", speaker=2)  # Cat's own count; Bob's 2 is the only one left
    assert state.deal_no == 2 and state.counts.counts == [None, None, None]
    assert any(e.text == "Bob took the other 2 (filled in: the counts add up to 11)." for e in state.log)


# --- results only ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game_id", "players", "entries", "scores"),
    [
        ("hundred", ["Ann", "Bob"], ["Bob made"], [0, 1]),
        ("hundred", ["Ann", "Bob"], ["Ann: jumped"], [-1, 0]),
        ("jubilee", ["Ann", "Bob", "Cat"], ["Ann: 30", "Bob -5", "Cat 0"], [30, -5, 0]),
        ("obstacle_race", ["Ann", "Bob"], ["Ann 3", "Bob: 1"], [3, 1]),
        ("twenty_nine", ["Ann", "Bob"], ["Ann: 30", "Bob 22"], [1, 0]),
    ],
)
def test_results_only_modes(game_id: str, players: list[str], entries: list[str], scores: list[int]) -> None:
    state = referee(game_id, players, entries="result")
    for text in entries:
        enter(state, text)
    assert state.scores == scores and state.deal_no == 2


def test_results_only_refusals_say_why() -> None:
    state = referee("obstacle_race", ["Ann", "Bob"], entries="result")
    with pytest.raises(EntryError, match="Points for a deal run from -15 to 20: 40 is not possible"):
        read_action(state, "Ann: 40", seat=None)
    enter(state, "Ann: 2")
    with pytest.raises(EntryError, match="Ann's points for this deal are already entered"):
        read_action(state, "Ann: 3", seat=None)
    state = referee("jubilee", ["Ann", "Bob"], entries="result")
    with pytest.raises(EntryError, match="in steps of 5: 12 is not possible"):
        read_action(state, "Ann 12", seat=None)
    state = referee("twenty_nine", ["Ann", "Bob", "Cat", "Dan"], entries="result")
    with pytest.raises(EntryError, match="enter them for Ann"):
        read_action(state, "Cat: 20", seat=None)
    with pytest.raises(EntryError, match="KH"):
        read_action(state, "KH", seat=None)


def test_obstacle_race_results_keep_the_score_floor() -> None:
    state = referee("obstacle_race", ["Ann", "Bob"], entries="result", score_floor=True)
    enter(state, "Ann: -2")
    enter(state, "Bob: 1")
    assert state.scores == [0, 1]


def test_a_line_may_name_each_entrys_player() -> None:
    state = referee("hoodwink", ["Ann", "Bob", "Cat"], first_dealer=1)
    seat, action = read_action(state, "Ann AH Bob 9H Cat 7S", seat=None)
    assert seat == 0 and isinstance(action, Series) and action.seats == (0, 1, 2)
    state.apply(seat, action)
    assert state.stage == "counts" and state.pending == [card("AH"), card("9H"), card("7S")]  # type: ignore[attr-defined]
    with pytest.raises(EntryError, match="several players may enter there: name the player first"):
        read_action(state, "4 5", seat=None)
    enter(state, "Ann: 4, Bob: 5, Cat: 2")  # the third count, filled in already, changes nothing
    assert state.deal_no == 2 and state.scores == [4, 5, 12]
    game = state.game
    assert game.replay(game.record(state)).fingerprint() == state.fingerprint()


def test_a_line_is_entered_for_its_first_player() -> None:
    state = referee("parity", ["Ann", "Bob"], first_dealer=1)  # Ann deals: Bob calls trumps first
    seat, action = read_action(state, "hearts odd", seat=None)
    assert seat == 1 and isinstance(action, Series) and action.seats == (1, 0)
    with pytest.raises(IllegalAction, match="entered for the player of its first entry"):
        state.apply(0, action)
    state.apply(seat, action)
    enter(state, "Bob 9")
    assert state.scores == [0, 19]


@pytest.mark.parametrize("game_id", ["wit_and_reason_1", "wit_and_reason_2"])
def test_races_results_only(game_id: str) -> None:
    state = referee(game_id, ["Ann", "Bob"], entries="result", rounds=2)
    enter(state, "Ann won")
    enter(state, "Bob: won")
    if game_id == "wit_and_reason_1":
        enter(state, "draw")  # stalemate=draw: neither could reach 31
    else:
        with pytest.raises(EntryError, match="not an entry"):  # a race of this game is never drawn
            read_action(state, "draw", seat=None)
        enter(state, "Ann won")
    enter(state, "Ann won")
    assert state.is_over and state.scores == ([2, 1] if game_id == "wit_and_reason_1" else [3, 1])
    assert not any("red cards" in e.text for e in state.log)
    assert state.game.replay(state.game.record(state)).fingerprint() == state.fingerprint()
