"""Charts render as PNG files of a plausible size, from a replayed match, legible on a phone."""

from __future__ import annotations

import random

from matplotlib.text import Text

from bot.render.charts import rating_chart, score_chart, score_figure, score_progression
from bot.render.names import drawn_characters
from games.simulate import play_match
from tests.bot.test_pictures import long_names
from tests.bot.toy_game import TOY

PNG = b"\x89PNG\r\n\x1a\n"


def test_score_chart_of_a_replayed_match() -> None:
    state = play_match(TOY, 3, {"deals": 4}, seed=2)
    progression = score_progression(TOY, TOY.record(state))
    assert progression[0] == [0, 0, 0]
    assert progression[-1] == state.outcome.scores  # type: ignore[union-attr]
    assert len(progression) == 5  # the start and after each of four deals
    png = score_chart("Toy Tricks", list(state.players), progression)
    assert png.startswith(PNG) and 5_000 < len(png) < 500_000


def test_rating_chart() -> None:
    png = rating_chart("Ann - rating", [(f"2026-01-0{i}", 1.5 * i) for i in range(1, 8)])
    assert png.startswith(PNG) and 5_000 < len(png) < 500_000


def test_the_running_scores_of_thirteen_players_read_on_a_phone() -> None:
    """Ninety-Nine's thirteen, with names as Discord allows: the chart is as wide as a table's
    picture, all its text 11 px or more where a 320 px phone shows it, the legend under the plot
    (it covered the lines), each name drawable (no empty boxes for letters the font lacks) and told
    apart, each line its own colour and marker, and only whole scores on the axis."""
    players = long_names(13)
    rng = random.Random(4)
    progression = [[0] * 13]
    for _ in range(9):
        progression.append([score + rng.randint(-2, 3) for score in progression[-1]])
    fig = score_figure("Ninety-Nine - running scores", players, progression)
    fig.canvas.draw()  # type: ignore[attr-defined]
    width = fig.get_size_inches()[0] * fig.dpi
    assert width <= 464
    texts = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    assert min(float(t.get_fontsize()) * fig.dpi / 72 * 320 / width for t in texts) >= 11
    ax = fig.axes[0]
    legend = fig.legends[0]
    assert legend.get_window_extent().y1 <= ax.get_window_extent().y0  # under the plot
    labels = [t.get_text() for t in legend.get_texts()]
    drawn = drawn_characters()
    assert drawn is not None
    assert all(ch in "?# " or ord(ch) in drawn for label in labels for ch in label), labels
    assert len(set(labels)) == 13 and "山田太郎" not in labels
    styles = {(line.get_color(), line.get_marker()) for line in ax.get_lines()}
    assert len(styles) == 13
    assert all(float(t.get_text().replace("−", "-")).is_integer() for t in ax.get_yticklabels() if t.get_text())
