"""Ratings with openskill's Plackett-Luce model, per server and per game.

Every rated match updates two rows per player: the all-time rating (season 0) and the rating of
the server's current season. The figure shown is the conservative ordinal, mu - 3 sigma.
Partnerships the rules make a team (Twenty-Nine, four-hand Costly Colours) are rated as teams.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from storage.db import Database
from storage.query import Query, cached, marks, numbered

MODEL = PlackettLuce()
DEFAULT_MU = MODEL.mu
DEFAULT_SIGMA = MODEL.sigma
PROVISIONAL_GAMES = 10
"""A player is provisional until they have played this many rated games..."""
PROVISIONAL_SIGMA = 7.5
"""...and their sigma (uncertainty) has fallen to this or below."""
ALL_TIME = 0


@dataclass(frozen=True)
class Rating:
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


DISPLAY_BASE = 1000
DISPLAY_SCALE = 40
"""The rating people see is ``DISPLAY_BASE + DISPLAY_SCALE * ordinal``, never below zero."""


def display_rating(ordinal: float) -> int:
    """The rating as shown: 1000 + 40 x the conservative ordinal (mu - 3 sigma), a whole number.

    A newcomer (mu 25, sigma 25/3: ordinal 0) shows 1000; a first loss takes a two-player newcomer
    to about 930, a first win to about 1140, and a strong regular reaches 1800 to 2000. The
    ordinal is about -25 at the very worst, so the figure stays positive; it is clamped at 0."""
    return max(0, round(DISPLAY_BASE + DISPLAY_SCALE * ordinal))


def is_provisional(games: int, sigma: float) -> bool:
    return games < PROVISIONAL_GAMES or sigma > PROVISIONAL_SIGMA


@dataclass(frozen=True)
class Placing:
    """One rated player in a finished match."""

    user_id: str
    rank: int
    """1 is best; equal ranks are ties."""
    team: int | None = None
    """Players with the same team number are rated as one team."""


def rate(placings: Sequence[Placing], current: dict[str, Rating]) -> dict[str, Rating]:
    """New ratings after one match. Players without a current rating start at the default."""
    groups: dict[object, list[Placing]] = {}
    for p in placings:
        key = ("team", p.team) if p.team is not None else ("solo", p.user_id)
        groups.setdefault(key, []).append(p)
    teams = list(groups.values())
    ranks: list[float] = [min(p.rank for p in team) for team in teams]
    model_teams = [
        [MODEL.rating(mu=current.get(p.user_id, Rating()).mu, sigma=current.get(p.user_id, Rating()).sigma) for p in team]
        for team in teams
    ]
    rated = MODEL.rate(model_teams, ranks=ranks)
    out: dict[str, Rating] = {}
    for team, new_team in zip(teams, rated, strict=True):
        for p, r in zip(team, new_team, strict=True):
            out[p.user_id] = Rating(r.mu, r.sigma)
    return out


_CURRENT_SEASON = Query("SELECT MAX(number) FROM seasons WHERE guild_id = :guild_id")


async def current_season(conn: Database, guild_id: str) -> int:
    """The server's current season number (1 until an admin starts a new one)."""
    async with conn.execute(_CURRENT_SEASON, guild_id=guild_id) as cur:
        row = await cur.fetchone()
    return int(row[0]) if row and row[0] is not None else 1


_UPSERT_RATING = Query(
    "INSERT INTO ratings (guild_id, game, season, user_id, name, mu, sigma, ordinal, games, wins)"
    " VALUES (:guild_id, :game, :season, :user_id, :name, :mu, :sigma, :ordinal, 1, :wins)"
    " ON CONFLICT (guild_id, game, season, user_id) DO UPDATE SET name = excluded.name,"
    " mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal,"
    " games = ratings.games + 1, wins = ratings.wins + excluded.wins, updated_at = {now}"
)
_RATING_HISTORY = Query(
    "INSERT INTO rating_history (session_id, guild_id, game, user_id, mu_before, sigma_before, mu, sigma)"
    " VALUES (:session_id, :guild_id, :game, :user_id, :mu_before, :sigma_before, :mu, :sigma)"
)


async def update_ratings(
    conn: Database,
    *,
    session_id: int,
    guild_id: str,
    game: str,
    placings: Sequence[Placing],
    names: dict[str, str],
) -> dict[str, Rating]:
    """Rate one match: all-time and current season rows, and the history. Does not commit:
    the caller records the result in the same transaction."""
    season = await current_season(conn, guild_id)
    new_all: dict[str, Rating] = {}
    for which in (ALL_TIME, season):
        current = await _ratings(conn, guild_id, game, which, [p.user_id for p in placings])
        new = rate(placings, current)
        for p in placings:
            r = new[p.user_id]
            await conn.execute(
                _UPSERT_RATING,
                guild_id=guild_id,
                game=game,
                season=which,
                user_id=p.user_id,
                name=names[p.user_id],
                mu=r.mu,
                sigma=r.sigma,
                ordinal=r.ordinal,
                wins=int(p.rank == 1),
            )
        if which == ALL_TIME:
            new_all = new
            for p in placings:
                before = current.get(p.user_id, Rating())
                await conn.execute(
                    _RATING_HISTORY,
                    session_id=session_id,
                    guild_id=guild_id,
                    game=game,
                    user_id=p.user_id,
                    mu_before=before.mu,
                    sigma_before=before.sigma,
                    mu=new[p.user_id].mu,
                    sigma=new[p.user_id].sigma,
                )
    return new_all


async def _ratings(
    conn: Database, guild_id: str, game: str, season: int, users: Sequence[str]
) -> dict[str, Rating]:
    query = cached(
        "SELECT user_id, mu, sigma FROM ratings WHERE guild_id = :guild_id AND game = :game AND season = :season"
        f" AND user_id IN ({marks('user', len(users))})"
    )
    async with conn.execute(
        query, guild_id=guild_id, game=game, season=season, **numbered("user", list(users))
    ) as cur:
        return {row[0]: Rating(row[1], row[2]) for row in await cur.fetchall()}
