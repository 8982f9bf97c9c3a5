"""The mirror: online and referee mode score alike. A random online match is played, and the facts
of each deal as the match settled them (``state.settled``) are entered into the referee game as its
table would (``RefereeState.entries``). After every deal both have the same scores, deal number
and dealer; both end the same way. Nothing is kept per game here: the facts, the entries and the
match come from each game's own declaration. ``tests/games/test_every_game.py`` runs it for every
game at every player count; each game's referee tests run it under the option sets that change
its scoring."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from games.engine import Event, Game, GameState
from games.match import DealFacts, Match, MatchState
from games.players import Player, RandomPlayer
from games.referee.state import RefereeState


def mirror(
    online: Game[Any],
    referee: Game[Any],
    players: int,
    options: dict[str, Any],
    seed: int,
    player: Player | None = None,
    seen: list[DealFacts] | None = None,
) -> int:
    """Play one online match at random (or by ``player``, a bot that reaches deals random play
    does not) and enter its deals' facts in referee mode; returns the number of deals compared,
    and adds their facts to ``seen`` if given."""
    names = [f"P{i}" for i in range(players)]
    shared = {k: v for k, v in options.items() if k in online.Options.model_fields}  # entries=result: the referee's alone
    real: GameState[Any] = online.start(names, shared, seed=seed)
    ref = referee.start(names, options, seed=seed)
    assert isinstance(ref, RefereeState)
    assert getattr(real, "dealer", None) == ref.dealer
    rng, chooser, deals = random.Random(seed), player or RandomPlayer(), 0
    settled = real.settled
    with scores_at_settle() as scores:
        while not real.is_over:
            seat = rng.choice(real.actors())
            real.apply(seat, chooser.choose(real.view(seat), real.legal_actions(seat), rng))
            if real.settled is settled:
                continue
            settled, deals = real.settled, deals + 1
            if seen is not None:
                seen.append(settled)
            for who, entry in ref.entries(settled):
                ref.apply(who, entry)
            assert (scores[id(ref)], ref.deal_no) == (scores[id(real)], real.deal_no), f"after deal {deals}"
            assert ref.is_over or ref.dealer == getattr(real, "dealer", None)
    assert ref.is_over and ref.outcome == real.outcome and ref.scores == real.scores
    return deals


@contextmanager
def scores_at_settle() -> Iterator[dict[int, list[int]]]:
    """Each state's scores as the match left them when it last settled a deal (by ``id`` of the
    state): the next deal may score as it opens, before the action returns (Costly Colours' heels,
    pegged as the bot turns the deck card; a referee table enters that card later)."""
    scores: dict[int, list[int]] = {}
    settle = Match.settle

    def recording(match: Match[Any], state: MatchState, facts: DealFacts) -> list[Event]:
        events = settle(match, state, facts)
        scores[id(state)] = list(state.scores)
        return events

    Match.settle = recording  # type: ignore[method-assign, assignment]
    try:
        yield scores
    finally:
        Match.settle = settle  # type: ignore[method-assign]
