"""The notifier never waits for Discord while the service holds a table's lock, and coalesces."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.discord.notifier import DiscordNotifier, Job
from bot.tables import Table
from storage.sessions import SeatRecord
from tests.bot.toy_game import TOY


def toy_table(table_id: int, channel: str) -> Table:
    return Table(table_id, "1", channel, TOY, TOY.options({}), "9", [SeatRecord("ann", "9")], 1)


class SlowNotifier(DiscordNotifier):
    """Records the jobs it performs; each waits until the test lets Discord answer."""

    def __init__(self) -> None:
        super().__init__(client=None, store=None)  # type: ignore[arg-type]
        self.done: list[tuple[str, int]] = []
        self.discord_answers = asyncio.Event()

    async def perform(self, job: Job) -> None:
        await self.discord_answers.wait()
        self.done.append((job.kind, job.table.id))


async def test_changes_return_at_once_and_rapid_edits_coalesce() -> None:
    notifier = SlowNotifier()
    table, other = toy_table(1, "10"), toy_table(2, "20")
    calls: list[Any] = [
        notifier.table_changed(table, [], repost=True),
        notifier.table_changed(table, [], repost=False),
        notifier.table_changed(table, [], repost=False),
        notifier.notice(table, "hello"),
        notifier.table_changed(table, [], repost=False),
        notifier.table_changed(other, [], repost=False),
        notifier.table_changed(table, [], repost=True),
        notifier.table_closed(table),
    ]
    for call in calls:  # none of these waits for Discord (which never answers until told to)
        await asyncio.wait_for(call, 30)
    assert notifier.done == []
    notifier.discord_answers.set()
    await notifier.drain()
    # the first post is under way when the rest come: three edits collapse into one, which the
    # later re-post then replaces (every job renders the table as it is when it runs); notices
    # and the close keep their order; another channel has its own queue
    assert [k for k, t in notifier.done if t == 1] == ["post", "notice", "post", "close"]
    assert [k for k, t in notifier.done if t == 2] == ["edit"]
