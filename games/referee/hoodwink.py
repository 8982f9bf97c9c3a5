# Over 400 lines: a whole referee mode in one module (entries, view, state, summary, declaration); the two variations the table polices itself (variation 1 disputes, the 2c/2d trick winners) need their own entries and refusals.
"""Hoodwink refereed: three people play with a real pack and enter the bid cards and the trick
counts.

The entries of a deal: the three bid cards once they are turned up (in any order); the bot then
announces trumps, the partners and the Hood. After the play, each player's trick count (they must
add up to 11). Two options need more from the table:

* variation 1 (disciplined bids): the bot cannot see the hands, so a bid that was not the top card
  of its bidder's longest suit is *disputed* by an entry on that bidder's line (the bidder owning
  up, or an opponent once the bidder has shown the suit). The card is withdrawn and the bidder's
  right card is entered instead; trumps and roles are worked out again. A dispute is accepted until
  the first trick count is entered, once per bidder and deal;
* variation 2, scenarios 2c and 2d: when the counts do not settle the partners, the table enters
  who won the last (2c) or first (2d) trick.

Roles, scores and the match (target or fixed deals, ties) are the online game's own
(:data:`games.hoodwink_match.MATCH`), handed the same facts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import Field

from games.cards import Card
from games.engine import Action, Event, Game, Seat, Zone
from games.hoodwink import GAME as ONLINE
from games.hoodwink import PACK, Bid, HoodwinkOptions, HoodwinkView
from games.hoodwink_match import MATCH, HoodwinkFacts, last_deal_lines
from games.hoodwink_scoring import (
    PLAYERS,
    TRICKS_PER_DEAL,
    Roles,
    Scenario,
    Which,
    deal_roles,
    deciding_trick,
    roles_text,
)
from games.layout import Row, Spot
from games.match import DealFacts
from games.referee import dealer_line, referee_mode
from games.referee.state import RefereeState
from games.referee.trick_totals import TrickCounts, TricksWon, referee_lines, tricks_entry

Stage = Literal["bids", "counts", "winner"]

# --- entries -------------------------------------------------------------------------------------


class DisputeBid(Action):
    """Variation 1: this player's bid was not the top card of their longest suit; it is withdrawn
    and the right card is entered instead."""

    kind: Literal["dispute_bid"] = "dispute_bid"

    def label(self) -> str:
        return "Bid broke variation 1: take it back"


class WonTrick(Action):
    """Variation 2 (2c, 2d): this player won the first or the last trick of the deal."""

    kind: Literal["won_trick"] = "won_trick"
    which: Which

    def label(self) -> str:
        return f"Won the {self.which} trick"


_SUITED = [c for c in PACK if not c.is_joker]
_BIDS = {c: Bid(bid=c) for c in _SUITED}
_DISPUTE = DisputeBid()
_WON = {w: WonTrick(which=w) for w in ("first", "last")}


# --- view ----------------------------------------------------------------------------------------


class RefereeHoodwinkView(HoodwinkView):
    """The online view's fields (trumps, roles, scoring) plus the bids entered so far, the
    withdrawn ones, the trick counts and the entry due."""

    shown: list[Card | None] = Field(default_factory=list)
    withdrawn: list[Card] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    counts: str = ""
    due: str = ""

    def bid_row(self) -> Row | None:
        """The bid cards entered so far (a picture's row; the withdrawn ones are in the text)."""
        if not any(c is not None for c in self.shown):
            return None
        return Row("Bids", tuple(Spot(c, label=p, empty=c is None) for p, c in zip(self.players, self.shown, strict=True)))

    def table_lines(self) -> list[str]:
        lines: list[str] = dealer_line(self)
        if self.scoring == "v3":
            total = self.deals_total or 0
            where = f"deal {self.deal} of {total}" if self.deal <= total else f"play-off deal {self.deal - total}"
            lines.append(f"Variation 3 scoring: {where}.")
        else:
            lines.append(f"Playing to {self.target}.")
        shown = [f"{p} {b.short if b is not None else '(to enter)'}" for p, b in zip(self.players, self.shown, strict=True)]
        lines.append("Bids: " + ", ".join(shown))
        if self.withdrawn:
            lines.append("Withdrawn bids: " + ", ".join(c.short for c in self.withdrawn))
        if self.trumps is not None:
            lines.append(f"Trumps: {self.trumps.symbol} (the Joker is the lowest trump)")
        if self.hood is not None:
            pair = " and ".join(self.players[s] for s in self.partners)
            lines.append(f"Partners: {pair}; Hood: {self.players[self.hood]}")
        elif self.open_scenario is not None:
            lines.append(f"Open partnerships (variation 2, scenario {self.open_scenario}): equal counts make partners.")
        lines.extend(self.notes)
        return lines + referee_lines(self.last_deal, self.counts, self.due)


# --- state ---------------------------------------------------------------------------------------


SUMMARY = """
Referee mode: three players play Hoodwink with a real pack and tell the bot the bid cards and the
result; it works out trumps, partners and the Hood, scores every deal and runs the match as the
online game does (same options).

Each deal: once the three bid cards are turned up together, enter them (any order, never the
Joker; all three in one entry with the players' names: "Ann AH Bob 9H Cat 7S"). The bot announces trumps, the two partners and the Hood. Play the 11 tricks at the table;
the bot does not follow the cards. Then enter two players' trick counts in any order: a count
larger than the tricks left is refused, and the bot fills in the third, which makes 11 (two counts
may go in one entry: "Ann 4 Bob 5").

Variation 1 (disciplined_bids): the bot cannot see the hands, so the table polices the rule. If a
bid was not the top card of its bidder's longest suit, enter a dispute on that bidder's line
before the first trick count (the bidder owning up, or an opponent once the bidder has shown the
suit): the card is withdrawn, the right card is entered, and the roles are worked out again. Each
bid can be replaced once a deal.

Variation 2, scenarios 2c and 2d: when all three bid one suit and the counts do not make two
players partners, also enter who won the last trick (2c) or the first trick (2d). Partner talk
(communication) happens at the table in the set phrases; there is nothing to enter for it.

Scoring, the target (or variation 3's fixed deals) and tie_break are those of the online game.
"""


class RefereeHoodwinkState(RefereeState[HoodwinkOptions]):
    """A refereed match: bid cards, trick counts and, when needed, a dispute or a trick's winner.

    It knows the bid cards and nothing else of the hands. ``pending`` holds the bids entered so far
    (a disputed one goes back to ``None``); ``counts`` the trick counts (a :class:`TrickCounts`).
    Roles come from the online game's rules, and the match is the online game's own
    (:data:`~games.hoodwink_match.MATCH`).
    """

    entry_kinds = (Bid, TricksWon, DisputeBid, WonTrick)
    rules_summary = SUMMARY
    takes_series = True

    match = MATCH

    def __init__(
        self,
        players: Sequence[str],
        options: HoodwinkOptions,
        seed: int,
        deck: Sequence[Card] | Sequence[Sequence[Card]] | None = None,
    ) -> None:
        self.last_deal: list[str] = []
        super().__init__(players, options, seed, deck)

    @property
    def leader(self) -> Seat:
        """Who leads to the first trick: the dealer's left."""
        return (self.dealer + 1) % PLAYERS

    # -- deal flow -----------------------------------------------------------------------------

    def _start_deal(self) -> list[Event]:
        """A new deal: the players deal the real cards; the bot waits for the bid cards."""
        self.deal_no += 1
        self.stage: Stage = "bids"
        self.pending: list[Card | None] = [None] * PLAYERS
        self.bids: list[Card] | None = None
        self.roles: Roles | None = None
        self.scenario: Scenario | None = None
        self.first_winner: Seat | None = None
        self.last_winner: Seat | None = None
        self.counts = TrickCounts.new(PLAYERS, TRICKS_PER_DEAL)
        self.withdrawn: list[Card] = []
        self.disputed: list[bool] = [False] * PLAYERS
        text = (
            f"Deal {self.deal_no}: {self.name(self.dealer)} deals 11 cards each. Enter the three bid "
            "cards once they are turned up."
        )
        return [self.event("deal", text)]

    def _settle_bids(self) -> list[Event]:
        """All three bids are known: trumps, partners and the Hood, as the online game decides."""
        bids = [c for c in self.pending if c is not None]
        roles, scenario = deal_roles(bids, self.options.scenario_for)
        self.bids, self.roles, self.scenario = bids, roles, scenario
        self.stage = "counts"
        return [self.event("roles", f"{roles_text(roles, scenario, self.players)} {self.name(self.leader)} leads.")]

    def winner_needed(self) -> Which | None:
        """Variation 2c/2d: which trick's winner the counts leave to be entered, if any."""
        if self.roles is None:
            return None
        return deciding_trick(self.roles, self.scenario, self.counts.counts, self.options.v2_equal_overrides)

    def _after_counts(self) -> list[Event]:
        which = self.winner_needed()
        if which is not None:
            takers = [s for s, t in enumerate(self.counts.won()) if t]
            if len(takers) > 1:
                self.stage = "winner"
                return []
            return self._won(takers[0], which) + self._end_deal()
        return self._end_deal()

    def _won(self, seat: Seat, which: Which) -> list[Event]:
        if which == "first":
            self.first_winner = seat
        else:
            self.last_winner = seat
        scenario = self.scenario or ""
        return [self.event("won_trick", f"{self.name(seat)} won the {which} trick (scenario {scenario}).")]

    def _end_deal(self) -> list[Event]:
        assert self.bids is not None
        a, b, c = self.bids
        t = self.counts.won()
        facts = HoodwinkFacts(
            bids=(a, b, c), tricks=(t[0], t[1], t[2]), first_winner=self.first_winner, last_winner=self.last_winner
        )
        events = self.settle(facts)
        self.last_deal = last_deal_lines(events)
        return events

    def entries(self, facts: DealFacts) -> list[tuple[Seat, Action]]:
        assert isinstance(facts, HoodwinkFacts)
        out: list[tuple[Seat, Action]] = [(s, _BIDS[card]) for s, card in enumerate(facts.bids)]
        out += [(s, tricks_entry(facts.tricks[s])) for s in range(PLAYERS - 1)]  # the last is filled in
        roles, scenario = deal_roles(facts.bids, self.options.scenario_for)
        which = deciding_trick(roles, scenario, facts.tricks, self.options.v2_equal_overrides)
        if which is not None and sum(1 for t in facts.tricks if t) > 1:
            winner = facts.first_winner if which == "first" else facts.last_winner
            assert winner is not None
            out.append((winner, _WON[which]))
        return out

    # -- the entries ---------------------------------------------------------------------------

    def _awaiting(self) -> frozenset[Seat]:
        if self.stage == "bids":
            return frozenset(s for s in range(PLAYERS) if self.pending[s] is None)
        if self.stage == "counts":
            return self.counts.awaiting()
        return frozenset(s for s, t in enumerate(self.counts.counts) if t)

    def _dispute_open(self, seat: Seat) -> bool:
        return (
            self.options.disciplined_bids
            and self.stage == "counts"
            and not any(c is not None for c in self.counts.counts)
            and not self.disputed[seat]
        )

    def _bid_cards(self, seat: Seat) -> list[Card]:
        """Cards that may be entered as ``seat``'s bid: any suited card not shown already."""
        taken = {*(c for c in self.pending if c is not None), *self.withdrawn}
        return [c for c in _SUITED if c not in taken]

    def _legal(self, seat: Seat) -> list[Action]:
        if seat not in self._awaiting():
            return []
        if self.stage == "bids":
            return [_BIDS[c] for c in self._bid_cards(seat)]
        if self.stage == "counts":
            out = self.counts.choices(seat)
            if self._dispute_open(seat):
                out.append(_DISPUTE)
            return out
        which = self.winner_needed()
        assert which is not None
        return [_WON[which]]

    def _refusal(self, seat: Seat, action: Action) -> str | None:
        if isinstance(action, Bid):
            return self._bid_refusal(seat, action.bid)
        if isinstance(action, TricksWon):
            if self.stage == "bids":
                return "Trick counts come at the end of the deal: first enter the three bid cards."
            if self.stage == "winner":
                return f"The trick counts are in: enter who won the {self.winner_needed()} trick."
            return self.counts.refusal(seat, action.tricks, self.players)
        if isinstance(action, DisputeBid):
            return self._dispute_refusal(seat)
        if isinstance(action, WonTrick):
            return self._won_refusal(seat, action.which)
        return None

    def _bid_refusal(self, seat: Seat, c: Card) -> str:
        name = self.name(seat)
        if self.stage != "bids":
            return "All three bid cards are already entered for this deal."
        mine = self.pending[seat]
        if mine is not None:
            return f"{name}'s bid card is already entered ({mine.short}): undo it to change it."
        if c.is_joker:
            return "The Joker cannot be a bid card: it has no suit of its own."
        for other, shown in enumerate(self.pending):
            if shown == c:
                return f"{self.name(other)} already showed the {c.name}: the pack has only one."
        if c in self.withdrawn:
            return f"The {c.name} was withdrawn as a bid this deal: enter the card that should have been shown."
        return f"The {c.name} cannot be entered as {name}'s bid now."

    def _dispute_refusal(self, seat: Seat) -> str:
        name = self.name(seat)
        if not self.options.disciplined_bids:
            return "Any card may be bid at this table: variation 1 (disciplined_bids) is off."
        if self.stage == "bids":
            return "Enter all three bid cards first; then a bid that broke variation 1 can be disputed."
        if self.disputed[seat]:
            return f"{name}'s bid was already replaced this deal: the new one stands."
        return "Too late to dispute a bid: the trick counts are being entered (undo them first)."

    def _won_refusal(self, seat: Seat, which: Which) -> str:
        needed = self.winner_needed() if self.stage == "winner" else None
        if needed is None:
            return (
                "Who won a trick is asked only after an open deal (variation 2, scenario 2c or 2d) "
                "whose trick counts do not settle the partners."
            )
        if which != needed:
            return f"Scenario {self.scenario} goes by the {needed} trick: enter who won that one."
        return f"{self.name(seat)} took no tricks, so cannot have won the {which} trick."

    # -- entries -------------------------------------------------------------------------------

    def _enter(self, seat: Seat, action: Action) -> list[Event]:
        if isinstance(action, Bid):
            self.pending[seat] = action.bid
            events = [self.event("bid", f"{self.name(seat)} showed {action.bid.short}.")]
            if all(c is not None for c in self.pending):
                events.extend(self._settle_bids())
            return events
        if isinstance(action, TricksWon):
            events = self.counts.enter(self, seat, action.tricks)
            if self.counts.complete:
                events.extend(self._after_counts())
            return events
        if isinstance(action, DisputeBid):
            return self._dispute(seat)
        assert isinstance(action, WonTrick)
        return self._won(seat, action.which) + self._end_deal()

    def _dispute(self, seat: Seat) -> list[Event]:
        card = self.pending[seat]
        assert card is not None
        self.withdrawn.append(card)
        self.disputed[seat] = True
        self.pending[seat] = None
        self.bids = None
        self.roles = None
        self.scenario = None
        self.stage = "bids"
        name = self.name(seat)
        text = (
            f"{name}'s bid {card.short} is withdrawn: it was not the top card of {name}'s longest suit. "
            f"Enter the card {name} should have shown."
        )
        return [self.event("dispute", text)]

    # -- what the table sees ------------------------------------------------------------------

    def _phase_text(self) -> str:
        if self.is_over:
            return "match over"
        return {"bids": "bid cards", "counts": "trick counts", "winner": "a trick's winner"}[self.stage]

    def due(self) -> str:
        if self.is_over:
            return ""
        names = ", ".join(self.name(s) for s in sorted(self.awaiting()))
        if self.stage == "bids":
            if any(self.disputed[s] for s in self.awaiting()):
                return f"the bid card of {names} (the top card of the longest suit)."
            return f"the bid cards of {names}, as turned up."
        if self.stage == "counts":
            text = f"the tricks taken by {names} (they add up to {TRICKS_PER_DEAL})."
            if self.options.disciplined_bids and not any(c is not None for c in self.counts.counts):
                text += " Until the first count, a bid that broke variation 1 can be disputed."
            return text
        return (
            f"who won the {self.winner_needed()} trick: {names} "
            f"(scenario {self.scenario} makes that player the Hood)."
        )

    def _notes(self) -> list[str]:
        notes = []
        if self.options.disciplined_bids:
            notes.append("Variation 1: each bid must be the top card of its bidder's longest suit.")
        if self.options.communication:
            notes.append("Partners may talk in set phrases only: a trick estimate, and 'any requests?' before a lead.")
        return notes

    def view(self, seat: Seat | None) -> RefereeHoodwinkView:
        o = self.options
        roles = self.roles
        return RefereeHoodwinkView(
            **self.base_view(seat),
            phase=self._phase_text(),
            scoring=o.scoring,
            target=o.target if o.scoring == "standard" else None,
            deals_total=o.deals if o.scoring == "v3" else None,
            shown=list(self.pending),
            withdrawn=list(self.withdrawn),
            trumps=roles.trumps if roles else None,
            partners=list(roles.partners) if roles and roles.partners else [],
            hood=roles.hood if roles else None,
            open_scenario=self.scenario,
            notes=self._notes(),
            last_deal=list(self.last_deal),
            counts=self.counts.line(self.players) if self.stage != "bids" else "",
            due=self.due(),
        )

    def card_zones(self) -> list[Zone]:
        shown = [c for c in self.pending if c is not None]
        seen = {*shown, *self.withdrawn}
        return [
            Zone("bid cards", shown),
            Zone("withdrawn bids", list(self.withdrawn)),
            Zone("not seen", [c for c in PACK if c not in seen], frozenset()),
        ]


GAME: Game[HoodwinkOptions] = referee_mode(ONLINE, RefereeHoodwinkState)
