"""The pages of record in a real browser (Debian's chromium, driven by Playwright): the index, a
leaderboard reached by its link, a player reached by theirs, at desktop and phone width, each
checked by axe-core (no serious or critical violation). ``PARLOUR_SHOTS=docs/pages`` with
``-m slow`` keeps the screenshots of both widths."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.async_api import Page

from tests.web.browser import AXE, DESKTOP, PHONE, axe_problems, chromium
from tests.web.conftest import GUILD, Site
from tests.web.records_data import fill, pages_on

SHOTS = os.environ.get("PARLOUR_SHOTS")


async def keep(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True, animations="disabled")


async def test_index_leaderboard_and_player_pass_axe(site: Site) -> None:
    """The default suite's twin: desktop width only (and the narrowest phone's check of width)."""
    await visit_and_check(site, [("desktop", DESKTOP)], narrow=True)


NARROW = {"width": 320, "height": 640}
"""The narrowest phone the pages are read on."""
WIDER_THAN_THE_PAGE = """() => [...document.querySelectorAll('main table, main figure')]
    .filter(el => el.getBoundingClientRect().right > document.documentElement.clientWidth)
    .map(el => el.querySelector('caption, figcaption').textContent)"""
SMALLEST_FIGURE = """() => Math.min(...[...document.querySelectorAll('figure.chart svg text')].map(t => {
    const svg = t.ownerSVGElement;
    return parseFloat(t.getAttribute('font-size')) * svg.getBoundingClientRect().width / svg.viewBox.baseVal.width; }))"""
"""The size of a chart's smallest figure as shown, in the page's pixels."""


async def fits_a_320_px_phone(page: Page) -> None:
    """Every table and chart of the page within a 320 px phone's width (a long name breaks, no
    table scrolls sideways with its caption cut), and a chart's figures at least 11 px high."""
    assert await page.evaluate(WIDER_THAN_THE_PAGE) == [], page.url
    if await page.locator("figure.chart").count():
        assert await page.evaluate(SMALLEST_FIGURE) >= 11


@pytest.mark.slow
async def test_index_leaderboard_and_player_pass_axe_at_both_widths(site: Site) -> None:
    """Both widths (and, with PARLOUR_SHOTS, the screenshots of docs/pages/)."""
    await visit_and_check(site, [("desktop", DESKTOP), ("phone", PHONE)])


async def visit_and_check(site: Site, widths: list[tuple[str, dict[str, int]]], narrow: bool = False) -> None:
    if not AXE.exists():
        pytest.skip("axe-core is not installed: run npm ci in web/ (the accessibility check needs it)")
    await fill(site.service.store, GUILD, matches=24)
    await pages_on(site.service, GUILD, names=True)
    async with chromium() as browser:
        for width, viewport in widths:
            context = await browser.new_context(viewport=viewport, bypass_csp=True)  # type: ignore[arg-type]
            page = await context.new_page()
            response = await page.goto(f"{site.url}/servers/{GUILD}/")
            assert response is not None and response.status == 200
            assert await page.locator("h1").inner_text() == "The Back Room: leaderboards and matches"
            assert await page.locator("script").count() == 0  # no JavaScript needed
            assert await axe_problems(page) == [], width
            await keep(page, f"index-{width}")

            await page.get_by_role("link", name="Parity").click()  # follow the link
            await page.wait_for_url("**/games/parity")
            assert await page.locator("h1").inner_text() == "Parity leaderboard"
            first = page.locator("table tbody th[scope=row] a").first
            assert await first.inner_text() == "Ann"
            assert await axe_problems(page) == [], width
            await keep(page, f"leaderboard-{width}")

            await first.click()
            await page.wait_for_url("**/players/*")
            assert await page.locator("h1").inner_text() == "Ann"
            chart = page.get_by_role("img", name="Rating in Parity")
            assert await chart.count() == 1
            assert await axe_problems(page) == [], width
            await keep(page, f"player-{width}")
            await context.close()
        if narrow:
            context = await browser.new_context(viewport=NARROW)  # type: ignore[arg-type]
            page = await context.new_page()
            await page.goto(f"{site.url}/servers/{GUILD}/")
            await fits_a_320_px_phone(page)
            await page.get_by_role("link", name="Parity").click()
            await page.wait_for_url("**/games/parity")
            await fits_a_320_px_phone(page)
            await page.locator("table tbody th[scope=row] a").first.click()
            await page.wait_for_url("**/players/*")
            await fits_a_320_px_phone(page)
            await context.close()
