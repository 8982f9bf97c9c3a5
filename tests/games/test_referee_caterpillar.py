"""Caterpillar in referee mode: each card entered as it is played, court short and the face cards
held at the end; the worked examples of the rules file, refusals with their messages and no change
of state (a card already played, a suit not followed, a court short that cannot be, counts that do
not add up), whole matches mirrored from the online game, replays and random entries."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from games import caterpillar as online
from games.cards import card
from games.engine import Action, IllegalAction, PlayCard
from games.referee.caterpillar import (
    GAME,
    MAX_POINTS,
    CourtShort,
    FacesHeld,
    PointsFromTotals,
    RefereeCaterpillarState,
    StockUsedUp,
)
from games.registry import referee_game
from tests.games.mirror import mirror as mirror_facts
from tests.playout import run_playouts

N, D = 0, 1  # Dan deals first (first_dealer=2): Nina, the non-dealer, plays first
CONSTRUCTED = ["5H", "TH", "KH", "QS", "TS", "4S", "JC", "AC"]


def start(**options: object) -> RefereeCaterpillarState:
    state = GAME.start(["Nina", "Dan"], {"first_dealer": 2, **options}, seed=3)
    assert isinstance(state, RefereeCaterpillarState)
    return state


def play(state: RefereeCaterpillarState, codes: Sequence[str]) -> None:
    for code in codes:
        seat = state.to_play
        assert seat is not None
        state.apply(seat, PlayCard(play=card(code)))


def fingerprint(state: RefereeCaterpillarState) -> tuple[str, list[list[Action]], dict[str, Any]]:
    return state.view(None).model_dump_json(), [state.legal_actions(s) for s in (0, 1)], state.fingerprint()


def refused(state: RefereeCaterpillarState, seat: int, action: Action) -> str:
    before = fingerprint(state)
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)
    assert fingerprint(state) == before
    return str(info.value)


def replayed(state: RefereeCaterpillarState) -> None:
    again = GAME.replay(GAME.record(state))
    assert again.fingerprint() == state.fingerprint()


def test_referee_game_is_registered() -> None:
    assert referee_game("caterpillar") is GAME and GAME.id == online.GAME.id
    assert GAME.player_counts == (2,)


def test_constructed_sequence_and_court_short() -> None:
    """The rules file's constructed sequence (N 45, D 45), then N court short against 3 face cards."""
    state = start()
    assert state.to_play == N and len(state.legal_actions(N)) == 52  # anything may open
    assert refused(state, N, CourtShort()) == (
        "Nobody is court short on the first card of a game: any card may be played."
    )
    play(state, CONSTRUCTED[:6])
    assert refused(state, N, PlayCard(play=card("7H"))) == (
        "7♥ cannot go on 4♠: play a spade numeral or any King, Queen or Jack."
    )
    play(state, CONSTRUCTED[6:])
    assert state.deal_points == [45, 45] and state.total == 30
    view = state.view(None)
    assert view.stock == 18 and view.caterpillar == [card(c) for c in CONSTRUCTED]
    assert "Next card: a ♣ club numeral or any face card." in view.text_lines()
    assert refused(state, N, PlayCard(play=card("KH"))) == "The K♥ is already in the caterpillar: the pack has only one."
    assert refused(state, N, FacesHeld(count=0)) == (
        "Face cards in hand are entered when the game ends (stock used up, or court short)."
    )
    state.apply(N, CourtShort())
    assert state.awaiting() == {D} and state.legal_actions(N) == []
    assert refused(state, D, PlayCard(play=card("2C"))) == "This game is over: enter the face cards each player holds."
    assert refused(state, D, FacesHeld(count=10)) == (
        "9 face cards are not in the caterpillar and 18 cards are in the stock, so Dan holds from 0 to 9."
    )
    state.apply(D, FacesHeld(count=3))
    assert state.scores == [345, 45] and state.results[-1].court_short == N
    assert "Nina: 45 from totals + 300 for the 3 face card(s) Dan holds = 345." in [e.text for e in state.log]
    assert state.deals_played() == 2 and state.to_play == D and state.pile == []  # game 2: Dan first
    replayed(state)


def numerals_game() -> list[str]:
    """26 cards, all numerals of one suit then face cards bridging to the next: no face card is
    played but the four suit changes (J♠ J♥ J♦ J♣), so 8 face cards stay in hands."""
    order = ["JS", *[f"{r}S" for r in "A23456"], "JH", *[f"{r}H" for r in "A23456"]]
    order += ["JD", *[f"{r}D" for r in "A23456"], "JC", "AC", "2C", "3C", "4C"]
    return order[:26]


def test_normal_end_face_counts_must_add_up() -> None:
    state = start(games=1)
    cards = numerals_game()
    play(state, cards[:-1])
    play(state, cards[-1:])
    assert state.stage == "faces" and state.awaiting() == {N, D}
    assert "The stock is used up, so the game ends. Enter how many face cards each player holds (8 between them)." in [
        e.text for e in state.log
    ]
    assert refused(state, N, FacesHeld(count=9)) == "Only 8 face cards are not in the caterpillar: Nina cannot hold 9."
    running = list(state.deal_points)
    state.apply(D, FacesHeld(count=5))  # Nina's 3 is the only count left: filled in
    assert "Nina holds the other 3 (filled in: 8 face cards were not played)." in [e.text for e in state.log]
    assert state.is_over and state.scores == [running[0] + 300, running[1] + 500]
    assert state.outcome is not None and state.outcome.notes[0].startswith("Final totals:")
    assert refused(state, N, FacesHeld(count=4)) == "This match is over."
    state.apply(N, FacesHeld(count=3))  # entered anyway, as tables did: nothing changes
    assert state.scores == [running[0] + 300, running[1] + 500]
    assert refused(state, N, PlayCard(play=card("KS"))) == "This match is over."
    replayed(state)


def test_court_short_refused_when_the_unplayed_cards_cannot_make_such_a_hand() -> None:
    state = start()
    hearts = [f"{r}H" for r in "A23456789T"]
    clubs = [f"{r}C" for r in "A23456789T"]
    play(state, ["JH", *hearts, "JC", *clubs, "JD", "2D", "3D"])  # 25 cards: only spade numerals left
    assert state.to_play == D and CourtShort() not in state.legal_actions(D)
    assert refused(state, D, CourtShort()) == (
        "Dan cannot be court short: only 10 numerals of suits other than diamonds are unplayed, "
        "too few for a hand of 13 with no face card."
    )


def test_a_whole_match_of_two_games() -> None:
    state = start()
    play(state, CONSTRUCTED)
    state.apply(N, CourtShort())
    state.apply(D, FacesHeld(count=0))
    assert state.scores == [45, 45] and not state.is_over
    play(state, numerals_game())
    counts = {D: 2, N: 6}
    for seat in (D, N):
        state.apply(seat, FacesHeld(count=counts[seat]))
    assert state.is_over and state.outcome is not None and len(state.results) == 2
    assert [r.court_short for r in state.results] == [N, None]
    replayed(state)


# --- mirrored from the online game ----------------------------------------------------------------


def mirror(options: dict[str, Any], seed: int) -> RefereeCaterpillarState:
    """Play the online game at random and enter every card, then each game's end: the running
    points, results and the match must agree."""
    real = online.GAME.start(["Nina", "Dan"], options, seed=seed)
    ref = GAME.start(["Nina", "Dan"], options, seed=seed)
    assert isinstance(real, online.CaterpillarState) and isinstance(ref, RefereeCaterpillarState)
    rng = random.Random(seed)
    while not real.is_over:
        seat = real.to_play
        assert seat is not None and ref.to_play == seat
        action = rng.choice(real.legal_actions(seat))
        games = len(real.results)
        real.apply(seat, action)
        ref.apply(seat, action)
        if len(real.results) == games:
            assert ref.deal_points == real.deal_points
            continue
        result = real.results[-1]
        if result.court_short is not None:
            stuck = result.court_short
            ref.apply(stuck, CourtShort())
            ref.apply(1 - stuck, FacesHeld(count=(result.scores[stuck] - ref.deal_points[stuck]) // 100))
        else:  # one count; the bot fills in the other (entering it too, as tables did, changes nothing)
            counts = [(result.scores[s] - ref.deal_points[s]) // 100 for s in (0, 1)]
            first, second = rng.sample([0, 1], 2)
            ref.apply(first, FacesHeld(count=counts[first]))
            if rng.random() < 0.5:
                ref.apply(second, FacesHeld(count=counts[second]))
        assert ref.results == real.results and ref.scores == real.scores
    assert ref.is_over and ref.outcome == real.outcome
    replayed(ref)
    return ref


@pytest.mark.parametrize("options", [{}, {"games": 3, "tie": "replay"}, {"target": 600}])
def test_matches_mirrored_from_the_online_game(options: dict[str, Any]) -> None:
    for m in range(4):
        mirror(options, seed=40 + m)


@pytest.mark.parametrize(
    "options",
    [{}, {"entries": "results"}, {"entries": "results", "games": 3, "tie": "replay"}, {"entries": "results", "target": 600}],
)
def test_entries_for_the_facts_of_online_games(options: dict[str, Any]) -> None:
    """What a table enters for each online game's facts (RefereeCaterpillarState.entries), card by
    card or by results, scores every game and ends the match as the online game did."""
    games = sum(mirror_facts(online.GAME, GAME, 2, options, seed=70 + m) for m in range(4))
    assert games >= 8


def test_random_entries() -> None:
    for state in run_playouts(GAME, 2, {}, matches=6, deep_every=10, sample_legal=6):
        assert state.outcome is not None


# --- results only ---------------------------------------------------------------------------------


def test_results_mode_seed_illustration() -> None:
    """The rules file's illustration: 280 from totals and 4 face cards (680) against 750 and 2 (950)."""
    state = start(entries="results", games=1)
    assert state.awaiting() == {N, D} and len(state.legal_actions(N)) == MAX_POINTS // 5 + 1
    assert state.legal_actions(N)[57].choice_path() == ("200-295", "285 points from totals")
    assert refused(state, N, PlayCard(play=card("5H"))) == (
        "This table enters results only (entries=results): no cards are entered."
    )
    assert refused(state, N, StockUsedUp()) == (
        "First enter each player's points from totals; then how the game ended."
    )
    state.apply(D, PointsFromTotals(points=750))
    assert refused(state, D, PointsFromTotals(points=755)) == (
        "Dan's points are already entered (750): undo the entry to change it."
    )
    state.apply(N, PointsFromTotals(points=280))
    assert state.awaiting() == {N} and state.legal_actions(D) == [CourtShort()]  # either may be stuck
    state.apply(N, StockUsedUp())
    state.apply(N, FacesHeld(count=4))
    assert refused(state, D, FacesHeld(count=9)) == (
        "The pack has 12 face cards and 4 are entered already: Dan cannot hold 9."
    )
    state.apply(D, FacesHeld(count=2))
    assert state.is_over and state.scores == [680, 950]
    assert "Dan wins game 1, 950 to 680." in [e.text for e in state.log]
    replayed(state)


def test_results_mode_court_short() -> None:
    state = start(entries="results", games=1)
    state.apply(N, PointsFromTotals(points=45))
    state.apply(D, PointsFromTotals(points=45))
    state.apply(D, CourtShort())  # Dan, not the one awaited, was court short
    assert state.awaiting() == {N}
    state.apply(N, FacesHeld(count=3))
    assert state.scores == [45, 345]


def test_random_entries_of_results() -> None:
    for state in run_playouts(GAME, 2, {"entries": "results", "games": 3}, matches=4, deep_every=5, sample_legal=6):
        assert state.outcome is not None
