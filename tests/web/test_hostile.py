"""The live table's server against a hostile member: what a browser sends that the page never
would (a made-up Activity instance id, a flood of log-ins and hellos), and what the server then
asks Discord with the bot's token."""

from __future__ import annotations

import aiohttp
import pytest

from tests.web.conftest import CLIENT_ID, Site, log_in, open_tab
from tests.web.test_server import start_table

INSTANCES = f"/applications/{CLIENT_ID}/activity-instances/"


@pytest.mark.parametrize(
    "instance",
    ["../../../users/@me", "../../guilds/10/members", "%2e%2e/%2e%2e/users/@me", "123?with_users=1", "12/../34", "a#b"],
)
async def test_an_instance_id_that_is_not_one_asks_discord_nothing_and_is_refused(site: Site, instance: str) -> None:
    """An instance id goes into the path of a request made with the bot's token: one that is not
    an id (a ``..``, a slash, a query) would send that token to another of Discord's endpoints."""
    await start_table(site.service)
    async with aiohttp.ClientSession() as http:
        session = await log_in(http, site, "mallory")
        site.stand_in.asked.clear()
        tab = await open_tab(http, site, {"session": session, "instance": instance})
        answer = await tab.next()
    assert site.stand_in.asked == [], f"the bot's token was sent to {site.stand_in.asked}"
    assert answer == {"type": "refused", "text": "That is not an Activity Discord knows of.", "fatal": True}
