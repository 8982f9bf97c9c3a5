"""The Activity instance launched from a table's message is kept with that table (issue 30): in
storage on SQLite and PostgreSQL, across a restart, and the page of that instance finds its table
by it (or hears that its match is over). SimCord does not implement the launch's answer, so the
button's side is the one line that hands Discord's instance id to ``keep_activity``."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp
import pytest

from bot.tables import TableError, TableService
from storage.sessions import Store
from tests.bench.bench_tables import QuietNotifier
from tests.bot.conftest import RecordingNotifier
from tests.web.conftest import CHANNEL, GUILD, INSTANCE_ID, Site, log_in, open_tab, user
from tests.web.test_server import start_table


async def test_an_instance_is_kept_with_its_table_across_a_restart(database: str) -> None:
    store = await Store.open(database)
    service = TableService(store, QuietNotifier())
    try:
        await service.open_table("1", "2", user("ann"), "parity")
        await service.join("1", "2", user("bob"))
        table = await service.start("1", "2", user("ann"))
        assert await service.activity_table("i-1") is None
        await service.keep_activity("1", "2", "i-1", session=table.id)
        await service.keep_activity("1", "2", "i-2", session=table.id)  # launched again: the latest wins
    finally:
        await service.shutdown()
        await store.close()

    store = await Store.open(database)
    service = TableService(store, QuietNotifier())
    try:
        assert await service.load() == 1
        assert await service.activity_table("i-2") == {"id": table.id, "guild_id": "1", "channel_id": "2", "status": "playing"}
        assert await service.activity_table("i-1") is None
        # a click on an earlier table's message is refused, and keeps nothing
        with pytest.raises(TableError, match="earlier table"):
            await service.keep_activity("1", "2", "i-3", session=table.id + 1)
        assert await service.activity_table("i-3") is None
        await service.abandon("1", "2", user("ann"))
        assert (await service.activity_table("i-2") or {}).get("status") == "abandoned"
        with pytest.raises(TableError, match="no table"):
            await service.keep_activity("1", "2", "i-4", session=table.id)
        assert await service.activity_table("i-4") is None
    finally:
        await service.shutdown()
        await store.close()


async def test_a_launch_racing_the_tables_end_is_kept_only_while_it_is_open(tmp_path: Path) -> None:
    """Both under the channel's lock: the launch is kept before the table closes, or refused after."""
    for first in ("keep", "abandon"):
        store = await Store.open(f"{tmp_path}/{first}.sqlite3")
        service = TableService(store, RecordingNotifier())
        try:
            await service.open_table("1", "2", user("ann"), "parity")
            await service.join("1", "2", user("bob"))
            table = await service.start("1", "2", user("ann"))
            keep = service.keep_activity("1", "2", "i-9", session=table.id)
            end = service.abandon("1", "2", user("ann"))
            results = await asyncio.gather(*((keep, end) if first == "keep" else (end, keep)), return_exceptions=True)
            kept = await service.activity_table("i-9")
            if first == "keep":
                assert results == [None, None] and kept is not None and kept["status"] == "abandoned"
            else:
                assert isinstance(results[1], TableError) and kept is None
        finally:
            await service.shutdown()
            await store.close()


async def activity_frame(site: Site, name: str) -> dict[str, object]:
    site.stand_in.in_instance.add(name)
    async with aiohttp.ClientSession() as http:
        session = await log_in(http, site, name)
        tab = await open_tab(http, site, {"session": session, "instance": INSTANCE_ID})
        frame = await tab.next()
        await tab.ws.close()
    return frame


async def test_the_instances_page_finds_its_table_after_a_restart_and_hears_when_its_match_ended(site: Site) -> None:
    await start_table(site.service)
    table = site.service.require_table(GUILD, CHANNEL)
    await site.service.keep_activity(GUILD, CHANNEL, INSTANCE_ID, session=table.id)
    await site.stop()
    await site.start()

    frame = await activity_frame(site, "ann")
    assert frame["type"] == "table" and frame["table"] == table.id and frame["seat"] == 0

    await site.service.abandon(GUILD, CHANNEL, user("ann"))
    await site.stop()
    await site.start()
    frame = await activity_frame(site, "ann")
    assert frame == {"type": "refused", "text": "The match this Activity was opened for is over: its result is in the channel.", "fatal": True}


async def test_an_instance_that_discord_places_in_another_channel_than_its_table_is_refused(site: Site) -> None:
    await start_table(site.service)
    table = site.service.require_table(GUILD, CHANNEL)
    await site.service.keep_activity(GUILD, CHANNEL, INSTANCE_ID, session=table.id)
    site.stand_in.channel_id = "21"
    frame = await activity_frame(site, "ann")
    assert frame["type"] == "refused" and "another channel" in str(frame["text"])
    assert site.service.require_table(GUILD, CHANNEL).turn == table.turn  # nothing changed
