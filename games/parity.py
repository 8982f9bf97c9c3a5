# Over 400 lines: a whole game in one module (options, actions, view and picture, state, declaration), as games/README.md asks.
"""Parity (David Parlett): two players, perfect information, aim for an odd or even trick count.

The non-dealer names trumps (or no-trump, when the host allows it), the dealer names the target
parity, and fifteen tricks are played with both hands open. Only the player whose trick count has
the target parity scores. The first to 100 at the end of a deal wins; a loser below 67 is lurched,
below 50 double-lurched.

The pieces Parity for Three shares (the trump and parity calls, the trick view, the parity helper)
live here too.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Literal

from pydantic import Field, model_validator

from games.cards import (
    BLACK_JOKER,
    JOKER,
    RED_JOKER,
    SUITS,
    Card,
    Colour,
    Rank,
    Suit,
    format_cards,
    make_pack,
    ranks_from,
    sort_hand,
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
    View,
    Zone,
)
from games.layout import (
    Area,
    Facts,
    Layout,
    Notes,
    Row,
    dealer_facts,
    finish,
    own_hand,
    played_row,
    spots,
    standard_scores,
)
from games.match import DealFacts, Match, MatchState
from games.registry import declare
from games.tricks import Trick, TrickRules

GAME_TARGET = 100
LURCH_BELOW = 67
DOUBLE_LURCH_BELOW = 50
TRICKS_PER_DEAL = 15

SEVEN_RED = Card(Rank.SEVEN, Suit.HEARTS)
SEVEN_BLACK = Card(Rank.SEVEN, Suit.SPADES)
"""The Sevens that stand in for the red and black Jokers with ``sevens_as_jokers``."""


# --- calls shared by both games -------------------------------------------------------------------


class Parity(StrEnum):
    ODD = "odd"
    EVEN = "even"

    @classmethod
    def of(cls, count: int) -> Parity:
        """The parity of a trick count; zero is even."""
        return cls.ODD if count % 2 else cls.EVEN

    def matches(self, count: int) -> bool:
        return Parity.of(count) is self

    @property
    def word(self) -> str:
        """``Odd`` or ``Even``, for buttons."""
        return self.value.capitalize()


class ChooseTrump(Action):
    """Name the trump suit; ``suit=None`` calls no-trump (two-player option only)."""

    kind: Literal["trump"] = "trump"
    suit: Suit | None = None

    def label(self) -> str:
        return trump_text(self.suit) if self.suit is not None else "No trumps"


class ChooseParity(Action):
    """Name the target parity: odd or even."""

    kind: Literal["parity"] = "parity"
    parity: Parity

    def label(self) -> str:
        return self.parity.word


def trump_text(suit: Suit) -> str:
    """``Hearts ♥ trumps``."""
    return f"{suit.title} {suit.symbol} trumps"


TRUMP_CALLS: tuple[ChooseTrump, ...] = tuple(ChooseTrump(suit=s) for s in SUITS)
PARITY_CALLS: tuple[ChooseParity, ...] = (ChooseParity(parity=Parity.ODD), ChooseParity(parity=Parity.EVEN))


# --- scoring (pure) -------------------------------------------------------------------------------


def deal_score(tricks: int, target: Parity, no_trump: bool = False) -> int:
    """What one player of Parity for two scores for a deal: 10 (20 after a no-trump call)
    plus the tricks won if the count has the target parity, otherwise nothing."""
    if not target.matches(tricks):
        return 0
    return (20 if no_trump else 10) + tricks


def deal_scores(tricks: Sequence[int], target: Parity, no_trump: bool = False) -> list[int]:
    """Both players' scores for a deal, from their trick counts (which add up to 15)."""
    if len(tricks) != 2 or sum(tricks) != TRICKS_PER_DEAL or min(tricks) < 0:
        raise ValueError(f"Parity has two players sharing {TRICKS_PER_DEAL} tricks, not {list(tricks)}.")
    return [deal_score(t, target, no_trump) for t in tricks]


LurchStatus = Literal["normal", "lurched", "double-lurched"]


def lurch_status(loser_score: int) -> LurchStatus:
    """How badly the loser lost: lurched below 67, double-lurched below 50."""
    if loser_score < DOUBLE_LURCH_BELOW:
        return "double-lurched"
    if loser_score < LURCH_BELOW:
        return "lurched"
    return "normal"


def game_value(loser_score: int) -> int:
    """The stake of a finished game: 1 for a plain win, 2 for a lurch, 3 for a double lurch."""
    return {"normal": 1, "lurched": 2, "double-lurched": 3}[lurch_status(loser_score)]


def match_winner(scores: Sequence[int], target: int = GAME_TARGET) -> Seat | None:
    """The winner once a deal ends, or ``None`` while nobody has reached the target."""
    best = max(scores)
    if best < target:
        return None
    return scores.index(best)


# --- the match ---------------------------------------------------------------------------------------


class ParityFacts(DealFacts):
    """A deal of Parity as the match scores it: the calls and each player's trick count."""

    trump: Suit | None
    target: Parity
    tricks: tuple[int, int]

    @property
    def no_trump(self) -> bool:
        return self.trump is None


class ParityMatch(Match[ParityFacts]):
    """Only the player whose count has the target parity scores; the deal alternates; the match
    ends after the deal in which someone reaches 100, and the loser's lurch is reported."""

    def score(self, state: MatchState, facts: ParityFacts) -> list[Event]:
        gained = deal_scores(facts.tricks, facts.target, facts.no_trump)
        for seat, points in enumerate(gained):
            state.scores[seat] += points
        scorer = 0 if gained[0] else 1
        counts = " and ".join(f"{state.name(s)} {facts.tricks[s]}" for s in (0, 1))
        events = [
            state.event(
                "deal_score",
                f"Tricks: {counts}. The target was {facts.target.value}, so {state.name(scorer)} "
                f"scores {gained[scorer]} (now {state.scores[scorer]}).",
            )
        ]
        winner = match_winner(state.scores)
        if winner is not None:
            events.append(state.finish(self.outcome(state, winner)))
        else:
            state.dealer = 1 - state.dealer
        return events

    @staticmethod
    def outcome(state: MatchState, winner: Seat) -> Outcome:
        loser = 1 - winner
        low = state.scores[loser]
        status = lurch_status(low)
        notes = [f"{state.name(winner)} wins {state.scores[winner]} to {low}."]
        if status == "double-lurched":
            notes.append(f"{state.name(loser)} is double-lurched (below {DOUBLE_LURCH_BELOW}).")
        elif status == "lurched":
            notes.append(f"{state.name(loser)} is lurched (below {LURCH_BELOW}).")
        else:
            notes.append(f"{state.name(loser)} reached {LURCH_BELOW}: no lurch.")
        if state.options.lurch_values:
            value = game_value(low)
            notes.append(f"Stake: the game counts {value} ({'single' if value == 1 else status}).")
        return Outcome.from_scores(state.scores, notes=notes)


MATCH = ParityMatch()


def call_refusal(phase: str, action: Action) -> str | None:
    """Why a trump or parity call is out of place in ``phase`` (online and refereed alike)."""
    if isinstance(action, ChooseTrump):
        if phase != "trump":
            return "Trumps have already been named for this deal."
        if action.suit is None:
            return "No-trump is not allowed at this table: the host left the no_trump option off."
    if isinstance(action, ChooseParity) and phase != "parity":
        if phase == "trump":
            return "Trumps must be named before the target parity."
        return "The target parity is already set for this deal."
    return None


def trump_calls(options: ParityOptions) -> list[Action]:
    """The trump calls the non-dealer may make: a suit, or no-trump when the host allows it."""
    calls: list[Action] = list(TRUMP_CALLS)
    if options.no_trump:
        calls.append(ChooseTrump(suit=None))
    return calls


def trump_call_text(name: str, suit: Suit | None) -> str:
    """``Ann calls Hearts ♥ trumps.``"""
    called = trump_text(suit) if suit is not None else "no trumps (worth 20 + tricks)"
    return f"{name} calls {called}."


def calls_phase_text(phase: str, dealer: str, non_dealer: str) -> str | None:
    """What the table waits for during the calls, or ``None`` after them."""
    if phase == "trump":
        return f"{non_dealer} to name trumps"
    if phase == "parity":
        return f"{dealer} to name the target parity"
    if phase == "over":
        return "match over"
    return None


# --- trick rules ------------------------------------------------------------------------------------

RanksChoice = Literal["AKQJ1052", "AKQJ1098"]
_RANK_CODES: dict[str, str] = {"AKQJ1052": "AKQJT52", "AKQJ1098": "AKQJT98"}


def pack_ranks(choice: str) -> tuple[Rank, ...]:
    return tuple(ranks_from(_RANK_CODES[choice]))


def trick_rules(ranks: Sequence[Rank], trump: Suit | None, undifferentiated: bool = False) -> TrickRules:
    """Parity's ranking: with a trump suit both Jokers are its top cards (the trump-coloured one
    highest, or equal when undifferentiated); at no-trump the Jokers belong to no suit."""
    if trump is None:
        return TrickRules(tuple(ranks), None, jokers_are_trumps=False)
    if undifferentiated:
        high: tuple[Card, ...] = (JOKER,)
    elif trump.colour is Colour.RED:
        high = (RED_JOKER, BLACK_JOKER)
    else:
        high = (BLACK_JOKER, RED_JOKER)
    return TrickRules(tuple(ranks), trump, jokers_high=high)


def legal_follows(rules: TrickRules, hand: Sequence[Card], led: Card | None, role: dict[Card, Card]) -> list[Card]:
    """The cards of ``hand`` that may be played now, with stand-in cards mapped to their roles."""
    if led is None:
        return list(hand)
    if not role:
        return rules.follow_options(hand, led)
    allowed = set(rules.follow_options([role.get(c, c) for c in hand], role.get(led, led)))
    return [c for c in hand if role.get(c, c) in allowed]


_PLAYS: dict[Card, PlayCard] = {}


def play_action(card: Card) -> PlayCard:
    """The (cached, immutable) action of playing ``card``: menus are rebuilt after every move."""
    action = _PLAYS.get(card)
    if action is None:
        action = _PLAYS[card] = PlayCard(play=card)
    return action


def unique(cards: Sequence[Card]) -> list[Card]:
    """Cards in order without repeats (a pack may hold two equal Jokers)."""
    return list(dict.fromkeys(cards))


# --- the view shared by both games --------------------------------------------------------------


class ParityView(View):
    """The table of a Parity deal: the calls, the trick in progress, the last trick and counts."""

    trump: Suit | None = None
    no_trump: bool = False
    target: Parity | None = None
    trick: list[tuple[Seat, Card]] = Field(default_factory=list)
    tricks_won: list[int] = Field(default_factory=list)
    tricks_per_deal: int = TRICKS_PER_DEAL
    last_trick: list[tuple[Seat, Card]] = Field(default_factory=list)
    last_winner: Seat | None = None
    winning: Seat | None = None
    """Who is winning the trick in progress, as it stands."""
    other_hands: dict[Seat, list[Card]] = Field(default_factory=dict)
    """Two-player only: the opponent's hand, open to both players (never in the public view)."""
    notes: list[str] = Field(default_factory=list)

    def table_lines(self) -> list[str]:
        lines = []
        if self.trump is not None:
            lines.append(f"Trumps: {self.trump.title} {self.trump.symbol}")
        elif self.no_trump:
            lines.append("Trumps: none (no-trump call)")
        if self.target is not None:
            lines.append(f"Target: an {self.target.value} number of tricks")
        if self.tricks_won:
            counts = ", ".join(f"{p} {t}" for p, t in zip(self.players, self.tricks_won, strict=True))
            lines.append(f"Tricks won: {counts} (of {self.tricks_per_deal})")
        if self.last_trick and self.last_winner is not None:
            played = ", ".join(f"{self.players[s]} {c.short}" for s, c in self.last_trick)
            lines.append(f"Last trick: {played}; won by {self.players[self.last_winner]}")
        if self.trick:
            lines.append("On the table: " + ", ".join(f"{self.players[s]} {c.short}" for s, c in self.trick) + self.winning_text(" ({})"))
        for seat, cards in sorted(self.other_hands.items()):
            lines.append(f"{self.players[seat]}'s hand (open): {format_cards(cards)}")
        lines.extend(self.notes)
        return lines

    # -- the picture -------------------------------------------------------------------------------

    def facts(self) -> list[tuple[str, str]]:
        facts: list[tuple[str, str]] = []
        if self.trump is not None:
            facts.append(("Trumps", f"{self.trump.symbol} {self.trump.title}"))
        elif self.no_trump:
            facts.append(("Trumps", "none"))
        if self.target is not None:
            facts.append(("Target", f"{self.target.value} tricks"))
        return facts + list(dealer_facts(self))

    def winning_text(self, form: str = "{}") -> str:
        """``bob winning`` (in ``form``) while a trick is in progress, else nothing."""
        return form.format(f"{self.players[self.winning]} winning") if self.winning is not None and self.trick else ""

    def trick_rows(self, but: Seat | None = None) -> list[Row]:
        """The trick in progress, with an empty place for each card it waits for (but ``but``'s)
        and the last trick."""
        rows = []
        if self.trick:
            to_play = [s for s in self.awaiting if s != but and all(s != p for p, _ in self.trick)]
            waiting = [] if self.over else to_play
            # "winning" under the winning card (as "to play" under a waiting place), the last
            # trick's winner by its card's mark: a note beside the title ("Trick · Alex… winning",
            # "won by Alex…") widened the picture past 464 px with players' real names
            rows.append(played_row("Trick", self.players, self.trick, self.winning, to_play=waiting, winner_line="winning"))
        if self.last_trick and self.last_winner is not None:
            rows.append(played_row("Last trick", self.players, self.last_trick, self.last_winner))
        return rows

    def layout(self) -> Layout:
        """Trumps and target, the trick in progress (who played what), the last trick and its
        winner, an open hand, the tricks won."""
        open_hands = self.open_hand_rows()
        tricks = ("Tricks", self.tricks_won) if self.tricks_won else None
        return finish(
            self,
            [
                *self.trick_rows(), *open_hands, *own_hand(self), Notes(tuple(self.notes)),
                standard_scores(self, *([tricks] if tricks else [])),
            ],
            self.facts(),
        )

    def open_hand_rows(self) -> list[Row]:
        """The other hand, face up to both players in the two-player game (never in the public
        view), while it holds cards."""
        return [
            Row(f"{self.players[seat]}'s hand (open)", spots(cards), overlap=True)
            for seat, cards in sorted(self.other_hands.items())
            if cards
        ]

    def hand_context(self) -> tuple[Area, ...]:
        facts = [f for f in self.facts() if f[0] in ("Trumps", "Target")]
        rows = self.trick_rows(but=self.seat)  # the seat's own card it chooses from the hand below
        return (
            *([Facts(tuple(facts))] if facts else []),
            *(rows[:1] if self.trick else rows),
            *self.open_hand_rows(),
        )


# --- options ------------------------------------------------------------------------------------


class ParityOptions(BaseOptions):
    no_trump: bool = Field(
        False,
        description="Let the non-dealer call no-trump instead of a suit; the scorer then gets 20 + tricks.",
    )
    ranks: RanksChoice = Field(
        "AKQJ1052",
        description="The seven ranks in each suit: AKQJ1052 (standard) or AKQJ1098 (from a 32-card pack).",
    )
    sevens_as_jokers: bool = Field(
        False,
        description="No Jokers to hand: the 7♥ plays as the red Joker and the 7♠ as the black one "
        "(only with ranks=AKQJ1098).",
    )
    undifferentiated_jokers: bool = Field(
        False,
        description="The two Jokers rank equal, above the trump Ace; if both fall in one trick the first played wins.",
    )
    lurch_values: bool = Field(
        False,
        description="Report a stake for the finished game: 1 for a plain win, 2 for a lurch, 3 for a double lurch.",
    )
    hints: bool = Field(
        False,
        description="Let players ask for a hint: what each choice is worth under perfect play. "
        "A match with hints on is not rated.",
    )

    @model_validator(mode="after")
    def _sevens_need_short_ranks(self) -> ParityOptions:
        if self.sevens_as_jokers and self.ranks != "AKQJ1098":
            raise ValueError(
                "Sevens can stand in for the Jokers only with the 32-card ranks: "
                "add ranks=AKQJ1098 (the A-K-Q-J-10-5-2 pack has no Sevens to spare)."
            )
        return self


def parity_pack(options: ParityOptions) -> list[Card]:
    """The 30 cards: seven ranks in each suit and two Jokers (or the two Sevens standing in)."""
    ranks = pack_ranks(options.ranks)
    if options.sevens_as_jokers:
        jokers: list[Card] = [SEVEN_RED, SEVEN_BLACK]
    elif options.undifferentiated_jokers:
        jokers = [JOKER, JOKER]
    else:
        jokers = [RED_JOKER, BLACK_JOKER]
    return make_pack(ranks, jokers=jokers)


def joker_roles(options: ParityOptions) -> dict[Card, Card]:
    """Which Joker each stand-in card plays as (empty unless Sevens stand in)."""
    if not options.sevens_as_jokers:
        return {}
    if options.undifferentiated_jokers:
        return {SEVEN_RED: JOKER, SEVEN_BLACK: JOKER}
    return {SEVEN_RED: RED_JOKER, SEVEN_BLACK: BLACK_JOKER}


# --- the state ----------------------------------------------------------------------------------

Phase = Literal["trump", "parity", "play", "over"]


class ParityState(GameState[ParityOptions]):
    dealer: Seat

    def __init__(
        self,
        players: Sequence[str],
        options: ParityOptions,
        seed: int,
        deck: Sequence[Card] | Sequence[Sequence[Card]] | None = None,
    ) -> None:
        super().__init__(players, options, seed, deck)
        self.pack = parity_pack(options)
        self.ranks = pack_ranks(options.ranks)
        self.role = joker_roles(options)
        MATCH.begin(self)
        self.hands: list[list[Card]] = [[], []]
        self.taken: list[list[Card]] = [[], []]
        self.tricks_won = [0, 0]
        self.phase: Phase = "trump"
        self.trump: Suit | None = None
        self.no_trump = False
        self.target: Parity | None = None
        self.rules: TrickRules | None = None
        self.trick = Trick(leader=0)
        self.last_trick: Trick | None = None
        self.log.extend(self._start_deal())

    # -- deal flow ----------------------------------------------------------------------------

    @property
    def non_dealer(self) -> Seat:
        return 1 - self.dealer

    def _start_deal(self) -> list[Event]:
        self.deal_no += 1
        order = self.next_pack_order(self.pack)
        first = self.non_dealer
        hands: list[list[Card]] = [[], []]
        for i, c in enumerate(order):  # one card at a time, non-dealer first
            hands[(first + i) % 2].append(c)
        self.hands = [sort_hand(h) for h in hands]
        self.taken = [[], []]
        self.tricks_won = [0, 0]
        self.phase = "trump"
        self.trump = None
        self.no_trump = False
        self.target = None
        self.rules = None
        self.trick = Trick(leader=first)
        self.last_trick = None
        return [
            self.event(
                "deal",
                f"Deal {self.deal_no}: {self.name(self.dealer)} deals 15 cards each, both hands face up. "
                f"{self.name(first)} names trumps.",
            )
        ]

    def _end_deal(self) -> list[Event]:
        assert self.target is not None
        facts = ParityFacts(trump=self.trump, target=self.target, tricks=(self.tricks_won[0], self.tricks_won[1]))
        events = MATCH.settle(self, facts)
        if self.is_over:
            self.phase = "over"
            return events
        return events + self._start_deal()

    # -- the protocol ---------------------------------------------------------------------------

    def awaiting(self) -> frozenset[Seat]:
        if self.phase == "trump":
            return frozenset((self.non_dealer,))
        if self.phase == "parity":
            return frozenset((self.dealer,))
        if self.phase == "play":
            return frozenset((self.trick.next_seat(2),))
        return frozenset()

    def playable(self, seat: Seat) -> list[Card]:
        """The cards ``seat`` may play to the current trick."""
        assert self.rules is not None
        return legal_follows(self.rules, self.hands[seat], self.trick.led, self.role)

    def legal_actions(self, seat: Seat) -> list[Action]:
        if seat not in self.awaiting():
            return []
        if self.phase == "trump":
            return trump_calls(self.options)
        if self.phase == "parity":
            return list(PARITY_CALLS)
        return [play_action(c) for c in unique(self.playable(seat))]

    def explain_illegal(self, seat: Seat, action: Action) -> str | None:
        if seat not in self.awaiting():
            return None  # the base says whose turn it is
        refused = call_refusal(self.phase, action)
        if refused is not None:
            return refused
        if isinstance(action, PlayCard):
            if self.phase != "play":
                return "Cards are played once trumps and the target parity are named."
            return play_refusal(self.rules, self.hands[seat], self.trick.led, action.play, self.role)
        return None

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        if isinstance(action, ChooseTrump):
            return self._call_trump(seat, action.suit)
        if isinstance(action, ChooseParity):
            self.target = action.parity
            self.phase = "play"
            return [
                self.event(
                    "parity",
                    f"{self.name(seat)} sets the target: an {action.parity.value} number of tricks. "
                    f"{self.name(self.non_dealer)} leads.",
                )
            ]
        assert isinstance(action, PlayCard)
        return self._play(seat, action.play)

    def _call_trump(self, seat: Seat, suit: Suit | None) -> list[Event]:
        self.trump = suit
        self.no_trump = suit is None
        self.rules = trick_rules(self.ranks, suit, self.options.undifferentiated_jokers)
        self.phase = "parity"
        return [self.event("trump", trump_call_text(self.name(seat), suit))]

    def _play(self, seat: Seat, card: Card) -> list[Event]:
        assert self.rules is not None
        self.hands[seat].remove(card)
        self.trick.plays.append((seat, card))
        events = [self.event("play", f"{self.name(seat)} plays {card.short}.")]
        if not self.trick.is_complete(2):
            return events
        winner = self.trick.winning(self.rules, self.role)
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
        calls = calls_phase_text(self.phase, self.name(self.dealer), self.name(self.non_dealer))
        return calls if calls is not None else f"trick {sum(self.tricks_won) + 1} of {TRICKS_PER_DEAL}"

    def view(self, seat: Seat | None) -> ParityView:
        notes = []
        if self.options.sevens_as_jokers:
            notes.append(
                "The 7♥ and 7♠ play as Jokers"
                + (" of equal rank." if self.options.undifferentiated_jokers else " (red and black).")
            )
        last = self.last_trick
        return ParityView(
            **self.base_view(seat),
            phase=self.phase_text(),
            hand=list(self.hands[seat]) if seat is not None else [],
            trump=self.trump,
            no_trump=self.no_trump,
            target=self.target,
            trick=list(self.trick.plays),
            winning=self.trick.winning(self.rules, self.role),
            tricks_won=list(self.tricks_won),
            last_trick=list(last.plays) if last else [],
            last_winner=self.trick.leader if last else None,
            other_hands={1 - seat: list(self.hands[1 - seat])} if seat is not None else {},
            notes=notes,
        )

    def card_zones(self) -> list[Zone]:
        both = frozenset((0, 1))
        return [
            Zone("hand:0", self.hands[0], both),
            Zone("hand:1", self.hands[1], both),
            Zone("trick", self.trick.cards),
            Zone("taken:0", self.taken[0]),
            Zone("taken:1", self.taken[1]),
        ]


def play_refusal(
    rules: TrickRules | None, hand: Sequence[Card], led: Card | None, card: Card, role: dict[Card, Card]
) -> str | None:
    """Why ``card`` may not be played from ``hand`` now (not held, or a suit to follow)."""
    if card not in hand:
        return f"You do not hold the {card.name}."
    if rules is None or led is None:
        return None
    return rules.must_follow_reason([role.get(c, c) for c in hand], role.get(led, led), role.get(card, card))


SUMMARY = """
Two players, 30 cards: A K Q J 10 5 2 in each suit plus a red and a black Joker. Both hands are
played face up, so each player always sees every card the other holds.

The first dealer is drawn at random (or set with first_dealer); the deal then alternates.
Each deal, 15 cards each are dealt one at a time. The non-dealer names a trump suit; the dealer
then says whether the goal is an odd or an even number of tricks (none counts as even). The
non-dealer leads; follow suit if you can, otherwise play anything. With trumps, both Jokers belong
to the trump suit and top it: the Joker of the trump's colour first, then the other, then the Ace.
The highest trump takes the trick, else the highest card of the suit led; the winner leads next.

After 15 tricks, exactly one player has a trick count of the target parity: that player alone
scores 10 plus one per trick (so 10 to 25). The match ends at the close of the deal in which
someone reaches 100. A loser under 67 is lurched, under 50 double-lurched.

Options: no_trump lets the non-dealer call no-trump for 20 plus tricks; the Jokers then have no
suit: a led Joker wins outright and the reply is free, and a Joker may only be played second by a
player who cannot follow suit, and then it loses. ranks=AKQJ1098 swaps the 5s and 2s for 9s and 8s;
with it, sevens_as_jokers lets the 7♥ and 7♠ act as the red and black Jokers. undifferentiated_jokers
makes the Jokers equal top trumps (the first one played to a trick beats the second).
lurch_values reports a stake of 1, 2 or 3 for a plain win, a lurch or a double lurch.
"""

GAME: Game[ParityOptions] = declare(
    Game(
        id="parity",
        title="Parity",
        min_players=2,
        max_players=2,
        options=ParityOptions,
        state=ParityState,
        actions=[ChooseTrump, ChooseParity, PlayCard],
        summary=SUMMARY,
    ),
    referee="games.referee.parity:RefereeParityState",
    bots={
        "easy": "games.players.parity:EASY",
        "strong": "games.players.parity:STRONG",
        "vulcan": "games.players.parity:VULCAN",
    },
    hinter="games.players.parity:parity_hint",
    analyser="games.players.parity:analyse_parity",
)
