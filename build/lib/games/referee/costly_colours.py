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
    HAND_SIZE,
    MOG_ANSWER,
    MOG_GIVE,
    MOG_OFFER,
    OVER,
    PHASE_TEXT,
    PLAY,
    STOCK_TAKE,
    AcceptMog,
    CostlyColoursMatch,
    CostlyColoursOptions,
    CostlyColoursView,
    KeepHand,
    NoMog,
    ProposeMog,
    RefuseMog,
    TakeStock,
)
from games.costly_colours_scoring import MAX_COUNT, card_value, is_jack_or_deuce
from games.engine import Action, Event, Game, PlayCard, Seat, Zone
from games.referee import dealer_line, referee_mode

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


class RefereeCostlyColoursState(CostlyColoursMatch):
    """A refereed match. It knows the deck card, the cards played and the Jacks and Deuces claimed
    in a mog (``claimed``: card -> the seat now holding it), nothing else."""

    def __init__(
        self,
        players: Sequence[str],
        options: CostlyColoursOptions,
        seed: int,
        deck: Sequence[Card] | Sequence[Sequence[Card]] | None = None,
    ) -> None:
        super().__init__(players, options, seed, deck)
        self.claimed: dict[Card, Seat] = {}
        # muggins: receivers of a mog card passed without a claim, and whether they have answered
        self.unclaimed_pass: dict[Seat, bool] = {}
        self.show_step = 1
        self.log.extend(self._start_deal())

    # -- what the referee knows ----------------------------------------------------------------

    def cards_left(self, seat: Seat) -> int:
        return HAND_SIZE - len(self.played[seat])

    def played_by(self, card: Card) -> Seat | None:
        for s, cards in enumerate(self.played):
            if card in cards:
                return s
        return None

    def known_held(self, seat: Seat) -> list[Card]:
        """Cards ``seat`` must still hold: Jacks and Deuces claimed as passed to them, not yet played."""
        return [c for c, holder in self.claimed.items() if holder == seat and c not in self.played[seat]]

    def unseen(self) -> list[Card]:
        """Cards nobody has seen this deal (any of them may be in a hand or in the stock)."""
        seen = self._seen()
        return [c for c in _SORTED_PACK if c not in seen]

    def _seen(self) -> set[Card]:
        seen = {*self.claimed, *(c for cards in self.played for c in cards)}
        if self.deck_card is not None:
            seen.add(self.deck_card)
        return seen

    def _playable(self, seat: Seat) -> list[Card]:
        room = MAX_COUNT - self.total
        known = self.known_held(seat)
        if len(known) >= self.cards_left(seat):  # every card left in this hand is known
            return [c for c in sort_hand(known) if card_value(c) <= room]
        seen = self._seen()
        return [c for c in _SORTED_PACK if _VALUE[c] <= room and (c not in seen or c in known)]

    def _go_possible(self, seat: Seat) -> bool:
        """Go is believable unless the player must hold a card that fits."""
        room = MAX_COUNT - self.total
        known = self.known_held(seat)
        if any(card_value(c) <= room for c in known):
            return False
        if len(known) >= self.cards_left(seat):
            return True
        return any(_VALUE[c] > room for c in self.unseen())

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
        if self.phase == PLAY:
            out: list[Action] = [_PLAYS[c] for c in self._playable(seat)]
            if self._go_possible(seat):
                out.append(_GO)
            return out
        if self.phase == DECK:
            return list(_DECKS)
        if self.phase == MOG_OFFER:
            return list(_OFFER)
        if self.phase == MOG_ANSWER:
            return list(_ANSWER)
        if self.phase == MOG_GIVE:
            return [_NO_CLAIM, *(_PASS_CLAIMS[c] for c in self._claimable())]
        if self.phase == STOCK_TAKE:
            return list(_STOCK)
        if self.phase == SHOW_CLAIM:
            return [*(_GIFT_CLAIMS[c] for c in self._gift_candidates(seat)), _NO_GIFT]
        return []

    def _claimable(self) -> list[Card]:
        """Jacks and Deuces that may be claimed in the current mog."""
        taken = {c for c, _ in self.gifts.values() if c is not None}
        return [c for c in _JACKS_DEUCES if c != self.deck_card and c not in self.claimed and c not in taken]

    def _gift_candidates(self, seat: Seat) -> list[Card]:
        """Muggins: the Jacks and Deuces ``seat`` played that may have reached them unclaimed."""
        return [c for c in sort_hand(self.played[seat]) if is_jack_or_deuce(c) and c not in self.claimed]

    # -- refusals --------------------------------------------------------------------------------

    def explain_illegal(self, seat: Seat, action: Action) -> str | None:
        if seat not in self.awaiting():
            return None  # the base says whose turn it is
        if isinstance(action, DeckCard):
            if self.phase == DECK:
                return None
            assert self.deck_card is not None
            return f"The deck card of this deal is already entered: {self.deck_card.short}."
        if self.phase == DECK:
            return f"First enter the deck card {self.name(self.dealer)} turned up."
        if self.phase == PLAY:
            return self._explain_play(seat, action)
        if isinstance(action, (PlayCard, SayGo)):
            if self.phase in (SHOW_CLAIM, SHOW):
                return "The play of this deal is over: the hands are being counted."
            return "The play has not started yet: the mog comes first."
        if self.phase == SHOW_CLAIM:
            if isinstance(action, ClaimGift):
                return (
                    f"{action.gift.short} cannot be claimed: only a Jack or Deuce {self.name(seat)} "
                    "played this deal, and not already claimed in the mog, may have come unclaimed."
                )
            return f"Enter whether {self.name(seat)} claims a Jack or Deuce passed unclaimed in the mog."
        proposer, answerer = self.mog_pairs[self.mog_step]
        if self.phase == MOG_OFFER:
            return f"First say whether {self.name(proposer)} proposes a mog to {self.name(answerer)}."
        if self.phase == MOG_ANSWER:
            return f"{self.name(proposer)} has proposed a mog: enter whether {self.name(answerer)} accepts it."
        if self.phase == MOG_GIVE:
            return self._explain_pass(seat, action)
        if self.phase == STOCK_TAKE:
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
        if c == self.deck_card:
            return f"{c.short} is the deck card: nobody can pass it."
        for giver, (given, _) in self.gifts.items():
            if given == c:
                return f"{self.name(giver)} has already claimed {c.short} in this mog."
        holder = self.claimed.get(c)
        if holder is not None:
            return f"{c.short} was claimed in an earlier mog and passed to {self.name(holder)}."
        return f"{c.short} cannot be claimed now."

    def _explain_play(self, seat: Seat, action: Action) -> str:
        name = self.name(seat)
        if isinstance(action, SayGo):
            room = MAX_COUNT - self.total
            fits = [c for c in self.known_held(seat) if card_value(c) <= room]
            if fits:
                return f"{name} holds {format_cards(fits)} (passed in the mog), which fits: it must be played."
            return (
                f"With the count at {self.total} any card fits under {MAX_COUNT}: "
                f"{name} must play one."
            )
        if not isinstance(action, PlayCard):
            return f"The play is under way: enter the card {name} plays, or Go."
        c = action.play
        if c == self.deck_card:
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
        after = self.total + card_value(c)
        return (
            f"{c.short} would take the count from {self.total} to {after}, past {MAX_COUNT}: "
            f"enter a card that keeps it at {MAX_COUNT} or under, or Go."
        )

    # -- entries ---------------------------------------------------------------------------------

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        events: list[Event] = []
        if isinstance(action, PlayCard):
            self._add_card(seat, action.play, events)
        elif isinstance(action, SayGo):
            self._go(seat, events)
        elif isinstance(action, DeckCard):
            self._turn_up(action.deck, events)
        elif isinstance(action, ProposeMog):
            self._propose(seat, events)
        elif isinstance(action, NoMog):
            self._no_mog(seat, events)
        elif isinstance(action, AcceptMog):
            self._accept(seat, events)
        elif isinstance(action, RefuseMog):
            self._refuse(seat, events)
        elif isinstance(action, MogPass):
            self._pass(seat, action.claim, events)
        elif isinstance(action, TakeStock):
            self._take_stock(seat, events)
        elif isinstance(action, KeepHand):
            self._keep_hand(seat, events)
        elif isinstance(action, (ClaimGift, NoGiftClaim)):
            self._gift_claim(seat, action, events)
        else:  # pragma: no cover - apply() only passes legal actions
            raise AssertionError(f"unexpected entry {action!r}")
        return events

    def _start_deal(self) -> list[Event]:
        self._reset_deal()
        self.deck_card = None
        self.claimed = {}
        self.unclaimed_pass = {}
        self.show_step = 1
        self.phase = DECK
        self.to_act = self.dealer
        text = (
            f"Deal {self.deal_no}: {self.name(self.dealer)} deals three cards each; "
            "enter the card turned up next."
        )
        return [self.event("deal", text)]

    def _turn_up(self, card: Card, events: list[Event]) -> None:
        self.deck_card = card
        events.append(
            self.event(
                "deck",
                f"{self.name(self.dealer)} turns up {card.short}: {self.trump.title.lower()} are trumps.",
            )
        )
        self._after_turn_up(events)

    def _pass(self, seat: Seat, claim: Card | None, events: list[Event]) -> None:
        self.gifts[seat] = (claim, claim is not None)
        if claim is None:
            events.append(self.event("mog", f"{self.name(seat)} passes a card face down."))
        else:
            events.append(self.event("mog", f"{self.name(seat)} passes {claim.short} and claims it."))
        pair = self.mog_pairs[self.mog_step]
        if any(s not in self.gifts for s in pair):
            return
        if self._peg_gifts(events):
            return
        a, b = pair
        for giver, receiver in ((a, b), (b, a)):
            given, _ = self.gifts[giver]
            if given is not None:
                self.claimed[given] = receiver
            elif self.options.muggins:
                self.unclaimed_pass[receiver] = False
        events.append(self.event("mog", f"{self.name(a)} and {self.name(b)} have exchanged a card."))
        self.mog_note = f"{self.name(a)} and {self.name(b)} exchanged a card."
        self.gifts = {}
        self._next_mog(events)

    def _take_stock(self, seat: Seat, events: list[Event]) -> None:
        events.append(
            self.event("mog", f"{self.name(seat)} takes the card under the deck card and puts one back.")
        )
        self.mog_note = f"{self.name(seat)} mogged with the stock."
        self._next_mog(events)

    # -- the play --------------------------------------------------------------------------------

    def _next_to_play(self, after: Seat) -> Seat | None:
        """The next seat that may still add to this series; None ends it (at 31 nobody can)."""
        if self.total >= MAX_COUNT:
            return None
        for step in range(1, self.n + 1):
            s = (after + step) % self.n
            if self.cards_left(s) and not self.said_go[s]:
                return s
        return None

    def _after_card(self, events: list[Event]) -> None:
        last = self.last_player
        assert last is not None
        nxt = self._next_to_play(last)
        if nxt is None:
            self._end_series(last, events)
        else:
            self.to_act = nxt

    def _go(self, seat: Seat, events: list[Event]) -> None:
        self.said_go[seat] = True
        events.append(self.event("go", f"{self.name(seat)} cannot play without passing 31: Go."))
        nxt = self._next_to_play(seat)
        if nxt is not None:
            self.to_act = nxt
            return
        last = self.last_player
        assert last is not None  # nobody says Go at a count of 0
        self._end_series(last, events)

    # -- the show --------------------------------------------------------------------------------

    def _show_waits(self, seat: Seat, step: int) -> bool:
        self.phase = SHOW
        if self.unclaimed_pass.get(seat) is False and self._gift_candidates(seat):
            self.phase = SHOW_CLAIM
            self.to_act = seat
            self.show_step = step
            return True
        return False

    def _gift_claim(self, seat: Seat, action: Action, events: list[Event]) -> None:
        self.unclaimed_pass[seat] = True
        if isinstance(action, ClaimGift):
            self.unclaimed.setdefault(seat, []).append(action.gift)
            events.append(
                self.event("mog", f"{self.name(seat)} claims {action.gift.short}, passed to them unclaimed.")
            )
        else:
            events.append(self.event("mog", f"{self.name(seat)} has nothing passed unclaimed to claim."))
        self._show(events, self.show_step)

    # -- views and zones -------------------------------------------------------------------------

    def _phase_text(self) -> str:
        return {DECK: "the deck card", SHOW_CLAIM: "the show", SHOW: "the show"}.get(
            self.phase, PHASE_TEXT.get(self.phase, "mogging")
        )

    def due(self) -> str:
        """What the table should enter next, in a sentence."""
        if self.is_over or self.phase == OVER:
            return ""
        if self.phase == DECK:
            return f"the card {self.name(self.dealer)} turned up as the deck card."
        if self.phase == PLAY:
            return f"{self.name(self.to_act)}'s card (count {self.total}), or Go."
        if self.phase == SHOW_CLAIM:
            return f"does {self.name(self.to_act)} claim a Jack or Deuce passed to them unclaimed in the mog?"
        proposer, answerer = self.mog_pairs[self.mog_step]
        if self.phase == MOG_OFFER:
            return f"does {self.name(proposer)} propose a mog to {self.name(answerer)}?"
        if self.phase == MOG_ANSWER:
            return f"does {self.name(answerer)} accept {self.name(proposer)}'s mog?"
        if self.phase == MOG_GIVE:
            names = " and ".join(self.name(s) for s in sorted(self.awaiting()))
            return f"the pass of {names}: a Jack or Deuce claimed, or nothing to claim."
        if self.phase == STOCK_TAKE:
            return f"does {self.name(self.to_act)} take the card under the deck card?"
        return ""

    def view(self, seat: Seat | None) -> RefereeCostlyColoursView:
        claimed = [f"{c.short} to {self.name(s)}" for c, s in self.claimed.items()]
        return RefereeCostlyColoursView(**self.view_fields(seat), hand=[], claimed=claimed, due=self.due())

    def card_zones(self) -> list[Zone]:
        zones = [Zone("deck card", [self.deck_card] if self.deck_card is not None else [])]
        zones += [Zone(f"played by {self.name(s)}", list(self.played[s])) for s in range(self.n)]
        zones += [
            Zone(f"claimed in the mog, held by {self.name(s)}", self.known_held(s)) for s in range(self.n)
        ]
        zones.append(Zone("not seen", self.unseen(), frozenset()))
        return zones


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

GAME: Game[CostlyColoursOptions] = referee_mode(
    ONLINE,
    state=RefereeCostlyColoursState,
    actions=[
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
    ],
    summary=SUMMARY,
    series=True,
)
