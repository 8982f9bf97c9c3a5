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
        (["simulate", "costly_colours", "--seats", "strong,genius"], "no bot level genius"),
        (["simulate", "costly_colours", "--seats", "easy,easy", "--players", "4"], "names 2 seats"),
        (["simulate", "parity", "--seats", "easy,easy,easy"], "not 3"),
    ],
)
def test_errors_exit_2(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    game = all_games()[0].id
    argv = [a.replace("{game}", game) for a in argv]
    with pytest.raises(SystemExit) as exit_info:
        raise SystemExit(main(argv))
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_seats_pit_levels_with_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "costly_colours", "--seats", "strong,random", "-n", "12", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    rows = {row["level"]: row for row in data["levels"]}
    assert set(rows) == {"strong", "random"} and data["matches"] == 12
    assert rows["strong"]["win_share"] + rows["random"]["win_share"] == pytest.approx(1.0)
    for row in rows.values():
        low, high = row["interval_95"]
        assert 0.0 <= low <= row["win_share"] <= high <= 1.0
    assert rows["strong"]["win_share"] > rows["random"]["win_share"]


def test_seats_table_names_each_level_once(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "hundred", "--seats", "random,random,random", "-n", "6"]) == 0
    out = capsys.readouterr().out
    assert "seats rotated" in out and "95% interval" in out
    assert [line.split()[0] for line in out.splitlines()[2:]] == ["random"]


def test_wilson_interval_matches_known_values() -> None:
    from games.simulate import wilson_interval

    low, high = wilson_interval(0.5, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(0.0, 10)[0] == 0.0


def test_wilson_interval_holds_a_share_of_all_or_nothing() -> None:
    """A pair that won all 100 matches is printed "96% to 100%", never an interval that stops
    short of the share (floating point gave 0.9999999999999999 for it)."""
    from games.simulate import wilson_interval

    for n in (1, 7, 100, 400, 1000):
        low, high = wilson_interval(1.0, n)
        assert low < 1.0 and high == 1.0
        low, high = wilson_interval(0.0, n)
        assert low == 0.0 and high > 0.0
        for wins in range(0, n + 1, max(1, n // 13)):
            low, high = wilson_interval(wins / n, n)
            assert 0.0 <= low <= wins / n <= high <= 1.0
