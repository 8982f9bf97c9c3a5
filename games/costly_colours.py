# Over 400 lines: a whole game in one module (options, actions, view and picture, state, declaration), as games/README.md asks; its scoring is in costly_colours_scoring.py.
"""Costly Colours: a Cribbage ancestor for two players, or four in two partnerships.

Rules interpretation: ``shared/rules/costly_colours.md``. Scoring lives in
:mod:`games.costly_colours_scoring`; the match (pegging to the target) and the part of a deal both
modes share (the mog, the count, the show) in :mod:`games.costly_colours_deal`; this module deals,
keeps the hands and the stock, and passes a player who cannot play over with a Go.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from games.cards import Card, format_cards, full_pack, sort_hand
from games.costly_colours_deal import (
    HAND_SIZE,
    MATCH,
    MOG_ANSWER,
    MOG_GIVE,
    MOG_OFFER,
    OVER,
    PLAY,
    STOCK_BURY,
    STOCK_TAKE,
    CostlyColoursOptions,
    Deal,
    check_setup,
)
from games.costly_colours_scoring import MAX_COUNT, card_value, is_jack_or_deuce
from games.engine import Action, Event, Game, GameState, PlayCard, Seat, View, Zone
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

# --- options ------------------------------------------------------------------------------------


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
    show_totals: list[tuple[Seat, int]]
    """Who counted what at the last show, in turn: the picture's short form of ``last_show``."""

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
        # one line a hand, not indented: an indented run of lines is taken for a grid by the chat
        # table's text (and left out), which printed "Last show:" with nothing after it
        lines.extend(f"Last show, {line}" for line in self.last_show)
        return lines

    # -- the picture -------------------------------------------------------------------------------

    def facts(self) -> list[tuple[str, str]]:
        """Trumps and the dealer. The partners, fixed for the match, are in the table's text
        ("Partners: ..."), not the picture: with players' real names the fact took a second line
        and widened the picture past 464 px (text under 11 px on a phone)."""
        facts: list[tuple[str, str]] = []
        if self.deck_card is not None and self.deck_card.suit is not None:
            facts.append(("Trumps", self.deck_card.suit.symbol))
        return facts + list(dealer_facts(self))

    def deck_row(self) -> Row | None:
        return Row("Deck card", (Spot(self.deck_card),)) if self.deck_card is not None else None

    def count_pile(self) -> Pile:
        """The count's badge beside the cards of the series (untitled: the badge says "Count")."""
        return Pile("", spots(self.series), total=self.count, total_label="Count")

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
        played, the mog and each hand's total at the last show."""
        playing = self.phase == "the play"
        notes = [self.mog] if self.mog else []
        # each hand's combinations are in the table's text ("Last show, ..."): the picture says the
        # totals, until the next deal's play (its cards take the room)
        totals = ", ".join(f"{self.players[seat]} {total}" for seat, total in self.show_totals)
        show = Notes((f"Last show: {totals}",)) if totals and not playing else None
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


class CostlyColoursState(GameState[CostlyColoursOptions]):
    """The dealt game: the bot deals, and knows every card. The match is :data:`MATCH`; the deal's
    table (mog, count, show) is a :class:`~games.costly_colours_deal.Deal`, as in referee mode."""

    match = MATCH
    dealer: Seat

    def __init__(
        self,
        players: Sequence[str],
        options: CostlyColoursOptions,
        seed: int,
        deck: Sequence[Card] | Sequence[Sequence[Card]] | None = None,
    ) -> None:
        super().__init__(players, options, seed, deck)
        MATCH.begin(self)
        self.deal = Deal.new(self.n)
        self.last_show: list[str] = []
        self.show_totals: list[tuple[Seat, int]] = []
        self.hands: list[list[Card]] = [[] for _ in range(self.n)]
        self.stock: list[Card] = []
        self.log.extend(self._start_deal())

    @classmethod
    def check_setup(cls, players: int, options: CostlyColoursOptions) -> None:
        check_setup(players, options)

    def cards_left(self, seat: Seat) -> int:
        return len(self.hands[seat])

    # -- the protocol ----------------------------------------------------------------------------

    def awaiting(self) -> frozenset[Seat]:
        return frozenset() if self.is_over else self.deal.awaiting()

    def legal_actions(self, seat: Seat) -> list[Action]:
        if seat not in self.awaiting():
            return []
        hand = self.hands[seat]
        phase = self.deal.phase
        if phase == PLAY:
            room = MAX_COUNT - self.deal.total
            return [_PLAYS[c] for c in sort_hand(hand) if card_value(c) <= room]
        if phase == MOG_OFFER:
            return list(_OFFER)
        if phase == MOG_ANSWER:
            return list(_ANSWER)
        if phase == MOG_GIVE:
            out: list[Action] = []
            for c in sort_hand(hand):
                if self.options.muggins and is_jack_or_deuce(c):
                    out.append(_CLAIMS[c])
                out.append(_GIVES[c])
            return out
        if phase == STOCK_TAKE:
            return list(_STOCK)
        if phase == STOCK_BURY:
            return [_BURIES[c] for c in sort_hand(hand)]
        return []

    def explain_illegal(self, seat: Seat, action: Action) -> str | None:
        if seat not in self.awaiting():
            return None  # the base says whose turn it is
        hand = self.hands[seat]
        deal = self.deal
        c = action.card
        if c is not None and c not in hand:
            return f"You do not hold {c.short}."
        if deal.phase == PLAY:
            if isinstance(action, PlayCard):
                after = deal.total + card_value(action.play)
                return (
                    f"{action.play.short} would take the count from {deal.total} to {after}, "
                    f"past {MAX_COUNT}: play a card that keeps it at {MAX_COUNT} or under."
                )
            return "The mogging is over: it is time to play a card to the count."
        if isinstance(action, PlayCard):
            return "The play has not started yet: the mog comes first."
        proposer, answerer = deal.mog_pairs[deal.mog_step]
        if deal.phase == MOG_OFFER:
            return f"First say whether you propose a mog to {self.name(answerer)}."
        if deal.phase == MOG_ANSWER:
            return f"{self.name(proposer)} has proposed a mog: accept it or refuse it."
        if deal.phase == MOG_GIVE:
            if isinstance(action, GiveCard) and action.claim:
                if not is_jack_or_deuce(action.give):
                    return f"Only a Jack or a Deuce can be claimed, and {action.give.short} is neither."
                return "Jacks and Deuces are claimed for you automatically: just choose the card."
            other = answerer if seat == proposer else proposer
            return f"Choose the card you pass face down to {self.name(other)}."
        if deal.phase == STOCK_TAKE:
            return "Take the card under the deck card, or keep your hand as it is."
        if deal.phase == STOCK_BURY:
            return "Choose one of your cards to put under the deck card."
        return None

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        events: list[Event] = []
        deal = self.deal
        if isinstance(action, PlayCard):
            self.hands[seat].remove(action.play)
            if deal.add_card(self, seat, action.play, events):
                self._after_card(events)
        elif isinstance(action, ProposeMog):
            deal.propose(self, seat, events)
        elif isinstance(action, NoMog):
            deal.no_mog(self, seat, events)
        elif isinstance(action, AcceptMog):
            deal.accept(self, seat, events)
        elif isinstance(action, RefuseMog):
            deal.refuse(self, seat, events)
        elif isinstance(action, GiveCard):
            self._give(seat, action, events)
        elif isinstance(action, TakeStock):
            self._take_stock(seat, events)
        elif isinstance(action, KeepHand):
            deal.keep_hand(self, seat, events)
        elif isinstance(action, BuryCard):
            self._bury(seat, action.bury, events)
        else:  # pragma: no cover - apply() only passes legal actions
            raise AssertionError(f"unexpected action {action!r}")
        return events

    # -- the deal --------------------------------------------------------------------------------

    def _start_deal(self) -> list[Event]:
        events: list[Event] = []
        self.deal_no += 1
        self.deal = deal = Deal.new(self.n)
        n = self.n
        pack = self.next_pack_order(_PACK)
        self.hands = [[] for _ in range(n)]
        for i in range(HAND_SIZE * n):
            self.hands[(self.dealer + 1 + i) % n].append(pack[i])
        deck_card = pack[HAND_SIZE * n]
        self.stock = pack[HAND_SIZE * n + 1 :]
        assert deck_card.suit is not None
        events.append(
            self.event(
                "deal",
                f"Deal {self.deal_no}: {self.name(self.dealer)} deals three cards each and turns "
                f"{deck_card.short} as the deck card; {deck_card.suit.title.lower()} are trumps.",
            )
        )
        for s in range(n):
            events.append(self.event("hand", f"Your cards: {format_cards(sort_hand(self.hands[s]))}.", to=s))
        deal.turn_up(self, deck_card, events)
        return events

    # -- the mog ---------------------------------------------------------------------------------

    def _give(self, seat: Seat, action: GiveCard, events: list[Event]) -> None:
        deal = self.deal
        both = deal.choose_pass(seat, action.give, action.claim, self.options.muggins)
        events.append(self.event("mog", f"{self.name(seat)} has chosen a card to pass."))
        events.append(self.event("mog", f"You will pass {action.give.short}.", to=seat))
        if not both or deal.peg_gifts(self, events):
            return
        a, b = deal.mog_pairs[deal.mog_step]
        card_a, card_b = deal.gifts[a][0], deal.gifts[b][0]
        assert card_a is not None and card_b is not None
        self.hands[a].remove(card_a)
        self.hands[b].remove(card_b)
        self.hands[a].append(card_b)
        self.hands[b].append(card_a)
        events.append(self.event("mog", f"{self.name(a)} and {self.name(b)} exchange a card."))
        events.append(self.event("mog", f"You passed {card_a.short} and received {card_b.short}.", to=a))
        events.append(self.event("mog", f"You passed {card_b.short} and received {card_a.short}.", to=b))
        deal.mog_note = f"{self.name(a)} and {self.name(b)} exchanged a card."
        deal.gifts = {}
        deal.next_mog(self, events)

    def _take_stock(self, seat: Seat, events: list[Event]) -> None:
        self.deal.take_stock(seat)
        taken = self.stock.pop(0)
        self.hands[seat].append(taken)
        self.deal.phase = STOCK_BURY
        events.append(self.event("mog", f"{self.name(seat)} takes the card under the deck card."))
        events.append(self.event("mog", f"You take {taken.short}; now put one card back.", to=seat))
        self.deal.mog_note = f"{self.name(seat)} is choosing a card to put under the deck card."

    def _bury(self, seat: Seat, card: Card, events: list[Event]) -> None:
        self.hands[seat].remove(card)
        self.stock.insert(0, card)
        events.append(self.event("mog", f"{self.name(seat)} puts a card under the deck card."))
        events.append(self.event("mog", f"You put {card.short} under the deck card.", to=seat))
        self.deal.mog_note = f"{self.name(seat)} mogged with the stock."
        self.deal.next_mog(self, events)

    # -- the play --------------------------------------------------------------------------------

    def _can_play(self, seat: Seat) -> bool:
        room = MAX_COUNT - self.deal.total
        return any(card_value(c) <= room for c in self.hands[seat])

    def _after_card(self, events: list[Event]) -> None:
        """Find who plays next; end the series (and the play) when nobody can. A seat that cannot
        play is passed over with a Go."""
        deal = self.deal
        last = deal.last_player
        assert last is not None
        unable: list[Seat] = []
        for step in range(1, self.n + 1):
            s = (last + step) % self.n
            if not self.hands[s]:
                continue
            if self._can_play(s):
                for u in unable:
                    if not deal.said_go[u]:
                        deal.said_go[u] = True
                        events.append(self.event("go", f"{self.name(u)} cannot play without passing 31: Go."))
                deal.to_act = s
                return
            unable.append(s)
        if deal.end_series(self, last, self.cards_left, events) and deal.show(self, events):
            events += MATCH.settle(self, deal.facts())
            events += self._start_deal()

    # -- views and zones -------------------------------------------------------------------------

    def view(self, seat: Seat | None) -> CostlyColoursView:
        hand = sort_hand(self.hands[seat]) if seat is not None else []
        fields = self.deal.view_fields(self, seat, phase_text(self.deal.phase), [self.cards_left(s) for s in range(self.n)])
        return CostlyColoursView(**fields, hand=hand)

    def card_zones(self) -> list[Zone]:
        deal = self.deal
        zones = [Zone(f"hand of {self.name(s)}", list(self.hands[s]), frozenset((s,))) for s in range(self.n)]
        zones += [Zone(f"played by {self.name(s)}", list(deal.played[s])) for s in range(self.n)]
        zones.append(Zone("deck card", [deal.deck_card] if deal.deck_card is not None else []))
        zones.append(Zone("stock", list(self.stock), frozenset()))
        return zones


PHASE_TEXT = {PLAY: "the play", OVER: "over"}


def phase_text(phase: str) -> str:
    return PHASE_TEXT.get(phase, "mogging")


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
    referee="games.referee.costly_colours:RefereeCostlyColoursState",
    bots={
        "easy": "games.players.costly_colours:EASY",
        "strong": "games.players.costly_colours:STRONG",
    },
)
