"""Charts render as PNG files of a plausible size, from a replayed match."""

from __future__ import annotations

from bot.render.charts import rating_chart, score_chart, score_progression
from games.simulate import play_match
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
