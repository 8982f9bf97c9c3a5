# Over 400 lines: the one base state every adding-up game shares (its hooks: what a play does, passing, drawing, lives), its view and picture, the facts of its deals and the match they settle; the deal itself is games/counting_deal.py.
"""What the adding-up games share: a running total, card values, targets, passing, stock, turns.

Every adder (Fifty-One, Hundred, Jubilee, Obstacle Race, Ninety-Nine, Twenty-Nine, Wit and Reason)
is a :class:`CountingState` that states only what differs: its pack, hand size, card values and
what a play may do in a rules object (:class:`~games.counting_deal.CountingRules`, ``self.rules``,
which the referee state runs too), what a play does through hooks on its deal. The deal being
played is an object of :mod:`games.counting_deal` (:class:`~games.counting_deal.CountingDeal`, or
the game's subclass named by ``deal_class``, ``self.deal``: the round, the card source, the rules,
the turn loop and the game's per-deal fields and hooks), which the state holds and calls with
itself (:meth:`_apply`, :meth:`_start_deal`); the state's hooks below lead to the deal's. What
belongs to the match (lives, who went out when) the game's match sets up
(:meth:`CountingMatch.init_match`) and shows (:meth:`CountingMatch.view_fields`). The machinery keeps:

* the **pack, hands and stock** of the current deal (``self.hands``, ``self.stock``: the deal's card
  source, ``self.cards``);
* **the round** (:class:`CountingRound`, ``self.round``, a new one every deal): the pile and its
  **running total**, whose turn it is and which way play goes (``+1`` to the left, ``-1`` after a
  reversal), every turn, the recent plays, the deal's points, the passes in a row and the deal's
  end. The referee state keeps the same round. Its fields read as before on the state
  (``self.total``, ``self.pile``, ``self.to_play``, ...);
* **turn order**: seats that are out of the match or have nothing left to play are skipped;
* **drawing** from the stock before or after a play, while it lasts (:attr:`CountingState.draw_timing`),
  with :meth:`CountingState.on_stock_empty` for a reshuffle;
* **passing**: a seat with no legal play is handled by :meth:`CountingState.on_stuck` (by default it
  passes automatically, optionally showing its hand); when every seat in turn has passed in a row,
  :meth:`CountingState.on_blocked` decides (end the deal, void it, ...);
* **lives and elimination** (``self.lives``, ``self.out``, :meth:`CountingState.lose_life`);
* **the deal's facts** (:class:`CountingFacts`: the starters, every turn, each seat's points, and
  the game's own: who lost or won), handed to **the match** (:class:`CountingMatch`, declared once
  per game as ``MATCH`` and held by the online and the referee state alike): it books them, then
  ends the match or passes the deal to the next player still in. Points scored during a deal show
  in ``self.scores`` at once (and in ``self.deal_points``); the match books them when it settles.

A turn, in order:

1. the turn begins (:meth:`CountingState.begin_turn`: a draw first when ``draw_timing == "before"``);
2. if :meth:`CountingState.legal_plays` is empty the seat is stuck (:meth:`CountingState.on_stuck`);
3. otherwise the seat chooses a play: :class:`~games.engine.PlayCard` for a card with one value, or
   :class:`PlayAs` when the card offers a choice (:meth:`CountingState.value_choices` for a choice of
   amounts to add, :meth:`CountingState.total_choices` for a choice of totals to set);
4. the card leaves the hand (:meth:`CountingState.take_card`), goes on the pile, and the total
   becomes :meth:`CountingState.resulting_total`; :meth:`CountingState.after_play` then scores,
   busts, resets or ends the deal (:meth:`CountingState.close_deal`);
5. a draw when ``draw_timing == "after"``; then the next seat (:meth:`CountingState.next_seat`, or a
   seat named by :meth:`CountingState.set_next`).

When a deal is closed, :meth:`CountingState.score_deal` adds its last events, then the match settles
its facts (:meth:`CountingState.settle_deal`) and either ends the match or the next deal starts.

Scoring questions that referee mode must answer without a state are pure functions here
(:func:`targets_crossed`, :func:`multiples_crossed`) and in each game's module.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any, ClassVar, TypeVar

from pydantic import Field

from games.cards import Card, Rank, format_cards
from games.counting_deal import (
    RECENT_LIMIT as RECENT_LIMIT,  # the deal's parts, imported from here by the games
)
from games.counting_deal import (
    CardSource,
    CountingDeal,
    CountingRound,
    CountingRules,
    DrawTiming,
    KnownCards,
    PlayAs,
    PlayRecord,
    Turn,
    play_as,
    play_card,
    play_card_of,
)
from games.counting_deal import (
    DealClosed as DealClosed,
)
from games.counting_deal import (
    signed as signed,
)
from games.engine import (
    Action,
    BaseOptions,
    Event,
    GameState,
    Outcome,
    Seat,
    View,
    Zone,
)
from games.layout import (
    Area,
    Counts,
    Layout,
    Notes,
    Pile,
    Row,
    Scores,
    Spot,
    dealer_facts,
    finish,
    own_hand,
    score_lines,
    spots,
    standard_scores,
)
from games.match import DealFacts, Match, MatchState

# --- pure helpers (usable by referee mode) ----------------------------------------------------


def targets_crossed(old: int, new: int, targets: Iterable[int]) -> tuple[list[int], list[int]]:
    """Which ``targets`` a move from ``old`` to ``new`` hits and which it skips.

    A target is *hit* when the move ends on it (and did not start there: staying put makes nothing);
    it is *skipped* when it lies strictly between ``old`` and ``new``, in either direction. Leaving a
    target is neither.
    """
    lo, hi = min(old, new), max(old, new)
    hit = [t for t in targets if t == new and t != old]
    skipped = [t for t in targets if lo < t < hi]
    return hit, skipped


def multiples_crossed(old: int, new: int, step: int, *, include_zero: bool = False) -> tuple[list[int], list[int]]:
    """Like :func:`targets_crossed` for every multiple of ``step`` (0 counts only with ``include_zero``)."""
    lo, hi = min(old, new), max(old, new)
    first = -(-(lo + 1) // step) * step  # the smallest multiple above lo
    skipped = [m for m in range(first, hi, step) if include_zero or m != 0]
    hit = [new] if new != old and new % step == 0 and (include_zero or new != 0) else []
    return hit, skipped


def stack_deck(
    pack: Sequence[Card],
    hands: Sequence[Sequence[Card]],
    then: Sequence[Card] = (),
    hand_size: int | None = None,
) -> list[Card]:
    """A pack order that deals ``hands`` (listed from the dealer's left; the machinery deals one
    card at a time round the table) and then has ``then`` next (starters, then the stock's top
    cards). With ``hand_size`` each hand is topped up from the unused cards; the pack's other
    cards follow at the end. For tests and for replaying a real deal in referee mode."""
    unused = Counter(pack)
    unused.subtract([c for h in hands for c in h])
    unused.subtract(then)
    if any(v < 0 for v in unused.values()):
        raise ValueError("the hands and cards asked for are not all in the pack")
    spare: list[Card] = []
    for c in pack:
        if unused[c] > 0:
            unused[c] -= 1
            spare.append(c)
    size = hand_size if hand_size is not None else max((len(h) for h in hands), default=0)
    full = [list(h) for h in hands]
    for h in full:
        while len(h) < size:
            h.append(spare.pop(0))
    if any(len(h) != size for h in full):
        raise ValueError("every hand must hold the same number of cards")
    order = [full[i % len(full)][i // len(full)] for i in range(size * len(full))]
    return order + list(then) + spare


# --- records and views --------------------------------------------------------------------------


class CountingView(View):
    """The table of an adding-up game: total, whose turn, recent plays, stock and hand sizes."""

    total: int = 0
    to_play: Seat | None = None
    direction: int = 1
    recent: list[PlayRecord] = Field(default_factory=list)
    opening: list[Card] = Field(default_factory=list)
    """The cards turned up to start the deal's pile (Fifty-One's starter, the cards left over in
    Hundred and Obstacle Race): public, and still in the pile under the plays."""
    stock: int = 0
    hand_counts: list[int] = Field(default_factory=list)
    deal_points: list[int] = Field(default_factory=list)
    lives: list[int] | None = None
    deals_left: int | None = None
    """Deals still to come after this one, where the match is a fixed number of deals and that
    number decides it (a bot weighs a deal's result by what it does to the match)."""
    ends_at_first_out: bool = False
    """Where there are lives: the match ends as soon as one player has none left (the most lives
    win), not when a single player is left in."""
    out: list[bool] = Field(default_factory=list)
    side_of: list[int] | None = None
    """Where seats play in sides (Twenty-Nine): each seat's side, as the table shows it."""
    notes: list[str] = Field(default_factory=list)
    """Game-specific lines: the next target, obstacles, the match plan..."""

    def record_text(self, r: PlayRecord) -> str:
        who = self.players[r.seat]
        if r.card is None:
            shown = f" (showed {format_cards(r.shown)})" if r.shown else ""
            text = f"{who} passed{shown}"
        else:
            effect = f" {r.effect}" if r.effect else ""
            text = f"{who} {r.card.short}{effect} \u2192 {r.total}"
        return f"{text} [{r.note}]" if r.note else text

    def table_lines(self) -> list[str]:
        lines = [f"Total: {self.total}"]
        if self.opening:
            lines.append(f"Turned up to start: {format_cards(self.opening)}")
        if self.to_play is not None and not self.over:
            arrow = "" if self.direction == 1 else " (play goes to the right)"
            lines.append(f"To play: {self.players[self.to_play]}{arrow}")
        if self.recent:
            lines.append("Last plays: " + "; ".join(self.record_text(r) for r in self.recent))
        lines.append(f"Stock: {self.stock} cards")
        counts = ", ".join(
            f"{p} {'out' if self.out and self.out[i] else c}"
            for i, (p, c) in enumerate(zip(self.players, self.hand_counts, strict=True))
        )
        lines.append(f"Cards in hand: {counts}")
        if self.lives is not None:
            lines.append("Lives: " + ", ".join(f"{p} {v}" for p, v in zip(self.players, self.lives, strict=True)))
        if any(self.deal_points):
            lines.append(
                "This deal: " + ", ".join(f"{p} {v}" for p, v in zip(self.players, self.deal_points, strict=True))
            )
        lines.extend(self.notes)
        return lines

    # -- the picture -------------------------------------------------------------------------------

    def play_spot(self, r: PlayRecord) -> Spot:
        """A recent play: the card, who played it and what it did (``+7 → 24``); a pass as a gap."""
        who = self.players[r.seat]
        if r.card is None:
            return Spot(None, label=f"{who}\npassed", empty=True)
        if not r.effect:
            effect = f"→ {r.total}"
        elif r.effect[:1].isalpha() and str(r.total) in r.effect.split():  # "sets 73"
            effect = r.effect
        else:
            effect = f"{r.effect}\n→ {r.total}"
        return Spot(r.card, label=f"{who}\n{effect}")

    def pile_area(self, last: int | None = None) -> Pile:
        """The recent plays (the last ``last`` of them) beside the running total."""
        recent = self.recent if last is None else self.recent[-last:]
        spots = tuple(self.play_spot(r) for r in recent)
        if spots and spots[-1].card is not None:
            spots = (*spots[:-1], replace(spots[-1], mark="last"))
        return Pile("Played" if recent else "Nothing played yet", spots, total=self.total)

    def table_facts(self) -> list[tuple[str, str]]:
        """The way play goes, the dealer and the cards turned up to start the pile (whose turn it is
        the subtitle says: "Ann to play")."""
        facts: list[tuple[str, str]] = []
        if self.direction != 1:
            facts.append(("", "Play goes to the right"))
        facts.extend(dealer_facts(self))
        if self.opening and not self.over:
            facts.append(("Turned up", " ".join(c.short for c in self.opening)))
        return facts

    def hands_area(self) -> Counts | None:
        """The face-down hands and the stock, as counts (none once the match is over: the text
        still says them)."""
        if self.over:
            return None
        items = [
            (name, count)
            for i, (name, count) in enumerate(zip(self.players, self.hand_counts, strict=True))
            if not (self.out and self.out[i])
        ]
        if len(items) > 2 and len({count for _, count in items}) == 1:  # thirteen chips of 3 said once
            items = [("Each", items[0][1])]
        if self.stock:
            items.append(("Stock", self.stock))
        return Counts("Cards in hand", tuple(items)) if any(c for _, c in items) else None

    def scores_area(self) -> Scores:
        """The scores, this deal's points and the lives left; where the scores are the lives left
        (Ninety-Nine), one column of lives."""
        extra: list[tuple[str, Sequence[object]]] = []
        if any(self.deal_points) and list(self.deal_points) != list(self.scores):
            extra.append(("This deal", self.deal_points))  # (not where it is the score: the first deal)
        if self.lives is not None:
            lives = [("out" if self.out and self.out[s] else v) for s, v in enumerate(self.lives)]
            if list(self.lives) == list(self.scores):
                awaiting = () if self.over else self.awaiting
                columns = ("Lives", *(name for name, _ in extra))
                return Scores(columns, score_lines(self.players, awaiting, lives, *(col for _, col in extra)))
            extra.append(("Lives", lives))
        return standard_scores(self, *extra)

    def shown_rows(self) -> list[Row]:
        """Cards a player showed when passing (they are public from then on)."""
        return [
            Row(f"{self.players[r.seat]} showed", spots(r.shown), overlap=len(r.shown) > 8)
            for r in self.recent
            if r.card is None and r.shown
        ]

    def layout(self) -> Layout:
        return finish(
            self,
            [self.pile_area(), *self.shown_rows(), *own_hand(self), self.hands_area(),
             Notes(tuple(self.notes)), self.scores_area()],
            self.table_facts(),
        )

    def hand_context(self) -> tuple[Area, ...]:
        return (self.pile_area(last=4),)


# --- the facts of a deal and the match ------------------------------------------------------------


class CountingFacts(DealFacts):
    """What an adding-up deal produced: the cards turned up to start it, every turn in order, each
    seat's points in it, and whether it was void (dealt again by the same dealer). A game's facts
    add who lost or won it. The turns let referee mode enter the deal card by card; the rest
    lets it enter the result alone."""

    starters: tuple[Card, ...] = ()
    turns: tuple[Turn, ...] = ()
    points: tuple[int, ...] = ()
    void: bool = False


CF = TypeVar("CF", bound=CountingFacts)


class CountingMatch(Match[CF]):
    """The match of an adding-up game: a game books a deal's facts (:meth:`book`); then the match
    ends (:meth:`over`, :meth:`outcome`) or the deal passes to the next player still in. A void
    deal books nothing, is not counted, and the same dealer deals again."""

    higher_is_better: ClassVar[bool] = True

    def score(self, state: MatchState, facts: CF) -> list[Event]:
        st: CountingState[Any] = state  # type: ignore[assignment]
        if facts.void:
            st.void_deals += 1
            return []
        events = self.book(st, facts)
        if self.over(st):
            events.append(st.finish(self.outcome(st)))
        else:
            nxt = st.next_active(st.dealer, 1)
            assert nxt is not None
            st.dealer = nxt
        return events

    def init_match(self, state: CountingState[Any]) -> None:
        """Set up the match's own fields on a new state, before its first deal (lives, the order
        players went out): the state's :meth:`CountingState.init_match` calls it. Default: nothing."""

    def view_fields(self, state: CountingState[Any]) -> dict[str, Any]:
        """Fields of the view the match fills (``deals_left``, ``ends_at_first_out``). Default: none."""
        return {}

    def book(self, state: CountingState[Any], facts: CF) -> list[Event]:
        """Add the deal's points to the match. Default: each seat's points."""
        for seat, points in enumerate(facts.points):
            state.scores[seat] += points
        return []

    def planned_deals(self, state: CountingState[Any]) -> int:
        """How many deals a fixed-length match has. Default: ``rounds`` (if an option) per player."""
        return int(getattr(state.options, "rounds", 1)) * state.n

    def over(self, state: CountingState[Any]) -> bool:
        """Checked after each deal. Default: the planned deals are played, or one seat is left."""
        return state.deals_played() >= self.planned_deals(state) or len(state.active_seats()) <= 1

    def outcome(self, state: CountingState[Any]) -> Outcome:
        """The final result. Default: rank the scores (see ``higher_is_better``)."""
        return Outcome.from_scores(state.scores, higher_is_better=self.higher_is_better)


PLAIN: CountingMatch[CountingFacts] = CountingMatch()
"""The match of a counting state that declares none: :class:`CountingMatch`'s defaults."""


# --- options ------------------------------------------------------------------------------------


class CountingOptions(BaseOptions):
    """Options most adders share: how long the match lasts."""

    rounds: int = Field(
        1,
        ge=1,
        le=10,
        description="How many times each player deals: the match lasts this many deals per player.",
    )


CO = TypeVar("CO", bound=BaseOptions)



# --- the state ----------------------------------------------------------------------------------


class CountingState(GameState[CO]):
    """The running-total machinery. Subclasses set the class attributes and override hooks.

    Class attributes:

    * ``rules_class``: the game's :class:`CountingRules` (values and legality), built for the table
      as ``self.rules``;
    * ``values``: rank -> amount added (the default :meth:`CountingRules.card_value` reads it);
    * ``draw_timing``: ``"before"`` (Fifty-One), ``"after"`` (Jubilee, Ninety-Nine) or ``"none"``;
    * ``floor`` / ``ceiling``: totals a play may not go below / above (``None``: no limit). A total
      past the ceiling is *illegal* (Ninety-Nine, Twenty-Nine); a total that is legal but loses
      (Fifty-One's 51) is the game's business in :meth:`after_play` (both handed to the rules);
    * ``show_hand_on_pass``: a stuck seat shows its hand to the table (Jubilee);
    * ``match``: the game's match (its ``MATCH``).
    """

    rules_class: ClassVar[type[CountingRules]] = CountingRules
    values: ClassVar[dict[Rank, int]] = {}
    draw_timing: ClassVar[DrawTiming] = "none"
    floor: ClassVar[int | None] = None
    ceiling: ClassVar[int | None] = None
    show_hand_on_pass: ClassVar[bool] = False
    restock_news: ClassVar[str] = "The played cards are shuffled to make a new stock."
    """What the table is told when the played cards become a new stock."""
    match: ClassVar[CountingMatch[Any]] = PLAIN
    deal_class: ClassVar[type[CountingDeal]] = CountingDeal
    """The game's deal (:class:`CountingDeal` or a subclass keeping the game's per-deal fields and
    hooks), one object for the whole match."""
    facts_class: ClassVar[type[CountingFacts]] = CountingFacts
    """The facts of the game's deals, built from :meth:`CountingDeal.facts`."""
    """The game's match (:class:`CountingMatch`): every deal is settled through it from its facts
    (:meth:`deal_facts`). By default each seat's points, over the planned deals."""

    def __init__(
        self,
        players: Sequence[str],
        options: CO,
        seed: int,
        deck: Sequence[Card] | Sequence[Sequence[Card]] | None = None,
    ) -> None:
        super().__init__(players, options, seed, deck)
        self.log.extend(self.begin_counting())

    def begin_counting(self) -> list[Event]:
        """Set up the match and play its first deal up to the first choice."""
        n = self.n
        self.dealer: Seat
        self.match.begin(self)
        self.rules = self.make_rules()
        """The game's values and legality (:class:`CountingRules`), the same for the whole match."""
        self.deal = self.deal_class.new(self.rules, n)
        """The deal being played (:class:`CountingDeal`: its round, its cards, the turn loop)."""
        self.lives: list[int] | None = None
        self.out: list[bool] = [False] * n
        self.void_deals = 0
        self.init_match()
        events = self._start_deal()
        events += self.deal.run(self, self.to_play)
        return events

    def make_rules(self) -> CountingRules:
        """The rules of this table: the game's ``rules_class`` with its options and numbers."""
        values = self.rules_class.values_for(self.options, self.values)
        return self.rules_class(self.options, values=values, floor=self.floor, ceiling=self.ceiling)

    # ===== the deal's parts, read and set on the state as before ============================

    @property
    def round(self) -> CountingRound:
        """The deal's play (a new one every deal)."""
        return self.deal.round

    @property
    def cards(self) -> CardSource:
        """What the seats, the stock and the cards set aside hold (a new source every deal)."""
        return self.deal.cards

    @cards.setter
    def cards(self, source: CardSource) -> None:
        self.deal.cards = source

    @property
    def shown(self) -> list[list[Card]]:
        """Cards a seat showed on passing and still holds (public knowledge)."""
        return self.deal.shown

    @shown.setter
    def shown(self, cards: list[list[Card]]) -> None:
        self.deal.shown = cards

    # ===== the round's fields, read and set on the state as before ==========================

    @property
    def total(self) -> int:
        return self.round.total

    @total.setter
    def total(self, value: int) -> None:
        self.round.total = value

    @property
    def direction(self) -> int:
        return self.round.direction

    @property
    def to_play(self) -> Seat | None:
        return self.round.to_play

    @to_play.setter
    def to_play(self, seat: Seat | None) -> None:
        self.round.to_play = seat

    @property
    def pile(self) -> list[Card]:
        return self.round.pile

    @pile.setter
    def pile(self, cards: list[Card]) -> None:
        self.round.pile = cards

    @property
    def opening(self) -> list[Card]:
        return self.round.opening

    @property
    def recent(self) -> list[PlayRecord]:
        return self.round.recent

    @property
    def turns(self) -> list[Turn]:
        return self.round.turns

    @property
    def deal_points(self) -> list[int]:
        return self.round.deal_points

    @property
    def deal_closed(self) -> bool:
        return self.round.closed

    # ===== the cards' places, read and set on the state as before ============================

    @property
    def hands(self) -> list[list[Card]]:
        return self.cards.hands

    @hands.setter
    def hands(self, hands: list[list[Card]]) -> None:
        assert isinstance(self.cards, KnownCards), "only known hands can be set"
        self.cards.known_hands = hands

    @property
    def stock(self) -> list[Card]:
        return self.cards.stock

    @stock.setter
    def stock(self, cards: list[Card]) -> None:
        self.cards.place(stock=cards)

    @property
    def set_aside(self) -> list[Card]:
        """Cards out of play for this deal, face down (Twenty-Nine's removed Tens)."""
        return self.cards.set_aside

    @set_aside.setter
    def set_aside(self, cards: list[Card]) -> None:
        self.cards.place(aside=cards)

    # ===== hooks: the pack and the deal ======================================================

    def init_match(self) -> None:
        """Set up match-wide state before the first deal (lives, say): the match's
        (:meth:`CountingMatch.init_match`). Default: nothing.

        Subclasses set their own attributes here (or in :meth:`init_deal`), not in ``__init__``:
        the base ``__init__`` deals the first hand before a subclass ``__init__`` body would run.
        """
        self.match.init_match(self)

    def init_deal(self) -> None:
        """Reset a game's own per-deal state; runs at each deal before the cards are dealt
        (:meth:`CountingDeal.init_deal`: a game's deal resets its own fields)."""
        self.deal.init_deal(self)

    def pack(self) -> list[Card]:
        """Every card of one deal's pack (:meth:`CountingRules.pack`)."""
        return self.rules.pack()

    def hand_size(self) -> int:
        """Cards dealt to each seat in the deal (:meth:`CountingRules.hand_size` for the seats still
        in); a state that overrides :meth:`pack` itself deals its whole pack as evenly as possible."""
        if type(self).pack is not CountingState.pack:
            return len(self.pack()) // len(self.active_seats())
        return self.rules.hand_size(len(self.active_seats()))

    def deal_news(self, size: int) -> str:
        """What the table is told as a deal is dealt (``size`` cards each: :meth:`CountingDeal.deal_news`)."""
        return self.deal.deal_news(self, size)

    def after_deal(self, rest: list[Card]) -> list[Event]:
        """Place the cards left after dealing the hands (:meth:`CountingDeal.after_deal`. Default:
        they form the stock, ``rest[0]`` drawn first). Games put starters on the pile and set the total."""
        return self.deal.after_deal(self, rest)

    def first_player(self) -> Seat:
        """Who plays first in a deal (:meth:`CountingDeal.first_player`. Default: the next active
        seat at the dealer's left)."""
        return self.deal.first_player(self)

    # ===== hooks: values and legality (the rules', :attr:`rules`) ==========================

    def card_value(self, card: Card) -> int:
        """What a card adds to the total when it has a single value (:meth:`CountingRules.card_value`)."""
        return self.rules.card_value(card)

    def value_choices(self, card: Card) -> Sequence[int] | None:
        """The amounts a card may add when the player chooses (:meth:`CountingRules.value_choices`)."""
        return self.rules.value_choices(card)

    def total_choices(self, card: Card) -> Sequence[int] | None:
        """The totals a card may set (:meth:`CountingRules.total_choices`)."""
        return self.rules.total_choices(card)

    def resulting_total(self, action: Action, before: int) -> int:
        """The total after a play (:meth:`CountingRules.resulting_total`); a state that overrides
        :meth:`card_value` itself adds its own value for a card played with a single value."""
        if type(self).card_value is not CountingState.card_value and not isinstance(action, PlayAs):
            card = play_card_of(action)
            assert card is not None
            return before + self.card_value(card)
        return self.rules.resulting_total(action, before)

    def refusal(self, seat: Seat, action: Action, before: int, after: int) -> str | None:
        """Why this play is not allowed now, or ``None`` if it is (:meth:`CountingRules.refusal`,
        over this deal's round and cards)."""
        return self.rules.refusal(self.round, self.cards, seat, action, before, after)

    def source_cards(self, seat: Seat) -> list[Card]:
        """The cards ``seat`` may play from. Default: its hand, or in referee mode any card it may
        hold (:attr:`cards`; Wit and Reason II: the shared pool)."""
        return self.cards.candidates(seat)

    def take_card(self, seat: Seat, card: Card) -> None:
        """Remove a played card from where it came from. Default: the seat's hand."""
        self.cards.take(seat, card)
        shown = self.shown[seat]
        if card in shown:
            shown.remove(card)

    def effect_text(self, action: Action, before: int, after: int) -> str:
        """How a play changed the total (:meth:`CountingRules.effect_text`)."""
        return self.rules.effect_text(action, before, after)

    # ===== hooks: what happens ===============================================================

    # Each leads to the hook of the same name on the deal (:class:`CountingDeal`, the game's
    # ``deal_class``), where a game whose per-deal fields live on its deal writes it; a game may
    # still override the state's (and a referee state overrides it and reaches the game's by super()).

    def after_play(self, seat: Seat, action: Action, before: int, after: int) -> list[Event]:
        """Score the play, bust, reset the total, reverse, or :meth:`close_deal`. Default: nothing.

        ``self.total`` already equals ``after``; a hook may change it (a reset to 0). Use
        :meth:`note` to annotate the play in the history, :meth:`add_points` to score.
        """
        return self.deal.after_play(self, seat, action, before, after)

    def other_action(self, seat: Seat, action: Action) -> list[Event]:
        """Apply a legal action that is not a play (a game that lists one in :meth:`legal_plays`)."""
        return self.deal.other_action(self, seat, action)

    def begin_turn(self, seat: Seat) -> list[Event]:
        """A turn begins. Default: draw first when ``draw_timing == "before"``."""
        return self.deal.begin_turn(self, seat)

    def on_stuck(self, seat: Seat) -> list[Event]:
        """``seat`` has no legal play. Default: it passes (showing its hand if ``show_hand_on_pass``).

        Override to lose a life or the game instead (then :meth:`close_deal` or end the match).
        """
        return self.deal.on_stuck(self, seat)

    def on_blocked(self) -> list[Event]:
        """Every seat in turn has passed in a row. Default: the deal ends with nobody scoring.

        Must close the deal, finish the match, or change the position so that someone can play.
        """
        return self.deal.on_blocked(self)

    def on_exhausted(self) -> list[Event]:
        """Nobody has a card left (and the stock is empty). Default: the deal ends."""
        return self.deal.on_exhausted(self)

    def on_stock_empty(self) -> list[Event]:
        """A draw is due but the stock is empty. Default: nothing (play goes on from hand).
        Ninety-Nine would call :meth:`restock_from_pile` here."""
        return self.deal.on_stock_empty(self)

    def score_deal(self) -> list[Event]:
        """The deal's last events after :meth:`close_deal`, before the match books its facts (a
        pile left to take, a game's final count). Default: nothing (points were added as they came)."""
        return self.deal.score_deal(self)

    def planned_deals(self) -> int:
        """How many deals a fixed-length match has. Default: ``rounds`` (if an option) per player."""
        return self.match.planned_deals(self)

    def deal_facts(self) -> CountingFacts:
        """The facts of the deal just closed, for the match: the game's ``facts_class`` over the
        fields its deal gives (:meth:`CountingDeal.facts`); a game may still extend them here."""
        return self.facts_class(**self.deal.facts(self))

    def counting_facts(self) -> dict[str, Any]:
        """The fields every adder's facts share."""
        return self.round.facts()

    def view_notes(self, seat: Seat | None) -> list[str]:
        """Extra lines for the view (next target, obstacles...): the deal's
        (:meth:`CountingDeal.view_notes`). Default: none."""
        return self.deal.view_notes(self, seat)

    def phase_text(self) -> str:
        if self.is_over:
            return "Match over"
        if self.to_play is None:
            return "Between deals"
        return f"{self.name(self.to_play)} to play"

    # ===== helpers for hooks =================================================================

    def active_seats(self) -> list[Seat]:
        """Seats still in the match (not eliminated)."""
        return [s for s in range(self.n) if not self.out[s]]

    def next_active(self, seat: Seat, direction: int = 1) -> Seat | None:
        """The next seat still in the match from ``seat`` in ``direction``."""
        for step in range(1, self.n + 1):
            s = (seat + direction * step) % self.n
            if not self.out[s]:
                return s
        return None

    def takes_turns(self, seat: Seat) -> bool:
        """Whether turns still come to ``seat``: in the match, not sitting out this deal
        (:meth:`CountingDeal.sits_out`) and with something to play from."""
        if self.out[seat] or self.deal.sits_out(seat):
            return False
        return bool(self.source_cards(seat)) or (self.draw_timing == "before" and self.stock_size() > 0)

    def cards_held(self, seat: Seat) -> int:
        """How many cards ``seat`` holds (referee mode counts them without knowing them)."""
        return self.cards.count(seat)

    def stock_size(self) -> int:
        """How many cards are left in the stock."""
        return self.cards.stock_size()

    def turn_takers(self) -> list[Seat]:
        return [s for s in range(self.n) if self.takes_turns(s)]

    def next_seat(self, seat: Seat) -> Seat | None:
        """The next seat after ``seat`` in the current direction that takes turns (``None``: nobody)."""
        for step in range(1, self.n + 1):
            s = (seat + self.direction * step) % self.n
            if self.takes_turns(s):
                return s
        return None

    def set_next(self, seat: Seat | None) -> None:
        """Make ``seat`` move next (a trick winner leading again), instead of the usual next seat
        (``None``: the usual next seat after all)."""
        self.round.next = seat

    def reverse(self) -> None:
        """Reverse the direction of play (Ninety-Nine's Jack)."""
        self.round.direction = -self.round.direction

    def note(self, text: str) -> None:
        """Annotate the play being made in the recent history (``hit 55``, ``reset to 0``)."""
        self.deal.note(text)

    def add_points(self, seat: Seat, points: int) -> None:
        """Score for ``seat`` in this deal and in the match."""
        self.deal_points[seat] += points
        self.scores[seat] += points

    def close_deal(self) -> None:
        """End the deal after the current step; :meth:`score_deal` then runs. (Why it ends is told
        in the events of the step that ends it.)"""
        self.round.close()

    def void_deal(self) -> None:
        """End the deal as if it never happened: no scoring, the same dealer deals again, and it
        does not count towards the match's deals (Jubilee with no black card anywhere)."""
        self.round.close(void=True)

    def deals_played(self) -> int:
        """Deals completed or in progress, void deals not counted."""
        return self.deal_no - self.void_deals

    def lose_life(self, seat: Seat) -> list[Event]:
        """Take a life from ``seat`` (``self.lives`` must be set); at none left it is out."""
        assert self.lives is not None
        self.lives[seat] -= 1
        left = self.lives[seat]
        who = self.name(seat)
        if left <= 0:
            self.out[seat] = True
            return [self.event("out", f"{who} has lost their last life and is out of the match.")]
        plural = "life" if left == 1 else "lives"
        return [self.event("life_lost", f"{who} loses a life ({left} {plural} left).")]

    def draw(self, seat: Seat) -> list[Event]:
        """Draw the top stock card into ``seat``'s hand, if there is one (see :meth:`on_stock_empty`)."""
        events: list[Event] = []
        if not self.stock_size():
            events += self.on_stock_empty()
            if not self.stock_size():
                return events
        card = self.cards.draw(seat)
        if card is not None:  # referee mode: which card, only its holder knows
            events.append(self.event("draw", f"You draw {card.short}.", to=seat))
        return events

    def restock_from_pile(self, keep: int = 1) -> list[Event]:
        """Shuffle the pile, all but its top ``keep`` cards, into a new stock (seeded, so replays agree)."""
        if len(self.pile) <= keep:
            return []
        cut = len(self.pile) - keep
        back, self.pile = self.pile[:cut], self.pile[cut:]
        self.cards.restock(back, self.rng)
        return [self.event("restock", self.restock_news)]

    def record_pass(self, seat: Seat) -> list[Event]:
        """Pass for ``seat`` (showing its hand when ``show_hand_on_pass``)."""
        who = self.name(seat)
        if self.show_hand_on_pass:
            hand = list(self.hands[seat])
            self.shown[seat] = list(hand)
            self.round.remember(PlayRecord(seat=seat, total=self.total, shown=hand))
            return [self.event("pass", f"{who} has no card that can be played, shows {format_cards(hand)} and passes.")]
        self.round.remember(PlayRecord(seat=seat, total=self.total))
        return [self.event("pass", f"{who} cannot play and passes.")]

    def legal_plays(self, seat: Seat) -> list[Action]:
        """Every play ``seat`` may make now (each card once, even when the pack has two alike):
        the rules' :meth:`~CountingRules.quick_plays` where they list them, else play by play."""
        candidates = self.source_cards(seat)
        quick = self.rules.quick_plays(self.round, candidates)
        if quick is not None:
            return quick
        out: list[Action] = []
        seen: set[Card] = set()
        before = self.total
        for card in candidates:
            if card in seen:
                continue
            seen.add(card)
            for action in self.plays_for(card):
                if self.refusal(seat, action, before, self.resulting_total(action, before)) is None:
                    out.append(action)
        return out

    def can_play(self, seat: Seat) -> bool:
        """Whether ``seat`` has any legal play (stops at the first one found). A game that
        overrides :meth:`legal_plays`, or whose rules list the plays directly, is asked through
        it, so the two always agree."""
        if type(self).legal_plays is not CountingState.legal_plays or type(self.rules).quick_plays is not CountingRules.quick_plays:
            return bool(self.legal_plays(seat))
        before = self.total
        return any(
            self.refusal(seat, action, before, self.resulting_total(action, before)) is None
            for card in self.source_cards(seat)
            for action in self.plays_for(card)
        )

    def plays_for(self, card: Card) -> list[Action]:
        """The ways a card can be played, legal or not."""
        totals = self.total_choices(card)
        if totals is not None:
            return [play_as(card, v, True) for v in totals]
        amounts = self.value_choices(card)
        if amounts is not None:
            return [play_as(card, v, False) for v in amounts]
        return [play_card(card)]

    # ===== the engine protocol ===============================================================

    def awaiting(self) -> frozenset[Seat]:
        return self.deal.awaiting(self)

    def legal_actions(self, seat: Seat) -> list[Action]:
        return self.deal.legal(self, seat)

    def ready_actions(self, seat: Seat) -> list[Action]:
        """The plays ``seat`` could make if its turn came now (its hand against the running total),
        while a deal is being played and turns still come to it. None where its turn begins with
        a card drawn (Fifty-One while the stock lasts: what it could play is not known yet) or
        where it holds no hand (Wit and Reason II: it takes from the table, which the others'
        moves change): there they would never be its choices when its turn came."""
        if self.is_over or self.round.to_play in (None, seat) or not self.takes_turns(seat):
            return []
        if self.cards_held(seat) == 0 or (self.draw_timing == "before" and self.stock_size() > 0):
            return []
        return self.legal_plays(seat)

    def explain_illegal(self, seat: Seat, action: Action) -> str | None:
        if seat not in self.awaiting():
            return None  # the base says whose turn it is
        card = play_card_of(action)
        if card is None:
            if self.can_play(seat):
                return "You have a card you can play, so you may not pass."
            return None
        if card not in self.source_cards(seat):
            return f"You do not hold {card.name}."
        ways = self.plays_for(card)
        if action not in ways:
            options = ", ".join(w.label() for w in ways[:6]) + (", ..." if len(ways) > 6 else "")
            return f"Say how your {card.short} counts: {options}."
        before = self.total
        return self.refusal(seat, action, before, self.resulting_total(action, before))

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        return self.deal.apply(self, seat, action)

    def settle_deal(self) -> list[Event]:
        """The deal is closed: its last events (:meth:`score_deal`), then the match books its
        facts. The scores shown during a deal include its points so far; the match books them."""
        events = [] if self.round.void else self.score_deal()
        facts = self.deal_facts()
        for seat, points in enumerate(self.deal_points):
            self.scores[seat] -= points
        return events + self.match.settle(self, facts)

    def _start_deal(self) -> list[Event]:
        """Deal the next hand (the match has passed the deal on): :meth:`CountingDeal.start`."""
        return self.deal.start(self)

    # ===== views and zones ===================================================================

    def view(self, seat: Seat | None) -> CountingView:
        return CountingView(**self.view_fields(seat))

    def view_fields(self, seat: Seat | None) -> dict[str, Any]:
        """The fields of :class:`CountingView`; a game with a richer view adds its own."""
        return {
            **self.base_view(seat),
            "phase": self.phase_text(),
            "hand": list(self.cards.hands[seat]) if seat is not None else [],
            "total": self.total,
            "to_play": self.to_play,
            "direction": self.direction,
            "recent": list(self.recent),
            "opening": list(self.opening),
            "stock": self.stock_size(),
            "hand_counts": [self.cards_held(s) for s in range(self.n)],
            "deal_points": list(self.deal_points),
            "lives": list(self.lives) if self.lives is not None else None,
            "out": list(self.out),
            "notes": self.view_notes(seat),
            **self.match.view_fields(self),
        }

    def card_zones(self) -> list[Zone]:
        zones = [Zone(f"hand {s + 1}", self.hands[s], frozenset((s,))) for s in range(self.n)]
        zones.append(Zone("stock", self.stock, frozenset()))
        zones.append(Zone("pile", self.pile))
        zones.append(Zone("set aside", self.set_aside, frozenset()))
        zones.extend(self.extra_zones())
        return zones

    def extra_zones(self) -> list[Zone]:
        """Other places a game keeps cards (won piles, a shared pool)."""
        return []

    def public_knowledge(self) -> list[Card]:
        """Cards shown on passing and still held, and the recent plays (everyone saw them played,
        even if a reshuffle or a won trick has since hidden them)."""
        known = [c for cards in self.shown for c in cards]
        known += [r.card for r in self.recent if r.card is not None]
        known += [c for r in self.recent for c in r.shown]
        return known
