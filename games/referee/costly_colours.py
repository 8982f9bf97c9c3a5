# Over 400 lines: a whole referee mode in one module (entries, view, state, summary); the mog, the four-player stock, Go and the muggins claims each need their own entries, refusals and the entries for a deal's facts.
"""Costly Colours refereed: people play with real cards and enter what happens.

The entries of a deal: the deck card (the bot announces trumps and pegs his heels), the mog
(offer, answer, and for an accepted mog any Jack or Deuce claimed as it is passed; a card that
scores nothing stays secret), every card of the play as it is played (or Go), and, with muggins,
a receiver's claim of a Jack or Deuce passed to them unclaimed. Every card of a hand is played,
so the show needs no entries: the bot counts each hand of three with the deck card, from the
dealer's left round to the dealer, and explains each score. Scoring, pegging, the mog order and
the peg-out are the online game's own (:mod:`games.costly_colours`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from games.cards import Card, format_cards, full_pack, sort_hand
from games.costly_colours import GAME as ONLINE
from games.costly_colours import (
    AcceptMog,
    CostlyColoursOptions,
    CostlyColoursView,
    KeepHand,
    NoMog,
    ProposeMog,
    RefuseMog,
    TakeStock,
    phase_text,
)
from games.costly_colours_deal import (
    HAND_SIZE,
    MATCH,
    MOG_ANSWER,
    MOG_GIVE,
    MOG_OFFER,
    OVER,
    PLAY,
    STOCK_TAKE,
    CostlyColoursFacts,
    Deal,
    Step,
    check_setup,
)
from games.costly_colours_scoring import MAX_COUNT, card_value, is_jack_or_deuce
from games.engine import Action, Event, Game, PlayCard, Seat, Zone
from games.match import DealFacts
from games.referee import dealer_line, referee_mode
from games.referee.state import RefereeState

DECK = "deck"
SHOW_CLAIM = "show_claim"
SHOW = "show"

# --- entries ------------------------------------------------------------------------------------


class DeckCard(Action):
    """The card the dealer turned up: it sets trumps."""

    kind: Literal["deck_card"] = "deck_card"
    deck: Card

    @property
    def card(self) -> Card:
        return self.deck

    def label(self) -> str:
        return f"Deck card {self.deck.short}"


class MogPass(Action):
    """One side of an accepted mog: the card passed face down stays secret unless it is a Jack or
    Deuce its giver claims (``claim``), which the whole table then knows."""

    kind: Literal["mog_pass"] = "mog_pass"
    claim: Card | None = None

    def label(self) -> str:
        if self.claim is None:
            return "Passed a card, nothing claimed"
        return f"Passed {self.claim.short} and claims it"


class SayGo(Action):
    """The player to play cannot add a card without passing 31."""

    kind: Literal["go"] = "go"

    def label(self) -> str:
        return "Go"


class ClaimGift(Action):
    """Muggins: at the show, a Jack or Deuce that reached this player in the mog unclaimed."""

    kind: Literal["claim_gift"] = "claim_gift"
    gift: Card

    @property
    def card(self) -> Card:
        return self.gift

    def label(self) -> str:
        return f"Claim {self.gift.short}, passed to me unclaimed"

    def choice_path(self) -> tuple[str, ...]:
        return (self.label(),)


class NoGiftClaim(Action):
    kind: Literal["no_gift_claim"] = "no_gift_claim"

    def label(self) -> str:
        return "Nothing to claim"


_PACK = full_pack()
_SORTED_PACK = sort_hand(_PACK)
_DECKS: list[Action] = [DeckCard(deck=c) for c in _SORTED_PACK]
_PLAYS = {c: PlayCard(play=c) for c in _PACK}
_VALUE = {c: card_value(c) for c in _PACK}
_JACKS_DEUCES = [c for c in _SORTED_PACK if is_jack_or_deuce(c)]
_NO_CLAIM = MogPass()
_PASS_CLAIMS = {c: MogPass(claim=c) for c in _JACKS_DEUCES}
_GIFT_CLAIMS = {c: ClaimGift(gift=c) for c in _JACKS_DEUCES}
_GO = SayGo()
_NO_GIFT = NoGiftClaim()
_OFFER: list[Action] = [ProposeMog(), NoMog()]
_ANSWER: list[Action] = [AcceptMog(), RefuseMog()]
_STOCK: list[Action] = [TakeStock(), KeepHand()]
_CALLS: dict[str, Action] = {
    "propose": _OFFER[0],
    "no_mog": _OFFER[1],
    "accept": _ANSWER[0],
    "refuse": _ANSWER[1],
    "take_stock": _STOCK[0],
    "keep_hand": _STOCK[1],
}


# --- view ---------------------------------------------------------------------------------------


class RefereeCostlyColoursView(CostlyColoursView):
    claimed: list[str]
    due: str

    def table_lines(self) -> list[str]:
        lines = dealer_line(self) + super().table_lines()
        if self.claimed:
            lines.append("Claimed in the mog: " + "; ".join(self.claimed))
        if self.due:
            lines.append(f"Next entry: {self.due}")
        return lines


# --- state --------------------------------------------------------------------------------------


SUMMARY = """
Referee mode: you play Costly Colours with a real pack and tell the bot what happens; it keeps
the count, pegs every score and announces the winner. The rules are those of the online game
(see its rules: 121 up, or 61 by option; two players, or four in partnerships).

Each deal: enter the deck card the dealer turned up (the bot names trumps and pegs his heels for
a Jack or Deuce). Then the mog: whether it is proposed, whether it is accepted, and for an
accepted mog what each player passed: nothing to enter for an ordinary card (it stays secret),
but a Jack or Deuce is claimed by naming it, which pegs 2, or 4 in trumps. With muggins on, a
Jack or Deuce passed without a claim may be claimed by its receiver just before counting at the
show. Four players: a dealer whose partner refused may take the card under the deck card and put
one back; enter only whether the dealer did.

The play: enter each card as it is played, or Go for a player who cannot add a card without
passing 31 (a series that reaches exactly 31 ends by itself); several plays may go in one entry,
in playing order ("KH 5S go 7D"). The bot refuses a card already seen this deal, a card past 31, and a claimed Jack or
Deuce entered for anyone but the player it went to; it refuses Go while any card would fit. It
pegs 15, 25 and 31, sequences and the go. Every card is played, so the show needs no entries:
the bot counts each hand (three cards plus the deck card) from the dealer's left, dealer last,
and shows the breakdown. The match ends the moment a side reaches the target.
"""


class RefereeCostlyColoursState(RefereeState[CostlyColoursOptions]):
    """A refereed match. It knows the deck card, the cards played and the Jacks and Deuces claimed
    in a mog (``claimed``: card -> the seat now holding it), nothing else. The match is the online
    game's :data:`~games.costly_colours_deal.MATCH` and the deal's table (mog, count, show) a
    :class:`~games.costly_colours_deal.Deal`, as online."""

    entry_kinds = (
        DeckCard,
        ProposeMog,
        NoMog,
        AcceptMog,
        RefuseMog,
        MogPass,
        TakeStock,
        KeepHand,
        PlayCard,
        SayGo,
        ClaimGift,
        NoGiftClaim,
    )
    rules_summary = SUMMARY
    takes_series = True

    match = MATCH

    def __init__(
        self,
        players: Sequence[str],
        options: CostlyColoursOptions,
        seed: int,
        deck: Sequence[Card] | Sequence[Sequence[Card]] | None = None,
    ) -> None:
        self.deal = Deal.new(len(players))
        self.last_show: list[str] = []
        self.show_totals: list[tuple[Seat, int]] = []
        self.claimed: dict[Card, Seat] = {}
        # muggins: receivers of a mog card passed without a claim, and whether they have answered
        self.unclaimed_pass: dict[Seat, bool] = {}
        self.show_step = 1
        super().__init__(players, options, seed, deck)

    @classmethod
    def check_setup(cls, players: int, options: CostlyColoursOptions) -> None:
        check_setup(players, options)

    # -- what the referee knows ----------------------------------------------------------------

    def cards_left(self, seat: Seat) -> int:
        return HAND_SIZE - len(self.deal.played[seat])

    def played_by(self, card: Card) -> Seat | None:
        for s, cards in enumerate(self.deal.played):
            if card in cards:
                return s
        return None

    def known_held(self, seat: Seat) -> list[Card]:
        """Cards ``seat`` must still hold: Jacks and Deuces claimed as passed to them, not yet played."""
        return [c for c, holder in self.claimed.items() if holder == seat and c not in self.deal.played[seat]]

    def unseen(self) -> list[Card]:
        """Cards nobody has seen this deal (any of them may be in a hand or in the stock)."""
        seen = self._seen()
        return [c for c in _SORTED_PACK if c not in seen]

    def _seen(self) -> set[Card]:
        seen = {*self.claimed, *(c for cards in self.deal.played for c in cards)}
        if self.deal.deck_card is not None:
            seen.add(self.deal.deck_card)
        return seen

    def _playable(self, seat: Seat) -> list[Card]:
        room = MAX_COUNT - self.deal.total
        known = self.known_held(seat)
        if len(known) >= self.cards_left(seat):  # every card left in this hand is known
            return [c for c in sort_hand(known) if card_value(c) <= room]
        seen = self._seen()
        return [c for c in _SORTED_PACK if _VALUE[c] <= room and (c not in seen or c in known)]

    def _go_possible(self, seat: Seat) -> bool:
        """Go is believable unless the player must hold a card that fits."""
        room = MAX_COUNT - self.deal.total
        known = self.known_held(seat)
        if any(card_value(c) <= room for c in known):
            return False
        if len(known) >= self.cards_left(seat):
            return True
        return any(_VALUE[c] > room for c in self.unseen())

    # -- the entries -----------------------------------------------------------------------------

    def _awaiting(self) -> frozenset[Seat]:
        return self.deal.awaiting()

    def _legal(self, seat: Seat) -> list[Action]:
        if seat not in self.awaiting():
            return []
        phase = self.deal.phase
        if phase == PLAY:
            out: list[Action] = [_PLAYS[c] for c in self._playable(seat)]
            if self._go_possible(seat):
                out.append(_GO)
            return out
        if phase == DECK:
            return list(_DECKS)
        if phase == MOG_OFFER:
            return list(_OFFER)
        if phase == MOG_ANSWER:
            return list(_ANSWER)
        if phase == MOG_GIVE:
            return [_NO_CLAIM, *(_PASS_CLAIMS[c] for c in self._claimable())]
        if phase == STOCK_TAKE:
            return list(_STOCK)
        if phase == SHOW_CLAIM:
            return [*(_GIFT_CLAIMS[c] for c in self._gift_candidates(seat)), _NO_GIFT]
        return []

    def _claimable(self) -> list[Card]:
        """Jacks and Deuces that may be claimed in the current mog."""
        taken = {c for c, _ in self.deal.gifts.values() if c is not None}
        return [c for c in _JACKS_DEUCES if c != self.deal.deck_card and c not in self.claimed and c not in taken]

    def _gift_candidates(self, seat: Seat) -> list[Card]:
        """Muggins: the Jacks and Deuces ``seat`` played that may have reached them unclaimed."""
        return [c for c in sort_hand(self.deal.played[seat]) if is_jack_or_deuce(c) and c not in self.claimed]

    def entries(self, facts: DealFacts) -> list[tuple[Seat, Action]]:
        """The deck card, then each step of the facts; the Gos and the muggins answers the facts
        leave out are entered as the table would, on a copy, whenever the bot awaits them."""
        assert isinstance(facts, CostlyColoursFacts)
        twin = self.clone()
        out: list[tuple[Seat, Action]] = []

        def enter(seat: Seat, action: Action) -> None:
            out.append((seat, action))
            twin.apply(seat, action)

        def catch_up(step: Step | None) -> None:
            """Enter the Gos and the 'nothing to claim' due before ``step`` (``None``: the end)."""
            while not twin.is_over and twin.deal_no == self.deal_no:
                phase, seat = twin.deal.phase, twin.deal.to_act
                if phase == PLAY and not _plays_now(step, seat, twin.deal.total):
                    enter(seat, _GO)
                elif phase == SHOW_CLAIM and (step is None or step.what != "claim_gift" or step.seat != seat):
                    enter(seat, _NO_GIFT)
                else:
                    return

        enter(self.dealer, DeckCard(deck=facts.deck_card))
        for step in facts.steps:
            catch_up(step)
            enter(step.seat, _step_entry(step))
        catch_up(None)
        return out

    # -- refusals --------------------------------------------------------------------------------

    def _refusal(self, seat: Seat, action: Action) -> str | None:
        if seat not in self.awaiting():
            return None  # the base says whose turn it is
        deal = self.deal
        if isinstance(action, DeckCard):
            if deal.phase == DECK:
                return None
            assert deal.deck_card is not None
            return f"The deck card of this deal is already entered: {deal.deck_card.short}."
        if deal.phase == DECK:
            return f"First enter the deck card {self.name(self.dealer)} turned up."
        if deal.phase == PLAY:
            return self._explain_play(seat, action)
        if isinstance(action, (PlayCard, SayGo)):
            if deal.phase in (SHOW_CLAIM, SHOW):
                return "The play of this deal is over: the hands are being counted."
            return "The play has not started yet: the mog comes first."
        if deal.phase == SHOW_CLAIM:
            if isinstance(action, ClaimGift):
                return (
                    f"{action.gift.short} cannot be claimed: only a Jack or Deuce {self.name(seat)} "
                    "played this deal, and not already claimed in the mog, may have come unclaimed."
                )
            return f"Enter whether {self.name(seat)} claims a Jack or Deuce passed unclaimed in the mog."
        proposer, answerer = deal.mog_pairs[deal.mog_step]
        if deal.phase == MOG_OFFER:
            return f"First say whether {self.name(proposer)} proposes a mog to {self.name(answerer)}."
        if deal.phase == MOG_ANSWER:
            return f"{self.name(proposer)} has proposed a mog: enter whether {self.name(answerer)} accepts it."
        if deal.phase == MOG_GIVE:
            return self._explain_pass(seat, action)
        if deal.phase == STOCK_TAKE:
            return (
                f"Enter whether {self.name(seat)} takes the card under the deck card or keeps the hand."
            )
        return None

    def _explain_pass(self, seat: Seat, action: Action) -> str:
        if not isinstance(action, MogPass) or action.claim is None:
            return "Each player of the mog passes a card: enter it only if it is a Jack or Deuce to claim."
        c = action.claim
        if not is_jack_or_deuce(c):
            return f"Only a Jack or a Deuce can be claimed, and {c.short} is neither: enter the pass with nothing claimed."
        if c == self.deal.deck_card:
            return f"{c.short} is the deck card: nobody can pass it."
        for giver, (given, _) in self.deal.gifts.items():
            if given == c:
                return f"{self.name(giver)} has already claimed {c.short} in this mog."
        holder = self.claimed.get(c)
        if holder is not None:
            return f"{c.short} was claimed in an earlier mog and passed to {self.name(holder)}."
        return f"{c.short} cannot be claimed now."

    def _explain_play(self, seat: Seat, action: Action) -> str:
        name = self.name(seat)
        total = self.deal.total
        if isinstance(action, SayGo):
            room = MAX_COUNT - total
            fits = [c for c in self.known_held(seat) if card_value(c) <= room]
            if fits:
                return f"{name} holds {format_cards(fits)} (passed in the mog), which fits: it must be played."
            return (
                f"With the count at {total} any card fits under {MAX_COUNT}: "
                f"{name} must play one."
            )
        if not isinstance(action, PlayCard):
            return f"The play is under way: enter the card {name} plays, or Go."
        c = action.play
        if c == self.deal.deck_card:
            return f"{c.short} is the deck card: it is not in anyone's hand."
        who = self.played_by(c)
        if who is not None:
            return f"{c.short} has already been played this deal, by {self.name(who)}."
        holder = self.claimed.get(c)
        if holder is not None and holder != seat:
            return f"{c.short} was passed to {self.name(holder)} in the mog: only {self.name(holder)} can play it."
        known = self.known_held(seat)
        if c not in known and len(known) >= self.cards_left(seat):
            return f"{name} has only {format_cards(known)} left, passed to them in the mog."
        after = total + card_value(c)
        return (
            f"{c.short} would take the count from {total} to {after}, past {MAX_COUNT}: "
            f"enter a card that keeps it at {MAX_COUNT} or under, or Go."
        )

    # -- entries ---------------------------------------------------------------------------------

    def _enter(self, seat: Seat, action: Action) -> list[Event]:
        events: list[Event] = []
        deal = self.deal
        if isinstance(action, PlayCard):
            if deal.add_card(self, seat, action.play, events):
                self._after_card(events)
        elif isinstance(action, SayGo):
            self._go(seat, events)
        elif isinstance(action, DeckCard):
            self._turn_up(action.deck, events)
        elif isinstance(action, ProposeMog):
            deal.propose(self, seat, events)
        elif isinstance(action, NoMog):
            deal.no_mog(self, seat, events)
        elif isinstance(action, AcceptMog):
            deal.accept(self, seat, events)
        elif isinstance(action, RefuseMog):
            deal.refuse(self, seat, events)
        elif isinstance(action, MogPass):
            self._pass(seat, action.claim, events)
        elif isinstance(action, TakeStock):
            self._take_stock(seat, events)
        elif isinstance(action, KeepHand):
            deal.keep_hand(self, seat, events)
        elif isinstance(action, (ClaimGift, NoGiftClaim)):
            self._gift_claim(seat, action, events)
        else:  # pragma: no cover - apply() only passes legal actions
            raise AssertionError(f"unexpected entry {action!r}")
        return events

    def _start_deal(self) -> list[Event]:
        self.deal_no += 1
        self.deal = Deal.new(self.n)
        self.claimed = {}
        self.unclaimed_pass = {}
        self.show_step = 1
        self.deal.phase = DECK
        self.deal.to_act = self.dealer
        text = (
            f"Deal {self.deal_no}: {self.name(self.dealer)} deals three cards each; "
            "enter the card turned up next."
        )
        return [self.event("deal", text)]

    def _turn_up(self, card: Card, events: list[Event]) -> None:
        assert card.suit is not None
        events.append(
            self.event(
                "deck",
                f"{self.name(self.dealer)} turns up {card.short}: {card.suit.title.lower()} are trumps.",
            )
        )
        self.deal.turn_up(self, card, events)

    def _pass(self, seat: Seat, claim: Card | None, events: list[Event]) -> None:
        deal = self.deal
        both = deal.choose_pass(seat, claim, claim is not None, self.options.muggins)
        if claim is None:
            events.append(self.event("mog", f"{self.name(seat)} passes a card face down."))
        else:
            events.append(self.event("mog", f"{self.name(seat)} passes {claim.short} and claims it."))
        if not both or deal.peg_gifts(self, events):
            return
        a, b = deal.mog_pairs[deal.mog_step]
        for giver, receiver in ((a, b), (b, a)):
            given, _ = deal.gifts[giver]
            if given is not None:
                self.claimed[given] = receiver
            elif self.options.muggins:
                self.unclaimed_pass[receiver] = False
        events.append(self.event("mog", f"{self.name(a)} and {self.name(b)} have exchanged a card."))
        deal.mog_note = f"{self.name(a)} and {self.name(b)} exchanged a card."
        deal.gifts = {}
        deal.next_mog(self, events)

    def _take_stock(self, seat: Seat, events: list[Event]) -> None:
        self.deal.take_stock(seat)
        events.append(
            self.event("mog", f"{self.name(seat)} takes the card under the deck card and puts one back.")
        )
        self.deal.mog_note = f"{self.name(seat)} mogged with the stock."
        self.deal.next_mog(self, events)

    # -- the play --------------------------------------------------------------------------------

    def _next_to_play(self, after: Seat) -> Seat | None:
        """The next seat that may still add to this series; None ends it (at 31 nobody can)."""
        if self.deal.total >= MAX_COUNT:
            return None
        for step in range(1, self.n + 1):
            s = (after + step) % self.n
            if self.cards_left(s) and not self.deal.said_go[s]:
                return s
        return None

    def _after_card(self, events: list[Event]) -> None:
        last = self.deal.last_player
        assert last is not None
        nxt = self._next_to_play(last)
        if nxt is None:
            self._end_series(last, events)
        else:
            self.deal.to_act = nxt

    def _go(self, seat: Seat, events: list[Event]) -> None:
        self.deal.said_go[seat] = True
        events.append(self.event("go", f"{self.name(seat)} cannot play without passing 31: Go."))
        nxt = self._next_to_play(seat)
        if nxt is not None:
            self.deal.to_act = nxt
            return
        last = self.deal.last_player
        assert last is not None  # nobody says Go at a count of 0
        self._end_series(last, events)

    def _end_series(self, last: Seat, events: list[Event]) -> None:
        if self.deal.end_series(self, last, self.cards_left, events):
            self._show(events)

    # -- the show --------------------------------------------------------------------------------

    def _show(self, events: list[Event], first_step: int = 1) -> None:
        if self.deal.show(self, events, first_step, self._show_waits):
            events += self.settle(self.deal.facts())

    def _show_waits(self, seat: Seat, step: int) -> bool:
        self.deal.phase = SHOW
        if self.unclaimed_pass.get(seat) is False and self._gift_candidates(seat):
            self.deal.phase = SHOW_CLAIM
            self.deal.to_act = seat
            self.show_step = step
            return True
        return False

    def _gift_claim(self, seat: Seat, action: Action, events: list[Event]) -> None:
        self.unclaimed_pass[seat] = True
        if isinstance(action, ClaimGift):
            self.deal.unclaimed.setdefault(seat, []).append(action.gift)
            events.append(
                self.event("mog", f"{self.name(seat)} claims {action.gift.short}, passed to them unclaimed.")
            )
        else:
            events.append(self.event("mog", f"{self.name(seat)} has nothing passed unclaimed to claim."))
        self._show(events, self.show_step)

    # -- views and zones -------------------------------------------------------------------------

    def _phase_text(self) -> str:
        return {DECK: "the deck card", SHOW_CLAIM: "the show", SHOW: "the show"}.get(
            self.deal.phase, phase_text(self.deal.phase)
        )

    def due(self) -> str:
        """What the table should enter next, in a sentence."""
        deal = self.deal
        if self.is_over or deal.phase == OVER:
            return ""
        if deal.phase == DECK:
            return f"the card {self.name(self.dealer)} turned up as the deck card."
        if deal.phase == PLAY:
            return f"{self.name(deal.to_act)}'s card (count {deal.total}), or Go."
        if deal.phase == SHOW_CLAIM:
            return f"does {self.name(deal.to_act)} claim a Jack or Deuce passed to them unclaimed in the mog?"
        proposer, answerer = deal.mog_pairs[deal.mog_step]
        if deal.phase == MOG_OFFER:
            return f"does {self.name(proposer)} propose a mog to {self.name(answerer)}?"
        if deal.phase == MOG_ANSWER:
            return f"does {self.name(answerer)} accept {self.name(proposer)}'s mog?"
        if deal.phase == MOG_GIVE:
            names = " and ".join(self.name(s) for s in sorted(self.awaiting()))
            return f"the pass of {names}: a Jack or Deuce claimed, or nothing to claim."
        if deal.phase == STOCK_TAKE:
            return f"does {self.name(deal.to_act)} take the card under the deck card?"
        return ""

    def view(self, seat: Seat | None) -> RefereeCostlyColoursView:
        claimed = [f"{c.short} to {self.name(s)}" for c, s in self.claimed.items()]
        fields = self.deal.view_fields(self, seat, self._phase_text(), [self.cards_left(s) for s in range(self.n)])
        return RefereeCostlyColoursView(**fields, hand=[], claimed=claimed, due=self.due())

    def card_zones(self) -> list[Zone]:
        deal = self.deal
        zones = [Zone("deck card", [deal.deck_card] if deal.deck_card is not None else [])]
        zones += [Zone(f"played by {self.name(s)}", list(deal.played[s])) for s in range(self.n)]
        zones += [
            Zone(f"claimed in the mog, held by {self.name(s)}", self.known_held(s)) for s in range(self.n)
        ]
        zones.append(Zone("not seen", self.unseen(), frozenset()))
        return zones


def _plays_now(step: Step | None, seat: Seat, total: int) -> bool:
    """Whether ``step`` is ``seat``'s card and it fits on the count (else ``seat`` said Go)."""
    return (
        step is not None
        and step.what == "play"
        and step.seat == seat
        and step.card is not None
        and total + card_value(step.card) <= MAX_COUNT
    )


def _step_entry(step: Step) -> Action:
    """The entry a table makes for one step of a deal's facts."""
    if step.what == "play":
        assert step.card is not None
        return _PLAYS[step.card]
    if step.what == "pass":
        return _NO_CLAIM if step.card is None else _PASS_CLAIMS[step.card]
    if step.what == "claim_gift":
        assert step.card is not None
        return _GIFT_CLAIMS[step.card]
    return _CALLS[step.what]


GAME: Game[CostlyColoursOptions] = referee_mode(ONLINE, RefereeCostlyColoursState)
