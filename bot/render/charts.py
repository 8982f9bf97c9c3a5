"""PNG charts: the running scores of a match, and a member's rating over time (matplotlib, no screen).

The charts are drawn in worker threads (``asyncio.to_thread``) or the bot's picture workers
(:func:`match_chart_png`), so they use matplotlib's object API only: a ``Figure`` of its own with an Agg canvas per chart, never pyplot (whose global figure
registry and current-figure state are not thread-safe). matplotlib is imported when the first
chart is drawn, not when this module is, so starting the bot or the console does not pay for it.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from games.engine import Game, MatchRecord

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


def score_progression(game: Game[Any], record: MatchRecord) -> list[list[int]]:
    """The running scores at the start and after each deal, by replaying the match's log."""
    state = game.start(record.players, record.options, record.seed, record.deck)
    points = [list(state.scores)]
    deal = state.deal_no
    for _step in game.replay_steps(record, state):
        if state.deal_no != deal or state.is_over:
            deal = state.deal_no
            if state.scores != points[-1]:
                points.append(list(state.scores))
    if state.outcome is not None and state.outcome.scores != points[-1]:
        points.append(list(state.outcome.scores))
    return points


def match_chart_png(game: Game[Any] | tuple[str, str], record: MatchRecord, players: list[str]) -> bytes:
    """The running scores of a finished match as a PNG; empty when it had one deal (the final
    scores say it all). Run in a picture worker (:meth:`bot.render.pool.Drawer.call`): a
    replay of the match and matplotlib's drawing, a tenth of a second and more of CPU.
    ``game``: the game, or what names it in the catalogue, ``(mode, id)`` (:func:`game_name`),
    which travels to a worker where a game object (its cached schemas) may not."""
    if isinstance(game, tuple):
        from games.registry import get_game, referee_game

        mode, game_id = game
        game = referee_game(game_id) if mode == "referee" else get_game(game_id)
    progression = score_progression(game, record)
    if len(progression) < 3:  # the start and one deal
        return b""
    return score_chart(f"{game.title} - running scores", players, progression)


def game_name(game: Game[Any], mode: str) -> Game[Any] | tuple[str, str]:
    """``(mode, id)`` for a game of the catalogue (a table's, in its mode), else the game itself."""
    from games.registry import get_game, referee_game

    try:
        named = referee_game(game.id) if mode == "referee" else get_game(game.id)
    except Exception:  # not in the catalogue (a test's game)
        return game
    return (mode, game.id) if named is game else game


def _figure() -> tuple[Figure, Axes]:
    """A new figure on its own Agg canvas, with one set of axes; nothing global is touched."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6, 3.2))
    FigureCanvasAgg(fig)
    return fig, fig.add_subplot()


def _png(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
    return buf.getvalue()


def score_chart(title: str, players: Sequence[str], progression: Sequence[Sequence[int]]) -> bytes:
    """A line per player: running score after each deal."""
    from matplotlib.ticker import MaxNLocator

    fig, ax = _figure()
    xs = list(range(len(progression)))
    for seat, name in enumerate(players):
        ax.plot(xs, [p[seat] for p in progression], marker="o", label=name)
    ax.set_title(title)
    ax.set_xlabel("deal")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # deals are whole: no tick at 1.5
    ax.set_ylabel("score")
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize="small")
    return _png(fig)


def rating_chart(title: str, history: Sequence[tuple[str, float]]) -> bytes:
    """A member's conservative rating after each rated match."""
    from matplotlib.ticker import MaxNLocator

    fig, ax = _figure()
    ax.plot(range(1, len(history) + 1), [v for _, v in history], marker=".")
    ax.set_title(title)
    ax.set_xlabel("rated match")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("rating")
    ax.grid(alpha=0.3)
    return _png(fig)


def board_chart(title: str, rows: Sequence[tuple[str, int]]) -> bytes:
    """A leaderboard's top players as horizontal bars of their rating (a link's preview picture)."""
    fig, ax = _figure()
    names = [name for name, _ in rows][::-1]
    values = [value for _, value in rows][::-1]
    bars = ax.barh(range(len(rows)), values, color="#1f5e3b")
    ax.set_yticks(range(len(rows)), names)
    ax.bar_label(bars, padding=3)
    ax.set_title(title)
    ax.set_xlabel("rating")
    ax.set_xlim(0, max(values, default=1000) * 1.15)
    return _png(fig)
