"""The capacity benchmark's harness works: a bot in a process of its own, started as production
starts it, plays through SimCord's Discord served over HTTP and a gateway websocket
(``tests/bench/simdiscord.py``). Tables are opened, joined and started with real interactions,
every click is answered, the moves land in the bot's action log, and the answers carry pictures.
Slow (a bot process starts): run with ``-m slow``."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.bench.bench_capacity import ROOT, old_tree, run, run_bots

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


def test_an_old_revision_runs_beside_today_in_the_same_steps(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--old``: a revision's tree extracted (with the optional speed-ups it did not depend on
    hidden from it) and its bot run beside today's, each serving its own tables."""
    old = old_tree("HEAD", tmp_path)
    assert (old / "bot" / "discord" / "client.py").is_file()
    runs = asyncio.run(
        run_bots([old, ROOT], [2], seconds=6.0, workers=1, seed=3, profile=None, pace=(0.5, 1.5), labels=["old", "today"])
    )
    printed = capsys.readouterr().out
    assert "could not be opened" not in printed, printed
    assert [len(steps) for steps in runs] == [1, 1]
    for (step,) in runs:
        assert step.tables == 2 and step.moves > 0 and step.unanswered == 0
        assert 0 < step.loop_cpu <= step.bot_cpu  # the main thread is part of the process
    assert printed.count("\nold ") + printed.startswith("old ") == 1 and "\ntoday " in printed
