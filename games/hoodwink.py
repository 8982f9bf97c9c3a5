# Over 400 lines: a whole game in one module (options, actions, view and picture, state, declaration), as games/README.md asks; its scoring is in hoodwink_scoring.py and its match in hoodwink_match.py.
"""Hoodwink: David Parlett's three-hand trick game of shifting partnerships.

Rules: ``shared/rules/hoodwink.md``. Each deal opens with three face-down bid cards shown
together; they fix trumps, the two partners and the Hood. The partners try to take equal numbers
of tricks; the Hood tries to stop them. Scoring lives in :mod:`games.hoodwink_scoring`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import Field, field_validator, model_validator

from games.cards import JOKER, SUITS, Card, Suit, format_cards, piquet_pack, ranks_from, sort_hand
from games.engine import (
    Action,
    BaseOptions,
    Event,
    Game,
    GameState,
    PlayCard,
    Seat,
    View,
    Zone,
)
from games.hoodwink_match import MATCH, HoodwinkFacts, last_deal_lines
from games.hoodwink_scoring import (
    PLAYERS,
    TRICKS_PER_DEAL,
    Roles,
    Scenario,
    deal_roles,
    disciplined_bid_cards,
    format_suit_scenarios,
    parse_suit_scenarios,
    roles_text,
)
from games.layout import (
    Area,
    Facts,
    Layout,
    Notes,
    Row,
    Spot,
    dealer_facts,
    finish,
    own_hand,
    played_row,
    standard_scores,
)
from games.registry import declare
from games.tricks import Trick, TrickRules

PACK: tuple[Card, ...] = tuple(piquet_pack(jokers=(JOKER,)))
RANKS = tuple(ranks_from("AKQJT987"))
"""Rank order within a suit, highest first."""

ESTIMATE_RANGES: tuple[tuple[int, int], ...] = ((0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 11))
"""The trick ranges a partner may announce (the last one reads "6 or more")."""


# --- options ------------------------------------------------------------------------------------


class HoodwinkOptions(BaseOptions):
    scoring: Literal["standard", "v3"] = Field(
        "standard",
        description="standard: first to the target wins. v3 (variation 3): partners who tie score 11 a "
        "trick, a Hood who splits them scores 10 (20 when matching a partner) per trick of their gap, "
        "over a fixed number of deals.",
    )
    target: int = Field(100, ge=11, le=1000, description="Standard scoring: the score that ends the match.")
    deals: int = Field(
        9,
        ge=3,
        le=99,
        description="Variation 3 scoring: how many deals the match lasts; a multiple of 3 so everyone "
        "deals equally often.",
    )
    tie_break: Literal["extra_deal", "shared"] = Field(
        "extra_deal",
        description="A tie for the lead at the end: extra_deal plays on (under variation 3 a round of "
        "three more deals) until one player leads; shared lets the leaders share the win.",
    )
    disciplined_bids: bool = Field(
        False,
        description="Variation 1: your bid card must be the top card of your longest suit (equal "
        "lengths are split by the higher cards; if still equal you choose).",
    )
    v2_scenario: Literal["off", "2a", "2b", "2c", "2d"] = Field(
        "off",
        description="Variation 2, when all three bid one suit: nobody is partnered before play; two "
        "players with equal trick counts become the partners. If all counts differ: 2a no bonuses, "
        "2b the middle count is the Hood, 2c the last trick's winner is, 2d the first trick's winner is.",
    )
    v2_by_suit: str = Field(
        "",
        description="Variation 2 with a scenario for each trump suit, such as S:2a,H:2b,D:2c,C:2d; "
        "suits left out use v2_scenario.",
    )
    v2_equal_overrides: bool = Field(
        True,
        description="Variation 2 (2c and 2d): two equal trick counts make those two the partners even "
        "when the scenario names one of them as Hood. Off: the scenario's Hood stands.",
    )
    communication: bool = Field(
        False,
        description="Partners may talk in set phrases: a trick estimate after the bids, and before a "
        "partner's lead 'any requests?' answered with a suit to lead or to avoid.",
    )

    @field_validator("v2_by_suit")
    @classmethod
    def _normal_mapping(cls, value: str) -> str:
        return format_suit_scenarios(parse_suit_scenarios(value))

    @model_validator(mode="after")
    def _consistent(self) -> HoodwinkOptions:
        if self.deals % PLAYERS:
            raise ValueError(
                f"deals must be a multiple of 3 so that everyone deals equally often ({self.deals} is not)."
            )
        if self.scoring == "standard" and self.deals != 9:
            raise ValueError("deals only counts with variation 3 scoring (scoring=v3); standard play runs to the target.")
        if self.scoring == "v3" and self.target != 100:
            raise ValueError("target only counts with standard scoring; variation 3 plays a fixed number of deals.")
        mapped = parse_suit_scenarios(self.v2_by_suit)
        missing = [s.title.lower() for s in SUITS if s not in mapped]
        if mapped and missing and self.v2_scenario == "off":
            raise ValueError(
                f"v2_by_suit gives no scenario for {', '.join(missing)}: map all four suits or set "
                "v2_scenario for the rest."
            )
        if not self.v2_equal_overrides and not self.variation2:
            raise ValueError("v2_equal_overrides only matters with variation 2: set v2_scenario or v2_by_suit too.")
        return self

    @property
    def variation2(self) -> bool:
        return self.v2_scenario != "off" or bool(self.v2_by_suit)

    def scenario_for(self, trumps: Suit) -> Scenario | None:
        """The variation 2 scenario for a deal in which all three bid ``trumps`` (``None``: off)."""
        mapped = parse_suit_scenarios(self.v2_by_suit)
        if trumps in mapped:
            return mapped[trumps]
        return None if self.v2_scenario == "off" else self.v2_scenario


# --- actions ------------------------------------------------------------------------------------


class Bid(Action):
    """Put a card face down to propose its suit as trumps."""

    kind: Literal["bid"] = "bid"
    bid: Card

    @property
    def card(self) -> Card:
        return self.bid

    def label(self) -> str:
        return f"Bid {self.bid.short}"


class Estimate(Action):
    """A partner's announced range of tricks they expect to take."""

    kind: Literal["estimate"] = "estimate"
    low: int
    high: int

    def label(self) -> str:
        return f"Estimate {estimate_text(self.low, self.high)}"


class NoEstimate(Action):
    kind: Literal["no_estimate"] = "no_estimate"

    def label(self) -> str:
        return "No estimate"


class AskRequests(Action):
    """The leader asks the partner what to lead."""

    kind: Literal["ask_requests"] = "ask_requests"

    def label(self) -> str:
        return "Any requests?"


class Request(Action):
    """The partner's answer: lead this suit, or do not lead it."""

    kind: Literal["request"] = "request"
    mode: Literal["lead", "avoid"]
    suit: Suit

    def label(self) -> str:
        return f"{'Lead' if self.mode == 'lead' else 'Avoid'} {self.suit.symbol}"

    def choice_path(self) -> tuple[str, ...]:
        return ("Lead a suit" if self.mode == "lead" else "Avoid a suit", self.label())


class NoRequest(Action):
    kind: Literal["no_request"] = "no_request"

    def label(self) -> str:
        return "No request"


def estimate_text(low: int, high: int) -> str:
    if high >= TRICKS_PER_DEAL:
        return f"{low} or more"
    return f"{low}-{high}"


# Built once: legal_actions is on the hot path and these are immutable.
_PLAY = {c: PlayCard(play=c) for c in PACK}
_BID = {c: Bid(bid=c) for c in PACK if not c.is_joker}
_ESTIMATES: list[Action] = [Estimate(low=lo, high=hi) for lo, hi in ESTIMATE_RANGES] + [NoEstimate()]
_ANSWERS: list[Action] = [
    *(Request(mode="lead", suit=s) for s in SUITS),
    *(Request(mode="avoid", suit=s) for s in SUITS),
    NoRequest(),
]
_ASK = AskRequests()
_TALK = (Estimate, NoEstimate, AskRequests, Request, NoRequest)


# --- view ---------------------------------------------------------------------------------------


class HoodwinkView(View):
    scoring: str = "standard"
    target: int | None = None
    deals_total: int | None = None
    bids_placed: list[bool] = Field(default_factory=list)
    my_bid: Card | None = None
    bids: list[Card] | None = None
    trumps: Suit | None = None
    partners: list[Seat] = Field(default_factory=list)
    hood: Seat | None = None
    open_scenario: str | None = None
    leader: Seat | None = None
    trick: list[tuple[Seat, Card]] = Field(default_factory=list)
    winning: Seat | None = None
    """Who is winning the trick in progress, as it stands."""
    last_trick: list[tuple[Seat, Card]] = Field(default_factory=list)
    last_trick_winner: Seat | None = None
    first_trick_winner: Seat | None = None
    tricks_won: list[int] = Field(default_factory=list)
    estimates: list[str | None] = Field(default_factory=list)
    talk: list[str] = Field(default_factory=list)
    """Every set phrase the partners used this deal, in order."""
    requests: list[str] = Field(default_factory=list)
    """The request exchange before the current lead."""
    last_deal: list[str] = Field(default_factory=list)

    def _names(self, seats: Sequence[Seat]) -> str:
        return " and ".join(self.players[s] for s in seats)

    def table_lines(self) -> list[str]:
        lines: list[str] = []
        if self.scoring == "v3":
            total = self.deals_total or 0
            where = f"deal {self.deal} of {total}" if self.deal <= total else f"play-off deal {self.deal - total}"
            lines.append(f"Variation 3 scoring: {where}.")
        else:
            lines.append(f"Playing to {self.target}.")
        lines.extend(self.last_deal)
        if self.bids is None:
            placed = [p for p, b in zip(self.players, self.bids_placed, strict=True) if b]
            lines.append("Bid cards face down: " + (", ".join(placed) if placed else "none yet"))
            if self.my_bid is not None:
                lines.append(f"Your bid (face down): {self.my_bid.short}")
            return lines
        lines.append("Bids: " + ", ".join(f"{p} {b.short}" for p, b in zip(self.players, self.bids, strict=True)))
        if self.trumps is not None:
            lines.append(f"Trumps: {self.trumps.symbol} (the Joker is the lowest trump)")
        if self.hood is not None:
            lines.append(f"Partners: {self._names(self.partners)}; Hood: {self.players[self.hood]}")
        elif self.open_scenario is not None:
            lines.append(f"Open partnerships (variation 2, scenario {self.open_scenario}): equal counts make partners.")
            if self.open_scenario == "2d" and self.first_trick_winner is not None:
                lines.append(
                    f"{self.players[self.first_trick_winner]} won the first trick: Hood unless two players finish level."
                )
        shown = [f"{self.players[s]} {e}" for s, e in enumerate(self.estimates) if e is not None]
        if shown:
            lines.append("Estimates: " + ", ".join(shown))
        lines.extend(self.requests)
        if self.last_trick:
            won = f" (won by {self.players[self.last_trick_winner]})" if self.last_trick_winner is not None else ""
            lines.append("Last trick: " + ", ".join(f"{self.players[s]} {c.short}" for s, c in self.last_trick) + won)
        if self.trick:
            winning = f" ({self.players[self.winning]} winning)" if self.winning is not None else ""
            lines.append("Trick: " + ", ".join(f"{self.players[s]} {c.short}" for s, c in self.trick) + winning)
        elif self.leader is not None and not (self.over or self.deal_over):
            lines.append(f"{self.players[self.leader]} to lead.")
        lines.append(
            "Tricks won: " + ", ".join(f"{p} {t}" for p, t in zip(self.players, self.tricks_won, strict=True))
        )
        return lines

    # -- the picture -------------------------------------------------------------------------------

    def facts(self) -> list[tuple[str, str]]:
        facts: list[tuple[str, str]] = []
        if self.trumps is not None:
            facts.append(("Trumps", f"{self.trumps.symbol} {self.trumps.title} (Joker lowest)"))
        if self.hood is not None:
            facts.append(("Hood", self.players[self.hood]))
            facts.append(("Partners", self._names(self.partners)))
        elif self.open_scenario is not None:
            facts.append(("", f"Open partnerships ({self.open_scenario})"))
        if self.scoring == "v3":
            total = self.deals_total or 0
            facts.append(("", f"Deal {self.deal} of {total}" if self.deal <= total else "Play-off"))
        elif self.target is not None:
            facts.append(("Playing to", str(self.target)))
        return facts + list(dealer_facts(self))

    def bid_row(self) -> Row | None:
        """The bid cards: face down until all three are down (the seat's own face up to it)."""
        if self.bids is not None:
            return played_row("Bids", self.players, enumerate(self.bids))
        if not any(self.bids_placed) and self.my_bid is None:
            return None
        spots = []
        for s, placed in enumerate(self.bids_placed):
            if s == self.seat and self.my_bid is not None:
                spots.append(Spot(self.my_bid, label=f"{self.players[s]} (you)"))
            elif placed:
                spots.append(Spot(None, label=self.players[s]))
        return Row("Bids, face down", tuple(spots))

    def trick_rows(self) -> list[Row]:
        rows = []
        if self.trick:
            waiting = [] if self.over else [s for s in self.awaiting if all(s != p for p, _ in self.trick)]
            # "winning" under the winning card (as "to play" under a waiting place), the last
            # trick's winner by its card's mark: a note beside the title ("Trick · Alex… winning",
            # "won by Alex…") widened the picture past 464 px with players' real names
            rows.append(played_row("Trick", self.players, self.trick, self.winning, to_play=waiting, winner_line="winning"))
        if self.last_trick:
            rows.append(played_row("Last trick", self.players, self.last_trick, self.last_trick_winner))
        return rows

    def layout(self) -> Layout:
        """Trumps and roles, the bid cards, the trick with who played what, the last trick and the
        tricks won (with the estimates, where given)."""
        columns: list[tuple[str, list[object]]] = []
        if self.tricks_won:
            columns.append(("Tricks", list(self.tricks_won)))
        if any(e is not None for e in self.estimates):
            columns.append(("Estimate", list(self.estimates)))
        lead = [f"{self.players[self.leader]} to lead."] if self.leader is not None and not self.trick and not (self.over or self.deal_over) else []
        return finish(
            self,
            [
                self.bid_row() if self.bids is None or not self.trick_rows() else None,
                *self.trick_rows(), *own_hand(self),
                Notes((*lead, *self.requests, *self.last_deal_notes())),
                standard_scores(self, *columns),
            ],
            self.facts(),
        )

    def last_deal_notes(self) -> tuple[str, ...]:
        """The last deal's lines (its tricks, its verdict, the scores: see
        :func:`games.hoodwink_match.HoodwinkMatch.score`) less what the score table beside them
        shows: the scores always, and the deal's tricks while they are its Tricks column (the
        table a deal left). Three lines fewer kept the deal's end within 464 px (it was 483)."""
        if len(self.last_deal) != 3:
            return tuple(self.last_deal)
        tricks, verdict, _scores = self.last_deal
        return (verdict,) if self.deal_over or self.over else (tricks, verdict)

    def hand_context(self) -> tuple[Area, ...]:
        facts = [f for f in self.facts() if f[0] in ("Trumps", "Hood", "Partners")]
        context: list[Area] = [Facts(tuple(facts))] if facts else []
        if self.bids is None:
            row = self.bid_row()
            if row is not None:
                context.append(row)
        elif self.trick:
            context.extend(self.trick_rows()[:1])
        return tuple(context)


# --- state --------------------------------------------------------------------------------------

Phase = Literal["bidding", "play"]


class HoodwinkState(GameState[HoodwinkOptions]):
    dealer: Seat

    def __init__(
        self,
        players: Sequence[str],
        options: HoodwinkOptions,
        seed: int,
        deck: Sequence[Card] | Sequence[Sequence[Card]] | None = None,
    ) -> None:
        super().__init__(players, options, seed, deck)
        MATCH.begin(self)
        self.phase: Phase = "bidding"
        self.hands: list[list[Card]] = [[] for _ in range(PLAYERS)]
        self.pending: list[Card | None] = [None] * PLAYERS
        self.bids: list[Card] | None = None
        self.roles: Roles | None = None
        self.scenario: Scenario | None = None
        self.rules: TrickRules | None = None
        self.trick = Trick(leader=0)
        self.taken: list[list[Card]] = [[] for _ in range(PLAYERS)]
        self.tricks_won: list[int] = [0] * PLAYERS
        self.first_winner: Seat | None = None
        self.last_winner: Seat | None = None
        self.last_trick: list[tuple[Seat, Card]] = []
        self.played_first: list[bool] = [False] * PLAYERS
        self.estimates: list[tuple[int, int] | None] = [None] * PLAYERS
        self.estimated: list[bool] = [False] * PLAYERS
        self.asked = False
        self.answered = False
        self.talk: list[str] = []
        self.requests: list[str] = []
        self.last_deal: list[str] = []
        self.log.extend(self._start_deal())

    # -- setup -------------------------------------------------------------------------------------

    def _start_deal(self) -> list[Event]:
        self.deal_no += 1
        order = self.next_pack_order(PACK)
        self.hands = [[] for _ in range(PLAYERS)]
        for i, c in enumerate(order):
            self.hands[(self.dealer + 1 + i) % PLAYERS].append(c)
        self.hands = [sort_hand(h) for h in self.hands]
        self.phase = "bidding"
        self.pending = [None] * PLAYERS
        self.bids = None
        self.roles = None
        self.scenario = None
        self.rules = None
        self.trick = Trick(leader=(self.dealer + 1) % PLAYERS)
        self.taken = [[] for _ in range(PLAYERS)]
        self.tricks_won = [0] * PLAYERS
        self.first_winner = None
        self.last_winner = None
        self.last_trick = []
        self.played_first = [False] * PLAYERS
        self.estimates = [None] * PLAYERS
        self.estimated = [False] * PLAYERS
        self.asked = False
        self.answered = False
        self.talk = []
        self.requests = []
        events = [
            self.event(
                "deal",
                f"Deal {self.deal_no}: {self.name(self.dealer)} deals 11 cards each; everyone puts a card "
                "face down to propose trumps.",
            )
        ]
        events.extend(self.event("hand", f"Your hand: {format_cards(h)}", to=s) for s, h in enumerate(self.hands))
        return events

    # -- who acts ------------------------------------------------------------------------------------

    def awaiting(self) -> frozenset[Seat]:
        if self.is_over:
            return frozenset()
        if self.phase == "bidding":
            return frozenset(s for s in range(PLAYERS) if self.pending[s] is None)
        return frozenset((self.trick.next_seat(PLAYERS),))

    @property
    def talking(self) -> bool:
        """Whether partners may use the set phrases this deal (never in open partnerships)."""
        return self.options.communication and self.roles is not None and self.roles.partners is not None

    def _partner_of(self, seat: Seat) -> Seat | None:
        if self.roles is None or self.roles.partners is None or seat not in self.roles.partners:
            return None
        a, b = self.roles.partners
        return b if seat == a else a

    def _requests_open_for(self, seat: Seat) -> bool:
        """The partner's answer is offered once the leader asked, until the lead is played."""
        leader = self.trick.leader
        return (
            self.asked
            and not self.answered
            and not self.trick.plays
            and self._partner_of(leader) == seat
        )

    def legal_actions(self, seat: Seat) -> list[Action]:
        if self.is_over or not 0 <= seat < PLAYERS:
            return []
        if self.phase == "bidding":
            if self.pending[seat] is not None:
                return []
            return [_BID[c] for c in self._bid_cards(seat)]
        out: list[Action] = []
        turn = self.trick.next_seat(PLAYERS)
        if seat == turn:
            assert self.rules is not None
            out.extend(_PLAY[c] for c in self.rules.follow_options(self.hands[seat], self.trick.led))
            if self.talking and not self.trick.plays and not self.asked and self._partner_of(seat) is not None:
                out.append(_ASK)
        if self.talking:
            if self._partner_of(seat) is not None and not self.estimated[seat] and not self.played_first[seat]:
                out.extend(_ESTIMATES)
            if self._requests_open_for(seat):
                out.extend(_ANSWERS)
        return out

    def _bid_cards(self, seat: Seat) -> list[Card]:
        hand = self.hands[seat]
        if self.options.disciplined_bids:
            return disciplined_bid_cards(hand)
        return [c for c in hand if not c.is_joker]

    def explain_illegal(self, seat: Seat, action: Action) -> str | None:
        if self.phase == "bidding" and self.pending[seat] is not None:
            waiting = ", ".join(self.name(s) for s in sorted(self.awaiting()))
            return f"Your bid card is already face down and cannot be changed; waiting for {waiting}."
        if not isinstance(action, _TALK) and not self.legal_actions(seat):
            return None  # the base says whose turn it is; talk out of turn gets its own reason
        if isinstance(action, Bid):
            return self._explain_bid(seat, action.bid)
        if isinstance(action, PlayCard):
            return self._explain_play(seat, action.play)
        if isinstance(action, (Estimate, NoEstimate)):
            return self._explain_estimate(seat, action)
        if isinstance(action, AskRequests):
            if not self.talking:
                return self._no_talk_reason()
            if self._partner_of(seat) is None:
                return "Only a partner about to lead may ask for requests."
            if self.asked:
                return "You have already asked for requests before this lead."
            return "You may ask for requests only when you are about to lead."
        if isinstance(action, (Request, NoRequest)):
            if not self.talking:
                return self._no_talk_reason()
            return "You may answer only when your partner, about to lead, has asked for requests."
        return None

    def _no_talk_reason(self) -> str:
        if not self.options.communication:
            return "Partner talk is not part of this game (the communication option is off)."
        if self.phase == "bidding":
            return "Partner talk opens once the bid cards are turned up."
        return "Everyone bid the same suit, so nobody has a partner to talk to yet."

    def _explain_bid(self, seat: Seat, c: Card) -> str:
        if self.phase != "bidding":
            return "The bids are already revealed; play goes on."
        if c.is_joker:
            return "The Joker has no suit of its own, so it cannot be your bid card."
        if c not in self.hands[seat]:
            return f"You do not hold the {c.name}."
        allowed = " or ".join(x.short for x in self._bid_cards(seat))
        return f"Disciplined bidding: you must show the top card of your longest suit ({allowed})."

    def _explain_play(self, seat: Seat, c: Card) -> str:
        if self.phase == "bidding":
            return "Trick play has not started: first put a card face down to propose trumps."
        if seat != self.trick.next_seat(PLAYERS):
            return f"It is {self.name(self.trick.next_seat(PLAYERS))}'s turn to play."
        if c not in self.hands[seat]:
            return f"You do not hold the {c.name}."
        led = self.trick.led
        assert self.rules is not None and led is not None
        reason = self.rules.must_follow_reason(self.hands[seat], led, c)
        if reason and c.is_joker:
            suit = self.rules.suit_of(led)
            assert suit is not None
            return f"The Joker is a trump here and {suit.title.lower()} were led: you must play one of them."
        return reason or f"You cannot play the {c.name} now."

    def _explain_estimate(self, seat: Seat, action: Action) -> str:
        if not self.talking:
            return self._no_talk_reason()
        if self._partner_of(seat) is None:
            return "Only the partners give estimates; the Hood keeps quiet."
        if self.estimated[seat]:
            return "You have already said your piece about your estimate."
        if self.played_first[seat]:
            return "Estimates are given before you play your first card."
        ranges = ", ".join(estimate_text(lo, hi) for lo, hi in ESTIMATE_RANGES)
        return f"Choose one of the set ranges: {ranges}."

    # -- moves -------------------------------------------------------------------------------------

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        if isinstance(action, Bid):
            return self._bid(seat, action.bid)
        if isinstance(action, PlayCard):
            return self._play(seat, action.play)
        if isinstance(action, Estimate):
            self.estimated[seat] = True
            self.estimates[seat] = (action.low, action.high)
            return self._say(f"{self.name(seat)} expects to take {estimate_text(action.low, action.high)} tricks.")
        if isinstance(action, NoEstimate):
            self.estimated[seat] = True
            return self._say(f"{self.name(seat)} gives no estimate.")
        if isinstance(action, AskRequests):
            self.asked = True
            partner = self._partner_of(seat)
            assert partner is not None
            return self._say(f"{self.name(seat)} asks {self.name(partner)}: any requests?", request=True)
        if isinstance(action, Request):
            self.answered = True
            verb = "lead" if action.mode == "lead" else "please do not lead"
            return self._say(f"{self.name(seat)}'s request: {verb} {action.suit.title.lower()}.", request=True)
        if isinstance(action, NoRequest):
            self.answered = True
            return self._say(f"{self.name(seat)} has no request.", request=True)
        raise AssertionError(f"unexpected action {action!r}")

    def _say(self, text: str, request: bool = False) -> list[Event]:
        """A partner's set phrase: public, and kept for the views."""
        self.talk.append(text)
        if request:
            self.requests.append(text)
        return [self.event("talk", text)]

    def _bid(self, seat: Seat, c: Card) -> list[Event]:
        self.hands[seat].remove(c)
        self.pending[seat] = c
        events = [
            self.event("bid_placed", f"{self.name(seat)} puts a bid card face down."),
            self.event("bid_own", f"You proposed {c.suit} by showing the {c.name}.", to=seat),
        ]
        if all(p is not None for p in self.pending):
            events.extend(self._reveal())
        return events

    def _reveal(self) -> list[Event]:
        bids = [p for p in self.pending if p is not None]
        self.bids = bids
        for s, c in enumerate(bids):
            self.hands[s] = sort_hand([*self.hands[s], c])
        self.pending = [None] * PLAYERS
        roles, scenario = deal_roles(bids, self.options.scenario_for)
        self.roles, self.scenario = roles, scenario
        self.rules = TrickRules(RANKS, roles.trumps, jokers_low=(JOKER,))
        self.phase = "play"
        shown = ", ".join(f"{self.name(s)} {c.short}" for s, c in enumerate(bids))
        events = [self.event("bids_revealed", f"The bid cards are turned up: {shown}. They go back into hand.")]
        events.append(self.event("roles", roles_text(roles, scenario, self.players)))
        events.append(self.event("lead", f"{self.name(self.trick.leader)} leads to the first trick."))
        return events

    def _play(self, seat: Seat, c: Card) -> list[Event]:
        assert self.rules is not None
        self.hands[seat].remove(c)
        self.trick.plays.append((seat, c))
        self.played_first[seat] = True
        events = [self.event("play", f"{self.name(seat)} plays {c.short}.")]
        if not self.trick.is_complete(PLAYERS):
            return events
        winner = self.trick.winning(self.rules)
        assert winner is not None
        self.tricks_won[winner] += 1
        self.taken[winner].extend(self.trick.cards)
        self.last_trick = list(self.trick.plays)
        if self.first_winner is None:
            self.first_winner = winner
        self.last_winner = winner
        events.append(
            self.event("trick", f"{self.name(winner)} takes the trick ({self.trick.describe(self.players)}).")
        )
        self.trick = Trick(leader=winner)
        self.asked = self.answered = False
        self.requests = []
        if sum(self.tricks_won) == TRICKS_PER_DEAL:
            events.extend(self._end_deal())
        return events

    # -- end of a deal and of the match ---------------------------------------------------------------

    def _end_deal(self) -> list[Event]:
        assert self.bids is not None
        a, b, c = self.bids
        t = self.tricks_won
        facts = HoodwinkFacts(
            bids=(a, b, c), tricks=(t[0], t[1], t[2]), first_winner=self.first_winner, last_winner=self.last_winner
        )
        events = MATCH.settle(self, facts)
        self.last_deal = last_deal_lines(events)
        self.keep_deal_end()  # again, now that the table's notes tell this deal (settling kept the last one's)
        if not self.is_over:
            events.extend(self._start_deal())
        return events

    # -- what players see ------------------------------------------------------------------------------

    def public_knowledge(self) -> list[Card]:
        if self.bids is None:
            return []
        return [c for s, c in enumerate(self.bids) if c in self.hands[s]]

    def card_zones(self) -> list[Zone]:
        zones = [Zone(f"hand {s}", self.hands[s], frozenset((s,))) for s in range(PLAYERS)]
        zones.extend(
            Zone(f"bid {s}", [c], frozenset((s,))) for s, c in enumerate(self.pending) if c is not None
        )
        zones.append(Zone("trick", self.trick.cards))
        zones.extend(Zone(f"taken {s}", self.taken[s]) for s in range(PLAYERS))
        return zones

    def _phase_text(self) -> str:
        if self.is_over:
            return "match over"
        if self.phase == "bidding":
            return "proposing trumps"
        return f"trick {sum(self.tricks_won) + 1} of {TRICKS_PER_DEAL}"

    def view(self, seat: Seat | None) -> HoodwinkView:
        o = self.options
        roles = self.roles
        mine = seat is not None and 0 <= seat < PLAYERS
        return HoodwinkView(
            **self.base_view(seat),
            phase=self._phase_text(),
            hand=list(self.hands[seat]) if mine and seat is not None else [],
            scoring=o.scoring,
            target=o.target if o.scoring == "standard" else None,
            deals_total=o.deals if o.scoring == "v3" else None,
            bids_placed=[p is not None for p in self.pending] if self.bids is None else [True] * PLAYERS,
            my_bid=self.pending[seat] if mine and seat is not None else None,
            bids=list(self.bids) if self.bids is not None else None,
            trumps=roles.trumps if roles else None,
            partners=list(roles.partners) if roles and roles.partners else [],
            hood=roles.hood if roles else None,
            open_scenario=self.scenario,
            leader=self.trick.leader if self.phase == "play" else None,
            trick=list(self.trick.plays),
            winning=self.trick.winning(self.rules),
            last_trick=list(self.last_trick),
            last_trick_winner=self.last_winner if self.last_trick else None,
            first_trick_winner=self.first_winner,
            tricks_won=list(self.tricks_won),
            estimates=[
                estimate_text(*e) if e is not None else ("no estimate" if done else None)
                for e, done in zip(self.estimates, self.estimated, strict=True)
            ],
            talk=list(self.talk),
            requests=list(self.requests),
            last_deal=list(self.last_deal),
        )


SUMMARY = """\
Three players, 32 cards (A K Q J 10 9 8 7 in each suit) and one Joker; 11 cards each, and each
player scores alone, though two of them are partners for the deal.

Proposing trumps: everyone puts one card face down at the same time (never the Joker); once down
it stays. When all three are down they are turned up together and go back into their owners'
hands for play, so everyone knows where they are.
* All three in one suit: that suit is trumps; the highest and the lowest card are partners and
  the middle one is the Hood.
* Two in one suit: those two are partners, the other player is the Hood and the Hood's suit is trumps.
* Three different suits: the two of the same colour are partners, the other is the Hood, and the
  suit nobody showed is trumps.

Play: the player left of the dealer leads; follow suit if you can, otherwise play anything.
The Joker is the lowest trump (below the 7) and counts as a trump for following. The highest
trump, else the highest card of the suit led, wins; the winner leads next. The deal passes left.

Scoring: 1 per trick. Partners with equal counts add 10 each. Otherwise the Hood adds 10, another
10 for an odd count and another 10 for matching a partner's count (at most 35). First to the
target (100) after a deal wins; if the lead is tied, tie_break decides (another deal, or shared).

Variation 3 scoring (scoring=v3): tied partners score 11 a trick each; otherwise the Hood scores
its tricks plus 10 per trick of the partners' gap (20 if it matched a partner). The match lasts
a fixed number of deals (a multiple of 3); with tie_break=extra_deal a tie for first is played
off in further rounds of three deals.

Variation 1 (disciplined_bids): you must bid the top card of your longest suit (equal lengths:
the better top cards; still equal: your choice). The Joker does not count for length.

Variation 2 (v2_scenario / v2_by_suit): if all bid one suit, nobody is partnered in advance;
two players who finish on equal counts become successful partners. If all counts differ:
2a no bonuses, 2b the middle count is the Hood, 2c the last trick's winner, 2d the first
trick's winner (the other two are failed partners). With v2_equal_overrides off, the Hood named
by 2c or 2d keeps the role even when two counts are equal; 2a and 2b always pair equal counts.

Partner talk (communication): everyone hears it, and only set phrases exist. Before playing their
first card, each partner may once announce a range of tricks (0-1, 1-2, ... 5-6, 6 or more) or
say they give no estimate. A
partner about to lead may ask "any requests?"; the other may then answer once with a suit to
lead, a suit to avoid or no request, but the leader never has to wait. No talk in an open deal.

Cards are dealt one at a time from the dealer's left.
"""


GAME: Game[HoodwinkOptions] = declare(
    Game(
        id="hoodwink",
        title="Hoodwink",
        min_players=3,
        max_players=3,
        options=HoodwinkOptions,
        state=HoodwinkState,
        actions=[Bid, PlayCard, Estimate, NoEstimate, AskRequests, Request, NoRequest],
        summary=SUMMARY,
    ),
    referee="games.referee.hoodwink:RefereeHoodwinkState",
    bots={
        "easy": "games.players.hoodwink:EASY",
        "strong": "games.players.hoodwink:STRONG",
    },
)
