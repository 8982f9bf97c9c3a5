"""The bot ladder: every level of every game says how it fares (measured by tests/bench/ladder.py;
this checks the words are there and shown with the rules, not the figures)."""

from __future__ import annotations

from games.registry import catalogue, ladder_lines
from tests.bench.ladder import _LADDER, module_path


def test_every_level_of_every_game_has_its_ladder_entry() -> None:
    for found in catalogue():
        assert set(found.ladder) == set(found.levels()), found.id
        for level in found.levels():
            assert found.ladder[level].startswith("rated "), (found.id, level)
            if level != "random":
                assert "% of matches against" in found.ladder[level], (found.id, level)
        lines = ladder_lines(found.id)
        assert [line.split(":")[0] for line in lines] == found.levels()


def test_the_script_finds_the_ladder_it_writes() -> None:
    for found in catalogue():
        assert _LADDER.search(module_path(found.id).read_text()), found.id
