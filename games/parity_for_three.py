# Over 400 lines: a whole game in one module (options, actions, view and picture, state, declaration), as games/README.md asks.
"""Parity for Three (David Parlett): three players, 33 cards with one Joker, hidden hands.

Announcements go round from the dealer's left: the Joker holder only says so, the first of the
other two names trumps and the second names the target parity. The Joker must go to the first
trick, where it wins if led and loses otherwise. Everyone scores 1 a trick (10 for none) plus 10
for a trick count of the target parity.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Protocol

from pydantic import Field, model_validator

from games.cards import JOKER, Card, Suit, piquet_pack, ranks_from, sort_hand
from games.engine import Action, BaseOptions, Event, Game, GameState, Outcome, PlayCard, Seat, Zone
from games.match import DealFacts, Match, MatchState
from games.parity import (
    PARITY_CALLS,
    TRUMP_CALLS,
    ChooseParity,
    ChooseTrump,
    Parity,
    ParityView,
    legal_follows,
    play_action,
    play_refusal,
    trump_text,
)
from games.registry import declare
from games.tricks import Trick, TrickRules

PLAYERS = 3
TRICKS_PER_DEAL = 11
POINTS_TARGET = 100
FIXED_DEALS = 9
DEFAULT_OPEN_CAP = 20
RANKS = tuple(ranks_from("AKQJT987"))
NO_ROLES: dict[Card, Card] = {}


class AnnounceJoker(Action):
    """The Joker holder's one permitted announcement."""

    kind: Literal["joker"] = "joker"

    def label(self) -> str:
        return "I hold the Joker"


# --- scoring (pure) -------------------------------------------------------------------------------


def player_score(tricks: int, target: Parity) -> int:
    """One player's score for a deal: 1 a trick, or 10 for taking none, plus 10 on target parity."""
    base = 10 if tricks == 0 else tricks
    return base + (10 if target.matches(tricks) else 0)


def deal_scores(tricks: Sequence[int], target: Parity) -> list[int]:
    """The three players' scores for a deal, from their trick counts (which add up to 11)."""
    if len(tricks) != PLAYERS or sum(tricks) != TRICKS_PER_DEAL or min(tricks) < 0:
        raise ValueError(f"Parity for Three has three players sharing {TRICKS_PER_DEAL} tricks, not {list(tricks)}.")
    return [player_score(t, target) for t in tricks]


def successes(tricks: Sequence[int], target: Parity) -> int:
    """How many players hit the target parity (odd target: 1 or 3; even target: 0 or 2)."""
    return sum(1 for t in tricks if target.matches(t))


MatchEnd = Literal["points", "nine_deals", "open"]
Ties = Literal["extra_deal", "shared"]


def match_over(
    scores: Sequence[int], deals: int, match_end: MatchEnd, ties: Ties = "extra_deal", open_cap: int = DEFAULT_OPEN_CAP
) -> bool:
    """Whether the match ends after ``deals`` deals with these totals.

    The end comes when someone reaches 100 ("points"), after nine deals ("nine_deals") or after
    ``open_cap`` deals ("open"); if the lead is then shared, ``ties="extra_deal"`` plays on deal by
    deal until one player is ahead, ``ties="shared"`` ends with a shared first place.
    """
    if match_end == "points":
        due = max(scores) >= POINTS_TARGET
    else:
        due = deals >= (FIXED_DEALS if match_end == "nine_deals" else open_cap)
    if not due:
        return False
    return ties == "shared" or list(scores).count(max(scores)) == 1


# --- options ------------------------------------------------------------------------------------


class ParityForThreeOptions(BaseOptions):
    match_end: MatchEnd = Field(
        "points",
        description="When the match ends: points (someone reaches 100), nine_deals, or open "
        "(play on deal after deal, up to open_deal_cap deals so the result can be rated).",
    )
    open_deal_cap: int = Field(
        DEFAULT_OPEN_CAP,
        ge=1,
        le=200,
        description="With match_end=open: how many deals the match lasts (plus any deal to break a tie).",
    )
    ties: Ties = Field(
        "extra_deal",
        description="A tie for first place when the match ends: extra_deal (play more deals until "
        "one player leads) or shared (the leaders share the win).",
    )

    @model_validator(mode="after")
    def _cap_only_when_open(self) -> ParityForThreeOptions:
        if self.open_deal_cap != DEFAULT_OPEN_CAP and self.match_end != "open":
            raise ValueError("open_deal_cap only applies to an open match: add match_end=open, or drop it.")
        return self


# --- the match ----------------------------------------------------------------------------------


class ParityForThreeFacts(DealFacts):
    """A deal of Parity for Three as the match scores it: the target and each player's trick count,
    with the other announcements (who held the Joker, trumps) that a table enters before them."""

    joker_holder: Seat
    trump: Suit
    target: Parity
    tricks: tuple[int, int, int]


class ParityForThreeMatch(Match[ParityForThreeFacts]):
    """Everyone scores every deal; the deal passes left; the match ends as ``match_end`` says, a
    tie for first then played off deal by deal or shared as ``ties`` says."""

    def score(self, state: MatchState, facts: ParityForThreeFacts) -> list[Event]:
        gained = deal_scores(facts.tricks, facts.target)
        for seat, points in enumerate(gained):
            state.scores[seat] += points
        parts = ", ".join(
            f"{state.name(s)} {facts.tricks[s]} trick{'s' * (facts.tricks[s] != 1)} +{gained[s]}" for s in range(PLAYERS)
        )
        events = [
            state.event(
                "deal_score",
                f"Deal {state.deal_no} ({facts.target.value} target): {parts}. "
                f"Totals: " + ", ".join(f"{state.name(s)} {state.scores[s]}" for s in range(PLAYERS)) + ".",
            )
        ]
        opts: ParityForThreeOptions = state.options
        if match_over(state.scores, state.deal_no, opts.match_end, opts.ties, opts.open_deal_cap):
            events.append(state.finish(self.outcome(state)))
            return events
        if match_over(state.scores, state.deal_no, opts.match_end, "shared", opts.open_deal_cap):
            events.append(state.event("tie", "First place is tied: an extra deal decides it."))
        state.dealer = (state.dealer + 1) % PLAYERS
        return events

    @staticmethod
    def outcome(state: MatchState) -> Outcome:
        notes = []
        if state.options.match_end == "points":
            notes.append(f"Someone reached {POINTS_TARGET} after {state.deal_no} deals.")
        else:
            notes.append(f"The match ended after {state.deal_no} deals.")
        best = max(state.scores)
        if state.scores.count(best) > 1:
            notes.append(f"First place is shared on {best} points.")
        return Outcome.from_scores(state.scores, notes=notes)


MATCH = ParityForThreeMatch()


# --- what both modes say ----------------------------------------------------------------------------

NO_NO_TRUMP = "Parity for Three has no no-trump call: name a suit."


def speaker_after(dealer: Seat, spoken: int) -> Seat:
    """Who speaks once ``spoken`` players have: the announcements go round from the dealer's left."""
    return (dealer + 1 + spoken) % PLAYERS


def deal_text(deal_no: int, dealer: str) -> str:
    """``Deal 3: Ann deals 11 cards each.``"""
    return f"Deal {deal_no}: {dealer} deals {TRICKS_PER_DEAL} cards each."


def announcement_text(name: str, action: Action) -> str:
    """``Bob holds the Joker.``, ``Cat calls Hearts ♥ trumps.``, ``Ann sets the target: ...``"""
    if isinstance(action, AnnounceJoker):
        return f"{name} holds the Joker."
    if isinstance(action, ChooseTrump):
        assert action.suit is not None
        return f"{name} calls {trump_text(action.suit)}."
    assert isinstance(action, ChooseParity)
    return f"{name} sets the target: an {action.parity.value} number of tricks."


class Announcing(Protocol):
    """The announcement fields both Parity for Three states keep (online and refereed)."""

    speakers_done: int
    joker_announced: bool
    trump: Suit | None
    target: Parity | None

    def name(self, seat: Seat) -> str: ...

    def event(self, kind: str, text: str, to: Seat | None = None) -> Event: ...


def announce(state: Announcing, seat: Seat, action: Action) -> Event:
    """Note ``seat``'s announcement (the Joker held, trumps, the target) on ``state``, one speaker
    more, and say it to the table; the caller goes on to the play once all three have spoken."""
    if isinstance(action, AnnounceJoker):
        state.joker_announced = True
    elif isinstance(action, ChooseTrump):
        state.trump = action.suit
    else:
        assert isinstance(action, ChooseParity)
        state.target = action.parity
    state.speakers_done += 1
    return state.event("announce", announcement_text(state.name(seat), action))


def match_text(options: ParityForThreeOptions, deal_no: int) -> str:
    """How far the match has come: ``First to 100 points wins.`` or ``Deal 4 of 9.``"""
    if options.match_end == "points":
        return f"First to {POINTS_TARGET} points wins."
    total = FIXED_DEALS if options.match_end == "nine_deals" else options.open_deal_cap
    return f"Deal {deal_no} of {total}" + (" (extra deal)" if deal_no > total else "") + "."


# --- the state ----------------------------------------------------------------------------------

Phase = Literal["announce", "play", "over"]


class ParityForThreeView(ParityView):
    joker_holder: Seat | None = None
    speaker: Seat | None = None

    def table_lines(self) -> list[str]:
        lines = []
        if self.joker_holder is not None:
            lines.append(f"{self.players[self.joker_holder]} holds the Joker")
        return lines + super().table_lines()

    def facts(self) -> list[tuple[str, str]]:
        joker = [("Joker", self.players[self.joker_holder])] if self.joker_holder is not None else []
        return [*super().facts(), *joker]


class ParityForThreeState(GameState[ParityForThreeOptions]):
    dealer: Seat

    def __init__(
        self,
        players: Sequence[str],
        options: ParityForThreeOptions,
        seed: int,
        deck: Sequence[Card] | Sequence[Sequence[Card]] | None = None,
    ) -> None:
        super().__init__(players, options, seed, deck)
        self.pack = piquet_pack(jokers=[JOKER])
        MATCH.begin(self)
        self.hands: list[list[Card]] = [[] for _ in range(PLAYERS)]
        self.taken: list[list[Card]] = [[] for _ in range(PLAYERS)]
        self.tricks_won = [0] * PLAYERS
        self.phase: Phase = "announce"
        self.speakers_done = 0
        self.joker_holder: Seat = 0
        self.joker_announced = False
        self.trump: Suit | None = None
        self.target: Parity | None = None
        self.rules: TrickRules | None = None
        self.trick = Trick(leader=0)
        self.last_trick: Trick | None = None
        self.log.extend(self._start_deal())

    # -- deal flow ----------------------------------------------------------------------------

    @property
    def left_of_dealer(self) -> Seat:
        return (self.dealer + 1) % PLAYERS

    @property
    def speaker(self) -> Seat:
        return speaker_after(self.dealer, self.speakers_done)

    def _start_deal(self) -> list[Event]:
        self.deal_no += 1
        order = self.next_pack_order(self.pack)
        first = self.left_of_dealer
        hands: list[list[Card]] = [[] for _ in range(PLAYERS)]
        for i, c in enumerate(order):  # one at a time, from the dealer's left
            hands[(first + i) % PLAYERS].append(c)
        self.hands = [sort_hand(h) for h in hands]
        self.joker_holder = next(s for s in range(PLAYERS) if JOKER in self.hands[s])
        self.joker_announced = False
        self.taken = [[] for _ in range(PLAYERS)]
        self.tricks_won = [0] * PLAYERS
        self.phase = "announce"
        self.speakers_done = 0
        self.trump = None
        self.target = None
        self.rules = None
        self.trick = Trick(leader=first)
        self.last_trick = None
        return [self.event("deal", f"{deal_text(self.deal_no, self.name(self.dealer))} {self.name(first)} speaks first.")]

    def _end_deal(self) -> list[Event]:
        assert self.trump is not None and self.target is not None
        won = self.tricks_won
        facts = ParityForThreeFacts(
            joker_holder=self.joker_holder, trump=self.trump, target=self.target, tricks=(won[0], won[1], won[2])
        )
        events = MATCH.settle(self, facts)
        if self.is_over:
            self.phase = "over"
            return events
        return events + self._start_deal()

    # -- the protocol ---------------------------------------------------------------------------

    def awaiting(self) -> frozenset[Seat]:
        if self.phase == "announce":
            return frozenset((self.speaker,))
        if self.phase == "play":
            return frozenset((self.trick.next_seat(PLAYERS),))
        return frozenset()

    @property
    def first_trick(self) -> bool:
        return sum(self.tricks_won) == 0

    def playable(self, seat: Seat) -> list[Card]:
        """The cards ``seat`` may play now: only the Joker for its holder on trick 1."""
        hand = self.hands[seat]
        if self.first_trick and JOKER in hand:
            return [JOKER]
        assert self.rules is not None
        return legal_follows(self.rules, hand, self.trick.led, NO_ROLES)

    def legal_actions(self, seat: Seat) -> list[Action]:
        if seat not in self.awaiting():
            return []
        if self.phase == "announce":
            if seat == self.joker_holder:
                return [AnnounceJoker()]
            return list(TRUMP_CALLS) if self.trump is None else list(PARITY_CALLS)
        return [play_action(c) for c in self.playable(seat)]

    def explain_illegal(self, seat: Seat, action: Action) -> str | None:
        if seat not in self.awaiting():
            return None  # the base says whose turn it is
        if self.phase == "announce":
            if seat == self.joker_holder:
                return "You hold the Joker, so your only announcement is to say so."
            if isinstance(action, AnnounceJoker):
                return "You do not hold the Joker."
            if isinstance(action, ChooseTrump):
                if self.trump is not None:
                    return "Trumps are already named: your announcement is the target parity, odd or even."
                if action.suit is None:
                    return NO_NO_TRUMP
            if isinstance(action, ChooseParity):
                return "The first of you two to speak names trumps: the target parity comes second."
            if isinstance(action, PlayCard):
                return "Cards are played once the announcements are done."
            return None
        if isinstance(action, PlayCard):
            hand = self.hands[seat]
            if self.first_trick and JOKER in hand and action.play in hand:
                return "You hold the Joker: it must be played to the first trick."
            return play_refusal(self.rules, hand, self.trick.led, action.play, NO_ROLES)
        return "The announcements are over for this deal."

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        if isinstance(action, PlayCard):
            return self._play(seat, action.play)
        events = [announce(self, seat, action)]
        if self.speakers_done == PLAYERS:
            self.phase = "play"
            # the Joker is suitless: led it wins, played later it loses
            self.rules = TrickRules(RANKS, self.trump, jokers_are_trumps=False)
            events.append(self.event("lead", f"{self.name(self.left_of_dealer)} leads to the first trick."))
        return events

    def _play(self, seat: Seat, card: Card) -> list[Event]:
        assert self.rules is not None
        self.hands[seat].remove(card)
        self.trick.plays.append((seat, card))
        events = [self.event("play", f"{self.name(seat)} plays {card.short}.")]
        if not self.trick.is_complete(PLAYERS):
            return events
        winner = self.trick.winning(self.rules)
        assert winner is not None
        self.tricks_won[winner] += 1
        self.taken[winner].extend(self.trick.cards)
        self.last_trick = self.trick
        self.trick = Trick(leader=winner)
        events.append(
            self.event("trick", f"{self.name(winner)} wins the trick ({self.tricks_won[winner]} so far).")
        )
        if sum(self.tricks_won) == TRICKS_PER_DEAL:
            events.extend(self._end_deal())
        return events

    # -- what players see ---------------------------------------------------------------------

    def phase_text(self) -> str:
        if self.phase == "announce":
            s = self.speaker
            if s == self.joker_holder:
                what = "announce"
            elif self.trump is None:
                what = "name trumps"
            else:
                what = "name the target parity"
            return f"announcements: {self.name(s)} to {what}"
        if self.phase == "play":
            return f"trick {sum(self.tricks_won) + 1} of {TRICKS_PER_DEAL}"
        return "match over"

    def view(self, seat: Seat | None) -> ParityForThreeView:
        last = self.last_trick
        return ParityForThreeView(
            **self.base_view(seat),
            phase=self.phase_text(),
            hand=list(self.hands[seat]) if seat is not None else [],
            trump=self.trump,
            target=self.target,
            trick=list(self.trick.plays),
            winning=self.trick.winning(self.rules),
            tricks_won=list(self.tricks_won),
            tricks_per_deal=TRICKS_PER_DEAL,
            last_trick=list(last.plays) if last else [],
            last_winner=self.trick.leader if last else None,
            joker_holder=self.joker_holder if self.joker_announced else None,
            speaker=self.speaker if self.phase == "announce" else None,
            notes=[match_text(self.options, self.deal_no)],
        )

    def public_knowledge(self) -> list[Card]:
        """Once announced, everyone knows where the Joker is until it is played."""
        if self.joker_announced and JOKER in self.hands[self.joker_holder]:
            return [JOKER]
        return []

    def card_zones(self) -> list[Zone]:
        zones = [Zone(f"hand:{s}", self.hands[s], frozenset((s,))) for s in range(PLAYERS)]
        zones.append(Zone("trick", self.trick.cards))
        zones.extend(Zone(f"taken:{s}", self.taken[s]) for s in range(PLAYERS))
        return zones


SUMMARY = """
Three players, each for themselves, with 33 cards: A K Q J 10 9 8 7 in each suit and one Joker.
Ranks run Ace high to Seven low. The first dealer is drawn at random (or set with first_dealer)
and the deal passes to the left after every deal; 11 cards each are dealt one at a time.

Announcements go once round the table from the dealer's left. Whoever holds the Joker may only
announce that. Of the other two, whoever speaks first names the trump suit and the other names the
target parity: an odd or an even number of tricks (none counts as even).

The player at the dealer's left leads. On the first trick the Joker holder must play the Joker,
even when able to follow suit. A led Joker wins the trick and the others may play anything; a
Joker played second or third loses, and the trick goes to the better of the other two cards. From
then on: follow suit if you can, otherwise play anything; the highest trump wins, else the highest
card of the suit led; the winner leads next.

After 11 tricks everyone scores 1 per trick, or 10 for taking none, plus 10 for a trick count of
the target parity. The highest total wins. Options: match_end=points (default: the match ends
after the deal in which someone reaches 100), nine_deals (nine deals), or open ("till the cows come home": deal
after deal, up to open_deal_cap deals, default 20, so that the match ends and can be rated).
A tie for first at the end is settled by ties=extra_deal (default: further deals until one player
leads) or ties=shared (the leaders share first place).
"""

GAME: Game[ParityForThreeOptions] = declare(
    Game(
        id="parity_for_three",
        title="Parity for Three",
        min_players=3,
        max_players=3,
        options=ParityForThreeOptions,
        state=ParityForThreeState,
        actions=[AnnounceJoker, ChooseTrump, ChooseParity, PlayCard],
        summary=SUMMARY,
    ),
    referee="games.referee.parity_for_three:RefereeParityForThreeState",
    bots={
        "easy": "games.players.parity_for_three:EASY",
        "strong": "games.players.parity_for_three:STRONG",
    },
)
