# Over 400 lines: Parity's three bot levels and its analyser, all reading positions through the solver.
"""Bot players and the analyser for Parity for two.

Both hands lie open for the whole deal (the view of a seat holds the other hand), so every bot
plays from exactly what its seat sees; nothing is sampled or peeked.

* ``easy``: names the suit it is longest and strongest in, sets the parity of the tricks it can
  count on, and plays to steer its trick count: of the cards it may play, it prefers one whose
  outcome (this trick won or lost) plus the sure winners it keeps gives the parity it needs,
  cheapest first.
* ``strong``: chooses trumps and the target by playing each choice out with the easy policy on
  both sides (the dealer is expected to pick the worse target for the caller), plays like easy
  for the first tricks, then perfectly once ``STRONG_ENDGAME`` tricks or fewer remain.
* ``vulcan``: perfect. It solves the deal for every trump call and both targets (the dealer will
  answer with the target worse for the caller) and plays every card by the solver.

The analyser replays a finished deal and compares each card with perfect play.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from fractions import Fraction

from games.advice import AnalysisError, finished_deal
from games.cards import Card, Suit
from games.engine import Action, IllegalAction, MatchRecord, PlayCard, Seat, View
from games.parity import (
    GAME,
    ChooseParity,
    ChooseTrump,
    Parity,
    ParityState,
    ParityView,
    deal_scores,
    legal_follows,
)
from games.players.parity_solver import ParitySolver, PlayPosition
from games.verdicts import Analysis, Tally, Verdict, in_all, named_together, tallies

STRONG_ENDGAME = 9
"""Tricks left (the current one included) from which the strong bot plays by the solver."""

_HIGH = {14: 4.0, 13: 3.0, 12: 2.0, 11: 1.0}
"""Honour weights (by rank value) for judging a suit as trumps."""


# --- reading a position -------------------------------------------------------------------------


def _deal_position(view: ParityView, trump: Suit | None, target: Parity) -> PlayPosition:
    """The position at the opening lead if ``trump`` and ``target`` were called, from ``view``."""
    base = PlayPosition.from_view(view.model_copy(update={"trump": trump, "no_trump": trump is None, "target": target}))
    assert view.dealer is not None
    return dataclasses.replace(base, trick=(), leader=1 - view.dealer, tricks_won=(0, 0))


def _beats(pos: PlayPosition, card: Card, led: Card) -> bool:
    """Whether ``card`` played second takes the trick led by ``led``."""
    rules, role = pos.rules, pos.role
    r_led = role.get(led, led)
    return rules.power(role.get(card, card), r_led, False) > rules.power(r_led, r_led, True)


def _sure_when_led(pos: PlayPosition, card: Card, others: Sequence[Card]) -> bool:
    """Whether ``card``, led now, takes the trick whatever the other hand plays."""
    return not any(_beats(pos, x, card) for x in legal_follows(pos.rules, list(others), card, pos.role))


def _sure_count(pos: PlayPosition, hand: Sequence[Card], others: Sequence[Card]) -> int:
    """How many cards of ``hand`` would win if led now: a rough count of tricks to come."""
    return sum(1 for c in hand if _sure_when_led(pos, c, others))


def _strength(pos: PlayPosition, card: Card) -> int:
    """A card's cost to spend: trumps dearest, then by rank."""
    role = pos.role.get(card, card)
    return (100 if pos.rules.is_trump(role) else 0) + pos.rules.strength(role)


def _heuristic_card(pos: PlayPosition, legal: Sequence[Card]) -> Card:
    """Steer the trick count: prefer a card whose outcome now, plus the sure winners kept, gives
    the parity still needed; among those, the cheapest."""
    me = pos.mover
    hand, others = pos.hands[me], pos.hands[1 - me]
    target_bit = 1 if pos.target is Parity.ODD else 0
    need = (target_bit - pos.tricks_won[me]) % 2

    sure = {c for c in hand if _sure_when_led(pos, c, others)}

    def judged(card: Card) -> tuple[int, int]:
        wins = _beats(pos, card, pos.trick[0][1]) if pos.trick else card in sure
        rest = len(sure) - (card in sure)
        on_parity = (int(wins) + rest) % 2 == need
        return (0 if on_parity else 1, _strength(pos, card))

    return min(legal, key=judged)


def _playouts_value(pos: PlayPosition) -> int:
    """The leader's score difference if both sides play the easy policy to the end."""
    hands = [list(pos.hands[0]), list(pos.hands[1])]
    leader, won = pos.leader, list(pos.tricks_won)
    rules, role = pos.rules, pos.role
    while hands[0]:
        trick: list[tuple[Seat, Card]] = []
        for k in range(2):
            seat = (leader + k) % 2
            here = dataclasses.replace(
                pos, hands=(tuple(hands[0]), tuple(hands[1])), trick=tuple(trick), leader=leader, tricks_won=(won[0], won[1])
            )
            led = trick[0][1] if trick else None
            card = _heuristic_card(here, legal_follows(rules, hands[seat], led, role))
            hands[seat].remove(card)
            trick.append((seat, card))
        leader = rules.winner([(s, role.get(c, c)) for s, c in trick])
        won[leader] += 1
    scores = deal_scores(won, pos.target, pos.no_trump)
    return scores[pos.leader] - scores[1 - pos.leader]


# --- the calls ----------------------------------------------------------------------------------


def _suit_weight(hand: Sequence[Card], suit: Suit) -> float:
    """How good ``suit`` looks as trumps for this hand: length, honours, and the Jokers."""
    weight = 0.0
    for c in hand:
        if c.is_joker:
            weight += 5.0
        elif c.suit is suit and c.rank is not None:
            weight += 1.5 + _HIGH.get(int(c.rank), 0.5)
    return weight


def _easy_call(view: ParityView, legal: Sequence[Action]) -> Action:
    trumps = [a for a in legal if isinstance(a, ChooseTrump)]
    if trumps:
        suited = [a for a in trumps if a.suit is not None]
        return max(suited, key=lambda a: _suit_weight(view.hand, a.suit)) if suited else trumps[0]  # type: ignore[arg-type]
    # the dealer: the parity of the tricks it can count on with these trumps
    pos = _deal_position(view, view.trump, Parity.EVEN)
    me = view.seat
    assert me is not None
    count = _sure_count(pos, pos.hands[me], pos.hands[1 - me])
    wanted = Parity.of(count)
    return next(a for a in legal if isinstance(a, ChooseParity) and a.parity is wanted)


def _best_call(view: ParityView, legal: Sequence[Action], judge: Callable[[PlayPosition], int]) -> Action:
    """The call that is best for this seat when ``judge`` gives the leader's value of a deal:
    the caller of trumps assumes the dealer then picks the target worse for it."""
    me = view.seat
    assert me is not None and view.dealer is not None
    caller = 1 - view.dealer  # the non-dealer names trumps and leads

    def for_me(trump: Suit | None, target: Parity) -> int:
        v = judge(_deal_position(view, trump, target))
        return v if me == caller else -v

    trumps = [a for a in legal if isinstance(a, ChooseTrump)]
    if trumps:
        return max(trumps, key=lambda a: min(for_me(a.suit, p) for p in Parity))
    return max(
        (a for a in legal if isinstance(a, ChooseParity)),
        key=lambda a: for_me(view.trump, a.parity),
    )


# --- the players -----------------------------------------------------------------------------------


def _play_action(legal: Sequence[Action], card: Card) -> Action:
    return next(a for a in legal if isinstance(a, PlayCard) and a.play == card)


def _playable(legal: Sequence[Action]) -> list[Card]:
    return [a.play for a in legal if isinstance(a, PlayCard)]


class EasyParityPlayer:
    name = "easy"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        assert isinstance(view, ParityView)
        cards = _playable(legal)
        if not cards:
            return _easy_call(view, legal)
        return _play_action(legal, _heuristic_card(PlayPosition.from_view(view), cards))


class StrongParityPlayer:
    name = "strong"

    def __init__(self) -> None:
        self.solver = ParitySolver()

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        assert isinstance(view, ParityView)
        cards = _playable(legal)
        if not cards:
            return _best_call(view, legal, _playouts_value)
        pos = PlayPosition.from_view(view)
        if len(pos.hands[pos.mover]) <= STRONG_ENDGAME:
            card, _ = self.solver.best_move(pos)
        else:
            card = _heuristic_card(pos, cards)
        return _play_action(legal, card)


def _best_trump_call(view: ParityView, trumps: Sequence[ChooseTrump], solver: ParitySolver) -> ChooseTrump:
    """The trump call worth most to the caller if the dealer then picks the target worse for it,
    as :func:`_best_call` judges it, but proved with bounds: a call is valued exactly only when
    null-window tests show that both its targets beat the best call so far."""
    # the calls likeliest to be best first (the longest and strongest suits), so the bound is high early
    hand = list(view.hand)

    def promise(a: ChooseTrump) -> tuple[int, int]:
        if a.suit is None:
            return (-1, 0)
        ranks = [int(c.rank or 0) for c in hand if c.suit == a.suit]
        return (len(ranks), sum(ranks))

    ordered = sorted(trumps, key=promise, reverse=True)
    best = ordered[0]
    best_value = _lowest(solver, [_deal_position(view, best.suit, p) for p in Parity])[1]
    for k, action in enumerate(ordered[1:], 2):
        positions = [_deal_position(view, action.suit, p) for p in Parity]
        if all(solver.at_least(pos, best_value + 1) for pos in positions):
            best = action
            if k < len(ordered):  # the last call needs no exact value: nothing is compared with it
                best_value = _lowest(solver, positions)[1]
    return best


def _lowest(solver: ParitySolver, positions: Sequence[PlayPosition]) -> tuple[int, int]:
    """Which of ``positions`` (same mover) is worth least to the mover, and its value: one exact
    value, then a null-window test per other position (exact only when it is lower still)."""
    best, value = 0, solver.value(positions[0])
    for k, pos in enumerate(positions[1:], 1):
        if not solver.at_least(pos, value):
            best, value = k, solver.value(pos)
    return best, value


def _target_call(view: ParityView, parities: Sequence[ChooseParity], solver: ParitySolver) -> ChooseParity:
    """The dealer's target: the one worth least to the caller (who leads)."""
    k, _ = _lowest(solver, [_deal_position(view, view.trump, a.parity) for a in parities])
    return parities[k]


class VulcanParityPlayer:
    """Perfect play: the solver for every card and every call (both hands are open)."""

    name = "vulcan"

    def __init__(self) -> None:
        self.solver = ParitySolver()

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        assert isinstance(view, ParityView)
        if not _playable(legal):
            trumps = [a for a in legal if isinstance(a, ChooseTrump)]
            assert view.dealer is not None
            if trumps and view.seat == 1 - view.dealer:
                return _best_trump_call(view, trumps, self.solver)
            parities = [a for a in legal if isinstance(a, ChooseParity)]
            if parities and not trumps and view.seat == view.dealer:
                return _target_call(view, parities, self.solver)
            return _best_call(view, legal, self.solver.value)
        card, _ = self.solver.best_move(PlayPosition.from_view(view))
        return _play_action(legal, card)


# --- the hinter -------------------------------------------------------------------------------------


HINT_SOLVER = ParitySolver()
HINT_CHOICES = 4
"""How many choices a hint lists, best first."""


def parity_hint(view: View, legal: Sequence[Action]) -> list[str]:
    """What each choice is worth under perfect play from here: the seat's deal score minus the
    other's. A call is judged as the vulcan bot judges it (the dealer answers a trump call with
    the target worse for the caller)."""
    assert isinstance(view, ParityView)
    me = view.seat
    assert me is not None
    if _playable(legal):
        solution = HINT_SOLVER.solve(PlayPosition.from_view(view))
        ranked = sorted(solution.values.items(), key=lambda cv: -cv[1])
        lines = ["Under perfect play by both from here (your deal score minus your opponent's):"]
        lines += [f"{card.short}: {_signed(value)}" for card, value in ranked[:HINT_CHOICES]]
        if len(ranked) > HINT_CHOICES:
            lines.append(f"Your other cards: {_signed(ranked[-1][1])} at worst.")
        return lines
    assert view.dealer is not None
    caller = 1 - view.dealer

    def for_me(trump: Suit | None, target: Parity) -> int:
        value = HINT_SOLVER.value(_deal_position(view, trump, target))
        return value if me == caller else -value

    trumps = [a for a in legal if isinstance(a, ChooseTrump)]
    judged: list[tuple[Action, int]]
    if trumps:
        judged = sorted(((a, min(for_me(a.suit, p) for p in Parity)) for a in trumps), key=lambda av: -av[1])
        lines = ["Each call, if your opponent then picks the target worse for you and both play perfectly:"]
    else:
        parities = [a for a in legal if isinstance(a, ChooseParity)]
        judged = sorted(((a, for_me(view.trump, a.parity)) for a in parities), key=lambda av: -av[1])
        lines = ["Each target, if both play perfectly (your deal score minus your opponent's):"]
    return lines + [f"{action.label()}: {_signed(value)}" for action, value in judged]


# --- the analyser -----------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class PlayedCard:
    """One card of a deal's play, with the position it was played from."""

    position: PlayPosition
    seat: Seat
    card: Card
    trick: int
    number: int
    """The card's place in the match record, from 1."""


def deal_plays(record: MatchRecord) -> tuple[dict[int, list[PlayedCard]], int]:
    """Every card played, per deal, by replaying ``record``; and how many deals are finished."""
    if record.game != GAME.id:
        raise AnalysisError("This analysis is for Parity for two.")
    try:
        state = GAME.start(record.players, record.options, record.seed, record.deck)
        assert isinstance(state, ParityState)
        plays: dict[int, list[PlayedCard]] = {}

        def before() -> tuple[int, PlayPosition, int] | None:
            """The position the next card is played from (taken before the replay applies it)."""
            if state.phase != "play" or state.is_over:
                return None
            return state.deal_no, PlayPosition.from_state(state), sum(state.tricks_won) + 1

        position = before()
        for number, seat, action, _events in GAME.replay_steps(record, state):
            if isinstance(action, PlayCard) and position is not None:
                deal, where, trick_no = position
                plays.setdefault(deal, []).append(PlayedCard(where, seat, action.play, trick_no, number))
            position = before()
    except (IllegalAction, ValueError) as exc:
        raise AnalysisError(f"This match record cannot be replayed: {exc}") from None
    finished = state.deal_no if state.is_over else state.deal_no - 1
    return plays, finished


def _result_text(players: Sequence[str], seat: Seat, diff: int) -> str:
    """Who scores what, from ``seat``'s score difference (exactly one player scores)."""
    scorer = seat if diff > 0 else 1 - seat
    return f"{players[scorer]} scores {abs(diff)}"


def analyse_parity(record: MatchRecord, deal: int | None = None, seat: Seat | None = None) -> Analysis:
    """A finished deal's play against perfect play: the value from the opening lead, then a
    verdict on every card (``seat``: that seat's cards), with the value before and after it, every
    card that kept the value, and why a card that lost points lost them."""
    plays, finished = deal_plays(record)
    number = finished_deal(deal, finished)
    if seat is not None and seat not in (0, 1):
        raise AnalysisError("Parity has two seats.")
    cards = plays.get(number, [])
    if not cards:
        raise AnalysisError(f"Deal {number} has no card play to analyse.")
    players = record.players
    solver = ParitySolver()
    first = cards[0].position
    trump = f"{first.trump.title} {first.trump.symbol} trumps" if first.trump else "no trumps"
    start = solver.value(first)
    opening = (
        f"Deal {number} ({trump}, target {first.target.value}): with perfect play from the opening lead, "
        f"{_result_text(players, first.mover, start)}.",
        "Values below are a player's score minus the other's for the deal, if both play perfectly from there.",
    )
    values = [solver.value(p.position) for p in cards]
    verdicts: list[Verdict] = []
    for k, played in enumerate(cards):
        if seat is not None and played.seat != seat:
            continue
        before = values[k]
        if k + 1 < len(cards):
            nxt = cards[k + 1].position
            after = values[k + 1] if nxt.mover == played.seat else -values[k + 1]
        else:
            after = _final_difference(played)
        verdicts.append(_card_verdict(solver, players, played, before, after))
    seats = [0, 1] if seat is None else [seat]
    counted = tallies(verdicts, seats, "card")
    summary = in_all(
        players, counted, seat, "played every card as well as perfect play would: no points lost in this deal.", _tally_text
    )
    last = cards[-1]
    closing = (summary, f"In the event, {_result_text(players, last.seat, _final_difference(last))}.")
    return Analysis(GAME.id, number, opening, tuple(verdicts), counted, closing)


def _card_verdict(solver: ParitySolver, players: Sequence[str], played: PlayedCard, before: int, after: int) -> Verdict:
    """The verdict on one card: ``before`` is the mover's value with perfect play from its
    position, ``after`` with this card played (or, for the deal's last card, the deal's result)."""
    pos, card, name = played.position, played.card.short, players[played.seat]
    keepers = [c for c, v in solver.solve(pos).values.items() if v == before]
    lost = after < before
    if lost:
        said = (
            f"Trick {played.trick}: {name}'s {card} lost {before - after} ({_signed(before)} for {name} "
            f"before it, {_signed(after)} after); {named_together([c.short for c in keepers])} kept {_signed(before)}."
        )
        lost_tricks = perfect_tricks(solver, advance(pos, played.card))[played.seat]
        kept_tricks = perfect_tricks(solver, advance(pos, keepers[0]))[played.seat]
        why = _trick_text(solver, players, pos, played.card, keepers) + _why(name, keepers, lost_tricks, kept_tricks, pos)
    else:
        said, why = f"Trick {played.trick}: {name}'s {card} kept {_signed(before)}, as perfect play would.", ""
    return Verdict(
        played.number, played.seat, "card", card, Fraction(after), Fraction(before), tuple(c.short for c in keepers),
        "points", gave_away=lost, said=said, why=why, listed=lost,
    )


def _this_trick(solver: ParitySolver, pos: PlayPosition, card: Card) -> list[tuple[Seat, Card]]:
    """The trick in play with ``card`` played from ``pos`` and, if it leads, the other's perfect reply."""
    if pos.trick:
        return [*pos.trick, (pos.mover, card)]
    reply, _ = solver.best_move(advance(pos, card))
    return [(pos.mover, card), (1 - pos.mover, reply)]


def _trick_text(solver: ParitySolver, players: Sequence[str], pos: PlayPosition, card: Card, keepers: Sequence[Card]) -> str:
    """What the card did to the trick in play, where a card that kept the value would have done
    otherwise (the trick lost to a trump left in the other hand, or taken where it should have
    gone): a sentence, or nothing when the trick goes the same way."""
    rules, me = pos.rules, pos.mover
    other = players[1 - me]

    def winner(plays: list[tuple[Seat, Card]]) -> Seat:
        return rules.winner([(s, pos.role.get(c, c)) for s, c in plays])

    plays = _this_trick(solver, pos, card)
    won = winner(plays) == me
    keeper = next((k for k in keepers if (winner(_this_trick(solver, pos, k)) == me) != won), None)
    if keeper is None:
        return ""
    if won:
        return f"The {card.short} takes this trick, where the {keeper.short} would give it to {other}. "
    (_, first), (_, second) = plays
    if pos.trick:
        return f"The {card.short} leaves this trick to {other}'s {first.short}, where the {keeper.short} would take it. "
    ruff = rules.is_trump(pos.role.get(second, second)) and not rules.is_trump(pos.role.get(first, first))
    held = f"{other} still held a trump: the {second.short}" if ruff else f"{other}'s {second.short}"
    return f"{held} takes the {card.short}, where the {keeper.short} would win the trick. "


def _tally_text(name: str, tally: Tally) -> str:
    cards = f"{tally.judged} card{'s' if tally.judged != 1 else ''}"
    if not tally.gave_away:
        return f"{name} gave away nothing over {cards}"
    return f"{name} gave away {tally.lost} points with {tally.gave_away} of {cards}"


def advance(pos: PlayPosition, card: Card) -> PlayPosition:
    """The position after the mover plays ``card`` (a finished trick goes to its winner, who leads)."""
    mover = pos.mover
    hands = [list(pos.hands[0]), list(pos.hands[1])]
    hands[mover].remove(card)
    trick = (*pos.trick, (mover, card))
    leader, won = pos.leader, list(pos.tricks_won)
    if len(trick) == 2:
        leader = pos.rules.winner([(s, pos.role.get(c, c)) for s, c in trick])
        won[leader] += 1
        trick = ()
    return dataclasses.replace(
        pos, hands=(tuple(hands[0]), tuple(hands[1])), trick=trick, leader=leader, tricks_won=(won[0], won[1])
    )


def perfect_tricks(solver: ParitySolver, pos: PlayPosition) -> tuple[int, int]:
    """Both players' trick counts at the end of the deal if both play perfectly from ``pos``."""
    while pos.hands[0] or pos.hands[1]:
        card, _ = solver.best_move(pos)
        pos = advance(pos, card)
    return pos.tricks_won


def _why(name: str, keepers: Sequence[Card], lost: int, kept: int, pos: PlayPosition) -> str:
    """Why a card lost points, in a sentence: the tricks it leaves the player against the tricks
    the better cards keep, both playing perfectly afterwards (the target decides who scores)."""
    target = "odd" if pos.target.matches(1) else "even"
    better = "the better card" if len(keepers) == 1 else "any of them"
    scores = [pos.target.matches(n) for n in (lost, kept)]  # 15 tricks: exactly one player scores
    if scores == [False, True]:
        so = f"the target is {target}, so {name} scores with {kept} and not with {lost}"
    elif scores[0]:
        so = f"both score for {name}, {kept} more"
    else:
        so = f"neither scores for {name}, and {lost} leaves the other player more"
    return f"With it {name} ends on {lost} tricks against perfect defence, with {better} on {kept}: {so}."


def _final_difference(played: PlayedCard) -> int:
    """The mover's actual score difference once the last card of the deal is played."""
    pos = played.position
    plays = [*pos.trick, (played.seat, played.card)]
    winner = pos.rules.winner([(s, pos.role.get(c, c)) for s, c in plays])
    won = list(pos.tricks_won)
    won[winner] += 1
    scores = deal_scores(won, pos.target, pos.no_trump)
    return scores[played.seat] - scores[1 - played.seat]


def _signed(value: int) -> str:
    return f"{value:+d}"


# the players Parity's declaration names (games/parity.py), with parity_hint and analyse_parity
EASY = EasyParityPlayer()
STRONG = StrongParityPlayer()
VULCAN = VulcanParityPlayer()
