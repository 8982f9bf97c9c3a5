# Over 400 lines: the match and the one deal's table (mog, count of the play, show) that both modes hold; splitting the Deal from the match it pegs into would put two halves of one scoring rule in two modules.
"""Costly Colours' match and the part of a deal both modes share.

The match (:class:`CostlyColoursMatch`, :data:`MATCH`) is the sides and pegging to the target: a
side wins the moment it reaches it, even mid-play, so the points of a deal are pegged as they come
and the deal's facts only pass the deal on. The facts (:class:`CostlyColoursFacts`) are what the
table saw of a deal, in order: the deck card, the mog, the cards played and the Jacks and Deuces
claimed at the show; a deal that ended the match ends with the step that pegged out.

:class:`Deal` is one deal's table as the dealt game and the referee game both keep it: the deck
card and trumps, the mog offers, answers and Jack and Deuce pegs, the count of the play, the show
and the record of the facts. Each state holds one (``state.deal``, a new one every deal) and says
itself what it alone knows: the hands (online) or the entries (referee), who plays after a card,
how a dealer mogs with the stock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, cast

from pydantic import BaseModel, ConfigDict, Field, field_validator

from games.cards import Card, Suit, format_cards
from games.costly_colours_scoring import (
    ScorePart,
    card_value,
    go_points,
    heels_points,
    mog_gift_points,
    score_play_card,
    score_show,
    unclaimed_gift_part,
)
from games.engine import BaseOptions, Event, Outcome, Seat, SetupError
from games.match import DealFacts, Match, MatchState

HAND_SIZE = 3

MOG_OFFER = "mog_offer"
MOG_ANSWER = "mog_answer"
MOG_GIVE = "mog_give"
STOCK_TAKE = "stock_take"
STOCK_BURY = "stock_bury"
PLAY = "play"
OVER = "over"



class CostlyColoursOptions(BaseOptions):
    go_point_on_31: bool = Field(
        True,
        description="The last player of a series pegs 1 for the go even when the count is exactly 31 "
        "(on top of 1 per card for the 31). Off: at 31 only the cards count (Cotton's reading).",
    )
    muggins: bool = Field(
        False,
        description="A player passing a Jack or Deuce in the mog must claim its 2 (4 in trumps) "
        "when giving it; an unclaimed one scores for the receiver at the show. Off: always claimed.",
    )
    partner_refusal_point: bool = Field(
        False,
        description="Four players only: a mog declined or refused between partners still pegs 1 "
        "for the other partner, so for the refuser's own side. Off: no point.",
    )
    target: Literal[121, 61] = Field(
        121,
        description="Points that win the game: 121, or 61 for Cotton's shorter game "
        "(the hand values stay as in the standard game).",
    )

    @field_validator("target", mode="before")
    @classmethod
    def _target_from_text(cls, value: Any) -> Any:
        if isinstance(value, str) and value.strip().isdigit():
            return int(value.strip())
        return value


def check_setup(players: int, options: CostlyColoursOptions) -> None:
    if players != 4 and options.partner_refusal_point:
        raise SetupError("partner_refusal_point only applies to the four-hand partnership game.")


# --- the facts of a deal -----------------------------------------------------------------------------

StepKind = Literal["propose", "no_mog", "accept", "refuse", "pass", "take_stock", "keep_hand", "play", "claim_gift"]


class Step(BaseModel):
    """One thing the table saw a player do: ``pass`` carries the Jack or Deuce claimed as it was
    passed (``None``: a card that scores nothing, or one left unclaimed under muggins), ``play``
    the card, ``claim_gift`` the Jack or Deuce a receiver scores at the show (muggins)."""

    model_config = ConfigDict(frozen=True)

    seat: Seat
    what: StepKind
    card: Card | None = None


class CostlyColoursFacts(DealFacts):
    """A deal as the table saw it, up to its show or to the peg that ended the match. A Go is
    not a step: who cannot play follows from the cards."""

    deck_card: Card
    steps: tuple[Step, ...]


# --- the match ------------------------------------------------------------------------------------


class Table(MatchState, Protocol):
    """What the deal and the match read on a Costly Colours state, online or refereed."""

    options: CostlyColoursOptions
    last_show: list[str]
    """The last show, a hand a line: its cards, each scoring combination and the total."""
    show_totals: list[tuple[Seat, int]]
    """Who counted what at the last show, in turn (its lines, in short)."""

    @property
    def is_over(self) -> bool: ...

    def base_view(self, seat: Seat | None) -> dict[str, Any]: ...


def teams(n: int) -> list[list[Seat]] | None:
    return [[0, 2], [1, 3]] if n == 4 else None


def team_of(n: int, seat: Seat) -> list[Seat]:
    return [seat, (seat + 2) % 4] if n == 4 else [seat]


def side_name(table: Table, seat: Seat) -> str:
    return " and ".join(table.name(s) for s in sorted(team_of(table.n, seat)))


class CostlyColoursMatch(Match[CostlyColoursFacts]):
    """Pegging to the target, by sides (partners peg together): the match ends the moment a side
    reaches the target (:meth:`peg`). A deal's points are pegged as they come, so a deal counted
    to the end only passes the deal to the left."""

    def peg(self, table: Table, seat: Seat, points: int, reason: str, events: list[Event]) -> bool:
        """Peg ``points`` for ``seat``'s side; True when that ends the match."""
        if points <= 0 or table.is_over:
            return table.is_over
        for s in team_of(table.n, seat):
            table.scores[s] += points
        score = table.scores[seat]
        events.append(table.event("peg", f"{table.name(seat)} pegs {points} {reason}: {side_name(table, seat)} {score}."))
        if score >= table.options.target:
            verb = "win" if table.n == 4 else "wins"
            note = f"{side_name(table, seat)} {verb} by reaching {score} ({points} {reason})."
            events.append(table.finish(Outcome.from_scores(table.scores, notes=[note], teams=teams(table.n))))
        return table.is_over

    def score(self, state: MatchState, facts: CostlyColoursFacts) -> list[Event]:
        if not cast(Table, state).is_over:
            state.dealer = (state.dealer + 1) % state.n
        return []


MATCH = CostlyColoursMatch()


# --- one deal's table -------------------------------------------------------------------------------


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


@dataclass
class Deal:
    """One deal's table as both modes keep it (see the module's docstring). Methods that peg
    return True when the peg ended the match (the facts so far are then settled)."""

    n: int
    deck_card: Card | None = None
    played: list[list[Card]] = field(default_factory=list)
    phase: str = MOG_OFFER
    to_act: Seat = 0
    mog_pairs: list[tuple[Seat, Seat]] = field(default_factory=list)
    mog_step: int = 0
    gifts: dict[Seat, tuple[Card | None, bool]] = field(default_factory=dict)
    """The card each seat of an accepted mog passes (``None``: one that scores nothing, in
    referee mode) and whether it was claimed."""
    unclaimed: dict[Seat, list[Card]] = field(default_factory=dict)
    """Muggins: the Jacks and Deuces each receiver scores at the show."""
    mog_note: str = ""
    series: list[Card] = field(default_factory=list)
    total: int = 0
    last_player: Seat | None = None
    said_go: list[bool] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)

    @classmethod
    def new(cls, n: int) -> Deal:
        return cls(n, played=[[] for _ in range(n)], said_go=[False] * n)

    @property
    def partnership(self) -> bool:
        return self.n == 4

    @property
    def trump(self) -> Suit:
        assert self.deck_card is not None and self.deck_card.suit is not None
        return self.deck_card.suit

    def facts(self) -> CostlyColoursFacts:
        assert self.deck_card is not None
        return CostlyColoursFacts(deck_card=self.deck_card, steps=tuple(self.steps))

    def awaiting(self) -> frozenset[Seat]:
        """Both of an accepted mog's pair until each has passed a card, else the seat to act."""
        if self.phase == MOG_GIVE:
            pair = self.mog_pairs[self.mog_step]
            return frozenset(s for s in pair if s not in self.gifts)
        return frozenset((self.to_act,))

    def record(self, seat: Seat, what: StepKind, card: Card | None = None) -> None:
        self.steps.append(Step(seat=seat, what=what, card=card))

    def peg(self, table: Table, seat: Seat, points: int, reason: str, events: list[Event]) -> bool:
        """Peg for ``seat``'s side; a peg that ends the match settles the deal so far."""
        was_over = table.is_over
        if not MATCH.peg(table, seat, points, reason, events):
            return False
        if not was_over:
            self.phase = OVER
            events += MATCH.settle(table, self.facts())
        return True

    # -- the deck card and the mog ---------------------------------------------------------------

    def turn_up(self, table: Table, card: Card, events: list[Event]) -> None:
        """The deck card is known: his heels for the dealer, then the first mog offer."""
        self.deck_card = card
        heels = heels_points(card)
        if heels and self.peg(table, table.dealer, heels, f"for his heels ({card.short} turned)", events):
            return
        d = table.dealer
        if self.partnership:
            self.mog_pairs = [((d + 1) % 4, (d + 3) % 4), (d, (d + 2) % 4)]
        else:
            self.mog_pairs = [((d + 1) % 2, d)]
        self.mog_step = 0
        self.mog_note = ""
        self._open_mog(table, events)

    def _open_mog(self, table: Table, events: list[Event]) -> None:
        proposer, answerer = self.mog_pairs[self.mog_step]
        self.phase = MOG_OFFER
        self.to_act = proposer
        self.gifts = {}
        events.append(table.event("mog", f"{table.name(proposer)} may propose a mog with {table.name(answerer)}."))

    def _refusal_point(self, table: Table, receiver: Seat, events: list[Event]) -> bool:
        """The 1 for a refused (or never proposed) mog; in four-hand only with the option."""
        if self.partnership and not table.options.partner_refusal_point:
            return False
        return self.peg(table, receiver, 1, "for the refusal", events)

    def propose(self, table: Table, seat: Seat, events: list[Event]) -> None:
        self.record(seat, "propose")
        _, answerer = self.mog_pairs[self.mog_step]
        events.append(table.event("mog", f"{table.name(seat)} proposes a mog to {table.name(answerer)}."))
        self.mog_note = f"{table.name(seat)} has proposed a mog to {table.name(answerer)}."
        self.phase = MOG_ANSWER
        self.to_act = answerer

    def no_mog(self, table: Table, seat: Seat, events: list[Event]) -> None:
        self.record(seat, "no_mog")
        _, answerer = self.mog_pairs[self.mog_step]
        events.append(table.event("mog", f"{table.name(seat)} does not propose a mog."))
        self.mog_note = f"{table.name(seat)} did not propose a mog."
        if self._refusal_point(table, answerer, events):
            return
        self.next_mog(table, events)

    def accept(self, table: Table, seat: Seat, events: list[Event]) -> None:
        self.record(seat, "accept")
        proposer, _ = self.mog_pairs[self.mog_step]
        events.append(
            table.event(
                "mog",
                f"{table.name(seat)} accepts: {table.name(proposer)} and {table.name(seat)} "
                "each choose a card to pass face down.",
            )
        )
        self.mog_note = f"{table.name(proposer)} and {table.name(seat)} are choosing cards to exchange."
        self.phase = MOG_GIVE
        self.gifts = {}

    def refuse(self, table: Table, seat: Seat, events: list[Event]) -> None:
        self.record(seat, "refuse")
        proposer, _ = self.mog_pairs[self.mog_step]
        events.append(table.event("mog", f"{table.name(seat)} refuses the mog."))
        self.mog_note = f"{table.name(seat)} refused the mog."
        if self._refusal_point(table, proposer, events):
            return
        if self.partnership and proposer == table.dealer:
            self.phase = STOCK_TAKE
            self.to_act = proposer
            events.append(table.event("mog", f"{table.name(proposer)} may instead mog with the card under the deck card."))
            return
        self.next_mog(table, events)

    def take_stock(self, seat: Seat) -> None:
        """The refused dealer takes the card under the deck card (the state says what follows)."""
        self.record(seat, "take_stock")

    def keep_hand(self, table: Table, seat: Seat, events: list[Event]) -> None:
        self.record(seat, "keep_hand")
        events.append(table.event("mog", f"{table.name(seat)} keeps their hand."))
        self.mog_note = f"{table.name(seat)} kept their hand."
        self.next_mog(table, events)

    def choose_pass(self, seat: Seat, card: Card | None, claim: bool, muggins: bool) -> bool:
        """``seat`` passes ``card`` in the mog (``claim``: claimed as a Jack or Deuce); True once
        both of the pair have chosen."""
        self.gifts[seat] = (card, claim)
        pegged = card is not None and mog_gift_points(card, self.trump) > 0 and (claim or not muggins)
        self.record(seat, "pass", card if pegged else None)
        return all(s in self.gifts for s in self.mog_pairs[self.mog_step])

    def peg_gifts(self, table: Table, events: list[Event]) -> bool:
        """Both cards of the mog are chosen: the Jack and Deuce pegs, proposer first (the eldest
        hand pegs first). With muggins, an unclaimed one is kept for the receiver's show.
        True when a peg ends the match."""
        pair = self.mog_pairs[self.mog_step]
        for giver in pair:
            card, claim = self.gifts[giver]
            if card is None:
                continue
            points = mog_gift_points(card, self.trump)
            if not points:
                continue
            receiver = pair[1] if giver == pair[0] else pair[0]
            if table.options.muggins and not claim:
                self.unclaimed.setdefault(receiver, []).append(card)
                continue
            what = "a Jack or Deuce of trumps" if points == 4 else "a Jack or Deuce"
            if self.peg(table, giver, points, f"for passing {what}", events):
                return True
        return False

    def next_mog(self, table: Table, events: list[Event]) -> None:
        self.mog_step += 1
        if self.mog_step < len(self.mog_pairs):
            self._open_mog(table, events)
            return
        self.phase = PLAY
        self.series = []
        self.total = 0
        self.last_player = None
        self.said_go = [False] * self.n
        self.to_act = (table.dealer + 1) % self.n
        events.append(table.event("play", f"The play begins: {table.name(self.to_act)} leads."))

    # -- the play --------------------------------------------------------------------------------

    def add_card(self, table: Table, seat: Seat, card: Card, events: list[Event]) -> bool:
        """``seat`` puts ``card`` on the count and pegs what it makes; True when the play goes on
        (the state then finds who is next)."""
        self.record(seat, "play", card)
        self.played[seat].append(card)
        self.series.append(card)
        self.total += card_value(card)
        self.last_player = seat
        events.append(table.event("play", f"{table.name(seat)} plays {card.short}: count {self.total}."))
        for part in score_play_card(self.series):
            article = "a " if part.category == "sequence" else ""
            if self.peg(table, seat, part.points, f"for {article}{_lower_first(part.label)}", events):
                return False
        return True

    def end_series(self, table: Table, last: Seat, cards_left: Callable[[Seat], int], events: list[Event]) -> bool:
        """Nobody can add to the count: the go, then a new series; True when no card is left (the
        show comes next)."""
        points = go_points(self.total, table.options.go_point_on_31)
        if self.peg(table, last, points, f"for the go (count {self.total})", events):
            return False
        holders = [s for s in ((last + step) % self.n for step in range(1, self.n + 1)) if cards_left(s)]
        if not holders:
            return True
        self.series = []
        self.total = 0
        self.said_go = [False] * self.n
        self.to_act = holders[0]
        events.append(table.event("play", f"The count goes back to 0; {table.name(self.to_act)} starts a new series."))
        return False

    # -- the show --------------------------------------------------------------------------------

    def show_parts(self, seat: Seat) -> list[ScorePart]:
        """What ``seat`` counts at the show: own three cards plus the deck card, and any Jack or
        Deuce a careless partner in the mog left unclaimed (muggins)."""
        assert self.deck_card is not None
        parts = list(score_show(self.played[seat], self.deck_card, self.trump).parts)
        for c in self.unclaimed.get(seat, []):
            extra = unclaimed_gift_part(c, self.trump)
            if extra is not None:
                parts.append(extra)
        return parts

    def show(
        self, table: Table, events: list[Event], first_step: int = 1, waits: Callable[[Seat, int], bool] | None = None
    ) -> bool:
        """Count the hands from the dealer's left, dealer last; ``waits(seat, step)`` pauses the
        show before ``seat`` counts. True when every hand is counted and the match goes on."""
        assert self.deck_card is not None
        if first_step == 1:
            table.last_show = []
            table.show_totals = []
        for step in range(first_step, self.n + 1):
            seat = (table.dealer + step) % self.n
            if waits is not None and waits(seat, step):
                return False
            for c in self.unclaimed.get(seat, []):
                self.record(seat, "claim_gift", c)
            parts = self.show_parts(seat)
            total = sum(p.points for p in parts)
            detail = "; ".join(p.text() for p in parts) if parts else "nothing"
            hand = f"{format_cards(self.played[seat])} with {self.deck_card.short}"
            table.last_show.append(f"{table.name(seat)}: {hand}: {detail} = {total}")
            table.show_totals.append((seat, total))
            events.append(table.event("show", f"{table.name(seat)} shows {hand}: {detail} = {total}."))
            if self.peg(table, seat, total, "at the show", events):
                return False
        return True

    # -- the view --------------------------------------------------------------------------------

    def view_fields(self, table: Table, seat: Seat | None, phase: str, cards_left: list[int]) -> dict[str, Any]:
        """The fields of :class:`~games.costly_colours.CostlyColoursView` but the hand."""
        suit = self.deck_card.suit if self.deck_card is not None else None
        return {
            **table.base_view(seat),
            "phase": phase,
            "target": table.options.target,
            "deck_card": self.deck_card,
            "trumps": suit.title.lower() if suit is not None else None,
            "count": self.total,
            "series": list(self.series),
            "played": [list(p) for p in self.played],
            "cards_left": cards_left,
            "said_go": list(self.said_go),
            "mog": self.mog_note if self.phase != PLAY else "",
            "teams": teams(self.n),
            "last_show": list(table.last_show),
            "show_totals": list(table.show_totals),
        }
