"""The pages of record as HTML bodies (pure functions of what storage found): a server's index, a
leaderboard, a player. Every text that came from people (names) is escaped; every player is named
as the server allows (see :class:`~bot.web.records.access.RecordServer`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import urlencode

from bot.render.records import game_title, plural
from bot.web.records.access import RecordServer
from bot.web.records.shell import text
from storage.ratings import PROVISIONAL_GAMES, PROVISIONAL_SIGMA, display_rating
from storage.stats import PERIODS, Board, BoardRow, GameLine, Opponent, Period, PlayerGame

PERIOD_WORDS: dict[Period, str] = {"all": "All time", "season": "This season", "month": "Last 30 days", "week": "Last 7 days"}
PROVISIONAL_NOTE = (
    f"Provisional players have fewer than {PROVISIONAL_GAMES} rated games or a rating not yet sure enough "
    f"(sigma above {PROVISIONAL_SIGMA}); they are ranked apart."
)


def player_link(server: RecordServer, user_id: str | None, stored: str) -> str:
    name = text(server.name(user_id, stored))
    if user_id is None:
        return name
    return f'<a href="/servers/{server.guild_id}/players/{server.key(user_id)}">{name}</a>'


def board_href(server: RecordServer, game: str, period: Period = "all", page: int = 0) -> str:
    query = {k: v for k, v in (("period", period), ("page", str(page + 1))) if v not in ("all", "1")}
    return f"/servers/{server.guild_id}/games/{game}" + (f"?{urlencode(query)}" if query else "")


def match_href(server: RecordServer, match_id: int) -> str:
    return f"/servers/{server.guild_id}/matches/{match_id}"


def index_body(server: RecordServer, games: Sequence[GameLine], recent: Sequence[dict[str, Any]]) -> str:
    parts = [f"<h1>{text(server.title)}: leaderboards and matches</h1>"]
    parts.append("<h2>Leaderboards</h2>")
    if games:
        items = "".join(
            f'<li><a href="{board_href(server, g.game)}">{text(game_title(g.game))}</a> '
            f"({plural(g.players, 'rated player')})</li>"
            for g in games
        )
        parts.append(f'<ul class="games">{items}</ul>')
    else:
        parts.append("<p>No rated matches yet: play one, and its game's leaderboard starts here.</p>")
    parts.append("<h2>Recent matches</h2>")
    if recent:
        rows = []
        for m in recent:
            players = ", ".join(
                player_link(server, p["user_id"], p["name"]) + f" {text(p['score'])}" for p in m["players"]
            )
            state = "" if m["status"] == "finished" else ' <span class="tag">abandoned</span>'
            rows.append(
                f'<tr><th scope="row"><a href="{match_href(server, m["session_id"])}">#{m["session_id"]}</a></th>'
                f"<td>{text(game_title(m['game']))}{state}</td>"
                f'<td class="wide">{text(m["finished_at"][:10])}</td><td>{players}</td></tr>'
            )
        parts.append(
            '<div class="scroll"><table><caption>The latest matches to end on this server</caption>'
            '<thead><tr><th scope="col">Match</th><th scope="col">Game</th><th scope="col" class="wide">Ended</th>'
            '<th scope="col">Players and scores</th></tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div>"
        )
    else:
        parts.append("<p>No match has ended here yet.</p>")
    return "\n".join(parts)


def scope_words(board: Board) -> str:
    return f"season {board.season}" if board.period == "season" else PERIOD_WORDS[board.period].lower()


def _board_table(server: RecordServer, caption: str, rows: Sequence[BoardRow]) -> str:
    body = "".join(
        f'<tr><td class="num">{r.rank}</td><th scope="row">{player_link(server, r.user_id, r.name)}</th>'
        f'<td class="num">{display_rating(r.rating)}</td><td class="num">{r.games}</td>'
        f'<td class="num wide">{r.wins}</td><td class="num">{r.win_rate:.0%}</td></tr>'
        for r in rows
    )
    return (
        f'<div class="scroll"><table><caption>{text(caption)}</caption><thead><tr>'
        '<th scope="col" class="num">Rank</th><th scope="col">Player</th><th scope="col" class="num">Rating</th>'
        '<th scope="col" class="num">Games</th><th scope="col" class="num wide">Wins</th>'
        '<th scope="col" class="num">Win rate</th></tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def board_body(server: RecordServer, board: Board, page: int, pages: int) -> str:
    title = game_title(board.game)
    parts = [f"<h1>{text(title)} leaderboard</h1>", f'<p class="lead">{text(server.title)} - {text(scope_words(board))}</p>']
    choices = []
    for period in PERIODS:
        label = PERIOD_WORDS[period] if period != "season" else f"Season {board.season}"
        if period == board.period:
            choices.append(f'<li><span aria-current="page">{text(label)}</span></li>')
        else:
            choices.append(f'<li><a href="{board_href(server, board.game, period)}">{text(label)}</a></li>')
    parts.append(f'<nav aria-label="Period"><ul class="choices">{"".join(choices)}</ul></nav>')
    if not board.rows:
        parts.append("<p>No rated games in this period yet.</p>")
        return "\n".join(parts)
    established = [r for r in board.rows if not r.provisional]
    provisional = [r for r in board.rows if r.provisional]
    if established:
        parts.append(_board_table(server, f"{title}: established players, best first", established))
    if provisional:
        parts.append("<h2>Provisional</h2>")
        parts.append(f"<p>{text(PROVISIONAL_NOTE)}</p>")
        parts.append(_board_table(server, f"{title}: provisional players, best first", provisional))
    if pages > 1:
        prev = f'<a href="{board_href(server, board.game, board.period, page - 1)}" rel="prev">Previous</a>' if page else "<span></span>"
        nxt = (
            f'<a href="{board_href(server, board.game, board.period, page + 1)}" rel="next">Next</a>'
            if page + 1 < pages else "<span></span>"
        )
        parts.append(f'<nav class="pager" aria-label="Pages">{prev}<span>Page {page + 1} of {pages}</span>{nxt}</nav>')
    return "\n".join(parts)


CHART_W, CHART_H, PAD, LEFT = 600, 200, 30, 64
"""The chart's drawing box, its margin, and the room for the figures on the left."""
FIGURE_SIZE = 24
"""The figures' size in the drawing box: 11 px where the chart shrinks most, on a 320 px phone
(to 286 px: at 19 they were 9 px)."""
MAX_POINTS = 200


def thin(values: Sequence[int], most: int = MAX_POINTS) -> list[int]:
    """At most ``most`` values, evenly spread, the first and last kept."""
    if len(values) <= most:
        return list(values)
    step = (len(values) - 1) / (most - 1)
    return [values[round(i * step)] for i in range(most)]


def rating_svg(chart_id: str, title: str, values: Sequence[int]) -> str:
    """An inline SVG line of ratings after each rated match, with its words for a screen reader."""
    shown = thin(values)
    low, high = min(shown), max(shown)
    span = max(high - low, 1)
    n = len(shown)

    def x(i: int) -> float:
        return LEFT + (CHART_W - LEFT - PAD) * (i / (n - 1) if n > 1 else 0.5)

    def y(v: int) -> float:
        return CHART_H - PAD / 2 - (CHART_H - PAD) * (v - low) / span

    points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(shown))
    words = (
        f"{title}: from {values[0]} to {values[-1]} over {plural(len(values), 'rated match', 'rated matches')}; "
        f"highest {max(values)}, lowest {min(values)}."
    )
    return (
        f'<figure class="chart"><svg viewBox="0 0 {CHART_W} {CHART_H}" role="img" aria-labelledby="{chart_id}-t {chart_id}-d">'
        f'<title id="{chart_id}-t">{text(title)}</title><desc id="{chart_id}-d">{text(words)}</desc>'
        f'<line x1="{LEFT}" y1="{y(high):.1f}" x2="{CHART_W - PAD}" y2="{y(high):.1f}" stroke="#d9d5c8"/>'
        f'<line x1="{LEFT}" y1="{y(low):.1f}" x2="{CHART_W - PAD}" y2="{y(low):.1f}" stroke="#d9d5c8"/>'
        f'<text x="2" y="{y(high) + 8:.1f}" font-size="{FIGURE_SIZE}" fill="#4e5a54">{high}</text>'
        f'<text x="2" y="{y(low) + 8:.1f}" font-size="{FIGURE_SIZE}" fill="#4e5a54">{low}</text>'
        f'<polyline points="{points}" fill="none" stroke="#1f5e3b" stroke-width="3"/>'
        f'</svg><figcaption>{text(words)}</figcaption></figure>'
    )


def player_body(
    server: RecordServer,
    name: str,
    games: Sequence[PlayerGame],
    histories: dict[str, list[tuple[str, float]]],
    rivals: Sequence[Opponent],
) -> str:
    parts = [f"<h1>{text(name)}</h1>"]
    total = sum(g.games for g in games)
    wins = sum(g.wins for g in games)
    parts.append(f'<p class="lead">{text(server.title)} - {plural(total, "finished match", "finished matches")}, {plural(wins, "win")}</p>')
    rows = "".join(
        f'<tr><th scope="row"><a href="{board_href(server, g.game)}">{text(game_title(g.game))}</a></th>'
        f'<td class="num">{g.games}</td><td class="num">{g.wins}</td>'
        f'<td class="num">{display_rating(g.rating) if g.rating is not None else "-"}'
        f'{"<span class=tag>provisional</span>" if g.rating is not None and g.provisional else ""}</td></tr>'
        for g in games
    )
    parts.append(
        '<h2>Games</h2><div class="scroll"><table><caption>Finished matches and all-time rating, by game</caption>'
        '<thead><tr><th scope="col">Game</th><th scope="col" class="num">Matches</th><th scope="col" class="num">Wins</th>'
        f'<th scope="col" class="num">Rating</th></tr></thead><tbody>{rows}</tbody></table></div>'
    )
    charted = [(g, histories[g]) for g in sorted(histories, key=lambda g: -len(histories[g])) if len(histories[g]) >= 2]
    if charted:
        parts.append("<h2>Rating over time</h2>")
        for i, (game, history) in enumerate(charted):
            values = [display_rating(v) for _, v in history]
            parts.append(rating_svg(f"chart{i}", f"Rating in {game_title(game)}", values))
    parts.append("<h2>Head to head</h2>")
    if rivals:
        rows = "".join(
            f'<tr><th scope="row">{player_link(server, o.user_id, o.name)}</th><td class="num">{o.together}</td>'
            f'<td class="num">{o.ahead}</td><td class="num">{o.behind}</td></tr>'
            for o in rivals
        )
        parts.append(
            f'<div class="scroll"><table><caption>The players {text(name)} met most, in finished matches</caption>'
            '<thead><tr><th scope="col">Opponent</th><th scope="col" class="num">Together</th>'
            '<th scope="col" class="num">Ahead</th><th scope="col" class="num">Behind</th></tr></thead>'
            f"<tbody>{rows}</tbody></table></div>"
        )
    else:
        parts.append("<p>No finished match against another member yet.</p>")
    return "\n".join(parts)
