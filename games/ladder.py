"""The bot ladder of a game: how each bot level fares against the level just below it.

The figures are measured, not written: ``tests/bench/ladder.py`` plays the levels against each
other and writes ``games/ladders/<id>.json`` (package data, shipped with the games). A game
without that file shows no ladder; nothing else depends on it. The words shown to players
(``/rules``, ``python -m games rules ID``) are made here from the figures, so the file holds
numbers only::

    {"game": "hoodwink", "players": 3, "seed": 0,
     "levels": [{"level": "random", "rating": 1761},
                {"level": "easy", "against": "random", "rating": 1891, "share": 0.43,
                 "matches": 400, "interval": [0.38, 0.48]}, ...]}

``players`` is the table size measured at (the higher level holds one seat, the level below the
rest); ``seed`` the first match's seed, ``null`` where it was not recorded; ``share`` the part of
the matches the level won (a shared first place counts as a part), over ``matches`` matches with
its 95% ``interval``, either ``null`` where not recorded.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

FOLDER = "ladders"
"""The folder of ``games/`` that holds the measured ladders, one ``<id>.json`` a game."""


@dataclass(frozen=True)
class Rung:
    """One level: its displayed rating and, above the weakest level, how it fared against the
    level below (``share`` of ``matches``, ``low`` to ``high`` its 95% interval)."""

    level: str
    rating: int
    share: float | None = None
    matches: int | None = None
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True)
class Ladder:
    """A game's measured ladder: its levels weakest first, measured at ``players`` players."""

    game: str
    players: int
    seed: int | None
    rungs: tuple[Rung, ...]

    def levels(self) -> list[str]:
        return [r.level for r in self.rungs]

    def words(self, level: str) -> str:
        """How ``level`` fares, in a line: "rated 1891; wins 43% of 400 matches against ..."."""
        k = self.levels().index(level)
        rung = self.rungs[k]
        if k == 0:
            return f"rated {rung.rating}; plays any legal move"
        assert rung.share is not None, f"{self.game}: {level} has no share"
        n = self.players
        count = f"{rung.matches} matches" if rung.matches is not None else "matches"
        others = f"{_count(n)} {self.rungs[k - 1].level} bot{'s' if n > 2 else ''}"
        fair = f"a fair share is {round(100 / n)}%"
        if rung.low is not None and rung.high is not None:
            fair = f"95% interval {_percent(rung.low)} to {_percent(rung.high)}; {fair}"
        return f"rated {rung.rating}; wins {_percent(rung.share)} of {count} against {others} ({fair})"

    def lines(self) -> list[str]:
        """Every level with its words, weakest first ("easy: rated 1891; wins ...")."""
        return [f"{level}: {self.words(level)}" for level in self.levels()]

    def to_json(self) -> dict[str, Any]:
        levels: list[dict[str, Any]] = []
        for k, r in enumerate(self.rungs):
            entry: dict[str, Any] = {"level": r.level, "rating": r.rating}
            if k > 0:
                entry |= {
                    "against": self.rungs[k - 1].level,
                    "share": r.share,
                    "matches": r.matches,
                    "interval": None if r.low is None or r.high is None else [r.low, r.high],
                }
            levels.append(entry)
        return {"game": self.game, "players": self.players, "seed": self.seed, "levels": levels}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Ladder:
        """The ladder a file holds; raises ``ValueError`` saying what is wrong with it."""
        rungs = []
        levels = data["levels"]
        for k, entry in enumerate(levels):
            if k > 0 and entry.get("against") != levels[k - 1]["level"]:
                raise ValueError(f"{data['game']}: {entry['level']} must be measured against {levels[k - 1]['level']}")
            if k > 0 and entry.get("share") is None:
                raise ValueError(f"{data['game']}: {entry['level']} has no share")
            low, high = entry.get("interval") or (None, None)
            rungs.append(Rung(entry["level"], int(entry["rating"]), entry.get("share"), entry.get("matches"), low, high))
        return cls(str(data["game"]), int(data["players"]), data.get("seed"), tuple(rungs))


def dumps(ladder: Ladder) -> str:
    """The file's text: one level a line, so a re-measurement reads as a short diff."""
    data = ladder.to_json()
    levels = ",\n".join(f"    {json.dumps(entry)}" for entry in data.pop("levels"))
    head = json.dumps(data)[1:-1]
    return f'{{{head}, "levels": [\n{levels}\n]}}\n'


@cache
def load(game_id: str) -> Ladder | None:
    """The measured ladder of a game, or ``None`` if it has not been measured."""
    found = resources.files("games") / FOLDER / f"{game_id}.json"
    if not found.is_file():
        return None
    ladder = Ladder.from_json(json.loads(found.read_text(encoding="utf-8")))
    if ladder.game != game_id:
        raise ValueError(f"{FOLDER}/{game_id}.json holds the ladder of {ladder.game!r}")
    return ladder


def _count(n: int) -> str:
    return {2: "one", 3: "two", 4: "three", 5: "four"}.get(n, str(n - 1))


def _percent(x: float) -> str:
    return f"{round(100 * x)}%"
