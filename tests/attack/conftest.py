"""The simulated Discord of tests/bot/discord, with a stricter and a looser eye on the logs.

``world`` here is the same guild, channel, members and real ParlourBot on a fresh SQLite database
as in tests/bot/discord/conftest.py. At teardown it fails the test on any exception the bot let
escape (SimCord's captured errors), on any log record at ERROR or above from any logger (a flow's
``log.exception``, discord.py's "Ignoring exception in ..."), and on any bot warning the test did
not say it expects (``world.expect_warnings(pattern)``: fault tests expect "HTTP 500" and the like).
"""

from __future__ import annotations

import logging
import re
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from games.registry import register
from tests.bot.discord.conftest import World, running_world
from tests.bot.toy_game import TOY

register(TOY)


@dataclass
class AttackWorld(World):
    expected_warnings: list[re.Pattern[str]] = field(default_factory=list)

    def expect_warnings(self, *patterns: str) -> None:
        self.expected_warnings += [re.compile(p) for p in patterns]

    def stored_actions(self, session: int) -> list[tuple[Any, ...]]:
        """The ``actions`` rows of a session as SQLite holds them (read on a separate connection)."""
        with sqlite3.connect(self.db_path) as conn:
            return conn.execute(
                "SELECT seq, seat, action, actor_id FROM actions WHERE session_id = ? ORDER BY seq",
                (session,),
            ).fetchall()


def troubles(records: list[logging.LogRecord], expected: list[re.Pattern[str]]) -> list[str]:
    """Log records a clean run must not have: errors anywhere, unexpected warnings of the bot."""
    out: list[str] = []
    for r in records:
        message = r.getMessage()
        if (
            r.levelno >= logging.ERROR
            or (r.exc_info and r.name.startswith("bot."))
            or (
                r.levelno >= logging.WARNING
                and r.name.startswith("bot.")
                and not any(p.search(message) for p in expected)
            )
        ):
            out.append(f"{r.name}: {message}")
    return out


@pytest.fixture
async def world(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> AsyncIterator[AttackWorld]:
    async with running_world(AttackWorld, tmp_path, caplog) as w:
        yield w
    found = troubles(caplog.records, w.expected_warnings)
    assert not found, "the bot logged troubles: " + "; ".join(found[:20])
