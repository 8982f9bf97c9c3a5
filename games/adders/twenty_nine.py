"""Twenty-Nine: the Penguin's children's adding game for 2 to 8 players (not the Indian trick game).

Rules: ``shared/rules/twenty_nine.md``. Players add cards to a pile, never passing 29; whoever
makes exactly 29 takes the pile for their side. The side with most cards at the end wins the deal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from pydantic import Field

from games.cards import Card, Rank
from games.engine import BaseOptions, Seat

TARGET = 29


class TwentyNineOptions(BaseOptions):
    teams: Literal["standard", "none", "pairs", "two_teams"] = Field(
        "standard",
        description="Sides: standard (partners opposite with 4, 6 or 8 players, otherwise each for themselves), "
        "none (each for themselves), pairs (partners sitting opposite) or two_teams (two teams, alternate seats).",
    )
    unplayed: Literal["own_pile", "ignore"] = Field(
        "own_pile",
        description="Cards still in hand when the deal ends: add them to their holder's side, or leave them out.",
    )
    on_block: Literal["end_deal", "last_player_takes"] = Field(
        "end_deal",
        description="When nobody can play on the pile: the deal ends and the pile belongs to nobody, or the last "
        "player to play takes the pile and leads again.",
    )
    match_scoring: Literal["deals", "cards"] = Field(
        "deals",
        description="Match score: 1 point for each deal a side wins, or the total number of cards a side takes.",
    )
    deals: int | None = Field(
        None,
        ge=1,
        le=50,
        description="Number of deals in the match; blank for one deal per player.",
    )


# --- pure functions -----------------------------------------------------------------------------


def card_value(card: Card) -> int:
    """Ace and courts count 1, the numerals their pips."""
    rank = card.rank
    assert rank is not None
    if rank is Rank.ACE or rank.is_court:
        return 1
    return int(rank)


def tens_to_remove(players: int) -> int:
    """How many Tens leave the pack so that the cards divide evenly (0, 1, 0, 2, 4, 3, 4 for 2..8)."""
    return 52 % players


def can_play(total: int, card: Card) -> bool:
    return total + card_value(card) <= TARGET


def playable_cards(total: int, hand: Iterable[Card]) -> list[Card]:
    return [c for c in hand if can_play(total, c)]


def another_trick_possible(pile_total: int, cards_in_hands: Iterable[Card]) -> bool:
    """Whether the pile and the cards still held could yet make 29 (else the last trick is not played)."""
    return pile_total + sum(card_value(c) for c in cards_in_hands) >= TARGET


def is_blocked(total: int, hands: Iterable[Iterable[Card]]) -> bool:
    """Nobody can add a card to the pile without passing 29."""
    return not any(playable_cards(total, hand) for hand in hands)


def side_layout(players: int, teams: str) -> list[list[Seat]]:
    """The sides for this many players and the ``teams`` option (seats 0..n-1, clockwise)."""
    if teams == "standard":
        teams = "pairs" if players in (4, 6, 8) else "none"
    if teams == "none":
        return [[s] for s in range(players)]
    if players % 2 or players < 4:
        raise ValueError("partnerships need 4, 6 or 8 players")
    if teams == "pairs":
        half = players // 2
        return [[s, s + half] for s in range(half)]
    if teams == "two_teams":
        return [list(range(0, players, 2)), list(range(1, players, 2))]
    raise ValueError(f"unknown team layout {teams!r}")


def side_card_counts(
    won: Sequence[int],
    unplayed: Sequence[int] = (),
    rule: str = "own_pile",
) -> list[int]:
    """Cards each side counts at the end of a deal: the tricks it won, plus its members' unplayed
    cards when ``rule`` is ``own_pile``."""
    counts = list(won)
    if rule == "own_pile":
        for i, extra in enumerate(unplayed):
            counts[i] += extra
    return counts


def deal_winners(counts: Sequence[int]) -> list[int]:
    """The side holding the most cards wins the deal; a tie for the most is a drawn deal (no winner)."""
    best = max(counts)
    top = [i for i, c in enumerate(counts) if c == best]
    return top if len(top) == 1 else []
