"""Parity in referee mode: the calls and trick counts entered, the worked examples of the rules
file, refusals with their messages and no change of state, a whole refereed match with its lurch,
matches mirrored from the dealt game (same scores after every deal), replay, random entries and
the table service (undo and a correction)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.tables import TableError, TableService, User
from games import parity as online
from games.cards import Suit
from games.engine import Action, IllegalAction
from games.parity import ChooseParity, ChooseTrump, Parity
from games.players import RandomPlayer
from games.referee.parity import GAME, RefereeParityState
from games.referee.trick_totals import TricksWon
from games.registry import referee_game
from tests.bot.conftest import db_path, notifier, service  # noqa: F401  (fixtures)
from tests.playout import run_playouts

A, B = 0, 1  # Ann deals first (first_dealer=1), so Bob names trumps
ODD, EVEN = Parity.ODD, Parity.EVEN


def start(**options: object) -> RefereeParityState:
    state = GAME.start(["Ann", "Bob"], {"first_dealer": 1, **options}, seed=7)
    assert isinstance(state, RefereeParityState)
    return state


def trump(suit: str | None) -> ChooseTrump:
    return ChooseTrump(suit=Suit(suit) if suit is not None else None)


def refused(state: RefereeParityState, seat: int, action: Action) -> str:
    before = state.fingerprint()
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)
    assert state.fingerprint() == before
    return str(info.value)


def replayed(state: RefereeParityState) -> None:
    again = GAME.replay(GAME.record(state))
    assert again.fingerprint() == state.fingerprint()


def deal(state: RefereeParityState, suit: str | None, target: Parity, tricks: dict[int, int]) -> None:
    """Enter one deal: the non-dealer's call, the dealer's parity, then the counts in the given order."""
    state.apply(state.non_dealer, trump(suit))
    state.apply(state.dealer, ChooseParity(parity=target))
    for seat, count in tricks.items():
        state.apply(seat, TricksWon(tricks=count))


def test_referee_game_is_registered() -> None:
    assert referee_game("parity") is GAME
    assert GAME.id == online.GAME.id and GAME.player_counts == (2,)


# --- the worked examples of the rules file -------------------------------------------------------

EXAMPLES = [  # trump (None: no-trump), target, non-dealer tricks, dealer tricks, non-dealer score, dealer score
    ("H", ODD, 7, 8, 17, 0),
    ("S", EVEN, 0, 15, 10, 0),
    ("C", ODD, 15, 0, 25, 0),
    ("D", EVEN, 15, 0, 0, 10),
    (None, ODD, 9, 6, 29, 0),
    (None, EVEN, 9, 6, 0, 26),
]


@pytest.mark.parametrize(("suit", "target", "nd", "d", "nd_score", "d_score"), EXAMPLES)
def test_worked_examples(suit: str | None, target: Parity, nd: int, d: int, nd_score: int, d_score: int) -> None:
    state = start(no_trump=True)
    deal(state, suit, target, {B: nd, A: d})  # Ann deals, Bob is the non-dealer
    assert state.scores == [d_score, nd_score]
    assert state.scores == online.deal_scores([d, nd], target, suit is None)
    assert state.deal_no == 2 and state.dealer == B and state.awaiting() == {A}


# --- refusals --------------------------------------------------------------------------------------


def test_refusals_leave_the_state_alone() -> None:
    state = start()
    assert state.legal_actions(B) == list(online.TRUMP_CALLS) and state.legal_actions(A) == []
    assert refused(state, B, trump(None)) == (
        "No-trump is not allowed at this table: the host left the no_trump option off."
    )
    assert refused(state, B, TricksWon(tricks=7)) == (
        "Trick counts come at the end of the deal: first enter Bob's trump call."
    )
    assert refused(state, A, ChooseParity(parity=ODD)) == "It is not your turn: the table is waiting for Bob."
    state.apply(B, trump("H"))
    assert refused(state, B, trump("S")).startswith("It is not your turn")
    assert refused(state, A, trump("S")) == "Trumps have already been named for this deal."
    assert refused(state, A, TricksWon(tricks=7)) == (
        "Trick counts come at the end of the deal: first enter Ann's parity call."
    )
    state.apply(A, ChooseParity(parity=ODD))
    assert state.awaiting() == {A, B} and len(state.legal_actions(A)) == 16
    assert refused(state, A, ChooseParity(parity=EVEN)) == (
        "Trumps and the target parity are already set for this deal: enter the trick counts."
    )
    assert refused(state, A, TricksWon(tricks=16)) == "A deal has 15 tricks: Ann cannot have taken 16."
    state.apply(A, TricksWon(tricks=9))  # Bob's 6 is the only count left: the bot fills it in
    assert "Bob took the other 6 (filled in: the counts add up to 15)." in [e.text for e in state.log]
    assert state.scores == [19, 0] and state.deal_no == 2 and state.phase == "trump"
    assert "Last deal: Tricks: Ann 9 and Bob 6. The target was odd, so Ann scores 19 (now 19)." in (
        state.view(None).text_lines()
    )
    # entering the filled-in count anyway (as tables used to) changes nothing; any other is refused
    assert refused(state, B, TricksWon(tricks=7)) == "It is not your turn: the table is waiting for Ann."
    events = state.apply(B, TricksWon(tricks=6))
    assert [e.text for e in events] == ["Bob's count (6) was already filled in: nothing changes."]
    assert state.scores == [19, 0] and state.deal_no == 2 and state.phase == "trump"
    assert refused(state, A, TricksWon(tricks=6)).startswith("Trick counts come at the end of the deal")
    replayed(state)


# --- a whole refereed match -------------------------------------------------------------------------


def test_whole_match_with_a_lurch_and_wrong_entries_refused() -> None:
    state = start(lurch_values=True)
    deals = 0
    while not state.is_over:
        nd, d = state.non_dealer, state.dealer
        assert refused(state, nd, TricksWon(tricks=3)).startswith("Trick counts come at the end")
        state.apply(nd, trump("S"))
        state.apply(d, ChooseParity(parity=ODD))
        # the non-dealer takes 13 tricks each deal: an odd count, 23 points
        assert "cannot have taken 20" in refused(state, d, TricksWon(tricks=20))
        state.apply(d, TricksWon(tricks=2))  # the non-dealer's 13 is filled in
        assert state.history[-1] == (d, TricksWon(tricks=2))
        deals += 1
    # the deal alternates, so each player scores 23 every other deal until one reaches 100
    assert deals == 9 and state.scores == [4 * 23, 5 * 23]  # Bob was the non-dealer of deal 1
    assert state.outcome is not None and state.outcome.winners == [B]
    assert state.outcome.notes == ["Bob wins 115 to 92.", "Ann reached 67: no lurch.", "Stake: the game counts 1 (single)."]
    assert refused(state, A, trump("H")) == "This match is over."
    assert state.view(None).due == "" and state.awaiting() == frozenset()
    replayed(state)


def test_double_lurch() -> None:
    state = start()
    while not state.is_over:
        deal(state, "C", ODD, {B: 15, A: 0})  # Bob takes every trick, every deal: 25 a deal
    assert state.scores == [0, 100] and state.deal_no == 4
    assert state.outcome is not None and state.outcome.winners == [B]
    assert "Ann is double-lurched (below 50)." in state.outcome.notes


# --- mirrored from the dealt game ------------------------------------------------------------------------


def mirror(options: dict[str, Any], seed: int) -> None:
    """Play a dealt match at random and enter its calls and trick counts into a referee game: the
    scores must agree after every deal, and the match must end the same way."""
    names = ["Ann", "Bob"]
    real = online.GAME.start(names, options, seed=seed)
    ref = GAME.start(names, options, seed=seed)
    assert isinstance(real, online.ParityState) and isinstance(ref, RefereeParityState)
    rng = random.Random(seed)
    chooser = RandomPlayer()
    counts = [0, 0]
    while not real.is_over:
        (seat,) = real.awaiting()
        action = chooser.choose(real.view(seat), real.legal_actions(seat), rng)
        events = real.apply(seat, action)
        if isinstance(action, (ChooseTrump, ChooseParity)):
            ref.apply(seat, action)
        for e in events:
            if e.kind == "trick":
                counts[names.index(e.text.split()[0])] += 1
        if sum(counts) == online.TRICKS_PER_DEAL:
            for s in rng.sample([A, B], 2):
                ref.apply(s, TricksWon(tricks=counts[s]))
            counts = [0, 0]
            assert (ref.scores, ref.deal_no, ref.dealer) == (real.scores, real.deal_no, real.dealer)
    assert ref.is_over and ref.outcome == real.outcome
    replayed(ref)


@pytest.mark.parametrize(
    "options",
    [{}, {"no_trump": True, "lurch_values": True}, {"ranks": "AKQJ1098", "sevens_as_jokers": True}],
)
def test_matches_mirrored_from_the_dealt_game(options: dict[str, Any]) -> None:
    for m in range(20):
        mirror(options, seed=300 + m)


@pytest.mark.parametrize("options", [{}, {"no_trump": True}])
def test_random_entries(options: dict[str, Any]) -> None:
    for state in run_playouts(GAME, 2, options, matches=40, deep_every=5):
        assert state.outcome is not None and max(state.outcome.scores) >= 100


# --- through the table service ----------------------------------------------------------------------

G, C = "g1", "c1"
ANN, BOB = User("1", "Ann"), User("2", "Bob")


async def test_refereed_deal_through_the_table_service(service: TableService) -> None:  # noqa: F811
    await service.open_referee(G, C, ANN, "parity", [ANN, BOB], ["first_dealer=1", "no_trump=true"])
    table = service.require_table(G, C)
    assert table.mode == "referee" and isinstance(table.state, RefereeParityState)
    await service.act(G, C, ANN, trump("H"))  # Ann enters Bob's call (the only awaited seat)
    with pytest.raises(TableError, match="no entry to make for Bob"):
        await service.act(G, C, ANN, ChooseParity(parity=ODD), seat=B)
    await service.act(G, C, BOB, ChooseParity(parity=ODD))
    await service.act(G, C, ANN, TricksWon(tricks=9))  # Ann's own count; Bob's 6 is filled in
    assert table.state.scores == [9 + 10, 0] and table.state.deal_no == 2
    await service.undo(G, C, ANN)  # Ann miscounted: the undo takes back the filled-in count too
    table = service.require_table(G, C)
    assert isinstance(table.state, RefereeParityState) and table.state.counts.counts == [None, None]
    await service.act(G, C, BOB, TricksWon(tricks=5))  # Bob's own count; Ann's 10 is filled in
    assert table.state.scores == [0, 15] and table.state.deal_no == 2
    # the host corrects entry 1: the call was no-trump, so Bob's 5 tricks are worth 25
    await service.correct(G, C, ANN, 1, trump(None))
    table = service.require_table(G, C)
    assert isinstance(table.state, RefereeParityState) and table.state.scores == [0, 25]
    # a correction that breaks the entries is refused: a count of 16
    with pytest.raises(TableError, match="impossible"):
        await service.correct(G, C, ANN, 3, TricksWon(tricks=16))
    assert table.state.scores == [0, 25]
