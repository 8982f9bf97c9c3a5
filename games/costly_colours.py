# Over 400 lines: a whole game in one module (options, actions, view and picture, state, declaration), as games/README.md asks; its scoring is in costly_colours_scoring.py.
"""Costly Colours: a Cribbage ancestor for two players, or four in two partnerships.

Rules interpretation: ``shared/rules/costly_colours.md``. Scoring lives in
:mod:`games.costly_colours_scoring`; this module runs the deal, the mog, the play and the show,
pegging as it goes and ending the match the moment a side reaches the target.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import Field, field_validator

from games.cards import Card, Suit, format_cards, full_pack, sort_hand
from games.costly_colours_scoring import (
    MAX_COUNT,
    ScorePart,
    card_value,
    go_points,
    heels_points,
    is_jack_or_deuce,
    mog_gift_points,
    score_play_card,
    score_show,
    unclaimed_gift_part,
)
from games.engine import (
    Action,
    BaseOptions,
    Event,
    Game,
    GameState,
    Outcome,
    PlayCard,
    Seat,
    SetupError,
    View,
    Zone,
)
from games.layout import (
    Area,
    Layout,
    Notes,
    Pile,
    Row,
    Spot,
    dealer_facts,
    finish,
    own_hand,
    spots,
    standard_scores,
)
from games.registry import declare

HAND_SIZE = 3

# --- options ------------------------------------------------------------------------------------


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


# --- actions ------------------------------------------------------------------------------------


class ProposeMog(Action):
    kind: Literal["propose_mog"] = "propose_mog"

    def label(self) -> str:
        return "Propose a mog"


class NoMog(Action):
    kind: Literal["no_mog"] = "no_mog"

    def label(self) -> str:
        return "No mog"


class AcceptMog(Action):
    kind: Literal["accept_mog"] = "accept_mog"

    def label(self) -> str:
        return "Accept the mog"


class RefuseMog(Action):
    kind: Literal["refuse_mog"] = "refuse_mog"

    def label(self) -> str:
        return "Refuse the mog"


class GiveCard(Action):
    """The card passed face down in an accepted mog. ``claim`` (muggins only) pegs a Jack or Deuce."""

    kind: Literal["give"] = "give"
    give: Card
    claim: bool = False

    @property
    def card(self) -> Card:
        return self.give

    def label(self) -> str:
        return f"Give {self.give.short}" + (" and claim it" if self.claim else "")


class TakeStock(Action):
    kind: Literal["take_stock"] = "take_stock"

    def label(self) -> str:
        return "Take the card under the deck card"


class KeepHand(Action):
    kind: Literal["keep_hand"] = "keep_hand"

    def label(self) -> str:
        return "Keep my hand"


class BuryCard(Action):
    """The dealer's unwanted card, put under the deck card after taking the stock card."""

    kind: Literal["bury"] = "bury"
    bury: Card

    @property
    def card(self) -> Card:
        return self.bury

    def label(self) -> str:
        return f"Put {self.bury.short} under the deck card"


# Actions are frozen values: build each one once (legal_actions is on the hot path).
_PACK = full_pack()
_PLAYS = {c: PlayCard(play=c) for c in _PACK}
_GIVES = {c: GiveCard(give=c) for c in _PACK}
_CLAIMS = {c: GiveCard(give=c, claim=True) for c in _PACK}
_BURIES = {c: BuryCard(bury=c) for c in _PACK}
_OFFER: list[Action] = [ProposeMog(), NoMog()]
_ANSWER: list[Action] = [AcceptMog(), RefuseMog()]
_STOCK: list[Action] = [TakeStock(), KeepHand()]


# --- view ---------------------------------------------------------------------------------------


class CostlyColoursView(View):
    target: int
    deck_card: Card | None
    trumps: str | None
    count: int
    series: list[Card]
    played: list[list[Card]]
    cards_left: list[int]
    said_go: list[bool]
    mog: str
    teams: list[list[Seat]] | None
    last_show: list[str]

    def table_lines(self) -> list[str]:
        lines = [f"Game to {self.target}."]
        if self.teams is not None:
            lines.append(
                "Partners: " + "; ".join(" & ".join(self.players[s] for s in team) for team in self.teams)
            )
        if self.deck_card is not None:
            lines.append(f"Deck card: {self.deck_card.short} ({self.trumps} are trumps)")
        if self.mog:
            lines.append(self.mog)
        if self.phase == "the play":
            lines.append(f"Count: {self.count} ({format_cards(self.series)})" if self.series else "Count: 0")
            for s, name in enumerate(self.players):
                go = ", Go" if self.said_go[s] else ""
                lines.append(
                    f"{name}: played {format_cards(self.played[s])}; {self.cards_left[s]} in hand{go}"
                )
        if self.last_show:
            lines.append("Last show:")
            lines.extend(f"  {line}" for line in self.last_show)
        return lines

    # -- the picture -------------------------------------------------------------------------------

    def facts(self) -> list[tuple[str, str]]:
        facts: list[tuple[str, str]] = []
        if self.deck_card is not None and self.deck_card.suit is not None:
            facts.append(("Trumps", f"{self.deck_card.suit.symbol} {self.trumps}"))
        facts.append(("Game to", str(self.target)))
        if self.teams is not None:
            facts.append(("Partners", "; ".join(" & ".join(self.players[s] for s in team) for team in self.teams)))
        return facts + list(dealer_facts(self))

    def deck_row(self) -> Row | None:
        return Row("Deck card", (Spot(self.deck_card),)) if self.deck_card is not None else None

    def count_pile(self) -> Pile:
        return Pile("The count" if self.series else "The count: no card yet", spots(self.series), total=self.count, total_label="Count")

    def played_rows(self) -> list[Row]:
        """Each player's cards played this deal, with the cards left in hand and a Go."""
        rows = []
        for s, name in enumerate(self.players):
            note = f"{self.cards_left[s]} left" + (", Go" if self.said_go[s] else "")
            shown = tuple(Spot(c) for c in self.played[s]) or (Spot(None, empty=True),)
            rows.append(Row(name, shown, note=note))
        return rows

    def layout(self) -> Layout:
        """The deck card and trumps, the count with the cards of the series, what each player has
        played, the mog and the last show."""
        playing = self.phase == "the play"
        notes = [self.mog] if self.mog else []
        show = Notes(tuple(self.last_show), title="Last show") if self.last_show else None
        return finish(
            self,
            [
                *([self.count_pile()] if playing else []),
                self.deck_row(),
                *(self.played_rows() if playing else []),
                *own_hand(self), Notes(tuple(notes)), show, standard_scores(self),
            ],
            self.facts(),
        )

    def hand_context(self) -> tuple[Area, ...]:
        deck = self.deck_row()
        context: list[Area] = [deck] if deck is not None else []
        if self.phase == "the play":
            context.append(self.count_pile())
        elif self.mog:
            context.append(Notes((self.mog,)))
        return tuple(context)


# --- state --------------------------------------------------------------------------------------

MOG_OFFER = "mog_offer"
MOG_ANSWER = "mog_answer"
MOG_GIVE = "mog_give"
STOCK_TAKE = "stock_take"
STOCK_BURY = "stock_bury"
PLAY = "play"
OVER = "over"


class CostlyColoursMatch(GameState[CostlyColoursOptions]):
    """What the dealt game and the referee game share: the sides, pegging to the target (the
    match ends the moment a side reaches it), the mog offers and answers, the Jack and Deuce
    pegs of an exchange, a series of the play and the show.

    Subclasses say how a deal starts (:meth:`_start_deal`), how many cards a seat still holds
    (:meth:`cards_left`), how the dealer mogs with the stock (:meth:`_take_stock`) and what
    follows a card of the play (:meth:`_after_card`).
    """

    def __init__(
        self,
        players: Sequence[str],
        options: CostlyColoursOptions,
        seed: int,
        deck: Sequence[Card] | Sequence[Sequence[Card]] | None = None,
    ) -> None:
        super().__init__(players, options, seed, deck)
        self.dealer: Seat = self.choose_first_dealer()
        self.played: list[list[Card]] = [[] for _ in range(self.n)]
        self.deck_card: Card | None = None
        self.phase = MOG_OFFER
        self.to_act: Seat = 0
        self.mog_pairs: list[tuple[Seat, Seat]] = []
        self.mog_step = 0
        # the card each seat of an accepted mog passes (None: one that scores nothing) and its claim
        self.gifts: dict[Seat, tuple[Card | None, bool]] = {}
        self.unclaimed: dict[Seat, list[Card]] = {}
        self.mog_note = ""
        self.series: list[Card] = []
        self.total = 0
        self.last_player: Seat | None = None
        self.said_go: list[bool] = [False] * self.n
        self.last_show: list[str] = []

    # -- what subclasses provide ---------------------------------------------------------------

    @abstractmethod
    def _start_deal(self) -> list[Event]:
        """Begin the next deal (``deal_no`` counts it)."""

    @abstractmethod
    def cards_left(self, seat: Seat) -> int:
        """How many cards ``seat`` has still to play this deal."""

    @abstractmethod
    def _take_stock(self, seat: Seat, events: list[Event]) -> None:
        """The refused dealer of four-hand play takes the card under the deck card."""

    @abstractmethod
    def _after_card(self, events: list[Event]) -> None:
        """Find who plays next after a card of the play (the match is not over)."""

    # -- setup ---------------------------------------------------------------------------------

    @classmethod
    def check_setup(cls, players: int, options: CostlyColoursOptions) -> None:
        if players != 4 and options.partner_refusal_point:
            raise SetupError("partner_refusal_point only applies to the four-hand partnership game.")

    @property
    def partnership(self) -> bool:
        return self.n == 4

    def team_of(self, seat: Seat) -> list[Seat]:
        return [seat, (seat + 2) % 4] if self.partnership else [seat]

    def side_name(self, seat: Seat) -> str:
        return " and ".join(self.name(s) for s in sorted(self.team_of(seat)))

    @property
    def teams(self) -> list[list[Seat]] | None:
        return [[0, 2], [1, 3]] if self.partnership else None

    @property
    def trump(self) -> Suit:
        assert self.deck_card is not None and self.deck_card.suit is not None
        return self.deck_card.suit

    # -- pegging ---------------------------------------------------------------------------------

    def _peg(self, seat: Seat, points: int, reason: str, events: list[Event]) -> bool:
        """Peg ``points`` for ``seat``'s side; True when that ends the match."""
        if points <= 0 or self.is_over:
            return self.is_over
        for s in self.team_of(seat):
            self.scores[s] += points
        score = self.scores[seat]
        events.append(
            self.event("peg", f"{self.name(seat)} pegs {points} {reason}: {self.side_name(seat)} {score}.")
        )
        if score >= self.options.target:
            self.phase = OVER
            winners = self.side_name(seat)
            verb = "win" if self.partnership else "wins"
            note = f"{winners} {verb} by reaching {score} ({points} {reason})."
            events.append(self.finish(Outcome.from_scores(self.scores, notes=[note], teams=self.teams)))
        return self.is_over

    # -- the deal --------------------------------------------------------------------------------

    def _reset_deal(self) -> None:
        """Clear what belongs to one deal; ``deal_no`` moves on."""
        self.deal_no += 1
        self.played = [[] for _ in range(self.n)]
        self.unclaimed = {}
        self.gifts = {}
        self.series = []
        self.total = 0
        self.last_player = None
        self.said_go = [False] * self.n
        self.mog_step = 0
        self.mog_note = ""

    def _after_turn_up(self, events: list[Event]) -> None:
        """The deck card is known: his heels for the dealer, then the first mog offer."""
        assert self.deck_card is not None
        heels = heels_points(self.deck_card)
        if heels and self._peg(self.dealer, heels, f"for his heels ({self.deck_card.short} turned)", events):
            return
        d = self.dealer
        if self.partnership:
            self.mog_pairs = [((d + 1) % 4, (d + 3) % 4), (d, (d + 2) % 4)]
        else:
            self.mog_pairs = [((d + 1) % 2, d)]
        self.mog_step = 0
        self.mog_note = ""
        self._open_mog(events)

    # -- the mog ---------------------------------------------------------------------------------

    def _open_mog(self, events: list[Event]) -> None:
        proposer, answerer = self.mog_pairs[self.mog_step]
        self.phase = MOG_OFFER
        self.to_act = proposer
        self.gifts = {}
        events.append(
            self.event("mog", f"{self.name(proposer)} may propose a mog with {self.name(answerer)}.")
        )

    def _refusal_point(self, receiver: Seat, events: list[Event]) -> bool:
        """The 1 for a refused (or never proposed) mog; in four-hand only with the option."""
        if self.partnership and not self.options.partner_refusal_point:
            return False
        return self._peg(receiver, 1, "for the refusal", events)

    def _propose(self, seat: Seat, events: list[Event]) -> None:
        _, answerer = self.mog_pairs[self.mog_step]
        events.append(self.event("mog", f"{self.name(seat)} proposes a mog to {self.name(answerer)}."))
        self.mog_note = f"{self.name(seat)} has proposed a mog to {self.name(answerer)}."
        self.phase = MOG_ANSWER
        self.to_act = answerer

    def _no_mog(self, seat: Seat, events: list[Event]) -> None:
        _, answerer = self.mog_pairs[self.mog_step]
        events.append(self.event("mog", f"{self.name(seat)} does not propose a mog."))
        self.mog_note = f"{self.name(seat)} did not propose a mog."
        if self._refusal_point(answerer, events):
            return
        self._next_mog(events)

    def _accept(self, seat: Seat, events: list[Event]) -> None:
        proposer, _ = self.mog_pairs[self.mog_step]
        events.append(
            self.event(
                "mog",
                f"{self.name(seat)} accepts: {self.name(proposer)} and {self.name(seat)} "
                "each choose a card to pass face down.",
            )
        )
        self.mog_note = f"{self.name(proposer)} and {self.name(seat)} are choosing cards to exchange."
        self.phase = MOG_GIVE
        self.gifts = {}

    def _refuse(self, seat: Seat, events: list[Event]) -> None:
        proposer, _ = self.mog_pairs[self.mog_step]
        events.append(self.event("mog", f"{self.name(seat)} refuses the mog."))
        self.mog_note = f"{self.name(seat)} refused the mog."
        if self._refusal_point(proposer, events):
            return
        if self.partnership and proposer == self.dealer:
            self.phase = STOCK_TAKE
            self.to_act = proposer
            events.append(
                self.event("mog", f"{self.name(proposer)} may instead mog with the card under the deck card.")
            )
            return
        self._next_mog(events)

    def _keep_hand(self, seat: Seat, events: list[Event]) -> None:
        events.append(self.event("mog", f"{self.name(seat)} keeps their hand."))
        self.mog_note = f"{self.name(seat)} kept their hand."
        self._next_mog(events)

    def _peg_gifts(self, events: list[Event]) -> bool:
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
            if self.options.muggins and not claim:
                self.unclaimed.setdefault(receiver, []).append(card)
                continue
            what = "a Jack or Deuce of trumps" if points == 4 else "a Jack or Deuce"
            if self._peg(giver, points, f"for passing {what}", events):
                return True
        return False

    def _next_mog(self, events: list[Event]) -> None:
        self.mog_step += 1
        if self.mog_step < len(self.mog_pairs):
            self._open_mog(events)
            return
        self.phase = PLAY
        self.series = []
        self.total = 0
        self.last_player = None
        self.said_go = [False] * self.n
        self.to_act = (self.dealer + 1) % self.n
        events.append(self.event("play", f"The play begins: {self.name(self.to_act)} leads."))

    # -- the play --------------------------------------------------------------------------------

    def _add_card(self, seat: Seat, card: Card, events: list[Event]) -> None:
        """``seat`` puts ``card`` on the count: peg what it makes, then find who is next."""
        self.played[seat].append(card)
        self.series.append(card)
        self.total += card_value(card)
        self.last_player = seat
        events.append(self.event("play", f"{self.name(seat)} plays {card.short}: count {self.total}."))
        for part in score_play_card(self.series):
            article = "a " if part.category == "sequence" else ""
            if self._peg(seat, part.points, f"for {article}{_lower_first(part.label)}", events):
                return
        self._after_card(events)

    def _end_series(self, last: Seat, events: list[Event]) -> None:
        points = go_points(self.total, self.options.go_point_on_31)
        if self._peg(last, points, f"for the go (count {self.total})", events):
            return
        holders = [(last + step) % self.n for step in range(1, self.n + 1)]
        holders = [s for s in holders if self.cards_left(s)]
        if not holders:
            self._show(events)
            return
        self.series = []
        self.total = 0
        self.said_go = [False] * self.n
        self.to_act = holders[0]
        events.append(
            self.event("play", f"The count goes back to 0; {self.name(self.to_act)} starts a new series.")
        )

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

    def _show_waits(self, seat: Seat, step: int) -> bool:
        """True to pause the show before ``seat`` counts (the ``step``-th from the dealer's left)."""
        return False

    def _show(self, events: list[Event], first_step: int = 1) -> None:
        """Count the hands from the dealer's left, dealer last, then deal again."""
        assert self.deck_card is not None
        if first_step == 1:
            self.last_show = []
        for step in range(first_step, self.n + 1):
            seat = (self.dealer + step) % self.n
            if self._show_waits(seat, step):
                return
            parts = self.show_parts(seat)
            total = sum(p.points for p in parts)
            detail = "; ".join(p.text() for p in parts) if parts else "nothing"
            hand = f"{format_cards(self.played[seat])} with {self.deck_card.short}"
            self.last_show.append(f"{self.name(seat)}: {hand}: {detail} = {total}")
            events.append(self.event("show", f"{self.name(seat)} shows {hand}: {detail} = {total}."))
            if self._peg(seat, total, "at the show", events):
                return
        self.dealer = (self.dealer + 1) % self.n
        events.extend(self._start_deal())

    # -- views -----------------------------------------------------------------------------------

    def _phase_text(self) -> str:
        return PHASE_TEXT.get(self.phase, "mogging")

    def view_fields(self, seat: Seat | None) -> dict[str, Any]:
        """The fields of :class:`CostlyColoursView` but the hand."""
        suit = self.deck_card.suit if self.deck_card is not None else None
        return {
            **self.base_view(seat),
            "phase": self._phase_text(),
            "target": self.options.target,
            "deck_card": self.deck_card,
            "trumps": suit.title.lower() if suit is not None else None,
            "count": self.total,
            "series": list(self.series),
            "played": [list(p) for p in self.played],
            "cards_left": [self.cards_left(s) for s in range(self.n)],
            "said_go": list(self.said_go),
            "mog": self.mog_note if self.phase != PLAY else "",
            "teams": self.teams,
            "last_show": list(self.last_show),
        }


class CostlyColoursState(CostlyColoursMatch):
    """The dealt game: the bot deals, and knows every card."""

    def __init__(
        self,
        players: Sequence[str],
        options: CostlyColoursOptions,
        seed: int,
        deck: Sequence[Card] | Sequence[Sequence[Card]] | None = None,
    ) -> None:
        super().__init__(players, options, seed, deck)
        self.hands: list[list[Card]] = [[] for _ in range(self.n)]
        self.stock: list[Card] = []
        self.log.extend(self._start_deal())

    def cards_left(self, seat: Seat) -> int:
        return len(self.hands[seat])

    # -- the protocol ----------------------------------------------------------------------------

    def awaiting(self) -> frozenset[Seat]:
        if self.is_over:
            return frozenset()
        if self.phase == MOG_GIVE:
            pair = self.mog_pairs[self.mog_step]
            return frozenset(s for s in pair if s not in self.gifts)
        return frozenset((self.to_act,))

    def legal_actions(self, seat: Seat) -> list[Action]:
        if seat not in self.awaiting():
            return []
        hand = self.hands[seat]
        if self.phase == PLAY:
            room = MAX_COUNT - self.total
            return [_PLAYS[c] for c in sort_hand(hand) if card_value(c) <= room]
        if self.phase == MOG_OFFER:
            return list(_OFFER)
        if self.phase == MOG_ANSWER:
            return list(_ANSWER)
        if self.phase == MOG_GIVE:
            out: list[Action] = []
            for c in sort_hand(hand):
                if self.options.muggins and is_jack_or_deuce(c):
                    out.append(_CLAIMS[c])
                out.append(_GIVES[c])
            return out
        if self.phase == STOCK_TAKE:
            return list(_STOCK)
        if self.phase == STOCK_BURY:
            return [_BURIES[c] for c in sort_hand(hand)]
        return []

    def explain_illegal(self, seat: Seat, action: Action) -> str | None:
        if seat not in self.awaiting():
            return None  # the base says whose turn it is
        hand = self.hands[seat]
        c = action.card
        if c is not None and c not in hand:
            return f"You do not hold {c.short}."
        if self.phase == PLAY:
            if isinstance(action, PlayCard):
                after = self.total + card_value(action.play)
                return (
                    f"{action.play.short} would take the count from {self.total} to {after}, "
                    f"past {MAX_COUNT}: play a card that keeps it at {MAX_COUNT} or under."
                )
            return "The mogging is over: it is time to play a card to the count."
        if isinstance(action, PlayCard):
            return "The play has not started yet: the mog comes first."
        proposer, answerer = self.mog_pairs[self.mog_step]
        if self.phase == MOG_OFFER:
            return f"First say whether you propose a mog to {self.name(answerer)}."
        if self.phase == MOG_ANSWER:
            return f"{self.name(proposer)} has proposed a mog: accept it or refuse it."
        if self.phase == MOG_GIVE:
            if isinstance(action, GiveCard) and action.claim:
                if not is_jack_or_deuce(action.give):
                    return f"Only a Jack or a Deuce can be claimed, and {action.give.short} is neither."
                return "Jacks and Deuces are claimed for you automatically: just choose the card."
            other = answerer if seat == proposer else proposer
            return f"Choose the card you pass face down to {self.name(other)}."
        if self.phase == STOCK_TAKE:
            return "Take the card under the deck card, or keep your hand as it is."
        if self.phase == STOCK_BURY:
            return "Choose one of your cards to put under the deck card."
        return None

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        events: list[Event] = []
        if isinstance(action, PlayCard):
            self.hands[seat].remove(action.play)
            self._add_card(seat, action.play, events)
        elif isinstance(action, ProposeMog):
            self._propose(seat, events)
        elif isinstance(action, NoMog):
            self._no_mog(seat, events)
        elif isinstance(action, AcceptMog):
            self._accept(seat, events)
        elif isinstance(action, RefuseMog):
            self._refuse(seat, events)
        elif isinstance(action, GiveCard):
            self._give(seat, action, events)
        elif isinstance(action, TakeStock):
            self._take_stock(seat, events)
        elif isinstance(action, KeepHand):
            self._keep_hand(seat, events)
        elif isinstance(action, BuryCard):
            self._bury(seat, action.bury, events)
        else:  # pragma: no cover - apply() only passes legal actions
            raise AssertionError(f"unexpected action {action!r}")
        return events

    # -- the deal --------------------------------------------------------------------------------

    def _start_deal(self) -> list[Event]:
        events: list[Event] = []
        self._reset_deal()
        n = self.n
        pack = self.next_pack_order(_PACK)
        self.hands = [[] for _ in range(n)]
        for i in range(HAND_SIZE * n):
            self.hands[(self.dealer + 1 + i) % n].append(pack[i])
        self.deck_card = pack[HAND_SIZE * n]
        self.stock = pack[HAND_SIZE * n + 1 :]
        events.append(
            self.event(
                "deal",
                f"Deal {self.deal_no}: {self.name(self.dealer)} deals three cards each and turns "
                f"{self.deck_card.short} as the deck card; {self.trump.title.lower()} are trumps.",
            )
        )
        for s in range(n):
            events.append(self.event("hand", f"Your cards: {format_cards(sort_hand(self.hands[s]))}.", to=s))
        self._after_turn_up(events)
        return events

    # -- the mog ---------------------------------------------------------------------------------

    def _give(self, seat: Seat, action: GiveCard, events: list[Event]) -> None:
        self.gifts[seat] = (action.give, action.claim)
        events.append(self.event("mog", f"{self.name(seat)} has chosen a card to pass."))
        events.append(self.event("mog", f"You will pass {action.give.short}.", to=seat))
        pair = self.mog_pairs[self.mog_step]
        if any(s not in self.gifts for s in pair):
            return
        if self._peg_gifts(events):
            return
        a, b = pair
        card_a, card_b = self.gifts[a][0], self.gifts[b][0]
        assert card_a is not None and card_b is not None
        self.hands[a].remove(card_a)
        self.hands[b].remove(card_b)
        self.hands[a].append(card_b)
        self.hands[b].append(card_a)
        events.append(self.event("mog", f"{self.name(a)} and {self.name(b)} exchange a card."))
        events.append(self.event("mog", f"You passed {card_a.short} and received {card_b.short}.", to=a))
        events.append(self.event("mog", f"You passed {card_b.short} and received {card_a.short}.", to=b))
        self.mog_note = f"{self.name(a)} and {self.name(b)} exchanged a card."
        self.gifts = {}
        self._next_mog(events)

    def _take_stock(self, seat: Seat, events: list[Event]) -> None:
        taken = self.stock.pop(0)
        self.hands[seat].append(taken)
        self.phase = STOCK_BURY
        events.append(self.event("mog", f"{self.name(seat)} takes the card under the deck card."))
        events.append(self.event("mog", f"You take {taken.short}; now put one card back.", to=seat))
        self.mog_note = f"{self.name(seat)} is choosing a card to put under the deck card."

    def _bury(self, seat: Seat, card: Card, events: list[Event]) -> None:
        self.hands[seat].remove(card)
        self.stock.insert(0, card)
        events.append(self.event("mog", f"{self.name(seat)} puts a card under the deck card."))
        events.append(self.event("mog", f"You put {card.short} under the deck card.", to=seat))
        self.mog_note = f"{self.name(seat)} mogged with the stock."
        self._next_mog(events)

    # -- the play --------------------------------------------------------------------------------

    def _can_play(self, seat: Seat) -> bool:
        room = MAX_COUNT - self.total
        return any(card_value(c) <= room for c in self.hands[seat])

    def _after_card(self, events: list[Event]) -> None:
        """Find who plays next; end the series (and the play) when nobody can. A seat that cannot
        play is passed over with a Go."""
        last = self.last_player
        assert last is not None
        unable: list[Seat] = []
        for step in range(1, self.n + 1):
            s = (last + step) % self.n
            if not self.hands[s]:
                continue
            if self._can_play(s):
                for u in unable:
                    if not self.said_go[u]:
                        self.said_go[u] = True
                        events.append(self.event("go", f"{self.name(u)} cannot play without passing 31: Go."))
                self.to_act = s
                return
            unable.append(s)
        self._end_series(last, events)

    # -- views and zones -------------------------------------------------------------------------

    def view(self, seat: Seat | None) -> CostlyColoursView:
        hand = sort_hand(self.hands[seat]) if seat is not None else []
        return CostlyColoursView(**self.view_fields(seat), hand=hand)

    def card_zones(self) -> list[Zone]:
        zones = [Zone(f"hand of {self.name(s)}", list(self.hands[s]), frozenset((s,))) for s in range(self.n)]
        zones += [Zone(f"played by {self.name(s)}", list(self.played[s])) for s in range(self.n)]
        zones.append(Zone("deck card", [self.deck_card] if self.deck_card is not None else []))
        zones.append(Zone("stock", list(self.stock), frozenset()))
        return zones


PHASE_TEXT = {PLAY: "the play", OVER: "over"}


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


SUMMARY = """
Two players, or four in two partnerships (partners sit opposite). A 52-card pack; Ace counts 1,
courts and Tens 10, other cards their pips. In sequences the Ace is low only (A-2-3, never Q-K-A).

The deal: the dealer gives three cards to each player, one at a time, and turns the next card face
up as the deck card. Its suit is trumps, and it belongs to every player's hand at the show. If it
is a Jack or a Deuce the dealer pegs 4 at once (his heels). The deal passes to the left.

The mog: the non-dealer may propose to exchange one card with the dealer. Not proposing gives the
dealer 1; proposing and being refused gives the proposer 1. If both agree, each picks a card
before seeing the other's and they swap. Passing a Jack or Deuce pegs 2 (4 if trumps) for the
giver. With muggins on, the giver must claim it while passing it, or the receiver scores it at
the show. Four players: the dealer's left proposes to their partner first, then the dealer to
theirs; a dealer refused by their partner may instead take the card under the deck card and put
any card back there (a Jack or Deuce put there scores nothing). Between partners no refusal point
is pegged unless the host turns partner_refusal_point on.

The play: starting at the dealer's left, players add cards to a running count that may not pass
31. Bringing the count to 15, 25 or 31 pegs 1 for each card in the series; completing a sequence
of three or more with the latest cards (in any order) pegs 1 per card. A player who cannot play
says Go and the others carry on as far as they can. The last to play pegs 1 for the go (also at
exactly 31, unless go_point_on_31 is off). While cards remain, the count restarts at 0 with the
next player holding cards.

The show: from the dealer's left, dealer last, each player scores their own three cards plus the
deck card. Points: every group of cards totalling 15 or 25, or all four totalling 31, pegs 1 per
card. Jacks and Deuces in your own three cards (not the deck card): 4 in trumps, 2 otherwise.
Pairs 2, three of a kind 9, four of a kind 18 (two different pairs 2 each). Colours, best one
only: three of a colour 2, three of a suit 3, four of a colour 4, four of a colour with three of
one suit 5, four of a suit 6 (Costly Colours). Sequences do not count in the show.

The game: the first side to reach 121 (or 61 by option) wins at that moment, even mid-play or
mid-show, so the first to count has the edge.

Referee's rulings: a player who cannot add a card without passing 31 is passed over
automatically with a Go. The two cards of a mog change hands only when both are chosen; any
Jack or Deuce points are pegged at that moment, proposer first. With muggins on, claiming is
part of choosing the card. A dealer mogging with the stock sees the card taken before choosing
the card to put back, and may put back the card just taken.
"""

GAME: Game[CostlyColoursOptions] = declare(
    Game(
        id="costly_colours",
        title="Costly Colours",
        min_players=2,
        max_players=4,
        player_counts=(2, 4),
        options=CostlyColoursOptions,
        state=CostlyColoursState,
        actions=[PlayCard, ProposeMog, NoMog, AcceptMog, RefuseMog, GiveCard, TakeStock, KeepHand, BuryCard],
        summary=SUMMARY,
    ),
    referee="games.referee.costly_colours",
    bots={
        "easy": "games.players.costly_colours:EASY",
        "strong": "games.players.costly_colours:STRONG",
    },
)
