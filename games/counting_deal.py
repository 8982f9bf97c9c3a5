# Over 400 lines: the one deal every adding-up game plays in both modes (its actions and records, the round, the card sources, the rules, the turn loop and the game hooks' defaults a game's deal overrides), kept together so the two states share it whole.
"""The deal of an adding-up game, as the online and the referee state both hold and play it.

:mod:`games.counting` is the online machinery (the state, its hooks, the view, the match); this
module is what a deal is made of, whichever state holds it:

* the plays (:class:`PlayAs`, :func:`play_card`, :func:`play_as`) and their records
  (:class:`PlayRecord` for the view, :class:`Turn` for the deal's facts);
* **the round** (:class:`CountingRound`): the pile and its running total, whose turn it is, which
  way play goes, every turn, the deal's points and its end;
* **the card source** (:class:`CardSource`): what the seats hold as the state knows it, every card
  online (:class:`KnownCards`), only how many and which are unseen in referee mode
  (:class:`games.referee.counting.UnseenCards`);
* **the rules** (:class:`CountingRules`): a game's pack, values and what a play may do, over the
  round and the card source;
* **the deal** (:class:`CountingDeal`): those three and the turn loop over them (dealing, a play,
  the automatic steps up to the next choice), and the game's hooks with their defaults (what a
  play does, who is stuck, what ends the deal, the view's lines). A game subclasses it for its
  per-deal fields and hooks (``HundredDeal``: the points still to make) and names it in both of
  its states (``deal_class``). The state holding it is handed to each call as its
  :class:`DealTable`: the loop calls the table's hooks, which lead back here unless a state
  overrides one (a referee state where the table knows less); the seats, the events and the match
  (scores, dealer, lives) are the table's.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import Any, Literal, Protocol, Self

from pydantic import BaseModel, ConfigDict, Field

from games.cards import Card, Rank, shuffled, sort_hand
from games.engine import Action, Event, Game, PlayCard, Seat

DrawTiming = Literal["before", "after", "none"]


def signed(value: int) -> str:
    """``+4``, ``-1`` (with a real minus sign), ``0``."""
    if value < 0:
        return f"\u2212{-value}"
    return f"+{value}" if value > 0 else "0"


# --- actions ------------------------------------------------------------------------------------


class PlayAs(Action):
    """Play a card whose effect the player chooses: an amount to add (a Queen as +3 or -3 in
    Obstacle Race) or, with ``sets_total``, the new total itself (a black Ace in Ninety-Nine)."""

    kind: Literal["play_as"] = "play_as"
    play: Card
    value: int
    sets_total: bool = False

    @property
    def card(self) -> Card:
        return self.play

    def label(self) -> str:
        if self.sets_total:
            return f"{self.play.short} \u2192 {self.value}"
        return f"{self.play.short} as {signed(self.value)}"

    def choice_path(self) -> tuple[str, ...]:
        group = self.play.suit.title if self.play.suit is not None else "Jokers"
        if self.sets_total:  # up to 100 totals: group them by 25 so each menu stays small
            lo = (self.value // 25) * 25
            return (group, self.play.short, f"{lo}-{lo + 24}", self.label())
        return (group, self.play.short, self.label())


@cache
def play_card(card: Card) -> PlayCard:
    """The (shared, immutable) action that plays ``card``."""
    return PlayCard(play=card)


@cache
def play_as(card: Card, value: int, sets_total: bool = False) -> PlayAs:
    """The (shared, immutable) action that plays ``card`` with a chosen value or total."""
    return PlayAs(play=card, value=value, sets_total=sets_total)


def play_card_of(action: Action) -> Card | None:
    """The card a play action plays (``None`` for a pass or another action)."""
    if isinstance(action, (PlayCard, PlayAs)):
        return action.play
    return None


# --- records of the play ----------------------------------------------------------------------


class PlayRecord(BaseModel):
    """One line of the deal's recent history: a play (``card`` set) or a pass (``card`` is None)."""

    model_config = ConfigDict(frozen=True)

    seat: Seat
    card: Card | None = None
    effect: str = ""
    total: int = 0
    note: str = ""
    shown: list[Card] = Field(default_factory=list)


RECENT_LIMIT = 8
"""How many recent plays a view shows."""


class Turn(BaseModel):
    """One turn of a deal as the table saw it: ``seat`` played ``play``, or (``play`` is None)
    could not play (a pass, a bust)."""

    model_config = ConfigDict(frozen=True)

    seat: Seat
    play: PlayCard | PlayAs | None = None




@dataclass
class CountingRound:
    """One deal's play, as the online and the referee state both keep it: the pile and its running
    total, whose turn it is and which way play goes, every turn and the recent plays, the points
    scored, the passes in a row and the deal's end. A state holds one (``state.round``), a new
    one every deal; what the seats hold is the state's business (the hands online, the unseen
    cards in referee mode)."""

    n: int
    total: int = 0
    direction: int = 1
    """``+1`` to the left, ``-1`` after a reversal."""
    to_play: Seat | None = None
    pile: list[Card] = field(default_factory=list)
    opening: list[Card] = field(default_factory=list)
    """The cards on the pile when the deal's play began (its starters)."""
    recent: list[PlayRecord] = field(default_factory=list)
    """The last :data:`RECENT_LIMIT` plays and passes, for the view."""
    turns: list[Turn] = field(default_factory=list)
    """Every turn of the deal so far, plays and passes (the deal's facts)."""
    deal_points: list[int] = field(default_factory=list)
    passes_in_row: int = 0
    opened: bool = False
    """Whether a play has opened the deal (where the rules ask more of the first play: Jubilee's
    black card)."""
    closed: bool = False
    void: bool = False
    next: Seat | None = None
    """The seat named to move next instead of the usual next seat (a trick winner leading)."""
    notes: list[str] = field(default_factory=list)
    """Notes on the play being made (``hit 55``), kept with it in the recent plays."""

    @classmethod
    def new(cls, n: int) -> CountingRound:
        return cls(n, deal_points=[0] * n)

    def remember(self, record: PlayRecord) -> None:
        """Add a play or a pass to the recent plays (the oldest drops off)."""
        self.recent.append(record)
        if len(self.recent) > RECENT_LIMIT:
            del self.recent[0]

    def play(self, seat: Seat, action: PlayCard | PlayAs, after: int) -> None:
        """``seat`` played ``action``'s card and the total became ``after``."""
        self.pile.append(action.play)
        self.total = after
        self.passes_in_row = 0
        self.notes = []
        self.turns.append(Turn(seat=seat, play=action))

    def close(self, void: bool = False) -> None:
        """End the deal after the current step (``void``: as if it never happened)."""
        self.closed = True
        self.void = self.void or void

    def facts(self) -> dict[str, Any]:
        """The fields of :class:`CountingFacts` the round knows."""
        return {
            "starters": tuple(self.opening),
            "turns": tuple(self.turns),
            "points": tuple(self.deal_points),
            "void": self.void,
        }



# --- what the seats hold ---------------------------------------------------------------------------


class CardSource(ABC):
    """What the seats hold in one deal, as a state knows it: the running-total machinery and the
    game's rules ask it what a seat may play from and how many cards it holds, and move cards
    through it (a play, a draw, a reshuffle). Online every card is known (:class:`KnownCards`); in
    referee mode only how many cards each seat and the stock hold, and which cards nobody has seen
    (:class:`games.referee.counting.UnseenCards`): the same rules run over either."""

    @abstractmethod
    def candidates(self, seat: Seat) -> list[Card]:
        """The cards ``seat`` may play from: its hand, or every card it might hold."""

    @abstractmethod
    def count(self, seat: Seat) -> int:
        """How many cards ``seat`` holds."""

    @abstractmethod
    def stock_size(self) -> int:
        """How many cards are left in the stock."""

    @abstractmethod
    def take(self, seat: Seat, card: Card) -> None:
        """``seat`` played ``card`` (a legal play: it holds, or may hold, the card)."""

    @abstractmethod
    def draw(self, seat: Seat) -> Card | None:
        """Move the stock's top card into ``seat``'s hand (the stock is not empty); the card, where
        it is known."""

    @abstractmethod
    def restock(self, cards: list[Card], rng: random.Random) -> None:
        """The played ``cards`` are shuffled and put back on the stock."""

    @abstractmethod
    def place(self, stock: list[Card] | None = None, aside: list[Card] | None = None) -> None:
        """The cards left after dealing (a game's ``after_deal``): the stock, the cards set aside."""

    @property
    @abstractmethod
    def hands(self) -> list[list[Card]]:
        """Every seat's hand as far as it is known."""

    @property
    @abstractmethod
    def stock(self) -> list[Card]:
        """The stock's cards as far as they are known, the top first."""

    @property
    @abstractmethod
    def set_aside(self) -> list[Card]:
        """The cards set aside face down as far as they are known (Twenty-Nine's removed Tens)."""


@dataclass
class KnownCards(CardSource):
    """Every card of the deal known: the dealt and played game's hands, stock and cards set aside."""

    known_hands: list[list[Card]]
    known_stock: list[Card] = field(default_factory=list)
    known_aside: list[Card] = field(default_factory=list)

    @classmethod
    def empty(cls, n: int) -> KnownCards:
        return cls([[] for _ in range(n)])

    @property
    def hands(self) -> list[list[Card]]:
        return self.known_hands

    @property
    def stock(self) -> list[Card]:
        return self.known_stock

    @property
    def set_aside(self) -> list[Card]:
        return self.known_aside

    def candidates(self, seat: Seat) -> list[Card]:
        return self.known_hands[seat]

    def count(self, seat: Seat) -> int:
        return len(self.known_hands[seat])

    def stock_size(self) -> int:
        return len(self.known_stock)

    def take(self, seat: Seat, card: Card) -> None:
        self.known_hands[seat].remove(card)

    def draw(self, seat: Seat) -> Card | None:
        card = self.known_stock.pop(0)
        self.known_hands[seat] = sort_hand([*self.known_hands[seat], card])
        return card

    def restock(self, cards: list[Card], rng: random.Random) -> None:
        self.known_stock = shuffled(cards, rng) + self.known_stock

    def place(self, stock: list[Card] | None = None, aside: list[Card] | None = None) -> None:
        if stock is not None:
            self.known_stock = stock
        if aside is not None:
            self.known_aside = aside


# --- the rules of a play ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CountingRules:
    """A game's pack and hand size, what a play adds and whether it is allowed, as one object over
    a deal's round (:class:`CountingRound`: the total, the pile) and its card source
    (:class:`CardSource`: what a seat may play from), so that the online and the referee state run
    the same rules over their own round and cards.

    A game subclasses it and names the subclass in its state (``rules_class``); the state builds it
    from the table's options and the numbers the state declares (``values``, ``floor``,
    ``ceiling``) and reaches it as ``state.rules``. Immutable: clones and snapshots share it. The
    state's own hooks (:meth:`games.counting.CountingState.card_value`, ...) lead
    here by default; a state may still override them."""

    options: Any
    values: Mapping[Rank, int] = field(default_factory=dict)
    """Rank -> amount added (the default :meth:`card_value` reads it)."""
    floor: int | None = None
    """A total a play may not go below (``None``: no limit)."""
    ceiling: int | None = None
    """A total a play may not go above (``None``: no limit)."""

    def __post_init__(self) -> None:
        # read-only, and a copy: the state's ``values`` is one dict shared by every table of the game
        object.__setattr__(self, "values", MappingProxyType(dict(self.values)))

    def __getstate__(self) -> dict[str, Any]:
        """For snapshots (a read-only mapping cannot be pickled): ``values`` as a plain dict."""
        return {**self.__dict__, "values": dict(self.values)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        object.__setattr__(self, "values", MappingProxyType(dict(state["values"])))

    @classmethod
    def values_for(cls, options: Any, values: Mapping[Rank, int]) -> Mapping[Rank, int]:
        """The value table of a table with these ``options`` (Fifty-One's and Obstacle Race's Ace
        is an option). Default: the state's ``values``."""
        return values

    def pack(self) -> list[Card]:
        """Every card of one deal's pack."""
        raise NotImplementedError

    def hand_size(self, players: int) -> int:
        """Cards dealt to each of ``players`` seats still in. Default: the whole pack as evenly as
        possible."""
        return len(self.pack()) // players

    def card_value(self, card: Card) -> int:
        """What a card adds to the total when it has a single value. Default: ``values[rank]``."""
        assert card.rank is not None
        return self.values[card.rank]

    def value_choices(self, card: Card) -> Sequence[int] | None:
        """The amounts a card may add when the player chooses (e.g. ``(3, -3)``); ``None``: no choice."""
        return None

    def total_choices(self, card: Card) -> Sequence[int] | None:
        """The totals a card may set (e.g. ``range(100)``); ``None``: it does not set the total."""
        return None

    def resulting_total(self, action: Action, before: int) -> int:
        """The total after a play. Default: chosen value, set total, or ``before + card_value``."""
        if isinstance(action, PlayAs):
            return action.value if action.sets_total else before + action.value
        card = play_card_of(action)
        assert card is not None
        return before + self.card_value(card)

    def refusal(
        self, deal: CountingRound, cards: CardSource, seat: Seat, action: Action, before: int, after: int
    ) -> str | None:
        """Why this play is not allowed in ``deal`` with ``cards``, or ``None`` if it is. Default:
        ``floor`` and ``ceiling``. This one function decides both legality and the refusal
        sentence, so they never disagree."""
        if self.floor is not None and after < self.floor:
            return f"That would take the total from {before} down to {after}, below {self.floor}."
        if self.ceiling is not None and after > self.ceiling:
            return f"That would take the total from {before} to {after}, past {self.ceiling}."
        return None

    def effect_text(self, action: Action, before: int, after: int) -> str:
        """How a play changed the total, for events and history: ``+4``, ``as -3``, ``sets 99``."""
        if isinstance(action, PlayAs):
            return f"sets {action.value}" if action.sets_total else f"as {signed(action.value)}"
        return signed(after - before)

    def quick_plays(self, deal: CountingRound, candidates: Sequence[Card]) -> list[Action] | None:
        """Every legal play from ``candidates`` (what the seat may play from), listed directly where
        the game knows a faster way than asking :meth:`refusal` play by play; the same plays, in
        the same order. ``None`` (the default): the machinery asks play by play."""
        return None


# --- the deal being played ------------------------------------------------------------------------


class DealTable(Protocol):
    """What a :class:`CountingDeal` asks of the state that holds it: the table's seats and match
    (``n``, ``dealer``, ``deal_no``, ``out``), its events, and the game's hooks (see
    :class:`games.counting.CountingState`, where each is described)."""

    dealer: Seat
    deal_no: int
    out: list[bool]

    @property
    def n(self) -> int: ...
    @property
    def game(self) -> Game[Any]: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def round(self) -> CountingRound: ...
    @property
    def draw_timing(self) -> DrawTiming: ...
    @property
    def hands(self) -> list[list[Card]]: ...
    @hands.setter
    def hands(self, hands: list[list[Card]]) -> None: ...

    @property
    def options(self) -> Any: ...
    @property
    def scores(self) -> list[int]: ...

    def event(self, kind: str, text: str, to: Seat | None = None) -> Event: ...
    def name(self, seat: Seat) -> str: ...
    def next_active(self, seat: Seat, direction: int = 1) -> Seat | None: ...
    def add_points(self, seat: Seat, points: int) -> None: ...
    def lose_life(self, seat: Seat) -> list[Event]: ...
    def record_pass(self, seat: Seat) -> list[Event]: ...
    def restock_from_pile(self, keep: int = 1) -> list[Event]: ...
    def on_stock_empty(self) -> list[Event]: ...
    def score_deal(self) -> list[Event]: ...
    def deal_facts(self) -> Any: ...
    def deals_played(self) -> int: ...
    def planned_deals(self) -> int: ...
    def awaiting(self) -> frozenset[Seat]: ...
    def legal_plays(self, seat: Seat) -> list[Action]: ...
    def init_deal(self) -> None: ...
    def deal_news(self, size: int) -> str: ...
    def pack(self) -> list[Card]: ...
    def next_pack_order(self, pack: Sequence[Card]) -> list[Card]: ...
    def hand_size(self) -> int: ...
    def after_deal(self, rest: list[Card]) -> list[Event]: ...
    def first_player(self) -> Seat: ...
    def begin_turn(self, seat: Seat) -> list[Event]: ...
    def can_play(self, seat: Seat) -> bool: ...
    def resulting_total(self, action: Action, before: int) -> int: ...
    def effect_text(self, action: Action, before: int, after: int) -> str: ...
    def take_card(self, seat: Seat, card: Card) -> None: ...
    def after_play(self, seat: Seat, action: Action, before: int, after: int) -> list[Event]: ...
    def other_action(self, seat: Seat, action: Action) -> list[Event]: ...
    def draw(self, seat: Seat) -> list[Event]: ...
    def next_seat(self, seat: Seat) -> Seat | None: ...
    def turn_takers(self) -> list[Seat]: ...
    def on_stuck(self, seat: Seat) -> list[Event]: ...
    def on_blocked(self) -> list[Event]: ...
    def on_exhausted(self) -> list[Event]: ...
    def settle_deal(self) -> list[Event]: ...
    def _start_deal(self) -> list[Event]: ...



@dataclass
class CountingDeal:
    """The deal being played at an adding-up table, as the online and the referee state both hold
    it (``state.deal``): its play (:class:`CountingRound`), what the seats hold (:class:`CardSource`)
    and the game's rules (:class:`CountingRules`, the same all match), with the turn loop over them:
    dealing (:meth:`start`), a play (:meth:`apply`) and the automatic steps until someone must
    choose (:meth:`run`). The state that holds it is handed to each call: it answers the game's
    hooks (what a play does, who may play, who is stuck) and keeps the match (scores, dealer,
    lives). One object for the whole match: :meth:`start` renews its round and cards each deal."""

    rules: CountingRules
    round: CountingRound
    cards: CardSource
    shown: list[list[Card]]
    """Cards a seat showed on passing and still holds (public knowledge)."""

    @classmethod
    def new(cls, rules: CountingRules, n: int) -> Self:
        return cls(rules, CountingRound.new(n), KnownCards.empty(n), [[] for _ in range(n)])

    def start(self, table: DealTable) -> list[Event]:
        """Deal the next hand (the match has passed the deal on): shuffle (or take the fixed deck),
        deal, place the rest (the table's ``after_deal``), and name the first player."""
        n = table.n
        table.deal_no += 1
        self.round = CountingRound.new(n)
        self.cards = KnownCards.empty(n)
        self.shown = [[] for _ in range(n)]
        table.init_deal()
        order = table.next_pack_order(table.pack())
        seats = self.deal_order(table)
        size = table.hand_size()
        dealt = size * len(seats)
        hands = self.cards.hands
        for i, card in enumerate(order[:dealt]):
            hands[seats[i % len(seats)]].append(card)
        table.hands = [sort_hand(h) for h in hands]
        events = [table.event("deal", table.deal_news(size))]
        events += table.after_deal(list(order[dealt:]))
        rnd = table.round  # after_deal may have replaced the cards, never the round
        rnd.opening = list(rnd.pile)
        if not rnd.closed:
            rnd.to_play = table.first_player()
        return events

    @staticmethod
    def deal_order(table: DealTable) -> list[Seat]:
        """Active seats from the dealer's left round to the dealer."""
        n = table.n
        return [s for k in range(1, n + 1) if not table.out[s := (table.dealer + k) % n]]

    def awaiting(self, table: DealTable) -> frozenset[Seat]:
        """The seat to play (nobody between deals or once the match is over)."""
        seat = self.round.to_play
        if table.is_over or seat is None:
            return frozenset()
        return frozenset((seat,))

    def legal(self, table: DealTable, seat: Seat) -> list[Action]:
        """The plays of the seat to play (the table's ``legal_plays``); nobody else's."""
        if table.is_over or seat != self.round.to_play:
            return []
        return table.legal_plays(seat)

    def apply(self, table: DealTable, seat: Seat, action: Action) -> list[Event]:
        """A legal play (or the game's other action) by ``seat``, then the automatic steps."""
        card = play_card_of(action)
        events = table.other_action(seat, action) if card is None else self.play(table, seat, action, card)
        if not self.round.closed and table.draw_timing == "after":
            events += table.draw(seat)
        rnd = self.round
        nxt = rnd.next if rnd.next is not None else table.next_seat(seat)
        rnd.next = None
        return events + self.run(table, nxt)

    def play(self, table: DealTable, seat: Seat, action: Action, card: Card) -> list[Event]:
        """``card`` leaves ``seat``'s hand for the pile; the total moves; the game's ``after_play``."""
        rnd = self.round
        before = rnd.total
        after = table.resulting_total(action, before)
        effect = table.effect_text(action, before, after)
        table.take_card(seat, card)
        rnd.play(seat, action, after)  # type: ignore[arg-type]
        events = [table.event("play", f"{table.name(seat)} plays {card.short} ({effect}): the total is {after}.")]
        events += table.after_play(seat, action, before, after)
        rnd.remember(PlayRecord(seat=seat, card=card, effect=effect, total=rnd.total, note="; ".join(rnd.notes)))
        rnd.notes = []
        return events

    def run(self, table: DealTable, seat: Seat | None) -> list[Event]:
        """Carry out everything automatic (turn starts, forced passes, deal ends, new deals)
        until a seat must choose or the match is over."""
        events: list[Event] = []
        guard = 0
        while not table.is_over:
            guard += 1
            if guard > 10_000:
                raise DealClosed(f"{table.game.id}: the automatic steps do not settle")
            rnd = self.round
            if rnd.closed:
                rnd.to_play = None
                events += table.settle_deal()
                if table.is_over:
                    break
                events += table._start_deal()
                seat = self.round.to_play
                continue
            if seat is None:
                events += table.on_exhausted()
                if not (self.round.closed or table.is_over):
                    raise DealClosed(f"{table.game.id}: nobody can move and the deal did not end")
                continue
            rnd.to_play = seat
            events += table.begin_turn(seat)
            if rnd.closed or table.is_over:
                continue
            if table.can_play(seat):
                return events
            rnd.turns.append(Turn(seat=seat))
            events += table.on_stuck(seat)
            if rnd.closed or table.is_over:
                continue
            rnd.passes_in_row += 1
            if rnd.passes_in_row >= len(table.turn_takers()):
                events += table.on_blocked()
                rnd.passes_in_row = 0
                if rnd.next is not None:
                    seat, rnd.next = rnd.next, None
                    continue
                if not (rnd.closed or table.is_over):
                    seat = table.next_seat(seat)
                continue
            seat = table.next_seat(seat)
        self.round.to_play = None
        return events


    # -- the game's hooks ----------------------------------------------------------------------
    # A game's deal (a subclass, the state's ``deal_class``) keeps its own per-deal fields (who
    # lost, the points still to make) and overrides these; the state's hooks of the same name lead
    # here, so a referee state that overrides one still reaches the game's by ``super()``. A hook
    # asks the table only for the seats, the events and the match (scores, lives).

    def init_deal(self, table: DealTable) -> None:
        """Reset the game's own per-deal fields; runs at each deal before the cards are dealt."""

    def deal_news(self, table: DealTable, size: int) -> str:
        """What the table is told as a deal is dealt (``size`` cards each)."""
        return f"Deal {table.deal_no}: {table.name(table.dealer)} deals {size} cards each."

    def after_deal(self, table: DealTable, rest: list[Card]) -> list[Event]:
        """Place the cards left after dealing the hands. Default: they form the stock (``rest[0]``
        is drawn first). Games put starters on the pile and set the total here."""
        self.cards.place(stock=rest)
        return []

    def sits_out(self, seat: Seat) -> bool:
        """Whether turns skip ``seat`` for the rest of this deal though it is still in the match
        (Wit and Reason I: a player who passed). Default: no one."""
        return False

    def first_player(self, table: DealTable) -> Seat:
        """Who plays first. Default: the next seat still in at the dealer's left."""
        seat = table.next_active(table.dealer, 1)
        assert seat is not None
        return seat

    def begin_turn(self, table: DealTable, seat: Seat) -> list[Event]:
        """A turn begins. Default: draw first when ``draw_timing == "before"``."""
        if table.draw_timing == "before":
            return table.draw(seat)
        return []

    def after_play(self, table: DealTable, seat: Seat, action: Action, before: int, after: int) -> list[Event]:
        """Score the play, bust, reset the total, reverse, or close the deal. Default: nothing.
        The total already equals ``after``; :meth:`note` annotates the play in the history."""
        return []

    def other_action(self, table: DealTable, seat: Seat, action: Action) -> list[Event]:
        """Apply a legal action that is not a play (a game that lists one in ``legal_plays``)."""
        raise NotImplementedError(f"{type(action).__name__} is not handled")

    def on_stuck(self, table: DealTable, seat: Seat) -> list[Event]:
        """``seat`` has no legal play. Default: it passes (the table's ``record_pass``)."""
        return table.record_pass(seat)

    def on_blocked(self, table: DealTable) -> list[Event]:
        """Every seat in turn has passed in a row. Default: the deal ends with nobody scoring.
        Must close the deal, finish the match, or change the position so that someone can play."""
        self.round.close()
        return [table.event("blocked", "Nobody can play, so the deal ends.")]

    def on_exhausted(self, table: DealTable) -> list[Event]:
        """Nobody has a card left (and the stock is empty). Default: the deal ends."""
        self.round.close()
        return [table.event("deal_end", "All the cards have been played.")]

    def on_stock_empty(self, table: DealTable) -> list[Event]:
        """A draw is due but the stock is empty. Default: nothing (play goes on from hand)."""
        return []

    def score_deal(self, table: DealTable) -> list[Event]:
        """The deal's last events once it is closed, before the match books its facts. Default:
        nothing (points were added as they came)."""
        return []

    def facts(self, table: DealTable) -> dict[str, Any]:
        """The fields of the deal's facts (:class:`games.counting.CountingFacts` and a game's own):
        the round's, and a game's deal adds its own."""
        return self.round.facts()

    def note(self, text: str) -> None:
        """Annotate the play being made in the recent history (``hit 55``, ``reset to 0``)."""
        self.round.notes.append(text)

    def view_notes(self, table: DealTable, seat: Seat | None) -> list[str]:
        """The game's lines for the view (the next target, the obstacles ahead, which deal this
        is), as both modes show them. Default: none."""
        return []


class DealClosed(Exception):
    """Raised internally if a hook leaves the deal in a position nobody can move from."""
