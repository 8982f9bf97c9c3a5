"""The final places as players are shown them: shared places marked, never a Markdown list, and a
player who walked out last everywhere (the result message, the picture's ranking)."""

from __future__ import annotations

from typing import Any

from bot.discord.embeds import result_lines
from bot.service.model import public_view
from bot.tables import Table
from games.engine import Outcome
from games.registry import get_game
from storage.sessions import SeatRecord


def finished_table(scores: list[int], left: int | None = None) -> Table:
    game = get_game("fifty_one")
    names = ["ann", "bob", "cat"][: len(scores)]
    state: Any = game.start(names, {}, seed=1)
    state.finish(Outcome.from_scores(scores, higher_is_better=True))
    seats = [SeatRecord(n, user_id=str(100 + i), left_at=5 if i == left else None) for i, n in enumerate(names)]
    return Table(1, "10", "20", game, state.options, "100", seats, 1, status="playing", state=state)


def test_a_shared_place_is_marked_for_each_player_and_never_renumbered() -> None:
    table = finished_table([30, 30, 10])
    lines = result_lines(table, public_view(table))[:3]
    assert [line.split(" ")[0] for line in lines] == ["1st=", "1st=", "3rd"]
    assert not any(line[0].isdigit() and line[1:3] == ". " for line in lines)


def test_a_player_who_walked_out_ranks_last_in_the_result_and_the_picture() -> None:
    table = finished_table([40, 20, 10], left=0)  # ann scored most, but walked out
    view = public_view(table)
    assert view.outcome is not None and view.outcome.ranks == [3, 1, 2]
    lines = result_lines(table, view)[:3]
    assert [line.split(" ")[:2] for line in lines] == [["1st", "bob"], ["2nd", "cat"], ["3rd", "ann"]]
    ranking = [a for a in view.layout().areas if getattr(a, "title", "") == "Final result"]
    assert ranking and [line.name for line in ranking[0].lines][-1] == "ann"
