"""A tiny trick game for testing the table service apart from any real game's rules.

Two or three players, six cards each from a 12- or 18-card pack, follow suit, high card wins;
one point per trick; two deals. Seat 0 may also "knock" as an optional act once per deal.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from games.cards import Card, Suit, make_pack, ranks_from
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
from games.tricks import Trick, TrickRules

RULES = TrickRules(ranks_from("AKQJT9"))


class Knock(Action):
    kind: Literal["knock"] = "knock"


class ToyOptions(BaseOptions):
    deals: int = 2
    hints: bool = Field(False, description="Allow hints (the match is then unrated).")


class ToyView(View):
    trick: list[Card] = Field(default_factory=list)

    def table_lines(self) -> list[str]:
        return ["Trick: " + " ".join(c.short for c in self.trick)]


class ToyState(GameState[ToyOptions]):
    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.dealer = self.choose_first_dealer()
        self.hands: list[list[Card]] = []
        self.won: list[Card] = []
        self.knocked = False
        self._deal()

    def _deal(self) -> None:
        self.deal_no += 1
        suits = [Suit.SPADES, Suit.HEARTS, Suit.CLUBS][: self.n]
        order = self.next_pack_order(make_pack(ranks_from("AKQJT9"), suits))
        self.hands = [sorted(order[i * 6 : (i + 1) * 6], key=str) for i in range(self.n)]
        self.won = []
        self.knocked = False
        self.trick = Trick((self.dealer + 1) % self.n)

    def awaiting(self) -> frozenset[Seat]:
        return frozenset() if self.is_over else frozenset({self.trick.next_seat(self.n)})

    def legal_actions(self, seat: Seat) -> list[Action]:
        if self.is_over:
            return []
        out: list[Action] = []
        if seat in self.awaiting():
            out += [PlayCard(play=c) for c in RULES.follow_options(self.hands[seat], self.trick.led)]
        if seat == 0 and not self.knocked:
            out.append(Knock())
        return out

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        if isinstance(action, Knock):
            self.knocked = True
            return [self.event("knock", f"{self.name(seat)} knocks.")]
        assert isinstance(action, PlayCard)
        self.hands[seat].remove(action.play)
        self.trick.plays.append((seat, action.play))
        events = [self.event("play", f"{self.name(seat)} plays {action.play.short}.")]
        if self.trick.is_complete(self.n):
            w = RULES.winner(self.trick.plays)
            self.scores[w] += 1
            self.won += self.trick.cards
            events.append(self.event("trick", f"{self.name(w)} wins the trick."))
            self.trick = Trick(w)
            if not self.hands[0]:
                if self.deal_no >= self.options.deals:
                    events.append(self.finish(Outcome.from_scores(self.scores)))
                else:
                    self.dealer = (self.dealer + 1) % self.n
                    self._deal()
                    events.append(self.event("deal", f"Deal {self.deal_no} begins."))
        return events

    def view(self, seat: Seat | None) -> ToyView:
        return ToyView(
            **self.base_view(seat),
            phase="playing",
            hand=list(self.hands[seat]) if seat is not None else [],
            trick=self.trick.cards,
        )

    def card_zones(self) -> list[Zone]:
        zones = [Zone(f"hand {i}", h, frozenset({i})) for i, h in enumerate(self.hands)]
        return [*zones, Zone("trick", self.trick.cards), Zone("won", self.won)]


TOY = Game(
    id="toy",
    title="Toy Tricks",
    min_players=2,
    max_players=3,
    options=ToyOptions,
    state=ToyState,
    actions=[PlayCard, Knock],
    summary="Follow suit; high card wins; a point a trick.",
)
