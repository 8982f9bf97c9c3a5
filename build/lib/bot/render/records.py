"""Text for leaderboards, statistics, match history and replays, shared by Discord and the console."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from bot.service.model import TableError
from games.engine import Game, MatchRecord
from games.registry import get_game, referee_game
from storage.ratings import DISPLAY_BASE, DISPLAY_SCALE, PROVISIONAL_GAMES, PROVISIONAL_SIGMA, display_rating
from storage.stats import PERIODS, Board, Period, PlayerStats

PAGE_CHARS = 3800
"""A replay page fits an embed description (4096) with room to spare."""

RATING_HELP = (
    f"Ratings use openskill's Plackett-Luce model. The figure shown is {DISPLAY_BASE} + {DISPLAY_SCALE} x "
    f"(mu - 3 sigma), a cautious estimate: everyone starts at {DISPLAY_BASE}, and it climbs as results make "
    f"a player's skill surer. A player is provisional until they have {PROVISIONAL_GAMES} rated games and a "
    f"sigma of {PROVISIONAL_SIGMA} or less. Matches with bots, a bot standing in after a timeout, an abandoned "
    "game, or unconfirmed referee entries are not rated; a player who walks out of a rated match ranks last."
)


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 game``, ``2 games``, ``0 games``."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def board_row_text(name: str, ordinal: float, games: int, wins: int, win_rate: float) -> str:
    return f"{name} - {display_rating(ordinal)} - {plural(games, 'game')}, {plural(wins, 'win')} ({win_rate:.0%})"


def period_of(text: str | None) -> Period:
    """A leaderboard period as typed (``all`` when none), or a refusal naming the choices."""
    period = (text or "all").strip().lower()
    if period not in PERIODS:
        raise TableError(f"The period is one of {', '.join(PERIODS)}.")
    return cast(Period, period)


def game_title(game_id: str) -> str:
    try:
        return get_game(game_id).title
    except Exception:  # a game removed since: show its id
        return game_id


def leaderboard_lines(board: Board) -> list[str]:
    title = game_title(board.game)
    scope = {"all": "all time", "season": f"season {board.season}", "month": "last 30 days", "week": "last 7 days"}[
        board.period
    ]
    lines = [f"{title} leaderboard - {scope}"]
    if not board.rows:
        return [*lines, "No rated games yet."]
    established = [r for r in board.rows if not r.provisional]
    provisional = [r for r in board.rows if r.provisional]
    for r in established:
        lines.append(f"{r.rank:>3}. " + board_row_text(r.name, r.rating, r.games, r.wins, r.win_rate))
    if provisional:
        lines.append("Provisional:")
        for r in provisional:
            lines.append("  " + board_row_text(r.name, r.rating, r.games, r.wins, r.win_rate))
    return lines


def stats_lines(name: str, stats: PlayerStats, game: str | None, h2h: tuple[str, int, int, int] | None = None) -> list[str]:
    where = game_title(game) if game else "all games"
    lines = [f"{name} - {where}"]
    if not stats.games:
        return [*lines, "No finished games yet."]
    lines.append(f"Games {stats.games}, wins {stats.wins} ({stats.wins / stats.games:.0%})")
    lines.append(f"Average score {stats.average_score:g}, best {stats.best_score}")
    if stats.favourite_game:
        lines.append(f"Favourite game: {game_title(stats.favourite_game)}")
    if stats.rating is not None:
        tag = " (provisional)" if stats.provisional else ""
        lines.append(f"Rating {display_rating(stats.rating)}{tag}")
    if h2h is not None:
        other, together, ahead, behind = h2h
        lines.append(f"Against {other}: {plural(together, 'game')} together, ahead {ahead}, behind {behind}")
    return lines


def history_lines(matches: Sequence[dict[str, Any]]) -> list[str]:
    if not matches:
        return ["No matches played yet."]
    lines = []
    for m in matches:
        players = ", ".join(f"{p['name']} {p['score']}" for p in sorted(m["players"], key=lambda p: p["rank"]))
        tags = []
        if m.get("status") == "abandoned":
            tags.append("abandoned")
        if m.get("mode") == "referee":
            tags.append("refereed")
        if not m["rated"] and m.get("status") != "abandoned":  # an abandoned match is never rated
            tags.append("unrated")
        tag = f" ({', '.join(tags)})" if tags else ""
        lines.append(f"#{m['session_id']} {game_title(m['game'])} {m['finished_at'][:10]}: {players}{tag}")
    return lines


def replay_pages(record: MatchRecord, mode: str = "online") -> list[str]:
    """The public events of a match, deal by deal, cut into pages of text."""
    game: Game[Any] = referee_game(record.game) if mode == "referee" else get_game(record.game)
    state = game.start(record.players, record.options, record.seed, record.deck)
    blocks: list[list[str]] = [[f"Deal {state.deal_no}"]]
    deal = state.deal_no
    for _number, _seat, _action, events in game.replay_steps(record, state):
        for e in events:
            if e.to is None:
                blocks[-1].append(e.text)
        if state.deal_no != deal and not state.is_over:
            deal = state.deal_no
            blocks.append([f"Deal {deal}"])
    if state.outcome is not None:
        scores = ", ".join(f"{p} {s}" for p, s in zip(record.players, state.outcome.scores, strict=True))
        blocks[-1].append(f"Final scores: {scores}")
    pages: list[str] = []
    current = ""
    for block in blocks:
        text = "\n".join(block)
        while len(text) > PAGE_CHARS:  # a very long deal spans several pages
            cut = text.rfind("\n", 0, PAGE_CHARS)
            cut = cut if cut > 0 else PAGE_CHARS
            if current:
                pages.append(current)
                current = ""
            pages.append(text[:cut])
            text = text[cut:].lstrip("\n")
        if current and len(current) + len(text) + 2 > PAGE_CHARS:
            pages.append(current)
            current = ""
        current = f"{current}\n\n{text}" if current else text
    if current:
        pages.append(current)
    return pages
