"""Random-playout checks shared by every game's tests.

After every action of many random matches: each card lies in exactly one place, someone is
awaited until the match ends, the views leak no hidden card, and (at sampled positions) every
listed legal action applies while illegal ones raise and change nothing. At the end, replaying the
record (through JSON) gives an equal state.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest

from games.cards import Card
from games.engine import Action, Game, GameState, IllegalAction, MatchRecord, PlayCard, iter_cards
from games.simulate import play_match


def zone_cards(state: GameState[Any]) -> Counter[Card]:
    out: Counter[Card] = Counter()
    for z in state.card_zones():
        out.update(z.cards)
    return out


def visible_cards(state: GameState[Any], seat: int | None) -> Counter[Card]:
    out: Counter[Card] = Counter()
    for z in state.card_zones():
        if z.visible_to is None or (seat is not None and seat in z.visible_to):
            out.update(z.cards)
    return out


def check_views(state: GameState[Any]) -> None:
    """No view shows a card its viewer may not see. A card may be named more often than it lies in
    a zone the viewer sees (a history, say), but it must lie in one or be publicly known, so the
    comparison is of sets."""
    public: set[Card] = set(state.public_knowledge())
    private: dict[int, set[Card]] = {}
    for z in state.card_zones():
        if z.visible_to is None:
            public.update(z.cards)
        else:
            for seat in z.visible_to:
                private.setdefault(seat, set()).update(z.cards)
    for seat in [None, *range(state.n)]:
        hidden = set(iter_cards(state.view(seat))) - public
        if seat is not None:
            hidden -= private.get(seat, set())
        assert not hidden, f"view({seat}) shows hidden cards {sorted(map(str, hidden))}"


def known_cards(state: GameState[Any]) -> Counter[Card]:
    """Cards the whole table has seen (played or shown) though they now lie in a hidden place."""
    return Counter(state.public_knowledge())


def candidate_illegal(state: GameState[Any], seat: int, legal: list[Action], pack: set[Card]) -> list[Action]:
    """Some actions that must be refused: the first five cards of the pack that are not legal to
    play. A ``PlayCard`` equals a listed action only if that is a ``PlayCard`` of the same card
    (pydantic compares the exact class and the fields), so the cards the menu lets one play are
    read once rather than each card's action compared with each of hundreds of listed actions."""
    playable = {a.play for a in legal if type(a) is PlayCard}
    out: list[Action] = []
    for card in pack:
        if card not in playable:
            out.append(PlayCard(play=card))
            if len(out) == 5:
                break
    return out


def check_position(
    state: GameState[Any], rng: random.Random, pack: set[Card], deep: bool, sample_legal: int | None = None
) -> None:
    waiting = state.awaiting()
    if state.is_over:
        assert not waiting, "the match is over but seats are still awaited"
        return
    assert waiting, "nobody is awaited but the match is not over"
    actors = set(state.actors())
    assert waiting <= actors, "an awaited seat has no legal action"
    if not deep:
        return
    before = state.fingerprint()
    for seat in range(state.n):
        legal = state.legal_actions(seat)
        if legal:
            applied = legal
            if sample_legal is not None and len(legal) > sample_legal:
                applied = rng.sample(legal, sample_legal)
            for action in applied:
                trial = state.clone()
                trial.apply(seat, action)
            tries = candidate_illegal(state, seat, legal, pack)
        else:
            others = [a for s in actors for a in state.legal_actions(s)]
            tries = others[:3]
        for action in tries:
            with pytest.raises(IllegalAction) as info:
                state.apply(seat, action)
            assert str(info.value), "an illegal action must come with a reason"
            assert state.fingerprint() == before, f"refused {action} changed the state"


def check_replay(game: Game[Any], state: GameState[Any]) -> None:
    record = game.record(state)
    again = MatchRecord.model_validate(json.loads(record.model_dump_json()))
    rebuilt = game.replay(again)
    assert rebuilt.fingerprint() == state.fingerprint(), "replay differs from the original"


class _PositionChecker:
    """Checks every position of one match (called after each action)."""

    def __init__(self, rng: random.Random, deep_every: int, always_deep: bool, sample_legal: int | None) -> None:
        self.rng = rng
        self.deep_every = deep_every
        self.always_deep = always_deep
        self.sample_legal = sample_legal
        self.positions = 0
        self.pack: Counter[Card] | None = None

    def __call__(self, state: GameState[Any]) -> None:
        self.positions += 1
        cards = zone_cards(state)
        if self.pack is None:
            self.pack = cards
        # compared as dicts: Counter's own == walks both in Python, and counts made by adding
        # cards are never zero, where the two would differ
        assert dict.__eq__(cards, self.pack), "a card was lost or duplicated"
        check_views(state)
        deep = self.always_deep or self.positions % self.deep_every == 0
        check_position(state, self.rng, set(cards), deep, self.sample_legal)


def run_playouts(
    game: Game[Any],
    players: int,
    options: Mapping[str, Any] | None = None,
    matches: int = 200,
    seed: int = 1,
    deep_every: int = 9,
    sample_legal: int | None = None,
) -> list[GameState[Any]]:
    """Play ``matches`` random matches checking every invariant; returns the final states.

    ``sample_legal`` caps how many of a seat's legal actions a deep check applies (a random
    sample), for games whose menus hold hundreds of actions; ``None`` applies them all.
    """
    finals = []
    for m in range(matches):
        check = _PositionChecker(random.Random(seed * 100_003 + m), deep_every, m < 3, sample_legal)
        state = play_match(game, players, options, seed=seed * 7919 + m, on_action=check)
        assert state.outcome is not None
        assert len(state.outcome.scores) == players and len(state.outcome.ranks) == players
        assert min(state.outcome.ranks) == 1
        check_replay(game, state)
        finals.append(state)
    return finals
