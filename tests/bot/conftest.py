from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from bot.tables import Table, TableService
from games.engine import Action, Event
from games.registry import register
from storage.sessions import Store
from tests.bot.toy_game import TOY

register(TOY)


class RecordingNotifier:
    """Keeps every notification, and can pretend some users have their DMs closed."""

    def __init__(self) -> None:
        self.changes: list[tuple[int, list[str], bool]] = []
        self.private: list[tuple[str, str]] = []
        self.notices: list[tuple[str, str | None]] = []
        self.closed: list[int] = []
        self.dm_blocked: set[str] = set()

    async def table_changed(self, table: Table, events: Sequence[Event], repost: bool) -> None:
        self.changes.append((table.turn, [e.text for e in events], repost))

    async def send_private(self, table: Table, seat: int, text: str) -> bool:
        user = table.seats[seat].user_id or ""
        if user in self.dm_blocked:
            return False
        self.private.append((user, text))
        return True

    async def notice(self, table: Table, text: str, mention: str | None = None) -> None:
        self.notices.append((text, mention))

    async def tell(self, table: Table, text: str, mention: str) -> bool:
        self.notices.append((text, mention))
        return True

    async def table_closed(self, table: Table) -> None:
        self.closed.append(table.id)

    async def channel_notice(self, guild_id: str, channel_id: str, text: str) -> None:
        self.notices.append((text, None))


async def stored_actions(service: TableService, table: Table) -> list[tuple[int, Action]]:
    """A table's actions as stored: a live state keeps only its recent past, the log is in storage."""
    session = await service.store.session(table.id)
    assert session is not None
    return [(seat, table.game.action_from_json(data)) for seat, data in session.actions]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "parlour.sqlite3"


@pytest.fixture
def notifier() -> RecordingNotifier:
    return RecordingNotifier()


@pytest.fixture
async def service(db_path: Path, notifier: RecordingNotifier) -> AsyncIterator[TableService]:
    store = await Store.open(db_path)
    svc = TableService(store, notifier)
    await svc.load()
    yield svc
    await svc.shutdown()
    await store.close()
