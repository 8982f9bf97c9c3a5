# Over 400 lines: every read-only query of the records (leaderboards, player statistics, history, seasons, admin log, exports and the pages of record), written once for both dialects; the seam for a split is leaderboards / player statistics / exports, left while issue 31's queries settled.
"""Leaderboards, player statistics, history, seasons, admin log and exports: read side of results."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from storage.db import Database, transaction
from storage.query import Query, cached
from storage.ratings import ALL_TIME, DEFAULT_MU, DEFAULT_SIGMA, current_season, is_provisional
from storage.sessions import OPEN_STATUSES

Period = Literal["all", "season", "month", "week"]
PERIODS: tuple[Period, ...] = ("all", "season", "month", "week")


FINISHED = " JOIN sessions fin ON fin.id = r.session_id AND fin.status = 'finished'"
"""Joined to ``results r``: only matches played to their end count as games played (an abandoned
match has a result row, for the history, but no winner)."""

WON = "CASE WHEN p.rank = 1 THEN 1 ELSE 0 END"
"""1 for a win of ``result_players p`` (summed: PostgreSQL does not add up comparisons)."""


@dataclass
class BoardRow:
    rank: int
    user_id: str
    name: str
    rating: float
    games: int
    wins: int
    provisional: bool

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass
class Board:
    game: str
    period: Period
    season: int
    rows: list[BoardRow]
    """Established players, best first, then provisional players, best first."""
    total: int


def stamp(moment: datetime) -> str:
    """A UTC time as the tables store it (``2026-11-24T10:00:00.123Z``), so that the text compares
    as the time does."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def _since(period: Period, now: datetime | None = None) -> str | None:
    now = now or datetime.now(UTC)
    if period == "week":
        return stamp(now - timedelta(days=7))
    if period == "month":
        return stamp(now - timedelta(days=30))
    return None


_BOARD_BY_RATING = Query(
    "SELECT user_id, name, mu, sigma, ordinal, games, wins FROM ratings"
    " WHERE guild_id = :guild_id AND game = :game AND season = :season"
)
_BOARD_BY_PERIOD = Query(
    # counted first, then each player's rating looked up once (not once per result)
    "SELECT a.user_id, a.name, COALESCE(r.mu, :mu) AS mu, COALESCE(r.sigma, :sigma) AS sigma,"
    " COALESCE(r.ordinal, :ordinal) AS ordinal, a.games, a.wins FROM ("
    f"SELECT p.user_id, MAX(p.name) AS name, COUNT(*) AS games, SUM({WON}) AS wins"
    " FROM results res JOIN result_players p USING (session_id)"
    " WHERE res.guild_id = :guild_id AND res.game = :game AND res.rated = 1 AND res.finished_at >= :since"
    " AND p.user_id IS NOT NULL GROUP BY p.user_id) a"
    " LEFT JOIN ratings r ON r.guild_id = :guild_id AND r.game = :game AND r.season = 0 AND r.user_id = a.user_id"
)


async def leaderboard(
    conn: Database,
    guild_id: str,
    game: str,
    period: Period = "all",
    *,
    offset: int = 0,
    limit: int = 10,
    now: datetime | None = None,
) -> Board:
    """One page of a server's leaderboard for a game.

    ``all`` and ``season`` rank by the rating of that scope; ``month`` and ``week`` count the
    rated games and wins of the period and show the all-time rating of those who played.
    """
    season = await current_season(conn, guild_id)
    if period in ("all", "season"):
        scope = ALL_TIME if period == "all" else season
        rows = await conn.execute_fetchall(_BOARD_BY_RATING, guild_id=guild_id, game=game, season=scope)
    else:
        rows = await conn.execute_fetchall(
            _BOARD_BY_PERIOD,
            mu=DEFAULT_MU,
            sigma=DEFAULT_SIGMA,
            ordinal=DEFAULT_MU - 3 * DEFAULT_SIGMA,
            guild_id=guild_id,
            game=game,
            since=_since(period, now),
        )
    entries = [
        (is_provisional(r["games"], r["sigma"]), -r["ordinal"], r["name"], r) for r in rows
    ]
    entries.sort(key=lambda e: (e[0], e[1], e[2]))
    out: list[BoardRow] = []
    established_rank = provisional_rank = 0
    for provisional, _, _, r in entries:
        if provisional:
            provisional_rank += 1
            rank = provisional_rank
        else:
            established_rank += 1
            rank = established_rank
        out.append(BoardRow(rank, r["user_id"], r["name"], round(r["ordinal"], 2), r["games"], r["wins"] or 0, provisional))
    return Board(game, period, season, out[offset : offset + limit], len(out))


_NEW_SEASON = Query("INSERT INTO seasons (guild_id, number, started_by) VALUES (:guild_id, :number, :admin_id)")


async def new_season(conn: Database, guild_id: str, admin_id: str) -> int:
    """Start the next season; all-time ratings and every result stay."""
    async with transaction(conn):
        number = await current_season(conn, guild_id) + 1
        await conn.execute(_NEW_SEASON, guild_id=guild_id, number=number, admin_id=admin_id)
        await _log_admin(conn, guild_id, admin_id, "season new", f"season {number}")
    return number


_RESET_RATING = Query("DELETE FROM ratings WHERE guild_id = :guild_id AND user_id = :user_id")


async def reset_rating(conn: Database, guild_id: str, admin_id: str, user_id: str) -> int:
    """Forget a member's ratings on this server (all games, all seasons); results stay."""
    async with transaction(conn):
        cur = await conn.execute(_RESET_RATING, guild_id=guild_id, user_id=user_id)
        await _log_admin(conn, guild_id, admin_id, "rating reset", f"user {user_id}")
    return cur.rowcount


async def log_admin(conn: Database, guild_id: str, admin_id: str, action: str, detail: str = "") -> None:
    async with transaction(conn):
        await _log_admin(conn, guild_id, admin_id, action, detail)


_LOG_ADMIN = Query(
    "INSERT INTO admin_log (guild_id, user_id, action, detail) VALUES (:guild_id, :admin_id, :action, :detail)"
)


async def _log_admin(conn: Database, guild_id: str, admin_id: str, action: str, detail: str) -> None:
    await conn.execute(_LOG_ADMIN, guild_id=guild_id, admin_id=admin_id, action=action, detail=detail)


_ADMIN_LOG = Query(
    "SELECT user_id, action, detail, at FROM admin_log WHERE guild_id = :guild_id ORDER BY id DESC LIMIT :limit"
)


async def admin_log(conn: Database, guild_id: str, limit: int = 50) -> list[dict[str, Any]]:
    async with conn.execute(_ADMIN_LOG, guild_id=guild_id, limit=limit) as cur:
        return [dict(r) for r in await cur.fetchall()]


@dataclass
class PlayerStats:
    games: int
    wins: int
    average_score: float
    best_score: int | None
    favourite_game: str | None
    rating: float | None
    provisional: bool
    history: list[tuple[str, float]]
    """(time, ordinal) after each rated match, oldest first (for the game asked, or all games)."""


PLAYER_FIRST = "FROM result_players p CROSS JOIN results r"
"""A member's results, read from their own rows (SQLite keeps the order of a CROSS JOIN: without it,
it may walk the whole server's results instead, 70 ms rather than 2 on a server of 100,000 matches;
PostgreSQL plans as it likes). The WHERE clause must say ``r.session_id = p.session_id``."""

_FAVOURITE_GAME = Query(
    f"SELECT r.game, COUNT(*) AS n {PLAYER_FIRST}{FINISHED} WHERE r.session_id = p.session_id"
    " AND r.guild_id = :guild_id AND p.user_id = :user_id GROUP BY r.game ORDER BY n DESC, r.game LIMIT 1"
)
_RATING = Query(
    "SELECT ordinal, games, sigma FROM ratings"
    " WHERE guild_id = :guild_id AND game = :game AND season = 0 AND user_id = :user_id"
)


async def player_stats(
    conn: Database, guild_id: str, user_id: str, game: str | None = None
) -> PlayerStats:
    """A member's finished games (an abandoned match is no game played), wins, scores, rating."""
    game_filter = " AND r.game = :game" if game else ""
    args: dict[str, Any] = {"guild_id": guild_id, "user_id": user_id, **({"game": game} if game else {})}
    totals = cached(
        f"SELECT COUNT(*) AS games, COALESCE(SUM({WON}), 0) AS wins, AVG(p.score) AS avg, MAX(p.score) AS best"
        f" FROM results r JOIN result_players p USING (session_id){FINISHED}"
        f" WHERE r.guild_id = :guild_id AND p.user_id = :user_id{game_filter}"
    )
    async with conn.execute(totals, **args) as cur:
        row = await cur.fetchone()
    assert row is not None
    async with conn.execute(_FAVOURITE_GAME, guild_id=guild_id, user_id=user_id) as cur:
        fav = await cur.fetchone()
    rating: float | None = None
    provisional = True
    if game:
        async with conn.execute(_RATING, guild_id=guild_id, game=game, user_id=user_id) as cur:
            rr = await cur.fetchone()
        if rr:
            rating, provisional = round(rr["ordinal"], 2), is_provisional(rr["games"], rr["sigma"])
    hist_filter = " AND game = :game" if game else ""
    rating_history = cached(
        "SELECT at, mu - 3 * sigma FROM rating_history WHERE guild_id = :guild_id AND user_id = :user_id"
        f"{hist_filter} ORDER BY at, session_id"
    )
    async with conn.execute(rating_history, **args) as cur:
        history = [(r[0], round(r[1], 3)) for r in await cur.fetchall()]
    return PlayerStats(
        games=row["games"],
        wins=row["wins"],
        average_score=round(row["avg"] or 0.0, 2),
        best_score=row["best"],
        favourite_game=fav["game"] if fav else None,
        rating=rating,
        provisional=provisional,
        history=history,
    )


async def head_to_head(
    conn: Database, guild_id: str, user_a: str, user_b: str, game: str | None = None
) -> tuple[int, int, int]:
    """(finished matches together, times A ranked above B, times B ranked above A)."""
    game_filter = " AND r.game = :game" if game else ""
    query = cached(
        "SELECT COUNT(*), COALESCE(SUM(CASE WHEN a.rank < b.rank THEN 1 ELSE 0 END), 0),"
        " COALESCE(SUM(CASE WHEN b.rank < a.rank THEN 1 ELSE 0 END), 0)"
        f" FROM results r JOIN result_players a USING (session_id){FINISHED}"
        " JOIN result_players b ON b.session_id = r.session_id"
        f" WHERE r.guild_id = :guild_id AND a.user_id = :user_a AND b.user_id = :user_b{game_filter}"
    )
    async with conn.execute(
        query, guild_id=guild_id, user_a=user_a, user_b=user_b, **({"game": game} if game else {})
    ) as cur:
        row = await cur.fetchone()
    assert row is not None
    return int(row[0]), int(row[1]), int(row[2])


_RESULT_PLAYERS = Query(
    "SELECT seat, name, user_id, score, rank FROM result_players WHERE session_id = :session_id ORDER BY seat"
)


async def history(
    conn: Database,
    guild_id: str,
    *,
    user_id: str | None = None,
    channel_id: str | None = None,
    limit: int = 10,
) -> list[dict[str, Any]]:
    """Recent matches with a result (newest first) with their players and scores; ``status``
    says whether each was ``finished`` or ``abandoned``."""
    where = ["r.guild_id = :guild_id"]
    args: dict[str, Any] = {"guild_id": guild_id, "limit": limit}
    if user_id is not None:
        where.append("r.session_id IN (SELECT session_id FROM result_players WHERE user_id = :user_id)")
        args["user_id"] = user_id
    if channel_id is not None:
        where.append("s.channel_id = :channel_id")
        args["channel_id"] = channel_id
    query = cached(
        "SELECT r.session_id, r.game, r.rated, r.mode, r.finished_at, s.channel_id, s.status FROM results r"
        f" JOIN sessions s ON s.id = r.session_id WHERE {' AND '.join(where)}"
        " ORDER BY r.finished_at DESC, r.session_id DESC LIMIT :limit"
    )
    async with conn.execute(query, **args) as cur:
        matches = [dict(r) for r in await cur.fetchall()]
    for m in matches:
        async with conn.execute(_RESULT_PLAYERS, session_id=m["session_id"]) as cur:
            m["players"] = [dict(r) for r in await cur.fetchall()]
    return matches


_EXPORT = Query(
    "SELECT r.session_id, r.game, r.finished_at, r.mode, s.status, r.rated, p.seat, p.name, p.user_id,"
    " p.score, p.rank FROM results r JOIN result_players p USING (session_id)"
    " JOIN sessions s ON s.id = r.session_id WHERE r.guild_id = :guild_id"
    " ORDER BY r.finished_at, r.session_id, p.seat"
)


async def export_csv(conn: Database, guild_id: str) -> str:
    """Every result of a server, one row per player, as CSV; ``status`` says whether the match
    was ``finished`` or ``abandoned`` (an abandoned one's scores are where it stopped)."""
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(
        ["match", "game", "finished_at", "mode", "status", "rated", "seat", "player", "user_id", "score", "rank"]
    )
    async with conn.execute(_EXPORT, guild_id=guild_id) as cur:
        async for row in cur:
            writer.writerow([inert_cell(v) for v in row])
    return buf.getvalue()


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a CSV cell as a formula (OWASP's list)."""


def inert_cell(value: Any) -> Any:
    """A CSV cell a spreadsheet shows as text: text that could start a formula (a guest named
    ``=HYPERLINK(...)``) gets a leading quote. Numbers (a score of -5) stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


_MATCH = Query(
    "SELECT s.*, r.outcome, r.rated, r.unrated AS result_unrated, r.finished_at FROM sessions s"
    " LEFT JOIN results r ON r.session_id = s.id WHERE s.id = :session_id AND s.guild_id = :guild_id"
)
_MATCH_ACTIONS = Query("SELECT seat, action FROM actions WHERE session_id = :session_id ORDER BY seq")


async def match_json(conn: Database, guild_id: str, session_id: int) -> dict[str, Any] | None:
    """One match of this server: its setup, action log and result, enough to replay it.

    A live match (in its lobby or in play) comes without its seed, deck and actions, from which
    every hidden hand could be rebuilt: ``live`` is then true, and callers refuse it politely."""
    if not 0 < session_id < 2**63:  # no such row, and SQLite cannot even hold the number
        return None
    async with conn.execute(_MATCH, session_id=session_id, guild_id=guild_id) as cur:
        row = await cur.fetchone()
    if row is None:
        return None
    live = row["status"] in OPEN_STATUSES
    actions: list[list[Any]] = []
    if not live:
        async with conn.execute(_MATCH_ACTIONS, session_id=session_id) as cur:
            actions = [[r[0], json.loads(r[1])] for r in await cur.fetchall()]
    return {
        "match": row["id"],
        "game": row["game"],
        "options": json.loads(row["options"]),
        "players": [s["name"] for s in json.loads(row["seats"])],
        "seats": json.loads(row["seats"]),
        "seed": None if live else row["seed"],
        "deck": json.loads(row["deck"]) if row["deck"] and not live else None,
        "mode": row["mode"],
        "status": row["status"],
        "live": live,
        "actions": actions,
        "outcome": json.loads(row["outcome"]) if row["outcome"] else None,
        "rated": bool(row["rated"]) if row["rated"] is not None else None,
        "unrated_because": json.loads(row["result_unrated"]) if row["result_unrated"] else [],
        "finished_at": row["finished_at"],
    }


_MOST_PLAYED = Query(
    "SELECT game FROM results WHERE guild_id = :guild_id AND rated = 1"
    " GROUP BY game ORDER BY COUNT(*) DESC, game LIMIT 1"
)


async def most_played_game(conn: Database, guild_id: str) -> str | None:
    """The game with the most rated matches on a server (the leaderboard shown by default)."""
    async with conn.execute(_MOST_PLAYED, guild_id=guild_id) as cur:
        row = await cur.fetchone()
    return str(row[0]) if row else None


# -- the pages of record -------------------------------------------------------------------------------


@dataclass
class GameLine:
    """A game on a server's index: how many players hold a rating in it."""

    game: str
    players: int


_RATED_GAMES = Query(
    "SELECT game, COUNT(*) AS players FROM ratings WHERE guild_id = :guild_id AND season = 0"
    " GROUP BY game ORDER BY players DESC, game"
)


async def rated_games(conn: Database, guild_id: str) -> list[GameLine]:
    """The games with a leaderboard on this server, most players first (ratings change only when a
    match ends, so nothing here comes from a match in play)."""
    rows = await conn.execute_fetchall(_RATED_GAMES, guild_id=guild_id)
    return [GameLine(r["game"], int(r["players"])) for r in rows]


@dataclass
class PlayerGame:
    """A member's record in one game: finished matches, wins, and their all-time rating if rated."""

    game: str
    games: int
    wins: int
    rating: float | None
    provisional: bool


_PLAYER_GAMES = Query(
    f"SELECT r.game, COUNT(*) AS games, COALESCE(SUM({WON}), 0) AS wins {PLAYER_FIRST}{FINISHED}"
    " WHERE r.session_id = p.session_id AND r.guild_id = :guild_id AND p.user_id = :user_id GROUP BY r.game"
)
_PLAYER_RATINGS = Query(
    "SELECT game, ordinal, games, sigma, name FROM ratings"
    " WHERE guild_id = :guild_id AND season = 0 AND user_id = :user_id"
)


async def player_games(conn: Database, guild_id: str, user_id: str) -> tuple[str | None, list[PlayerGame]]:
    """(the name kept with their rating, if any; their games, most played first)."""
    played = {r["game"]: r for r in await conn.execute_fetchall(_PLAYER_GAMES, guild_id=guild_id, user_id=user_id)}
    rated = {r["game"]: r for r in await conn.execute_fetchall(_PLAYER_RATINGS, guild_id=guild_id, user_id=user_id)}
    out = []
    for game in played.keys() | rated.keys():
        p, r = played.get(game), rated.get(game)
        out.append(
            PlayerGame(
                game,
                int(p["games"]) if p else 0,
                int(p["wins"]) if p else 0,
                round(r["ordinal"], 2) if r else None,
                is_provisional(r["games"], r["sigma"]) if r else True,
            )
        )
    out.sort(key=lambda g: (-g.games, g.game))
    name = next((r["name"] for r in rated.values()), None)
    return name, out


@dataclass
class Opponent:
    user_id: str
    name: str
    together: int
    ahead: int
    """Matches the player finished above this opponent..."""
    behind: int
    """...and below."""


_OPPONENTS = Query(
    "SELECT b.user_id, MAX(b.name) AS name, COUNT(*) AS together,"
    " COALESCE(SUM(CASE WHEN a.rank < b.rank THEN 1 ELSE 0 END), 0) AS ahead,"
    " COALESCE(SUM(CASE WHEN b.rank < a.rank THEN 1 ELSE 0 END), 0) AS behind"
    f" FROM results r JOIN result_players a USING (session_id){FINISHED}"
    " JOIN result_players b ON b.session_id = r.session_id AND b.user_id <> a.user_id"
    " WHERE r.guild_id = :guild_id AND a.user_id = :user_id"
    " GROUP BY b.user_id ORDER BY together DESC, b.user_id LIMIT :limit"
)


async def opponents(conn: Database, guild_id: str, user_id: str, limit: int = 10) -> list[Opponent]:
    """The members a player met most in finished matches, with who finished ahead."""
    rows = await conn.execute_fetchall(_OPPONENTS, guild_id=guild_id, user_id=user_id, limit=limit)
    return [Opponent(r["user_id"], r["name"], int(r["together"]), int(r["ahead"]), int(r["behind"])) for r in rows]


_RATING_HISTORY = Query(
    "SELECT game, at, mu - 3 * sigma AS ordinal FROM rating_history"
    " WHERE guild_id = :guild_id AND user_id = :user_id ORDER BY game, at, session_id"
)


async def rating_histories(conn: Database, guild_id: str, user_id: str) -> dict[str, list[tuple[str, float]]]:
    """Per game: (time, ordinal) after each rated match, oldest first."""
    out: dict[str, list[tuple[str, float]]] = {}
    for r in await conn.execute_fetchall(_RATING_HISTORY, guild_id=guild_id, user_id=user_id):
        out.setdefault(r["game"], []).append((r["at"], float(r["ordinal"])))
    return out


_RATED_PLAYERS = Query("SELECT DISTINCT user_id FROM ratings WHERE guild_id = :guild_id AND season = 0")


async def rated_players(conn: Database, guild_id: str) -> list[str]:
    """Every member holding an all-time rating on this server (who has a player page)."""
    return [r["user_id"] for r in await conn.execute_fetchall(_RATED_PLAYERS, guild_id=guild_id)]


_HAS_RATING = Query("SELECT 1 FROM ratings WHERE guild_id = :guild_id AND season = 0 AND user_id = :user_id LIMIT 1")


async def has_rating(conn: Database, guild_id: str, user_id: str) -> bool:
    """Whether a member holds an all-time rating here (and so has a player page)."""
    return bool(await conn.execute_fetchall(_HAS_RATING, guild_id=guild_id, user_id=user_id))
