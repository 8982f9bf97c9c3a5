"""Costly Colours: the worked deal of the rules file, the mog in two- and four-hand play, refusals,
peg-outs and random playouts for every player count and option."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from games.cards import Card, card, full_pack, parse_cards
from games.costly_colours import (
    GAME,
    AcceptMog,
    BuryCard,
    CostlyColoursState,
    GiveCard,
    KeepHand,
    NoMog,
    ProposeMog,
    RefuseMog,
    TakeStock,
)
from games.engine import IllegalAction, PlayCard, SetupError
from tests.playout import run_playouts


def deck_for(dealer: int, hands: Sequence[str], deck_card: str, stock_top: str = "") -> list[Card]:
    """A pack order that deals ``hands[seat]`` to each seat (one card at a time from the dealer's
    left), turns ``deck_card`` and puts ``stock_top`` cards next under it."""
    n = len(hands)
    held = [parse_cards(h) for h in hands]
    order = [held[(dealer + 1 + i) % n][i // n] for i in range(3 * n)]
    order.append(card(deck_card))
    order += parse_cards(stock_top)
    order += [c for c in full_pack() if c not in order]
    return order


def start(
    hands: Sequence[str],
    deck_card: str,
    *,
    dealer: int = 0,
    later: Sequence[list[Card]] = (),
    stock_top: str = "",
    options: Mapping[str, object] | None = None,
) -> CostlyColoursState:
    names = ["Dee", "Eve"] if len(hands) == 2 else ["North", "East", "South", "West"]
    deck = [deck_for(dealer, hands, deck_card, stock_top), *later]
    state = GAME.start(names, {"first_dealer": dealer + 1, **(options or {})}, seed=5, deck=deck)
    assert isinstance(state, CostlyColoursState)
    return state


def play(state: CostlyColoursState, seat: int, code: str) -> None:
    state.apply(seat, PlayCard(play=card(code)))


def refused(state: CostlyColoursState, seat: int, action: object) -> str:
    before = state.fingerprint()
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)  # type: ignore[arg-type]
    assert state.fingerprint() == before
    return str(info.value)


# A quiet second deal for tests that finish a deal: the deck card 5♣ gives no heels.
QUIET = deck_for(1, ["3S 4S 6S", "3H 4H 6H"], "5C")

D, E = 0, 1  # the worked deal: Dee deals, Eve is the non-dealer


def worked_deal(**options: object) -> CostlyColoursState:
    return start(["2H 7C 9H", "5H 4H 8H"], "JH", later=[QUIET], options=options)


# --- the worked deal of the rules file ------------------------------------------------------------


def test_worked_deal_heels_and_declined_mog() -> None:
    state = worked_deal()
    assert state.deal.deck_card == card("JH")
    assert state.scores == [4, 0]  # his heels for the turned Jack
    assert state.awaiting() == {E}
    assert state.legal_actions(E) == [ProposeMog(), NoMog()]
    state.apply(E, NoMog())
    assert state.scores == [5, 0]  # declining is a refusal: the dealer pegs 1
    assert state.awaiting() == {E}  # the non-dealer leads


def test_worked_deal_whole() -> None:
    state = worked_deal()
    state.apply(E, NoMog())
    play(state, E, "5H")
    play(state, D, "7C")
    play(state, E, "8H")
    assert state.deal.total == 20 and state.scores == [5, 0]
    play(state, D, "9H")  # 29, and 7-8-9 is a sequence
    assert state.scores == [8, 0]
    # Eve's 4♥ would make 33: she is passed over with a Go, Dee plays on
    assert state.deal.said_go == [False, True]
    assert state.awaiting() == {D}
    assert state.legal_actions(D) == [PlayCard(play=card("2H"))]
    play(state, D, "2H")  # 31 with five cards (5) and the go (1)
    assert state.scores == [14, 0]
    assert state.deal.total == 0 and state.awaiting() == {E}  # a new series, Eve to start it
    play(state, E, "4H")  # the last card: 1 for the go
    texts = [e.text for e in state.log if e.to is None]
    assert "Eve pegs 1 for the go (count 4): Eve 1." in texts
    # the show: Eve 8 (fifteen 2, four hearts 6), Dee 7 (deuce of trumps 4, three hearts 3)
    assert state.scores == [21, 9]
    assert state.last_show == [
        "Eve: 5♥ 8♥ 4♥ with J♥: Fifteen (5♥ J♥): 2; Four in suit, Costly Colours (5♥ 8♥ 4♥ J♥): 6 = 8",
        "Dee: 7♣ 9♥ 2♥ with J♥: Deuce of trumps, his nob (2♥): 4; Three in suit (9♥ 2♥ J♥): 3 = 7",
    ]
    # the next deal: Eve deals, Dee is to say whether to mog
    assert state.deal_no == 2 and state.dealer == E and state.awaiting() == {D}


def test_worked_deal_cotton_reading() -> None:
    state = worked_deal(go_point_on_31=False)
    state.apply(E, NoMog())
    for seat, code in [(E, "5H"), (D, "7C"), (E, "8H"), (D, "9H"), (D, "2H"), (E, "4H")]:
        play(state, seat, code)
    assert state.scores == [20, 9]


# --- the mog, two hands ---------------------------------------------------------------------------


def test_refused_mog_pegs_for_the_proposer() -> None:
    state = start(["KS 9D 4C", "QS 8D 3C"], "6H")
    state.apply(E, ProposeMog())
    assert state.awaiting() == {D}
    assert state.legal_actions(D) == [AcceptMog(), RefuseMog()]
    state.apply(D, RefuseMog())
    assert state.scores == [0, 1]
    assert state.awaiting() == {E} and state.deal.phase == "play"


def test_accepted_mog_exchanges_blind_and_pegs_jacks_and_deuces() -> None:
    # hearts trumps; Eve passes the Jack of trumps (4), Dee a plain Deuce (2)
    state = start(["2S 9D 4C", "JH 8D 3C"], "6H")
    state.apply(E, ProposeMog())
    state.apply(D, AcceptMog())
    assert state.awaiting() == {D, E}  # both choose at once
    state.apply(E, GiveCard(give=card("JH")))
    assert state.awaiting() == {D}
    assert sorted(map(str, state.hands[E])) == sorted(["J♥", "8♦", "3♣"])  # nothing arrives yet
    state.apply(D, GiveCard(give=card("2S")))
    assert state.scores == [2, 4]
    assert set(state.hands[D]) == set(parse_cards("JH 9D 4C"))
    assert set(state.hands[E]) == set(parse_cards("2S 8D 3C"))
    private = [e.text for e in state.log if e.to == E]
    assert "You passed J♥ and received 2♠." in private
    public = [e.text for e in state.log if e.to is None]
    assert not any("J♥" in t or "2♠" in t for t in public[-4:])


def test_muggins_unclaimed_goes_to_the_receiver_at_the_show() -> None:
    state = start(["2S 9D 4C", "JH 8D 5C"], "6H", later=[QUIET], options={"muggins": True})
    state.apply(E, ProposeMog())
    state.apply(D, AcceptMog())
    gives = state.legal_actions(E)
    assert GiveCard(give=card("JH"), claim=True) in gives and GiveCard(give=card("JH")) in gives
    assert GiveCard(give=card("8D"), claim=True) not in gives
    msg = refused(state, E, GiveCard(give=card("8D"), claim=True))
    assert msg == "Only a Jack or a Deuce can be claimed, and 8♦ is neither."
    state.apply(E, GiveCard(give=card("JH")))  # forgets to claim
    state.apply(D, GiveCard(give=card("2S"), claim=True))  # claims 2
    assert state.scores == [2, 0]
    # Dee: J♥ 9♦ 4♣; Eve: 2♠ 8♦ 5♣. Play it out.
    play(state, E, "8D")  # 8
    play(state, D, "9D")  # 17
    play(state, E, "5C")  # 22
    play(state, D, "4C")  # 26
    play(state, E, "2S")  # 28
    # Dee's J♥ would pass 31: Eve is last and pegs the go
    assert state.scores == [2, 1]
    play(state, D, "JH")  # new series: 10, the last card, go 1 (Dee 3), then the show
    # Dee 9♦ 4♣ J♥ + 6♥: 9+6 = 15 (2), 9+J+6 = 25 (3), J♥ trump 4, three red (9♦ J♥ 6♥) 2,
    # plus Eve's unclaimed J♥ (4) = 15
    # Eve (counts first) 8♦ 5♣ 2♠ + 6♥: 8+5+2 = 15 (3), 2♠ 2, two of each colour -> 5
    assert state.scores == [18, 6]
    assert "Unclaimed J♥ received in the mog: 4" in state.last_show[1]


def test_without_muggins_a_claim_is_refused() -> None:
    state = start(["2S 9D 4C", "JH 8D 3C"], "6H")
    state.apply(E, ProposeMog())
    state.apply(D, AcceptMog())
    msg = refused(state, E, GiveCard(give=card("JH"), claim=True))
    assert msg == "Jacks and Deuces are claimed for you automatically: just choose the card."


# --- refusals -------------------------------------------------------------------------------------


def pass_31_position() -> CostlyColoursState:
    # Eve 10♠ (10), Dee K♥ (20), Eve 9♠ (29): Dee holds 2♦ (fits) and 8♣ (would make 37)
    state = start(["KH 2D 8C", "10S 9S AC"], "4H", later=[QUIET])
    state.apply(E, NoMog())
    for seat, code in [(E, "10S"), (D, "KH"), (E, "9S")]:
        play(state, seat, code)
    return state


def test_refuse_card_past_31() -> None:
    state = pass_31_position()
    assert state.legal_actions(D) == [PlayCard(play=card("2D"))]
    msg = refused(state, D, PlayCard(play=card("8C")))
    assert msg == "8♣ would take the count from 29 to 37, past 31: play a card that keeps it at 31 or under."


def test_refuse_out_of_turn_and_unheld_cards() -> None:
    state = pass_31_position()
    assert (
        refused(state, E, PlayCard(play=card("AC"))) == "It is not your turn: the table is waiting for Dee."
    )
    assert refused(state, D, PlayCard(play=card("QS"))) == "You do not hold Q♠."
    assert refused(state, D, ProposeMog()) == "The mogging is over: it is time to play a card to the count."


def test_refusals_during_the_mog() -> None:
    state = start(["KH 2D 8C", "10S 9S AC"], "4H")
    assert (
        refused(state, E, PlayCard(play=card("10S"))) == "The play has not started yet: the mog comes first."
    )
    assert refused(state, E, AcceptMog()) == "First say whether you propose a mog to Dee."
    assert refused(state, D, NoMog()) == "It is not your turn: the table is waiting for Eve."
    state.apply(E, ProposeMog())
    assert refused(state, D, GiveCard(give=card("KH"))) == "Eve has proposed a mog: accept it or refuse it."
    state.apply(D, AcceptMog())
    state.apply(D, GiveCard(give=card("8C")))
    assert (
        refused(state, D, GiveCard(give=card("KH"))) == "It is not your turn: the table is waiting for Eve."
    )
    assert refused(state, E, GiveCard(give=card("KH"))) == "You do not hold K♥."


def test_31_then_go_then_new_series() -> None:
    state = pass_31_position()
    assert state.scores == [1, 0]  # Eve did not propose a mog
    play(state, D, "2D")  # 31 with four cards (4) and the go (1)
    assert state.scores == [6, 0]
    assert state.awaiting() == {E} and state.deal.total == 0  # Eve, opponent of the last player, starts
    play(state, E, "AC")
    play(state, D, "8C")  # 9; both hands empty: Dee pegs the go (7), then shows 4 (see below)
    assert state.scores == [11, 5]


# --- peg-out --------------------------------------------------------------------------------------


def test_peg_out_in_the_show_non_dealer_counts_first() -> None:
    state = worked_deal()
    state.scores = [110, 112]
    state.apply(E, NoMog())  # Dee 111
    for seat, code in [(E, "5H"), (D, "7C"), (E, "8H"), (D, "9H"), (D, "2H")]:
        play(state, seat, code)
    assert state.scores == [120, 112]
    play(state, E, "4H")  # Eve 113, then her show of 8 takes her to 121 before Dee counts
    assert state.is_over and state.outcome is not None
    assert state.outcome.winners == [E]
    assert state.scores == [120, 121]
    assert state.outcome.notes == ["Eve wins by reaching 121 (8 at the show)."]
    assert state.awaiting() == frozenset()


def test_peg_out_in_the_play_ends_at_once() -> None:
    state = worked_deal()
    state.scores = [115, 0]
    state.apply(E, NoMog())  # 116
    for seat, code in [(E, "5H"), (D, "7C"), (E, "8H")]:
        play(state, seat, code)
    play(state, D, "9H")  # the sequence of 3: 119
    assert not state.is_over
    play(state, D, "2H")  # 31 with five cards
    assert state.is_over and state.outcome is not None and state.outcome.winners == [D]
    assert state.scores == [124, 0]  # the go point is never pegged
    assert refused(state, E, PlayCard(play=card("4H"))) == "This match is over."


def test_heels_win_at_the_next_deal() -> None:
    second = deck_for(1, ["3S 4S 6S", "3H 4H 6H"], "2C")  # Eve deals deal 2 and turns 2♣
    state = start(["KH 2D 8C", "10S 9S AC"], "4H", later=[second])
    state.apply(E, NoMog())
    state.scores = [1, 113]
    for seat, code in [(E, "10S"), (D, "KH"), (E, "9S"), (D, "2D"), (E, "AC"), (D, "8C")]:
        play(state, seat, code)
    # play: Dee 31 with four cards (4) + go (1), then the last card (1)
    # show, Eve first: 10♠ 9♠ A♣ + 4♥: 10+1+4 = 15 (3); three black, two spades (2) -> 5
    # Dee: K♥ 2♦ 8♣ + 4♥: no 15 or 25 (all four 24); 2♦ not trumps (2); three red (2) -> 4
    # deal 2: Eve's heels take her from 118 to 122
    assert state.deal_no == 2 and state.dealer == E
    assert state.is_over and state.outcome is not None and state.outcome.winners == [E]
    assert state.scores == [1 + 6 + 4, 122]
    assert state.outcome.notes == ["Eve wins by reaching 122 (4 for his heels (2♣ turned))."]


# --- four hands -----------------------------------------------------------------------------------

N, EA, S, W = 0, 1, 2, 3


QUIET4 = deck_for(1, ["3S 4S 6S", "3H 4H 6H", "3D 4D 6D", "3C 4C 6C"], "5C")


def four_hand(**options: object) -> CostlyColoursState:
    # North deals; diamonds trumps (deck 7♦); the card under the deck card is 2♦
    return start(
        ["JS 9C 4H", "KS 8C 3H", "QS 7C 5D", "10S 6C AH"],
        "7D",
        stock_top="2D",
        later=[QUIET4],
        options=options,
    )


def test_four_hand_deal_and_mog_order() -> None:
    state = four_hand()
    assert [len(h) for h in state.hands] == [3, 3, 3, 3]
    assert state.stock[0] == card("2D") and len(state.stock) == 52 - 13
    # East (the dealer's left) proposes to West first
    assert state.awaiting() == {EA}
    state.apply(EA, ProposeMog())
    assert state.awaiting() == {W}
    state.apply(W, AcceptMog())
    assert state.awaiting() == {EA, W}
    state.apply(W, GiveCard(give=card("AH")))
    state.apply(EA, GiveCard(give=card("KS")))
    assert card("AH") in state.hands[EA] and card("KS") in state.hands[W]
    # then North to South, who refuses: no point, and North may mog with the stock
    assert state.awaiting() == {N}
    state.apply(N, ProposeMog())
    state.apply(S, RefuseMog())
    assert state.scores == [0, 0, 0, 0]
    assert state.awaiting() == {N} and state.legal_actions(N) == [TakeStock(), KeepHand()]
    state.apply(N, TakeStock())
    assert card("2D") in state.hands[N] and len(state.hands[N]) == 4
    assert (
        refused(state, N, PlayCard(play=card("2D"))) == "The play has not started yet: the mog comes first."
    )
    state.apply(N, BuryCard(bury=card("JS")))  # a Jack put under the deck card scores nothing
    assert state.stock[0] == card("JS") and state.scores == [0, 0, 0, 0]
    assert state.deal.phase == "play" and state.awaiting() == {EA}


def test_four_hand_dealer_who_did_not_propose_cannot_use_the_stock() -> None:
    state = four_hand()
    state.apply(EA, NoMog())
    state.apply(N, NoMog())
    assert state.deal.phase == "play" and state.scores == [0, 0, 0, 0]


def test_four_hand_partner_refusal_point_option() -> None:
    state = four_hand(partner_refusal_point=True)
    state.apply(EA, NoMog())  # West, East's partner, pegs 1 for East-West
    assert state.scores == [0, 1, 0, 1]
    state.apply(N, ProposeMog())
    state.apply(S, RefuseMog())  # North pegs 1 for North-South, then may use the stock
    assert state.scores == [1, 1, 1, 1]
    state.apply(N, KeepHand())
    assert state.deal.phase == "play"


def test_four_hand_play_go_round_and_show() -> None:
    state = four_hand()
    state.apply(EA, NoMog())
    state.apply(N, NoMog())
    # East K♠ 10, South Q♠ 20, West 10♠ 30: North (J♠ 9♣ 4♥), East (8♣ 3♥) cannot go on;
    for seat, code in [(EA, "KS"), (S, "QS"), (W, "10S")]:
        play(state, seat, code)
    # South holds 7♣ 5♦, nothing fits 31; West holds 6♣ A♥: A♥ makes 31
    assert state.awaiting() == {W}
    assert state.deal.said_go == [True, True, True, False]
    play(state, W, "AH")  # 31 with four cards (4) + go (1) for East-West
    assert state.scores == [0, 5, 0, 5]
    assert state.awaiting() == {N}  # next after West holding cards
    for seat, code in [(N, "JS"), (EA, "8C"), (S, "7C")]:  # 10, 18, 25 (3 cards: 3)
        play(state, seat, code)
    assert state.scores == [3, 5, 3, 5]
    play(state, W, "6C")  # 31 with four cards (4), 8-7-6 a sequence (3), and the go (1)
    assert state.scores == [3, 13, 3, 13]
    # North 9♣ 4♥, East 3♥, South 5♦: a new series from North
    for seat, code in [(N, "9C"), (EA, "3H"), (S, "5D")]:  # 9, 12, 17: no run (9 3 5)
        play(state, seat, code)
    assert state.awaiting() == {N}  # West is out of cards
    play(state, N, "4H")  # 21: 3 5 4 is a sequence (3); the last card, go (1)
    # the show, from East round to North (dealer last):
    # East K♠ 8♣ 3♥ + 7♦: 8+7 = 15 (2), K+8+7 = 25 (3); all four 28; two of each colour -> 5
    # South Q♠ 7♣ 5♦ + 7♦: Q+5 = 15 (2); threes 22, 22, 27, 19; all 29; pair of sevens 2 -> 4
    # West 10♠ 6♣ A♥ + 7♦: pairs 16 11 17 7 13 8, threes 17 23 18 14, all 24: nothing -> 0
    # North J♠ 9♣ 4♥ + 7♦: no 15 or 25 (all four 30); J♠ a plain Jack 2 -> 2
    assert [line.split(":")[0] for line in state.last_show] == ["East", "South", "West", "North"]
    assert state.last_show[2].endswith("nothing = 0")
    assert state.scores == [3 + 3 + 1 + 4 + 2, 13 + 5 + 0, 3 + 3 + 1 + 4 + 2, 13 + 5 + 0]
    assert state.deal_no == 2 and state.dealer == EA


def test_four_hand_outcome_has_teams() -> None:
    state = four_hand()
    state.scores = [119, 0, 119, 0]
    state.apply(EA, NoMog())
    state.apply(N, NoMog())
    for seat, code in [(EA, "KS"), (S, "QS"), (W, "10S"), (W, "AH")]:
        play(state, seat, code)
    for seat, code in [(N, "JS"), (EA, "8C"), (S, "7C")]:  # South makes 25: North-South win
        play(state, seat, code)
    assert state.is_over and state.outcome is not None
    assert state.outcome.teams == [[0, 2], [1, 3]]
    assert state.outcome.winners == [N, S]
    assert state.outcome.notes == ["North and South win by reaching 122 (3 for twenty-five with 3 cards)."]


# --- options and setup ----------------------------------------------------------------------------


def test_options_parse_and_validate() -> None:
    opts = GAME.parse_options(["target=61", "muggins=on", "go_point_on_31=false"])
    assert opts.target == 61 and opts.muggins and not opts.go_point_on_31
    with pytest.raises(SetupError):
        GAME.parse_options(["target=100"])
    with pytest.raises(SetupError, match="four-hand"):
        GAME.check_players(2, GAME.options({"partner_refusal_point": True}))
    with pytest.raises(SetupError):
        GAME.check_players(3, GAME.options())
    assert {f.name for f in GAME.option_fields()} >= {
        "go_point_on_31",
        "muggins",
        "partner_refusal_point",
        "target",
    }
    assert all(f.description for f in GAME.option_fields())


def test_views_hide_hands() -> None:
    state = worked_deal()
    public = state.view(None)
    assert public.hand == [] and public.deck_card == card("JH") and public.trumps == "hearts"
    assert set(state.view(E).hand) == set(parse_cards("5H 4H 8H"))
    assert any("Deck card: J♥" in line for line in public.text_lines())


# --- random playouts ------------------------------------------------------------------------------

PLAYOUTS = [
    (2, {}, 50),
    (2, {"go_point_on_31": False}, 20),
    (2, {"muggins": True}, 25),
    (2, {"target": 61, "muggins": True, "go_point_on_31": False}, 30),
    (4, {}, 20),
    (4, {"partner_refusal_point": True, "muggins": True}, 15),
    (4, {"go_point_on_31": False, "target": 61}, 20),
]
"""Each option set and how many random matches the slow suite plays of it; the default suite plays
the first half of them (3.3 s of CPU where the whole took 5.5, -n 0)."""


@pytest.mark.parametrize(("players", "options", "matches"), PLAYOUTS)
def test_random_playouts(players: int, options: dict[str, object], matches: int) -> None:
    check_random_playouts(players, options, (matches + 1) // 2)


@pytest.mark.slow
@pytest.mark.parametrize(("players", "options", "matches"), PLAYOUTS)
def test_random_playouts_in_full(players: int, options: dict[str, object], matches: int) -> None:
    check_random_playouts(players, options, matches)


def check_random_playouts(players: int, options: dict[str, object], matches: int) -> None:
    finals = run_playouts(GAME, players, options, matches=matches, deep_every=20)
    target = options.get("target", 121)
    for state in finals:
        assert state.outcome is not None
        assert max(state.outcome.scores) >= target  # type: ignore[operator]
        winners = state.outcome.winners
        assert len(winners) == (2 if players == 4 else 1)
        if players == 4:
            assert state.outcome.teams == [[0, 2], [1, 3]]
            assert state.scores[0] == state.scores[2] and state.scores[1] == state.scores[3]


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_many_random_playouts(players: int) -> None:
    run_playouts(GAME, players, {"muggins": True}, matches=400, seed=7, deep_every=25)


def test_the_last_show_is_told_a_hand_a_line_with_its_total() -> None:
    """Each shown hand is a line of its own, not indented (the chat table leaves indented runs
    out as a grid, which once printed "Last show:" and nothing after it)."""
    from typing import Any

    from games.engine import GameState
    from games.registry import get_game
    from games.simulate import play_match

    seen: list[list[str]] = []

    def keep(state: GameState[Any]) -> None:
        assert isinstance(state, CostlyColoursState)
        if state.last_show and not seen:
            seen.append(list(state.last_show))
            shown = [line for line in state.view(None).text_lines() if "show" in line.lower()]
            assert shown == [f"Last show, {entry}" for entry in state.last_show]
            assert all(" = " in line for line in shown)

    play_match(get_game("costly_colours"), 2, seed=3, on_action=keep)
    assert seen, "the match was expected to reach a show"
