"""Caterpillar: David Parlett's two-player adding-up game (rules: ``shared/rules/caterpillar.md``).

Each player holds 13 cards and plays one a turn to a row, the caterpillar, then draws from a
26-card stock. Numerals add their pips (Ace 1) to a running total and must follow the suit of the
last card; a face card (K, Q, J) may go on anything, adds nothing and sets the suit. Bringing the
total to a multiple of five scores the total. The game ends when the stock is gone (100 for each
face card still in one's own hand) or when a player is court short (stuck): the stuck player then
takes 100 for each face card the opponent holds.

A match is several games with the first player alternating; game scores are added up.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field, model_validator

from games.cards import Card, Rank, Suit, format_cards, full_pack, sort_hand
from games.engine import (
    Action,
    BaseOptions,
    Event,
    Game,
    GameState,
    Outcome,
    PlayCard,
    Seat,
    View,
    Zone,
)

HAND_SIZE = 13
FACE_BONUS = 100
"""Points for each face card that counts at the end of a game."""
MULTIPLE = 5

# --- scoring: pure functions on the facts, usable without a dealt hand --------------------------


def is_face(card: Card) -> bool:
    """King, Queen or Jack: worth nothing, playable on anything."""
    return card.rank is not None and card.rank.is_court


def card_value(card: Card) -> int:
    """What a card adds to the running total: pips for numerals, Ace 1, face cards 0."""
    if card.rank is None:
        raise ValueError("Caterpillar is played without jokers.")
    if card.rank.is_court:
        return 0
    return 1 if card.rank is Rank.ACE else int(card.rank)


def may_follow(previous: Card | None, card: Card) -> bool:
    """Whether ``card`` may go on the row after ``previous`` (``None``: the first card of a game)."""
    return previous is None or is_face(card) or card.suit == previous.suit


def playable(hand: Sequence[Card], previous: Card | None) -> list[Card]:
    """The cards of ``hand`` that may be played after ``previous``."""
    return [c for c in hand if may_follow(previous, c)]


def is_court_short(hand: Sequence[Card], previous: Card | None) -> bool:
    """True when a player has neither a numeral of the suit to follow nor any face card."""
    return not playable(hand, previous)


def score_play(total: int, previous: Card | None, card: Card) -> tuple[int, int]:
    """The new running total and the points the player scores for playing ``card``.

    A numeral scores the new total when it is a multiple of five. A face card keeps the total and
    scores it only when it is a multiple of five and the card matches the previous card's suit; a
    face card of another suit changes the suit and never scores. A total of 0 scores nothing.
    """
    if not may_follow(previous, card):
        raise ValueError(f"{card.short} may not follow {previous.short if previous else '-'}.")
    new_total = total + card_value(card)
    if is_face(card) and (previous is None or previous.suit != card.suit):
        return new_total, 0
    return new_total, new_total if new_total % MULTIPLE == 0 else 0


@dataclass(frozen=True)
class RowStep:
    """One card of a caterpillar as scored: who played it, the total after it, the points won."""

    seat: Seat
    card: Card
    total: int
    points: int


def score_row(row: Sequence[Card], first: Seat = 0) -> list[RowStep]:
    """Score a whole caterpillar played alternately by two players, ``first`` playing its first card.

    Raises ``ValueError`` if a card could not legally follow the one before it.
    """
    steps: list[RowStep] = []
    total = 0
    previous: Card | None = None
    for i, card in enumerate(row):
        total, points = score_play(total, previous, card)
        steps.append(RowStep((first + i) % 2, card, total, points))
        previous = card
    return steps


def running_points(row: Sequence[Card], first: Seat = 0) -> list[int]:
    """Each player's points from multiples of five over a whole caterpillar."""
    points = [0, 0]
    for step in score_row(row, first):
        points[step.seat] += step.points
    return points


def face_count(cards: Sequence[Card]) -> int:
    return sum(1 for c in cards if is_face(c))


def final_scores(
    running: Sequence[int], faces_in_hand: Sequence[int], court_short: Seat | None = None
) -> list[int]:
    """A game's scores from the running-total points and the face cards each player holds.

    Normal end: 100 for each face card in one's own hand. Court-short end (``court_short`` names
    the stuck player): the stuck player takes 100 for each face card the opponent holds, and the
    opponent scores nothing for them.
    """
    if len(running) != 2 or len(faces_in_hand) != 2:
        raise ValueError("Caterpillar is a game for two players.")
    if court_short is None:
        return [running[s] + FACE_BONUS * faces_in_hand[s] for s in (0, 1)]
    if faces_in_hand[court_short]:
        raise ValueError("A player holding a face card can always play and is never court short.")
    other = 1 - court_short
    scores = list(running)
    scores[court_short] += FACE_BONUS * faces_in_hand[other]
    return scores


def suit_word(suit: Suit | None, plural: bool = False) -> str:
    """``spade``/``spades`` for sentences."""
    if suit is None:
        return "jokers" if plural else "joker"
    word = suit.title.lower()
    return word if plural else word[:-1]


def deal(order: Sequence[Card], first: Seat) -> tuple[list[list[Card]], list[Card]]:
    """Deal 13 cards each, one at a time starting with ``first``; the rest is the stock, top first."""
    hands: list[list[Card]] = [[], []]
    for i in range(2 * HAND_SIZE):
        hands[(first + i) % 2].append(order[i])
    return hands, list(order[2 * HAND_SIZE :])


# --- options ------------------------------------------------------------------------------------


class CaterpillarOptions(BaseOptions):
    games: int | None = Field(
        2,
        ge=1,
        le=50,
        description="How many games the match lasts; the first player alternates and the game "
        "scores are added up. Leave it out when playing to a target.",
    )
    target: int | None = Field(
        None,
        ge=5,
        le=100_000,
        description="Play games until someone's match total reaches this many points at the end "
        "of a game (instead of a fixed number of games).",
    )
    tie: Literal["draw", "replay"] = Field(
        "draw",
        description="When the match totals are level at the end: draw shares first place, replay "
        "plays another game until they differ.",
    )

    @model_validator(mode="before")
    @classmethod
    def _target_replaces_games(cls, data: Any) -> Any:
        if isinstance(data, dict):
            data = {k: (None if v == "" and k in ("games", "target") else v) for k, v in data.items()}
            if data.get("target") is not None and "games" not in data:
                data["games"] = None
        return data

    @model_validator(mode="after")
    def _one_length(self) -> CaterpillarOptions:
        if self.games is None and self.target is None:
            raise ValueError("say how long the match lasts: a number of games or a target score")
        if self.games is not None and self.target is not None:
            raise ValueError("choose either a number of games or a target score, not both")
        return self

    def length_text(self) -> str:
        if self.target is not None:
            return f"first to {self.target} points"
        return "1 game" if self.games == 1 else f"{self.games} games"


# --- view ---------------------------------------------------------------------------------------


class CaterpillarView(View):
    caterpillar: list[Card]
    total: int
    follow: Suit | None
    game_points: list[int]
    stock: int
    hand_sizes: list[int]
    first_player: Seat
    game_number: int
    match_length: str
    last_result: list[str]

    def table_lines(self) -> list[str]:
        lines = [
            f"Game {self.game_number} ({self.match_length}); {self.players[self.first_player]} played first."
        ]
        lines.append(f"Caterpillar: {format_cards(self.caterpillar)}")
        follow = (
            f"{self.follow.symbol} {suit_word(self.follow, True)} or any face card"
            if self.follow
            else "any card"
        )
        lines.append(f"Total {self.total}; next card: {follow}.")
        lines.append(
            "This game: "
            + ", ".join(f"{p} {s}" for p, s in zip(self.players, self.game_points, strict=True))
            + f"; stock {self.stock} cards."
        )
        if self.last_result:
            lines.append("Last game: " + " ".join(self.last_result))
        return lines


# --- state --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameResult:
    """How one game ended, kept for the match notes."""

    number: int
    scores: tuple[int, int]
    court_short: Seat | None


_SHARED = frozenset({"options", "players", "outcome"})
_FLAT_LISTS = frozenset({"log", "history", "stock", "row", "results", "last_result", "scores", "game_points"})
_NESTED_LISTS = frozenset({"hands", "fixed_decks"})


class CaterpillarState(GameState[CaterpillarOptions]):
    def __init__(
        self,
        players: Sequence[str],
        options: CaterpillarOptions,
        seed: int,
        deck: Sequence[Card] | Sequence[Sequence[Card]] | None = None,
    ) -> None:
        super().__init__(players, options, seed, deck)
        self.dealer: Seat = self.choose_first_dealer()
        self.hands: list[list[Card]] = [[], []]
        self.stock: list[Card] = []
        self.row: list[Card] = []
        self.total = 0
        self.to_move: Seat = 0
        self.game_points = [0, 0]
        self.results: list[GameResult] = []
        self.last_result: list[str] = []
        self.log.extend(self._deal())

    def __deepcopy__(self, memo: dict[int, Any]) -> CaterpillarState:
        """A fast independent copy (for search and checks): cards, events, actions and options are
        immutable, so only the containers that change need copying."""
        new = object.__new__(type(self))
        for key, value in vars(self).items():
            if key in _SHARED:
                copied = value
            elif key in _FLAT_LISTS:
                copied = list(value)
            elif key in _NESTED_LISTS:
                copied = [list(v) for v in value]
            elif isinstance(value, random.Random):
                copied = random.Random()
                copied.setstate(value.getstate())
            else:
                copied = copy.deepcopy(value, memo)
            new.__dict__[key] = copied
        return new

    # -- flow ------------------------------------------------------------------------------------

    @property
    def first_player(self) -> Seat:
        return 1 - self.dealer

    @property
    def previous(self) -> Card | None:
        return self.row[-1] if self.row else None

    def _deal(self) -> list[Event]:
        self.deal_no += 1
        self.hands, self.stock = deal(self.next_pack_order(full_pack()), self.first_player)
        self.row = []
        self.total = 0
        self.game_points = [0, 0]
        self.to_move = self.first_player
        events = [
            self.event(
                "deal",
                f"Game {self.deal_no}: {self.name(self.dealer)} deals 13 cards each; "
                f"{self.name(self.first_player)} plays first.",
            )
        ]
        for seat in (0, 1):
            events.append(
                self.event("hand", f"Your hand: {format_cards(sort_hand(self.hands[seat]))}.", to=seat)
            )
        return events

    def awaiting(self) -> frozenset[Seat]:
        return frozenset() if self.is_over else frozenset((self.to_move,))

    def legal_actions(self, seat: Seat) -> list[Action]:
        if self.is_over or seat != self.to_move:
            return []
        return [PlayCard(play=c) for c in sort_hand(playable(self.hands[seat], self.previous))]

    def explain_illegal(self, seat: Seat, action: Action) -> str | None:
        if not isinstance(action, PlayCard):
            return "In Caterpillar your only move is to play a card."
        card = action.play
        if card not in self.hands[seat]:
            return f"You do not hold {card.short}."
        prev = self.previous
        if prev is not None and not may_follow(prev, card):
            assert prev.suit is not None
            return (
                f"{card.short} cannot go on {prev.short}: play a {suit_word(prev.suit)} "
                "numeral or any King, Queen or Jack."
            )
        return None

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        assert isinstance(action, PlayCard)
        card = action.play
        previous = self.previous
        self.hands[seat].remove(card)
        self.total, points = score_play(self.total, previous, card)
        self.row.append(card)
        self.game_points[seat] += points
        events = [self.event("play", self._play_text(seat, card, previous, points))]
        drawn = self.stock.pop(0)
        self.hands[seat].append(drawn)
        events.append(self.event("draw", f"{self.name(seat)} draws from the stock ({len(self.stock)} left)."))
        events.append(self.event("drawn", f"You draw {drawn.short}.", to=seat))
        if not self.stock:
            events.extend(self._end_game(None))
            return events
        self.to_move = 1 - seat
        if is_court_short(self.hands[self.to_move], card):
            events.extend(self._end_game(self.to_move))
        return events

    def _play_text(self, seat: Seat, card: Card, previous: Card | None, points: int) -> str:
        who = self.name(seat)
        if is_face(card):
            if previous is not None and previous.suit == card.suit:
                text = f"{who} plays {card.short}, keeping {suit_word(card.suit, True)} and the total at {self.total}"
            else:
                text = f"{who} plays {card.short}: the total stays {self.total} and {suit_word(card.suit, True)} must now be followed"
        else:
            text = f"{who} plays {card.short}, bringing the total to {self.total}"
        if points:
            text += f", and scores {points}"
        return text + "."

    def _end_game(self, stuck: Seat | None) -> list[Event]:
        events: list[Event] = []
        faces = [face_count(h) for h in self.hands]
        scores = final_scores(self.game_points, faces, stuck)
        lines: list[str] = []
        if stuck is not None:
            other = 1 - stuck
            prev = self.previous
            assert prev is not None and prev.suit is not None
            lines.append(
                f"{self.name(stuck)} is court short: no {suit_word(prev.suit)} numeral and no face "
                f"card in {format_cards(sort_hand(self.hands[stuck]))}. Play stops."
            )
            held = [c for c in self.hands[other] if is_face(c)]
            lines.append(
                f"{self.name(stuck)}: {self.game_points[stuck]} from totals + {FACE_BONUS * len(held)} for "
                f"{self.name(other)}'s face cards ({format_cards(sort_hand(held))}) = {scores[stuck]}."
            )
            lines.append(f"{self.name(other)}: {self.game_points[other]} from totals = {scores[other]}.")
        else:
            lines.append("The stock is used up.")
            for s in (0, 1):
                held = [c for c in self.hands[s] if is_face(c)]
                lines.append(
                    f"{self.name(s)}: {self.game_points[s]} from totals + {FACE_BONUS * len(held)} for "
                    f"{len(held)} face card{'s' if len(held) != 1 else ''} in hand "
                    f"({format_cards(sort_hand(held))}) = {scores[s]}."
                )
        if scores[0] == scores[1]:
            lines.append(f"Game {self.deal_no} is drawn at {scores[0]} each.")
        else:
            win = 0 if scores[0] > scores[1] else 1
            lines.append(f"{self.name(win)} wins game {self.deal_no}, {scores[win]} to {scores[1 - win]}.")
        for s in (0, 1):
            self.scores[s] += scores[s]
        lines.append("Match: " + ", ".join(f"{self.name(s)} {self.scores[s]}" for s in (0, 1)) + ".")
        self.results.append(GameResult(self.deal_no, (scores[0], scores[1]), stuck))
        self.last_result = lines
        events.extend(self.event("game_over", line) for line in lines)
        if self._match_is_done():
            events.append(self.finish(Outcome.from_scores(self.scores, notes=self._notes())))
        else:
            if self._match_is_level_at_end():
                events.append(self.event("decider", "The match totals are level, so another game is played."))
            self.dealer = 1 - self.dealer
            events.extend(self._deal())
        return events

    def _length_reached(self) -> bool:
        opts = self.options
        if opts.target is not None:
            return max(self.scores) >= opts.target
        assert opts.games is not None
        return len(self.results) >= opts.games

    def _match_is_level_at_end(self) -> bool:
        return self._length_reached() and self.scores[0] == self.scores[1]

    def _match_is_done(self) -> bool:
        if not self._length_reached():
            return False
        return self.options.tie == "draw" or self.scores[0] != self.scores[1]

    def _notes(self) -> list[str]:
        wins = [sum(1 for r in self.results if r.scores[s] > r.scores[1 - s]) for s in (0, 1)]
        notes = ["Final totals: " + ", ".join(f"{self.name(s)} {self.scores[s]}" for s in (0, 1)) + "."]
        notes.append(
            f"Games won: {self.name(0)} {wins[0]}, {self.name(1)} {wins[1]} (of {len(self.results)} played)."
        )
        return notes

    # -- views and zones -------------------------------------------------------------------------

    def view(self, seat: Seat | None) -> CaterpillarView:
        prev = self.previous
        phase = "match over" if self.is_over else f"{self.name(self.to_move)} to play"
        return CaterpillarView(
            **self.base_view(seat),
            phase=phase,
            hand=sort_hand(self.hands[seat]) if seat is not None else [],
            caterpillar=list(self.row),
            total=self.total,
            follow=prev.suit if prev is not None else None,
            game_points=list(self.game_points),
            stock=len(self.stock),
            hand_sizes=[len(h) for h in self.hands],
            first_player=self.first_player,
            game_number=self.deal_no,
            match_length=self.options.length_text(),
            last_result=list(self.last_result),
        )

    def card_zones(self) -> list[Zone]:
        return [
            Zone("hand 1", self.hands[0], frozenset((0,))),
            Zone("hand 2", self.hands[1], frozenset((1,))),
            Zone("stock", self.stock, frozenset()),
            Zone("caterpillar", self.row),
        ]


SUMMARY = """
Two players, a 52-card pack. Each is dealt 13 cards; the other 26 form a face-down stock.
The non-dealer plays first, then turns alternate. On your turn you lay one card at the end of
the row (the caterpillar), the running total is announced, and you draw the top card of the stock.

Card values: Ace 1, Two to Ten their pips, King, Queen and Jack nothing.
The first card of a game may be anything (a face card leaves the total at 0 and sets the suit).
After that you must play either a numeral of the same suit as the last card in the row, or any
face card. A face card of another suit changes the suit to follow; one of the same suit keeps it.

Scoring as you go: a numeral that brings the total to a multiple of five scores you that total.
A face card keeps the total; it scores the total if that is a multiple of five and the face card
matches the suit of the card it covers. A face card that changes the suit never scores.

Normal end: when the last stock card is drawn (26 cards in the row). Each player adds 100 for
every face card left in their own hand.
Court short: if, at the start of your turn, you hold no numeral of the suit to follow and no face
card, your hand is shown and play stops. Both keep their points from totals, and you score 100 for
each face card your opponent holds; they score nothing for them.

Match: by default 2 games, the deal alternating so each player leads once; game scores are added
up and the higher total wins. Option games sets another number of games, or target plays on until
someone's total reaches that score at the end of a game. Level totals at the end are a shared
win (tie=draw) or are settled by another game (tie=replay).
Referee's choices: cards are dealt one at a time, the non-dealer first; a stuck player is
checked with the card just drawn in hand, even on the last turn.
"""

GAME = Game(
    id="caterpillar",
    title="Caterpillar",
    min_players=2,
    max_players=2,
    options=CaterpillarOptions,
    state=CaterpillarState,
    actions=[PlayCard],
    summary=SUMMARY,
)
