# Over 400 lines: a whole game in one module (options, actions, view and picture, state, declaration), as games/README.md asks.
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

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar, Literal, Protocol, cast

from pydantic import BaseModel, ConfigDict, Field, model_validator

from games.cards import Card, Rank, Suit, format_cards, full_pack
from games.counting import (
    CardSource,
    CountingDeal,
    CountingFacts,
    CountingMatch,
    CountingRound,
    CountingRules,
    CountingState,
    CountingView,
    play_card,
    play_card_of,
)
from games.counting_deal import DealTable
from games.engine import Action, BaseOptions, Event, Game, Outcome, PlayCard, Seat
from games.layout import Area, Facts, Layout, Notes, Pile, Spot, finish, own_hand
from games.registry import declare

HAND_SIZE = 13
FACE_BONUS = 100
"""Points for each face card that counts at the end of a game."""
MULTIPLE = 5
COURT = frozenset((Rank.KING, Rank.QUEEN, Rank.JACK))

# --- scoring: pure functions on the facts, usable without a dealt hand --------------------------


def is_face(card: Card) -> bool:
    """King, Queen or Jack: worth nothing, playable on anything."""
    return card.rank in COURT


def card_value(card: Card) -> int:
    """What a card adds to the running total: pips for numerals, Ace 1, face cards 0."""
    if card.rank is None:
        raise ValueError("Caterpillar is played without jokers.")
    if card.rank.is_court:
        return 0
    return 1 if card.rank is Rank.ACE else int(card.rank)


def may_follow(previous: Card | None, card: Card) -> bool:
    """Whether ``card`` may go on the row after ``previous`` (``None``: the first card of a game)."""
    return previous is None or card.rank in COURT or card.suit == previous.suit


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


def face_text(faces: Sequence[Card], where: str) -> str:
    """``2 face cards in hand (K♠ J♦)`` or ``no face cards in hand``."""
    if not faces:
        return f"no face cards {where}"
    plural = "s" if len(faces) != 1 else ""
    return f"{len(faces)} face card{plural} {where} ({format_cards(faces)})"


@cache
def follow_refusal(previous: Card, card: Card) -> str:
    """Why ``card`` may not go on ``previous`` (cached: legality checks ask for it often)."""
    return (
        f"{card.short} cannot go on {previous.short}: play a {suit_word(previous.suit)} numeral "
        "or any King, Queen or Jack."
    )


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


class CaterpillarView(CountingView):
    """The counting table plus the whole caterpillar and the suit to follow."""

    caterpillar: list[Card] = Field(default_factory=list)
    follow: Suit | None = None
    game_points: list[int] = Field(default_factory=list)
    first_player: Seat | None = None
    match_length: str = ""
    last_result: list[str] = Field(default_factory=list)

    # -- the picture -------------------------------------------------------------------------------

    def caterpillar_pile(self, last: int | None = None) -> Pile:
        """The caterpillar, head first, the card laid last outlined, beside the running total."""
        cards = self.caterpillar if last is None else self.caterpillar[-last:]
        spots = tuple(Spot(c, mark="last" if i == len(cards) - 1 else None) for i, c in enumerate(cards))
        title = "The caterpillar" if last is None or len(self.caterpillar) <= last else f"The caterpillar's tail (of {len(self.caterpillar)})"
        return Pile(title if cards else "The caterpillar: no card yet", spots, total=self.total)

    def follow_facts(self) -> list[tuple[str, str]]:
        if self.over or self.deal_over:  # (the table a game left: no next card; it was cut to "a ♥ numer…")
            return []
        if self.follow is None:
            return [("Next card", "anything")]
        return [("Next card", f"a {self.follow.symbol} numeral or any face card")]

    def layout(self) -> Layout:
        """The whole caterpillar with the running total, what may follow, the hands and stock."""
        notes = tuple(
            line.rpartition(" Match: ")[0] if line.startswith("Last game: ") and " Match: " in line else line
            for line in self.notes
            if not line.startswith(("Caterpillar:", "Next card:"))
        )  # the last game's result less the match's scores, which the score table shows
        facts = [*self.follow_facts(), *self.table_facts()]
        if self.match_length and (self.deal_over or self.over):  # in play the subtitle says it: "Game 2 (2 games)"
            facts.append(("Match", self.match_length))
        return finish(
            self,
            [self.caterpillar_pile(), *own_hand(self), self.hands_area(), Notes(notes), self.scores_area()],
            facts,
        )

    def hand_context(self) -> tuple[Area, ...]:
        facts = self.follow_facts()
        return (*([Facts(tuple(facts))] if facts else []), self.caterpillar_pile(last=7))


# --- state --------------------------------------------------------------------------------------


class GameResult(BaseModel):
    """How one game of the match ended."""

    model_config = ConfigDict(frozen=True)

    number: int
    scores: tuple[int, int]
    court_short: Seat | None = None


class CaterpillarFacts(CountingFacts):
    """A finished game of Caterpillar: the counting facts (``points`` are the game's scores, face
    cards included), the face cards each player held at the end, and who was court short."""

    faces: tuple[int, ...] = ()
    court_short: Seat | None = None


class CaterpillarMatch(CountingMatch[CaterpillarFacts]):
    """Games with the first player alternating, their scores added up, for a number of games or
    to a target; level totals at the end are shared or replayed (option ``tie``)."""

    def init_match(self, state: CountingState[Any]) -> None:
        st = _caterpillar(state)
        st.results = []
        st.last_result = []

    def book(self, state: CountingState[Any], facts: CaterpillarFacts) -> list[Event]:
        st = _caterpillar(state)
        events = super().book(state, facts)
        st.results.append(GameResult(number=st.deals_played(), scores=(facts.points[0], facts.points[1]), court_short=facts.court_short))
        if self.length_reached(st) and st.scores[0] == st.scores[1] and st.options.tie == "replay":
            events.append(st.event("decider", "The match totals are level, so another game is played."))
        return events

    def length_reached(self, state: CaterpillarTable) -> bool:
        opts = state.options
        if opts.target is not None:
            return max(state.scores) >= opts.target
        assert opts.games is not None
        return len(state.results) >= opts.games

    def over(self, state: CountingState[Any]) -> bool:
        st = _caterpillar(state)
        if not self.length_reached(st):
            return False
        return st.options.tie == "draw" or st.scores[0] != st.scores[1]

    def outcome(self, state: CountingState[Any]) -> Outcome:
        st = _caterpillar(state)
        wins = [sum(1 for r in st.results if r.scores[s] > r.scores[1 - s]) for s in (0, 1)]
        notes = [
            "Final totals: " + ", ".join(f"{st.name(s)} {st.scores[s]}" for s in (0, 1)) + ".",
            f"Games won: {st.name(0)} {wins[0]}, {st.name(1)} {wins[1]} (of {len(st.results)} played).",
        ]
        return Outcome.from_scores(st.scores, notes=notes)


class CaterpillarTable(DealTable, Protocol):
    """What a game of Caterpillar asks of its table (online or refereed) beyond
    :class:`DealTable`: the match's results so far and the last game's result lines."""

    results: list[GameResult]
    last_result: list[str]

    @property
    def options(self) -> CaterpillarOptions: ...
    @property
    def deal_points(self) -> list[int]: ...


def _caterpillar(state: Any) -> CaterpillarTable:
    return cast(CaterpillarTable, state)


def game_phase(table: DealTable, text: str) -> str:
    """The phase line: which game of the match this is, then ``text``."""
    if table.is_over:
        return "Match over"
    return f"Game {table.deals_played()} ({table.options.length_text()}): {text}"


MATCH = CaterpillarMatch()


VALUES: dict[Rank, int] = {r: card_value(Card(r, Suit.SPADES)) for r in Rank}


class CaterpillarRules(CountingRules):
    """A card must be allowed to follow the last one in the caterpillar (:func:`may_follow`)."""

    def pack(self) -> list[Card]:
        return full_pack()

    def hand_size(self, players: int) -> int:
        return HAND_SIZE


    def refusal(
        self, deal: CountingRound, cards: CardSource, seat: Seat, action: Action, before: int, after: int
    ) -> str | None:
        card = play_card_of(action)
        prev = deal.pile[-1] if deal.pile else None
        if card is None or prev is None or may_follow(prev, card):
            return None
        return follow_refusal(prev, card)

    def quick_plays(self, deal: CountingRound, candidates: Sequence[Card]) -> list[Action]:
        """The same rule as :meth:`refusal`, without asking it card by card (this runs often)."""
        prev = deal.pile[-1] if deal.pile else None
        return [play_card(c) for c in candidates if may_follow(prev, c)]


@dataclass
class CaterpillarDeal(CountingDeal):
    """A game of Caterpillar: the court-short player, if play stopped on one, and each hand's face
    cards at the end (the state scores the end, in its own way in each mode); a play scores by
    the total and the suit to follow, the game ends when the stock is used up or a player is
    court short."""

    stuck: Seat | None = None
    end_faces: tuple[int, ...] = ()

    def init_deal(self, table: DealTable) -> None:
        self.stuck = None
        self.end_faces = ()

    @property
    def previous(self) -> Card | None:
        """The last card of the caterpillar (what the next card must follow)."""
        pile = self.round.pile
        return pile[-1] if pile else None

    def facts(self, table: DealTable) -> dict[str, Any]:
        return {**super().facts(table), "faces": self.end_faces, "court_short": self.stuck}

    def after_play(self, table: DealTable, seat: Seat, action: Action, before: int, after: int) -> list[Event]:
        card = play_card_of(action)
        assert card is not None
        pile = self.round.pile
        prev = pile[-2] if len(pile) > 1 else None
        _, points = score_play(before, prev, card)
        events: list[Event] = []
        if is_face(card):
            if prev is not None and prev.suit == card.suit:
                self.note(f"keeps {suit_word(card.suit, True)}")
            else:
                self.note(f"{suit_word(card.suit, True)} now")
                events.append(
                    table.event("suit", f"{suit_word(card.suit, True).capitalize()} must now be followed.")
                )
        if points:
            table.add_points(seat, points)
            self.note(f"scores {points}")
            events.append(table.event("score", f"{table.name(seat)} scores {points}."))
        return events

    def begin_turn(self, table: DealTable, seat: Seat) -> list[Event]:
        if not self.cards.stock_size():  # the last card was drawn: the normal end
            self.round.close()
            return [table.event("stock_out", "The stock is used up, so the game ends.")]
        return []

    def on_stuck(self, table: DealTable, seat: Seat) -> list[Event]:
        pile = self.round.pile
        prev = pile[-1] if pile else None
        assert prev is not None
        self.stuck = seat
        hand = self.cards.hands[seat]
        self.shown[seat] = list(hand)
        self.round.close()
        return [
            table.event(
                "court_short",
                f"{table.name(seat)} is court short: no {suit_word(prev.suit)} numeral and no face card in "
                f"{format_cards(hand)}. Play stops.",
            )
        ]


    def score_deal(self, table: DealTable) -> list[Event]:
        """The end of a game with the hands known (online): each hand's face cards."""
        hands = self.cards.hands
        return self.settle_game(_caterpillar(table), [face_count(h) for h in hands], [self.face_detail(table, s) for s in (0, 1)])

    def face_detail(self, table: DealTable, seat: Seat) -> str:
        """What ``seat``'s face-card bonus is for, in the game's result lines (the hands known)."""
        hands = self.cards.hands
        if self.stuck is None:
            return face_text([c for c in hands[seat] if is_face(c)], "in hand")
        if seat == self.stuck:
            return face_text([c for c in hands[1 - seat] if is_face(c)], f"held by {table.name(1 - seat)}")
        return "face cards (they go to the court-short player)"

    def settle_game(self, table: CaterpillarTable, faces: Sequence[int], details: Sequence[str]) -> list[Event]:
        """Score a finished game from each hand's face cards (``faces``; ``details`` says what each
        seat's bonus is for): the bonuses, who won, the match so far; shared with referee mode,
        where the counts are entered."""
        points = table.deal_points
        final = final_scores(points, list(faces), self.stuck)
        lines: list[str] = []
        for s in (0, 1):
            bonus = final[s] - points[s]
            lines.append(f"{table.name(s)}: {points[s]} from totals + {bonus} for {details[s]} = {final[s]}.")
            if bonus:
                table.add_points(s, bonus)
        self.end_faces = tuple(faces)
        number = table.deals_played()
        if final[0] == final[1]:
            lines.append(f"Game {number} is drawn at {final[0]} each.")
        else:
            win = 0 if final[0] > final[1] else 1
            lines.append(f"{table.name(win)} wins game {number}, {final[win]} to {final[1 - win]}.")
        lines.append("Match: " + ", ".join(f"{table.name(s)} {table.scores[s]}" for s in (0, 1)) + ".")
        table.last_result = lines
        return [table.event("game_over", line) for line in lines]

    def view_notes(self, table: DealTable, seat: Seat | None) -> list[str]:
        lines = [f"Caterpillar: {format_cards(self.round.pile)}"]
        prev = self.previous
        if not table.is_over:
            lines.append(f"{table.name(table.first_player())} played first this game.")
            if prev is None:
                lines.append("Next card: anything.")
            else:
                lines.append(f"Next card: a {prev.short[-1]} {suit_word(prev.suit)} numeral or any face card.")
        last = _caterpillar(table).last_result
        if last:
            lines.append("Last game: " + " ".join(last))
        return lines

    def view_fields(self, table: CaterpillarTable) -> dict[str, Any]:
        """The fields :class:`CaterpillarView` adds to the counting view."""
        prev = self.previous
        return {
            "caterpillar": list(self.round.pile),
            "follow": prev.suit if prev is not None else None,
            "game_points": list(self.round.deal_points),
            "first_player": table.first_player(),
            "match_length": table.options.length_text(),
            "last_result": list(table.last_result),
        }


class CaterpillarState(CountingState[CaterpillarOptions]):
    """The online game: the hands known, so the deal scores the end itself; the public draw."""

    rules_class = CaterpillarRules
    values = VALUES
    draw_timing = "after"
    match: ClassVar[CountingMatch[Any]] = MATCH
    deal_class = CaterpillarDeal
    facts_class = CaterpillarFacts
    deal: CaterpillarDeal
    results: list[GameResult]
    last_result: list[str]

    @property
    def stuck(self) -> Seat | None:
        """The court-short player of this game, if play stopped on one (the deal's)."""
        return self.deal.stuck

    @property
    def previous(self) -> Card | None:
        return self.deal.previous

    def draw(self, seat: Seat) -> list[Event]:
        events = super().draw(seat)
        left = len(self.stock)
        return [self.event("draw_public", f"{self.name(seat)} draws from the stock ({left} left)."), *events]

    def phase_text(self) -> str:
        return game_phase(self, super().phase_text())

    def view(self, seat: Seat | None) -> CaterpillarView:
        return CaterpillarView(**self.view_fields(seat), **self.deal.view_fields(self))


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

GAME = declare(
    Game(
        id="caterpillar",
        title="Caterpillar",
        min_players=2,
        max_players=2,
        options=CaterpillarOptions,
        state=CaterpillarState,
        actions=[PlayCard],
        summary=SUMMARY,
    ),
    referee="games.referee.caterpillar:RefereeCaterpillarState",
    bots={
        "easy": "games.players.caterpillar:EASY",
        "strong": "games.players.caterpillar:STRONG",
    },
)
