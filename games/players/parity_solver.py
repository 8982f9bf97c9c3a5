# Over 400 lines: the exact solver of Parity's card play; its search, tables and move ordering are tuned together.
"""Perfect play for Parity for two: the exact value of a position of the card play, and its best moves.

The payoff is the deal's score, not the trick count: only the player whose trick count has the
target parity scores, so a player sometimes wants to lose a trick. Values are *score differences*
(the mover's deal score minus the opponent's), taken from :func:`games.parity.deal_scores`.

How the search stays small (pure Python, one core):

* **Relative position.** Each suit is reduced to the holders of its remaining cards in rank order,
  as bits (1 = the player who is not on lead), behind a leading 1 that gives the length. Cards
  held by the same player with no remaining card between them are then the same move. The three
  plain suits (four at no-trump) are interchangeable, so they are kept sorted.
* **Parity plus an offset.** A player's final score difference is the tricks they have won so far
  plus a term that depends only on the tricks still to come and on whether they need an odd or an
  even number more. The transposition table stores that term, keyed by the relative suits and
  that single bit, so positions reached with different trick counts share one entry.
* **Alpha-beta with bounds** (lower, upper) in the table at the start of each trick, the best lead
  remembered, the longest plain suits led first, the cheapest winner and the cheapest loser
  answered first, a refutation already in the table used before any search (enhanced
  transposition cutoffs), and MTD(f): null-window probes on the few values a position can take,
  the first asking only whether the leader scores at all.

With undifferentiated Jokers in a trump game, the two equal Jokers beat each other by order of
play: while both are out in different hands, the leader's Joker is ranked above the follower's
for the trick, and neither Joker is merged with the Ace below it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache

from games.cards import JOKER, SUITS, Card, Rank, Suit
from games.parity import (
    SEVEN_BLACK,
    SEVEN_RED,
    TRICKS_PER_DEAL,
    Parity,
    ParityState,
    ParityView,
    deal_scores,
    trick_rules,
)
from games.tricks import TrickRules

Seat = int
Move = tuple[int, int]
"""A card in relative terms: (group, index from the lowest card of the group)."""
Reply = tuple[int, int, bool]
"""A follower's card: (group, index, whether it wins the trick)."""

MAX_GROUP = 9
"""The most cards a group holds: seven trumps and two Jokers."""
TABLE_LIMIT = 200_000
"""Entries a transposition table may hold before it is cleared (about 20 MB at the limit; a whole
deal from the opening lead typically needs 10,000 to 50,000)."""
_BIG = 1_000
_OFFSET = 64
"""Added to a bound before it is packed into 7 bits of a table entry (values lie within -45..45)."""
_MOVES: list[tuple[int, int]] = [(g, i) for g in range(5) for i in range(16)]
_MOVE_CODE = {m: k for k, m in enumerate(_MOVES)}


# --- tables over suit codes ------------------------------------------------------------------------


def _runs(code: int, bit: int, tied: bool) -> tuple[int, ...]:
    """The runs of ``bit`` (0: the leader's cards, 1: the follower's) in a suit code, highest first,
    each given by its lowest index. With ``tied`` the top two cards (equal Jokers) stand alone."""
    n = code.bit_length() - 1
    reps: list[int] = []
    i = n - 1
    while i >= 0:
        if (code >> i) & 1 == bit:
            j = i
            while j > 0 and (code >> (j - 1)) & 1 == bit and not (tied and j >= n - 2):
                j -= 1
            reps.append(j)
            i = j - 1
        else:
            i -= 1
    return tuple(reps)


def _delete(code: int, i: int) -> int:
    """The code without the card at index ``i``."""
    return ((code >> (i + 1)) << i) | (code & ((1 << i) - 1))


def _joker_code(zeros: int, ones: int) -> int:
    """A no-trump Joker group: the Jokers are interchangeable, so the code keeps the leader's first."""
    return (1 << (zeros + ones)) | (((1 << ones) - 1) << zeros)


_CODES = range(1 << (MAX_GROUP + 1))
_SIZE = [max(c.bit_length() - 1, 0) for c in _CODES]
_RUNS = [[_runs(c, b, False) if c else () for c in _CODES] for b in (0, 1)]
_RUNS_TIED = [[_runs(c, b, True) if c else () for c in _CODES] for b in (0, 1)]
_DEL = [tuple(_delete(c, i) for i in range(_SIZE[c])) for c in _CODES]
_FLIP = [c ^ ((1 << _SIZE[c]) - 1) if c else 0 for c in _CODES]
_FLIP_JOKERS = [0] * 8
for _c in range(1, 8):
    _ones = bin(_c & ((1 << _SIZE[_c]) - 1)).count("1")
    _FLIP_JOKERS[_c] = _joker_code(_ones, _SIZE[_c] - _ones)

def _follows(code: int, i: int, tied: bool) -> tuple[tuple[int, bool], ...]:
    """The follower's answers in the suit led by index ``i``: (index, wins), ordered for the search:
    the cheapest winner, then the cheapest loser, then the rest from the top."""
    runs = _RUNS_TIED[1][code] if tied else _RUNS[1][code]
    answers = [(j, j > i) for j in runs]
    first = []
    winners = [a for a in answers if a[1]]
    losers = [a for a in answers if not a[1]]
    if winners:
        first.append(winners[-1])
    if losers:
        first.append(losers[-1])
    return tuple(first + [a for a in answers if a not in first])


def _follow_table(tied: bool) -> list[tuple[tuple[tuple[int, bool], ...], ...]]:
    return [tuple(_follows(c, i, tied) for i in range(_SIZE[c])) if c else () for c in _CODES]


_FOLLOW = _follow_table(False)
_FOLLOW_TIED = _follow_table(True)


# --- the search ------------------------------------------------------------------------------------


def _payoffs(no_trump: bool) -> tuple[int, int]:
    """(win, lose): a player's final score difference is their tricks plus ``win`` when the count
    has the target parity, else plus ``lose``. Read off the game's own scoring, and checked."""
    win: set[int] = set()
    lose: set[int] = set()
    for target in Parity:
        for tricks in range(TRICKS_PER_DEAL + 1):
            mine, theirs = deal_scores([tricks, TRICKS_PER_DEAL - tricks], target, no_trump)
            (win if target.matches(tricks) else lose).add(mine - theirs - tricks)
    if len(win) != 1 or len(lose) != 1:
        raise ValueError("the solver needs a score of the form tricks + a bonus that depends on parity only")
    return win.pop(), lose.pop()


class SearchCore:
    """The alpha-beta search over relative positions, for trump games or for no-trump.

    A position at the start of a trick is ``(codes, tie, need)``: ``codes[0]`` is the trump suit
    (its Jokers included) or, at no-trump, the Jokers; ``codes[1:]`` the plain suits, sorted;
    bits are relative to the leader; ``tie`` says equal Jokers are both out in different hands;
    ``need`` is the parity of the number of tricks the leader still needs to score. The value
    ``G`` is the leader's final score difference minus the tricks they have won so far.
    """

    def __init__(self, no_trump: bool) -> None:
        self.no_trump = no_trump
        self.win, self.lose = _payoffs(no_trump)
        self.table: dict[int, int] = {}
        """Position key -> packed (lower bound, upper bound, best lead); see :func:`_search_function`."""
        self.counter = [0]
        self.trick = _search_function(self)

    @property
    def nodes(self) -> int:
        """Positions at the start of a trick visited so far (table hits included)."""
        return self.counter[0]

    # -- values -------------------------------------------------------------------------------------

    def terminal(self, need: int) -> int:
        return self.win if need == 0 else self.lose

    def bounds(self, need: int, r: int) -> tuple[int, int]:
        """The lowest and highest ``G`` any play could give with ``r`` tricks to go."""
        if r == 0:
            v = self.terminal(need)
            return v, v
        best = (r if (r - need) % 2 == 0 else r - 1) + self.win
        worst = (0 if need else 1) + self.lose
        return worst, best

    def hint(self, codes: Sequence[int], tie: int, need: int) -> Move | None:
        """The best lead the table remembers for this (canonical) position, if any."""
        entry = self.table.get(self.key(codes, tie, need))
        return _MOVES[(entry >> 14) - 1] if entry is not None and entry >> 14 else None

    def key(self, codes: Sequence[int], tie: int, need: int) -> int:
        k = codes[0]
        for c in codes[1:]:
            k = (k << 8) | c
        return (k << 2) | (tie << 1) | need

    # -- moves --------------------------------------------------------------------------------------

    def leads(self, codes: Sequence[int], tie: int) -> list[Move]:
        """The leader's distinct cards, highest of each group first."""
        out: list[Move] = []
        for g, code in enumerate(codes):
            runs = _RUNS_TIED[0][code] if g == 0 and tie else _RUNS[0][code]
            out.extend((g, i) for i in runs)
        return out

    def replies(self, codes: Sequence[int], tie: int, g: int, i: int) -> list[Reply]:
        """The follower's distinct answers to the card ``(g, i)`` still in ``codes``."""
        code = codes[g]
        joker_led = self.no_trump and g == 0
        if not joker_led:
            same = _RUNS_TIED[1][code] if g == 0 and tie else _RUNS[1][code]
            if same:
                return [(g, j, j > i) for j in same]
        out: list[Reply] = []
        for h, other in enumerate(codes):
            if h == g and not joker_led:
                continue
            runs = _RUNS_TIED[1][other] if h == 0 and tie else _RUNS[1][other]
            wins = h == 0 and not self.no_trump
            out.extend((h, j, wins) for j in runs)
        return out

    def child(
        self, codes: Sequence[int], tie: int, g: int, i: int, h: int, j: int, follower_wins: bool
    ) -> tuple[tuple[int, ...], int]:
        """The next trick's relative codes and tie flag after the leader's ``(g, i)`` and the
        follower's ``(h, j)``, seen from the trick's winner."""
        nxt = list(codes)
        if g == h:
            hi, lo = (j, i) if j > i else (i, j)
            nxt[g] = _DEL[_DEL[nxt[g]][hi]][lo]
        else:
            nxt[g] = _DEL[nxt[g]][i]
            nxt[h] = _DEL[nxt[h]][j]
        if tie:
            top = _SIZE[codes[0]] - 2
            if (g == 0 and i >= top) or (h == 0 and j >= top):
                tie = 0
        if follower_wins:
            flip = _FLIP_JOKERS if self.no_trump else _FLIP
            nxt = [flip[nxt[0]]] + [_FLIP[c] for c in nxt[1:]]
        trump = nxt[0]
        if tie:
            n = _SIZE[trump]
            if (trump >> (n - 1)) & 1:
                trump ^= 3 << (n - 2)
        rest = sorted(nxt[1:])
        return (trump, *rest), tie

    # -- alpha-beta ---------------------------------------------------------------------------------

    def after(
        self,
        codes: Sequence[int],
        tie: int,
        need: int,
        r: int,
        g: int,
        i: int,
        h: int,
        j: int,
        follower_wins: bool,
        alpha: int,
        beta: int,
    ) -> int:
        """``G`` for the leader once the trick ``(g, i)``, ``(h, j)`` is played out."""
        if r == 1:
            if follower_wins:
                return -TRICKS_PER_DEAL - self.terminal((1 + need) & 1)
            return 1 + self.terminal(need ^ 1)
        nxt, tie2 = self.child(codes, tie, g, i, h, j, follower_wins)
        if follower_wins:
            shift = -(TRICKS_PER_DEAL + 1 - r)
            return shift - self.trick(nxt, tie2, (r + need) & 1, r - 1, shift - beta, shift - alpha)
        return 1 + self.trick(nxt, tie2, need ^ 1, r - 1, alpha - 1, beta - 1)

    def reply(self, codes: Sequence[int], tie: int, need: int, r: int, g: int, i: int, alpha: int, beta: int) -> int:
        """``G`` for the leader after leading ``(g, i)``, the follower answering best."""
        best = _BIG
        for h, j, wins in self.replies(codes, tie, g, i):
            v = self.after(codes, tie, need, r, g, i, h, j, wins, alpha, beta)
            if v < best:
                best = v
                if v < beta:
                    beta = v
                    if beta <= alpha:
                        break
        return best


def _search_function(core: SearchCore) -> Callable[[tuple[int, ...], int, int, int, int, int], int]:
    """The search at the start of a trick, ``trick(codes, tie, need, r, alpha, beta) -> G`` (fail-soft
    alpha-beta). One closure with every table bound to a local name: this loop is the solver's time."""
    table = core.table
    get = table.get
    win, lose = core.win, core.lose
    nt = core.no_trump
    flip0 = _FLIP_JOKERS if nt else _FLIP
    flip = _FLIP
    delete = _DEL
    size = _SIZE
    leads_of, leads_tied = _RUNS[0], _RUNS_TIED[0]
    follow, follow_tied = _FOLLOW, _FOLLOW_TIED
    own, own_tied = _RUNS[1], _RUNS_TIED[1]
    counter = core.counter
    moves_of = [_MOVES[16 * g : 16 * g + 16] for g in range(5)]
    groups = range(5 if nt else 4)
    # leads: the plain suits, longest first (their codes are sorted), then trumps; high cards first
    lead_groups = (4, 3, 2, 1, 0) if nt else (3, 2, 1, 0)
    last = TRICKS_PER_DEAL + 1
    # the last trick's value: [need] when the leader wins it, when the follower does
    last_leader = (1 + lose, 1 + win)
    last_follower = (-TRICKS_PER_DEAL - lose, -TRICKS_PER_DEAL - win)

    def answers(codes: tuple[int, ...], tie: int, g: int, i: int) -> list[tuple[int, int, bool]]:
        if not (nt and g == 0):
            same = (follow_tied if tie and g == 0 else follow)[codes[g]][i]
            if same:
                return [(g, j, w) for j, w in same]
        joker_led = nt and g == 0
        ruffs: list[tuple[int, int, bool]] = []
        discards: list[tuple[int, int, bool]] = []
        for h in groups:
            if h == g and not joker_led:
                continue
            runs = own_tied[codes[h]] if tie and h == 0 else own[codes[h]]
            if not runs:
                continue
            if h == 0 and not nt:
                ruffs.extend((0, j, True) for j in reversed(runs))
            else:
                discards.extend((h, j, False) for j in reversed(runs))
        if len(discards) > 1:
            discards.sort(key=_by_index)
        return ruffs[:1] + discards + ruffs[1:]

    def trick(codes: tuple[int, ...], tie: int, need: int, r: int, alpha: int, beta: int) -> int:
        key = codes[0]
        for c in codes[1:]:
            key = (key << 8) | c
        return search(codes, (key << 2) | (tie << 1) | need, tie, need, r, alpha, beta)

    def search(codes: tuple[int, ...], key: int, tie: int, need: int, r: int, alpha: int, beta: int) -> int:
        counter[0] += 1
        entry = get(key)
        hint: Move | None = None
        if entry is None:
            hi = (r if (r - need) % 2 == 0 else r - 1) + win
            lo = (0 if need else 1) + lose
        else:
            lo = (entry & 127) - _OFFSET
            hi = ((entry >> 7) & 127) - _OFFSET
            if lo == hi:
                return lo
            if entry >> 14:
                hint = _MOVES[(entry >> 14) - 1]
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        a = alpha if alpha > lo else lo
        b = beta if beta < hi else hi
        a0, b0 = a, b
        moves = [moves_of[g][i] for g in lead_groups for i in (leads_tied if tie and g == 0 else leads_of)[codes[g]]]
        if hint is not None and hint in moves:
            moves.remove(hint)
            moves.insert(0, hint)
        top = size[codes[0]] - 2
        shift = r - last
        best, best_move = -_BIG, None
        for g, i in moves:
            worst = _BIG
            bb = b
            if r == 1:
                for _h, _j, fw in answers(codes, tie, g, i):
                    v = last_follower[need] if fw else last_leader[need]
                    if v < worst:
                        worst = v
                        if v <= a:
                            break
            else:
                kids: list[tuple[tuple[int, ...], int, int, int, bool]] = []
                refuted = False
                for h, j, fw in answers(codes, tie, g, i):
                    nxt = list(codes)
                    if g == h:
                        cg = nxt[g]
                        nxt[g] = delete[delete[cg][j]][i] if j > i else delete[delete[cg][i]][j]
                    else:
                        nxt[g] = delete[nxt[g]][i]
                        nxt[h] = delete[nxt[h]][j]
                    t2 = tie
                    if tie and ((g == 0 and i >= top) or (h == 0 and j >= top)):
                        t2 = 0
                    if fw:
                        first, p1, p2, p3 = flip0[nxt[0]], flip[nxt[1]], flip[nxt[2]], flip[nxt[3]]
                        p4 = flip[nxt[4]] if nt else 0
                        need2 = (r + need) & 1
                    else:
                        first, p1, p2, p3 = nxt[0], nxt[1], nxt[2], nxt[3]
                        p4 = nxt[4] if nt else 0
                        need2 = need ^ 1
                    if t2:
                        n = size[first]
                        if (first >> (n - 1)) & 1:
                            first ^= 3 << (n - 2)
                    # the plain suits in order (a sorting network: cheaper than sorted())
                    if p1 > p2:
                        p1, p2 = p2, p1
                    if p2 > p3:
                        p2, p3 = p3, p2
                    if p1 > p2:
                        p1, p2 = p2, p1
                    if nt:
                        if p4 < p3:
                            p3, p4 = p4, p3
                            if p3 < p2:
                                p2, p3 = p3, p2
                                if p2 < p1:
                                    p1, p2 = p2, p1
                        child: tuple[int, ...] = (first, p1, p2, p3, p4)
                        k2 = (((((first << 8) | p1) << 8 | p2) << 8 | p3) << 8 | p4) << 2 | (t2 << 1) | need2
                    else:
                        child = (first, p1, p2, p3)
                        k2 = ((((first << 8) | p1) << 8 | p2) << 8 | p3) << 2 | (t2 << 1) | need2
                    e = get(k2)
                    if e is not None:
                        # a refutation already in the table ends this lead at once
                        if fw:
                            known = (e & 127) - _OFFSET
                            if shift - known <= a:
                                worst = shift - known
                                refuted = True
                                break
                        else:
                            known = ((e >> 7) & 127) - _OFFSET
                            if 1 + known <= a:
                                worst = 1 + known
                                refuted = True
                                break
                    kids.append((child, k2, t2, need2, fw))
                if not refuted:
                    for child, k2, t2, need2, fw in kids:
                        if fw:
                            v = shift - search(child, k2, t2, need2, r - 1, shift - bb, shift - a)
                        else:
                            v = 1 + search(child, k2, t2, need2, r - 1, a - 1, bb - 1)
                        if v < worst:
                            worst = v
                            if v < bb:
                                bb = v
                                if bb <= a:
                                    break
            if worst > best:
                best, best_move = worst, moves_of[g][i]
                if worst > a:
                    a = worst
                    if a >= b:
                        break
        if best <= a0:
            hi = min(hi, best)
        elif best >= b0:
            lo = max(lo, best)
        else:
            lo = hi = best
        if len(table) >= TABLE_LIMIT:
            table.clear()
        table[key] = (lo + _OFFSET) | ((hi + _OFFSET) << 7) | ((_MOVE_CODE[best_move] + 1) << 14 if best_move else 0)
        return best

    return trick


def _by_index(reply: tuple[int, int, bool]) -> int:
    return reply[1]


# --- positions built from the game ----------------------------------------------------------------

_ALL_RANKS: tuple[Rank, ...] = tuple(sorted(Rank, reverse=True))
"""Every rank, highest first: both packs' ranks keep this order, so it ranks either."""


@cache
def _rules(trump: Suit | None, undifferentiated: bool) -> TrickRules:
    return trick_rules(_ALL_RANKS, trump, undifferentiated)


@dataclass(frozen=True)
class PlayPosition:
    """A position of Parity's card play, as the solver needs it (built from a state or a view)."""

    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    trick: tuple[tuple[Seat, Card], ...]
    leader: Seat
    tricks_won: tuple[int, int]
    trump: Suit | None
    target: Parity
    undifferentiated: bool = False
    role: dict[Card, Card] = field(default_factory=dict)

    @property
    def mover(self) -> Seat:
        return (self.leader + len(self.trick)) % 2

    @property
    def no_trump(self) -> bool:
        return self.trump is None

    @property
    def rules(self) -> TrickRules:
        return _rules(self.trump, self.undifferentiated)

    @classmethod
    def from_state(cls, state: ParityState) -> PlayPosition:
        if state.phase != "play" or state.target is None:
            raise ValueError("the solver works on the card play, once trumps and the target are named")
        return cls(
            hands=(tuple(state.hands[0]), tuple(state.hands[1])),
            trick=tuple(state.trick.plays),
            leader=state.trick.leader,
            tricks_won=(state.tricks_won[0], state.tricks_won[1]),
            trump=state.trump,
            target=state.target,
            undifferentiated=state.options.undifferentiated_jokers,
            role=dict(state.role),
        )

    @classmethod
    def from_view(cls, view: ParityView) -> PlayPosition:
        """What a player sees is enough: both hands are open. The rules a view does not carry are
        read from the cards (Sevens stand in for Jokers) and the table notes (equal Jokers)."""
        if view.seat is None or view.target is None or (view.trump is None and not view.no_trump):
            raise ValueError("the solver needs a player's view of the card play")
        seat = view.seat
        hands: list[tuple[Card, ...]] = [(), ()]
        hands[seat] = tuple(view.hand)
        hands[1 - seat] = tuple(view.other_hands.get(1 - seat, ()))
        out = (*hands[0], *hands[1], *(c for _, c in view.trick))
        equal = any("equal rank" in n for n in view.notes) or JOKER in out
        role: dict[Card, Card] = {}
        if any(c.rank is Rank.SEVEN for c in out):
            role = {SEVEN_RED: JOKER, SEVEN_BLACK: JOKER} if equal else _sevens_as_jokers()
        leader = view.trick[0][0] if view.trick else (view.awaiting[0] if view.awaiting else seat)
        return cls(
            hands=(hands[0], hands[1]),
            trick=tuple(view.trick),
            leader=leader,
            tricks_won=(view.tricks_won[0], view.tricks_won[1]),
            trump=view.trump,
            target=view.target,
            undifferentiated=equal,
            role=role,
        )


def _sevens_as_jokers() -> dict[Card, Card]:
    from games.cards import BLACK_JOKER, RED_JOKER

    return {SEVEN_RED: RED_JOKER, SEVEN_BLACK: BLACK_JOKER}


@dataclass
class _Root:
    """A position turned into relative codes, with the real card behind every index."""

    codes: list[int]
    tie: int
    need: int
    remaining: int
    cards: list[list[Card]]
    """Per group, the real cards (hands and the led card) from the lowest."""
    led: Move | None


def _build_root(pos: PlayPosition) -> _Root:
    rules = pos.rules
    role = pos.role
    trump = pos.trump
    plain = [s for s in SUITS if s != trump]
    leader = pos.leader
    entries: list[list[tuple[int, int, Card]]] = [[] for _ in range(1 + len(plain))]

    def group_of(c: Card) -> int:
        r = role.get(c, c)
        if r.is_joker:
            return 0
        assert r.suit is not None
        return 0 if r.suit == trump else 1 + plain.index(r.suit)

    def strength(c: Card) -> int:
        r = role.get(c, c)
        return 0 if r.is_joker and trump is None else rules.strength(r)

    present = [(1 if s != leader else 0, c) for s in (0, 1) for c in pos.hands[s]]
    if pos.trick:
        present.append((0, pos.trick[0][1]))
    for holder, c in present:
        # equal cards (Jokers): the leader's ranks above, as it would win by playing first
        entries[group_of(c)].append((strength(c), 1 - holder, c))
    codes: list[int] = []
    cards: list[list[Card]] = []
    for group in entries:
        group.sort(key=lambda e: (e[0], e[1]))
        code = 1 << len(group)
        for idx, (_, rev_holder, _c) in enumerate(group):
            code |= (1 - rev_holder) << idx
        if trump is None and group is entries[0]:
            ones = bin(code & ((1 << len(group)) - 1)).count("1")
            code = _joker_code(len(group) - ones, ones)
            group.sort(key=lambda e: -e[1])
        codes.append(code)
        cards.append([c for _, _, c in group])
    tie = 0
    if pos.undifferentiated and trump is not None:
        jokers = [e for e in entries[0] if role.get(e[2], e[2]).is_joker]
        tie = 1 if len(jokers) == 2 and jokers[0][1] != jokers[1][1] else 0
    won = pos.tricks_won[leader]
    need = ((1 if pos.target is Parity.ODD else 0) - won) & 1
    led: Move | None = None
    if pos.trick:
        c = pos.trick[0][1]
        g = group_of(c)
        led = (g, cards[g].index(c))
    remaining = (len(pos.hands[0]) + len(pos.hands[1]) + len(pos.trick)) // 2
    return _Root(codes, tie, need, remaining, cards, led)


@dataclass(frozen=True)
class Solution:
    """Exact values for the player to move: each distinct legal card's score difference under
    perfect play from then on (the mover's deal score minus the opponent's)."""

    mover: Seat
    values: dict[Card, int]

    @property
    def value(self) -> int:
        return max(self.values.values())

    @property
    def best(self) -> list[Card]:
        top = self.value
        return [c for c, v in self.values.items() if v == top]


def _mtdf(probe: Callable[[int, int], int], lo: int, hi: int, guess: int = 0) -> int:
    """The exact value within ``[lo, hi]`` by null-window probes ``probe(alpha, beta)``, each
    starting from the bound the last one returned (MTD(f))."""
    while lo < hi:
        beta = guess + 1 if guess == lo else guess
        beta = min(max(beta, lo + 1), hi)
        guess = probe(beta - 1, beta)
        if guess < beta:
            hi = guess
        else:
            lo = guess
    return lo


class ParitySolver:
    """Solves Parity positions. It keeps one transposition table for trump deals and one for
    no-trump deals; they stay valid from deal to deal, because their positions are relative."""

    def __init__(self) -> None:
        self.cores = {False: SearchCore(False), True: SearchCore(True)}
        self.lock = threading.RLock()
        """One search at a time: a bot or hinter instance serves every table, and the table
        service lets them think in worker threads."""

    @property
    def nodes(self) -> int:
        return sum(c.nodes for c in self.cores.values())

    def clear(self) -> None:
        for c in self.cores.values():
            c.table.clear()

    # -- the public answers ------------------------------------------------------------------------

    def value(self, pos: PlayPosition) -> int:
        """The mover's final score difference under perfect play by both."""
        with self.lock:
            core = self.cores[pos.no_trump]
            return self._to_mover(pos, self._root_value(core, _build_root(pos)))

    def at_least(self, pos: PlayPosition, bound: int) -> bool:
        """Whether the mover's value is ``bound`` or more: one null-window probe, cheaper than
        :meth:`value` (a caller comparing choices only needs to know which beats the best so far)."""
        with self.lock:
            core = self.cores[pos.no_trump]
            root = _build_root(pos)
            sign = 1 if pos.mover == pos.leader else -1
            # the mover's value is sign * (leader's tricks + G): turn the bound into one on G
            if sign > 0:
                g_bound = bound - pos.tricks_won[pos.leader]
                return self._g_at_least(core, root, g_bound)
            g_bound = -bound - pos.tricks_won[pos.leader]  # mover >= bound  <=>  G <= g_bound
            return not self._g_at_least(core, root, g_bound + 1)

    def _g_at_least(self, core: SearchCore, root: _Root, bound: int) -> bool:
        lo, hi = core.bounds(root.need, root.remaining)
        if bound <= lo:
            return True
        if bound > hi:
            return False
        if root.led is None:
            codes = self._canonical(root)
            return core.trick(codes, root.tie, root.need, root.remaining, bound - 1, bound) >= bound
        g, i = root.led
        return self._lead_probe(core, root, g, i, bound - 1, bound) >= bound

    def solve(self, pos: PlayPosition) -> Solution:
        """Every legal card's exact value for the mover."""
        with self.lock:
            core = self.cores[pos.no_trump]
            root = _build_root(pos)
            lo, hi = core.bounds(root.need, root.remaining)
            values: dict[Card, int] = {}
            for cards, probe in self._options(core, root):
                v = self._to_mover(pos, _mtdf(probe, lo, hi))
                for c in cards:
                    values[c] = v
            return Solution(pos.mover, values)

    def best_move(self, pos: PlayPosition) -> tuple[Card, int]:
        """An optimal card and the position's value for the mover. Cheaper than :meth:`solve`:
        once the value is known, one null-window test per card finds a card that keeps it, and
        the card the table remembers as best is tried first."""
        with self.lock:
            core = self.cores[pos.no_trump]
            root = _build_root(pos)
            target = self._root_value(core, root)
            options = self._options(core, root)
            if root.led is None:
                canonical = self._canonical(root)
                hint = core.hint(canonical, root.tie, root.need)
                if hint is not None:
                    g, i = hint
                    g_real = next(k for k, c in enumerate(root.codes) if c == canonical[g] and (k == 0) == (g == 0))
                    first = root.cards[g_real][i]
                    options.sort(key=lambda o: first not in o[0])
            for cards, probe in options:
                if root.led is None:
                    keeps = probe(target - 1, target) >= target  # the leader: at least the value
                else:
                    keeps = probe(target, target + 1) <= target  # the follower: at most the value
                if keeps:
                    return cards[0], self._to_mover(pos, target)
            raise AssertionError("no card reaches the position's value")  # pragma: no cover

    # -- helpers -----------------------------------------------------------------------------------

    def _canonical(self, root: _Root) -> tuple[int, ...]:
        return (root.codes[0], *sorted(root.codes[1:]))

    def _root_value(self, core: SearchCore, root: _Root) -> int:
        """The exact ``G`` of the leader at the root."""
        lo, hi = core.bounds(root.need, root.remaining)
        if root.remaining == 0:
            return lo
        if root.led is None:
            codes = self._canonical(root)
            return _mtdf(lambda a, b: core.trick(codes, root.tie, root.need, root.remaining, a, b), lo, hi)
        g, i = root.led
        return _mtdf(lambda a, b: self._lead_probe(core, root, g, i, a, b), lo, hi)

    def _to_mover(self, pos: PlayPosition, g_val: int) -> int:
        leader_value = pos.tricks_won[pos.leader] + g_val
        return leader_value if pos.mover == pos.leader else -leader_value

    def _lead_probe(self, core: SearchCore, root: _Root, g: int, i: int, alpha: int, beta: int) -> int:
        return core.reply(tuple(root.codes), root.tie, root.need, root.remaining, g, i, alpha, beta)

    def _options(self, core: SearchCore, root: _Root) -> list[tuple[list[Card], Callable[[int, int], int]]]:
        """Each distinct legal card (with the real cards it stands for) and a probe of its ``G``
        for the leader: ``probe(alpha, beta)``, fail-soft."""
        codes = tuple(root.codes)
        tie, need, r = root.tie, root.need, root.remaining
        out: list[tuple[list[Card], Callable[[int, int], int]]] = []
        if root.led is None:
            for g, i in core.leads(codes, tie):

                def lead(alpha: int, beta: int, g: int = g, i: int = i) -> int:
                    return core.reply(codes, tie, need, r, g, i, alpha, beta)

                out.append((self._run_cards(root, g, i, 0), lead))
            return out
        g, i = root.led
        for h, j, wins in core.replies(codes, tie, g, i):

            def answer(alpha: int, beta: int, h: int = h, j: int = j, wins: bool = wins) -> int:
                return core.after(codes, tie, need, r, g, i, h, j, wins, alpha, beta)

            out.append((self._run_cards(root, h, j, 1), answer))
        return out

    def _run_cards(self, root: _Root, g: int, i: int, holder: int) -> list[Card]:
        """The real cards of the run starting at index ``i`` of group ``g`` (they are the same move)."""
        code = root.codes[g]
        n = _SIZE[code]
        top = n - 2 if (root.tie and g == 0) else n
        out = [root.cards[g][i]]
        k = i + 1
        while k < n and (code >> k) & 1 == holder and not (k >= top > i):
            out.append(root.cards[g][k])
            k += 1
        return out
