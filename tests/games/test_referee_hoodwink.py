"""Hoodwink in referee mode: bid cards and trick counts entered, the worked examples of the rules
file (roles, standard and variation 3 scores, variation 2 scenarios), variation 1 disputes,
refusals with their messages and no change of state, whole refereed matches, matches mirrored from
the dealt game, replay, random entries and the table service (undo and a correction)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from bot.tables import TableError, TableService, User
from games import hoodwink as online
from games.cards import Suit, card
from games.engine import Action, IllegalAction
from games.hoodwink import Bid
from games.hoodwink_match import HoodwinkFacts
from games.hoodwink_scoring import (
    Scenario,
    resolve_open_partnerships,
    score_deal,
    standard_scores,
    variation3_scores,
)
from games.players import RandomPlayer
from games.referee.hoodwink import GAME, DisputeBid, RefereeHoodwinkState, WonTrick
from games.referee.trick_totals import TricksWon
from games.registry import referee_game
from tests.bot.conftest import db_path, notifier, service  # noqa: F401  (fixtures)
from tests.games.mirror import mirror as facts_mirror
from tests.playout import run_playouts

A, B, C = 0, 1, 2  # Ann deals first (first_dealer=1): Bob leads
NAMES = ["Ann", "Bob", "Cat"]
HOOD_BOB = ("AH", "9H", "7H")  # all hearts: Ann (high) and Cat (low) are partners, Bob the Hood


def start(**options: object) -> RefereeHoodwinkState:
    state = GAME.start(NAMES, {"first_dealer": 1, **options}, seed=11)
    assert isinstance(state, RefereeHoodwinkState)
    return state


def bids(state: RefereeHoodwinkState, codes: Sequence[str], order: Sequence[int] = (2, 0, 1)) -> None:
    for seat in order:
        state.apply(seat, Bid(bid=card(codes[seat])))


def counts(state: RefereeHoodwinkState, tricks: Sequence[int], order: Sequence[int] = (1, 2, 0)) -> None:
    for seat in order:
        state.apply(seat, TricksWon(tricks=tricks[seat]))


def refused(state: RefereeHoodwinkState, seat: int, action: Action) -> str:
    before = state.fingerprint()
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)
    assert state.fingerprint() == before
    return str(info.value)


def replayed(state: RefereeHoodwinkState) -> None:
    again = GAME.replay(GAME.record(state))
    assert again.fingerprint() == state.fingerprint()


def test_referee_game_is_registered() -> None:
    assert referee_game("hoodwink") is GAME
    assert GAME.id == online.GAME.id and GAME.player_counts == (3,)


# --- the worked examples of the rules file -------------------------------------------------------

ROLES = [
    (("AH", "9H", "7H"), Suit.HEARTS, (A, C), B),
    (("8S", "QS", "TD"), Suit.DIAMONDS, (A, B), C),
    (("KH", "JC", "9D"), Suit.SPADES, (A, C), B),
    (("TC", "AD", "7S"), Suit.HEARTS, (A, C), B),
]


@pytest.mark.parametrize(("codes", "trumps", "partners", "hood"), ROLES)
def test_roles_from_the_bids(codes: tuple[str, ...], trumps: Suit, partners: tuple[int, int], hood: int) -> None:
    state = start()
    bids(state, codes)
    assert state.roles is not None and state.stage == "counts"
    assert (state.roles.trumps, state.roles.partners, state.roles.hood) == (trumps, partners, hood)
    names = " and ".join(NAMES[s] for s in partners)
    assert f"Partners: {names}; Hood: {NAMES[hood]}" in state.view(None).text_lines()


STANDARD = [  # p1, p2, h, partner scores, Hood
    (5, 1, 5, 35),
    (3, 5, 3, 33),
    (1, 9, 1, 31),
    (2, 0, 9, 29),
    (5, 5, 1, 1),
    (0, 0, 11, 11),
    (4, 3, 4, 24),
    (5, 0, 6, 16),
    (4, 2, 5, 25),
]


@pytest.mark.parametrize(("p1", "p2", "h", "hood"), STANDARD)
def test_standard_scoring_examples(p1: int, p2: int, h: int, hood: int) -> None:
    state = start()
    bids(state, HOOD_BOB)
    counts(state, [p1, h, p2])
    partner_bonus = 10 if p1 == p2 else 0
    assert state.scores == [p1 + partner_bonus, hood, p2 + partner_bonus]
    assert tuple(state.scores[s] for s in (A, C, B)) == standard_scores(p1, p2, h)


V3 = [(4, 2, 5, (4, 2, 25)), (3, 5, 3, (3, 5, 43)), (11, 0, 0, (11, 0, 220)), (5, 5, 1, (55, 55, 1)),
      (1, 1, 9, (11, 11, 9)), (0, 0, 11, (0, 0, 11)), (6, 2, 3, (6, 2, 43))]


@pytest.mark.parametrize(("p1", "p2", "h", "expected"), V3)
def test_variation3_examples(p1: int, p2: int, h: int, expected: tuple[int, int, int]) -> None:
    state = start(scoring="v3")
    bids(state, HOOD_BOB)
    counts(state, [p1, h, p2])
    assert (state.scores[A], state.scores[C], state.scores[B]) == expected == variation3_scores(p1, p2, h)


def open_deal(scenario: str, tricks: list[int], **options: object) -> RefereeHoodwinkState:
    state = start(v2_scenario=scenario, **options)
    bids(state, HOOD_BOB)
    assert state.roles is not None and state.roles.partners is None
    assert "Open partnerships (variation 2, scenario " + scenario + "): equal counts make partners." in (
        state.view(None).text_lines()
    )
    counts(state, tricks)
    return state


def test_variation2_examples() -> None:
    assert open_deal("2c", [4, 4, 3]).scores == [14, 14, 3]  # equal counts: no winner asked
    assert open_deal("2a", [6, 3, 2]).scores == [6, 3, 2]
    assert open_deal("2b", [6, 3, 2]).scores == [6, 23, 2]
    state = open_deal("2c", [6, 3, 2])
    assert state.stage == "winner" and state.awaiting() == {A, B, C}
    assert state.legal_actions(A) == [WonTrick(which="last")] and state.scores == [0, 0, 0]
    assert "Next entry: who won the last trick: Ann, Bob, Cat (scenario 2c makes that player the Hood)." in (
        state.view(None).text_lines()
    )
    assert refused(state, A, WonTrick(which="first")) == (
        "Scenario 2c goes by the last trick: enter who won that one."
    )
    assert refused(state, A, TricksWon(tricks=6)) == "The trick counts are in: enter who won the last trick."
    state.apply(C, WonTrick(which="last"))
    assert state.scores == [6, 3, 12] and state.deal_no == 2
    state = open_deal("2d", [6, 3, 2])
    state.apply(A, WonTrick(which="first"))
    assert state.scores == [16, 3, 2]
    replayed(state)


def test_variation2_hood_named_even_when_counts_tie() -> None:
    state = open_deal("2d", [4, 0, 7], v2_equal_overrides=False)  # no tie: Cat won the first trick
    assert refused(state, B, WonTrick(which="first")) == "Bob took no tricks, so cannot have won the first trick."
    assert state.awaiting() == {A, C}
    state.apply(C, WonTrick(which="first"))
    assert state.scores == [4, 0, 7 + 10 + 10]
    state = open_deal("2c", [4, 4, 3], v2_equal_overrides=False)
    state.apply(A, WonTrick(which="last"))  # Ann is the Hood despite tying with Bob: 4 + 10 + 10 (match)
    assert state.scores == [24, 4, 3]
    state = open_deal("2c", [11, 0, 0], v2_equal_overrides=False)  # only Ann took tricks: no question
    assert state.deal_no == 2 and state.scores == [11, 10, 10]  # Ann the Hood; partners level on 0
    assert "Ann won the last trick (scenario 2c)." in [e.text for e in state.log]


# --- refusals ------------------------------------------------------------------------------------------


def test_bid_and_count_refusals() -> None:
    state = start()
    assert state.awaiting() == {A, B, C} and len(state.legal_actions(A)) == 32
    assert state.legal_actions(A)[0].choice_path() == ("Spades", "Bid A♠")
    assert refused(state, A, Bid(bid=card("Joker"))) == "The Joker cannot be a bid card: it has no suit of its own."
    assert refused(state, A, TricksWon(tricks=4)) == (
        "Trick counts come at the end of the deal: first enter the three bid cards."
    )
    assert refused(state, A, DisputeBid()) == "Any card may be bid at this table: variation 1 (disciplined_bids) is off."
    state.apply(A, Bid(bid=card("QS")))
    assert refused(state, A, Bid(bid=card("KS"))) == "Ann's bid card is already entered (Q♠): undo it to change it."
    assert refused(state, B, Bid(bid=card("QS"))) == "Ann already showed the Queen of Spades: the pack has only one."
    assert len(state.legal_actions(B)) == 31
    state.apply(B, Bid(bid=card("8S")))
    state.apply(C, Bid(bid=card("TD")))
    assert refused(state, C, Bid(bid=card("AD"))) == "All three bid cards are already entered for this deal."
    assert refused(state, B, WonTrick(which="last")).startswith("Who won a trick is asked only after an open deal")
    assert refused(state, A, TricksWon(tricks=12)) == "A deal has 11 tricks: Ann cannot have taken 12."
    state.apply(A, TricksWon(tricks=5))
    assert refused(state, A, TricksWon(tricks=3)) == (
        "Ann's trick count is already entered (5): undo it, or ask the host to correct it."
    )
    assert refused(state, C, TricksWon(tricks=7)) == (
        "Only 6 of the 11 tricks are left for Cat once Ann 5 are counted. "
        "If a count already entered is wrong, undo it first."
    )
    state.apply(C, TricksWon(tricks=4))  # Bob's 2 is the only count left: filled in
    assert "Bob took the other 2 (filled in: the counts add up to 11)." in [e.text for e in state.log]
    assert state.scores == [5, 2, 4 + 10]  # Cat the Hood splits partners 5 and 2
    state.apply(B, TricksWon(tricks=2))  # entered anyway: nothing changes
    assert state.scores == [5, 2, 4 + 10] and state.deal_no == 2
    replayed(state)


def test_variation1_dispute_withdraws_a_bid_and_roles_are_worked_out_again() -> None:
    state = start(disciplined_bids=True)
    assert refused(state, A, DisputeBid()) == (
        "Enter all three bid cards first; then a bid that broke variation 1 can be disputed."
    )
    bids(state, HOOD_BOB)
    assert state.legal_actions(B)[-1] == DisputeBid()
    state.apply(B, DisputeBid())  # Bob's longest suit was spades: the 9♥ is withdrawn
    assert state.stage == "bids" and state.awaiting() == {B} and state.roles is None
    assert "Next entry: the bid card of Bob (the top card of the longest suit)." in state.view(None).text_lines()
    assert refused(state, B, Bid(bid=card("9H"))) == (
        "The Nine of Hearts was withdrawn as a bid this deal: enter the card that should have been shown."
    )
    assert refused(state, A, Bid(bid=card("KS"))) == "Ann's bid card is already entered (A♥): undo it to change it."
    state.apply(B, Bid(bid=card("KS")))  # two hearts: Ann and Cat partners, Bob's spades are trumps
    assert state.roles is not None and state.roles.trumps is Suit.SPADES and state.roles.hood == B
    assert DisputeBid() not in state.legal_actions(B)
    assert refused(state, B, DisputeBid()) == "Bob's bid was already replaced this deal: the new one stands."
    state.apply(A, TricksWon(tricks=3))
    assert refused(state, C, DisputeBid()) == (
        "Too late to dispute a bid: the trick counts are being entered (undo them first)."
    )
    state.apply(B, TricksWon(tricks=5))
    state.apply(C, TricksWon(tricks=3))
    assert state.scores == [13, 5, 13]
    assert state.withdrawn == [] and state.disputed == [False] * 3  # a new deal
    replayed(state)


# --- whole refereed matches -------------------------------------------------------------------------


def test_whole_standard_match_with_wrong_entries_refused() -> None:
    state = start()
    while not state.is_over:
        hood = (state.dealer + 1) % 3  # bids make the player left of the dealer the Hood (middle heart)
        codes = {hood: "9H", (hood + 1) % 3: "AH", (hood + 2) % 3: "7H"}
        assert "first enter the three bid cards" in refused(state, hood, TricksWon(tricks=5))
        for seat in range(3):
            state.apply(seat, Bid(bid=card(codes[seat])))
        assert refused(state, hood, Bid(bid=card("AH"))) == "All three bid cards are already entered for this deal."
        tricks = {hood: 5, (hood + 1) % 3: 5, (hood + 2) % 3: 1}  # the Hood's best: 35
        state.apply(hood, TricksWon(tricks=5))
        assert refused(state, (hood + 2) % 3, TricksWon(tricks=7)).startswith("Only 6 of the 11 tricks are left")
        for seat in ((hood + 1) % 3, (hood + 2) % 3):
            state.apply(seat, TricksWon(tricks=tricks[seat]))
    # every three deals each player is the Hood once (35) and a partner twice (5 and 1): 41 a round;
    # in deal 7 Bob is the Hood again and passes 100 alone
    assert state.deal_no == 7 and state.scores == [82 + 1, 82 + 35, 82 + 5]
    assert state.outcome is not None and state.outcome.winners == [B]
    assert state.outcome.notes[0] == "Bob wins with 117 points."
    assert refused(state, A, Bid(bid=card("AS"))) == "This match is over."
    replayed(state)


def test_variation3_match_lasts_nine_deals_and_ties_play_off() -> None:
    state = start(scoring="v3", tie_break="extra_deal")
    for _ in range(9):
        assert not state.is_over
        hood = (state.dealer + 1) % 3
        codes = {hood: "9H", (hood + 1) % 3: "AH", (hood + 2) % 3: "7H"}
        for seat in range(3):
            state.apply(seat, Bid(bid=card(codes[seat])))
        counts(state, [3 if s == hood else 4 for s in range(3)])  # partners on 4 and 4: 44 each
    assert state.scores == [273, 273, 273] and not state.is_over  # all tied: three more deals
    assert "Variation 3 scoring: play-off deal 1." in state.view(None).text_lines()
    bids(state, HOOD_BOB)
    counts(state, [5, 1, 5])  # the partners tie on 5: 55 each
    for _ in range(2):
        bids(state, HOOD_BOB)
        counts(state, [6, 1, 4])  # split by 2: Bob's 1 + 10 x 2
    assert state.scores == [273 + 55 + 12, 273 + 1 + 42, 273 + 55 + 8]
    assert state.is_over and state.outcome is not None and state.outcome.winners == [A]
    replayed(state)


# --- mirrored from the dealt game ------------------------------------------------------------------------


def mirror(options: dict[str, Any], seed: int, hearts: bool = False) -> None:
    """Play a dealt match at random and enter its bid cards, trick counts and (2c, 2d) trick
    winners: the scores must agree after every deal and the match must end the same way.
    ``hearts``: players bid a heart when they can, so that open deals (variation 2) come up."""
    real = online.GAME.start(NAMES, options, seed=seed)
    ref = GAME.start(NAMES, options, seed=seed)
    assert isinstance(real, online.HoodwinkState) and isinstance(ref, RefereeHoodwinkState)
    rng = random.Random(seed)
    chooser = RandomPlayer()
    tricks = [0, 0, 0]
    winners: list[int] = []
    while not real.is_over:
        seat = rng.choice(sorted(real.awaiting()))
        legal = real.legal_actions(seat)
        if hearts:
            legal = [a for a in legal if isinstance(a, Bid) and a.bid.suit is Suit.HEARTS] or legal
        action = chooser.choose(real.view(seat), legal, rng)
        events = real.apply(seat, action)
        if isinstance(action, Bid):
            ref.apply(seat, action)  # entered as they are played: the reveal comes with the third
        for e in events:
            if e.kind == "trick":
                winners.append(NAMES.index(e.text.split()[0]))
                tricks[winners[-1]] += 1
        if sum(tricks) == online.TRICKS_PER_DEAL:
            for s in rng.sample([A, B, C], 3):
                ref.apply(s, TricksWon(tricks=tricks[s]))
            if ref.stage == "winner":
                which = ref.winner_needed()
                assert which is not None
                ref.apply(winners[0] if which == "first" else winners[-1], WonTrick(which=which))
            tricks, winners = [0, 0, 0], []
            assert (ref.scores, ref.deal_no, ref.dealer) == (real.scores, real.deal_no, real.dealer)
    assert ref.is_over and ref.outcome == real.outcome
    replayed(ref)


MIRRORS = [
    {},
    {"scoring": "v3", "deals": 6},
    {"disciplined_bids": True, "v2_scenario": "2c", "v2_equal_overrides": False},
    {"v2_by_suit": "S:2a,H:2b,D:2c,C:2d", "tie_break": "shared"},
]


@pytest.mark.parametrize("options", MIRRORS)
def test_matches_mirrored_from_the_dealt_game(options: dict[str, Any]) -> None:
    for m in range(12):
        mirror(options, seed=500 + m)


@pytest.mark.parametrize(
    "options",
    [{"v2_scenario": "2c"}, {"v2_scenario": "2d", "v2_equal_overrides": False, "scoring": "v3", "deals": 3}],
)
def test_open_deals_mirrored_from_the_dealt_game(options: dict[str, Any]) -> None:
    for m in range(6):
        mirror(options, seed=600 + m, hearts=True)


def test_open_deals_agree_with_the_scoring_functions() -> None:
    """Random bids rarely share a suit: deals where everyone bids hearts, with random counts."""
    scenarios: tuple[Scenario, ...] = ("2a", "2b", "2c", "2d")
    for scenario in scenarios:
        for overrides in (True, False):
            for m in range(10):
                rng = random.Random(m)
                tricks = [0, 0, 0]
                for _ in range(11):
                    tricks[rng.randrange(3)] += 1
                state = open_deal(scenario, tricks, v2_equal_overrides=overrides)
                takers = [s for s in range(3) if tricks[s]]
                winner: int | None = takers[0] if len(takers) == 1 else None
                if state.stage == "winner":
                    which = state.winner_needed()
                    assert which is not None and state.awaiting() == set(takers)
                    winner = rng.choice(takers)
                    state.apply(winner, WonTrick(which=which))
                partners, hood = resolve_open_partnerships(tricks, scenario, winner, winner, overrides)
                assert state.scores == score_deal(tricks, partners, hood) and state.deal_no == 2


@pytest.mark.parametrize("options", MIRRORS)
def test_online_facts_entered_under_the_option_sets(options: dict[str, Any]) -> None:
    """The generic mirror (tests/games/mirror.py) under this game's option sets: the facts of
    each dealt deal, entered as ``RefereeHoodwinkState.entries`` says a table would."""
    assert sum(facts_mirror(online.GAME, GAME, 3, options, seed) for seed in range(4)) >= 4


def test_entries_of_open_deals_enter_the_deciding_trick() -> None:
    """Open deals from their facts (random bids rarely share a suit): all hearts, random counts and
    trick winners; what ``entries`` enters scores as the scoring functions say, in one deal."""
    scenarios: tuple[Scenario, ...] = ("2a", "2b", "2c", "2d")
    bid_cards = (card(HOOD_BOB[0]), card(HOOD_BOB[1]), card(HOOD_BOB[2]))
    for scenario in scenarios:
        for overrides in (True, False):
            for m in range(10):
                rng = random.Random(m)
                tricks = [0, 0, 0]
                for _ in range(11):
                    tricks[rng.randrange(3)] += 1
                takers = [s for s in range(3) if tricks[s]]
                first, last = rng.choice(takers), rng.choice(takers)
                facts = HoodwinkFacts(bids=bid_cards, tricks=(tricks[0], tricks[1], tricks[2]), first_winner=first, last_winner=last)
                state = start(v2_scenario=scenario, v2_equal_overrides=overrides)
                for seat, entry in state.entries(facts):
                    state.apply(seat, entry)
                partners, hood = resolve_open_partnerships(tricks, scenario, first, last, overrides)
                assert state.scores == score_deal(tricks, partners, hood) and state.deal_no == 2


@pytest.mark.parametrize(
    ("options", "matches"),
    [
        ({}, 12),
        ({"disciplined_bids": True, "v2_scenario": "2d", "v2_equal_overrides": False}, 12),
        ({"scoring": "v3", "v2_by_suit": "S:2a,H:2b,D:2c,C:2d", "communication": True}, 6),
    ],
)
def test_random_entries(options: dict[str, Any], matches: int) -> None:
    for state in run_playouts(GAME, 3, options, matches=matches, deep_every=6, sample_legal=8):
        assert state.outcome is not None


# --- through the table service ----------------------------------------------------------------------

G, CH = "g1", "c1"
ANN, BOB, CAT = User("1", "Ann"), User("2", "Bob"), User("3", "Cat")


async def test_refereed_deal_through_the_table_service(service: TableService) -> None:  # noqa: F811
    await service.open_referee(G, CH, ANN, "hoodwink", [ANN, BOB, CAT], ["first_dealer=1", "disciplined_bids=true"])
    table = service.require_table(G, CH)
    assert table.mode == "referee" and isinstance(table.state, RefereeHoodwinkState)
    await service.act(G, CH, ANN, Bid(bid=card("AH")))  # Ann's own bid
    await service.act(G, CH, ANN, Bid(bid=card("9H")), seat=B)
    with pytest.raises(TableError, match="Ann already showed the Ace of Hearts"):
        await service.act(G, CH, CAT, Bid(bid=card("AH")))
    await service.act(G, CH, CAT, Bid(bid=card("7H")))
    await service.act(G, CH, BOB, DisputeBid())  # Bob owns up: his longest suit was spades
    await service.act(G, CH, BOB, Bid(bid=card("KS")))
    await service.act(G, CH, ANN, TricksWon(tricks=4))
    await service.act(G, CH, CAT, TricksWon(tricks=3))
    await service.undo(G, CH, CAT)  # Cat took 4 as well
    table = service.require_table(G, CH)
    assert isinstance(table.state, RefereeHoodwinkState) and table.state.counts.counts == [4, None, None]
    await service.act(G, CH, CAT, TricksWon(tricks=4))  # Bob's 3 is filled in
    assert table.state.scores == [14, 3, 14] and table.state.deal_no == 2
    # the host corrects Cat's bid (entry 3) to the 7♠: Bob and Cat (spades) are partners and split,
    # Ann is the Hood with 4, even, matching Cat: 4 + 10 + 10
    await service.correct(G, CH, ANN, 3, Bid(bid=card("7S")))
    table = service.require_table(G, CH)
    assert isinstance(table.state, RefereeHoodwinkState) and table.state.scores == [24, 3, 4]
    with pytest.raises(TableError, match="makes entry 5 impossible"):
        await service.correct(G, CH, ANN, 4, TricksWon(tricks=4))  # the dispute becomes Bob's count
