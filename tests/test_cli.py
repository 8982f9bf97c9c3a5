"""The `games` command line: list, rules, simulate, and its errors (exit status 2)."""

from __future__ import annotations

import json

import pytest

from games.__main__ import main
from games.registry import all_games


def test_list_names_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for g in all_games():
        assert g.id in out and g.title in out


def test_rules_of_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    for g in all_games():
        assert main(["rules", g.id]) == 0
        out = capsys.readouterr().out
        assert g.title in out and len(out) > 200


@pytest.mark.parametrize("game", [g.id for g in all_games()])
def test_simulate_json(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", game, "-n", "3", "--seed", "5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    for key in ("game", "players", "matches", "deals", "actions", "seconds", "matches_per_second", "mean_score"):
        assert key in data
    assert data["game"] == game and data["matches"] == 3 and data["deals"] >= 3
    assert len(data["mean_score"]) == data["players"]


def test_simulate_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    game = all_games()[0].id
    main(["simulate", game, "-n", "4", "--seed", "9", "--json"])
    first = json.loads(capsys.readouterr().out)
    main(["simulate", game, "-n", "4", "--seed", "9", "--json"])
    second = json.loads(capsys.readouterr().out)
    assert first["mean_score"] == second["mean_score"] and first["actions"] == second["actions"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "chess"], "no game called 'chess'"),
        (["rules", "chess"], "no game called 'chess'"),
        (["simulate", "{game}", "--option", "colour=red"], "no option 'colour'"),
        (["simulate", "{game}", "--option", "novalue"], "name=value"),
        (["simulate", "{game}", "--players", "99"], "not 99"),
        (["simulate", "{game}", "-n", "x"], "invalid int"),
        (["fly"], "invalid choice"),
    ],
)
def test_errors_exit_2(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    game = all_games()[0].id
    argv = [a.replace("{game}", game) for a in argv]
    with pytest.raises(SystemExit) as exit_info:
        raise SystemExit(main(argv))
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err
