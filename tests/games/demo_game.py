"""A demonstration game that lives only in the tests: what a new game must bring, in one module.

It is declared exactly as the catalogue's games are (``GAME = declare(Game(...), referee=...,
bots=...)``: the referee mode is the referee state the declaration names, nothing else), and
``tests/games/test_every_game.py`` and ``tests/bot/test_referee_every_game.py`` serve it with
``register`` for the length of a test and check it like every other game, referee mode included. Here the referee mode and the bots sit in the same
module; a real game usually keeps them in ``games/referee/<id>.py`` and ``games/players/<id>.py``.

High Card: two or three players, the A K Q J 10 9 of spades and hearts. Each deal everybody gets
three cards; the player at the dealer's left leads the first round. A round is one card from each
player in turn; the highest rank takes it (between equal ranks, the first played) and its taker
leads the next. A round is worth a point. The deal passes left; the match lasts ``deals`` deals
and the most points wins.

The match is declared once (:data:`MATCH`: the dealer, the points, the end of the match) and both
states hold it: the online state deals and plays each deal, the referee state
(:class:`~games.referee.state.RefereeState`) takes each deal's round counts as entries, with the
trick-count part that referee Parity uses; each settles a deal with its :class:`DemoFacts`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pydantic import Field

from games.cards import Card, Suit, make_pack, ranks_from, sort_hand
from games.engine import Action, BaseOptions, Event, Game, GameState, Outcome, PlayCard, Seat, View, Zone
from games.match import DealFacts, Match, MatchState
from games.referee.state import RefereeState
from games.referee.trick_totals import TrickCounts, TricksWon, tricks_entry
from games.registry import declare

PACK: tuple[Card, ...] = tuple(make_pack(ranks_from("AKQJT9"), [Suit.SPADES, Suit.HEARTS]))
HAND = 3
"""Cards each player gets, and so rounds in a deal."""


class DemoOptions(BaseOptions):
    deals: int = Field(2, ge=1, le=6, description="How many deals the match lasts.")


class DemoView(View):
    round: list[tuple[Seat, Card]] = Field(default_factory=list)
    won: list[int] = Field(default_factory=list)
    due: str = ""

    def table_lines(self) -> list[str]:
        lines = ["Rounds won this deal: " + ", ".join(f"{p} {w}" for p, w in zip(self.players, self.won, strict=True))]
        if self.round:
            lines.append("On the table: " + ", ".join(f"{self.players[s]} {c.short}" for s, c in self.round))
        if self.due:
            lines.append(f"Next entry: {self.due}")
        return lines


def round_winner(plays: Sequence[tuple[Seat, Card]]) -> Seat:
    """The highest rank takes the round; between equal ranks, the first played."""
    best_seat, best = plays[0]
    for seat, c in plays[1:]:
        if (c.rank or 0) > (best.rank or 0):
            best_seat, best = seat, c
    return best_seat


class DemoFacts(DealFacts):
    """A deal as the match scores it: the rounds each player took."""

    won: tuple[int, ...]


class DemoMatch(Match[DemoFacts]):
    """A round is worth a point; the deal passes left; the match lasts ``deals`` deals."""

    def score(self, state: MatchState, facts: DemoFacts) -> list[Event]:
        for seat, points in enumerate(facts.won):
            state.scores[seat] += points
        counts = ", ".join(f"{state.name(s)} {w}" for s, w in enumerate(facts.won))
        events = [state.event("deal_score", f"Rounds won: {counts}.")]
        if state.deal_no >= state.options.deals:
            events.append(state.finish(Outcome.from_scores(state.scores)))
        else:
            state.dealer = (state.dealer + 1) % state.n
        return events


MATCH = DemoMatch()


def deal_text(state: MatchState) -> Event:
    return state.event("deal", f"Deal {state.deal_no}: {state.name(state.dealer)} deals {HAND} cards each.")


class DemoState(GameState[DemoOptions]):
    """The online game: the bot deals, and every card is played through it."""

    dealer: Seat

    def __init__(
        self,
        players: Sequence[str],
        options: DemoOptions,
        seed: int,
        deck: Sequence[Card] | Sequence[Sequence[Card]] | None = None,
    ) -> None:
        super().__init__(players, options, seed, deck)
        MATCH.begin(self)
        self.log.extend(self.start_deal())

    def start_deal(self) -> list[Event]:
        self.deal_no += 1
        self.won = [0] * self.n
        events = [deal_text(self)]
        order = self.next_pack_order(PACK)
        self.hands = [sort_hand(order[s * HAND : (s + 1) * HAND]) for s in range(self.n)]
        self.rest = order[self.n * HAND :]
        self.taken: list[Card] = []
        self.round: list[tuple[Seat, Card]] = []
        self.leader: Seat = (self.dealer + 1) % self.n
        return events

    def awaiting(self) -> frozenset[Seat]:
        if self.is_over:
            return frozenset()
        return frozenset(((self.leader + len(self.round)) % self.n,))

    def legal_actions(self, seat: Seat) -> list[Action]:
        if seat not in self.awaiting():
            return []
        return [PlayCard(play=c) for c in self.hands[seat]]

    def explain_illegal(self, seat: Seat, action: Action) -> str | None:
        if isinstance(action, PlayCard) and action.play not in self.hands[seat]:
            return f"You do not hold the {action.play.name}."
        return None

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        assert isinstance(action, PlayCard)
        self.hands[seat].remove(action.play)
        self.round.append((seat, action.play))
        events = [self.event("play", f"{self.name(seat)} plays {action.play.short}.")]
        if len(self.round) < self.n:
            return events
        winner = round_winner(self.round)
        self.won[winner] += 1
        self.taken.extend(c for _, c in self.round)
        self.round = []
        self.leader = winner
        events.append(self.event("round", f"{self.name(winner)} takes the round."))
        if not self.hands[winner]:
            events.extend(MATCH.settle(self, DemoFacts(won=tuple(self.won))))
            if not self.is_over:
                events.extend(self.start_deal())
        return events

    def view(self, seat: Seat | None) -> DemoView:
        hand = list(self.hands[seat]) if seat is not None else []
        return DemoView(**self.base_view(seat), phase="the play", won=list(self.won), hand=hand, round=list(self.round))

    def card_zones(self) -> list[Zone]:
        hands = [Zone(f"hand:{s}", self.hands[s], frozenset((s,))) for s in range(self.n)]
        return [*hands, Zone("round", [c for _, c in self.round]), Zone("taken", self.taken), Zone("rest", self.rest, frozenset())]


SUMMARY = """
High Card, a demonstration game: two or three players, the A K Q J 10 9 of spades and hearts.
Each deal everybody gets three cards and the player at the dealer's left leads. A round is one card
from each player in turn, any card; the highest rank takes it (between equal ranks, the first
played), scores a point and leads the next. The deal passes left; the match lasts `deals` deals
(2 by default) and the most points wins.
"""

GAME: Game[DemoOptions] = declare(
    Game(
        id="demo",
        title="High Card",
        min_players=2,
        max_players=3,
        options=DemoOptions,
        state=DemoState,
        actions=[PlayCard],
        summary=SUMMARY,
    ),
    referee="tests.games.demo_game:DemoReferee",
    bots={"easy": "tests.games.demo_game:EASY", "strong": "tests.games.demo_game:STRONG"},
)


# --- referee mode: the rounds each player won, entered at the end of a deal ---------------------


class DemoReferee(RefereeState[DemoOptions]):
    """A refereed match: people play with real cards and enter how many rounds each player took.
    The class attributes are the referee mode the declaration names: its entries and its rules."""

    entry_kinds = (TricksWon,)
    rules_summary = "Referee mode: play High Card with real cards and enter how many rounds each player took."
    match = MATCH

    def _start_deal(self) -> list[Event]:
        self.deal_no += 1
        self.counts = TrickCounts.new(self.n, HAND)
        return [deal_text(self)]

    def _awaiting(self) -> frozenset[Seat]:
        return self.counts.awaiting()

    def _legal(self, seat: Seat) -> list[Action]:
        return self.counts.choices(seat)

    def _refusal(self, seat: Seat, action: Action) -> str | None:
        if isinstance(action, TricksWon):
            return self.counts.refusal(seat, action.tricks, self.players)
        return None

    def _enter(self, seat: Seat, action: Action) -> list[Event]:
        assert isinstance(action, TricksWon)
        events = self.counts.enter(self, seat, action.tricks)
        if self.counts.complete:
            events.extend(self.settle(DemoFacts(won=tuple(self.counts.won()))))
        return events

    def entries(self, facts: DealFacts) -> list[tuple[Seat, Action]]:
        assert isinstance(facts, DemoFacts)
        return [(s, tricks_entry(w)) for s, w in enumerate(facts.won)][:-1]  # the bot fills in the last

    def view(self, seat: Seat | None) -> DemoView:
        due = "" if self.is_over else self.counts.line(self.players)
        won = self.counts.won() if self.counts.complete else [0] * self.n
        return DemoView(**self.base_view(seat), phase="round counts", won=won, due=due)


# --- bots ----------------------------------------------------------------------------------------


def _rank(action: Action) -> int:
    c = action.card
    return int(c.rank or 0) if c is not None else 0


class EasyDemoPlayer:
    """Plays its lowest card."""

    name = "easy"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        return min(legal, key=_rank)


class StrongDemoPlayer:
    """Takes the round with its lowest winning card when it can; otherwise throws its lowest."""

    name = "strong"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        table = view.round if isinstance(view, DemoView) else []
        best = max((int(c.rank or 0) for _, c in table), default=0)
        winners = [a for a in legal if _rank(a) > best]
        return min(winners or legal, key=_rank)


EASY = EasyDemoPlayer()
STRONG = StrongDemoPlayer()
