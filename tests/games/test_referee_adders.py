"""The eight adding-up games in referee mode, together: whole matches mirrored from the online
game (each card it plays entered as it is played, every pass and bust the table would enter), with
the same totals and scores at every step and the same outcome; random entries checking the
invariants; the registry. The worked examples of each rules file are in the per-game files."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from bot.tables import TableError, TableService, User
from games.counting import CountingState
from games.engine import Action, Game, GameState, IllegalAction, PlayCard
from games.players import RandomPlayer
from games.referee.counting import STARTERS, RefereeCounting, starter_entry
from games.referee.ninety_nine import Bust
from games.registry import get_game, referee_game
from tests.bot.conftest import db_path, notifier, service  # noqa: F401  (fixtures)
from tests.games.mirror import mirror as mirror_facts
from tests.games.referee_adders_support import entry
from tests.playout import run_playouts

ADDERS = [
    "fifty_one",
    "hundred",
    "jubilee",
    "ninety_nine",
    "obstacle_race",
    "twenty_nine",
    "wit_and_reason_1",
    "wit_and_reason_2",
]


def fingerprint(state: GameState[Any]) -> tuple[str, list[tuple[int, list[Action]]]]:
    """What a player can see and do: the public view and every seat's entries."""
    return state.view(None).model_dump_json(), [(s, state.legal_actions(s)) for s in range(state.n)]


def refused(state: GameState[Any], seat: int, action: Action) -> str:
    """Apply an entry that must be refused; the state must not change."""
    before = fingerprint(state)
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)
    assert fingerprint(state) == before
    return str(info.value)


@pytest.mark.parametrize("game_id", ADDERS)
def test_registered_with_the_online_id(game_id: str) -> None:
    ref, online = referee_game(game_id), get_game(game_id)
    assert ref is not online and ref.id == online.id
    assert issubclass(ref.Options, online.Options) and ref.player_counts == online.player_counts
    assert "Referee mode" in ref.summary


# --- whole matches mirrored from the online game ---------------------------------------------------


def catch_up(real: CountingState[Any], ref: CountingState[Any]) -> None:
    """Make the entries the online game made by itself: the starters of a new deal, and a pass or
    bust for each seat it passed over (the referee cannot know that hand, so the table says)."""
    while not ref.is_over:
        if isinstance(ref, RefereeCounting) and ref.entry_phase == STARTERS:
            assert ref.deal_no == real.deal_no
            ref.apply(ref.dealer, starter_entry(real.pile[len(ref.starters)]))
            continue
        if not real.is_over and ref.deal_no == real.deal_no and ref.to_play == real.to_play:
            return
        assert isinstance(ref, RefereeCounting), "the races know both hands: no entry is missing"
        assert ref.stuck_entry is not None and ref.to_play is not None
        ref.apply(ref.to_play, ref.stuck_entry)


def mirror(game_id: str, players: int, options: Mapping[str, Any], seed: int, check_refusals: bool = False) -> GameState[Any]:
    names = [f"P{i + 1}" for i in range(players)]
    real = get_game(game_id).start(names, options, seed=seed)
    ref = referee_game(game_id).start(names, options, seed=seed)
    assert isinstance(real, CountingState) and isinstance(ref, CountingState)
    rng = random.Random(seed)
    chooser = RandomPlayer()
    catch_up(real, ref)
    while not real.is_over:
        seat = real.to_play
        assert seat is not None and ref.awaiting() == {seat}
        action = chooser.choose(real.view(seat), real.legal_actions(seat), rng)
        if check_refusals:
            refuse_seen_cards(real, ref, seat)
        real.apply(seat, action)
        ref.apply(seat, action)
        catch_up(real, ref)
        assert (ref.scores, ref.deal_no) == (real.scores, real.deal_no)
        if not real.is_over:
            assert ref.total == real.total
    assert ref.is_over and ref.outcome == real.outcome
    again = referee_game(game_id).replay(referee_game(game_id).record(ref))
    assert again.fingerprint() == ref.fingerprint()
    return ref


def refuse_seen_cards(real: CountingState[Any], ref: GameState[Any], seat: int) -> None:
    """A card already on the pile cannot be entered again (unless the pack has another copy)."""
    for card in real.pile[-2:]:
        if not isinstance(ref, RefereeCounting) or card in ref.unseen:
            continue
        msg = refused(ref, seat, PlayCard(play=card))
        assert "already been played" in msg or "turned up" in msg or "all of them" in msg


MIRRORS: list[tuple[str, int, dict[str, Any], int]] = [
    ("fifty_one", 3, {}, 6),
    ("fifty_one", 2, {"values": "german", "match": "lives", "floor_zero": True}, 4),
    ("fifty_one", 5, {"rounds": 2}, 2),
    ("hundred", 3, {}, 6),
    ("hundred", 2, {"second_point_200": True}, 4),
    ("hundred", 6, {}, 2),
    ("jubilee", 3, {}, 2),
    ("jubilee", 2, {"zero_is_jubilee": True, "joker_on_jubilee": "score", "club_ace_value": 1}, 1),
    ("ninety_nine", 4, {}, 4),
    ("ninety_nine", 3, {"stock_out": "play_out", "mode": "last_survivor", "below_zero": "forbid"}, 2),
    ("ninety_nine", 13, {"nine_on_99": "forbid", "red_ace_value": 1}, 1),
    ("obstacle_race", 3, {}, 3),
    ("obstacle_race", 4, {"finish_bonus": True, "score_floor": True, "ace_value": 1}, 3),
    ("obstacle_race", 2, {"allow_negative": True, "play_off_ties": True}, 2),
    ("twenty_nine", 4, {}, 2),
    ("twenty_nine", 3, {"on_block": "last_player_takes", "match_scoring": "cards"}, 2),
    ("twenty_nine", 6, {"teams": "two_teams", "unplayed": "ignore"}, 1),
    ("wit_and_reason_1", 2, {"rounds": 2}, 8),
    ("wit_and_reason_1", 2, {"stalemate": "last_player_wins"}, 8),
    ("wit_and_reason_2", 2, {"rounds": 2}, 8),
]


@pytest.mark.parametrize(("game_id", "players", "options", "matches"), MIRRORS)
def test_whole_matches_mirrored_from_the_online_game(
    game_id: str, players: int, options: dict[str, Any], matches: int
) -> None:
    for m in range(matches):
        mirror(game_id, players, options, seed=200 + m, check_refusals=m == 0)


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "players", "options", "matches"), MIRRORS)
def test_many_mirrored_matches(game_id: str, players: int, options: dict[str, Any], matches: int) -> None:
    for m in range(matches * 15):
        mirror(game_id, players, options, seed=9000 + m)


# --- random entries ------------------------------------------------------------------------------

PLAYOUTS: list[tuple[str, int, dict[str, Any], int]] = [
    ("fifty_one", 3, {}, 3),
    ("fifty_one", 2, {"values": "german", "match": "lives"}, 3),
    ("hundred", 3, {"second_point_200": True}, 3),
    ("jubilee", 4, {}, 1),
    ("ninety_nine", 3, {"stock_out": "play_out"}, 1),
    ("obstacle_race", 5, {"allow_negative": True}, 2),
    ("twenty_nine", 5, {"on_block": "last_player_takes"}, 1),
    ("wit_and_reason_1", 2, {}, 4),
    ("wit_and_reason_2", 2, {}, 4),
    ("fifty_one", 4, {"entries": "result", "match": "lives"}, 3),
    ("ninety_nine", 5, {"entries": "result", "mode": "last_survivor"}, 3),
]


@pytest.mark.parametrize(("game_id", "players", "options", "matches"), PLAYOUTS)
def test_random_entries(game_id: str, players: int, options: dict[str, Any], matches: int) -> None:
    """Random entries (passes and busts included wherever they are believable) keep every invariant."""
    game: Game[Any] = referee_game(game_id)
    for state in run_playouts(game, players, options, matches=matches, deep_every=25, sample_legal=4):
        assert state.outcome is not None and state.awaiting() == frozenset()
        if isinstance(state, RefereeCounting):
            assert all(h >= 0 for h in state.held) and state.stock_left >= 0


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "players", "options", "matches"), PLAYOUTS)
def test_many_random_entries(game_id: str, players: int, options: dict[str, Any], matches: int) -> None:
    run_playouts(referee_game(game_id), players, options, matches=matches * 10, seed=7, deep_every=60, sample_legal=3)


# --- through the table service ---------------------------------------------------------------------

G, C = "g1", "c1"
ANN, BOB = User("1", "Ann"), User("2", "Bob")


async def test_refereed_ninety_nine_through_the_table_service(service: TableService) -> None:  # noqa: F811
    await service.open_referee(G, C, ANN, "ninety_nine", [ANN, BOB, "Cy"], ["first_dealer=3"])
    table = service.require_table(G, C)
    assert table.mode == "referee" and isinstance(table.state, RefereeCounting)
    await service.act(G, C, BOB, entry("9S"))  # Bob enters Ann's Nine: 99
    with pytest.raises(TableError, match="already been played this deal, by Ann"):
        await service.act(G, C, ANN, entry("9S"))
    with pytest.raises(TableError, match="past 99"):
        await service.act(G, C, ANN, entry("KS"))
    await service.act(G, C, ANN, Bust())  # for Bob, the only awaited seat
    table = service.require_table(G, C)
    assert table.state is not None and table.state.scores == [3, 2, 3] and table.state.deal_no == 2
    await service.undo(G, C, ANN)
    table = service.require_table(G, C)
    assert table.state is not None and table.state.scores == [3, 3, 3] and table.state.total == 99
    await service.act(G, C, BOB, entry("3S"))  # Bob had a Three after all
    await service.correct(G, C, ANN, 1, entry("AS=98"))  # the host: Ann's card was the A♠ setting 98
    table = service.require_table(G, C)
    assert table.state is not None and table.state.total == 98 and table.state.deal_no == 1


# --- the generic mirror, with results entries and options that change the scoring -------------------

FACTS_MIRRORS: list[tuple[str, int, dict[str, Any]]] = [
    ("fifty_one", 3, {"entries": "result"}),
    ("fifty_one", 4, {"entries": "result", "match": "lives", "lives": 2}),
    ("fifty_one", 3, {"values": "german", "floor_zero": True, "rounds": 2}),
    ("hundred", 3, {"entries": "result"}),
    ("hundred", 2, {"entries": "result", "second_point_200": True}),
    ("hundred", 5, {"second_point_200": True}),
    ("jubilee", 3, {"entries": "result"}),
    ("jubilee", 2, {"entries": "result", "zero_is_jubilee": True, "joker_on_jubilee": "score", "club_ace_value": 1}),
    ("jubilee", 4, {"zero_is_jubilee": True, "joker_on_jubilee": "score"}),
    ("ninety_nine", 4, {"entries": "result"}),
    ("ninety_nine", 5, {"entries": "result", "mode": "last_survivor", "red_ace_value": 1}),
    ("ninety_nine", 3, {"mode": "last_survivor", "below_zero": "clamp0", "nine_on_99": "forbid"}),
    ("obstacle_race", 3, {"entries": "result"}),
    ("obstacle_race", 4, {"entries": "result", "finish_bonus": True, "score_floor": True}),
    ("obstacle_race", 2, {"entries": "result", "play_off_ties": True, "ace_value": 1}),
    ("obstacle_race", 3, {"finish_bonus": True, "score_floor": True, "allow_negative": True}),
    ("twenty_nine", 3, {"entries": "result"}),
    ("twenty_nine", 4, {"entries": "result", "match_scoring": "cards", "on_block": "last_player_takes"}),
    ("twenty_nine", 6, {"entries": "result", "teams": "two_teams", "unplayed": "ignore"}),
    ("twenty_nine", 5, {"on_block": "last_player_takes", "match_scoring": "cards"}),
    ("wit_and_reason_1", 2, {"entries": "result"}),
    ("wit_and_reason_1", 2, {"entries": "result", "stalemate": "last_player_wins", "rounds": 2}),
    ("wit_and_reason_1", 2, {"stalemate": "last_player_wins", "rounds": 3}),
    ("wit_and_reason_2", 2, {"entries": "result", "rounds": 2}),
]


@pytest.mark.parametrize(("game_id", "players", "options"), FACTS_MIRRORS)
def test_online_deals_entered_by_their_facts(game_id: str, players: int, options: dict[str, Any]) -> None:
    """The facts of random online deals, entered as a table would (each deal's result with
    entries=result, card by card otherwise), score the same under options that change the scoring."""
    deals = sum(mirror_facts(get_game(game_id), referee_game(game_id), players, options, seed) for seed in (11, 12, 13))
    assert deals >= 3
