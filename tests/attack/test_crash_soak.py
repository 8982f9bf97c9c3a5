"""The crash soak (``tests/attack/crash_soak.py``): random play at many tables in a process
killed with SIGKILL at random moments. Nothing acknowledged is lost; every table can finish."""

from __future__ import annotations

import pytest

from tests.attack.crash_soak import run


def test_a_short_crash_soak_loses_nothing_and_every_table_finishes() -> None:
    soak = run(tables=8, kills=3, seed=5)
    assert soak.kills == 3 and len(soak.acked) > 100 and soak.tables >= 8
    assert soak.lost == [] and soak.stuck == [] and soak.unfinished == []


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_long_crash_soak(seed: int) -> None:
    soak = run(tables=30, kills=12, seed=seed)
    print(soak.figures())
    assert soak.lost == [] and soak.stuck == [] and soak.unfinished == []
