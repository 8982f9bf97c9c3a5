"""The capacity benchmark's harness works: a bot in a process of its own, started as production
starts it, plays through SimCord's Discord served over HTTP and a gateway websocket
(``tests/bench/simdiscord.py``). Tables are opened, joined and started with real interactions,
every click is answered, the moves land in the bot's action log, and the answers carry pictures.
Slow (a bot process starts): run with ``-m slow``."""

from __future__ import annotations

import asyncio

import pytest

from tests.bench.bench_capacity import run

pytestmark = pytest.mark.slow


def test_a_bot_in_its_own_process_serves_clicks_through_the_simulated_discord(
    capsys: pytest.CaptureFixture[str],
) -> None:
    steps = asyncio.run(run([3], seconds=8.0, workers=1, seed=3, profile=None, pace=(0.5, 1.5)))
    assert len(steps) == 1
    step = steps[0]
    printed = capsys.readouterr().out
    assert "could not be opened" not in printed, printed
    assert step.tables == 3
    assert step.clicks >= 6 and step.unanswered == 0 and len(step.latencies) == step.clicks
    assert 0 < step.moves <= step.clicks  # a click on a view a turn behind is refused, not played
    assert step.pictured, "the answers showed their pictures"
    assert step.calls >= step.moves  # each move answered through the simulated Discord's REST routes
    assert step.bot_cpu > 0 and step.workers_cpu > 0  # the bot's process and its picture worker did the work
