"""The Parity solver against a plain minimax, on known positions, and on positions from the game."""

from __future__ import annotations

import random

import pytest

from games.cards import SUITS, Card, Suit, card, parse_cards
from games.engine import PlayCard
from games.parity import (
    GAME,
    TRICKS_PER_DEAL,
    ChooseParity,
    ChooseTrump,
    Parity,
    ParityOptions,
    ParityState,
    deal_scores,
    joker_roles,
    legal_follows,
    parity_pack,
)
from games.players.parity_solver import ParitySolver, PlayPosition

# --- a plain minimax, obviously correct and slow ----------------------------------------------------


def minimax(pos: PlayPosition) -> int:
    """The mover's final score difference, by trying every legal card to the end (positions met
    twice are looked up: hands are kept sorted, so the same cards give the same key)."""
    rules, role = pos.rules, pos.role
    seen: dict[object, int] = {}

    def value(hands: tuple[tuple[Card, ...], ...], trick: tuple[tuple[int, Card], ...], leader: int, won: tuple[int, int]) -> int:
        key = (hands, trick, leader, won)
        if key not in seen:
            seen[key] = search(hands, trick, leader, won)
        return seen[key]

    def search(hands: tuple[tuple[Card, ...], ...], trick: tuple[tuple[int, Card], ...], leader: int, won: tuple[int, int]) -> int:
        mover = (leader + len(trick)) % 2
        if not hands[0] and not hands[1]:
            scores = deal_scores(won, pos.target, pos.trump is None)
            return scores[mover] - scores[1 - mover]
        led = trick[0][1] if trick else None
        best = -1000
        for c in set(legal_follows(rules, list(hands[mover]), led, role)):
            rest = list(hands[mover])
            rest.remove(c)
            new_hands = (tuple(rest), hands[1]) if mover == 0 else (hands[0], tuple(rest))
            plays = (*trick, (mover, c))
            if len(plays) == 2:
                winner = rules.winner([(s, role.get(x, x)) for s, x in plays])
                new_won = (won[0] + (winner == 0), won[1] + (winner == 1))
                v = value(new_hands, (), winner, new_won)
                next_mover = winner
            else:
                v = value(new_hands, plays, leader, won)
                next_mover = 1 - mover
            best = max(best, v if next_mover == mover else -v)
        return best

    hands = tuple(tuple(sorted(h, key=repr)) for h in pos.hands)
    return value(hands, pos.trick, pos.leader, pos.tricks_won)


# --- random small endgames -----------------------------------------------------------------------

KINDS: list[dict[str, object]] = [
    {},
    {"no_trump": True},
    {"undifferentiated_jokers": True},
    {"no_trump": True, "undifferentiated_jokers": True},
    {"ranks": "AKQJ1098", "sevens_as_jokers": True},
    {"ranks": "AKQJ1098", "sevens_as_jokers": True, "undifferentiated_jokers": True},
]
TRUMPS: list[Suit | None] = [*SUITS, None]


def endgame(rng: random.Random, cards_each: int, trump: Suit | None, target: Parity, options: ParityOptions) -> PlayPosition:
    """A random position with ``cards_each`` tricks to go, sometimes after the lead to the first."""
    pack = parity_pack(options)
    rng.shuffle(pack)
    hands = [pack[:cards_each], pack[cards_each : 2 * cards_each]]
    leader = rng.randrange(2)
    played = TRICKS_PER_DEAL - cards_each
    won0 = rng.randint(0, played)
    trick: tuple[tuple[int, Card], ...] = ()
    if rng.random() < 0.4:
        lead = rng.choice(hands[leader])
        hands[leader].remove(lead)
        trick = ((leader, lead),)
    return PlayPosition(
        hands=(tuple(hands[0]), tuple(hands[1])),
        trick=trick,
        leader=leader,
        tricks_won=(won0, played - won0),
        trump=trump,
        target=target,
        undifferentiated=bool(options.undifferentiated_jokers),
        role=joker_roles(options),
    )


def small_endgames(count: int, seed: int) -> list[PlayPosition]:
    rng = random.Random(seed)
    out = []
    for n in range(count):
        options = ParityOptions(**KINDS[n % len(KINDS)])  # type: ignore[arg-type]
        trump = TRUMPS[(n // len(KINDS)) % len(TRUMPS)]
        target = list(Parity)[n % 2]
        out.append(endgame(rng, 2 + n % 4, trump, target, options))
    return out


def agrees_with_minimax(count: int) -> None:
    solver = ParitySolver()  # one table for all: a stale entry would show up as a wrong value
    for pos in small_endgames(count, seed=3):
        expected = minimax(pos)
        assert solver.value(pos) == expected, pos


def test_solver_agrees_with_minimax_on_hundreds_of_small_endgames() -> None:
    agrees_with_minimax(800)


@pytest.mark.slow
def test_solver_agrees_with_minimax_on_thousands_of_small_endgames() -> None:
    agrees_with_minimax(2000)


def test_every_card_value_and_best_move_agree_with_minimax() -> None:
    solver = ParitySolver()
    for pos in small_endgames(200, seed=11):
        solution = solver.solve(pos)
        for c, v in solution.values.items():
            assert v == minimax(after_card(pos, c)) * (1 if next_mover(pos, c) == pos.mover else -1), (pos, c)
        best, value = solver.best_move(pos)
        assert value == minimax(pos) == solution.value
        assert solution.values[best] == value


def after_card(pos: PlayPosition, c: Card) -> PlayPosition:
    """The position once the mover plays ``c`` (the trick resolved if it completes)."""
    mover = pos.mover
    hands = [list(pos.hands[0]), list(pos.hands[1])]
    hands[mover].remove(c)
    plays = (*pos.trick, (mover, c))
    leader, won, trick = pos.leader, list(pos.tricks_won), plays
    if len(plays) == 2:
        leader = pos.rules.winner([(s, pos.role.get(x, x)) for s, x in plays])
        won[leader] += 1
        trick = ()
    return PlayPosition(
        hands=(tuple(hands[0]), tuple(hands[1])),
        trick=trick,
        leader=leader,
        tricks_won=(won[0], won[1]),
        trump=pos.trump,
        target=pos.target,
        undifferentiated=pos.undifferentiated,
        role=pos.role,
    )


def next_mover(pos: PlayPosition, c: Card) -> int:
    return after_card(pos, c).mover


# --- known positions ------------------------------------------------------------------------------


def position(
    seat0: str, seat1: str, leader: int, won: tuple[int, int], trump: Suit | None, target: Parity,
    led: str | None = None,
) -> PlayPosition:
    trick = ((leader, card(led)),) if led else ()
    return PlayPosition(
        hands=(tuple(parse_cards(seat0)), tuple(parse_cards(seat1))),
        trick=trick,
        leader=leader,
        tricks_won=won,
        trump=trump,
        target=target,
    )


def test_last_trick_ruff_decides_who_scores() -> None:
    # rules worked example: K♠ led, the follower void in spades trumps with 2♥ and wins
    pos = position("KS", "2H", leader=0, won=(7, 7), trump=Suit.HEARTS, target=Parity.ODD)
    # seat 1 takes the last trick: 8 tricks (even) to seat 0's 7 (odd): seat 0 scores 17
    assert ParitySolver().value(pos) == 17


def test_joker_led_must_be_followed_with_a_trump_and_wins() -> None:
    # rules worked example: red Joker led, the follower holds the black Joker and A♥ (hearts trumps)
    pos = position("5C", "BJ AH", leader=0, won=(6, 7), trump=Suit.HEARTS, target=Parity.EVEN, led="RJ")
    solution = ParitySolver().solve(pos)
    assert set(solution.values) == {card("BJ"), card("AH")}
    # seat 0 wins this trick (7, even) and whatever seat 1 keeps takes the last one (seat 1: 8, even)
    # so seat 1 scores 18 however it plays
    assert set(solution.values.values()) == {18}


def test_the_leader_gives_a_trick_away_to_hit_the_target() -> None:
    # clubs trumps; seat 0 to lead with A♠ 5♠, seat 1 holds K♠ 2♣; 7 tricks to 6 so far, target odd.
    # A♠ wins, then 2♣ trumps the 5♠: 8 tricks, even: seat 1 scores 17.
    # 5♠ loses to K♠, then 2♣ is led and the A♠ is thrown: 7 tricks, odd: seat 0 scores 17.
    pos = position("AS 5S", "KS 2C", leader=0, won=(7, 6), trump=Suit.CLUBS, target=Parity.ODD)
    solution = ParitySolver().solve(pos)
    assert solution.values == {card("AS"): -17, card("5S"): 17}
    assert ParitySolver().best_move(pos) == (card("5S"), 17)


def test_holding_every_winner_forces_fifteen_tricks() -> None:
    strong = "RJ BJ AC KC QC JC 10C 5C 2C AS KS QS JS 10S 5S"
    pack = parity_pack(ParityOptions())
    weak = " ".join(c.code for c in pack if c not in parse_cards(strong))
    odd = position(strong, weak, leader=0, won=(0, 0), trump=Suit.CLUBS, target=Parity.ODD)
    even = position(strong, weak, leader=0, won=(0, 0), trump=Suit.CLUBS, target=Parity.EVEN)
    solver = ParitySolver()
    assert solver.value(odd) == 25  # the highest score there is
    assert solver.value(even) == -10  # 15 is odd: seat 1's 0 tricks (even) score 10


def test_no_trump_scores_twenty_plus_tricks() -> None:
    # no-trump; seat 0 leads with the red Joker and 2♠, seat 1 holds A♠ K♠; 6 tricks to 7, target odd.
    # Joker led: it wins (7), seat 1 throws a spade and takes the last trick: seat 0 scores 20 + 7.
    # 2♠ led: seat 1 wins it, leads a spade and the Joker, played second, loses: seat 1 has 9, 20 + 9.
    pos = position("RJ 2S", "AS KS", leader=0, won=(6, 7), trump=None, target=Parity.ODD)
    assert ParitySolver().solve(pos).values == {card("RJ"): 27, card("2S"): -29}


# --- positions from the game itself ------------------------------------------------------------


def started(seed: int, options: dict[str, object] | None = None) -> ParityState:
    state = GAME.start(["Ann", "Bob"], {"first_dealer": 1, **(options or {})}, seed=seed)
    assert isinstance(state, ParityState)
    state.apply(1, ChooseTrump(suit=Suit.SPADES))
    state.apply(0, ChooseParity(parity=Parity.ODD))
    return state


@pytest.mark.parametrize("options", [{}, {"undifferentiated_jokers": True}])
def test_view_and_state_give_the_same_position(options: dict[str, object]) -> None:
    state = started(5, options)
    rng = random.Random(2)
    for _ in range(7):  # play into the middle of a trick
        seat = next(iter(state.awaiting()))
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    from_state = PlayPosition.from_state(state)
    seat = next(iter(state.awaiting()))
    view = state.view(seat)
    from_view = PlayPosition.from_view(view)  # type: ignore[arg-type]
    assert {frozenset(h) for h in from_state.hands} == {frozenset(h) for h in from_view.hands}
    assert from_view.trick == from_state.trick and from_view.leader == from_state.leader
    jokers_left = any(c.is_joker for h in from_state.hands for c in h) or any(c.is_joker for _, c in from_state.trick)
    if jokers_left:  # once both Jokers are gone, equal or not makes no difference (and cannot be seen)
        assert from_view.undifferentiated == from_state.undifferentiated
    solver = ParitySolver()
    assert solver.value(from_state) == solver.value(from_view)


def test_playing_the_best_card_keeps_the_value() -> None:
    """Perfect play by both sides from the opening lead ends with exactly the value found."""
    state = started(8)
    solver = ParitySolver()
    start = PlayPosition.from_state(state)
    value0 = solver.value(start)
    mover0 = start.mover
    deal = state.deal_no
    while state.deal_no == deal:
        pos = PlayPosition.from_state(state)
        best, value = solver.best_move(pos)
        assert value == (value0 if pos.mover == mover0 else -value0)
        state.apply(pos.mover, PlayCard(play=best))
    assert state.scores[mover0] - state.scores[1 - mover0] == value0


def test_the_solver_refuses_a_position_before_the_play() -> None:
    state = GAME.start(["Ann", "Bob"], {"first_dealer": 1}, seed=1)
    assert isinstance(state, ParityState)
    with pytest.raises(ValueError, match="trumps and the target"):
        PlayPosition.from_state(state)


def test_positions_are_shared_between_deals_without_harm() -> None:
    """The table is kept across deals and kinds of deal; values stay those of a fresh solver."""
    rng = random.Random(4)
    shared = ParitySolver()
    for n in range(40):
        options = ParityOptions(**KINDS[n % len(KINDS)])  # type: ignore[arg-type]
        pos = endgame(rng, 7, TRUMPS[n % 5], list(Parity)[n % 2], options)
        assert shared.value(pos) == ParitySolver().value(pos)
