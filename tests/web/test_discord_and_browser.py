"""One table, two transports: the bot in a simulated Discord (SimCord) with its live table on, one
player in Discord's chat and the other in a browser page, to the end of the match, with one record.
And the table message's "Open the table": Discord refuses to launch an Activity the application
does not have (SimCord does not know the callback at all), so the player gets the page's address."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web

from bot.settings import Settings
from bot.web.server import SESSION_COOKIE
from bot.web.sessions import WebUser
from storage.stats import history
from tests.bot.discord.conftest import (
    GUILD_ID,
    World,
    labels,
    play_turn,
    reply_text,
    simulated_world,
    start_game,
)
from tests.web.browser import DESKTOP, chromium
from tests.web.conftest import free_port
from tests.web.discord_stand_in import StandIn
from tests.web.test_browser import click_a_move


@pytest.fixture
async def live_world(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> AsyncIterator[tuple[World, str]]:
    caplog.set_level(logging.INFO)
    stand_in = StandIn({}, str(GUILD_ID), "0")
    runner = web.AppRunner(stand_in.app())
    await runner.setup()
    api_port = free_port()
    await web.TCPSite(runner, "127.0.0.1", api_port).start()
    async with simulated_world(World, tmp_path / "parlour.sqlite3") as world:
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        world.bot.settings = Settings(
            DISCORD_TOKEN=None,
            PARLOUR_DB=str(world.db_path),
            PARLOUR_DEV_GUILD=GUILD_ID,
            PARLOUR_PUBLIC_URL=url,
            DISCORD_CLIENT_SECRET="secret",
            PARLOUR_WEB_PORT=port,
        )
        await world.bot.start_live_table(discord_api=f"http://127.0.0.1:{api_port}")
        yield world, url
    await runner.cleanup()


async def test_a_match_played_half_in_discord_and_half_in_a_browser_has_one_record(live_world: tuple[World, str]) -> None:
    world, url = live_world
    table = await start_game(world, "fifty_one", players=2)
    assert "Open the table" in labels(world.table_message(table))
    opened = await world.bob.click(world.table_message(table), label="Open the table")
    assert f"{url}/t/{GUILD_ID}/{world.channel.id}" in reply_text(opened)

    site = world.bot.live_site
    assert site is not None
    ann = str(world.ann.id)
    async with chromium() as browser:
        context = await browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
        token = site.server.sessions.issue(WebUser(ann, "Ann"))
        await context.add_cookies([{"name": SESSION_COOKIE, "value": token, "url": url}])
        page = await context.new_page()
        await page.goto(f"{url}/t/{GUILD_ID}/{world.channel.id}")
        browser_moves = chat_moves = 0
        while world.table is not None and table.state is not None and not table.state.is_over:
            turn = table.turn
            await page.wait_for_selector(f'main.table[data-turn="{turn}"]', timeout=10_000)
            if table.seats[min(table.state.awaiting())].user_id == ann:
                await click_a_move(page)
                await page.wait_for_selector(f'main.table:not([data-turn="{turn}"])', timeout=10_000)
                browser_moves += 1
            else:
                await play_turn(world)
                chat_moves += 1
            await world.settle()
            assert browser_moves + chat_moves < 400
        await page.wait_for_selector("main.table .turn", timeout=10_000)
    assert browser_moves >= 3 and chat_moves >= 3
    await world.settle()
    matches = await history(world.bot.store.conn, str(GUILD_ID))
    assert len(matches) == 1 and matches[0]["status"] == "finished"
    assert {p["user_id"] for p in matches[0]["players"]} == {ann, str(world.bob.id)}
