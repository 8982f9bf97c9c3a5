"""A plain determinized Monte Carlo player for any game whose state can be rebuilt from a seat's
view: a bench and test opponent, not a level (issue 29: is each game's strong player at least
level with it?). The three-hand trick games have their own in ``trick_mc.py``; this one covers
Caterpillar, the adders (Twenty-Nine's side keeps the piles taken and the pile in play), Costly
Colours and Spec.

What is generic (this module's first half): for each decision, ``samples`` full hidden states
consistent with what the seat saw, every legal action tried in each (on a clone) and the deal
played out at random by everyone to its end with the games' own rules code (the same random
seed for every action in one sample, so luck cancels out); the action with the best mean deal
result (its own points less the others' mean, on the game's scale, sign turned where fewer
points win) is taken. Jubilee, Hundred and Obstacle Race play their playouts on copies of the
hands and the stock (:func:`quick_playout`): the plays the table lists, in its order, and the
points the games' own functions give, so the same choices at a fifth of the CPU or less
(``test_game_mc`` checks the two playouts agree).

What is per game (a :class:`Side`, a few dozen lines each): a state with everything the view
shows (scores, dealer, the total or the count, the cards played) and the hidden cards dealt at
random among the places the seat cannot see, in the numbers the view shows. Nothing is read from
the shipped players: the sampler knows only the view, what the seat remembers of earlier views
and the table's options, which every player at the table knows.
"""

from __future__ import annotations

import random
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol, cast

from games.adders import hundred, jubilee, obstacle_race
from games.adders.twenty_nine import card_value as card_value29
from games.adders.twenty_nine import tens_to_remove
from games.cards import Card, Rank, full_pack, parse_card, sort_hand
from games.costly_colours import AcceptMog, GiveCard, NoMog, ProposeMog, RefuseMog
from games.counting import RECENT_LIMIT, CountingRound, PlayAs, play_as, play_card
from games.engine import Action, GameState, PlayCard, View
from games.registry import get_game
from games.spec import CELL_INDEX, PHASE_TEXT, Call, CallRecord, Phase, SpecDeal
from games.spec_scoring import (
    SCORECARD_STACK,
    SHOWCARDS,
    RepeatJokerCall,
    allowed_calls,
    call_fault,
    scorecard_value,
)

Sample = Callable[[random.Random], "GameState[Any] | None"]
"""One hidden state consistent with the view (``None`` if the draw did not fit)."""


class Side(Protocol):
    """A game's part: the states a view allows."""

    higher_is_better: bool

    def sampler(self, view: Any) -> Sample:
        """Take in the view (the seat's memory) and return a way to draw states consistent with it."""


def playout(
    state: GameState[Any], me: int, base: Sequence[int], sign: int, rng: random.Random, deal: int | None = None
) -> float:
    """Play deal number ``deal`` (the one in play by default) out at random from ``state``; ``me``'s
    points from ``base`` less the others' mean. A deal already over is not played on: the play
    that ended it is judged by that deal alone, not by a random deal after it."""
    deal = state.deal_no if deal is None else deal
    while not state.is_over and state.deal_no == deal:
        awaited = state.awaiting()
        seat = next(iter(awaited)) if len(awaited) == 1 else rng.choice(sorted(awaited))
        legal = state.legal_actions(seat)
        state.apply_checked(seat, legal[rng.randrange(len(legal))])
    gain = [s - b for s, b in zip(state.scores, base, strict=True)]
    others = [g for s, g in enumerate(gain) if s != me]
    return sign * (gain[me] - sum(others) / len(others))


QuickPlayout = Callable[[Any, int, Action, int, random.Random], float]
"""A game's :func:`playout` of ``state`` after ``me``'s ``action`` (the same plays from the same
random numbers, the same result), without the events, records and copies the table keeps."""


@dataclass
class QuickDeal:
    """A deal in play as a quick playout keeps it: the scores, the round's total and whether it
    is open (a scratch :class:`CountingRound`, which the rules' ``quick_plays`` read), and a
    game's own fields (Hundred's points still to make)."""

    scores: list[int]
    deal: CountingRound
    options: Any
    points_left: list[int] = field(default_factory=list)


class QuickGame(Protocol):
    """What a quick playout asks of a game: the plays a hand has (as the table lists them, in its
    order) and what a play does."""

    def legal(self, rules: Any, q: QuickDeal, hand: list[Card]) -> list[Action]: ...

    def play(self, q: QuickDeal, seat: int, action: Action) -> bool:
        """Play ``action`` (its card already out of the hand): the total and the points; whether
        the deal ends."""
        ...


class QuickJubilee:
    """Jubilee: the rules' own listing (:meth:`JubileeRules.quick_plays`) and
    :func:`jubilee.play_points`."""

    def legal(self, rules: Any, q: QuickDeal, hand: list[Card]) -> list[Action]:
        return rules.quick_plays(q.deal, hand)  # type: ignore[no-any-return]

    def play(self, q: QuickDeal, seat: int, action: Action) -> bool:
        card, deal, options = action.card, q.deal, q.options
        assert card is not None
        before, after = deal.total, deal.total + jubilee.card_value(card, options.club_ace_value)
        standing = options.joker_on_jubilee == "score" and card.is_joker
        q.scores[seat] += jubilee.play_points(before, after, zero_is_jubilee=options.zero_is_jubilee, standing_scores=standing)
        deal.total, deal.opened = after, True
        return False


class QuickHundred:
    """Hundred: every card may be played (each card once, as the table lists them);
    :func:`hundred.point_result` for the point in play, the deal over after its last point."""

    def legal(self, rules: Any, q: QuickDeal, hand: list[Card]) -> list[Action]:
        return [play_card(c) for c in dict.fromkeys(hand)]

    def play(self, q: QuickDeal, seat: int, action: Action) -> bool:
        card = action.card
        assert card is not None
        before = q.deal.total
        q.deal.total = after = before + hundred.VALUES[card.rank]  # type: ignore[index]
        result = hundred.point_result(before, after, q.points_left[0])
        if result:
            q.points_left.pop(0)
            q.scores[seat] += result
        return not q.points_left


class QuickObstacleRace:
    """Obstacle Race: a Queen as +3 or -3 (not below 0 unless the options allow it), the other
    cards at their values; :func:`obstacle_race.obstacle_points`, the score floor, and 120 reset
    to 0 or ending the deal as the options say."""

    def legal(self, rules: Any, q: QuickDeal, hand: list[Card]) -> list[Action]:
        total, negative = q.deal.total, q.options.allow_negative
        out: list[Action] = []
        for c in dict.fromkeys(hand):
            if c.rank is Rank.QUEEN:
                out += [play_as(c, v) for v in obstacle_race.QUEEN_CHOICES if negative or total + v >= 0]
            else:
                out.append(play_card(c))
        return out

    def play(self, q: QuickDeal, seat: int, action: Action) -> bool:
        card, options = action.card, q.options
        assert card is not None and card.rank is not None
        before = q.deal.total
        value = action.value if isinstance(action, PlayAs) else obstacle_race.card_values(options.ace_value)[card.rank]
        after = before + value
        change = obstacle_race.obstacle_points(before, after)
        if change:
            q.scores[seat] += obstacle_race.apply_floor(q.scores[seat], change, options.score_floor)
        q.deal.total = after
        if obstacle_race.reaches_line(after):
            if options.finish_bonus:
                q.scores[seat] += obstacle_race.FINISH_BONUS
                return True
            q.deal.total = 0
        return False


QUICK_GAMES: dict[str, QuickGame] = {
    "jubilee": QuickJubilee(),
    "hundred": QuickHundred(),
    "obstacle_race": QuickObstacleRace(),
}
"""The adders whose playouts the Monte Carlo player runs on copies (:func:`quick_playout`)."""


def quick_playout(game: QuickGame, state: Any, me: int, action: Action, sign: int, rng: random.Random) -> float:
    """:func:`playout` after ``me`` plays ``action``, on copies of the hands and the stock: the
    plays the game lists (one random number each), what each does, a draw after each play where
    the game draws then, a seat with no play passing, the deal over when the game says so, when
    nobody holds a card or when every seat passed in a row. ``test_game_mc`` checks it against
    the table's own machinery."""
    rules, n, direction = state.rules, state.n, state.round.direction
    hands = [list(h) for h in state.hands]
    stock = list(state.stock)
    out = list(state.out)
    base = list(state.scores)
    deal = CountingRound.new(n)
    deal.total, deal.opened = state.total, state.round.opened
    q = QuickDeal(list(base), deal, state.options, list(getattr(state.deal, "points_left", [])))
    draws = state.draw_timing == "after"
    passes = state.round.passes_in_row
    seat: int | None = me
    while seat is not None:
        hands[seat].remove(action.card)
        if game.play(q, seat, action):
            break
        passes = 0
        if draws and stock:
            hands[seat] = sort_hand([*hands[seat], stock.pop(0)])
        while True:  # the next seat that holds a card; one with no play passes
            seat = next((s for k in range(1, n + 1) if not out[s := (seat + direction * k) % n] and hands[s]), None)
            if seat is None:
                break
            legal = game.legal(rules, q, hands[seat])
            if legal:
                action = legal[rng.randrange(len(legal))]
                break
            passes += 1
            if passes >= sum(1 for s in range(n) if not out[s] and hands[s]):
                seat = None  # blocked: the deal ends
                break
    gain = [s - b for s, b in zip(q.scores, base, strict=True)]
    others = [g for s, g in enumerate(gain) if s != me]
    return sign * (gain[me] - sum(others) / len(others))


class MonteCarloPlayer:
    """Determinized Monte Carlo with random playouts (see the module's notes)."""

    name = "mc"

    def __init__(self, side: Side, samples: int = 60) -> None:
        self.side, self.samples = side, samples

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        sample = self.side.sampler(view)  # taken in at every turn, so no play goes unseen
        distinct = getattr(self.side, "distinct", None)
        if distinct is not None:  # actions alike from the seat's view: one of them is tried
            legal = distinct(view, legal)
        if len(legal) == 1:
            return legal[0]
        me = view.seat
        assert me is not None
        sign = 1 if self.side.higher_is_better else -1
        quick: QuickPlayout | None = getattr(self.side, "quick_playout", None)
        totals = [0.0] * len(legal)
        for _ in range(self.samples):
            state = sample(rng)
            if state is None:
                continue
            seed = rng.randrange(1 << 30)
            base = list(state.scores)
            for k, action in enumerate(legal):
                if quick is not None:  # the same playout, without the table's bookkeeping
                    totals[k] += quick(state, me, action, sign, random.Random(seed))
                    continue
                trial = state.clone()
                trial.apply(me, action)  # checked: a sampled state that refused a legal move would be a sampler bug
                totals[k] += playout(trial, me, base, sign, random.Random(seed), state.deal_no)
        choice = legal[max(range(len(legal)), key=lambda k: totals[k])]
        chose = getattr(self.side, "chose", None)
        if chose is not None:  # a seat remembers its own hidden choices (the card it passed)
            chose(view, choice)
        return choice


def fresh_state(game_id: str, view: View, options: Mapping[str, Any] | None, rng: random.Random) -> GameState[Any]:
    """A new match of the game with the view's players and the table's options, its own shuffle:
    the frame a sampler fills in from the view."""
    return get_game(game_id).start(view.players, options, seed=rng.randrange(1 << 62))


class Memory:
    """What each seat remembers, one record per deal, keyed by the table as its view shows it;
    the oldest records are dropped."""

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make
        self._records: OrderedDict[tuple[object, ...], Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[object, ...], stale: Callable[[Any], bool] = lambda record: False) -> Any:
        """The record for ``key``; a new one if there is none or ``stale`` says it belongs to
        another match (the tables' keys may repeat from match to match)."""
        with self._lock:
            record = self._records.get(key)
            if record is None or stale(record):
                record = self._records[key] = self.make()
            self._records.move_to_end(key)
            while len(self._records) > 256:
                self._records.popitem(last=False)
            return record


# --- the adding-up games (Caterpillar and the adders) -------------------------------------------


@dataclass
class CountingSeen:
    """One seat's memory of one deal of an adding-up game: the plays and passes in order (since
    the played cards last went back into the stock) and the plays counted over the whole deal."""

    records: list[Any] = field(default_factory=list)
    plays: int = 0
    stock: int = -1
    restocked: bool = False


def merge_recent(seen: CountingSeen, recent: Sequence[Any], stock: int) -> None:
    """Add the records of ``recent`` (the view's last few plays) that ``seen`` does not hold yet:
    the longest end of ``seen`` that ``recent`` starts with is the overlap."""
    old = seen.records
    overlap = 0
    for k in range(min(len(old), len(recent)), 0, -1):
        if old[len(old) - k :] == list(recent[:k]):
            overlap = k
            break
    new = list(recent[overlap:])
    seen.plays += sum(1 for r in new if r.card is not None)
    old.extend(new)
    if 0 <= seen.stock < stock:  # the played cards became the stock: only the top card stays out
        top = next((r for r in reversed(old) if r.card is not None), None)
        seen.records = [] if top is None else [top]
        seen.restocked = True
    seen.stock = stock


def unseen(pack: Sequence[Card], known: Sequence[Card]) -> list[Card]:
    """The cards of ``pack`` less ``known``, copy by copy (Jubilee's pack holds each card twice)."""
    left = Counter(known)
    out: list[Card] = []
    for c in pack:
        if left[c] > 0:
            left[c] -= 1
        else:
            out.append(c)
    return out


def counting_stale(seen: CountingSeen, view: Any) -> bool:
    """Whether ``seen`` is another deal's memory (the tables' keys repeat from match to match):
    while a view shows every play of the deal, what was remembered must be where it begins."""
    recent = list(view.recent)
    if len(recent) >= RECENT_LIMIT or seen.restocked:
        return False
    return seen.records != recent[: len(seen.records)]


class CountingSide:
    """Caterpillar and the adders (``games.counting``): the seat's hand, the total, whose turn,
    the way play goes, the points and lives and the cards turned up to start the pile are as the
    view shows; the other hands (their sizes shown, a hand shown on passing kept with its holder),
    the stock (its size shown) and any played card the seat has not seen are dealt at random from
    the cards it has not seen."""

    def __init__(self, game_id: str, options: Mapping[str, Any] | None = None) -> None:
        self.game_id, self.options = game_id, options
        self.memory = Memory(CountingSeen)
        frame = get_game(game_id).start(["A", "B"] if game_id == "caterpillar" else ["A", "B", "C"], options, seed=0)
        self.higher_is_better = bool(frame.match.higher_is_better)  # type: ignore[attr-defined]
        game = QUICK_GAMES.get(game_id)
        self.quick_playout: QuickPlayout | None = None if game is None else partial(quick_playout, game)

    def sampler(self, view: Any) -> Sample:
        me = view.seat
        key = (view.game, tuple(view.players), me, view.deal, view.dealer)
        seen: CountingSeen = self.memory.get(key, lambda old: counting_stale(old, view))
        merge_recent(seen, view.recent, view.stock)
        played = [r.card for r in seen.records if r.card is not None]
        if getattr(view, "caterpillar", None) is not None:
            played = list(view.caterpillar)  # Caterpillar shows its whole row
        shown: list[list[Card]] = [[] for _ in view.players]
        for r in seen.records:
            if r.card is not None and r.card in shown[r.seat]:
                shown[r.seat].remove(r.card)
            if r.card is None and r.shown:
                shown[r.seat] = list(r.shown)
        passes = 0
        for r in reversed(view.recent):
            if r.card is not None:
                break
            passes += 1

        def sample(rng: random.Random) -> GameState[Any] | None:
            state: Any = fresh_state(self.game_id, view, self.options, rng)
            opening = [] if seen.restocked else list(view.opening)  # turned up to start the pile
            pool = unseen(state.pack(), [*view.hand, *opening, *played, *(c for cards in shown for c in cards)])
            rng.shuffle(pool)
            hands: list[list[Card]] = []
            for s, count in enumerate(view.hand_counts):
                if s == me:
                    hands.append(list(view.hand))
                    continue
                need = count - len(shown[s])
                if need < 0:
                    return None
                hands.append([*shown[s], *pool[:need]])
                del pool[:need]
            if len(pool) < view.stock:
                return None
            stock, rest = pool[: view.stock], pool[view.stock :]
            state.deal_no, state.dealer, state.scores = view.deal, view.dealer, list(view.scores)
            state.out = list(view.out) or [False] * len(view.players)
            state.lives = list(view.lives) if view.lives is not None else None
            state.shown = [list(cards) for cards in shown]
            state.hands = hands
            state.stock = stock
            rnd = state.round
            rnd.total, rnd.to_play, rnd.direction = view.total, me, view.direction
            rnd.opening = opening
            rnd.pile = [*opening, *rest, *played]  # cards unseen and not held lie under the plays seen
            rnd.recent = list(view.recent)
            rnd.deal_points = list(view.deal_points)
            rnd.passes_in_row, rnd.closed, rnd.next = passes, False, None
            self.per_deal(state, seen)
            return state  # type: ignore[no-any-return]

        return sample

    def per_deal(self, state: Any, seen: CountingSeen) -> None:
        """A game's own fields of the deal in play, from what the seat saw."""
        if self.game_id == "jubilee":
            state.opened = seen.plays > 0
        elif self.game_id == "ninety_nine":
            state.deal.plays_this_deal = seen.plays
        elif self.game_id == "hundred":  # the points still to make are those above the total
            state.deal.points_left = [p for p in state.deal.points_left if p > state.total]


class TwentyNineSide(CountingSide):
    """Twenty-Nine (``games.adders.twenty_nine``): as :class:`CountingSide`, and the deal's own
    fields from what the seat saw: the pile in play (the cards played since the last take, which
    must add up to the view's total), the piles each side has taken (the cards the seat saw each
    take; any it missed, to make the counts the view's notes give, dealt from the unseen cards),
    who played last, and the Tens left out (unseen: dealt from the unseen Tens)."""

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__("twenty_nine", options)

    def sampler(self, view: Any) -> Sample:
        base = super().sampler(view)
        me = view.seat
        seen: CountingSeen = self.memory.get((view.game, tuple(view.players), me, view.deal, view.dealer))
        pile: list[Card] = []
        won: list[list[Card]] = [[] for _ in set(view.side_of)]
        last: int | None = None
        for r in seen.records:
            if r.card is None:
                continue
            last = r.seat
            pile.append(r.card)
            if "takes" in r.note:  # the pile (this card with it) went to the player's side
                won[view.side_of[r.seat]].extend(pile)
                pile = []
        counts = won_counts(view.notes, len(won))

        def sample(rng: random.Random) -> GameState[Any] | None:
            state: Any = base(rng)
            if state is None or counts is None or sum(map(card_value29, pile)) != view.total:
                return None
            rest = unseen(state.round.pile, [*pile, *(c for cards in won for c in cards)])
            rng.shuffle(rest)
            aside: list[Card] = []
            for _ in range(tens_to_remove(len(view.players))):  # each a Ten the seat has not seen, at random
                tens = [(s, c) for s, hand in enumerate(state.hands) if s != me for c in hand if c.rank is Rank.TEN]
                tens += [(-1, c) for c in rest if c.rank is Rank.TEN]
                if not tens:
                    return None
                holder, ten = rng.choice(tens)
                if holder >= 0:  # a hand's Ten: a card from the rest takes its place in the hand
                    if not rest:
                        return None
                    hands = [list(h) for h in state.hands]
                    hands[holder][hands[holder].index(ten)] = rest.pop()
                    state.hands = hands
                else:
                    rest.remove(ten)
                aside.append(ten)
            piles = []
            for side, cards in enumerate(won):
                need = counts[side] - len(cards)
                if need < 0 or need > len(rest):
                    return None
                piles.append([*cards, *rest[:need]])
                del rest[:need]
            if rest:
                return None
            state.round.pile = list(pile)
            state.set_aside = aside
            state.deal.won = piles
            state.deal.last_player = last
            return state  # type: ignore[no-any-return]

        return sample


def won_counts(notes: Sequence[str], sides: int) -> list[int] | None:
    """The cards each side has won this deal, from the view's note ``Cards won this deal...: A 3; B 5``."""
    for line in notes:
        if line.startswith("Cards won this deal"):
            counts = [int(part.rsplit(" ", 1)[1]) for part in line.split(": ", 1)[1].split("; ")]
            return counts if len(counts) == sides else None
    return None


# --- Costly Colours (two players) ---------------------------------------------------------------


@dataclass
class ColoursSeen:
    """One seat's memory of one deal of Costly Colours: its first hand, its mog choices, and for
    each of its plays how many cards the other had played before it."""

    first: list[Card] | None = None
    proposed: bool | None = None
    """Whether the proposer proposed (``None``: not known yet)."""
    accepted: bool | None = None
    gift: Action | None = None
    plays: list[tuple[int, Card]] = field(default_factory=list)


class CostlyColoursSide:
    """Costly Colours at two (``shared/rules/costly_colours.md``): the deal is replayed with the
    rules code from a sampled deck: the seat's first hand, the deck card, the other's cards (those
    it played, the card the seat passed it, any others unseen) and the stock; then the mog as the
    seat saw it and every play in the order seen. A sample in which the replay goes otherwise (the
    other could have played where it said Go) is refused, so the samples agree with every Go."""

    higher_is_better = True

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self.options = options
        self.memory = Memory(ColoursSeen)

    def _seen(self, view: Any) -> ColoursSeen:
        def stale(old: ColoursSeen) -> bool:  # another match's deal under the same key
            now = {*view.hand, *view.played[view.seat]}
            mine = [c for _, c in old.plays]
            return mine != view.played[view.seat] or (old.first is not None and len(now - set(old.first)) > 1)

        seen: ColoursSeen = self.memory.get((view.game, tuple(view.players), view.seat, view.deal, view.dealer), stale)
        return seen

    def chose(self, view: Any, action: Action) -> None:
        seen, me = self._seen(view), view.seat
        if isinstance(action, (ProposeMog, NoMog)):
            seen.proposed = isinstance(action, ProposeMog)
        elif isinstance(action, (AcceptMog, RefuseMog)):
            seen.accepted = isinstance(action, AcceptMog)
        elif isinstance(action, GiveCard):
            seen.gift = action
        elif isinstance(action, PlayCard):
            seen.plays.append((len(view.played[1 - me]), action.play))

    def sampler(self, view: Any) -> Sample:
        if len(view.players) != 2:
            raise NotImplementedError("the Monte Carlo player plays Costly Colours at two only")
        me, other, dealer = view.seat, 1 - view.seat, view.dealer
        seen = self._seen(view)
        if seen.first is None:
            seen.first = [*view.hand, *view.played[me]]  # before any mog (only the other's Go can precede this)
            if me == dealer:
                seen.proposed = view.phase != "the play"  # the dealer is asked to answer a proposal
        if me != dealer and seen.proposed and seen.accepted is None:
            seen.accepted = view.phase != "the play"  # asked again in the mog: to pass a card
        now = [*view.hand, *view.played[me]]
        received = next((c for c in now if c not in seen.first), None)
        exchanged = received is not None
        given = seen.gift.card if seen.gift is not None else next((c for c in seen.first if c not in now), None)
        fixed = [given] if exchanged and given is not None and given not in view.played[other] else []
        first_hand = list(seen.first)
        plays = list(seen.plays)
        proposed, accepted, gift = seen.proposed, seen.accepted, seen.gift

        def sample(rng: random.Random) -> GameState[Any] | None:
            state: Any = fresh_state("costly_colours", view, self.options, rng)
            known = {*now, *first_hand, *view.played[other], view.deck_card, *fixed}
            pool = [c for c in full_pack() if c not in known]
            rng.shuffle(pool)
            need = view.cards_left[other] - len(fixed)
            if need < 0:
                return None
            held = [*fixed, *pool[:need]]
            stock = pool[need:]
            theirs = [*held, *view.played[other]]
            if exchanged:
                assert given is not None and received is not None
                theirs = [c for c in theirs if c != given] + [received]
            hands = {me: first_hand, other: theirs}
            order = [hands[(dealer + 1 + i) % 2][i // 2] for i in range(6)] + [view.deck_card, *stock]
            state.deal_no, state.dealer = view.deal - 1, dealer
            state.fixed_decks = [order] * view.deal
            state.scores = list(view.scores)
            state._start_deal()
            proposer = (dealer + 1) % 2
            try:
                if proposed is not None:
                    state.apply(proposer, ProposeMog() if proposed else NoMog())
                if proposed and accepted is not None:
                    state.apply(dealer, AcceptMog() if accepted else RefuseMog())
                if exchanged:
                    assert received is not None and given is not None
                    mine = gift.card if gift is not None else given
                    state.apply(me, next(a for a in state.legal_actions(me) if a.card == mine))
                    state.apply(other, next(a for a in state.legal_actions(other) if a.card == received))
                done = 0
                theirs_played = view.played[other]
                for before, card in plays:
                    for c in theirs_played[done:before]:
                        state.apply(other, PlayCard(play=c))
                    done = max(done, before)
                    state.apply(me, PlayCard(play=card))
                for c in theirs_played[done:]:
                    state.apply(other, PlayCard(play=c))
            except Exception:  # the replay went otherwise: this deal does not fit what was seen
                return None
            if state.deal_no != view.deal or me not in state.awaiting():
                return None
            state.scores = list(view.scores)
            return state  # type: ignore[no-any-return]

        return sample


# --- Spec ------------------------------------------------------------------------------------------


class SpecSide:
    """Spec (``shared/rules/spec.md``): everything but the face-down cells is public, so a sample
    is the view's deal (face-up cards, stack, scorecards by value, predictions, the last calls)
    with the unseen showcards shuffled into the face-down cells. Face-down cells are alike to the
    seat, so of the calls of one card only one cell is tried."""

    higher_is_better = True

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self.options = options

    def distinct(self, view: Any, legal: Sequence[Action]) -> list[Action]:
        """One call of each card, and none the rules forbid: with challenges on, a forbidden call
        is on the menu, but random playouts never challenge it, so they would not see its cost."""
        previous = parse_card(view.previous_call) if view.previous_call is not None else None
        repeat: RepeatJokerCall = "allow" if view.joker_may_repeat else "forbid"
        allowed = set(allowed_calls(previous, [c for c in view.grid if c is not None], repeat))
        out: list[Action] = []
        named: set[Card] = set()
        for a in legal:
            if isinstance(a, Call):
                if a.call in named or a.call not in allowed:
                    continue
                named.add(a.call)
            out.append(a)
        return out or list(legal)

    def sampler(self, view: Any) -> Sample:
        phase = cast(Phase, next(k for k, text in PHASE_TEXT.items() if text == view.phase))
        up = [c for c in view.grid if c is not None]
        hidden = unseen(SHOWCARDS, up)
        taken = list(SCORECARD_STACK[: len(SCORECARD_STACK) - view.stack_count])
        won: list[list[Card]] = []
        spare = list(SCORECARD_STACK)
        for values in view.scorecards:  # any scorecards of those values (only values count)
            held = []
            for v in values:
                pick = next((c for c in taken if scorecard_value(c) == v), None) or next(
                    c for c in spare if scorecard_value(c) == v
                )
                (taken if pick in taken else spare).remove(pick)
                held.append(pick)
            won.append(held)
        bonus = [p - sum(values) for p, values in zip(view.deal_points, view.scorecards, strict=True)]
        predictions = [parse_card(p) if p is not None else None for p in view.predictions]
        repeat: RepeatJokerCall = "allow" if view.joker_may_repeat else "forbid"

        def sample(rng: random.Random) -> GameState[Any] | None:
            state: Any = fresh_state("spec", view, self.options, rng)
            rng.shuffle(hidden)
            down = iter(hidden)
            grid = [c if c is not None else next(down) for c in view.grid]
            deal = SpecDeal.new(view.players, state.options, view.dealer, grid)
            deal.face_up = [c is not None for c in view.grid]
            deal.stack = list(SCORECARD_STACK[len(SCORECARD_STACK) - view.stack_count :])
            deal.won = [list(h) for h in won]
            deal.bonus = list(bonus)
            deal.predictions = list(predictions)
            calls: list[CallRecord] = []
            face_up = [c for c in view.grid if c is not None]
            shown = {info.number: info for info in view.recent_calls}
            for number in range(1, view.calls_made + 1):
                info = shown.get(number)
                if info is None:  # an older call: only the last two matter to what comes
                    calls.append(CallRecord(0, 0, SHOWCARDS[-1], SHOWCARDS[-1], (), None))
                    continue
                call = parse_card(info.call)
                before = [c for c in face_up if c != info.turned] if number == view.calls_made else face_up
                previous = calls[-1].call if calls and (number - 1) in shown else None
                fault = call_fault(call, previous, before, repeat)
                calls.append(CallRecord(info.seat, CELL_INDEX[info.cell], call, info.turned, (), fault))
            deal.calls = calls
            deal.to_move = view.to_move if view.to_move is not None else view.seat
            deal.open_call = view.open_challenge
            deal.last_winner = view.last_winner
            deal.phase = phase
            state.deal, state.deal_no, state.dealer = deal, view.deal, view.dealer
            state.scores = list(view.scores)
            state.deal_results = [list(r) for r in view.deal_results]
            return state  # type: ignore[no-any-return]

        return sample


SIDES: dict[str, Callable[[Mapping[str, Any] | None], Side]] = {
    game: (lambda options, game=game: CountingSide(game, options))  # type: ignore[misc]
    for game in ("caterpillar", "fifty_one", "ninety_nine", "jubilee", "hundred", "obstacle_race")
}
SIDES["costly_colours"] = CostlyColoursSide
SIDES["spec"] = SpecSide
SIDES["twenty_nine"] = TwentyNineSide
"""The games this player knows, by id."""


def monte_carlo_player(game_id: str, samples: int = 60, options: Mapping[str, Any] | None = None) -> MonteCarloPlayer:
    return MonteCarloPlayer(SIDES[game_id](options), samples)
