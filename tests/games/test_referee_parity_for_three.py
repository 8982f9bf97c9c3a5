"""Parity for Three in referee mode: announcements (one Joker holder, trumps before parity) and
trick counts entered, the worked examples of the rules file, refusals with their messages and no
change of state, whole refereed matches (points, nine deals, ties), matches mirrored from the
dealt game, replay, random entries and the table service (undo and a correction)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.tables import TableError, TableService, User
from games import parity_for_three as online
from games.cards import Suit
from games.engine import Action, IllegalAction
from games.parity import ChooseParity, ChooseTrump, Parity
from games.parity_for_three import AnnounceJoker
from games.players import RandomPlayer
from games.referee.parity_for_three import GAME, RefereeParityForThreeState
from games.referee.trick_totals import TricksWon
from games.registry import referee_game
from tests.bot.conftest import db_path, notifier, service  # noqa: F401  (fixtures)
from tests.games.mirror import mirror as facts_mirror
from tests.playout import run_playouts

A, B, C = 0, 1, 2  # Ann deals first (first_dealer=1): Bob speaks first and leads
ODD, EVEN = Parity.ODD, Parity.EVEN
JOKER = AnnounceJoker()


def start(**options: object) -> RefereeParityForThreeState:
    state = GAME.start(["Ann", "Bob", "Cat"], {"first_dealer": 1, **options}, seed=5)
    assert isinstance(state, RefereeParityForThreeState)
    return state


def trump(suit: str) -> ChooseTrump:
    return ChooseTrump(suit=Suit(suit))


def parity(p: Parity) -> ChooseParity:
    return ChooseParity(parity=p)


def refused(state: RefereeParityForThreeState, seat: int, action: Action) -> str:
    before = state.fingerprint()
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)
    assert state.fingerprint() == before
    return str(info.value)


def replayed(state: RefereeParityForThreeState) -> None:
    again = GAME.replay(GAME.record(state))
    assert again.fingerprint() == state.fingerprint()


def deal(state: RefereeParityForThreeState, target: Parity, tricks: list[int], joker: int = 0) -> None:
    """Enter a deal: the speaker at ``joker`` places from the dealer's left holds the Joker;
    the others name hearts and the target; then the counts, last seat first."""
    calls: list[Action] = [trump("H"), parity(target)]
    calls.insert(joker, JOKER)
    for call in calls:
        state.apply(state.speaker, call)
    for seat in (2, 1, 0):
        state.apply(seat, TricksWon(tricks=tricks[seat]))


def test_referee_game_is_registered() -> None:
    assert referee_game("parity_for_three") is GAME
    assert GAME.id == online.GAME.id and GAME.player_counts == (3,)


# --- the worked examples of the rules file -------------------------------------------------------

EXAMPLES = [
    (EVEN, [4, 4, 3], [14, 14, 3]),
    (ODD, [0, 5, 6], [10, 15, 6]),
    (EVEN, [0, 5, 6], [20, 5, 16]),
    (ODD, [1, 3, 7], [11, 13, 17]),
    (EVEN, [0, 0, 11], [20, 20, 11]),
    (ODD, [0, 0, 11], [10, 10, 21]),
]


@pytest.mark.parametrize(("target", "tricks", "scores"), EXAMPLES)
@pytest.mark.parametrize("joker", [0, 1, 2])
def test_worked_examples(target: Parity, tricks: list[int], scores: list[int], joker: int) -> None:
    state = start()
    deal(state, target, tricks, joker)
    assert state.scores == scores == online.deal_scores(tricks, target)
    assert state.deal_no == 2 and state.dealer == B and state.awaiting() == {C}


# --- refusals ----------------------------------------------------------------------------------------


def test_announcements_in_order_with_one_joker() -> None:
    state = start()
    assert state.awaiting() == {B}
    assert state.legal_actions(B) == [JOKER, *online.TRUMP_CALLS]
    assert refused(state, B, parity(ODD)) == (
        "Trumps are named before the target parity: Bob names trumps (or holds the Joker)."
    )
    assert refused(state, B, ChooseTrump(suit=None)) == "Parity for Three has no no-trump call: name a suit."
    assert refused(state, B, TricksWon(tricks=3)) == (
        "Trick counts come at the end of the deal: first enter the announcements."
    )
    assert refused(state, C, JOKER) == "It is not your turn: the table is waiting for Bob."
    state.apply(B, JOKER)
    assert state.legal_actions(C) == list(online.TRUMP_CALLS)
    assert refused(state, C, JOKER) == "Bob has already announced the Joker: there is only one."
    assert refused(state, C, parity(EVEN)) == "Trumps are named before the target parity: Cat names trumps."
    state.apply(C, trump("S"))
    assert state.legal_actions(A) == list(online.PARITY_CALLS)
    assert refused(state, A, trump("D")) == "Trumps are already named (spades): Ann names the target parity."
    lines = state.view(None).text_lines()
    assert "Bob holds the Joker" in lines and "Trumps: Spades ♠" in lines
    state.apply(A, parity(EVEN))
    assert state.phase == "play" and state.awaiting() == {A, B, C}
    assert refused(state, A, parity(ODD)) == "The announcements are over for this deal: enter the trick counts."
    assert state.log[-1].text == (
        "Bob leads; Bob plays the Joker to the first trick. Enter the trick counts after the 11th trick."
    )


def test_the_last_speaker_must_hold_the_joker() -> None:
    state = start()
    state.apply(B, trump("C"))
    assert state.legal_actions(C) == [JOKER, *online.PARITY_CALLS]
    assert refused(state, C, trump("D")) == (
        "Trumps are already named (clubs): Cat names the target parity (or holds the Joker)."
    )
    state.apply(C, parity(ODD))
    assert state.legal_actions(A) == [JOKER]
    assert refused(state, A, parity(EVEN)) == (
        "Trumps and the target parity are named, so Ann must hold the Joker: enter that announcement."
    )
    state.apply(A, JOKER)
    assert state.joker_holder == A and state.phase == "play"


def test_trick_counts_must_add_up_to_eleven() -> None:
    state = start()
    for call in (trump("H"), parity(ODD), JOKER):
        state.apply(state.speaker, call)
    assert refused(state, C, TricksWon(tricks=12)) == "A deal has 11 tricks: Cat cannot have taken 12."
    state.apply(C, TricksWon(tricks=6))
    assert len(state.legal_actions(A)) == 6  # 0 to 5
    assert refused(state, A, TricksWon(tricks=6)) == (
        "Only 5 of the 11 tricks are left for Ann once Cat 6 are counted. "
        "If a count already entered is wrong, undo it first."
    )
    assert refused(state, C, TricksWon(tricks=5)) == (
        "Cat's trick count is already entered (6): undo it, or ask the host to correct it."
    )
    state.apply(A, TricksWon(tricks=1))  # Bob's 4 is the only count left: filled in
    assert "Bob took the other 4 (filled in: the counts add up to 11)." in [e.text for e in state.log]
    assert state.scores == [11, 4, 6]  # odd target: Ann's 1 is odd
    state.apply(B, TricksWon(tricks=4))  # entered anyway: nothing changes
    assert state.scores == [11, 4, 6] and state.deal_no == 2
    replayed(state)


# --- whole refereed matches -------------------------------------------------------------------------


def test_whole_match_to_100_with_a_tie_played_off() -> None:
    state = start()
    while not state.is_over and state.deal_no <= 5:
        assert refused(state, state.speaker, TricksWon(tricks=4)).startswith("Trick counts come at the end")
        assert refused(state, state.speaker, parity(ODD)).startswith("Trumps are named before")
        deal(state, EVEN, [4, 4, 3])  # Ann and Bob score 14 a deal, Cat 3
    assert state.scores == [70, 70, 15]
    deal(state, ODD, [5, 5, 1])  # 15, 15, 11: Ann and Bob on 85
    deal(state, EVEN, [6, 2, 3])  # 16, 12, 3: Ann 101, Bob 97: Ann has reached 100 alone
    assert state.is_over and state.outcome is not None and state.outcome.winners == [A]
    assert state.scores == [101, 97, 29]
    replayed(state)
    tied = start()
    for _ in range(7):
        deal(tied, EVEN, [4, 4, 3])  # 98, 98, 21
    deal(tied, EVEN, [2, 2, 7])  # 110, 110: tied at the top, an extra deal
    assert not tied.is_over and "First place is tied: an extra deal decides it." in [e.text for e in tied.log]
    deal(tied, ODD, [3, 2, 6])  # 13, 2, 6
    assert tied.outcome is not None and tied.outcome.winners == [A]


def test_nine_deals_with_a_shared_win() -> None:
    state = start(match_end="nine_deals", ties="shared")
    for _ in range(9):
        assert not state.is_over
        deal(state, EVEN, [4, 4, 3])
    assert state.is_over and state.outcome is not None and state.outcome.winners == [A, B]
    assert "First place is shared on 126 points." in state.outcome.notes
    assert refused(state, A, JOKER) == "This match is over."


# --- mirrored from the dealt game ------------------------------------------------------------------------


def mirror(options: dict[str, Any], seed: int) -> None:
    """Play a dealt match at random and enter its announcements and trick counts: the scores must
    agree after every deal and the match must end the same way."""
    names = ["Ann", "Bob", "Cat"]
    real = online.GAME.start(names, options, seed=seed)
    ref = GAME.start(names, options, seed=seed)
    assert isinstance(real, online.ParityForThreeState) and isinstance(ref, RefereeParityForThreeState)
    rng = random.Random(seed)
    chooser = RandomPlayer()
    counts = [0, 0, 0]
    while not real.is_over:
        (seat,) = real.awaiting()
        action = chooser.choose(real.view(seat), real.legal_actions(seat), rng)
        events = real.apply(seat, action)
        if isinstance(action, (AnnounceJoker, ChooseTrump, ChooseParity)):
            ref.apply(seat, action)
        for e in events:
            if e.kind == "trick":
                counts[names.index(e.text.split()[0])] += 1
        if sum(counts) == online.TRICKS_PER_DEAL:
            for s in rng.sample([A, B, C], 3):
                ref.apply(s, TricksWon(tricks=counts[s]))
            counts = [0, 0, 0]
            assert (ref.scores, ref.deal_no, ref.dealer) == (real.scores, real.deal_no, real.dealer)
    assert ref.is_over and ref.outcome == real.outcome
    replayed(ref)


@pytest.mark.parametrize(
    "options", [{}, {"match_end": "nine_deals", "ties": "shared"}, {"match_end": "open", "open_deal_cap": 4}]
)
def test_matches_mirrored_from_the_dealt_game(options: dict[str, Any]) -> None:
    for m in range(15):
        mirror(options, seed=400 + m)


@pytest.mark.parametrize("options", [{"match_end": "nine_deals", "ties": "shared"}, {"match_end": "open", "open_deal_cap": 4}])
def test_online_facts_entered_under_the_option_sets(options: dict[str, Any]) -> None:
    """The generic mirror (tests/games/mirror.py) under this game's option sets: the facts of
    each dealt deal, entered as ``RefereeParityForThreeState.entries`` says a table would."""
    assert sum(facts_mirror(online.GAME, GAME, 3, options, seed) for seed in range(4)) >= 4


@pytest.mark.parametrize("options", [{}, {"match_end": "nine_deals"}])
def test_random_entries(options: dict[str, Any]) -> None:
    for state in run_playouts(GAME, 3, options, matches=30, deep_every=5):
        assert state.outcome is not None


# --- through the table service ----------------------------------------------------------------------

G, CH = "g1", "c1"
ANN, BOB, CAT = User("1", "Ann"), User("2", "Bob"), User("3", "Cat")


async def test_refereed_deal_through_the_table_service(service: TableService) -> None:  # noqa: F811
    await service.open_referee(G, CH, ANN, "parity_for_three", [ANN, BOB, CAT], ["first_dealer=1"])
    table = service.require_table(G, CH)
    assert table.mode == "referee" and isinstance(table.state, RefereeParityForThreeState)
    await service.act(G, CH, ANN, trump("H"))  # Ann enters Bob's announcement
    await service.act(G, CH, CAT, JOKER)
    with pytest.raises(TableError, match="already announced the Joker"):
        await service.act(G, CH, ANN, JOKER)
    await service.act(G, CH, ANN, parity(ODD))
    await service.act(G, CH, BOB, TricksWon(tricks=5))
    await service.act(G, CH, CAT, TricksWon(tricks=5))  # Ann's 1 is filled in
    assert table.state.deal_no == 2
    await service.undo(G, CH, CAT)  # Cat took 4, not 5
    table = service.require_table(G, CH)
    assert isinstance(table.state, RefereeParityForThreeState) and table.state.counts.counts == [None, 5, None]
    await service.act(G, CH, CAT, TricksWon(tricks=4))  # Ann's 2 is filled in
    assert table.state.scores == [2, 15, 4] and table.state.deal_no == 2
    # the host corrects the target (entry 3): even after all, so Ann's 2 and Cat's 4 score the bonus
    await service.correct(G, CH, ANN, 3, parity(EVEN))
    table = service.require_table(G, CH)
    assert isinstance(table.state, RefereeParityForThreeState) and table.state.scores == [12, 5, 14]
    with pytest.raises(TableError, match="makes entry 3 impossible"):
        await service.correct(G, CH, ANN, 2, parity(EVEN))  # then Ann, last, must hold the Joker
