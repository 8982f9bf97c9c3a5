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


def _figure(height: float = 3.0) -> tuple[Figure, Axes]:
    """A new figure :data:`CHART_W` inches wide (460 px) on its own Agg canvas, laid out by
    matplotlib's constrained layout, with one set of axes; nothing global is touched."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(CHART_W, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig, fig.add_subplot()


def _png(fig: Figure) -> bytes:
    """The figure at 100 dots an inch, its size as made (a tight box would change its width)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    return buf.getvalue()


def _labelled(ax: Axes, title: str, x: str, y: str) -> None:
    """Title, axis labels and ticks at the size a phone reads (:data:`TEXT_PT`), a light grid."""
    ax.set_title(title, fontsize=TEXT_PT + 1)
    ax.set_xlabel(x, fontsize=TEXT_PT)
    ax.set_ylabel(y, fontsize=TEXT_PT)
    ax.tick_params(labelsize=TEXT_PT)
    ax.grid(alpha=0.3)


CHART_W = 4.6
"""The match chart's width in inches, at 100 dots an inch: 460 px, as wide as a table's picture,
so its 16 px text is 11 px where a 320 px phone shows it (:data:`TEXT_PT`)."""
TEXT_PT = 11.5
"""The chart's text (ticks, axis labels, legend), in points: 16 px at 100 dots an inch."""
LEGEND_NAME_W = 120
"""The widest a player's name is in the legend, in pixels of the pictures' bold 16 px (three
names and their markers a line)."""
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
"""A marker a seat, with matplotlib's ten colours: seats 1 and 11 share a colour, not a marker."""


def score_chart(title: str, players: Sequence[str], progression: Sequence[Sequence[int]]) -> bytes:
    """A line per player: running score after each deal (:func:`score_figure`)."""
    return _png(score_figure(title, players, progression))


def score_figure(title: str, players: Sequence[str], progression: Sequence[Sequence[int]]) -> Figure:
    """The running scores' figure. The legend is under the plot (a table of
    13 covered its lines), three names a line, each name as the table's pictures draw it (the
    font's missing letters as "?", cut and told apart: :func:`bot.render.names.fitted`)."""
    from matplotlib.ticker import MaxNLocator

    from bot.render.names import fitted

    rows = -(-len(players) // 3)
    fig, ax = _figure(2.7 + 0.3 * rows)
    xs = list(range(len(progression)))
    names = fitted(tuple(players), LEGEND_NAME_W)
    for seat, name in enumerate(names):
        marker = MARKERS[seat % len(MARKERS)]
        ax.plot(xs, [p[seat] for p in progression], marker=marker, markersize=6, label=name)
    _labelled(ax, title, "deal", "score")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # deals are whole: no tick at 1.5
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # and so are scores: no tick at 2.5
    fig.legend(
        loc="outside lower center", ncols=min(3, len(players)), fontsize=TEXT_PT, frameon=False,
        handlelength=1.5, columnspacing=1.0, handletextpad=0.4,
    )
    return fig


def rating_chart(title: str, history: Sequence[tuple[str, float]]) -> bytes:
    """A member's conservative rating after each rated match."""
    from matplotlib.ticker import MaxNLocator

    fig, ax = _figure()
    ax.plot(range(1, len(history) + 1), [v for _, v in history], marker=".")
    _labelled(ax, title, "rated match", "rating")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    return _png(fig)


def board_chart(title: str, rows: Sequence[tuple[str, int]]) -> bytes:
    """A leaderboard's top players as horizontal bars of their rating (a link's preview picture)."""
    from bot.render.names import fitted

    fig, ax = _figure(3.4)
    names = list(fitted(tuple(name for name, _ in rows), LEGEND_NAME_W))[::-1]
    values = [value for _, value in rows][::-1]
    bars = ax.barh(range(len(rows)), values, color="#1f5e3b")
    ax.set_yticks(range(len(rows)), names)
    ax.bar_label(bars, padding=3, fontsize=TEXT_PT)
    _labelled(ax, title, "rating", "")
    ax.grid(False)
    ax.set_xlim(0, max(values, default=1000) * 1.15)
    return _png(fig)
