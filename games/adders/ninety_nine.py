"""Ninety-Nine: the Penguin's adding game for 3 to 13 players (not the trick game of that name).

Rules: ``shared/rules/ninety_nine.md``. Everyone holds three cards, plays one and draws one. The
running total may never pass 99; whoever cannot play without passing it loses a life, and the
first to lose three lives is the overall loser.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from games.cards import Card, Colour, Rank
from games.engine import BaseOptions

LIMIT = 99
LIVES = 3


class NinetyNineOptions(BaseOptions):
    red_ace_value: int = Field(
        2,
        ge=1,
        le=2,
        description="What a red Ace adds: 2 as the book prints it, or 1.",
    )
    below_zero: Literal["allow", "forbid", "clamp0"] = Field(
        "allow",
        description="A Ten on a total under 10: allow a negative total, forbid the Ten, or stop the total at 0.",
    )
    nine_on_99: Literal["allow", "forbid"] = Field(
        "allow",
        description="May a Nine be played when the total is already 99 (it leaves it at 99)?",
    )
    stock_out: Literal["reshuffle", "play_out"] = Field(
        "reshuffle",
        description="When the stock runs out: reshuffle the played cards (all but the top one) into a new "
        "stock, or stop drawing and play the hands out.",
    )
    mode: Literal["first_to_three_losses", "last_survivor"] = Field(
        "first_to_three_losses",
        description="End the match when someone loses a third life, or knock players out at three lost lives "
        "and play on until one is left.",
    )


# --- the value table: pure functions ------------------------------------------------------------


def is_black_ace(card: Card) -> bool:
    return card.rank is Rank.ACE and card.card_colour is Colour.BLACK


def reverses(card: Card) -> bool:
    """A Jack turns the direction of play round."""
    return card.rank is Rank.JACK


def new_total(
    total: int,
    card: Card,
    options: NinetyNineOptions | None = None,
    chosen: int | None = None,
) -> int:
    """The total after ``card`` is played on ``total`` (``chosen``: the value a black Ace names).

    The result may pass 99: :func:`can_play` says whether the play is allowed.
    """
    opts = options or NinetyNineOptions()
    rank = card.rank
    if is_black_ace(card):
        if chosen is None or not 0 <= chosen <= LIMIT:
            raise ValueError("a black Ace needs a chosen total from 0 to 99")
        return chosen
    if rank is Rank.ACE:
        return total + opts.red_ace_value
    if rank is Rank.NINE:
        return LIMIT
    if rank is Rank.TEN:
        lower = total - 10
        return max(0, lower) if opts.below_zero == "clamp0" else lower
    if rank in (Rank.THREE, Rank.FOUR):
        return total
    if rank in (Rank.JACK, Rank.QUEEN, Rank.KING):
        return total + 10
    assert rank is not None
    return total + int(rank)


def can_play(total: int, card: Card, options: NinetyNineOptions | None = None) -> bool:
    """Whether ``card`` may be played on ``total`` without breaking a rule."""
    opts = options or NinetyNineOptions()
    if is_black_ace(card):
        return True
    if card.rank is Rank.NINE:
        return total < LIMIT or opts.nine_on_99 == "allow"
    if card.rank is Rank.TEN and opts.below_zero == "forbid":
        return total - 10 >= 0
    return new_total(total, card, opts) <= LIMIT


def playable_cards(total: int, hand: list[Card], options: NinetyNineOptions | None = None) -> list[Card]:
    return [c for c in hand if can_play(total, c, options)]


def is_bust(total: int, hand: list[Card], options: NinetyNineOptions | None = None) -> bool:
    """A player holding cards, none of which can be played, loses a life."""
    return bool(hand) and not playable_cards(total, hand, options)


def value_text(card: Card, options: NinetyNineOptions | None = None) -> str:
    """What a card does, in a few words (for the rules summary and refusals)."""
    opts = options or NinetyNineOptions()
    if is_black_ace(card):
        return "sets the total to any number from 0 to 99"
    rank = card.rank
    if rank is Rank.ACE:
        return f"adds {opts.red_ace_value}"
    if rank is Rank.NINE:
        return "makes the total 99"
    if rank is Rank.TEN:
        return "takes 10 off"
    if rank is Rank.JACK:
        return "adds 10 and reverses the direction"
    if rank in (Rank.THREE, Rank.FOUR):
        return "adds nothing"
    return f"adds {10 if rank in (Rank.QUEEN, Rank.KING) else int(rank or 0)}"


def match_loser(lives_lost: list[int]) -> int | None:
    """The seat that has lost all its lives first (first-to-three mode), or ``None``."""
    for seat, lost in enumerate(lives_lost):
        if lost >= LIVES:
            return seat
    return None


def survivors(lives_lost: list[int]) -> list[int]:
    """Seats still in the match (last-survivor mode)."""
    return [s for s, lost in enumerate(lives_lost) if lost < LIVES]
