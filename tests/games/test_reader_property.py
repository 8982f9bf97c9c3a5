"""The reader never takes a wrong entry: every form it claims, for random legal actions of every
game (online and referee, several player counts, seats named with card words), reads back as
exactly that action or as a refusal listing the readings (see tests/games/reader_property.py).
The default run reads a short stretch of one table per game and mode; ``-m slow`` reads every
player count, both name sets and the extra options, much further into each match."""

from __future__ import annotations

import pytest

from tests.games.reader_property import Config, Tally, check_config, configs


def _assert_clean(config: Config, tally: Tally) -> None:
    assert tally.positions > 0 and tally.exact > 0, config
    assert not tally.wrong, "\n".join(tally.wrong[:20])
    assert not tally.refused, "\n".join(tally.refused[:20])


@pytest.mark.parametrize("config", configs(wide=False), ids=str)
def test_every_form_reads_back_exactly(config: Config) -> None:
    _assert_clean(config, check_config(config, seed=1, steps=5, per_position=1))


@pytest.mark.slow
@pytest.mark.parametrize("config", configs(wide=True), ids=str)
def test_every_form_reads_back_exactly_far_into_the_match(config: Config) -> None:
    _assert_clean(config, check_config(config, seed=2, steps=30, per_position=2))
