"""Random and bot play of whole matches, for the command line, tests and benchmarks."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine import Game, GameState, SetupError
from games.players import Player, RandomPlayer, bot_player, choose_for, levels

MAX_ACTIONS = 200_000
"""A match longer than this is taken to be stuck: an engine bug, not a long game."""


class StuckMatch(RuntimeError):
    pass


def default_players(count: int) -> list[str]:
    return [f"P{i + 1}" for i in range(count)]


def play_match(
    game: Game[Any],
    players: int | Sequence[str],
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    policies: Sequence[Player] | None = None,
    on_action: Callable[[GameState[Any]], None] | None = None,
) -> GameState[Any]:
    """Play one whole match; each seat's policy defaults to random legal moves.

    The chooser is seeded from ``seed`` too, so a match is reproducible from its seed.
    """
    names = default_players(players) if isinstance(players, int) else list(players)
    state = game.start(names, options, seed=seed)
    rng = random.Random(seed ^ 0x5EED)
    seats = list(policies) if policies else [RandomPlayer() for _ in names]
    if on_action is not None:
        on_action(state)
    while not state.is_over:
        if not state.awaiting():
            raise StuckMatch(f"{game.id}: nobody is awaited but the match is not over")
        seat = rng.choice(state.actors())  # optional acts (challenges) get their chance too
        action = choose_for(state, seat, seats[seat], rng)
        state.apply(seat, action)
        if on_action is not None:
            on_action(state)
        if state.turn > MAX_ACTIONS:
            raise StuckMatch(f"{game.id}: more than {MAX_ACTIONS} actions in one match")
    return state


@dataclass
class SimulationReport:
    game: str
    players: int
    matches: int = 0
    deals: int = 0
    actions: int = 0
    seconds: float = 0.0
    score_totals: list[float] = field(default_factory=list)
    wins: list[float] = field(default_factory=list)

    @property
    def matches_per_second(self) -> float:
        return self.matches / self.seconds if self.seconds else 0.0

    @property
    def mean_score(self) -> list[float]:
        return [t / self.matches for t in self.score_totals] if self.matches else []

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "matches": self.matches,
            "deals": self.deals,
            "actions": self.actions,
            "seconds": round(self.seconds, 4),
            "matches_per_second": round(self.matches_per_second, 2),
            "microseconds_per_action": round(1e6 * self.seconds / self.actions, 2)
            if self.actions
            else 0.0,
            "mean_score": [round(s, 3) for s in self.mean_score],
            "win_share": [round(w / self.matches, 4) for w in self.wins] if self.matches else [],
        }


def simulate(
    game: Game[Any],
    matches: int,
    players: int,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    policies: Sequence[Player] | None = None,
) -> SimulationReport:
    """Play ``matches`` whole matches and gather figures. Win share splits ties evenly."""
    report = SimulationReport(game.id, players, score_totals=[0.0] * players, wins=[0.0] * players)
    start = time.perf_counter()
    for i in range(matches):
        state = play_match(game, players, options, seed + i, policies)
        report.matches += 1
        report.deals += state.deal_no
        report.actions += state.turn
        assert state.outcome is not None
        for s, score in enumerate(state.outcome.scores):
            report.score_totals[s] += score
        winners = state.outcome.winners
        for w in winners:
            report.wins[w] += 1 / len(winners)
    report.seconds = time.perf_counter() - start
    return report


def wilson_interval(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) for a share observed over ``n`` trials."""
    if n <= 0:
        return (0.0, 1.0)
    denom = 1 + z * z / n
    centre = (share + z * z / (2 * n)) / denom
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / denom
    # The interval always holds the share; rounding alone can put 0.9999999999999999 above 1.0.
    return (min(share, max(0.0, centre - half)), max(share, min(1.0, centre + half)))


def seat_policies(game_id: str, seats: Sequence[str]) -> list[Player]:
    """Players for a list of level names ("random", "easy", "strong", ...), one per seat."""
    offered = levels(game_id)
    unknown = sorted({s for s in seats if s not in offered})
    if unknown:
        raise SetupError(
            f"{game_id} has no bot level {', '.join(unknown)}; the levels are {', '.join(offered)}."
        )
    return [bot_player(game_id, level) for level in seats]


@dataclass
class PolicyResult:
    """How one level fared: the share of matches won by any seat it held (ties split evenly)."""

    level: str
    seats: int
    wins: float = 0.0
    score_total: float = 0.0

    def share(self, matches: int) -> float:
        return self.wins / matches if matches else 0.0


@dataclass
class ContestReport:
    game: str
    players: int
    matches: int = 0
    seconds: float = 0.0
    results: dict[str, PolicyResult] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        rows = []
        for r in self.results.values():
            share = r.share(self.matches)
            low, high = wilson_interval(share, self.matches)
            rows.append(
                {
                    "level": r.level,
                    "seats": r.seats,
                    "win_share": round(share, 4),
                    "interval_95": [round(low, 4), round(high, 4)],
                    "fair_share": round(r.seats / self.players, 4),
                    "mean_score_per_seat": round(r.score_total / (self.matches * r.seats), 3)
                    if self.matches
                    else 0.0,
                }
            )
        return {
            "game": self.game,
            "players": self.players,
            "matches": self.matches,
            "seconds": round(self.seconds, 3),
            "levels": rows,
        }


def contest(
    game: Game[Any],
    matches: int,
    seats: Sequence[str],
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    rotate: bool = True,
    wrap: Callable[[str, Player], Player] | None = None,
) -> ContestReport:
    """Pit bot levels against each other, one level per seat.

    With ``rotate`` the seating turns by one place each match, so that over a multiple of the
    player count every level sits in every seat equally often and seat advantage cancels out.
    ``wrap`` may stand a wrapper in for each seat's player (a benchmark timing the moves).
    """
    policies = seat_policies(game.id, seats)
    if wrap is not None:
        policies = [wrap(level, p) for level, p in zip(seats, policies, strict=True)]
    n = len(seats)
    report = ContestReport(game.id, n)
    for level in seats:
        report.results.setdefault(level, PolicyResult(level, 0)).seats += 1
    start = time.perf_counter()
    for i in range(matches):
        shift = i % n if rotate else 0
        order = [(s + shift) % n for s in range(n)]  # seat s is played by policy order[s]
        state = play_match(game, n, options, seed + i, [policies[k] for k in order])
        assert state.outcome is not None
        winners = state.outcome.winners
        for s, k in enumerate(order):
            result = report.results[seats[k]]
            result.score_total += state.outcome.scores[s]
            if s in winners:
                result.wins += 1 / len(winners)
        report.matches += 1
    report.seconds = time.perf_counter() - start
    return report
