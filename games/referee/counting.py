# Over 400 lines: card-by-card and results entry for six adders in one place (unseen cards, stuck entries, results, the entries for a deal's facts) over the shared counting deal.
"""Card-by-card entry for the adding-up games played with a real pack.

The hands are hidden from the bot, so an entry is "this seat played this card", chosen from the
cards nobody has seen yet this deal (the pack minus the cards played and the starters turned up).
Everything else is the online game's own code: the running total, the values and what a play is
allowed to do (its :class:`~games.counting.CountingRules`, over the referee's round and unseen
cards), busts and the deal's facts; the
match (scores, lives, the end) is the game's ``MATCH``, the very object the online state holds.

A referee game is ``class RefereeX(RefereeCounting[XOptions])``: a
:class:`~games.referee.state.RefereeState` (lines of entries, :meth:`RefereeAdder.entries` for the
generic mirror) that holds the game's parts, as class attributes naming the very objects the online
state names: its rules (``rules_class``, ``values``, ``floor``/``ceiling``, ``draw_timing``), its
deal (``deal_class``, the game's :class:`~games.counting_deal.CountingDeal` with its per-deal fields
and hooks), its facts (``facts_class``) and its match (``match``, which also sets up and shows the
match's own fields); what depends on the cards being known is replaced here. Fifty-One, Hundred,
Jubilee, Obstacle Race, Ninety-Nine and Twenty-Nine are written so, and so are the races
(``RefereeX(RefereeRace[XOptions])``, :mod:`games.referee.races`) and Caterpillar
(:class:`RefereeAdder` directly).

What the referee keeps instead of the hands is its card source (:class:`UnseenCards`, the
state's ``cards``, where the online state keeps :class:`~games.counting.KnownCards`):

* ``unseen``: every card not yet seen this deal (hands, stock and cards set aside, in one heap);
* ``held``: how many cards each seat holds, from the deal's shape and the draws the rules make;
* ``stock_left``: how many cards the stock still has (a draw just moves one into a hand).

The deal's play (the pile, the total, the turns) is the same :class:`~games.counting.CountingRound`
the online state keeps.

Starters (Fifty-One's turned-up card, the left-over cards of Hundred and Obstacle Race) are entered
by the dealer at the start of the deal. A seat that may be unable to play (Jubilee, Twenty-Nine,
Ninety-Nine) gets a pass entry (:attr:`RefereeCounting.stuck_entry`) whenever its hand could hold
only unplayable cards, together with the hands of those who passed before it at the same total;
when no unseen card at all could be played, the bot passes for it as the online game does.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any, ClassVar, Literal

from games.cards import Card, sort_hand
from games.counting import (
    CO,
    CardSource,
    CountingFacts,
    CountingMatch,
    CountingState,
    CountingView,
    PlayRecord,
    signed,
)
from games.engine import Action, BaseOptions, Event, GameState, Pass, Seat, Zone
from games.match import DealFacts
from games.referee import dealer_line
from games.referee.state import RefereeState

STARTERS = "starters"
PLAY = "play"


class Starter(Action):
    """A card the dealer turned up to start the pile (its value opens the total)."""

    kind: Literal["starter"] = "starter"
    starter: Card

    @property
    def card(self) -> Card:
        return self.starter

    def label(self) -> str:
        return f"Turned up {self.starter.short}"


class DealPoints(Action):
    """Results mode: the points one player scored in the deal (the table kept the count)."""

    kind: Literal["deal_points"] = "deal_points"
    points: int

    def label(self) -> str:
        return f"{signed(self.points)} this deal"

    def choice_path(self) -> tuple[str, ...]:
        if self.points < 0:
            return ("Lost points", self.label())
        low = self.points // 50 * 50
        return (f"{low} to {low + 49}", self.label())

    def spoken(self) -> tuple[str, ...]:
        return (str(self.points), f"{self.points} points")


_DEAL_POINTS: dict[int, DealPoints] = {}


def deal_points_entry(points: int) -> DealPoints:
    entry = _DEAL_POINTS.get(points)
    if entry is None:
        entry = _DEAL_POINTS[points] = DealPoints(points=points)
    return entry


class RefereeCountingView(CountingView):
    """The adder's table with the entry due next."""

    due: str = ""

    def table_lines(self) -> list[str]:
        lines = dealer_line(self) + super().table_lines()
        if self.due:
            lines.append(f"Next entry: {self.due}")
        return lines


def options_line(options: BaseOptions) -> str:
    """``Table options: values=german, floor_zero=true``: the options that differ from the
    standard rules (``first_dealer`` left out), so the table can see what it agreed to."""
    parts = []
    for name, field in type(options).model_fields.items():
        value = getattr(options, name)
        if name == "first_dealer" or value == field.default:
            continue
        shown = str(value).lower() if isinstance(value, bool) else str(value)
        parts.append(f"{name}={shown}")
    return "Table options: " + ", ".join(parts) if parts else ""


def where_seen(card: Card, copies: int, played_by: Sequence[str]) -> str:
    """Why a card cannot be entered: every copy of it is already on the table."""
    if not copies:
        return f"{card.short} is not in this game's pack."
    if copies == 1:
        who = played_by[0] if played_by else ""
        if who == "":
            return f"{card.short} was turned up to start the pile: it is in nobody's hand."
        return f"{card.short} has already been played this deal, by {who}."
    return f"The pack has {copies} {card.short} and all of them have been played this deal."


_STARTERS: dict[Card, Starter] = {}


def starter_entry(card: Card) -> Starter:
    entry = _STARTERS.get(card)
    if entry is None:
        entry = _STARTERS[card] = Starter(starter=card)
    return entry


@dataclass
class UnseenCards(CardSource):
    """The cards of a deal played with a real pack, as the referee knows them: which cards nobody
    has seen yet (hands, stock and cards set aside in one heap), how many each seat holds and how
    many the stock and the cards set aside hold. A seat holding cards may play any unseen card."""

    unseen: dict[Card, int]
    held: list[int]
    stock_left: int = 0
    aside: int = 0
    played_by: dict[Card, list[Seat]] = dataclass_field(default_factory=dict)
    """Who played each copy of a card this deal (for the refusal of a card seen already)."""

    @classmethod
    def of(cls, pack: Sequence[Card], held: list[int], stock: int, aside: int) -> UnseenCards:
        return cls(dict(Counter(sort_hand(pack))), held, stock, aside)

    @property
    def hands(self) -> list[list[Card]]:
        return [[] for _ in self.held]  # no card of a hand is known

    @property
    def stock(self) -> list[Card]:
        return []

    @property
    def set_aside(self) -> list[Card]:
        return []

    def candidates(self, seat: Seat) -> list[Card]:
        """Any card not seen yet may be in a hand that still holds cards."""
        return list(self.unseen) if self.held[seat] else []

    def count(self, seat: Seat) -> int:
        return self.held[seat]

    def stock_size(self) -> int:
        return self.stock_left

    def see(self, card: Card) -> None:
        """``card`` was turned up or played: one copy fewer unseen."""
        left = self.unseen[card] - 1
        if left:
            self.unseen[card] = left
        else:
            del self.unseen[card]

    def take(self, seat: Seat, card: Card) -> None:
        self.see(card)
        self.held[seat] -= 1
        self.played_by.setdefault(card, []).append(seat)

    def draw(self, seat: Seat) -> Card | None:
        """A draw moves a card from the stock to the hand; which card, only its holder knows."""
        self.stock_left -= 1
        self.held[seat] += 1
        return None

    def restock(self, cards: list[Card], rng: random.Random) -> None:
        """The played cards go back under the table as a new stock: they are unseen again."""
        self.unseen = dict(Counter(sort_hand([*self.cards(), *cards])))
        for c in cards:
            seats = self.played_by.get(c)
            if seats:
                seats.pop(0)
        self.stock_left += len(cards)

    def place(self, stock: list[Card] | None = None, aside: list[Card] | None = None) -> None:
        """The referee counted the stock and the cards set aside as the deal began
        (:meth:`RefereeCounting.after_deal`); only the starters are ever named, and they go on the pile."""

    def cards(self) -> list[Card]:
        """Every unseen card, each copy once."""
        return [c for c, k in self.unseen.items() for _ in range(k)]


class RefereeAdder(RefereeState[CO], CountingState[CO]):
    """A refereed adding-up game: a :class:`RefereeState` (lines of entries, :meth:`entries`) that
    plays its deal as the online state does, through the same
    :class:`~games.counting_deal.CountingDeal` (``self.deal``: the round, the card source, the
    rules and the turn loop): the entry hooks of :class:`RefereeState` lead to it. What a play
    does (the game's hooks, ``after_play``, ``on_stuck``, ...) is the game's deal's
    (``deal_class``), reached through :class:`CountingState`'s hooks, which this class and its
    subclasses override where the table knows less; the match is the online game's ``MATCH``.
    The refusals and the card zones are :class:`CountingState`'s (:meth:`online`, or the races'
    shared :class:`~games.adders.wit_and_reason.RaceState`)."""

    match: ClassVar[CountingMatch[Any]]

    def __init__(
        self,
        players: Sequence[str],
        options: CO,
        seed: int,
        deck: Sequence[Card] | Sequence[Sequence[Card]] | None = None,
    ) -> None:
        GameState.__init__(self, players, options, seed, deck)  # the match begins with the deal below
        self.filled: tuple[Seat, Action, Event] | None = None
        self.log.extend(self.begin_counting())

    def online(self) -> Any:
        """The online game's protocol methods (those after :class:`RefereeState` in the bases)."""
        return super(RefereeState, self)

    def _start_deal(self) -> list[Event]:
        return self.deal.start(self)

    def _awaiting(self) -> frozenset[Seat]:
        return self.deal.awaiting(self)

    def _legal(self, seat: Seat) -> list[Action]:
        return self.deal.legal(self, seat)

    def _refusal(self, seat: Seat, action: Action) -> str | None:
        return self.online().explain_illegal(seat, action)  # type: ignore[no-any-return]

    def _enter(self, seat: Seat, action: Action) -> list[Event]:
        return self.deal.apply(self, seat, action)

    def card_zones(self) -> list[Zone]:
        return self.online().card_zones()  # type: ignore[no-any-return]

    def by_result(self) -> bool:
        """Whether this table enters only each deal's result instead of every card."""
        return getattr(self.options, "entries", "cards") == "result"

    # -- what a table enters for a deal's facts --------------------------------------------------

    def entries(self, facts: DealFacts) -> list[tuple[Seat, Action]]:
        assert isinstance(facts, CountingFacts)
        return self.result_entries_for(facts) if self.by_result() else self.card_entries(facts)

    def result_entries_for(self, facts: CountingFacts) -> list[tuple[Seat, Action]]:
        """The result entries of a deal with these facts (``entries=result``)."""
        raise NotImplementedError

    def card_entries(self, facts: CountingFacts) -> list[tuple[Seat, Action]]:
        """The deal card by card: the starters the dealer turns up, then each play; and where the
        table waits for a player who could not play (the turns' passes and busts), the stuck entry
        for that player, unless the bot passed for them."""
        twin = self.clone()
        deal = twin.deal_no
        out: list[tuple[Seat, Action]] = []

        def enter(seat: Seat, action: Action) -> None:
            out.append((seat, action))
            twin.apply(seat, action)

        def stuck_until(seat: Seat | None) -> None:
            while not twin.is_over and twin.deal_no == deal and twin.to_play != seat:
                stuck, who = twin.stuck_action(), twin.to_play
                if stuck is None or who is None or not twin.is_legal(who, stuck):
                    return
                enter(who, stuck)

        for card in facts.starters:
            if twin.starters_due_now():
                enter(twin.dealer, starter_entry(card))
        for turn in facts.turns:
            if turn.play is not None:
                stuck_until(turn.seat)
                enter(turn.seat, turn.play)
        stuck_until(None)
        return out

    def starters_due_now(self) -> bool:
        """Whether the dealer's starters are awaited."""
        return False

    def stuck_action(self) -> Action | None:
        """The entry for a seat that cannot play, where the table enters it."""
        return None


class RefereeCounting(RefereeAdder[CO]):
    """The referee's version of the running-total machinery (see the module docstring).

    Subclasses may set ``stuck_entry`` (the entry for a seat that cannot play; ``None`` when the
    rules never let a player be stuck), override :meth:`starter_count` and :meth:`aside_count` to
    say what becomes of the cards left after dealing, and, for a game whose deal can be settled by
    its result alone, set ``result_entry`` with :meth:`settle` and :meth:`result_question` (the
    table then chooses ``entries=result`` in its options).
    """

    stuck_entry: ClassVar[Action | None] = Pass()
    result_entry: ClassVar[Action | None] = None
    """The entry that settles a whole deal (who lost it), where the game offers ``entries=result``."""
    result_points: ClassVar[Sequence[int] | None] = None
    """Results mode by each player's points for the deal (:class:`DealPoints`): the values allowed."""

    # -- setting up ---------------------------------------------------------------------------

    def init_match(self) -> None:
        self.entry_phase = PLAY
        self.starters: list[Card] = []
        self.starters_due = 0
        self._declared_stuck: Seat | None = None
        self.entered_points: list[int | None] = [None] * self.n
        self.row_passes: list[Seat] = []
        """Seats that passed since the last card: their hands hold only unplayable cards."""
        super().init_match()

    def takes_results(self) -> bool:
        """Whether the game has a results mode at all."""
        return self.result_entry is not None or self.result_points is not None

    def by_result(self) -> bool:
        return self.takes_results() and super().by_result()

    def starters_due_now(self) -> bool:
        return self.entry_phase == STARTERS and not self.is_over

    def stuck_action(self) -> Action | None:
        return self.stuck_entry

    def result_entries_for(self, facts: CountingFacts) -> list[tuple[Seat, Action]]:
        """Default: each player's points (``result_points``)."""
        return [(s, deal_points_entry(facts.points[s])) for s in self.result_seats()]

    def settle_result(self, seat: Seat) -> list[Event]:
        """Apply the result entry of ``seat`` (the game's own scoring of a lost deal)."""
        raise NotImplementedError

    def result_question(self) -> str:
        """The result entry due, as the end of a sentence ("who lost this deal")."""
        if self.result_points is not None:
            names = ", ".join(self.name(s) for s in self.result_seats())
            return f"the points of {names} in deal {self.deal_no}"
        raise NotImplementedError

    def result_seats(self) -> list[Seat]:
        """The seats whose result entry is awaited."""
        if self.result_points is not None:
            return [s for s in self.active_seats() if self.entered_points[s] is None]
        return self.active_seats()

    def result_entries(self, seat: Seat) -> list[Action]:
        """What ``seat`` may enter as its result."""
        if self.result_points is not None:
            return [deal_points_entry(p) for p in self.result_points]
        return [self.result_entry] if self.result_entry is not None else []

    def settle_entry(self, seat: Seat, action: Action) -> list[Event]:
        """Apply a result entry; the deal is scored once :meth:`close_deal` has been called."""
        if isinstance(action, DealPoints):
            self.entered_points[seat] = action.points
            events = [self.event("deal_points", f"{self.name(seat)} scored {signed(action.points)} in deal {self.deal_no}.")]
            if not self.result_seats():
                for s, points in enumerate(self.entered_points):
                    if points is not None:
                        self.add_deal_points(s, points)
                self.close_deal()
            return events
        return self.settle_result(seat)

    def add_deal_points(self, seat: Seat, points: int) -> None:
        """Score a result entry's points (a game with a floor on scores adjusts them)."""
        self.add_points(seat, points)

    def result_refusal(self, seat: Seat, action: Action) -> str | None:
        """Why a result entry is refused (results mode)."""
        if isinstance(action, DealPoints) and self.result_points is not None:
            entered = self.entered_points[seat]
            if entered is not None:
                return f"{self.name(seat)}'s points for this deal are already entered ({signed(entered)}): undo the entry to change it."
            values = list(self.result_points)
            step = values[1] - values[0] if len(values) > 1 else 1
            every = "" if step == 1 else f" in steps of {step}"
            return f"Points for a deal run from {values[0]} to {values[-1]}{every}: {action.points} is not possible."
        return None

    def starter_count(self, rest: int) -> int:
        """How many of the ``rest`` cards left after dealing are turned up to start the pile."""
        return 0

    def aside_count(self, rest: int) -> int:
        """How many of the ``rest`` cards are set aside face down, out of the deal."""
        return 0

    def next_pack_order(self, pack: Sequence[Card]) -> list[Card]:
        """Nobody shuffles for the bot: the real pack is at the table."""
        return list(pack)

    def after_deal(self, rest: list[Card]) -> list[Event]:
        # the machinery has dealt the pack in its own order: keep only how many cards each got
        held = [self.cards.count(s) for s in range(self.n)]
        self.entered_points = [None] * self.n
        self.row_passes = []
        self.starters = []
        starters = 0 if self.by_result() else self.starter_count(len(rest))
        aside = self.aside_count(len(rest))
        self.cards = UnseenCards.of(self.pack(), held, len(rest) - starters - aside, aside)
        self.starters_due = starters
        if starters:
            self.entry_phase = STARTERS
            cards = "card" if starters == 1 else f"{starters} cards"
            return [self.event("starters", f"Enter the {cards} {self.name(self.dealer)} turns up to start the pile.")]
        return self._place_starters()

    def _place_starters(self) -> list[Event]:
        self.entry_phase = PLAY
        if self.by_result():
            return []  # the cards do not matter: the table enters who lost the deal
        events = super().after_deal(list(self.starters))
        self.round.opening = list(self.pile)
        return events

    def first_player(self) -> Seat:
        if self.entry_phase == STARTERS:
            return self.dealer
        return super().first_player()

    # -- what the referee knows (:class:`UnseenCards`, from the first deal on) -----------------

    restock_news = "The played cards but the top one are shuffled to make a new stock."

    def unseen_source(self) -> UnseenCards:
        assert isinstance(self.cards, UnseenCards)
        return self.cards

    @property
    def unseen(self) -> dict[Card, int]:
        """Every card not seen yet this deal, with its copies."""
        return self.unseen_source().unseen

    @property
    def held(self) -> list[int]:
        """How many cards each seat holds."""
        return self.unseen_source().held

    @property
    def stock_left(self) -> int:
        return self.unseen_source().stock_left

    @property
    def aside(self) -> int:
        """How many cards are set aside face down, out of the deal."""
        return self.unseen_source().aside

    def unseen_cards(self) -> list[Card]:
        """Every unseen card, each copy once."""
        return self.unseen_source().cards()

    def take_card(self, seat: Seat, card: Card) -> None:
        self.row_passes = []
        super().take_card(seat, card)

    def record_pass(self, seat: Seat) -> list[Event]:
        self.round.remember(PlayRecord(seat=seat, total=self.total))
        return [self.event("pass", f"{self.name(seat)} has no card that can be played and passes.")]

    def survey(self, seat: Seat) -> tuple[list[Action], int]:
        """The plays ``seat`` may make with any unseen card, and how many unseen cards (each copy
        counted) it could not play now: one pass over the unseen cards answers both."""
        if not self.held[seat]:
            return [], 0
        before = self.total
        plays: list[Action] = []
        bad = 0
        for card, copies in self.unseen.items():
            ways = [
                a for a in self.plays_for(card) if self.refusal(seat, a, before, self.resulting_total(a, before)) is None
            ]
            if ways:
                plays.extend(ways)
            else:
                bad += copies
        return plays, bad

    def unplayable_unseen(self, seat: Seat) -> int:
        """How many unseen cards ``seat`` could not play now (each copy counted)."""
        return self.survey(seat)[1]

    def may_be_stuck(self, seat: Seat) -> bool:
        """Whether ``seat``'s whole hand could be cards that cannot be played now."""
        return self._stuck_believable(seat, self.unplayable_unseen(seat))

    def claimed_unplayable(self, seat: Seat) -> int:
        """Unplayable cards the other seats that passed since the last card must hold."""
        return sum(self.held[s] for s in set(self.row_passes) if s != seat)

    def _stuck_believable(self, seat: Seat, bad: int) -> bool:
        """``seat``'s hand, and the hands of those who passed before it at this total, must all
        fit among the ``bad`` unseen cards that cannot be played now."""
        held = self.held[seat]
        return self.stuck_entry is not None and held > 0 and held + self.claimed_unplayable(seat) <= bad

    def on_blocked(self) -> list[Event]:
        self.row_passes = []  # whatever happens next (a new pile, a new deal), it starts afresh
        return super().on_blocked()

    # -- the turn loop's questions ---------------------------------------------------------------

    def begin_turn(self, seat: Seat) -> list[Event]:
        if self.entry_phase == STARTERS or self._declared_stuck == seat or self.by_result():
            return []
        return super().begin_turn(seat)

    def legal_plays(self, seat: Seat) -> list[Action]:
        return self.survey(seat)[0]

    def can_play(self, seat: Seat) -> bool:
        """Whether ``seat`` may have a card to play: the table is asked unless no unseen card fits."""
        if self.entry_phase == STARTERS or self.by_result():
            return True
        if self._declared_stuck == seat:
            self._declared_stuck = None
            return False
        return self.fits(seat, self.unseen)

    def fits(self, seat: Seat, cards: Iterable[Card]) -> bool:
        """Whether ``seat`` (holding cards) could play one of ``cards`` now, in some way."""
        if not self.held[seat]:
            return False
        before = self.total
        return any(
            self.refusal(seat, a, before, self.resulting_total(a, before)) is None
            for card in cards
            for a in self.plays_for(card)
        )

    # -- the protocol ----------------------------------------------------------------------------

    def is_legal(self, seat: Seat, action: Action) -> bool:
        """A single card is decided without listing every play (there are hundreds with a black
        Ace); it agrees with :meth:`survey`."""
        card = action.card
        if (
            card is None
            or isinstance(action, Starter)
            or self.by_result()
            or self.is_over
            or self.entry_phase != PLAY
            or seat != self.to_play
            or self.is_echo(seat, action)
        ):
            return super().is_legal(seat, action)
        if card not in self.unseen or action not in self.plays_for(card):
            return False
        before = self.total
        return self.held[seat] > 0 and self.refusal(seat, action, before, self.resulting_total(action, before)) is None

    def _awaiting(self) -> frozenset[Seat]:
        if self.by_result():
            return frozenset(self.result_seats())
        return super()._awaiting()

    def _legal(self, seat: Seat) -> list[Action]:
        if self.by_result():
            return self.result_entries(seat) if seat in self.awaiting() else []
        if self.is_over or seat != self.to_play:
            return []
        if self.entry_phase == STARTERS:
            return [starter_entry(c) for c in self.unseen]
        out, bad = self.survey(seat)
        if self.stuck_entry is not None and self._stuck_believable(seat, bad):
            out.append(self.stuck_entry)
        return out

    def _refusal(self, seat: Seat, action: Action) -> str | None:
        if seat not in self.awaiting():
            if self.by_result():
                return self.result_refusal(seat, action)
            return None  # the base says whose turn it is
        who = self.name(seat)
        if self.by_result():
            return self.result_refusal(seat, action) or (
                f"This table enters only the result of each deal: {self.result_question()}."
            )
        if isinstance(action, Starter):
            if self.entry_phase != STARTERS:
                return "The starting cards of this deal are already entered."
            return self._unseen_refusal(action.starter)
        if self.entry_phase == STARTERS:
            return f"First enter the card{'s' if self.starters_due > 1 else ''} {self.name(self.dealer)} turns up to start the pile."
        if self.stuck_entry is not None and action == self.stuck_entry:
            return f"{who} cannot be stuck now: {self.stuck_reason(seat)}"
        if action.card is None:
            if self.stuck_entry is None:
                return f"In this game a player always has a card to play: enter the card {who} plays."
            return f"Enter the card {who} plays, or {self.stuck_entry.label()} if they cannot play."
        card = action.card
        if card is not None and card not in self.unseen:
            return self._unseen_refusal(card)
        return super()._refusal(seat, action)

    def stuck_reason(self, seat: Seat) -> str:
        """Why the pass entry is refused (a game may say it sharper)."""
        bad = self.unplayable_unseen(seat)
        if not bad:
            return f"with the total at {self.total}, every card could be played."
        others = self.claimed_unplayable(seat)
        if others:
            return (
                f"only {bad} of the cards not yet seen could not be played at {self.total}, and the "
                f"players who passed already hold {others} of them; {self.name(seat)} holds {self.held[seat]} more."
            )
        return (
            f"{self.name(seat)} holds {self.held[seat]} cards, and only {bad} of the cards not yet seen "
            f"could not be played at {self.total}."
        )

    def _unseen_refusal(self, card: Card) -> str:
        copies = sum(1 for c in self.pack() if c == card)
        return where_seen(card, copies, [self.name(s) for s in self.unseen_source().played_by.get(card, [])])

    def _enter(self, seat: Seat, action: Action) -> list[Event]:
        if self.by_result():
            events = self.settle_entry(seat, action)
            return events + self.deal.run(self, None) if self.deal_closed else events
        if isinstance(action, Starter):
            return self._enter_starter(action.starter)
        if self.stuck_entry is not None and action == self.stuck_entry:
            self._declared_stuck = seat
            self.row_passes.append(seat)
            try:
                return self.deal.run(self, seat)
            finally:
                self._declared_stuck = None
        return super()._enter(seat, action)

    def _enter_starter(self, card: Card) -> list[Event]:
        self.unseen_source().see(card)
        self.starters.append(card)
        self.starters_due -= 1
        if self.starters_due:
            return [self.event("starter", f"{card.short} is turned up.")]
        events = self._place_starters()
        return events + self.deal.run(self, self.first_player())

    # -- views and zones -------------------------------------------------------------------------

    def phase_text(self) -> str:
        if self.entry_phase == STARTERS and not self.is_over:
            return f"{self.name(self.dealer)} turns up the starting cards"
        if self.by_result() and not self.is_over:
            return "the result of the deal"
        return super().phase_text()

    def due(self) -> str:
        """The entry the table should make next, in a sentence."""
        if self.is_over:
            return ""
        if self.by_result():
            return f"{self.result_question()}."
        if self.to_play is None:
            return ""
        if self.entry_phase == STARTERS:
            text = f"a card {self.name(self.dealer)} turned up to start the pile"
            if self.starters:
                done = " ".join(c.short for c in self.starters)
                text += f" ({done} entered, {self.starters_due} to come)"
            return text + "."
        text = f"the card {self.name(self.to_play)} plays (total {self.total})"
        if self.stuck_entry is not None and self.may_be_stuck(self.to_play):
            text += f", or {self.stuck_entry.label()}"
        return text + "."

    def view_notes(self, seat: Seat | None) -> list[str]:
        notes = super().view_notes(seat)
        line = options_line(self.options)
        return [*notes, line] if line else notes

    def view(self, seat: Seat | None) -> RefereeCountingView:
        return RefereeCountingView(**self.view_fields(seat))

    def view_fields(self, seat: Seat | None) -> dict[str, Any]:
        fields = {**super().view_fields(seat), "hand": [], "due": self.due()}
        if self.entry_phase == STARTERS or self.by_result():
            fields["to_play"] = None  # nobody plays until the pile is started; or the bot follows no play
        return fields

    def card_zones(self) -> list[Zone]:
        seen = Counter(self.pack())
        seen.subtract(self.unseen)
        return [Zone("not seen", self.unseen_cards(), frozenset()), Zone("seen", list(seen.elements()))]
