"""The match page as the bot's own web server serves it: wired beside the other pages of record,
its stylesheet and script among the server's static files (allowed by its content policy), and
a match that ends while its page is asked for shows either no page or the whole match."""

from __future__ import annotations

import asyncio

import aiohttp

from tests.web.conftest import GUILD, Site
from tests.web.matches_of_record import finish, log_rest, played, store_match
from tests.web.records_data import pages_on


async def test_the_web_server_serves_a_finished_match_page_and_its_files(site: Site) -> None:
    assert site.store is not None
    state = played("fifty_one", seed=2)  # no analyser: the server's analyst process is not started
    match = await store_match(site.store, state, guild=GUILD)
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{site.url}/servers/{GUILD}/matches/{match}") as response:
            assert response.status == 404  # the server's pages are off until its admins turn them on
        await pages_on(site.service, GUILD, names=True)
        async with http.get(f"{site.url}/servers/{GUILD}/matches/{match}?deal=1&move=2") as response:
            assert response.status == 200
            text = await response.text()
            assert "script-src 'self'" in response.headers["Content-Security-Policy"]
        assert '<script src="/static/match.js" defer></script>' in text
        assert f'href="/servers/{GUILD}/"' in text  # the way back to the server's other pages
        for name, kind in (("match.js", "text/javascript"), ("match.css", "text/css")):
            async with http.get(f"{site.url}/static/{name}") as response:
                assert response.status == 200 and response.content_type == kind


async def test_a_match_ending_while_its_page_is_asked_shows_no_page_or_the_whole_match(site: Site) -> None:
    assert site.store is not None
    store = site.store
    await pages_on(site.service, GUILD, names=True)
    state = played("twenty_nine", seed=2)
    match = await store_match(store, state, guild=GUILD, upto=5)
    url = f"{site.url}/servers/{GUILD}/matches/{match}"

    async def ask(http: aiohttp.ClientSession) -> tuple[int, str]:
        async with http.get(url) as response:
            return response.status, await response.text()

    async def end() -> None:
        await log_rest(store, match, state, 5)
        await finish(store, match, state, GUILD)

    async with aiohttp.ClientSession() as http:
        answers = await asyncio.gather(*(ask(http) for _ in range(6)), end(), *(ask(http) for _ in range(6)))
        after = await ask(http)
    seen = [a for a in answers if a is not None]
    assert {status for status, _ in seen} <= {200, 404}
    assert all("Scores as they ran" in text for status, text in seen if status == 200)
    assert all("Nothing to show" in text and "Twenty" not in text for status, text in seen if status == 404)
    assert after[0] == 200 and f"{len(state.game.record(state).actions)} moves" in after[1]
