"""Spec refereed: the showcards lie in a real 5x5 grid and the bot keeps the rest of the deal.

The entries of a deal: each player's prediction of the last card (the online game's constraints:
no rank or suit twice, Joker once), then on every turn the call (a face-down cell and the card or
Joker named, every call offered as online) and the card turned up at that cell, chosen from the
showcards not seen yet. In the default challenge mode any opponent may enter a challenge of the
call once its card is entered, until the next call is entered; after the 24th call the next player
turns up the last card, which the bot already knows by elimination.

The scorecards need no entries: the rules fix the stack's order (two Jokers, then the Nines down to
the Threes, suits irrelevant), so the bot's virtual stack is the real one and it says which cards
each call takes. Forbidden calls, penalties, the last card's award, deal scores and the match are
the online game's own (:mod:`games.spec`, :mod:`games.spec_scoring`).

Bookkeeping: the deal's ``grid`` always holds all 25 showcards. A face-down cell holds one of the
unseen cards in an arbitrary (canonical) order, never shown; when a card is entered as turned up at
a cell it is swapped into that cell. So the online game's code finds the card at every turned cell,
and the one card left face down at the end is exactly the one nobody has seen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from games.cards import Card
from games.engine import Action, Event, Game, Seat, Zone
from games.match import DealFacts
from games.referee import dealer_line, referee_mode
from games.referee.series import Series
from games.referee.state import RefereeState
from games.spec import (
    CELL_INDEX,
    CELLS,
    MATCH,
    PHASE_TEXT,
    SPEC_TITLE,
    Call,
    Challenge,
    Phase,
    Predict,
    Reveal,
    SpecDeal,
    SpecFacts,
    SpecOptions,
    SpecView,
    call_text,
)
from games.spec import GAME as ONLINE
from games.spec_scoring import SHOWCARDS

# --- entries -------------------------------------------------------------------------------------


class TurnedUp(Action):
    """The card found at the cell just called (a showcard nobody has seen yet)."""

    kind: Literal["turned_up"] = "turned_up"
    turned: Card

    @property
    def card(self) -> Card:
        return self.turned

    def label(self) -> str:
        return f"Turned up {self.turned.short}"


_TURNED = {c: TurnedUp(turned=c) for c in SHOWCARDS}


@dataclass(frozen=True)
class PendingCall:
    """A call entered whose card is not entered yet."""

    seat: Seat
    cell: int
    call: Card


# --- view ----------------------------------------------------------------------------------------


class RefereeSpecView(SpecView):
    """The online view plus the call waiting for its card and the entry due next."""

    pending: str = ""
    due: str = ""

    def table_lines(self) -> list[str]:
        lines = dealer_line(self) + super().table_lines()
        if self.pending:
            lines.append(self.pending)
        if self.due:
            lines.append(f"Next entry: {self.due}")
        return lines


# --- state ---------------------------------------------------------------------------------------


SUMMARY = f"""
Referee mode: 2 to 4 players play {SPEC_TITLE} with real cards; the bot keeps the whole deal
(the grid, the stack, the scorecards won, the challenges, the scores and the match), exactly as
in the online game and with the same options.

Each deal: lay the 25 showcards face down in a 5x5 grid (rows A to E, columns 1 to 5) and the 30
scorecards in their fixed order. Enter each player's prediction of the last card, starting with
the first caller (no rank or suit twice, Joker once). Then, on each turn, enter the call (the
cell and the card named, or Joker) and the card found there, in one entry ("A1 KH 10S") or two:
the card must be a showcard nobody has seen yet. The predictions may go in one entry too ("KH QS"). The bot says which scorecards the caller takes from the top of the stack: their order
is fixed by the rules, so there is nothing to enter for them.

Forbidden calls (the previous call again, a card already face up, Joker once the Joker and all
four deuces are up) are entered like any other in the default challenge mode: once the call's
card is entered, any opponent may enter a challenge until the next call is entered. The bot
checks it against the history: the first right challenger takes the caller's highest scorecard
(or the top of the stack). In strict mode forbidden calls are refused instead.

After the 24th call the next player turns up the last card (an entry with nothing to choose: the
bot knows the card by elimination). The best prediction takes the rest of the stack (or 10 if it
ran out), the deal is scored and the match goes on as online.
"""


class RefereeSpecState(RefereeState[SpecOptions]):
    """A refereed match: predictions, calls and turned cards entered. The match is the online
    game's :data:`~games.spec.MATCH` and the deal a :class:`~games.spec.SpecDeal` (``state.deal``),
    as online; a call waits for its card (``pending``) before the deal resolves it."""

    entry_kinds = (Predict, Call, TurnedUp, Challenge, Reveal)
    rules_summary = SUMMARY
    takes_series = True

    match = MATCH
    deal: SpecDeal

    def __init__(
        self,
        players: Sequence[str],
        options: SpecOptions,
        seed: int,
        deck: Sequence[Card] | Sequence[Sequence[Card]] | None = None,
    ) -> None:
        self.pending: PendingCall | None = None
        self.deal_results: list[list[int]] = []
        self.extra_deal = False
        super().__init__(players, options, seed, deck)

    @property
    def phase(self) -> Phase:
        return self.deal.phase

    @property
    def to_move(self) -> Seat:
        return self.deal.to_move

    # -- the deal ------------------------------------------------------------------------------

    def _start_deal(self) -> list[Event]:
        """The real grid is on the table: face-down cells hold the unseen cards in a fixed order."""
        self.deal_no += 1
        self.deal = SpecDeal.new(self.players, self.options, self.dealer, list(SHOWCARDS))
        self.pending = None
        extra = " (the tie-break deal)" if self.extra_deal else ""
        text = (
            f"Deal {self.deal_no}{extra}: lay the 25 showcards face down in a 5x5 grid (rows A to E, "
            f"columns 1 to 5) and the scorecards in their fixed order. {self.name(self.dealer)} "
            "predicts and calls first."
        )
        return [self.event("deal_start", text)]

    def settle(self, facts: DealFacts) -> list[Event]:
        events = super().settle(facts)
        if self.is_over:
            self.deal.phase = "over"
        return events

    def entries(self, facts: DealFacts) -> list[tuple[Seat, Action]]:
        """The predictions from the first caller round, then each call with the card found and
        the challenges of it, and in challenge mode the last card's turning."""
        assert isinstance(facts, SpecFacts)
        n = self.n
        out: list[tuple[Seat, Action]] = []
        for k in range(n):
            seat = (self.dealer + k) % n
            out.append((seat, Predict(prediction=facts.predictions[seat])))
        for number, call in enumerate(facts.calls, 1):
            out += [(call.seat, Call(cell=call.cell, call=call.call)), (call.seat, _TURNED[call.turned])]
            out += [(seat, Challenge(call_no=number)) for no, seat in facts.challenges if no == number]
        if self.deal.challenge_mode and facts.calls:
            out.append(((facts.calls[-1].seat + 1) % n, Reveal()))
        return out

    def unseen(self) -> list[Card]:
        """Showcards not turned up yet this deal (any of them may lie in any face-down cell)."""
        return [c for c, up in zip(self.deal.grid, self.deal.face_up, strict=True) if not up]

    def cell_of(self, card: Card) -> int | None:
        """The cell where ``card`` was turned up, if it was."""
        for i, (c, up) in enumerate(zip(self.deal.grid, self.deal.face_up, strict=True)):
            if up and c == card:
                return i
        return None

    # -- the entries ---------------------------------------------------------------------------

    def _awaiting(self) -> frozenset[Seat]:
        return frozenset([self.deal.to_move])

    def actors(self) -> list[Seat]:
        return [] if self.is_over else self.deal.actors()

    def _legal(self, seat: Seat) -> list[Action]:
        if self.pending is None:
            return self.deal.legal(seat)
        if seat != self.pending.seat:
            return []
        return [_TURNED[c] for c in SHOWCARDS if c in self.unseen()]

    def is_legal(self, seat: Seat, action: Action) -> bool:
        """Decided without building the list (a calling turn lists 500 calls)."""
        if isinstance(action, Series) or self.is_echo(seat, action):
            return super().is_legal(seat, action)
        if self.pending is not None:
            return (
                isinstance(action, TurnedUp)
                and seat == self.pending.seat
                and action.turned in self.unseen()
            )
        return not isinstance(action, TurnedUp) and self.deal.is_legal(seat, action)

    def _refusal(self, seat: Seat, action: Action) -> str | None:
        pending, deal = self.pending, self.deal
        if pending is None:
            if isinstance(action, TurnedUp):
                return self._why_no_card()
            return deal.refusal(seat, action)
        cell = CELLS[pending.cell]
        caller = self.name(pending.seat)
        if isinstance(action, TurnedUp):
            if seat != pending.seat:
                return f"The card at {cell} is entered for {caller}, who called it."
            return self._why_not_turned(action.turned, cell)
        if isinstance(action, Challenge):
            made = len(deal.calls)
            if deal.challenge_mode and action.call_no == made and made > 0:
                return (
                    f"Call {made} can no longer be challenged: the window closed when {caller} "
                    "announced the next call."
                )
            return deal.refusal(seat, action)
        if isinstance(action, (Call, Reveal, Predict)):
            return f"{caller} called {call_text(pending.call)} at {cell}: first enter the card turned up there."
        return None

    def _why_no_card(self) -> str:
        if self.deal.phase == "predict":
            return "Everyone predicts the last card before any card is turned up."
        if self.deal.phase == "reveal":
            return "All 24 calls are made: enter the turning of the last card, which the bot already knows."
        return f"Enter {self.name(self.deal.to_move)}'s call (the cell and the card named) before the card turned up."

    def _why_not_turned(self, card: Card, cell: str) -> str:
        if card not in SHOWCARDS:
            return (
                f"The {card.name} is not a showcard: the grid holds the Joker, the Aces, Kings, Queens, "
                "Jacks and Tens, and the four deuces."
            )
        where = self.cell_of(card)
        assert where is not None
        return f"The {card.short} is already face up at {CELLS[where]}: enter the card found at {cell}."

    def _enter(self, seat: Seat, action: Action) -> list[Event]:
        if isinstance(action, Call):
            return self._announce(seat, CELL_INDEX[action.cell], action.call)
        if isinstance(action, TurnedUp):
            events = self._turn_up(action.turned)
        else:
            events = self.deal.play(seat, action)
        if self.deal.done:
            events += self.settle(self.deal.facts())
        return events

    def _announce(self, seat: Seat, cell: int, call: Card) -> list[Event]:
        """A call closes the previous call's challenge window; its card comes in the next entry."""
        self.pending = PendingCall(seat, cell, call)
        self.deal.open_call = None
        self.deal.challenged = []
        text = f"{self.name(seat)} calls {call_text(call)} at {CELLS[cell]}. Enter the card turned up there."
        return [self.event("announce", text)]

    def _turn_up(self, card: Card) -> list[Event]:
        """Put ``card`` in the called cell (swapping it with the unseen card kept there), then
        resolve the call exactly as the online game does."""
        pending, grid = self.pending, self.deal.grid
        assert pending is not None
        here = grid.index(card)
        grid[here], grid[pending.cell] = grid[pending.cell], card
        self.pending = None
        return self.deal.call(pending.seat, pending.cell, pending.call)

    # -- what the table sees -------------------------------------------------------------------

    def due(self) -> str:
        if self.is_over:
            return ""
        deal = self.deal
        who = self.name(deal.to_move)
        if self.pending is not None:
            return f"the card turned up at {CELLS[self.pending.cell]}."
        if deal.phase == "predict":
            return f"{who}'s prediction of the last card."
        if deal.phase == "reveal":
            return f"{who} turns up the last card (this closes the window to challenge call 24)."
        text = f"{who}'s call: a face-down cell and the card named (or Joker)."
        if deal.open_call is not None:
            text += f" Until then, an opponent may challenge call {deal.open_call}."
        return text

    def view(self, seat: Seat | None) -> RefereeSpecView:
        phase = PHASE_TEXT[self.deal.phase]
        pending = ""
        if self.pending is not None:
            p = self.pending
            pending = f"{self.name(p.seat)} called {call_text(p.call)} at {CELLS[p.cell]}: its card is still to enter."
            phase = "the card turned up"
        return RefereeSpecView(
            **self.base_view(seat),
            **self.deal.view_fields(self.outcome is not None),
            phase=phase,
            deal_results=[list(r) for r in self.deal_results],
            max_deals=MATCH.max_deals(self),
            pending=pending,
            due=self.due(),
        )

    def card_zones(self) -> list[Zone]:
        return self.deal.zones()


GAME: Game[SpecOptions] = referee_mode(ONLINE, RefereeSpecState)
