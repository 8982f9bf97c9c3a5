"""A demonstration game that lives only in the tests: what a new game must bring, in one module.

It is declared exactly as the catalogue's games are (``GAME = declare(Game(...), referee=...,
bots=...)``), and ``tests/games/test_every_game.py`` serves it with ``register`` for the length
of a test and checks it like every other game. Here the referee mode and the bots sit in the same
module; a real game usually keeps them in ``games/referee/<id>.py`` and ``games/players/<id>.py``.

High Card: two or three players, the A K Q J 10 9 of spades and hearts. Each deal everybody gets
three cards; the player at the dealer's left leads the first round. A round is one card from each
player in turn; the highest rank takes it (between equal ranks, the first played) and its taker
leads the next. A round is worth a point. The deal passes left; the match lasts ``deals`` deals
and the most points wins.

The online state and the referee state share one match base (:class:`DemoMatch`: the dealer, the
points, the end of a deal and of the match), the pattern of Costly Colours' referee mode.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pydantic import Field

from games.cards import Card, Suit, make_pack, ranks_from, sort_hand
from games.engine import Action, BaseOptions, Event, Game, GameState, Outcome, PlayCard, Seat, View, Zone
from games.players import RandomPlayer
from games.referee import referee_mode
from games.referee.trick_totals import Counts, TricksWon, count_choices, count_refusal, counts_line, missing
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


class DemoMatch(GameState[DemoOptions]):
    """What both modes share: the dealer, the rounds won, the points and the end of the match."""

    def __init__(
        self,
        players: Sequence[str],
        options: DemoOptions,
        seed: int,
        deck: Sequence[Card] | Sequence[Sequence[Card]] | None = None,
    ) -> None:
        super().__init__(players, options, seed, deck)
        self.dealer: Seat = self.choose_first_dealer()
        self.won = [0] * self.n
        self.last_deal_won: list[int] = []
        self.log.extend(self.start_deal())

    def start_deal(self) -> list[Event]:
        self.deal_no += 1
        self.won = [0] * self.n
        return [self.event("deal", f"Deal {self.deal_no}: {self.name(self.dealer)} deals {HAND} cards each.")]

    def end_deal(self) -> list[Event]:
        self.last_deal_won = list(self.won)
        for seat, points in enumerate(self.won):
            self.scores[seat] += points
        counts = ", ".join(f"{self.name(s)} {w}" for s, w in enumerate(self.won))
        events = [self.event("deal_score", f"Rounds won: {counts}.")]
        if self.deal_no >= self.options.deals:
            events.append(self.finish(Outcome.from_scores(self.scores)))
            return events
        self.dealer = (self.dealer + 1) % self.n
        return events + self.start_deal()

    def base_fields(self, seat: Seat | None, phase: str) -> dict[str, Any]:
        return {**self.base_view(seat), "phase": phase, "won": list(self.won)}


class DemoState(DemoMatch):
    """The online game: the bot deals, and every card is played through it."""

    def start_deal(self) -> list[Event]:
        events = super().start_deal()
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
            events.extend(self.end_deal())
        return events

    def view(self, seat: Seat | None) -> DemoView:
        hand = list(self.hands[seat]) if seat is not None else []
        return DemoView(**self.base_fields(seat, "the play"), hand=hand, round=list(self.round))

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
    referee="tests.games.demo_game:REFEREE",
    bots={"easy": "tests.games.demo_game:EASY", "strong": "tests.games.demo_game:STRONG"},
)


# --- referee mode: the rounds each player won, entered at the end of a deal ---------------------


class DemoReferee(DemoMatch):
    """A refereed match: people play with real cards and enter how many rounds each player took."""

    def start_deal(self) -> list[Event]:
        self.counts: Counts = [None] * self.n
        return super().start_deal()

    def awaiting(self) -> frozenset[Seat]:
        return frozenset() if self.is_over else frozenset(missing(self.counts))

    def legal_actions(self, seat: Seat) -> list[Action]:
        return [] if self.is_over else list(count_choices(self.counts, HAND, seat))

    def explain_illegal(self, seat: Seat, action: Action) -> str | None:
        if isinstance(action, TricksWon):
            return count_refusal(self.counts, HAND, seat, action.tricks, self.players)
        return None

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        assert isinstance(action, TricksWon)
        self.counts[seat] = action.tricks
        events = [self.event("rounds", f"{self.name(seat)} took {action.tricks} of the {HAND} rounds.")]
        if not missing(self.counts):
            self.won = [c or 0 for c in self.counts]
            events.extend(self.end_deal())
        return events

    def view(self, seat: Seat | None) -> DemoView:
        due = "" if self.is_over else counts_line(self.counts, self.players, HAND)
        return DemoView(**self.base_fields(seat, "round counts"), due=due)

    def card_zones(self) -> list[Zone]:
        return []  # the bot never sees a card


REFEREE = referee_mode(
    GAME,
    state=DemoReferee,
    actions=[TricksWon],
    summary="Referee mode: play High Card with real cards and enter how many rounds each player took.",
)


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


# --- the mirrored match the every-game test asks of each game ------------------------------------


def mirror(seed: int) -> None:
    """Play a dealt match at random and enter each deal's round counts into a referee game: the
    scores must agree after every deal and the match must end the same way."""
    names = ["Ann", "Bob", "Cat"]
    real = GAME.start(names, {}, seed=seed)
    ref = REFEREE.start(names, {}, seed=seed)
    assert isinstance(real, DemoState) and isinstance(ref, DemoReferee)
    rng = random.Random(seed)
    chooser = RandomPlayer()
    while not real.is_over:
        (seat,) = real.awaiting()
        deal = real.deal_no
        real.apply(seat, chooser.choose(real.view(seat), real.legal_actions(seat), rng))
        if real.deal_no != deal or real.is_over:
            for s in rng.sample(range(len(names)), len(names)):
                ref.apply(s, TricksWon(tricks=real.last_deal_won[s]))
            assert (ref.scores, ref.deal_no, ref.dealer) == (real.scores, real.deal_no, real.dealer)
    assert ref.is_over and ref.outcome == real.outcome
