"""What trick-taking games share: which cards may follow, and who wins a trick.

:class:`TrickRules` captures one deal's ranking: the rank order of the suits, the trump suit (or
none), and how jokers behave. Two joker behaviours cover every game here:

* jokers *as trumps* (``jokers_are_trumps=True``): members of the trump suit for following and
  winning, placed above the trump ranks (``jokers_high``, highest first, as in Parity) or below them
  (``jokers_low``, as Hoodwink's lowest trump). Equal jokers (undifferentiated) tie, and the one
  played first wins;
* *suitless* jokers (``jokers_are_trumps=False``, Parity's no-trump and Parity for Three): a joker
  belongs to no suit, wins the trick when led (and then anyone may play anything), and loses when
  played to a trick someone else led.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from games.cards import Card, Rank, Suit

Seat = int


@dataclass(frozen=True)
class TrickRules:
    ranks: tuple[Rank, ...]
    """The suit's ranks, highest first."""
    trump: Suit | None = None
    jokers_are_trumps: bool = True
    jokers_high: tuple[Card, ...] = ()
    """Jokers above the trump ranks, highest first (only with ``jokers_are_trumps``)."""
    jokers_low: tuple[Card, ...] = ()
    """Jokers below the trump ranks, highest first (only with ``jokers_are_trumps``)."""
    _strength: dict[Rank, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        n = len(self.ranks)
        object.__setattr__(self, "_strength", {r: n - i for i, r in enumerate(self.ranks)})

    def suit_of(self, card: Card) -> Suit | None:
        """The suit a card belongs to for following: jokers count as trumps when they are trumps."""
        if card.is_joker:
            return self.trump if self.jokers_are_trumps else None
        return card.suit

    def is_trump(self, card: Card) -> bool:
        return self.trump is not None and self.suit_of(card) == self.trump

    def strength(self, card: Card) -> int:
        """Order within the card's own suit (jokers included when they are trumps); higher beats lower."""
        if card.is_joker:
            base = len(self.ranks)
            for i, j in enumerate(self.jokers_high):
                if j == card:
                    return base + len(self.jokers_high) - i
            for i, j in enumerate(self.jokers_low):
                if j == card:
                    return -i
            return base + 1
        assert card.rank is not None
        return self._strength[card.rank]

    def follow_options(self, hand: Iterable[Card], led: Card | None) -> list[Card]:
        """The cards of ``hand`` that may be played to a trick led by ``led`` (``None``: leading)."""
        cards = list(hand)
        if led is None:
            return cards
        suit = self.suit_of(led)
        if suit is None:  # a suitless joker was led: anything goes
            return cards
        same = [c for c in cards if self.suit_of(c) == suit]
        return same or cards

    def must_follow_reason(self, hand: Iterable[Card], led: Card, played: Card) -> str | None:
        """Why ``played`` may not follow ``led`` from ``hand``, or ``None`` if it may."""
        if played in self.follow_options(hand, led):
            return None
        suit = self.suit_of(led)
        assert suit is not None
        if self.jokers_are_trumps and suit == self.trump:
            return f"You must follow suit: trumps ({suit.symbol}) were led and you hold a trump."
        return f"You must follow suit: {suit.title.lower()} were led and you hold one."

    def power(self, card: Card, led: Card, is_lead: bool) -> int:
        """How strongly ``card`` bids for a trick led by ``led``; the highest power wins."""
        if card.is_joker and not self.jokers_are_trumps:
            return 10_000 if is_lead else 0
        suit = self.suit_of(card)
        if self.trump is not None and suit == self.trump:
            return 1_000 + self.strength(card)
        if suit is not None and suit == self.suit_of(led):
            return 100 + self.strength(card)
        return 0

    def winner(self, plays: Sequence[tuple[Seat, Card]]) -> Seat:
        """The seat that wins a trick; among equal cards the one played first wins."""
        led = plays[0][1]
        best_seat, best = plays[0][0], self.power(led, led, True)
        for seat, c in plays[1:]:
            p = self.power(c, led, False)
            if p > best:
                best_seat, best = seat, p
        return best_seat


@dataclass
class Trick:
    """A trick in progress or finished: who led, and the cards in the order played."""

    leader: Seat
    plays: list[tuple[Seat, Card]] = field(default_factory=list)

    @property
    def led(self) -> Card | None:
        return self.plays[0][1] if self.plays else None

    @property
    def cards(self) -> list[Card]:
        return [c for _, c in self.plays]

    def next_seat(self, players: int) -> Seat:
        return (self.leader + len(self.plays)) % players

    def is_complete(self, players: int) -> bool:
        return len(self.plays) == players

    def winning(self, rules: TrickRules | None, role: Mapping[Card, Card] | None = None) -> Seat | None:
        """Who takes the trick as it stands, by ``rules.winner`` (the one ranking of the deal): the
        winner of a complete trick, who is winning one in progress; ``None`` while it is empty or
        before the rules are set. ``role`` maps a stand-in card to the card it plays as."""
        if not self.plays or rules is None:
            return None
        return rules.winner([(s, role.get(c, c)) for s, c in self.plays] if role else self.plays)

    def describe(self, names: Sequence[str]) -> str:
        return ", ".join(f"{names[s]} {c.short}" for s, c in self.plays) or "(no cards yet)"
