"""Costly Colours in referee mode: the worked deal entered card by card, the mog entries (claims,
muggins, the stock), refusals with their messages and no change of state, whole matches mirrored
from the dealt game (same scores at every step), replay, random playouts and the table service."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from bot.tables import TableError, TableService, User
from games import costly_colours as online
from games.cards import card
from games.engine import Action, IllegalAction, PlayCard, SetupError
from games.players import RandomPlayer
from games.referee.costly_colours import (
    GAME,
    ClaimGift,
    DeckCard,
    MogPass,
    NoGiftClaim,
    RefereeCostlyColoursState,
    SayGo,
)
from games.registry import referee_game
from tests.bot.conftest import db_path, notifier, service  # noqa: F401  (fixtures)
from tests.games.mirror import mirror as mirror_facts
from tests.playout import run_playouts

AcceptMog, RefuseMog, ProposeMog, NoMog = online.AcceptMog, online.RefuseMog, online.ProposeMog, online.NoMog
TakeStock, KeepHand = online.TakeStock, online.KeepHand

D, E = 0, 1  # two hands: Dee deals first, Eve is the non-dealer
N, EA, S, W = 0, 1, 2, 3


def start(players: int = 2, **options: object) -> RefereeCostlyColoursState:
    names = ["Dee", "Eve"] if players == 2 else ["North", "East", "South", "West"]
    state = GAME.start(names, {"first_dealer": 1, **options}, seed=3)
    assert isinstance(state, RefereeCostlyColoursState)
    return state


def enter(state: RefereeCostlyColoursState, seat: int, *entries: Action | str) -> None:
    """Apply entries for one seat; a string is a card played."""
    for entry in entries:
        state.apply(seat, PlayCard(play=card(entry)) if isinstance(entry, str) else entry)


def play(state: RefereeCostlyColoursState, *moves: tuple[int, str]) -> None:
    """Cards played (or "Go") in order."""
    for seat, code in moves:
        state.apply(seat, SayGo() if code == "Go" else PlayCard(play=card(code)))


def refused(state: RefereeCostlyColoursState, seat: int, action: Action) -> str:
    before = state.fingerprint()
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)
    assert state.fingerprint() == before
    return str(info.value)


def replayed(state: RefereeCostlyColoursState) -> None:
    again = GAME.replay(GAME.record(state))
    assert again.fingerprint() == state.fingerprint()


def texts(state: RefereeCostlyColoursState) -> list[str]:
    return [e.text for e in state.log if e.to is None]


# --- the worked deal of the rules file, entered ---------------------------------------------------


def test_referee_game_is_registered() -> None:
    assert referee_game("costly_colours") is GAME
    assert GAME.id == online.GAME.id and GAME.player_counts == (2, 4)
    with pytest.raises(SetupError, match="four-hand"):
        GAME.check_players(2, GAME.options({"partner_refusal_point": True}))


def test_worked_deal_entered() -> None:
    state = start()
    assert state.awaiting() == {D} and len(state.legal_actions(D)) == 52
    assert state.view(None).due == "the card Dee turned up as the deck card."
    assert refused(state, D, PlayCard(play=card("5H"))) == "First enter the deck card Dee turned up."
    assert refused(state, E, DeckCard(deck=card("JH"))) == "It is not your turn: the table is waiting for Dee."
    enter(state, D, DeckCard(deck=card("JH")))
    assert "Dee turns up J♥: hearts are trumps." in texts(state)
    assert state.scores == [4, 0]  # his heels
    assert refused(state, E, DeckCard(deck=card("QH"))) == "The deck card of this deal is already entered: J♥."
    assert refused(state, E, PlayCard(play=card("5H"))) == "The play has not started yet: the mog comes first."
    enter(state, E, NoMog())
    assert state.scores == [5, 0]
    play(state, (E, "5H"))
    assert refused(state, D, SayGo()) == "With the count at 5 any card fits under 31: Dee must play one."
    assert refused(state, D, PlayCard(play=card("JH"))) == "J♥ is the deck card: it is not in anyone's hand."
    assert refused(state, D, PlayCard(play=card("5H"))) == "5♥ has already been played this deal, by Eve."
    play(state, (D, "7C"), (E, "8H"), (D, "9H"))  # 29, the sequence 7-8-9 pegs 3
    assert state.scores == [8, 0] and state.deal.total == 29
    assert refused(state, E, PlayCard(play=card("4H"))) == (
        "4♥ would take the count from 29 to 33, past 31: enter a card that keeps it at 31 or under, or Go."
    )
    assert PlayCard(play=card("2H")) in state.legal_actions(E) and SayGo() in state.legal_actions(E)
    play(state, (E, "Go"), (D, "2H"))  # 31 with five cards and the go: the series ends by itself
    assert state.scores == [14, 0] and state.deal.total == 0 and state.awaiting() == {E}
    assert refused(state, D, PlayCard(play=card("4H"))) == "It is not your turn: the table is waiting for Eve."
    play(state, (E, "4H"))  # the last card: the go, then the show with no entries
    assert state.scores == [21, 9]
    assert state.last_show == [
        "Eve: 5♥ 8♥ 4♥ with J♥: Fifteen (5♥ J♥): 2; Four in suit, Costly Colours (5♥ 8♥ 4♥ J♥): 6 = 8",
        "Dee: 7♣ 9♥ 2♥ with J♥: Deuce of trumps, his nob (2♥): 4; Three in suit (9♥ 2♥ J♥): 3 = 7",
    ]
    assert state.deal_no == 2 and state.dealer == E and state.awaiting() == {E}
    assert state.deal.deck_card is None and state.deal.played == [[], []]
    lines = state.view(None).text_lines()
    assert "Next entry: the card Eve turned up as the deck card." in lines
    assert any(line.startswith("Last show, Eve: 5♥ 8♥ 4♥") for line in lines)
    replayed(state)


def test_cottons_reading_of_31() -> None:
    state = start(go_point_on_31=False)
    enter(state, D, DeckCard(deck=card("JH")))
    enter(state, E, NoMog())
    play(state, (E, "5H"), (D, "7C"), (E, "8H"), (D, "9H"), (E, "Go"), (D, "2H"), (E, "4H"))
    assert state.scores == [20, 9]


def test_go_round_ends_the_series_and_the_last_player_pegs() -> None:
    state = start()
    enter(state, D, DeckCard(deck=card("4H")))
    enter(state, E, ProposeMog())
    enter(state, D, RefuseMog())  # Eve pegs 1
    play(state, (E, "10S"), (D, "KH"), (E, "9S"))  # 29
    play(state, (D, "Go"))
    assert state.deal.said_go == [True, False] and state.awaiting() == {E}
    assert refused(state, D, PlayCard(play=card("AC"))) == "It is not your turn: the table is waiting for Eve."
    play(state, (E, "AC"))  # 30, Eve plays on; her hand is empty, so the series ends
    assert state.scores == [0, 2] and state.deal.total == 0  # Eve's go (1) after the refusal (1)
    assert state.awaiting() == {D}  # Dee still holds two cards and starts the new series


# --- the mog -------------------------------------------------------------------------------------


def accepted(state: RefereeCostlyColoursState, deck: str = "6H") -> None:
    enter(state, D, DeckCard(deck=card(deck)))
    enter(state, E, ProposeMog())
    enter(state, D, AcceptMog())
    assert state.awaiting() == {D, E}


def test_claims_in_the_mog_peg_and_are_tracked_in_the_play() -> None:
    state = start()
    accepted(state)  # hearts are trumps
    legal = state.legal_actions(E)
    assert legal[0] == MogPass() and len(legal) == 1 + 8  # nothing, or one of the 8 Jacks and Deuces
    assert refused(state, E, MogPass(claim=card("8D"))) == (
        "Only a Jack or a Deuce can be claimed, and 8♦ is neither: enter the pass with nothing claimed."
    )
    enter(state, E, MogPass(claim=card("JH")))
    assert state.scores == [0, 0]  # pegged when both passes are in, proposer first
    assert refused(state, D, MogPass(claim=card("JH"))) == "Eve has already claimed J♥ in this mog."
    enter(state, D, MogPass(claim=card("2S")))
    assert state.scores == [2, 4]  # 4 for the Jack of trumps, 2 for a plain Deuce
    assert state.claimed == {card("JH"): D, card("2S"): E}
    assert "Claimed in the mog: J♥ to Dee; 2♠ to Eve" in state.view(None).text_lines()
    assert refused(state, E, PlayCard(play=card("JH"))) == (
        "J♥ was passed to Dee in the mog: only Dee can play it."
    )
    play(state, (E, "8D"), (D, "9D"), (E, "5C"), (D, "4C"))  # 26
    # Dee's last card must be the J♥: it would pass 31, so Go is fine; nothing else is
    assert state.legal_actions(D) == [] and state.awaiting() == {E}
    play(state, (E, "2S"))  # 28, Eve is out of cards
    assert state.legal_actions(D) == [SayGo()]
    assert refused(state, D, PlayCard(play=card("3C"))) == "Dee has only J♥ left, passed to them in the mog."
    play(state, (D, "Go"))  # Eve pegs the go
    assert state.scores == [2, 5]
    assert refused(state, D, SayGo()) == "Dee holds J♥ (passed in the mog), which fits: it must be played."
    play(state, (D, "JH"))
    # show: Eve 8♦ 5♣ 2♠ + 6♥ = 15 (3) + 2♠ (2) = 5; Dee 9♦ 4♣ J♥ + 6♥ = 9+6 (2), 9+J+6 (3),
    # J♥ of trumps (4), three red (2) = 11; and Dee's last card pegged the go (1)
    assert state.scores == [2 + 1 + 11, 5 + 5]
    replayed(state)


def test_claiming_the_deck_card_or_an_earlier_claim_is_refused() -> None:
    state = start(4)
    enter(state, N, DeckCard(deck=card("JD")))
    assert state.scores == [4, 0, 4, 0]  # his heels for North and South
    enter(state, EA, ProposeMog())
    enter(state, W, AcceptMog())
    assert refused(state, EA, MogPass(claim=card("JD"))) == "J♦ is the deck card: nobody can pass it."
    enter(state, EA, MogPass(claim=card("2C")))
    enter(state, W, MogPass())
    assert state.scores == [4, 2, 4, 2]  # 2♣ pegs 2 for East and West (diamonds are trumps)
    enter(state, N, ProposeMog())
    enter(state, S, AcceptMog())
    assert refused(state, N, MogPass(claim=card("2C"))) == (
        "2♣ was claimed in an earlier mog and passed to West."
    )
    enter(state, N, MogPass(claim=card("2D")))
    enter(state, S, MogPass())
    assert state.scores == [8, 2, 8, 2]  # the Deuce of trumps: 4
    assert state.deal.phase == "play" and state.awaiting() == {EA}


def test_muggins_claim_before_the_receivers_show() -> None:
    state = start(muggins=True)
    accepted(state)
    enter(state, E, MogPass())  # Eve passes J♥ and forgets to claim it
    enter(state, D, MogPass(claim=card("2S")))
    assert state.scores == [2, 0]
    play(state, (E, "8D"), (D, "9D"), (E, "5C"), (D, "4C"), (E, "2S"), (D, "Go"), (D, "JH"))
    # Eve shows first (nothing passed to her unclaimed); then Dee is asked
    assert state.deal.phase == "show_claim" and state.awaiting() == {D}
    assert state.scores == [3, 1 + 5]
    assert state.legal_actions(D) == [ClaimGift(gift=card("JH")), NoGiftClaim()]
    assert refused(state, D, ClaimGift(gift=card("2S"))) == (
        "2♠ cannot be claimed: only a Jack or Deuce Dee played this deal, and not already claimed "
        "in the mog, may have come unclaimed."
    )
    assert refused(state, D, PlayCard(play=card("3C"))) == (
        "The play of this deal is over: the hands are being counted."
    )
    enter(state, D, ClaimGift(gift=card("JH")))
    assert state.scores == [18, 6]  # as in the dealt game's muggins test
    assert "Unclaimed J♥ received in the mog: 4" in state.last_show[1]
    assert state.deal_no == 2
    replayed(state)


def test_muggins_receiver_with_no_jack_or_deuce_is_not_asked() -> None:
    state = start(muggins=True)
    accepted(state)
    enter(state, E, MogPass())
    enter(state, D, MogPass())
    play(state, (E, "8D"), (D, "9D"), (E, "5C"), (D, "4C"), (E, "3S"), (D, "Go"), (D, "KC"))
    assert state.deal_no == 2 and state.deal.phase == "deck"


def test_four_hand_stock_mog_and_go_round() -> None:
    state = start(4)
    enter(state, N, DeckCard(deck=card("7D")))
    enter(state, EA, ProposeMog())
    enter(state, W, AcceptMog())
    enter(state, W, MogPass())
    enter(state, EA, MogPass())
    assert state.awaiting() == {N}
    enter(state, N, ProposeMog())
    assert refused(state, N, AcceptMog()) == "It is not your turn: the table is waiting for South."
    enter(state, S, RefuseMog())
    assert state.scores == [0, 0, 0, 0] and state.legal_actions(N) == [TakeStock(), KeepHand()]
    assert refused(state, N, PlayCard(play=card("2D"))) == "The play has not started yet: the mog comes first."
    enter(state, N, TakeStock())
    assert state.deal.phase == "play" and state.awaiting() == {EA}
    # the online game's four-hand deal: East K♠, South Q♠, West 10♠ (30); North, East, South Go
    play(state, (EA, "KS"), (S, "QS"), (W, "10S"), (N, "Go"), (EA, "Go"), (S, "Go"))
    play(state, (W, "AH"))  # 31 with four cards + go: the series ends without more entries
    assert state.scores == [0, 5, 0, 5] and state.awaiting() == {N}
    play(state, (N, "JS"), (EA, "8C"), (S, "7C"), (W, "6C"))
    assert state.scores == [3, 13, 3, 13]
    play(state, (N, "9C"), (EA, "3H"), (S, "5D"), (N, "4H"))
    assert [line.split(":")[0] for line in state.last_show] == ["East", "South", "West", "North"]
    assert state.scores == [3 + 3 + 1 + 4 + 2, 13 + 5 + 0, 3 + 3 + 1 + 4 + 2, 13 + 5 + 0]
    assert state.deal_no == 2 and state.dealer == EA and state.awaiting() == {EA}
    replayed(state)


def test_peg_out_mid_play_ends_at_once() -> None:
    state = start()
    state.scores = [115, 0]
    enter(state, D, DeckCard(deck=card("JH")))  # 119
    enter(state, E, NoMog())  # 120
    play(state, (E, "5H"), (D, "10C"))  # fifteen with two cards: 122
    assert state.is_over and state.outcome is not None and state.outcome.winners == [D]
    assert state.awaiting() == frozenset() and state.view(None).due == ""
    assert refused(state, E, PlayCard(play=card("4H"))) == "This match is over."


# --- whole matches mirrored from the dealt game ---------------------------------------------------


def mirror(options: Mapping[str, Any], players: int, seed: int, check_refusals: bool = False) -> None:
    """Play a dealt match at random and enter everything that happens at its table into a referee
    game: the referee must peg the same points at every step and end the same way."""
    names = [f"P{i + 1}" for i in range(players)]
    real = online.GAME.start(names, options, seed=seed)
    ref = GAME.start(names, options, seed=seed)
    assert isinstance(real, online.CostlyColoursState) and isinstance(ref, RefereeCostlyColoursState)
    rng = random.Random(seed)
    chooser = RandomPlayer()
    muggins = bool(real.options.muggins)
    unclaimed: dict[int, list[Any]] = {}  # the dealt game's muggins gifts, kept past its show

    def sync() -> None:
        """Make the entries the dealt game made by itself: deck card, Go, muggins claims."""
        while not ref.is_over:
            if ref.deal.phase == "deck" and real.deal_no == ref.deal_no:
                assert real.deal.deck_card is not None
                ref.apply(ref.dealer, DeckCard(deck=real.deal.deck_card))
            elif ref.deal.phase == "show_claim":
                seat = ref.deal.to_act
                gifts = unclaimed.get(seat, [])
                ref.apply(seat, ClaimGift(gift=gifts[0]) if gifts else NoGiftClaim())
            elif ref.deal.phase == "play" and (
                real.deal_no != ref.deal_no
                or real.is_over
                or (real.deal.phase == "play" and (real.deal.to_act, real.deal.series) != (ref.deal.to_act, ref.deal.series))
            ):
                ref.apply(ref.deal.to_act, SayGo())  # the dealt game passed this player over
            else:
                return

    sync()
    while not real.is_over:
        seat = rng.choice(sorted(real.awaiting()))
        action = chooser.choose(real.view(seat), real.legal_actions(seat), rng)
        unclaimed = {s: list(cards) for s, cards in real.deal.unclaimed.items()}
        real.apply(seat, action)
        entry = to_entry(action, real, muggins)
        if entry is not None:
            if check_refusals and isinstance(entry, PlayCard):
                refuse_wrong_plays(ref, seat)
            ref.apply(seat, entry)
        sync()
        assert ref.scores == real.scores
    assert ref.is_over and ref.outcome == real.outcome
    replayed(ref)


def to_entry(action: Action, real: online.CostlyColoursState, muggins: bool) -> Action | None:
    """What people at a real table would enter for this move of the dealt game."""
    if isinstance(action, online.GiveCard):
        card_, claim = action.give, action.claim or not muggins
        return MogPass(claim=card_ if claim and online.is_jack_or_deuce(card_) else None)
    if isinstance(action, online.BuryCard):
        return None  # the card put back stays secret: the stock entry covered it
    return action


def refuse_wrong_plays(ref: RefereeCostlyColoursState, seat: int) -> None:
    """Before a card is entered: a card already seen, and one past 31, are refused."""
    seen = [c for cards in ref.deal.played for c in cards] + [ref.deal.deck_card]
    for c in seen[:2]:
        assert c is not None
        msg = refused(ref, seat, PlayCard(play=c))
        assert "already been played" in msg or "deck card" in msg or "in the mog" in msg
    if ref.deal.total > 21 and len(ref.known_held(seat)) < ref.cards_left(seat):
        big = next(c for c in ref.unseen() if online.card_value(c) > 31 - ref.deal.total)
        assert "past 31" in refused(ref, seat, PlayCard(play=big))


MIRRORS = [
    (2, {}, 25),
    (2, {"muggins": True, "go_point_on_31": False}, 25),
    (2, {"target": 61}, 15),
    (4, {}, 20),
    (4, {"muggins": True, "partner_refusal_point": True}, 20),
]


@pytest.mark.parametrize(("players", "options", "matches"), MIRRORS)
def test_whole_matches_mirrored_from_the_dealt_game(
    players: int, options: dict[str, Any], matches: int
) -> None:
    for m in range(matches):
        mirror(options, players, seed=100 + m, check_refusals=m == 0)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_many_mirrored_matches(players: int) -> None:
    for m in range(150):
        mirror({"muggins": m % 2 == 0}, players, seed=5000 + m)


# --- random entries ----------------------------------------------------------------------------------

PLAYOUTS = [
    (2, {}, 10),
    (2, {"muggins": True, "target": 61}, 10),
    (4, {}, 5),
    (4, {"muggins": True, "partner_refusal_point": True, "go_point_on_31": False}, 5),
]


@pytest.mark.parametrize(("players", "options", "matches"), PLAYOUTS)
def test_random_entries(players: int, options: dict[str, object], matches: int) -> None:
    finals = run_playouts(GAME, players, options, matches=matches, deep_every=40, sample_legal=6)
    for state in finals:
        assert state.outcome is not None
        assert max(state.outcome.scores) >= options.get("target", 121)  # type: ignore[operator]
        if players == 4:
            assert state.outcome.teams == [[0, 2], [1, 3]]


# --- through the table service ----------------------------------------------------------------------

G, C = "g1", "c1"
ANN, BOB = User("1", "Ann"), User("2", "Bob")


async def test_refereed_deal_through_the_table_service(service: TableService) -> None:  # noqa: F811
    await service.open_referee(G, C, ANN, "costly_colours", [ANN, BOB], ["first_dealer=1"])
    table = service.require_table(G, C)
    assert table.mode == "referee" and isinstance(table.state, RefereeCostlyColoursState)
    state = table.state
    await service.act(G, C, BOB, DeckCard(deck=card("JH")))  # Bob enters Ann's deck card
    assert state.scores == [4, 0]
    with pytest.raises(TableError, match="not your turn|no entry"):
        await service.act(G, C, ANN, NoMog(), seat=0)
    await service.act(G, C, ANN, NoMog())  # for Bob, the only awaited seat
    assert state.scores == [5, 0]
    with pytest.raises(TableError, match="deck card"):
        await service.act(G, C, BOB, PlayCard(play=card("JH")))
    for seat, entry in [(1, "5H"), (0, "7C"), (1, "8H"), (0, "9H")]:
        await service.act(G, C, ANN, PlayCard(play=card(entry)), seat=seat)
    await service.act(G, C, BOB, SayGo())
    await service.undo(G, C, BOB)  # Bob took back his Go
    table = service.require_table(G, C)
    assert isinstance(table.state, RefereeCostlyColoursState)
    assert table.state.deal.said_go == [False, False] and table.state.awaiting() == {1}
    await service.act(G, C, BOB, SayGo())
    await service.act(G, C, ANN, PlayCard(play=card("2H")))
    await service.act(G, C, BOB, PlayCard(play=card("4H")))
    assert table.state.scores == [21, 9] and table.state.deal_no == 2
    # a correction that makes a later entry impossible is refused: 7♣ becomes Eve's 5♥
    with pytest.raises(TableError, match="impossible"):
        await service.correct(G, C, ANN, 4, PlayCard(play=card("5H")))


@pytest.mark.parametrize(("players", "options", "matches"), MIRRORS)
def test_deal_facts_entered_score_alike(players: int, options: dict[str, Any], matches: int) -> None:
    """The generic mirror (each online deal's facts entered as a table would) with each option set."""
    deals = sum(mirror_facts(online.GAME, GAME, players, options, seed) for seed in range(200, 200 + matches // 5))
    assert deals >= matches // 5
