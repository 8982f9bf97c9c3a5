# Over 400 lines: the planner every adding-up game's bots share, one search over a seat's view.
"""Planning machinery shared by the bot players of the adding-up games.

A game states what differs in a small :class:`AdderModel`: its pack, what a play does to the total
and to the mover's score, what a stuck player suffers, and how much a seat cares about another
seat's points. The machinery does the rest from the seat's view alone:

* ``easy`` (:class:`GreedyAdderPlayer`) takes the play worth most at once; among plays worth the
  same it follows the game's one rule of thumb, if it has one (:meth:`AdderModel.rule_of_thumb`),
  and otherwise picks any;
* ``strong`` (:class:`SearchingAdderPlayer`) deals the unseen cards out at random to the other
  seats (as many as each holds), a few times over, and searches a few plies ahead on each such
  deal: every seat plays to maximise its own points, counting a partner's as its own and an
  opponent's against it. The play with the best average wins, counting a little of what
  :meth:`AdderModel.keep` says the cards kept back are worth; a game may also narrow the plays
  searched (:meth:`AdderModel.candidates`) where a short search is known to mislead.

Points are whatever the model says a play is worth (a hit target, a lost deal, cards taken), on
one scale per game; the search only compares them.
"""

from __future__ import annotations

import random
import threading
from collections import Counter, OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from games.cards import Card
from games.counting import RECENT_LIMIT, CountingView, PlayAs, PlayRecord, play_card, play_card_of
from games.engine import Action, Seat, View
from games.parts import Player


class Position(NamedTuple):
    """What the search needs of a deal: the total, every seat's cards (the others' sampled), whose
    turn it is, the direction of play, the pile since it was last taken, and one game-specific
    number (``mark``: Hundred's next point, whether Jubilee has opened...)."""

    total: int
    hands: tuple[tuple[Card, ...], ...]
    mover: Seat
    direction: int = 1
    pile: int = 0
    mark: int = 0
    ended: bool = False
    stock: tuple[Card, ...] = ()
    """The stock, top card first (only the playouts deal one)."""


class AdderModel:
    """What one adding-up game means to its bots. Override what differs; the defaults are the
    plain rule: a card adds its value, nothing scores, a stuck seat passes."""

    game_id: str = ""
    keep_weight: float = 0.01
    """How much :meth:`keep` counts against the points the search finds (per unit of keep)."""
    draws: str = ""
    """When a seat draws from the stock: ``"before"`` its play (Fifty-One), ``"after"`` it
    (Jubilee, Ninety-Nine), or never (``""``). Only the playouts draw."""

    # --- what a seat can know ----------------------------------------------------------------

    def pack(self, view: CountingView) -> list[Card]:
        """Every card of one deal's pack."""
        raise NotImplementedError

    def gone(self, view: CountingView) -> list[Card]:
        """Cards this seat knows are not in anyone's hand or the stock: the cards turned up to
        start the pile (the view's ``opening``) and every play of the deal it has seen (remembered
        from one turn to the next), since the stock was last made up again."""
        return [*view.opening, *(r.card for r in MEMORY.observe(view).plays if r.card is not None)]

    def refuses(self, total: int, card: Card) -> bool:
        """Whether a seat that passed on ``total`` cannot hold ``card`` (it would have had a play).
        Only games without drawing use it: a drawn card would lift the constraint."""
        pos = Position(total, (), 0)
        return any(self.allowed(pos, a, self.after(pos, a)) for a in self.plays_of(pos, card))

    def extra_cards(self, view: CountingView, seat: Seat) -> int:
        """Cards ``seat`` will hold beyond its present hand when its next turn comes (a draw)."""
        return 0

    def mark(self, view: CountingView) -> int:
        return 0

    def stock_size(self, view: CountingView, unseen: int) -> int:
        """How many of the unseen cards a playout deals to the stock."""
        return view.stock

    def pile(self, view: CountingView) -> int:
        return 0

    def care(self, view: CountingView, seat: Seat, other: Seat) -> float:
        """How much ``seat`` values a point won by ``other``: 1 for itself (and a partner), and an
        opponent's point counts against it, shared among the opponents."""
        if seat == other:
            return 1.0
        rivals = sum(1 for s, out in enumerate(view.out or [False] * len(view.players)) if s != seat and not out)
        return -1.0 / max(1, rivals)

    # --- what plays do -----------------------------------------------------------------------

    def depth(self, view: CountingView) -> int | None:
        """Plies to search (``None``: the player's default). A game with small hands can afford a
        whole round and one more, so that a play is judged by what it leaves the player itself."""
        return None

    def value(self, card: Card) -> int:
        raise NotImplementedError

    def moves(self, pos: Position, seat: Seat) -> list[tuple[Action, Card, int]]:
        """The plays ``seat`` may make from its (possibly sampled) hand, one per distinct effect,
        each with its card and the total it makes."""
        out: list[tuple[Action, Card, int]] = []
        seen: set[int] = set()
        alike = {(c.rank, c.card_colour): c for c in pos.hands[seat]}  # same rank and colour: same play
        for card in alike.values():
            for action in self.plays_of(pos, card):
                after = self.after(pos, action)
                key = self.effect_key(action, after)
                if key not in seen and self.allowed(pos, action, after):
                    seen.add(key)
                    out.append((action, card, after))
        return out

    def plays_of(self, pos: Position, card: Card) -> list[Action]:
        """The ways a card may be played (a Queen as +3 or -3...)."""
        return [play_card(card)]

    def effect_key(self, action: Action, after: int) -> int:
        """Plays with equal keys are the same for the search (cards of equal value)."""
        return after

    def after(self, pos: Position, action: Action) -> int:
        """The total a play makes, before any reset."""
        if isinstance(action, PlayAs):
            return action.value if action.sets_total else pos.total + action.value
        card = play_card_of(action)
        assert card is not None
        return pos.total + self.value(card)

    def allowed(self, pos: Position, action: Action, after: int) -> bool:
        return True

    def play(self, pos: Position, seat: Seat, action: Action, after: int) -> tuple[Position, float]:
        """The position after ``seat`` plays (the card already out of its hand), with the next
        mover set, and what the play scores for ``seat``. Default: the total moves on."""
        return pos._replace(total=after, mover=self.next_seat(pos, seat, action)), 0.0

    def stuck(self, pos: Position, seat: Seat) -> tuple[Position, float]:
        """``seat`` has no play. Default: it passes."""
        return pos._replace(mover=self.next_seat(pos, seat, None)), 0.0

    def next_seat(self, pos: Position, seat: Seat, action: Action | None) -> Seat:
        n = len(pos.hands)
        return (seat + pos.direction) % n

    # --- judgement ---------------------------------------------------------------------------

    def keep(self, view: CountingView, hand: Sequence[Card], action: Action, after: int) -> float:
        """A small preference among plays worth the same: higher keeps the better cards back.
        Default: play the card worth most, keeping small ones."""
        card = play_card_of(action)
        return float(self.value(card)) if card is not None else 0.0

    def rule_of_thumb(self, view: CountingView, hand: Sequence[Card], action: Action, after: int) -> float:
        """The easy player's preference among plays worth the same at once (higher is better).
        Default: none, so it picks any of them."""
        return 0.0

    def candidates(self, view: CountingView, legal: Sequence[Action]) -> list[Action]:
        """The root plays worth considering (one per distinct effect)."""
        pos = Position(view.total, (), 0, view.direction, self.pile(view), self.mark(view))
        out: dict[tuple[int, int], Action] = {}
        for action in legal:
            card = play_card_of(action)
            if card is None:
                continue
            after = self.after(pos, action)
            key = (self.effect_key(action, after), self.value_class(card))
            if key not in out:
                out[key] = action
        return list(out.values()) or list(legal)

    def value_class(self, card: Card) -> int:
        """Cards alike for the search but not for what is kept (Ninety-Nine: a Three is not a Four)."""
        return 0


# --- what a seat has seen ------------------------------------------------------------------------


@dataclass
class Seen:
    """The plays of one deal a seat has seen, in order, and the stock it last saw."""

    plays: list[PlayRecord] = field(default_factory=list)
    stock: int = -1


class PlayMemory:
    """What each bot seat remembers of the deal in progress. A view shows only the last few plays,
    and a bot is asked at each of its turns, so together the views it was shown hold every play
    since it first looked: each new view is matched onto the end of what was seen before. A stock
    that grew was made up again from the played cards (Ninety-Nine), which then count as unseen."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._seen: OrderedDict[tuple[object, ...], Seen] = OrderedDict()
        self._lock = threading.Lock()  # bots think in worker threads

    def observe(self, view: CountingView) -> Seen:
        key = (view.game, tuple(view.players), view.seat, view.deal, view.dealer)
        recent = list(view.recent)
        with self._lock:
            record = self._seen.get(key)
            if record is None or view.stock > record.stock >= 0:
                record = Seen()
            self._seen[key] = record
            self._seen.move_to_end(key)
            while len(self._seen) > self.size:
                self._seen.popitem(last=False)
            record.stock = view.stock
            for k in range(min(len(recent), len(record.plays)), -1, -1):
                if record.plays[len(record.plays) - k :] == recent[:k]:
                    break
            if k == 0 and record.plays and len(recent) < RECENT_LIMIT:
                record.plays = []  # nothing in common with a short history: another match's deal
            record.plays.extend(recent[k:])
            return record


MEMORY = PlayMemory()


def pass_floors(model: AdderModel, view: CountingView) -> dict[Seat, int]:
    """For games without drawing, the seats that passed this deal with the highest total each
    passed on: such a seat holds no card that would have fitted that total."""
    if model.draws:
        return {}
    out: dict[Seat, int] = {}
    seen = MEMORY.observe(view).plays
    for r in seen:
        if r.card is None and r.seat != view.seat:
            before = r.total
            out[r.seat] = max(out.get(r.seat, before), before)
    return out


def _deal_hands(
    model: AdderModel, pool: list[Card], sizes: Sequence[int], floors: dict[Seat, int], rng: random.Random
) -> list[list[Card]]:
    """Hands of the given sizes from the shuffled ``pool`` (what is dealt leaves it), a seat that
    passed getting only cards it could not have played then; if that cannot be done, any cards."""
    rng.shuffle(pool)
    hands: list[list[Card]] = [[] for _ in sizes]
    if floors:
        spare = list(pool)
        for s in sorted(floors, key=lambda s: -floors[s]):
            fits = [c for c in spare if not model.refuses(floors[s], c)]
            if len(fits) < sizes[s]:
                hands = [[] for _ in sizes]
                break
            hands[s] = fits[: sizes[s]]
            for c in hands[s]:
                spare.remove(c)
        else:
            for s, size in enumerate(sizes):
                if s not in floors:
                    hands[s], spare = spare[:size], spare[size:]
            pool[:] = spare
            return hands
    for s, size in enumerate(sizes):
        hands[s] = pool[:size]
        del pool[:size]
    return hands


# --- the players -------------------------------------------------------------------------------


def _counting_view(view: View) -> CountingView:
    assert isinstance(view, CountingView), f"{view.game} is not an adding-up game"
    return view


def _seat(view: CountingView) -> Seat:
    assert view.seat is not None
    return view.seat


def _root_position(model: AdderModel, view: CountingView) -> Position:
    me = _seat(view)
    hands = tuple(() if s != me else tuple(view.hand) for s in range(len(view.players)))
    return Position(view.total, hands, me, view.direction, model.pile(view), model.mark(view))


class GreedyAdderPlayer:
    """Easy: the play worth most at once; among equals, the game's rule of thumb, then any."""

    name = "easy"

    def __init__(self, model: AdderModel) -> None:
        self.model = model

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        cv = _counting_view(view)
        me = _seat(cv)
        root = _root_position(self.model, cv)
        best: tuple[float, float, float] | None = None
        choice = legal[0]
        for action in self.model.candidates(cv, legal):
            card = play_card_of(action)
            assert card is not None
            after = self.model.after(root, action)
            _, gain = self.model.play(_without(root, me, card), me, action, after)
            key = (round(gain, 6), self.model.rule_of_thumb(cv, cv.hand, action, after), rng.random())
            if best is None or key > best:
                best, choice = key, action
        return choice


class SearchingAdderPlayer:
    """Strong: average a short search over several random deals of the unseen cards."""

    name = "strong"

    def __init__(self, model: AdderModel, samples: int = 6, depth: int = 3, keep_weight: float | None = None) -> None:
        self.model = model
        self.samples = samples
        self.depth = depth
        self.keep_weight = model.keep_weight if keep_weight is None else keep_weight

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        cv = _counting_view(view)
        moves = self.model.candidates(cv, legal)
        if len(moves) == 1:
            return moves[0]
        me = _seat(cv)
        n = len(cv.players)
        care = [[self.model.care(cv, s, o) for o in range(n)] for s in range(n)]
        depth = self.model.depth(cv) or self.depth
        search = _Search(self.model, care, depth)
        totals = [0.0] * len(moves)
        root = _root_position(self.model, cv)
        after_root = [self.model.after(root, a) for a in moves]
        samples = self.samples if depth > 1 else 1  # a search of our own play alone sees the same on every deal
        for _ in range(samples):
            pos = sample_position(self.model, cv, root, rng)
            for i, action in enumerate(moves):
                card = play_card_of(action)
                assert card is not None
                gains = search.after_move(pos, me, action, card, after_root[i], depth - 1)
                totals[i] += sum(care[me][o] * g for o, g in enumerate(gains))
        # the average includes a little of what the cards kept are worth; exact ties (common: a
        # short search often sees the same fate either way) go to the play worth more at once
        # (lose later rather than now), then to the cards kept
        scored = []
        for i, action in enumerate(moves):
            nxt, gain = self.model.play(root, me, action, after_root[i])
            keep = 0.0 if nxt.ended else self.model.keep(cv, cv.hand, action, after_root[i])  # nothing is kept
            scored.append((round(totals[i] / samples + self.keep_weight * keep, 6), gain, keep, i))
        return moves[max(scored)[3]]


class PlayoutAdderPlayer:
    """Strong, for games whose consequences come late (a deal lost, a pile taken): try each play on
    several random deals of the unseen cards and play the rest of the deal out (or ``horizon``
    plies of it), every seat taking the play worth most at once, the other seats instead a random
    play ``wild`` of the time. A bot cannot tell how well its opponents play; half-random playouts
    judge both kinds fairly (as in :mod:`games.players.trick_sim`). Every play is tried on the same
    deals with the same random choices, so that the comparison is not drowned in luck.

    With ``own_keeps`` the seat's own later plays in a playout take the play worth most at once,
    then the rule of thumb, then :meth:`AdderModel.keep` (a plan of its own) rather than any:
    judged against a careless plan of its own, a play that only pays if it is followed up looks
    worse than it is."""

    name = "strong"

    def __init__(
        self,
        model: AdderModel,
        samples: int = 24,
        horizon: int = 60,
        wild: float = 0.5,
        keep_weight: float | None = None,
        own_keeps: bool = False,
    ) -> None:
        self.model = model
        self.samples = samples
        self.horizon = horizon
        self.wild = wild
        self.own_keeps = own_keeps
        self.keep_weight = model.keep_weight if keep_weight is None else keep_weight

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        cv = _counting_view(view)
        moves = self.model.candidates(cv, legal)
        if len(moves) == 1:
            return moves[0]
        me = _seat(cv)
        n = len(cv.players)
        care = [self.model.care(cv, me, o) for o in range(n)]
        root = _root_position(self.model, cv)
        after_root = [self.model.after(root, a) for a in moves]
        totals = [0.0] * len(moves)
        for _ in range(self.samples):
            pos = sample_deal(self.model, cv, root, rng)
            seed = rng.getrandbits(32)
            for i, action in enumerate(moves):
                card = play_card_of(action)
                assert card is not None
                totals[i] += self._playout(cv, pos, me, action, card, after_root[i], care, random.Random(seed))
        scored = []
        for i, action in enumerate(moves):
            nxt, gain = self.model.play(root, me, action, after_root[i])
            keep = 0.0 if nxt.ended else self.model.keep(cv, cv.hand, action, after_root[i])
            scored.append((round(totals[i] / self.samples + self.keep_weight * keep, 6), gain, keep, i))
        return moves[max(scored)[3]]

    def _playout(
        self,
        view: CountingView,
        pos: Position,
        me: Seat,
        action: Action,
        card: Card,
        after: int,
        care: list[float],
        rng: random.Random,
    ) -> float:
        model = self.model
        pos, gain = model.play(_without(pos, me, card), me, action, after)
        if model.draws == "after":
            pos = _draw(pos, me)
        value = care[me] * gain
        for _ in range(self.horizon):
            if pos.ended:
                break
            seat = pos.mover
            if model.draws == "before":
                pos = _draw(pos, seat)
            moves = model.moves(pos, seat)
            if not moves:
                if not pos.stock and not any(pos.hands):
                    break
                pos, gain = model.stuck(pos, seat)
                value += care[seat] * gain
                continue
            if seat != me and rng.random() < self.wild:
                chosen = rng.choice(moves)
            else:
                chosen = _greedy(model, view, pos, seat, moves, rng, keeps=self.own_keeps and seat == me)
            action, card, after = chosen
            pos, gain = model.play(_without(pos, seat, card), seat, action, after)
            if model.draws == "after":
                pos = _draw(pos, seat)
            value += care[seat] * gain
        return value


class ByTableSizePlayer:
    """Strong as two players: one for a table of two, the other for larger tables (where what a
    short search finds of the other seats' plays is least reliable)."""

    name = "strong"

    def __init__(self, two: Player, more: Player) -> None:
        self.two = two
        self.more = more

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        player = self.two if len(view.players) <= 2 else self.more
        return player.choose(view, legal, rng)


def _greedy(
    model: AdderModel,
    view: CountingView,
    pos: Position,
    seat: Seat,
    moves: list[tuple[Action, Card, int]],
    rng: random.Random,
    keeps: bool = False,
) -> tuple[Action, Card, int]:
    """The easy player's play inside a playout: worth most at once, then the rule of thumb, then
    any (or, with ``keeps``, the play :meth:`AdderModel.keep` prefers)."""
    best: tuple[float, float, float] | None = None
    choice = moves[0]
    hand = pos.hands[seat]
    for move in moves:
        action, _, after = move
        gain = model.play(pos, seat, action, after)[1]
        last = model.keep(view, hand, action, after) if keeps else rng.random()
        key = (gain, model.rule_of_thumb(view, hand, action, after), last)
        if best is None or key > best:
            best, choice = key, move
    return choice


def _draw(pos: Position, seat: Seat) -> Position:
    if not pos.stock:
        return pos
    hands = list(pos.hands)
    hands[seat] = (*hands[seat], pos.stock[0])
    return pos._replace(hands=tuple(hands), stock=pos.stock[1:])


def sample_deal(model: AdderModel, view: CountingView, root: Position, rng: random.Random) -> Position:
    """``root`` with the other seats' hands and the stock dealt at random from the unseen cards, each
    hand as large as it is now (the playouts do the drawing)."""
    me = _seat(view)
    pool = unseen_cards(model, view)
    sizes = [0 if s == me or (view.out and view.out[s]) else view.hand_counts[s] for s in range(len(view.players))]
    if sum(sizes) > len(pool):  # the memory disagrees with the counts: deal what there is
        sizes = [min(k, max(0, len(pool) - sum(sizes[:s]))) for s, k in enumerate(sizes)]
    dealt = _deal_hands(model, pool, sizes, pass_floors(model, view), rng)
    hands = [tuple(view.hand) if s == me else tuple(dealt[s]) for s in range(len(view.players))]
    stock = pool[: max(0, model.stock_size(view, len(pool)))]
    return root._replace(hands=tuple(hands), stock=tuple(stock))


def _without(pos: Position, seat: Seat, card: Card) -> Position:
    hand = list(pos.hands[seat])
    hand.remove(card)
    hands = list(pos.hands)
    hands[seat] = tuple(hand)
    return pos._replace(hands=tuple(hands))


def unseen_cards(model: AdderModel, view: CountingView) -> list[Card]:
    """The pack less this seat's hand and the cards it knows are gone. (Plays older than the view's
    recent list are not known, so the unseen cards may include some of them: a fair price.)"""
    left = Counter(model.pack(view))
    left.subtract(view.hand)
    left.subtract(model.gone(view))
    return [c for c, k in left.items() for _ in range(max(k, 0))]


def sample_position(model: AdderModel, view: CountingView, root: Position, rng: random.Random) -> Position:
    """``root`` with the other seats' hands dealt at random from the unseen cards, and every seat
    topped up by the cards it will draw before its next turn."""
    me = _seat(view)
    pool = unseen_cards(model, view)
    n = len(view.players)
    out = [bool(view.out and view.out[s]) for s in range(n)]
    sizes = [0 if s == me or out[s] else view.hand_counts[s] + model.extra_cards(view, s) for s in range(n)]
    if sum(sizes) > len(pool):  # the memory disagrees with the counts: deal what there is
        sizes = [min(k, max(0, len(pool) - sum(sizes[:s]))) for s, k in enumerate(sizes)]
    dealt = _deal_hands(model, pool, sizes, pass_floors(model, view), rng)
    mine = list(view.hand) + pool[: max(0, model.extra_cards(view, me))]
    hands = [() if out[s] else tuple(mine) if s == me else tuple(dealt[s]) for s in range(n)]
    return root._replace(hands=tuple(hands))


class _Search:
    """Depth-limited search in which each seat maximises its own points as it values them."""

    def __init__(self, model: AdderModel, care: list[list[float]], depth: int) -> None:
        self.model = model
        self.care = care
        self.n = len(care)

    def after_move(self, pos: Position, seat: Seat, action: Action, card: Card, after: int, depth: int) -> list[float]:
        model = self.model
        nxt, gain = model.play(_without(pos, seat, card), seat, action, after)
        gains = [0.0] * self.n
        gains[seat] = gain
        if nxt.ended or depth <= 0:
            return gains
        rest = self.turn(nxt, depth)
        return [a + b for a, b in zip(gains, rest, strict=True)]

    def turn(self, pos: Position, depth: int) -> list[float]:
        model = self.model
        seat = pos.mover
        moves = model.moves(pos, seat)
        if not moves:
            nxt, gain = model.stuck(pos, seat)
            gains = [0.0] * self.n
            gains[seat] = gain
            if nxt.ended or depth <= 1 or not any(pos.hands):
                return gains
            rest = self.turn(nxt, depth - 1)
            return [a + b for a, b in zip(gains, rest, strict=True)]
        if depth <= 1:  # the horizon: only the points of this play count, so skip the bookkeeping
            gains = [0.0] * self.n
            gains[seat] = max(model.play(pos, seat, action, after)[1] for action, _, after in moves)
            return gains
        best: list[float] | None = None
        best_value = 0.0
        care = self.care[seat]
        for action, card, after in moves:
            gains = self.after_move(pos, seat, action, card, after, depth - 1)
            value = sum(c * g for c, g in zip(care, gains, strict=True))
            if best is None or value > best_value:
                best, best_value = gains, value
        assert best is not None
        return best
