"""Spec's cards and scoring as pure functions of the facts.

Referee mode (calls made aloud at a real table and entered afterwards) uses these without a dealt
grid: what a call wins, whether a call was forbidden, how predictions match the last card, who
takes the rest of the stack, and the deal's scores.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Literal

from games.cards import JOKER, SUITS, Card, Rank

Seat = int
JokerVsDeuce = Literal["rank", "exact", "none"]
RepeatJokerCall = Literal["forbid", "allow"]

NAMEABLE_RANKS: tuple[Rank, ...] = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN)
NAMEABLE: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in NAMEABLE_RANKS)
"""The 20 showcards that may be called or predicted by rank and suit."""
DEUCES: tuple[Card, ...] = tuple(Card(Rank.TWO, s) for s in SUITS)
SHOWCARDS: tuple[Card, ...] = (*NAMEABLE, *DEUCES, JOKER)
"""The 25 cards of the grid."""
CALLS: tuple[Card, ...] = (*NAMEABLE, JOKER)
"""Everything a player may announce when calling or predicting: a nameable card or the word Joker."""

SCORECARD_RANKS: tuple[Rank, ...] = tuple(Rank(v) for v in range(9, 2, -1))
SCORECARD_STACK: tuple[Card, ...] = (
    JOKER,
    JOKER,
    *(Card(r, s) for r in SCORECARD_RANKS for s in SUITS),
)
"""The 30 scorecards, top of the stack first: two Jokers, then the Nines down to the Threes."""
FULL_PACK: tuple[Card, ...] = (*SHOWCARDS, *SCORECARD_STACK)
"""The 55-card pack (52 cards and three Jokers) the two decks are split from."""

JOKER_VALUE = 10
TARGET = 173
EMPTY_STACK_BONUS = 10


def scorecard_value(card: Card) -> int:
    """Face value of a scorecard; its Jokers count 10."""
    return JOKER_VALUE if card.rank is None else int(card.rank)


STACK_VALUES: tuple[int, ...] = tuple(scorecard_value(c) for c in SCORECARD_STACK)
STACK_TOTAL: int = sum(STACK_VALUES)
"""188: every deal hands out this many points unless nobody wins a card or matches the last one."""


def is_callable(call: Card) -> bool:
    """A call or prediction names a nameable card or says Joker; deuces are never named."""
    return (call.is_joker and call.colour is None) or call.rank in NAMEABLE_RANKS


def cards_won(call: Card, turned: Card) -> int:
    """How many scorecards a call wins when ``turned`` is the card turned up (4, 2, 1 or 0)."""
    if call.is_joker:
        if turned.is_joker:
            return 4
        return 2 if turned.rank == Rank.TWO else 0
    if turned.is_joker:
        return 0
    if turned.rank == call.rank:
        return 4 if turned.suit == call.suit else 2
    return 1 if turned.suit == call.suit else 0


class Fault(StrEnum):
    """Why a call is forbidden."""

    REPEAT = "repeat"
    """The same call as the previous turn's."""
    FACE_UP = "face_up"
    """A nameable card already turned up."""
    JOKERS_OUT = "jokers_out"
    """Joker, once the Joker and all four deuces are up."""


def call_fault(
    call: Card,
    previous_call: Card | None,
    face_up: Iterable[Card],
    repeat_joker_call: RepeatJokerCall = "forbid",
) -> Fault | None:
    """The rule a call breaks, judged on what was known before it was made; ``None`` if allowed."""
    up = set(face_up)
    if call.is_joker:
        if all(c in up for c in (*DEUCES, JOKER)):
            return Fault.JOKERS_OUT
        if previous_call is not None and previous_call.is_joker and repeat_joker_call == "forbid":
            return Fault.REPEAT
        return None
    if call in up:
        return Fault.FACE_UP
    if call == previous_call:
        return Fault.REPEAT
    return None


def allowed_calls(
    previous_call: Card | None,
    face_up: Iterable[Card],
    repeat_joker_call: RepeatJokerCall = "forbid",
    lift_repeat_when_stuck: bool = True,
) -> list[Card]:
    """The calls no rule forbids, in menu order.

    When every call is forbidden (only joker-class cards are left and Joker was just called), the
    repeat rule is lifted for the turn if ``lift_repeat_when_stuck``, so the game cannot stall.
    """
    up = set(face_up)
    faults = {c: call_fault(c, previous_call, up, repeat_joker_call) for c in CALLS}
    ok = [c for c in CALLS if faults[c] is None]
    if not ok and lift_repeat_when_stuck:
        ok = [c for c in CALLS if faults[c] == Fault.REPEAT]
    return ok


def legal_predictions(taken: Iterable[Card]) -> list[Card]:
    """Predictions still open: no rank or suit already predicted, and Joker only once."""
    made = list(taken)
    ranks = {c.rank for c in made if not c.is_joker}
    suits = {c.suit for c in made if not c.is_joker}
    joker_taken = any(c.is_joker for c in made)
    out = [c for c in NAMEABLE if c.rank not in ranks and c.suit not in suits]
    if not joker_taken:
        out.append(JOKER)
    return out


class MatchLevel(IntEnum):
    """How well a prediction matched the last card; higher is better."""

    NONE = 0
    SUIT = 1
    RANK = 2
    EXACT = 3


def prediction_match(prediction: Card, last: Card, joker_vs_deuce: JokerVsDeuce = "rank") -> MatchLevel:
    if prediction.is_joker:
        if last.is_joker:
            return MatchLevel.EXACT
        if last.rank == Rank.TWO:
            return {"rank": MatchLevel.RANK, "exact": MatchLevel.EXACT, "none": MatchLevel.NONE}[
                joker_vs_deuce
            ]
        return MatchLevel.NONE
    if last.is_joker:
        return MatchLevel.NONE
    if prediction.rank == last.rank:
        return MatchLevel.EXACT if prediction.suit == last.suit else MatchLevel.RANK
    return MatchLevel.SUIT if prediction.suit == last.suit else MatchLevel.NONE


def best_prediction(
    predictions: Sequence[Card | None], last: Card, joker_vs_deuce: JokerVsDeuce = "rank"
) -> Seat | None:
    """The seat whose prediction matches the last card best, or ``None`` if nobody's matches.

    Predictions share no rank and no suit, so each level has at most one holder.
    """
    best: Seat | None = None
    best_level = MatchLevel.NONE
    for seat, p in enumerate(predictions):
        if p is None:
            continue
        level = prediction_match(p, last, joker_vs_deuce)
        if level > best_level:
            best, best_level = seat, level
    return best


@dataclass(frozen=True)
class Award:
    """What the last card brings: the rest of the stack, or the flat bonus if it was already empty."""

    seat: Seat | None
    """Who gets it; ``None`` when nobody matched and nobody has won a card (the rest is set aside)."""
    cards: int
    """How many scorecards are left in the stack for ``seat`` (or set aside)."""
    bonus: int
    """The flat +10 when the stack ran out before the last card was turned."""
    matched: bool
    """True when ``seat`` got it by prediction, False by the last-winner fallback."""


def end_of_deal_award(
    predictions: Sequence[Card | None],
    last: Card,
    cards_left: int,
    last_winner: Seat | None,
    joker_vs_deuce: JokerVsDeuce = "rank",
) -> Award:
    best = best_prediction(predictions, last, joker_vs_deuce)
    seat = best if best is not None else last_winner
    if cards_left == 0:
        return Award(seat, 0, EMPTY_STACK_BONUS if seat is not None else 0, best is not None)
    return Award(seat, cards_left, 0, best is not None)


def penalty_index(held: Sequence[Card]) -> int | None:
    """Position of the highest-valued scorecard in ``held`` (the latest of equals), or ``None``."""
    best: int | None = None
    for i, c in enumerate(held):
        if best is None or scorecard_value(c) >= scorecard_value(held[best]):
            best = i
    return best


def deal_score(scorecards: Iterable[Card], bonus: int = 0) -> int:
    """A player's score for the deal: the face values of their scorecards plus any bonus."""
    return sum(scorecard_value(c) for c in scorecards) + bonus


def match_should_end(
    scores: Sequence[int], deals_played: int, players: int, end_mode: Literal["race", "fixed"]
) -> bool:
    """After a deal: race stops once anyone has reached the target; both stop after one deal each."""
    if deals_played >= players:
        return True
    return end_mode == "race" and max(scores) >= TARGET


def after_deal(
    scores: Sequence[int],
    deals_played: int,
    players: int,
    end_mode: Literal["race", "fixed"] = "race",
    tie_break: Literal["share", "extra_deal"] = "share",
    extra_played: bool = False,
) -> Literal["deal", "extra_deal", "finish"]:
    """What follows a deal: another deal, one tie-break deal, or the end of the match.

    The tie-break deal is played once at most, when the match would end with a tie for first.
    """
    if extra_played:
        return "finish"
    if not match_should_end(scores, deals_played, players, end_mode):
        return "deal"
    top = max(scores)
    if tie_break == "extra_deal" and sum(1 for s in scores if s == top) > 1:
        return "extra_deal"
    return "finish"
