# Over 400 lines: a whole game in one module (options, actions, view and picture, state, declaration), as games/README.md asks.
"""Spec: David Parlett's card-prediction game for 2 to 4 players.

Each deal, 25 showcards lie face down in a 5x5 grid (cells A1..E5: letter the row, number the
column) and 30 scorecards wait in a fixed stack. Everyone predicts the card that will be left face
down last; then players take turns naming a card, turning up a cell of their choice and winning
scorecards from the top of the stack by how close the name was. The last card, turned after 24
calls, gives the rest of the stack to the best prediction.

Forbidden calls are, by default, caught by the players: every call is on the menu, and after each
one the opponents may challenge until the next call is made (``illegal_call_mode=challenge``).
``strict`` mode refuses forbidden calls instead.

``start(deck=...)`` fixes a deal's grid: either the 25 showcards in cell order (A1, A2, ... E5),
or the whole 55-card pack, from which the showcards are taken in order (the scorecards' order is
fixed by the rules, so a 55-card deck's other cards are ignored).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, cast

from pydantic import BaseModel, ConfigDict, Field, model_validator

from games.cards import JOKER, Card
from games.engine import (
    Action,
    BaseOptions,
    Event,
    Game,
    GameState,
    IllegalAction,
    Outcome,
    Seat,
    View,
    Zone,
)
from games.layout import Facts, Grid, Layout, Notes, Spot, finish, standard_scores
from games.match import DealFacts, Match, MatchState
from games.registry import declare
from games.spec_scoring import (
    CALLS,
    FULL_PACK,
    SCORECARD_STACK,
    SHOWCARDS,
    STACK_TOTAL,
    STACK_VALUES,
    TARGET,
    Fault,
    after_deal,
    allowed_calls,
    call_fault,
    cards_won,
    deal_score,
    end_of_deal_award,
    is_callable,
    legal_predictions,
    penalty_index,
    prediction_match,
    scorecard_value,
)

SPEC_TITLE = "Spec"
"""Display title; the original page's title was not recovered, so it is configuration."""

ROWS = "ABCDE"
CELLS: tuple[str, ...] = tuple(f"{r}{c}" for r in ROWS for c in range(1, 6))
CELL_INDEX: dict[str, int] = {name: i for i, name in enumerate(CELLS)}
GRID_SIZE = len(CELLS)


def call_text(call: Card) -> str:
    return "Joker" if call.is_joker else call.short


def call_code_text(code: str) -> str:
    """A call or prediction as stored in a view (``QH``, ``Joker``), for people."""
    return "Joker" if code == "Joker" else Card.parse(code).short


def stack_card_text(value: int | None) -> str:
    return "Joker" if value == 10 else str(value)


def scorecard_text(card: Card) -> str:
    return "Joker" if card.is_joker else str(scorecard_value(card))


def cards_text(cards: Sequence[Card]) -> str:
    return ", ".join(scorecard_text(c) for c in cards)


# --- options ------------------------------------------------------------------------------------


class SpecOptions(BaseOptions):
    joker_vs_deuce: Literal["rank", "exact", "none"] = Field(
        "rank",
        description="How a Joker prediction matches a deuce as the last card: as a rank match, "
        "as an exact match, or not at all.",
    )
    repeat_joker_call: Literal["forbid", "allow"] = Field(
        "forbid",
        description="Whether Joker may be called right after the previous player called Joker.",
    )
    illegal_call_mode: Literal["challenge", "strict"] = Field(
        "challenge",
        description="challenge: any call may be made and opponents may challenge a forbidden one "
        "before the next call; strict: forbidden calls are refused.",
    )
    false_challenge_penalty: Literal["none", "card"] = Field(
        "none",
        description="none: a wrong challenge costs nothing; card: the wrongly accused player takes "
        "the challenger's highest scorecard (or the top of the stack if the challenger has none).",
    )
    end_mode: Literal["race", "fixed"] = Field(
        "race",
        description="race: stop after the deal in which someone reaches 173 (at most one deal per "
        "player); fixed: always play one deal per player.",
    )
    tie_break: Literal["share", "extra_deal"] = Field(
        "share",
        description="When the match ends with a tie for the highest total: share the win, or play "
        "one more deal.",
    )
    hints: bool = Field(
        False,
        description="Let players ask for a hint: the best calls with the points each is worth on "
        "average. A match with hints on is not rated.",
    )

    @model_validator(mode="after")
    def _challenges_need_challenge_mode(self) -> SpecOptions:
        if self.illegal_call_mode == "strict" and self.false_challenge_penalty != "none":
            raise ValueError(
                "false_challenge_penalty only applies with illegal_call_mode=challenge: "
                "in strict mode forbidden calls are refused, so nobody challenges."
            )
        return self


# --- actions ------------------------------------------------------------------------------------


class Predict(Action):
    """Predict the card that will be left face down last (a nameable card or Joker)."""

    kind: Literal["predict"] = "predict"
    prediction: Card

    def label(self) -> str:
        return call_text(self.prediction)

    def choice_path(self) -> tuple[str, ...]:
        suit = self.prediction.suit
        return (suit.title if suit is not None else "Joker", self.label())


class Call(Action):
    """Name a card (or Joker) and turn up the card in ``cell``."""

    kind: Literal["call"] = "call"
    cell: str
    call: Card

    def label(self) -> str:
        return f"{self.cell}: {call_text(self.call)}"

    def __eq__(self, other: object) -> bool:
        # a calling turn lists some 500 calls: keep membership tests in those lists cheap
        return other.__class__ is Call and self.cell == other.cell and self.call == other.call  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.cell, self.call))

    def choice_path(self) -> tuple[str, ...]:
        """The cell first (at most 25 face-down cells), then the call (21 choices)."""
        return (self.cell, call_text(self.call))


class Challenge(Action):
    """Claim that call number ``call_no`` of this deal was forbidden."""

    kind: Literal["challenge"] = "challenge"
    call_no: int

    def label(self) -> str:
        return f"Challenge call {self.call_no}"

    def choice_path(self) -> tuple[str, ...]:
        return (self.label(),)


class Reveal(Action):
    """Turn up the last face-down card (closing the challenge window of the last call)."""

    kind: Literal["reveal"] = "reveal"

    def label(self) -> str:
        return "Turn up the last card"

    def choice_path(self) -> tuple[str, ...]:
        return (self.label(),)


CALL_ACTIONS: tuple[tuple[Call, ...], ...] = tuple(
    tuple(Call(cell=cell, call=c) for c in CALLS) for cell in CELLS
)
"""Every call at every cell, built once: the menu of a calling turn reuses them."""
CALL_INDEX: dict[Card, int] = {c: i for i, c in enumerate(CALLS)}
PREDICT_ACTIONS: dict[Card, Predict] = {c: Predict(prediction=c) for c in CALLS}
REVEAL = Reveal()


# --- views --------------------------------------------------------------------------------------


class CallInfo(BaseModel):
    """One call of the deal, as the table saw it (calls are card codes: ``QH``, ``Joker``)."""

    model_config = ConfigDict(frozen=True)

    number: int
    """1 for the deal's first call, up to 24."""
    seat: Seat
    cell: str
    call: str
    turned: Card
    won: int
    """How many scorecards the call took."""
    points: int


class SpecView(View):
    title: str = SPEC_TITLE
    grid: list[Card | None]
    """Face-up cards by cell (A1..E5, see ``CELLS``); ``None`` for a face-down cell."""
    stack_count: int
    stack_top: int | None
    """Value of the stack's top scorecard (Jokers 10), if any is left."""
    scorecards: list[list[int]]
    deal_points: list[int]
    predictions: list[str | None]
    to_move: Seat | None
    calls_made: int
    recent_calls: list[CallInfo]
    """The last two calls of the deal (enough to judge a challenge); the log holds them all."""
    open_challenge: int | None
    """The number of the call that may still be challenged, if any."""
    strict: bool
    joker_may_repeat: bool
    set_aside: int
    """Scorecards set aside at the end of a deal nobody could claim."""
    deal_results: list[list[int]]
    last_winner: Seat | None
    max_deals: int
    target: int = TARGET

    @property
    def stack(self) -> tuple[int, ...]:
        """Values of the scorecards left, top first: the stack's order is fixed, so what is left
        is always its bottom ``stack_count`` cards."""
        return STACK_VALUES[len(STACK_VALUES) - self.stack_count :]

    @property
    def previous_call(self) -> str | None:
        """The code of the call made last in this deal (``QH``, ``Joker``), if any."""
        return self.recent_calls[-1].call if self.recent_calls else None

    def face_up_cards(self) -> list[Card]:
        return [c for c in self.grid if c is not None]

    def layout(self) -> Layout:
        """The 5x5 grid (the card turned last outlined), the stack, and each player's score and
        points this deal (their guesses at the last card are in the table's text); the grid first,
        so a landscape picture has it on the left and the rest beside it."""
        last = self.recent_calls[-1] if self.recent_calls else None
        cells = tuple(
            Spot(c, mark="last" if last is not None and CELLS[i] == last.cell else None)
            for i, c in enumerate(self.grid)
        )
        facts = [("Stack", f"{self.stack_count} left" + (f", top {stack_card_text(self.stack_top)}" if self.stack_top else ""))]
        if self.set_aside:
            facts.append(("Set aside", str(self.set_aside)))
        facts.append(("Target", str(self.target)))
        notes = []
        if last is not None and not self.over:
            notes.append(
                f"Call {last.number}: {self.players[last.seat]} called {call_code_text(last.call)} at {last.cell}, "
                f"turned {last.turned.short}" + (f" and won {last.won} scorecard{'s' if last.won != 1 else ''}." if last.won else ".")
            )
        if self.open_challenge is not None:
            notes.append(f"Call {self.open_challenge} may be challenged until the next call.")
        # each player's scorecards are in the table's text: a haul of up to 26 cannot be read in a
        # column; so are the predictions ("Predictions: ..."): a third column beside the grid widened
        # the picture past 464 px with players' real names (text under 11 px on a phone)
        scores = standard_scores(self, ("Deal", self.deal_points))
        return finish(
            self,
            [Grid("The grid", tuple(ROWS), tuple("12345"), cells), Facts(tuple(facts)), Notes(tuple(notes)), scores],
            result_notes=1,  # who reached the target; each deal's points are in the table's text
        )

    def hand_context(self) -> tuple[Facts | Grid, ...]:
        return tuple(a for a in self.layout().areas if isinstance(a, Facts | Grid))

    def table_lines(self) -> list[str]:
        lines = ["      " + "".join(f"{c:<6}" for c in range(1, 6))]
        for r, row in enumerate(ROWS):
            cells = self.grid[r * 5 : r * 5 + 5]
            lines.append(f"  {row}   " + "".join(f"{(c.short if c else '##'):<6}" for c in cells))
        top = "" if not self.stack else f", top card {'Joker' if self.stack[0] == 10 else self.stack[0]}"
        lines.append(f"Stack: {len(self.stack)} scorecards worth {sum(self.stack)}{top}")
        if any(p is not None for p in self.predictions):
            lines.append(
                "Predictions: "
                + ", ".join(
                    f"{name} {Card.parse(p).short if p != 'Joker' else 'Joker'}"
                    for name, p in zip(self.players, self.predictions, strict=True)
                    if p is not None
                )
            )
        for name, held, pts in zip(self.players, self.scorecards, self.deal_points, strict=True):
            shown = " ".join("Jk" if v == 10 else str(v) for v in held) or "none"
            lines.append(f"{name}: {pts} this deal (scorecards {shown})")
        if self.recent_calls:
            last = self.recent_calls[-1]
            named = "Joker" if last.call == "Joker" else Card.parse(last.call).short
            lines.append(
                f"Call {last.number}: {self.players[last.seat]} called {named} at {last.cell}, "
                f"turned {last.turned.short} and won {last.won} scorecard(s)."
            )
        if self.open_challenge is not None:
            lines.append(f"Call {self.open_challenge} may be challenged until the next call.")
        return lines


# --- the state ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CallRecord:
    seat: Seat
    cell: int
    call: Card
    turned: Card
    won: tuple[Card, ...]
    fault: Fault | None
    """The rule the call broke (never shown before a challenge proves it)."""


class CallFacts(BaseModel):
    """One call of a finished deal: who called what at which cell, and the card found there."""

    model_config = ConfigDict(frozen=True)

    seat: Seat
    cell: str
    call: Card
    turned: Card


class SpecFacts(DealFacts):
    """A deal of Spec: each player's points for it (the face value of the scorecards won, Jokers
    10, plus the last card's bonus), which the match scores, and the turns that made them: the
    predictions by seat, the calls in order and the challenges (``(call number, challenger)``, in
    order). All of it public once the last card is up."""

    points: tuple[int, ...]
    predictions: tuple[Card, ...] = ()
    calls: tuple[CallFacts, ...] = ()
    challenges: tuple[tuple[int, Seat], ...] = ()


class SpecTable(MatchState, Protocol):
    """What the match reads and writes on a Spec state beyond every match's fields."""

    options: SpecOptions
    deal_results: list[list[int]]
    extra_deal: bool


class SpecMatch(Match[SpecFacts]):
    """The deal points are added up; the first caller moves one seat left each deal; the match
    stops per ``end_mode`` (at most one deal per player), a tie for first shared or settled by one
    more deal (``tie_break``)."""

    def score(self, state: MatchState, facts: SpecFacts) -> list[Event]:
        table = cast(SpecTable, state)
        n = table.n
        points = list(facts.points)
        table.deal_results.append(points)
        for s in range(n):
            table.scores[s] += points[s]
        summary = ", ".join(f"{table.name(s)} {points[s]}" for s in range(n))
        totals = ", ".join(f"{table.name(s)} {table.scores[s]}" for s in range(n))
        events = [table.event("deal_end", f"Deal {table.deal_no} scores: {summary}. Totals: {totals}.")]
        step = after_deal(
            table.scores, table.deal_no, n, table.options.end_mode, table.options.tie_break, table.extra_deal
        )
        if step == "finish":
            events.append(self._finish(table))
            return events
        if step == "extra_deal":
            table.extra_deal = True
            top = max(table.scores)
            names = " and ".join(table.name(s) for s in range(n) if table.scores[s] == top)
            events.append(table.event("tie", f"{names} are tied on {top}: one more deal decides."))
        table.dealer = (table.dealer + 1) % n
        return events

    @staticmethod
    def max_deals(state: MatchState) -> int:
        """One deal per player, or this deal once it is the tie-break."""
        return state.deal_no if cast(SpecTable, state).extra_deal else state.n

    @staticmethod
    def _finish(table: SpecTable) -> Event:
        n = table.n
        notes = []
        reached = [table.name(s) for s in range(n) if table.scores[s] >= TARGET]
        if reached:
            notes.append(f"Reached {TARGET}: {', '.join(reached)}.")
        else:
            notes.append(f"Nobody reached {TARGET}; the highest total wins.")
        for i, pts in enumerate(table.deal_results, start=1):
            notes.append(f"Deal {i}: " + ", ".join(f"{table.name(s)} {pts[s]}" for s in range(n)))
        return table.finish(Outcome.from_scores(table.scores, notes=notes))


MATCH = SpecMatch()


# --- one deal ---------------------------------------------------------------------------------------

Phase = Literal["predict", "call", "reveal", "over"]


@dataclass
class SpecDeal:
    """One deal's grid, stack, predictions, calls and challenges, as the online game and referee
    mode both keep it (``state.deal``, a new one every deal): the legal turns and why others are
    refused, what each turn does and says, the last card's award and the deal's facts. It knows
    the players' names and the options (both immutable, shared by copies); the match, the dealer
    rotation and the deal numbers stay on the state. ``done`` once the last card is up."""

    players: tuple[str, ...]
    options: SpecOptions
    dealer: Seat
    grid: list[Card]
    face_up: list[bool] = field(default_factory=lambda: [False] * GRID_SIZE)
    stack: list[Card] = field(default_factory=lambda: list(SCORECARD_STACK))
    won: list[list[Card]] = field(default_factory=list)
    bonus: list[int] = field(default_factory=list)
    set_aside: list[Card] = field(default_factory=list)
    predictions: list[Card | None] = field(default_factory=list)
    calls: list[CallRecord] = field(default_factory=list)
    challenges: list[tuple[int, Seat]] = field(default_factory=list)
    to_move: Seat = 0
    open_call: int | None = None
    challenged: list[Seat] = field(default_factory=list)
    claimed_by: Seat | None = None
    last_winner: Seat | None = None
    phase: Phase = "predict"
    done: bool = False

    @classmethod
    def new(cls, players: Sequence[str], options: SpecOptions, dealer: Seat, grid: list[Card]) -> SpecDeal:
        n = len(players)
        return cls(
            tuple(players),
            options,
            dealer,
            grid,
            won=[[] for _ in range(n)],
            bonus=[0] * n,
            predictions=[None] * n,
            to_move=dealer,
        )

    @property
    def n(self) -> int:
        return len(self.players)

    def name(self, seat: Seat) -> str:
        return self.players[seat]

    @staticmethod
    def event(kind: str, text: str) -> Event:
        return Event(kind=kind, text=text)

    def _next(self, seat: Seat) -> Seat:
        return (seat + 1) % self.n

    def face_up_cards(self) -> list[Card]:
        return [c for c, up in zip(self.grid, self.face_up, strict=True) if up]

    @property
    def previous_call(self) -> Card | None:
        return self.calls[-1].call if self.calls else None

    @property
    def challenge_mode(self) -> bool:
        return self.options.illegal_call_mode == "challenge"

    def allowed_calls(self) -> list[Card]:
        """Calls no rule forbids now (with the repeat rule lifted if nothing else is left)."""
        return allowed_calls(self.previous_call, self.face_up_cards(), self.options.repeat_joker_call)

    def challengers(self) -> list[Seat]:
        """Opponents of the last caller who may still challenge the open call."""
        if self.open_call is None:
            return []
        caller = self.calls[self.open_call - 1].seat
        return [s for s in range(self.n) if s != caller and s not in self.challenged]

    def facts(self) -> SpecFacts:
        return SpecFacts(
            points=tuple(deal_score(self.won[s], self.bonus[s]) for s in range(self.n)),
            predictions=tuple(p for p in self.predictions if p is not None),
            calls=tuple(CallFacts(seat=r.seat, cell=CELLS[r.cell], call=r.call, turned=r.turned) for r in self.calls),
            challenges=tuple(self.challenges),
        )

    # -- the turns -----------------------------------------------------------------------------

    def legal(self, seat: Seat) -> list[Action]:
        out: list[Action] = []
        if seat == self.to_move:
            if self.phase == "predict":
                out.extend(PREDICT_ACTIONS[c] for c in legal_predictions(self._predicted()))
            elif self.phase == "call":
                allowed = None if self.challenge_mode else [CALL_INDEX[c] for c in self.allowed_calls()]
                for cell in range(GRID_SIZE):
                    if not self.face_up[cell]:
                        row = CALL_ACTIONS[cell]
                        out.extend(row if allowed is None else [row[i] for i in allowed])
            elif self.phase == "reveal":
                out.append(REVEAL)
        if self.open_call is not None and seat in self.challengers():
            out.append(Challenge(call_no=self.open_call))
        return out

    def actors(self) -> list[Seat]:
        """The player to move and the opponents who may still challenge (without building menus)."""
        return sorted({self.to_move, *self.challengers()})

    def _predicted(self) -> list[Card]:
        return [p for p in self.predictions if p is not None]

    def is_legal(self, seat: Seat, action: Action) -> bool:
        """Whether ``action`` is in ``legal(seat)``, decided without building the list (a calling
        turn lists 500 calls)."""
        if isinstance(action, Challenge):
            return action.call_no == self.open_call and seat in self.challengers()
        if seat != self.to_move:
            return False
        if isinstance(action, Predict):
            return self.phase == "predict" and action.prediction in legal_predictions(self._predicted())
        if isinstance(action, Call):
            cell = CELL_INDEX.get(action.cell)
            if self.phase != "call" or cell is None or self.face_up[cell]:
                return False
            if self.challenge_mode:
                return action.call in CALL_INDEX
            return action.call in self.allowed_calls()
        if isinstance(action, Reveal):
            return self.phase == "reveal"
        return False

    def refusal(self, seat: Seat, action: Action) -> str | None:
        if isinstance(action, Challenge):
            return self._why_no_challenge(seat, action)
        if seat != self.to_move:
            return f"It is not your turn: {self.name(self.to_move)} is to play."
        if isinstance(action, Predict):
            return self._why_no_prediction(action.prediction)
        if isinstance(action, Call):
            return self._why_no_call(action)
        if isinstance(action, Reveal):
            return "The last card is turned up only after the 24th call."
        return None
    def _why_no_prediction(self, prediction: Card) -> str:
        if self.phase != "predict":
            return "Predictions are over for this deal: it is time to call."
        if not is_callable(prediction):
            return "A prediction names an Ace, King, Queen, Jack or Ten with its suit, or says Joker."
        for seat, p in enumerate(self.predictions):
            if p is None:
                continue
            who = self.name(seat)
            if prediction.is_joker and p.is_joker:
                return f"{who} has already predicted Joker, and only one player may."
            if prediction.is_joker or p.is_joker:
                continue
            if p.rank == prediction.rank and p.rank is not None:
                return f"{who} has already predicted a {p.rank.title}: each rank may be predicted once."
            if p.suit == prediction.suit and p.suit is not None:
                return f"{who} has already predicted in {p.suit.title}: each suit may be predicted once."
        return "That prediction is not open."

    def _why_no_call(self, action: Call) -> str:
        if self.phase == "predict":
            return "Everyone predicts the last card before the calling starts."
        if self.phase == "reveal":
            return "All 24 calls are made: the last card only has to be turned up."
        cell = CELL_INDEX.get(action.cell)
        if cell is None:
            return f"There is no cell '{action.cell}': cells run from A1 to E5."
        if self.face_up[cell]:
            return f"The card at {action.cell} is already face up: choose a face-down cell."
        if not is_callable(action.call):
            if action.call.rank is not None and int(action.call.rank) == 2:
                return "Deuces count as jokers and cannot be named: call Joker instead."
            return "A call names an Ace, King, Queen, Jack or Ten with its suit, or says Joker."
        fault = call_fault(
            action.call, self.previous_call, self.face_up_cards(), self.options.repeat_joker_call
        )
        return self._fault_text(fault, action.call, self.calls[-1].seat if self.calls else None)

    def _fault_text(self, fault: Fault | None, call: Card, previous_seat: Seat | None) -> str:
        if fault == Fault.REPEAT:
            who = self.name(previous_seat) if previous_seat is not None else "The previous player"
            return f"{who} has just called {call_text(call)}: the same call may not follow straight after."
        if fault == Fault.FACE_UP:
            return f"The {call.short} is already face up, so it cannot be called."
        if fault == Fault.JOKERS_OUT:
            return "The Joker and all four deuces are face up: nobody may call Joker any more."
        return f"You cannot call {call_text(call)} now."

    def _why_no_challenge(self, seat: Seat, action: Challenge) -> str | None:
        if not self.challenge_mode:
            return "In strict mode forbidden calls are refused, so there is nothing to challenge."
        made = len(self.calls)
        if not 1 <= action.call_no <= made:
            return f"There is no call {action.call_no} to challenge in this deal."
        record = self.calls[action.call_no - 1]
        if record.seat == seat:
            return "You cannot challenge your own call."
        if action.call_no < made or self.phase in ("predict", "over"):
            return (
                f"Call {action.call_no} can no longer be challenged: the window closed when the "
                "next call was made."
            )
        if self.open_call is None:
            who = self.name(self.claimed_by) if self.claimed_by is not None else "Another player"
            return f"{who} has already claimed the penalty for call {action.call_no}."
        if seat in self.challenged:
            return f"You have already challenged call {action.call_no}."
        return None

    # -- applying ------------------------------------------------------------------------------

    def play(self, seat: Seat, action: Action) -> list[Event]:
        """Apply a legal turn; the deal is ``done`` once the last card is up."""
        if isinstance(action, Predict):
            return self.predict(seat, action.prediction)
        if isinstance(action, Call):
            return self.call(seat, CELL_INDEX[action.cell], action.call)
        if isinstance(action, Challenge):
            return self.challenge(seat)
        if isinstance(action, Reveal):
            self.open_call = None
            return self.reveal()
        raise IllegalAction(f"Spec has no action '{action.kind}'.")

    def predict(self, seat: Seat, prediction: Card) -> list[Event]:
        self.predictions[seat] = prediction
        events = [self.event("predict", f"{self.name(seat)} predicts {call_text(prediction)} as the last card.")]
        self.to_move = self._next(seat)
        if all(p is not None for p in self.predictions):
            self.phase = "call"
            self.to_move = self.dealer
            events.append(self.event("calling", f"Predictions are in. {self.name(self.dealer)} calls first."))
        return events

    def _take(self, seat: Seat, count: int) -> list[Card]:
        taken = self.stack[:count]
        del self.stack[:count]
        self.won[seat].extend(taken)
        if taken:
            self.last_winner = seat
        return taken

    def call(self, seat: Seat, cell: int, call: Card) -> list[Event]:
        fault = call_fault(call, self.previous_call, self.face_up_cards(), self.options.repeat_joker_call)
        turned = self.grid[cell]
        self.face_up[cell] = True
        count = cards_won(call, turned)
        taken = self._take(seat, count)
        self.calls.append(CallRecord(seat, cell, call, turned, tuple(taken), fault))
        self.open_call = len(self.calls) if self.challenge_mode else None
        self.challenged = []
        self.claimed_by = None
        events = [self.event("call", self._call_sentence(seat, cell, call, turned, count, taken))]
        self.to_move = self._next(seat)
        if self.face_up.count(False) == 1:
            if self.challenge_mode:
                self.phase = "reveal"
            else:
                events.extend(self.reveal())
        return events

    def _call_sentence(
        self, seat: Seat, cell: int, call: Card, turned: Card, count: int, taken: list[Card]
    ) -> str:
        head = f"{self.name(seat)} calls {call_text(call)} at {CELLS[cell]} and turns up the {turned.short}"
        if count == 0:
            return f"{head}: no scorecards."
        if not taken:
            return f"{head}: {count} scorecard(s) earned, but the stack is empty."
        points = sum(scorecard_value(c) for c in taken)
        short = f" (only {len(taken)} left)" if len(taken) < count else ""
        return f"{head}: takes {len(taken)} scorecard(s){short}, {cards_text(taken)}, worth {points}."

    def challenge(self, seat: Seat) -> list[Event]:
        assert self.open_call is not None
        no = self.open_call
        self.challenges.append((no, seat))
        record = self.calls[no - 1]
        if record.fault is None:
            self.challenged.append(seat)
            text = (
                f"{self.name(seat)} challenges call {no}, but {self.name(record.seat)}'s call of "
                f"{call_text(record.call)} was allowed."
            )
            if self.options.false_challenge_penalty == "card":
                text += " " + self._penalty(offender=seat, claimant=record.seat)
            else:
                text += " Nothing happens."
            return [self.event("challenge_refused", text)]
        self.open_call = None
        self.claimed_by = seat
        text = f"{self.name(seat)} challenges call {no}: {self._fault_reason(record, no)} " + self._penalty(
            offender=record.seat, claimant=seat
        )
        return [self.event("challenge", text)]

    def _fault_reason(self, record: CallRecord, no: int) -> str:
        who = self.name(record.seat)
        named = call_text(record.call)
        if record.fault == Fault.REPEAT:
            return f"{who} called {named} straight after the same call."
        if record.fault == Fault.FACE_UP:
            return f"{who} called the {named}, which was already face up."
        return f"{who} called Joker after the Joker and all four deuces were face up."

    def _penalty(self, offender: Seat, claimant: Seat) -> str:
        """Move the offender's highest scorecard (else the stack's top) to the claimant."""
        i = penalty_index(self.won[offender])
        if i is not None:
            card = self.won[offender].pop(i)
            self.won[claimant].append(card)
            self.last_winner = claimant
            return f"{self.name(claimant)} takes {self.name(offender)}'s {scorecard_text(card)} scorecard."
        taken = self._take(claimant, 1)
        if taken:
            return (
                f"{self.name(offender)} has no scorecard, so {self.name(claimant)} takes the top of "
                f"the stack, a {scorecard_text(taken[0])}."
            )
        return f"{self.name(offender)} has no scorecard and the stack is empty: nothing changes hands."

    # -- the end of the deal ---------------------------------------------------------------------

    def reveal(self) -> list[Event]:
        """Turn up the last card and give the rest of the stack (or the bonus) to the best
        prediction; the deal is then ``done``."""
        cell = self.face_up.index(False)
        last = self.grid[cell]
        self.face_up[cell] = True
        self.open_call = None
        self.challenged = []
        events = [self.event("reveal", f"The last card, at {CELLS[cell]}, is the {last.short}.")]
        left = len(self.stack)
        award = end_of_deal_award(
            self.predictions, last, left, self.last_winner, self.options.joker_vs_deuce
        )
        events.append(self.event("award", self._award_sentence(award.seat, award.matched, last, left)))
        if award.seat is not None:
            self.won[award.seat].extend(self.stack)
            self.bonus[award.seat] += award.bonus
        else:
            self.set_aside.extend(self.stack)
        self.stack = []
        self.done = True
        return events

    def _award_sentence(self, seat: Seat | None, matched: bool, last: Card, left: int) -> str:
        if seat is None:
            return f"Nobody predicted it or won a scorecard: the last {left} scorecards are set aside."
        who = self.name(seat)
        if matched:
            prediction = self.predictions[seat]
            assert prediction is not None
            level = prediction_match(prediction, last, self.options.joker_vs_deuce).name.lower()
            how = f"{who}'s prediction of {call_text(prediction)} is the best match ({level})"
        else:
            how = f"No prediction matches, so it goes to {who}, the last to win a scorecard"
        if left == 0:
            return f"{how}: the stack ran out earlier, so {who} scores a bonus of 10."
        worth = sum(scorecard_value(c) for c in self.stack)
        return f"{how}: {who} takes the {left} scorecard(s) left in the stack, worth {worth}."

    # -- what the table sees -------------------------------------------------------------------

    def view_fields(self, over: bool) -> dict[str, Any]:
        """The deal's fields of :class:`SpecView`."""
        return {
            "grid": [c if up else None for c, up in zip(self.grid, self.face_up, strict=True)],
            "stack_count": len(self.stack),
            "stack_top": scorecard_value(self.stack[0]) if self.stack else None,
            "scorecards": [[scorecard_value(c) for c in held] for held in self.won],
            "deal_points": [deal_score(self.won[s], self.bonus[s]) for s in range(self.n)],
            "predictions": [p.code if p is not None else None for p in self.predictions],
            "to_move": None if over else self.to_move,
            "calls_made": len(self.calls),
            "recent_calls": [
                CallInfo(
                    number=len(self.calls) - 1 + i,
                    seat=r.seat,
                    cell=CELLS[r.cell],
                    call=r.call.code,
                    turned=r.turned,
                    won=len(r.won),
                    points=sum(scorecard_value(c) for c in r.won),
                )
                for i, r in enumerate(self.calls[-2:], start=2 - len(self.calls[-2:]))
            ],
            "open_challenge": self.open_call,
            "strict": not self.challenge_mode,
            "joker_may_repeat": self.options.repeat_joker_call == "allow",
            "set_aside": len(self.set_aside),
            "last_winner": self.last_winner,
        }

    def zones(self) -> list[Zone]:
        down = [c for c, up in zip(self.grid, self.face_up, strict=True) if not up]
        zones = [
            Zone("grid face down", down, frozenset()),
            Zone("grid face up", self.face_up_cards()),
            Zone("stack", list(self.stack)),
            Zone("set aside", list(self.set_aside)),
        ]
        zones.extend(Zone(f"scorecards of {self.name(s)}", list(self.won[s])) for s in range(self.n))
        return zones


PHASE_TEXT: dict[str, str] = {
    "predict": "predicting the last card",
    "call": "calling",
    "reveal": "turning up the last card",
    "over": "match over",
}


class SpecState(GameState[SpecOptions]):
    """The online game: the bot shuffles the grid. The match is :data:`MATCH`, the deal a
    :class:`SpecDeal` (``state.deal``), as in referee mode."""

    match = MATCH
    dealer: Seat
    deal: SpecDeal

    def __init__(
        self,
        players: Sequence[str],
        options: SpecOptions,
        seed: int,
        deck: Sequence[Card] | Sequence[Sequence[Card]] | None = None,
    ) -> None:
        super().__init__(players, options, seed, deck)
        MATCH.begin(self)
        self.deal_results: list[list[int]] = []
        self.extra_deal = False
        self.log.extend(self._start_deal())

    # -- what the adviser and the tests read ------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self.deal.phase

    @property
    def to_move(self) -> Seat:
        return self.deal.to_move

    # -- deals ---------------------------------------------------------------------------------

    @property
    def max_deals(self) -> int:
        return MATCH.max_deals(self)

    def _grid_order(self) -> list[Card]:
        index = self.deal_no - 1
        if index < len(self.fixed_decks) and len(self.fixed_decks[index]) == len(FULL_PACK):
            # a whole pack: its showcards in order; the Jokers are alike, so the first is the grid's
            grid: list[Card] = []
            for c in self.next_pack_order(FULL_PACK):
                if c in SHOWCARDS and not (c.is_joker and JOKER in grid):
                    grid.append(c)
            return grid
        return self.next_pack_order(SHOWCARDS)

    def _start_deal(self) -> list[Event]:
        self.deal_no += 1
        self.deal = SpecDeal.new(self.players, self.options, self.dealer, self._grid_order())
        extra = " (the tie-break deal)" if self.extra_deal else ""
        return [
            self.event(
                "deal_start",
                f"Deal {self.deal_no}{extra}: 25 showcards lie face down in the grid. "
                f"{self.name(self.dealer)} predicts and calls first.",
            )
        ]

    def _settle(self, facts: SpecFacts) -> list[Event]:
        """The match scores the deal; the next deal starts unless the match is over."""
        events = MATCH.settle(self, facts)
        if self.is_over:
            self.deal.phase = "over"
        else:
            events += self._start_deal()
        return events

    # -- the protocol --------------------------------------------------------------------------

    def awaiting(self) -> frozenset[Seat]:
        """The player to predict, call or reveal; challenges are optional acts the game does not wait for."""
        if self.outcome is not None:
            return frozenset()
        return frozenset([self.deal.to_move])

    def legal_actions(self, seat: Seat) -> list[Action]:
        return [] if self.outcome is not None else self.deal.legal(seat)

    def actors(self) -> list[Seat]:
        return [] if self.outcome is not None else self.deal.actors()

    def is_legal(self, seat: Seat, action: Action) -> bool:
        return self.deal.is_legal(seat, action)

    def explain_illegal(self, seat: Seat, action: Action) -> str | None:
        return self.deal.refusal(seat, action)

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        events = self.deal.play(seat, action)
        if self.deal.done:
            events += self._settle(self.deal.facts())
        return events

    # -- views and zones -----------------------------------------------------------------------

    def view(self, seat: Seat | None) -> SpecView:
        return SpecView(
            **self.base_view(seat),
            **self.deal.view_fields(self.outcome is not None),
            phase=PHASE_TEXT[self.deal.phase],
            deal_results=[list(r) for r in self.deal_results],
            max_deals=self.max_deals,
        )

    def card_zones(self) -> list[Zone]:
        return self.deal.zones()


SUMMARY = f"""
Spec (David Parlett's card-prediction game), 2 to 4 players.

Cards. 25 showcards (the Joker; Ace, King, Queen, Jack and Ten of each suit; the four deuces) are
shuffled face down into a 5x5 grid, cells A1 to E5 (letter = row). 30 scorecards form a stack in a
fixed order, top first: two Jokers (10 each), four 9s, four 8s, and so on down to four 3s:
{STACK_TOTAL} points in all. Deuces count as jokers but keep their suit, and are never named.

Predictions. Starting with the deal's first caller and going left, each player names the card
they expect to stay face down last: an Ace to Ten of a suit, or Joker. No two players may pick the
same rank or the same suit, and only one may pick Joker.

Calling. In turn, choose a face-down cell, name a card (or Joker) and turn the cell up. Exact card:
4 scorecards from the top of the stack. Right rank: 2. Right suit (a deuce of that suit counts): 1.
Joker called: 4 for the Joker, 2 for any deuce. Otherwise nothing. If the stack is short, you take
what is left.

Forbidden calls: repeating the call just made by the previous player (Joker included unless
repeat_joker_call=allow), naming a card already face up, or calling Joker once the Joker and all
four deuces are up. In the default challenge mode nothing stops such a call: it is scored as usual,
and until the next call (or the last card's reveal) every opponent may challenge it once. The first
right challenger takes the caller's highest scorecard, or the top of the stack if the caller has
none. A wrong challenge is refused (and costs a card with false_challenge_penalty=card). In strict
mode forbidden calls are refused instead; if nothing else is left, the repeat rule is lifted.

End of a deal. After 24 calls the last card is turned up (in challenge mode, by the next player in
turn). The best prediction (exact, then rank, then suit; a Joker prediction against a deuce per
joker_vs_deuce) takes all scorecards left; with no match, the last player to win a scorecard
(by a call or a challenge) takes them, and if nobody has won any they are set aside. If the stack
had already run out, the best prediction (or that fallback player) scores 10 instead.
Each deal scores the face value of the scorecards held (Jokers 10) plus any bonus.

The match. The first caller moves one seat left each deal; the first_dealer option picks the
first caller (blank for random). end_mode=race stops after the deal in which someone reaches
{TARGET}; fixed plays one deal per player; at most one deal per player either way. Highest total
wins; a tie for first is shared, or settled by one more deal with tie_break=extra_deal.
"""


GAME: Game[SpecOptions] = declare(
    Game(
        id="spec",
        title=SPEC_TITLE,
        min_players=2,
        max_players=4,
        options=SpecOptions,
        state=SpecState,
        actions=[Predict, Call, Challenge, Reveal],
        summary=SUMMARY,
    ),
    referee="games.referee.spec:RefereeSpecState",
    bots={
        "easy": "games.players.spec:EASY",
        "strong": "games.players.spec:STRONG",
    },
    hinter="games.players.spec_adviser:spec_hint",
    analyser="games.players.spec_analysis:analyse_spec",
)
