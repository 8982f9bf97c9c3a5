"""Bots for the adding-up games: the rules files' worked examples as decisions, legal moves only
over many matches, and win shares against random play and each other over fixed seed sets (seats
rotate every match, so the seat advantage cancels out).

Margins: a level holding one seat should win clearly more than its fair share (one seat's worth);
the thresholds below sit well under what the benchmark measures (``tests/bench/bench_bots.py``),
so that a fixed seed set passes with room to spare, yet far above the fair share.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from games.adders import wit_and_reason_1 as wr1
from games.adders import wit_and_reason_2 as wr2
from games.adders.ninety_nine import NinetyNineOptions, _legal_plays
from games.cards import Rank, card, parse_cards
from games.counting import CountingView, PlayAs, play_as, play_card, play_card_of
from games.engine import Action, View
from games.players import bot_player, levels
from games.players.adders import (
    FIFTY_ONE,
    HUNDRED,
    MODELS,
    NINETY_NINE,
    OBSTACLE_RACE,
    fewest_wins_share,
    lives_match_share,
)
from games.players.counting import (
    MEMORY,
    ByTableSizePlayer,
    GreedyAdderPlayer,
    PlayoutAdderPlayer,
    Position,
    SearchingAdderPlayer,
    pass_floors,
    sample_deal,
    sample_position,
    unseen_cards,
)
from games.players.wit_and_reason import opponent_counts
from games.registry import get_game
from games.simulate import contest, play_match
from tests.players.checked import Checked

ADDERS = ["fifty_one", "hundred", "jubilee", "ninety_nine", "obstacle_race", "twenty_nine"]
RACES = ["wit_and_reason_1", "wit_and_reason_2"]


def view_of(game: str, hand: str, total: int, players: int = 2, seat: int = 0, **fields: Any) -> CountingView:
    """A seat's view of a deal in progress (what a bot is given), built from the facts a test needs."""
    cards = parse_cards(hand)
    base: dict[str, Any] = {
        "game": game,
        "players": [f"P{i + 1}" for i in range(players)],
        "seat": seat,
        "deal": 1,
        "dealer": (seat - 1) % players,
        "scores": [0] * players,
        "awaiting": [seat],
        "phase": "",
        "hand": cards,
        "total": total,
        "to_play": seat,
        "stock": 0,
        "hand_counts": [len(cards)] * players,
        "deal_points": [0] * players,
        "out": [False] * players,
    }
    base.update(fields)
    return CountingView(**base)


def plays(hand: str) -> list[Action]:
    return [play_card(c) for c in dict.fromkeys(parse_cards(hand))]


def choices(game: str, view: View, legal: Sequence[Action], seeds: int = 3) -> dict[str, set[Action]]:
    """What each level chooses here, over a few chooser seeds."""
    return {
        level: {bot_player(game, level).choose(view, legal, random.Random(s)) for s in range(seeds)}
        for level in ("easy", "strong")
    }


def test_every_game_offers_both_levels() -> None:
    for game in [*ADDERS, *RACES]:
        assert levels(game)[:3] == ["random", "easy", "strong"]
        assert bot_player(game, "easy").name == "easy"
        assert bot_player(game, "strong").name == "strong"
    for game in ADDERS:
        assert isinstance(bot_player(game, "easy"), GreedyAdderPlayer)
        assert isinstance(bot_player(game, "strong"), (SearchingAdderPlayer, PlayoutAdderPlayer, ByTableSizePlayer))
    assert {m.game_id for m in MODELS} == set(ADDERS)


# --- the rules files' worked examples, as decisions -----------------------------------------------


def test_fifty_one_at_48_only_the_jack_is_safe() -> None:
    hand = "QS 7H 8D KC KH JD"  # the example: Q, 7, 8, K lose at 48; a Jack makes 50, still safe
    view = view_of("fifty_one", hand, 48)
    for chosen in choices("fifty_one", view, plays(hand)).values():
        assert chosen == {play_card(card("JD"))}


def test_fifty_one_a_ten_or_nine_on_50_is_safe() -> None:
    hand = "AS 10H KD"
    view = view_of("fifty_one", hand, 50)
    for chosen in choices("fifty_one", view, plays(hand)).values():
        assert chosen == {play_card(card("10H"))}  # 49; the Ace and King both lose


def test_fifty_one_strong_leaves_the_next_player_no_safe_card() -> None:
    # At 40 with a Ten (39) or an Eight (48): after 48 the next player needs a card worth 2 or less.
    # With every low card (Ten, Nine, Jack) in our hand or gone, 48 makes them lose.
    hand = "10S 8H 10H 10D 10C"
    gone = "9S 9H 9D 9C JS JH JD JC"
    recent = [{"seat": 1, "card": c, "total": 40} for c in parse_cards(gone)]
    view = view_of("fifty_one", hand, 40, recent=recent)
    chosen = choices("fifty_one", view, plays(hand))
    assert chosen["strong"] == {play_card(card("8H"))}


def test_the_cards_turned_up_to_start_count_as_seen() -> None:
    # Fifty-One: the Ace of Diamonds was turned up and a King took the total to 15; besides our own
    # Ace two are unseen, and not the one turned up. Hundred: the two cards left over are out of
    # every hand, so they are not unseen (they were, before the view carried them)
    hand = "AS QS JS 10S 9S 8S"
    recent = [{"seat": 2, "card": card("KH"), "total": 15}]
    view = view_of(
        "fifty_one", hand, 15, players=3, stock=14, hand_counts=[6, 5, 5], recent=recent, opening=[card("AD")]
    )
    unseen = unseen_cards(FIFTY_ONE, view)
    assert sorted(c.code for c in unseen if c.rank is Rank.ACE) == ["AC", "AH"]
    assert len(unseen) == 32 - 6 - 1 - 1
    hand = "AS KS QS JS 10S 9S 8S 7S AH KH"
    view = view_of("hundred", hand, 18, players=3, opening=parse_cards("AD 7D"))
    unseen = unseen_cards(HUNDRED, view)
    assert card("AD") not in unseen and card("7D") not in unseen
    assert len(unseen) == 32 - 10 - 2


def test_obstacle_race_strong_knows_the_turned_up_cards_are_in_no_hand() -> None:
    # The end of deal 1 of seed 7 at three (10♥ and K♥ turned up to start): at 47 we hold K♦ J♦,
    # and the three cards we have not seen are 8♦ 8♣ 9♣, two with the next player and one with the
    # last. K♦ to 51 leaves both to jump 55 or 66 whichever way those three are split; J♦ to 49
    # lets the last player land on 66 (with the 9♣ they hold) or leaves us to jump 66 ourselves.
    # While the view did not carry the turned-up cards, strong took 10♥ and K♥ for cards the others
    # might hold (a King to land on 55 from 51) and played J♦.
    state: Any = get_game("obstacle_race").start(["A", "B", "C"], None, seed=7)
    plays = ["QS-3", "AC", "QH+3", "7S", "10S", "10D", "JS", "QD-3", "KC", "AS", "8S", "QC+3", "10C", "9H", "JH", "8H", "KS", "JC", "7C", "7H", "AH", "9S", "7D", "AD", "9D"]
    for play in plays:
        seat = state.to_play
        if seat == 0:
            MEMORY.observe(state.view(0))  # what the bot in seat 0 saw at each of its turns
        code, sign, amount = play.partition("+") if "+" in play else play.partition("-")
        action = play_as(card(code), int(sign + amount)) if sign else play_card(card(code))
        state.apply(seat, action)
    view = state.view(0)
    assert (view.total, view.to_play, view.opening) == (47, 0, parse_cards("10H KH"))
    assert sorted(c.code for c in unseen_cards(OBSTACLE_RACE, view)) == ["8C", "8D", "9C"]
    legal = state.legal_actions(0)
    assert {bot_player("obstacle_race", "strong").choose(view, legal, random.Random(k)) for k in range(3)} == {
        play_card(card("KD"))
    }


def test_fifty_one_weighs_a_lost_deal_by_what_it_does_to_the_match() -> None:
    # the last of three deals; we have lost none, P2 one, P3 none. P3 losing wins us the match, P2
    # losing leaves us tied with P3 (half a win), our own loss hands it to P3
    view = view_of("fifty_one", "AS KS", 20, players=3, scores=[0, 1, 0], deals_left=0)
    assert [FIFTY_ONE.care(view, 0, other) for other in range(3)] == [1.0, 0.5, 0.0]
    # with deals to come, the other deals are lost by anyone alike
    assert fewest_wins_share((0, 0, 0), 0, 3) == pytest.approx(1 / 3)
    assert fewest_wins_share((0, 2, 2), 1, 1) == 0.0
    assert fewest_wins_share((0, 1, 0), 0, 1) == pytest.approx((1 / 2 + 1 + 0) / 3)
    # a match played for lives has no fixed end: the plain rule (our loss against the others')
    lives = view_of("fifty_one", "AS KS", 20, players=3, lives=[3, 2, 3])
    assert [FIFTY_ONE.care(lives, 0, other) for other in range(3)] == [1.0, -0.5, -0.5]


def test_a_match_for_lives_is_valued_by_who_loses_the_next_life() -> None:
    assert lives_match_share((3, 3, 3, 3), 2, True) == pytest.approx(0.25)
    # ended: a player has no life left, and the most lives win (a tie shared)...
    assert lives_match_share((3, 0, 1, 3), 0, True) == pytest.approx(0.5)
    # ...or, played to the last survivor, the one still in wins
    assert lives_match_share((2, 0, 0), 0, False) == 1.0
    # two players, 2 lives against 1: we lose only by losing the next two deals
    assert lives_match_share((2, 1), 0, False) == pytest.approx(0.75)
    for lives in [(3, 1, 2, 3), (1, 2, 2), (2, 3, 1, 1, 3)]:
        for first_out in (True, False):
            shares = [lives_match_share(lives, s, first_out) for s in range(len(lives))]
            assert sum(shares) == pytest.approx(1.0)


def test_ninety_nine_strong_steers_the_lost_life_at_four() -> None:
    # we (P1, 3 lives) lead with P4; P2 and P3 have one life left each. P4 losing a life helps us
    # most: then only we lead; P2 or P3 losing theirs would end the match in a tie with P4
    leading = view_of("ninety_nine", "JS KH 5D", 80, players=4, lives=[3, 1, 1, 3], ends_at_first_out=True)
    stakes = NINETY_NINE.stakes(leading)
    assert stakes is not None
    assert stakes[3] > 0 > stakes[1] > stakes[0]
    assert stakes[1] == pytest.approx(stakes[2])
    # both the Jack and the King make 90; the Jack turns play round so that P4 faces it
    assert choices("ninety_nine", leading, plays("JS KH 5D"))["strong"] == {play_card(card("JS"))}
    behind = leading.model_copy(update={"lives": [3, 3, 1, 1]})  # now P2 is the one to press
    assert choices("ninety_nine", behind, plays("JS KH 5D"))["strong"] == {play_card(card("KH"))}
    # with only cards that fit any total, the Nine (99) presses P2; spare P2 and it is the Three
    safe = "9S 3D 10C"
    spare = view_of("ninety_nine", safe, 89, players=4, lives=[3, 1, 1, 3], ends_at_first_out=True)
    assert choices("ninety_nine", spare, plays(safe))["strong"] == {play_card(card("3D"))}
    press = spare.model_copy(update={"lives": [3, 3, 1, 1]})
    assert choices("ninety_nine", press, plays(safe))["strong"] == {play_card(card("9S"))}
    # equal lives: nothing to steer by
    assert NINETY_NINE.stakes(view_of("ninety_nine", safe, 89, players=4, lives=[2, 2, 2, 2])) is None


def test_hundred_makes_100_and_does_not_jump_it() -> None:
    hand = "JS 7H 8D"  # from 98 the Jack makes exactly 100
    for chosen in choices("hundred", view_of("hundred", hand, 98), plays(hand)).values():
        assert chosen == {play_card(card("JS"))}
    hand = "7S QH"  # from 95 a Seven jumps to 102 and loses a point; the Queen makes 98
    for chosen in choices("hundred", view_of("hundred", hand, 95), plays(hand)).values():
        assert chosen == {play_card(card("QH"))}


def test_jubilee_lands_on_100_for_20() -> None:
    hand = "5S 3S 9H"  # 95: 5♠ makes 100 (+20), 3♠ makes 98, 9♥ makes 86
    view = view_of("jubilee", hand, 95, recent=[{"seat": 1, "card": card("KS"), "total": 95}])
    for chosen in choices("jubilee", view, plays(hand)).values():
        assert chosen == {play_card(card("5S"))}


def test_jubilee_easy_does_not_jump_a_multiple_of_25() -> None:
    hand = "JS 4S"  # 16: the Jack jumps 25 (-5), the Four makes 20 (the strong player may still
    # take the -5 when 20 leaves the next player too good a chance of +10 with a black Five)
    view = view_of("jubilee", hand, 16, recent=[{"seat": 1, "card": card("9S"), "total": 16}])
    assert choices("jubilee", view, plays(hand))["easy"] == {play_card(card("4S"))}


def test_obstacle_race_queen_down_onto_55() -> None:
    queen = card("QS")
    legal: list[Action] = [play_as(queen, 3), play_as(queen, -3), play_card(card("7H")), play_card(card("KD"))]
    # Q as -3 lands on 55 from above: +1. The easy player takes it; so does the strong one when
    # nobody else has a card left to answer with (else 65, which every card but a Queen must
    # jump from, can be as good)
    view = view_of("obstacle_race", "QS 7H KD", 58)
    assert choices("obstacle_race", view, legal)["easy"] == {play_as(queen, -3)}
    view = view_of("obstacle_race", "QS 7H KD", 58, hand_counts=[3, 0])
    for chosen in choices("obstacle_race", view, legal).values():
        assert chosen == {play_as(queen, -3)}


def test_obstacle_race_ten_onto_77() -> None:
    hand = "10S 9H 8D"  # 67: the Ten hits 77; the Nine and Eight fall short
    for chosen in choices("obstacle_race", view_of("obstacle_race", hand, 67, players=3), plays(hand)).values():
        assert chosen == {play_card(card("10S"))}
    # at two the strong player may also take 76, from which the one opponent must jump 77 with
    # anything but a Queen (as good as +1 in a race of two), never 75 (a Jack hits 77 from there)
    picked = choices("obstacle_race", view_of("obstacle_race", hand, 67), plays(hand))
    assert picked["easy"] == {play_card(card("10S"))}
    assert picked["strong"] <= {play_card(card("10S")), play_card(card("9H"))}


def test_ninety_nine_at_95_only_the_black_ace_fits() -> None:
    hand = parse_cards("7D AC QS")
    legal = list(_legal_plays(95, tuple(hand), NinetyNineOptions()))
    assert {play_card_of(a) for a in legal} == {card("AC")}
    view = view_of("ninety_nine", "7D AC QS", 95, players=3, stock=20)
    for chosen in choices("ninety_nine", view, legal).values():
        assert all(isinstance(a, PlayAs) and a.play == card("AC") and a in legal for a in chosen)
    # the strong player sets a total the next player is likely unable to add to (its search is
    # over sampled deals, so it may now and then misjudge: four times in five at least)
    picks = [bot_player("ninety_nine", "strong").choose(view, legal, random.Random(s)) for s in range(5)]
    assert all(isinstance(p, PlayAs) for p in picks)
    assert sum(1 for p in picks if isinstance(p, PlayAs) and p.value >= 90) >= 4


def test_ninety_nine_keeps_the_cards_that_fit_any_total() -> None:
    hand = "10S 5D 3C"  # a Ten or a Three can be played on any total: keep them, play the Five
    legal = list(_legal_plays(50, tuple(parse_cards(hand)), NinetyNineOptions()))
    view = view_of("ninety_nine", hand, 50, players=3, stock=20)
    for chosen in choices("ninety_nine", view, legal).values():
        assert chosen == {play_card(card("5D"))}


def test_twenty_nine_makes_29() -> None:
    # N at 27 may play any of three: the Two makes 29 and takes the pile; the King or the Ace would
    # leave 28 for the next player, an opponent, to make 29 with any Ace or court
    hand = "KD AH 2S"
    played = zip(parse_cards("7S 9H KS 10C"), (7, 16, 17, 27), strict=True)
    recent = [{"seat": s % 4, "card": c, "total": t} for s, (c, t) in enumerate(played)]
    view = view_of("twenty_nine", hand, 27, players=4, recent=recent)
    for chosen in choices("twenty_nine", view, plays(hand)).values():
        assert chosen == {play_card(card("2S"))}
    # at 26 with an Ace, a Two and a Three, all playable: only the Three makes 29
    hand = "AS 2D 3H"
    played = zip(parse_cards("7S 9H KS 9C"), (7, 16, 17, 26), strict=True)
    recent = [{"seat": s % 4, "card": c, "total": t} for s, (c, t) in enumerate(played)]
    view = view_of("twenty_nine", hand, 26, players=4, recent=recent)
    for chosen in choices("twenty_nine", view, plays(hand)).values():
        assert chosen == {play_card(card("3H"))}


def test_twenty_nine_does_not_leave_29_to_the_next_opponent() -> None:
    # 20 with 8, 5 or 2: after 8 (28) the next player (an opponent) makes 29 with any Ace or
    # court, after 5 (25) with a Four, after 2 (22) only with a Seven, and every Seven is gone
    hand = "8S 5S 2H"
    gone = parse_cards("7S 7H 7D 7C")
    recent = [{"seat": 1, "card": c, "total": 20} for c in gone]
    view = view_of("twenty_nine", hand, 20, players=2, recent=recent, hand_counts=[3, 12])
    chosen = choices("twenty_nine", view, plays(hand))
    assert chosen["strong"] == {play_card(card("2H"))}


def test_playouts_deal_only_unseen_cards_in_the_right_amounts() -> None:
    # Fifty-One, three players: I have drawn (6 cards), the others hold 5, the stock has 10
    model = next(m for m in MODELS if m.game_id == "fifty_one")
    hand = "AS KS QS JS 10S 9S"
    recent = [{"seat": 1, "card": c, "total": 20} for c in parse_cards("8S 7S")]
    view = view_of("fifty_one", hand, 20, players=3, stock=10, hand_counts=[6, 5, 5], recent=recent)
    player = bot_player("fifty_one", "strong")
    for seed in range(5):
        root = Position(view.total, ((), (), ()), 0)
        deal = sample_deal(model, view, root, random.Random(seed))
        assert [len(h) for h in deal.hands] == [6, 5, 5] and len(deal.stock) == 10
        assert deal.hands[0] == tuple(parse_cards(hand))
        dealt = [c for h in deal.hands[1:] for c in h] + list(deal.stock)
        assert not set(dealt) & set(parse_cards(hand + " 8S 7S"))
        assert len(set(dealt)) == len(dealt) and set(dealt) <= set(unseen_cards(model, view))
        assert player.choose(view, plays(hand), random.Random(seed)) in plays(hand)


# --- Wit and Reason -------------------------------------------------------------------------------


def start(game: str, seed: int = 1) -> Any:
    return get_game(game).start(["A", "B"], {"first_dealer": 1}, seed=seed)


def take(state: Any, value: int) -> None:
    """The player to move plays a card of ``value``."""
    seat = state.to_play
    action = next(a for a in state.legal_actions(seat) if wr1.card_value(a.play) == value)
    state.apply(seat, action)


def strong_value(game: str, state: Any) -> int:
    seat = state.to_play
    action = bot_player(game, "strong").choose(state.view(seat), state.legal_actions(seat), random.Random(0))
    chosen = play_card_of(action)
    assert chosen is not None
    return wr1.card_value(chosen)


def test_wit_and_reason_1_strong_opens_with_an_eight_or_a_nine() -> None:
    for seed in range(3):
        assert strong_value("wit_and_reason_1", start("wit_and_reason_1", seed)) in (8, 9)


def test_wit_and_reason_1_the_simple_line() -> None:
    state = start("wit_and_reason_1")
    for v in (9, 5, 6, 4):  # 9, 14, 20, 24: the first player's Seven makes 31
        take(state, v)
    for level in ("easy", "strong"):
        seat = state.to_play
        action = bot_player("wit_and_reason_1", level).choose(state.view(seat), state.legal_actions(seat), random.Random(0))
        assert wr1.card_value(play_card_of(action)) == 7  # type: ignore[arg-type]


def test_wit_and_reason_1_reads_the_other_hand_from_the_plays() -> None:
    state = start("wit_and_reason_1")
    for v in (9, 5, 6):
        take(state, v)
    seat = state.to_play  # the second player: has played a 5; the first a 9 and a 6
    counts = opponent_counts(state.view(seat))
    assert counts == wr1._less(wr1._less(wr1.COLOUR_COUNTS, 9), 6)


def test_wit_and_reason_2_strong_opens_with_1_2_or_5() -> None:
    assert strong_value("wit_and_reason_2", start("wit_and_reason_2")) in (1, 2, 5)


@pytest.mark.parametrize(
    ("reply", "answers"), [(1, {3, 4}), (2, {3, 5}), (3, {1, 2}), (4, {1, 4}), (5, {2}), (6, {6})]
)
def test_wit_and_reason_2_winning_answers_after_opening_5(reply: int, answers: set[int]) -> None:
    state = start("wit_and_reason_2")
    take(state, 5)
    take(state, reply)
    assert strong_value("wit_and_reason_2", state) in answers


def test_wit_and_reason_2_dudeney_trap_position_is_lost() -> None:
    state = start("wit_and_reason_2")
    for v in (3, 4, 3, 3, 4, 4, 3, 4):  # to 28 with every Three and Four gone
        take(state, v)
    assert state.total == 28
    assert wr2.winning_takes(28, wr2.pool_counts(state.pool)) == []
    assert strong_value("wit_and_reason_2", state) in (1, 2)  # the only takes; both lose


# --- legal moves only -----------------------------------------------------------------------------




# (game, players, easy matches, strong matches): a short default run; the slow test plays many more
LEGALITY = [
    ("fifty_one", 4, 12, 1),
    ("hundred", 3, 15, 1),
    ("jubilee", 4, 3, 1),
    ("ninety_nine", 5, 12, 1),
    ("obstacle_race", 3, 8, 1),
    ("twenty_nine", 4, 6, 1),
    ("wit_and_reason_1", 2, 25, 3),
    ("wit_and_reason_2", 2, 25, 3),
]


@pytest.mark.parametrize(("game", "players", "easy_matches", "strong_matches"), LEGALITY)
def test_bots_only_make_legal_moves(game: str, players: int, easy_matches: int, strong_matches: int) -> None:
    easy = [Checked(bot_player(game, "easy")) for _ in range(players)]
    for seed in range(easy_matches):
        assert play_match(get_game(game), players, seed=seed, policies=easy).is_over
    assert all(p.moves for p in easy)
    mixed = [Checked(bot_player(game, lvl)) for lvl in ("strong", "random", "easy", "random", "easy")[:players]]
    for seed in range(strong_matches):
        assert play_match(get_game(game), players, seed=seed, policies=mixed).is_over
    assert mixed[0].moves


@pytest.mark.slow
@pytest.mark.parametrize("game", [*ADDERS, *RACES])
def test_bots_only_make_legal_moves_over_many_matches(game: str) -> None:
    for n in (2, 3, 4) if game != "ninety_nine" else (3, 6):
        if not get_game(game).min_players <= n <= get_game(game).max_players:
            continue
        mixed = [Checked(bot_player(game, ("strong", "easy", "random")[s % 3])) for s in range(n)]
        for seed in range(40):
            play_match(get_game(game), n, seed=seed, policies=mixed)
        easy = [Checked(bot_player(game, "easy")) for _ in range(n)]
        for seed in range(400):
            play_match(get_game(game), n, seed=seed, policies=easy)


# --- win shares -----------------------------------------------------------------------------------


def share(game: str, matches: int, first: str, rest: str, players: int, seed: int = 0) -> float:
    seats = [first] + [rest] * (players - 1)
    report = contest(get_game(game), matches, seats, seed=seed)
    return report.results[first].share(matches)


# (game, players, matches, strong-vs-random minimum): small fixed runs for the default suite.
# Fifty-One's strong player won 5.5 of the first 6 matches (.917) and 10.5 of 12 (.875): the
# default suite plays 6 (two rounds of the three seats), the slow suite the 12 of LONGER_QUICK;
# Ninety-Nine's likewise .5 over the first 12 and .521 over 24.
QUICK = [
    ("fifty_one", 3, 6, 0.6),  # fair share 1/3
    ("hundred", 2, 6, 0.75),  # fair share 1/2
    ("jubilee", 2, 2, 0.75),
    ("ninety_nine", 3, 12, 0.45),
    ("twenty_nine", 2, 2, 0.75),
    ("wit_and_reason_1", 2, 40, 0.85),
    ("wit_and_reason_2", 2, 40, 0.85),
]


@pytest.mark.parametrize(("game", "players", "matches", "minimum"), QUICK)
def test_strong_beats_random(game: str, players: int, matches: int, minimum: float) -> None:
    assert share(game, matches, "strong", "random", players) >= minimum


# Obstacle Race's strong player at two plays deals out (issue 29): 4 matches against random take
# 8 s, so they run here; test_strong_beats_easy_quick plays it in the default suite.
LONGER_QUICK = [("fifty_one", 3, 12, 0.6), ("ninety_nine", 3, 24, 0.45), ("obstacle_race", 2, 4, 0.75)]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players", "matches", "minimum"), LONGER_QUICK)
def test_strong_beats_random_over_more_matches(game: str, players: int, matches: int, minimum: float) -> None:
    assert share(game, matches, "strong", "random", players) >= minimum


@pytest.mark.parametrize(
    ("game", "matches", "minimum"),
    [("hundred", 6, 0.75), ("obstacle_race", 2, 0.75), ("wit_and_reason_1", 40, 0.8), ("wit_and_reason_2", 40, 0.8)],
)
def test_strong_beats_easy_quick(game: str, matches: int, minimum: float) -> None:
    assert share(game, matches, "strong", "easy", 2) >= minimum


# (game, players, matches, strong-vs-random minimum, strong-vs-easy minimum). Fifty-One at three
# (fair share 0.33): its playouts won .42-.45 against two easy bots over 400 matches on each of
# seeds 0 and 7000 (tuning) and .423 [.369, .480] over these 300 (seed 2000); .83 against random
# play on seed 1000 (two random players' tie caps it near .875). Jubilee at three: remembering every play of the deal (the view shows
# eight) took the playouts from 0.36-0.45 to 0.52 [0.45, 0.59] over 200 matches (seed 0); its row
# asks for 0.42 on other seeds. Reading the cards turned up to start from the view instead of
# guessing them (issue 29), strong v easy on these seeds (seed 2000): Fifty-One .423 [.369, .480]
# before, .450 [.395, .507] after (300 matches); Obstacle Race at two .950 then .975 (100),
# and 1.000 [.963, 1.000] once strong played deals out (issue 29). Hundred
# at two turns nothing up.
LONG = [
    ("fifty_one", 3, 300, 0.75, 0.37),
    ("jubilee", 3, 150, 0.8, 0.42),
    ("hundred", 2, 200, 0.85, 0.7),
    ("jubilee", 2, 60, 0.9, 0.8),
    ("ninety_nine", 3, 300, 0.5, 0.35),
    ("obstacle_race", 2, 100, 0.9, 0.8),
    ("twenty_nine", 2, 100, 0.75, 0.6),
    ("wit_and_reason_1", 2, 300, 0.9, 0.9),
    ("wit_and_reason_2", 2, 300, 0.9, 0.9),
]


@pytest.mark.strength
@pytest.mark.slow
@pytest.mark.parametrize(("game", "players", "matches", "vs_random", "vs_easy"), LONG)
def test_strong_beats_random_and_easy_over_many_matches(
    game: str, players: int, matches: int, vs_random: float, vs_easy: float
) -> None:
    assert share(game, matches, "strong", "random", players, seed=1000) >= vs_random
    assert share(game, matches, "strong", "easy", players, seed=2000) >= vs_easy
    assert share(game, matches, "easy", "random", players, seed=3000) >= 1 / players + 0.1


# Tables of four (Twenty-Nine in pairs: the strong player's partner is an easy bot), on seeds the
# strong players were not tuned on (fair share .25). Twenty-Nine's strong plays deals out (issue 29,
# tuned on seeds 60000 on): v easy .414 [.367, .463] over 400 fresh matches (seed 999000) and .396
# [.342, .452] over these 300 (seed 2000); v random .452 [.396, .508] over these 300 (seed 1000),
# all measured with tests/bench/bench_bots.py; its bounds are the lower ends of the 400-match
# interval against easy and of the 300-match one against random. Ninety-Nine, judged at four
# by keep (press the next player, steered by the match): strong v easy .333 over 8,000 matches
# of seed 700000 and .335 over 4,000 of seed 600000, v random .489 (easy v random .455); here
# 400 matches on seeds 2000 and 1000 gave .354 and .512. The bounds are the lower ends of a
# 400-match interval about those long-run shares.
FOUR = [
    ("twenty_nine", 300, 0.39, 0.36),
    ("ninety_nine", 400, 0.44, 0.29),
]


@pytest.mark.strength
@pytest.mark.slow
@pytest.mark.parametrize(("game", "matches", "vs_random", "vs_easy"), FOUR)
def test_strong_at_four(game: str, matches: int, vs_random: float, vs_easy: float) -> None:
    assert share(game, matches, "strong", "random", 4, seed=1000) >= vs_random
    assert share(game, matches, "strong", "easy", 4, seed=2000) >= vs_easy


# (game, players, options): the bots assume the standard rules, but legality always comes from the
# game, so under any table's options they still make only legal moves
VARIANTS = [
    ("fifty_one", 3, {"values": "german", "floor_zero": True}),
    ("fifty_one", 2, {"match": "lives", "lives": 2}),
    ("hundred", 3, {"second_point_200": True}),
    ("jubilee", 2, {"zero_is_jubilee": True, "joker_on_jubilee": "score", "club_ace_value": 1}),
    ("ninety_nine", 4, {"red_ace_value": 1, "below_zero": "forbid", "nine_on_99": "forbid", "stock_out": "play_out"}),
    ("ninety_nine", 3, {"below_zero": "clamp0", "mode": "last_survivor"}),
    ("obstacle_race", 3, {"ace_value": 1, "finish_bonus": True, "score_floor": True, "allow_negative": True}),
    ("twenty_nine", 4, {"teams": "two_teams", "unplayed": "ignore", "on_block": "last_player_takes"}),
    ("wit_and_reason_1", 2, {"stalemate": "last_player_wins", "rounds": 2}),
]


@pytest.mark.parametrize(("game", "players", "options"), VARIANTS)
def test_bots_stay_legal_under_other_options(game: str, players: int, options: dict[str, Any]) -> None:
    seats = [Checked(bot_player(game, lvl)) for lvl in ("strong", "easy", "random", "easy")[:players]]
    assert play_match(get_game(game), players, options, seed=1, policies=seats).is_over
    assert seats[0].moves and seats[1].moves


# --- what a strong player samples --------------------------------------------------------------------


SAMPLED = [("twenty_nine", 4), ("fifty_one", 3), ("ninety_nine", 4), ("jubilee", 3), ("hundred", 3), ("obstacle_race", 3)]
TURNED_UP = {"fifty_one", "hundred", "obstacle_race"}
"""The games whose deal turns cards up to start the pile (every other card is held or in the stock)."""


@pytest.mark.parametrize(("game", "players"), SAMPLED)
def test_samples_agree_with_everything_the_seat_saw(game: str, players: int) -> None:
    """Over real play, the cards a strong player deals the others never include a card it saw
    played this deal (even one gone from the view's short list of recent plays), one turned up to
    start the pile or one of its own, and a seat that passed (Twenty-Nine) is never dealt a card it
    could have played then. Where cards are turned up to start, the deal of the others' hands and
    the stock holds exactly the cards the seat has not seen."""
    model = next(m for m in MODELS if m.game_id == game)
    easy = bot_player(game, "easy")
    checked = 0
    for seed in range(3):
        first: Any = get_game(game).start([f"P{i}" for i in range(players)], {}, seed=seed).view(0)
        pack = Counter(model.pack(first))
        state: Any = get_game(game).start([f"P{i}" for i in range(players)], {}, seed=seed)
        rng = random.Random(seed)
        played: list[Any] = []
        deal, stock = state.deal_no, None
        while not state.is_over and state.deal_no <= 2:
            if state.deal_no != deal or (stock is not None and len(state.stock) > stock):
                played = []  # a new deal, or the played cards went back into the stock
            deal, stock = state.deal_no, len(state.stock)
            seat = state.actors()[0]
            view = state.view(seat)
            if isinstance(view, CountingView) and seat == 0 and not state.out[0]:
                floors = pass_floors(model, view)
                for k in range(3):
                    root = Position(view.total, tuple(() for _ in range(players)), seat)
                    for pos in (sample_deal(model, view, root, random.Random(k)), sample_position(model, view, root, random.Random(k))):
                        dealt = [c for s, h in enumerate(pos.hands) if s != seat for c in h] + list(pos.stock)
                        used = Counter(dealt) + Counter(played) + Counter(view.hand) + Counter(view.opening)
                        assert not used - pack, "a card seen played, turned up or held was dealt again"
                        if game in TURNED_UP:
                            assert view.opening and not set(view.opening) & set(dealt)
                            if pos.stock or not view.stock:  # the playouts' deal: every unseen card placed
                                assert used == pack
                        for s, floor in floors.items():
                            assert not any(model.refuses(floor, c) for c in pos.hands[s]), "a passed seat got a card it could play"
                checked += 1
            action = easy.choose(view, state.legal_actions(seat), rng)
            state.apply(seat, action)
            card = play_card_of(action)
            if card is not None:
                played.append(card)
    assert checked > 20
