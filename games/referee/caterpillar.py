# Over 400 lines: a whole referee mode in one module (entries, results mode, state, summary); court short's bounds and the face cards at the end are checks of their own.
"""Caterpillar refereed: two people play with a real pack and enter each card as it is played.

The bot keeps the caterpillar, the running total, the points for multiples of five and the match,
with the online game's own rules and scoring (:mod:`games.caterpillar`). What it checks:

* a card already in this game's caterpillar is refused (the pack has one of each);
* a card that may not follow the last one (a numeral of another suit) is refused: both cards are
  on the table, so the rule is checked at once rather than left for a later claim;
* "court short" is an entry for the player to move; it is refused on the first card of a game
  (anything may be played then) and when the unplayed numerals of the other three suits are too few
  to make a 13-card hand with no face card and nothing to follow;
* at the end, each player's face cards in hand. After the normal end the two hands are exactly the
  26 unplayed cards, so one count settles the other (the bot fills it in); after a
  court short, the opponent holds at most the unplayed face cards (and at least those the stock
  cannot hold).

The bot cannot see the hands, so nothing else is checked (the advice to leave the opponent a
playable card is not a rule). The stock needs no entries: one card is drawn after each play.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import Field, field_validator

from games.cards import Card, full_pack
from games.caterpillar import (
    FACE_BONUS,
    HAND_SIZE,
    MATCH,
    VALUES,
    CaterpillarDeal,
    CaterpillarFacts,
    CaterpillarOptions,
    CaterpillarRules,
    CaterpillarView,
    GameResult,
    card_value,
    follow_refusal,
    game_phase,
    is_face,
    may_follow,
    suit_word,
)
from games.caterpillar import GAME as ONLINE
from games.counting import play_card, play_card_of
from games.engine import Action, Event, Game, PlayCard, Seat, Zone
from games.match import DealFacts
from games.referee import entries_alias, referee_mode
from games.referee.counting import RefereeAdder

PACK: tuple[Card, ...] = tuple(full_pack())
FACES_IN_PACK = sum(1 for c in PACK if is_face(c))
PLAYS_PER_GAME = len(PACK) - 2 * HAND_SIZE
"""26: the game ends normally when the stock is gone, one card drawn after each play."""

MAX_POINTS = HAND_SIZE * sum(card_value(c) for c in PACK)
"""A bound on one player's points from totals: 13 plays, each scoring a total of at most 220."""

Stage = Literal["play", "points", "ending", "faces"]


class RefereeCaterpillarOptions(CaterpillarOptions):
    entries: Literal["cards", "results"] = Field(
        "cards",
        description="cards: enter every card as it is played (the bot keeps the total and scores); "
        "results: enter only each game's results (points pegged from totals, how it ended, face "
        "cards held), for players who keep the count themselves.",
    )

    _entries = field_validator("entries", mode="before")(entries_alias(plural=True))


# --- entries -------------------------------------------------------------------------------------


class CourtShort(Action):
    """The player to move holds no numeral of the suit to follow and no face card."""

    kind: Literal["court_short"] = "court_short"

    def label(self) -> str:
        return "Court short (shows the hand)"


class FacesHeld(Action):
    """How many face cards (K, Q, J) a player holds when the game ends."""

    kind: Literal["faces_held"] = "faces_held"
    count: int = Field(ge=0, le=HAND_SIZE)

    def label(self) -> str:
        return f"{self.count} face card{'' if self.count == 1 else 's'} in hand"


class PointsFromTotals(Action):
    """Results mode: the points a player scored from totals that were multiples of five."""

    kind: Literal["points_from_totals"] = "points_from_totals"
    points: int = Field(ge=0, le=MAX_POINTS, multiple_of=5)

    def label(self) -> str:
        return f"{self.points} points from totals"

    def choice_path(self) -> tuple[str, ...]:
        low = self.points // 100 * 100
        return (f"{low}-{low + 95}", self.label())


class StockUsedUp(Action):
    """Results mode: the game ended normally, the stock used up."""

    kind: Literal["stock_used_up"] = "stock_used_up"

    def label(self) -> str:
        return "Stock used up (normal end)"


_COURT_SHORT = CourtShort()
_STOCK_USED_UP = StockUsedUp()
_FACES = [FacesHeld(count=n) for n in range(HAND_SIZE + 1)]
_POINTS = [PointsFromTotals(points=p) for p in range(0, MAX_POINTS + 1, 5)]


# --- state ---------------------------------------------------------------------------------------


SUMMARY = f"""
Referee mode: two players play Caterpillar with a real pack and enter each card as it is played;
the bot keeps the running total, scores every multiple of five and runs the match as the online
game does (same options: games, target, tie).

Each game: enter every card laid on the caterpillar, in turn. The bot refuses a card already in
the caterpillar and a numeral that does not follow the last card's suit (a King, Queen or Jack may
go on anything). The stock needs no entries. A player with no numeral of the suit to follow and no
face card enters Court short: play stops. Both players' cards of a round may go in one entry, in
playing order ("7H 8H").

The end: after {PLAYS_PER_GAME} cards (the stock used up), enter how many face cards one player holds;
the bot fills in the other's (the two add up to the face cards not played); each scores {FACE_BONUS} a
face card. After a
court short, enter the face cards the opponent holds: the court-short player scores {FACE_BONUS} for
each of them, the opponent nothing.

With entries=results the cards are not entered (for players who peg the count themselves, a
cribbage board hole worth 5): after each game enter each player's points from totals, how the game
ended (stock used up, or who was court short) and the face cards held; the bot adds the face-card
points and runs the match. It can then check little: points in fives, at most 12 face cards.
"""


class RefereeCaterpillarState(RefereeAdder[CaterpillarOptions]):
    """A refereed match: a :class:`~games.referee.state.RefereeState` (lines of entries, a filled-in
    count typed anyway, :meth:`entries`) holding the online game's parts, not inheriting its
    state: its rules, its deal (``CaterpillarDeal``: a play's points, the court-short player, the
    end of a game's scoring over the entered face-card counts, the view's lines) and its match
    (``MATCH``, which keeps the games' results).
    The hands and the stock stay empty (the real ones are on the table), so it knows only the
    caterpillar."""

    rules_class = CaterpillarRules
    values = VALUES
    draw_timing = "after"
    match = MATCH
    deal_class = CaterpillarDeal
    facts_class = CaterpillarFacts
    deal: CaterpillarDeal
    results: list[GameResult]
    last_result: list[str]

    entry_kinds = (PlayCard, CourtShort, FacesHeld, PointsFromTotals, StockUsedUp)
    rules_summary = SUMMARY
    options_model = RefereeCaterpillarOptions
    takes_series = True

    @property
    def results_only(self) -> bool:
        """Results mode: the cards are not entered, only each game's results."""
        return isinstance(self.options, RefereeCaterpillarOptions) and self.options.entries == "results"

    def init_deal(self) -> None:
        super().init_deal()
        self.stage: Stage = "points" if self.results_only else "play"
        self.points: list[int | None] = [None, None]
        self.faces: list[int | None] = [None, None]

    @property
    def stuck(self) -> Seat | None:
        """The court-short player of this game, if play stopped on one (the deal's)."""
        return self.deal.stuck

    @stuck.setter
    def stuck(self, seat: Seat | None) -> None:
        self.deal.stuck = seat

    @property
    def previous(self) -> Card | None:
        return self.deal.previous

    # -- no dealing: the real cards are dealt at the table ------------------------------------

    def pack(self) -> list[Card]:
        return []

    def hand_size(self) -> int:
        return 0

    def deal_news(self, size: int) -> str:
        what = "the results when the game ends" if self.results_only else "each card as it is played"
        return (
            f"Game {self.deals_played()}: {self.name(self.dealer)} deals 13 cards each and stacks the "
            f"rest face down. {self.name(self.first_player())} plays first; enter {what}."
        )

    def takes_turns(self, seat: Seat) -> bool:
        return True

    def take_card(self, seat: Seat, card: Card) -> None:
        """The card came from a hand the bot does not see: nothing to remove."""

    def draw(self, seat: Seat) -> list[Event]:
        return []

    def stock_left(self) -> int:
        return max(0, PLAYS_PER_GAME - len(self.pile))

    def begin_turn(self, seat: Seat) -> list[Event]:
        if len(self.pile) < PLAYS_PER_GAME or self.stage == "faces":
            return []
        self.stage = "faces"
        total = self.unplayed_faces()
        text = (
            "The stock is used up, so the game ends. Enter how many face cards each player holds "
            f"({total} between them)."
        )
        return [self.event("stock_out", text)]

    # -- what the referee knows ----------------------------------------------------------------

    def unplayed(self) -> list[Card]:
        played = set(self.pile)
        return [c for c in PACK if c not in played]

    def unplayed_faces(self) -> int:
        return FACES_IN_PACK - sum(1 for c in self.pile if is_face(c))

    def court_short_possible(self) -> bool:
        """Whether 13 unplayed cards could make a hand with nothing to play on the last card."""
        prev = self.previous
        return prev is not None and len(self._stuck_cards(prev)) >= HAND_SIZE

    def _stuck_cards(self, previous: Card) -> list[Card]:
        """Unplayed cards a court-short hand could hold: numerals of the other suits."""
        return [c for c in self.unplayed() if not is_face(c) and c.suit != previous.suit]

    def face_choices(self, seat: Seat) -> list[int]:
        """The face-card counts ``seat`` may hold now the game is over."""
        if self.faces[seat] is not None:
            return []
        if self.results_only:  # the cards played are unknown: only the pack's 12 face cards bound it
            return list(range(FACES_IN_PACK - (self.faces[1 - seat] or 0) + 1))
        total = self.unplayed_faces()
        if self.stuck is not None:  # the opponent of the court-short player
            low = max(0, total - self.stock_left())
            return list(range(low, min(HAND_SIZE, total) + 1))
        other = self.faces[1 - seat]
        if other is not None:
            return [total - other]
        return list(range(max(0, total - HAND_SIZE), min(HAND_SIZE, total) + 1))

    # -- the protocol -------------------------------------------------------------------------

    def _awaiting(self) -> frozenset[Seat]:
        if self.stage == "faces":
            return frozenset(s for s in (0, 1) if self.faces[s] is None)
        if self.stage == "points":
            return frozenset(s for s in (0, 1) if self.points[s] is None)
        return self.deal.awaiting(self)

    def legal_plays(self, seat: Seat) -> list[Action]:
        if self.stage == "faces":
            return [_FACES[n] for n in self.face_choices(seat)]
        if self.stage == "points":
            return list(_POINTS) if self.points[seat] is None else []
        if self.stage == "ending":
            return [_STOCK_USED_UP, _COURT_SHORT] if seat == self.to_play else [_COURT_SHORT]
        prev = self.previous
        out: list[Action] = [play_card(c) for c in self.unplayed() if may_follow(prev, c)]
        if self.court_short_possible() or not out:
            out.append(_COURT_SHORT)
        return out

    def _legal(self, seat: Seat) -> list[Action]:
        """The awaited seats' entries; while a result's ending is due, either player may be the
        court-short one (an optional act for the seat not awaited)."""
        if seat not in self.awaiting() and self.stage != "ending":
            return []
        return self.legal_plays(seat)

    def _refusal(self, seat: Seat, action: Action) -> str | None:
        if not isinstance(action, (FacesHeld, PointsFromTotals)) and not self.legal_actions(seat):
            return None  # the base says whose turn it is; an entry already made gets its reason
        if self.results_only:
            return self._results_refusal(seat, action)
        if self.stage == "faces":
            if isinstance(action, FacesHeld):
                return self._faces_refusal(seat, action.count)
            return "This game is over: enter the face cards each player holds."
        if isinstance(action, FacesHeld):
            return "Face cards in hand are entered when the game ends (stock used up, or court short)."
        if isinstance(action, CourtShort):
            if self.previous is None:
                return "Nobody is court short on the first card of a game: any card may be played."
            follow = suit_word(self.previous.suit, plural=True)
            left = len(self._stuck_cards(self.previous))
            return (
                f"{self.name(seat)} cannot be court short: only {left} numerals of suits other than "
                f"{follow} are unplayed, too few for a hand of {HAND_SIZE} with no face card."
            )
        card = play_card_of(action)
        if card is None:
            return None
        if card not in PACK:
            return "Caterpillar is played without jokers."
        if card in self.pile:
            return f"The {card.short} is already in the caterpillar: the pack has only one."
        prev = self.previous
        if prev is not None and not may_follow(prev, card):
            return follow_refusal(prev, card)
        return None

    def _results_refusal(self, seat: Seat, action: Action) -> str | None:
        name = self.name(seat)
        if isinstance(action, PointsFromTotals):
            if self.stage != "points":
                return f"The points from totals of game {self.deals_played()} are already entered."
            if self.points[seat] is not None:
                return f"{name}'s points are already entered ({self.points[seat]}): undo the entry to change it."
            return f"Points from totals come in fives, from 0 to {MAX_POINTS}."
        if isinstance(action, FacesHeld):
            if self.stage != "faces":
                return "Face cards in hand are entered once the points and the end of the game are in."
            return self._faces_refusal(seat, action.count)
        if isinstance(action, (StockUsedUp, CourtShort)):
            if self.stage == "points":
                return "First enter each player's points from totals; then how the game ended."
            return "How this game ended is already entered."
        if play_card_of(action) is not None:
            return "This table enters results only (entries=results): no cards are entered."
        return None

    def _faces_refusal(self, seat: Seat, count: int) -> str:
        name = self.name(seat)
        entered = self.faces[seat]
        if entered is not None:
            return f"{name}'s face cards are already entered ({entered}): undo the entry to change it."
        if self.results_only:
            held = self.faces[1 - seat] or 0
            return f"The pack has {FACES_IN_PACK} face cards and {held} are entered already: {name} cannot hold {count}."
        total = self.unplayed_faces()
        if self.stuck is not None:
            low = max(0, total - self.stock_left())
            return (
                f"{total} face cards are not in the caterpillar and {self.stock_left()} cards are in the "
                f"stock, so {name} holds from {low} to {min(HAND_SIZE, total)}."
            )
        other = self.faces[1 - seat]
        if other is not None:
            return (
                f"The two hands are the {2 * HAND_SIZE} cards not played, with {total} face cards: "
                f"{self.name(1 - seat)} holds {other}, so {name} holds {total - other}."
            )
        return f"Only {total} face cards are not in the caterpillar: {name} cannot hold {count}."

    # -- entries -------------------------------------------------------------------------------

    def _enter(self, seat: Seat, action: Action) -> list[Event]:
        if isinstance(action, CourtShort):
            return self._court_short(seat)
        if isinstance(action, FacesHeld):
            return self._faces_entered(seat, action.count)
        if isinstance(action, PointsFromTotals):
            return self._points_entered(seat, action.points)
        if isinstance(action, StockUsedUp):
            self.stage = "faces"
            text = "The stock was used up, so the game ended normally. Enter the face cards each player holds."
            return [self.event("stock_out", text)]
        return self.deal.apply(self, seat, action)

    def _points_entered(self, seat: Seat, points: int) -> list[Event]:
        self.points[seat] = points
        events = [self.event("points", f"{self.name(seat)} scored {points} from totals.")]
        if any(p is None for p in self.points):
            return events
        for s in (0, 1):
            self.add_points(s, self.points[s] or 0)
        self.stage = "ending"
        return events

    def _court_short(self, seat: Seat) -> list[Event]:
        prev = self.previous
        self.stuck = seat
        self.stage = "faces"
        self.faces = [None, None]
        self.faces[seat] = 0
        other = self.name(1 - seat)
        follow = f"no {suit_word(prev.suit)} numeral" if prev is not None else "no card to follow with"
        text = (
            f"{self.name(seat)} is court short: {follow} and no face card. "
            f"Play stops; enter how many face cards {other} holds (they score for {self.name(seat)})."
        )
        return [self.event("court_short", text)]

    def _faces_entered(self, seat: Seat, count: int) -> list[Event]:
        self.faces[seat] = count
        plural = "" if count == 1 else "s"
        events = [self.event("faces", f"{self.name(seat)} holds {count} face card{plural}.")]
        other = 1 - seat
        if self.faces[other] is None and not self.results_only and self.stuck is None:
            # after the normal end the two hands are the unplayed cards: the other count is forced
            held = self.unplayed_faces() - count
            self.faces[other] = held
            # a forced count filled in by the bot, entered by hand anyway right after (as tables
            # did, and older records hold), is accepted and changes nothing
            echo = self.event("faces", f"{self.name(other)}'s face cards were already filled in: nothing changes.")
            self.filled_in(other, _FACES[held], echo)
            text = f"{self.name(other)} holds the other {held} (filled in: {self.unplayed_faces()} face cards were not played)."
            events.append(self.event("faces", text))
        if any(f is None for f in self.faces):
            return events
        self.close_deal()
        return events + self.deal.run(self, None)

    def score_deal(self) -> list[Event]:
        """The online game's final scoring, on the entered face-card counts."""
        faces = [f or 0 for f in self.faces]
        return self.deal.settle_game(self, faces, [self.face_detail(s, faces) for s in (0, 1)])

    def face_detail(self, seat: Seat, faces: Sequence[int]) -> str:
        if self.stuck is None:
            return f"{faces[seat]} face card(s) in hand"
        if seat == self.stuck:
            return f"the {faces[1 - seat]} face card(s) {self.name(1 - seat)} holds"
        return "face cards (they go to the court-short player)"

    # -- what a table enters for a game's facts ------------------------------------------------

    def entries(self, facts: DealFacts) -> list[tuple[Seat, Action]]:
        """Card by card: each card laid, then the end (court short, or the stock used up) and
        the face cards held, the bot filling in the forced count. Results: each player's points
        from totals, how the game ended, then the face cards held."""
        assert isinstance(facts, CaterpillarFacts)
        stuck, faces = facts.court_short, facts.faces
        if self.results_only:
            bonus = [FACE_BONUS * faces[s] for s in (0, 1)] if stuck is None else [0, 0]
            if stuck is not None:
                bonus[stuck] = FACE_BONUS * faces[1 - stuck]
            out: list[tuple[Seat, Action]] = [(s, PointsFromTotals(points=facts.points[s] - bonus[s])) for s in (0, 1)]
            if stuck is not None:
                return [*out, (stuck, _COURT_SHORT), (1 - stuck, _FACES[faces[1 - stuck]])]
            ender = self.to_play if self.to_play is not None else self.first_player()
            return [*out, (ender, _STOCK_USED_UP), (0, _FACES[faces[0]]), (1, _FACES[faces[1]])]
        out = [(t.seat, t.play) for t in facts.turns if t.play is not None]
        if stuck is not None:
            return [*out, (stuck, _COURT_SHORT), (1 - stuck, _FACES[faces[1 - stuck]])]
        return [*out, (0, _FACES[faces[0]])]

    # -- what the table sees ------------------------------------------------------------------

    def due(self) -> str:
        if self.is_over:
            return ""
        if self.stage == "faces":
            names = " and ".join(self.name(s) for s in sorted(self.awaiting()))
            return f"the face cards (K, Q, J) held by {names}."
        if self.stage == "points":
            names = " and ".join(self.name(s) for s in sorted(self.awaiting()))
            return f"the points from totals (multiples of five) of {names}."
        if self.stage == "ending":
            return "how the game ended: the stock used up, or a player court short."
        seat = self.to_play
        if seat is None:
            return ""
        return f"{self.name(seat)}'s card, or court short."

    def phase_text(self) -> str:
        what = {"faces": "face cards in hand", "points": "points from totals", "ending": "how it ended"}
        if not self.is_over and self.stage in what:
            return f"Game {self.deals_played()} ({self.options.length_text()}): {what[self.stage]}"
        return game_phase(self, super().phase_text())

    def view_notes(self, seat: Seat | None) -> list[str]:
        if self.results_only:
            notes = [f"{self.name(self.first_player())} played first this game."] if not self.is_over else []
            if self.last_result:
                notes.append("Last game: " + " ".join(self.last_result))
        else:
            notes = super().view_notes(seat)
        if not self.is_over:
            notes = [f"Dealer: {self.name(self.dealer)}", *notes]
        due = self.due()
        return [*notes, f"Next entry: {due}"] if due else notes

    def view_fields(self, seat: Seat | None) -> dict[str, Any]:
        fields = super().view_fields(seat)
        fields["stock"] = self.stock_left() if self.stage == "play" else 0
        fields["hand_counts"] = [HAND_SIZE, HAND_SIZE] if self.stage == "play" else [0, 0]
        return fields

    def view(self, seat: Seat | None) -> CaterpillarView:
        return CaterpillarView(**self.view_fields(seat), **self.deal.view_fields(self))

    def card_zones(self) -> list[Zone]:
        return [Zone("caterpillar", list(self.pile)), Zone("not seen", self.unplayed(), frozenset())]


GAME: Game[CaterpillarOptions] = referee_mode(ONLINE, RefereeCaterpillarState)
