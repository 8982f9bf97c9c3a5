"""Twenty-Nine's strong player at tables of three or more: each play is tried on many deals of the
unseen cards, consistent with what the table has shown, and the deal is played out to its end.

Only a card's value matters in Twenty-Nine (suits never do, and every card counts one at the end),
so the playouts run on counts of each value held, which makes hundreds of them affordable.

What a seat can know of the others' hands (:func:`known_lacks`): a seat that passed on a total
holds no card that fits it, and a seat that played on a total without making 29 holds no card that
would have made it (every player takes a pile it can; the playouts' players always do).

In the playouts the other seats, partner and opponents alike, take a pile whenever they can and
otherwise play any card that fits, as the easy player does; our own later plays follow
:func:`_own_play`. A play is judged by the deal's result (won, drawn, lost: the match counts deals
won), with a little of the final card margin to separate plays that win or lose alike.

Issue 29, at four against three easy bots (the partner one of them), seeds 60000..60199: the
depth-3 search of :class:`~games.players.counting.SearchingAdderPlayer` won .340 of matches and its
side .616 of deals (W465 D55 L280); these playouts .409 and .704 (W540 D46 L214), and with our own
later plays careful (:func:`_own_play`) .408 and .717 (W550 D47 L203), at a CPU p99 of 25 ms a
move. On fresh seeds (999000..999399) it won .414 [.367, .463] of 400 matches (fair .25), its side
.714 of the deals (W1100 D85 L415); CPU a move p50 5 ms, p99 20 ms, max 30 ms. At three (each for
themselves, fair .333) it won .767 [.69, .83] of 150 matches against two easy bots where the search
won .534 [.46, .61] (seeds 60000..60149). The search judged a play by the cards it gives or takes within three plies, where a deal is
won by the cards counted at its end, most often at a block that leaves the last pile to nobody.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.adders import twenty_nine
from games.cards import Card, full_pack
from games.counting import CountingView, play_card_of
from games.engine import Action, Seat, View
from games.players.counting import MEMORY, AdderModel, Position, unseen_cards


class TwentyNineModel(AdderModel):
    """Making exactly 29 takes the pile; cards still held count for their holder's side, so a
    card played is a card given to the pile.

    This model serves the search, which is strong at two. With three or more the strong player is
    :class:`~games.players.twenty_nine.TwentyNineStrong`, which plays deals out (issue 29): at four
    the search of three plies stops before the second opponent's reply, and searching the whole
    round (depth 4) won only .346 [.30, .39] of 400 matches against three easy bots where depth 3
    won .336 [.29, .38] (seeds 60000..60399), at four times the CPU."""

    game_id = "twenty_nine"

    def pack(self, view: CountingView) -> list[Card]:
        return full_pack()

    def value(self, card: Card) -> int:
        return twenty_nine.card_value(card)

    def pile(self, view: CountingView) -> int:
        """The cards in the pile: the plays since it was last taken (all those the seat has seen,
        not only the view's few recent ones)."""
        count = 0
        for r in MEMORY.observe(view).plays:
            if r.card is None:
                continue
            count = 0 if "takes" in r.note else count + 1
        return count

    def sides(self, view: CountingView) -> list[int]:
        """Each seat's side, from the view (the ``teams`` option decides them); the standard
        layout for a view that does not say."""
        if view.side_of is not None:
            return list(view.side_of)
        n = len(view.players)
        side_of = [0] * n
        for i, side in enumerate(twenty_nine.side_layout(n, "standard")):
            for s in side:
                side_of[s] = i
        return side_of

    def care(self, view: CountingView, seat: Seat, other: Seat) -> float:
        side_of = self.sides(view)
        if side_of[seat] == side_of[other]:
            return 1.0
        return -1.0 / max(1, len(set(side_of)) - 1)

    def allowed(self, pos: Position, action: Action, after: int) -> bool:
        return after <= twenty_nine.TARGET

    def play(self, pos: Position, seat: Seat, action: Action, after: int) -> tuple[Position, float]:
        nxt = self.next_seat(pos, seat, action)
        if after == twenty_nine.TARGET:  # takes the pile (and our card back) and leads again
            leader = seat if pos.hands[seat] else nxt
            return pos._replace(total=0, pile=0, mark=0, mover=leader), float(pos.pile)
        return pos._replace(total=after, pile=pos.pile + 1, mark=0, mover=nxt), -1.0

    def stuck(self, pos: Position, seat: Seat) -> tuple[Position, float]:
        passes = pos.mark + 1
        if passes >= len(pos.hands):
            return pos._replace(ended=True), 0.0  # a block: the pile belongs to nobody
        return pos._replace(mark=passes, mover=self.next_seat(pos, seat, None)), 0.0


TARGET = twenty_nine.TARGET
TOP = 10
"""The highest card value."""


def known_lacks(view: CountingView) -> dict[Seat, set[int]]:
    """For each other seat, the card values it cannot hold now (see the module)."""
    out: dict[Seat, set[int]] = {}
    for r in MEMORY.observe(view).plays:
        if r.seat == view.seat:
            continue
        if r.card is None:  # a pass on r.total: nothing that fits
            out.setdefault(r.seat, set()).update(range(1, min(TOP, TARGET - r.total) + 1))
        elif "takes" not in r.note:
            before = r.total - twenty_nine.card_value(r.card)
            if 1 <= TARGET - before <= TOP:
                out.setdefault(r.seat, set()).add(TARGET - before)
    return out


def cards_won(view: CountingView, side_of: Sequence[int], sides: int) -> list[int]:
    """The cards each side has taken this deal, from the plays the seat has seen."""
    won = [0] * sides
    pile = 0
    for r in MEMORY.observe(view).plays:
        if r.card is None:
            continue
        if "takes" in r.note:
            won[side_of[r.seat]] += pile + 1
            pile = 0
        else:
            pile += 1
    return won


def sample_hands(
    pool: list[Card], sizes: Sequence[int], lacks: dict[Seat, set[int]], rng: random.Random
) -> list[list[int]]:
    """The other seats' hands, as counts of each value (index 0 unused), dealt at random from the
    unseen ``pool`` in the given sizes, each seat only values it may hold; the most constrained
    seat is dealt first, and if that cannot be done, any cards."""
    values = [twenty_nine.card_value(c) for c in pool]
    rng.shuffle(values)
    hands = [[0] * (TOP + 1) for _ in sizes]
    order = sorted(range(len(sizes)), key=lambda s: -len(lacks.get(s, ())))
    spare = values
    for s in order:
        banned = lacks.get(s)
        if not banned:
            take, spare = spare[: sizes[s]], spare[sizes[s] :]
        else:
            take = [v for v in spare if v not in banned][: sizes[s]]
            if len(take) < sizes[s]:  # what was seen cannot all be true: any cards
                return _any_hands(values, sizes)
            rest = list(spare)
            for v in take:
                rest.remove(v)
            spare = rest
        for v in take:
            hands[s][v] += 1
    return hands


def _any_hands(values: list[int], sizes: Sequence[int]) -> list[list[int]]:
    hands = [[0] * (TOP + 1) for _ in sizes]
    at = 0
    for s, size in enumerate(sizes):
        for v in values[at : at + size]:
            hands[s][v] += 1
        at += size
    return hands


def _own_play(deal: Deal, seat: Seat, room: int, careful: bool, side_of: Sequence[int], n: int) -> int:
    """Our own later plays in a playout: make 29 if we can, else the highest card that fits (with
    ``careful``, the highest that leaves the next seat, if an opponent, no 29 to make)."""
    hand = deal.hands[seat]
    if room <= TOP and hand[room]:
        return room
    first = 0
    nxt = _next(deal, seat, n) if careful else seat
    theirs = deal.hands[nxt] if side_of[nxt] != side_of[seat] else None
    for v in range(min(TOP, room), 0, -1):
        if hand[v]:
            left = room - v
            if theirs is None or left > TOP or not theirs[left]:  # left > 0: no 29 of our own
                return v
            first = first or v
    return first


class Deal:
    """A deal in progress for the playouts: the hands as value counts, the total, the cards in the
    pile and those each side has taken."""

    __slots__ = ("counts", "hands", "held", "mover", "pile", "total", "won")

    def __init__(
        self, hands: list[list[int]], total: int, pile: int, won: list[int], mover: Seat
    ) -> None:
        self.hands = hands
        self.counts = [sum(h) for h in hands]
        self.held = sum(v * k for h in hands for v, k in enumerate(h))
        self.total = total
        self.pile = pile
        self.won = won
        self.mover = mover

    def copy(self) -> Deal:
        d = Deal.__new__(Deal)
        d.hands = [list(h) for h in self.hands]
        d.counts = list(self.counts)
        d.held = self.held
        d.total, d.pile, d.won, d.mover = self.total, self.pile, list(self.won), self.mover
        return d


class TwentyNineStrong:
    """Strong at three or more (see the module)."""

    name = "strong"

    def __init__(self, model: TwentyNineModel, samples: int = 40, margin_weight: float = 0.02, careful: bool = True) -> None:
        self.model = model  # the sides, the pile and the unseen cards, as the search reads them
        self.samples = samples
        self.margin_weight = margin_weight
        self.careful = careful

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        assert isinstance(view, CountingView) and view.seat is not None
        moves: dict[int, Action] = {}
        for action in legal:
            card = play_card_of(action)
            if card is not None:
                moves.setdefault(twenty_nine.card_value(card), action)
        if len(moves) <= 1:
            return next(iter(moves.values()), legal[0])
        values = sorted(moves, reverse=True)
        if TARGET - view.total in moves:  # a pile taken is never worth giving up
            return moves[TARGET - view.total]
        me = view.seat
        n = len(view.players)
        side_of = self.model.sides(view)
        won = cards_won(view, side_of, max(side_of) + 1)
        pile = self.model.pile(view)
        lacks = known_lacks(view)
        pool = unseen_cards(self.model, view)
        sizes = [0 if s == me else view.hand_counts[s] for s in range(n)]
        if sum(sizes) > len(pool):  # the memory disagrees with the counts: deal what there is
            sizes = [min(k, max(0, len(pool) - sum(sizes[:s]))) for s, k in enumerate(sizes)]
        mine = [0] * (TOP + 1)
        for c in view.hand:
            mine[twenty_nine.card_value(c)] += 1
        tens_out = twenty_nine.tens_to_remove(n)
        scores = [0.0] * len(values)
        for _ in range(self.samples):
            hands = sample_hands(list(pool), sizes, lacks, rng)
            hands[me] = list(mine)
            start = Deal(hands, view.total, pile, won, me)
            seed = rng.getrandbits(32)
            for i, v in enumerate(values):
                deal = start.copy()
                _play(deal, me, v, n, side_of)
                scores[i] += self._judge(playout(deal, me, n, side_of, tens_out, random.Random(seed), self.careful), side_of, me)
        best = max(range(len(values)), key=lambda i: (round(scores[i], 6), values[i]))
        return moves[values[best]]

    def _judge(self, counts: list[int], side_of: Sequence[int], me: Seat) -> float:
        ours = counts[side_of[me]]
        rival = max(c for i, c in enumerate(counts) if i != side_of[me])
        result = 1.0 if ours > rival else 0.5 if ours == rival else 0.0
        return result + self.margin_weight * (ours - rival)


def _next(deal: Deal, seat: Seat, n: int) -> Seat:
    """The next seat that still holds cards (``seat`` itself if nobody else does)."""
    for step in range(1, n + 1):
        s = (seat + step) % n
        if deal.counts[s]:
            return s
    return seat


def _play(deal: Deal, seat: Seat, v: int, n: int, side_of: Sequence[int]) -> None:
    deal.hands[seat][v] -= 1
    deal.counts[seat] -= 1
    deal.held -= v
    deal.total += v
    deal.pile += 1
    if deal.total == TARGET:
        deal.won[side_of[seat]] += deal.pile
        deal.total = deal.pile = 0
        deal.mover = seat if deal.counts[seat] else _next(deal, seat, n)
    else:
        deal.mover = _next(deal, seat, n)


def playout(
    deal: Deal, me: Seat, n: int, side_of: Sequence[int], tens_out: int, rng: random.Random, careful: bool = False
) -> list[int]:
    """Play the deal to its end (see the module); the cards each side counts then. (Written out in
    one loop, :func:`_play` and :func:`_next` inlined: the playouts are nearly all of the time.)"""
    hands, counts, won = deal.hands, deal.counts, deal.won
    total, pile, held, seat = deal.total, deal.pile, deal.held, deal.mover
    chance = rng.random
    passes = 0
    while held if not tens_out else total + held >= TARGET:
        room = TARGET - total
        hand = hands[seat]
        if room <= TOP and hand[room]:
            v = room
        elif seat == me:
            v = _own_play(deal, seat, room, careful, side_of, n)
        else:  # the others: any value that fits, or a pass
            fits = [k for k in range(1, min(TOP, room) + 1) if hand[k]]
            v = fits[int(chance() * len(fits))] if fits else 0
        if v:
            passes = 0
            hand[v] -= 1
            counts[seat] -= 1
            held -= v
            total += v
            pile += 1
            if total == TARGET:
                won[side_of[seat]] += pile
                total = pile = 0
                if counts[seat]:
                    continue  # the taker leads again
        else:
            passes += 1
            if passes >= sum(1 for k in counts if k):  # a block: the pile belongs to nobody
                break
        for _ in range(n):  # the next seat holding cards
            seat = seat + 1 if seat + 1 < n else 0
            if counts[seat]:
                break
    result = list(won)
    for s, k in enumerate(counts):
        result[side_of[s]] += k
    return result

