"""Stored matches as shown to people: sealed while live, replayable once over."""

from __future__ import annotations

from typing import Any

from bot.service.model import TableError
from games.engine import MatchRecord


def finished_match(data: dict[str, Any] | None, match_id: int) -> dict[str, Any]:
    """A stored match (``storage.stats.match_json``) that may be shown in full: it exists on this
    server and is no longer live. A live match's seed, deck and log would rebuild every hidden hand."""
    if data is None:
        raise TableError(f"There is no match #{match_id} on this server. /history lists them.")
    if data.get("live", data["status"] in ("lobby", "playing")):
        raise TableError(
            f"Match #{match_id} is still being played: its record is sealed until it ends "
            "(the table message shows where it stands)."
        )
    return data


def record_from_json(data: dict[str, Any]) -> MatchRecord:
    """A stored match (as ``storage.stats.match_json`` gives it) as a replayable record."""
    return MatchRecord(
        game=data["game"],
        options=data["options"],
        players=data["players"],
        seed=data["seed"],
        deck=data["deck"],
        actions=[(seat, action) for seat, action in data["actions"]],
    )
