"""The match page of record in a real browser (Debian's chromium, driven by Playwright): a replay
stepped by its links, then by the arrow keys without reloading the page; and the page's
screenshots at desktop and phone width (``PARLOUR_SHOTS=docs/pages`` keeps them)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from playwright.async_api import Browser, Page, expect

from storage.sessions import Store
from tests.web.browser import AXE, DESKTOP, PHONE, axe_problems, chromium
from tests.web.matches_of_record import GUILD, RecordSite, played, show_pages, store_match

SHOTS = os.environ.get("PARLOUR_SHOTS")


async def step_title(page: Page) -> str:
    return (await page.locator("#step-title").inner_text()).strip()


async def test_a_replay_steps_by_link_and_by_keyboard(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "records.sqlite3")
    await show_pages(store, GUILD)
    site = RecordSite(store)
    await site.start()
    try:
        state = played("parity", seed=5, players=["Ann", "Bob"])
        match = await store_match(store, state)
        base = f"{site.url}/servers/{GUILD}/matches/{match}"
        async with chromium() as browser:
            context = await browser.new_context(viewport=DESKTOP, bypass_csp=True)  # type: ignore[arg-type]
            page = await context.new_page()
            await page.goto(base)
            assert await step_title(page) == "Deal 1, the deal"
            if AXE.exists():  # the accessibility check of the pages of record (tests/web/browser.py)
                assert await axe_problems(page) == []
            # by link: a page load each
            await page.get_by_role("link", name="Next →").click()
            await page.wait_for_url(f"{base}?deal=1&move=1#replay")
            assert (await step_title(page)).startswith("Deal 1, move 1 of ")
            await page.locator("nav.deals").get_by_role("link", name="2", exact=True).click()
            await page.wait_for_url(f"{base}?deal=2&move=0#replay")
            assert await step_title(page) == "Deal 2, the deal"
            # by keyboard: the replay changes in place (the page is not reloaded) and the address follows
            await page.evaluate("window.stayed = true")
            await page.keyboard.press("ArrowRight")
            await expect(page.locator("#step-title")).to_contain_text("move 1 of")
            await page.keyboard.press("ArrowRight")
            await expect(page.locator("#step-title")).to_contain_text("move 2 of")
            assert await page.evaluate("window.stayed") is True
            assert page.url == f"{base}?deal=2&move=2#replay"
            assert await page.locator(".moves a[aria-current]").inner_text() == (
                await page.locator(".last-move .move-text").inner_text()
            )
            await page.keyboard.press("ArrowLeft")
            await expect(page.locator("#step-title")).to_contain_text("move 1 of")
            await page.keyboard.press("ArrowLeft")  # two keys at once: both are taken, one after the other
            await page.keyboard.press("ArrowLeft")  # back across the deal's start, to deal 1's last move but one
            await expect(page.locator("#step-title")).to_have_text(re.compile("^Deal 1"))
            assert await page.evaluate("window.stayed") is True
            await page.go_back()  # the browser's history steps back through the keyboard's steps too
            await expect(page.locator("#step-title")).to_have_text(re.compile("^Deal 2"))
            # every card shown is named for a screen reader
            unnamed = await page.locator(".card:not(.empty):not([aria-label])").count()
            assert unnamed == 0
            await a_grid_fits_a_320_px_phone(browser, site, store)
            await a_fact_without_a_name_has_no_colon(page, site, store)
            if SHOTS:
                await shoot(page, base, match, "desktop")
                phone = await browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
                await shoot(await phone.new_page(), base, match, "phone")
    finally:
        await site.stop()
        await store.close()


async def a_grid_fits_a_320_px_phone(browser: Browser, site: RecordSite, store: Store) -> None:
    """Wit and Reason (II)'s grid of six cards a row fits the narrowest phone: the page does not
    scroll sideways (its grid ran 28 px past the page)."""
    match = await store_match(store, played("wit_and_reason_2", seed=3, players=["Ann", "Bob"]))
    context = await browser.new_context(viewport={"width": 320, "height": 640})
    page = await context.new_page()
    await page.goto(f"{site.url}/servers/{GUILD}/matches/{match}?deal=1&move=3")
    assert await page.locator("table.grid .card").count() == 24
    assert await page.evaluate("document.documentElement.scrollWidth") <= 320
    await context.close()


async def a_fact_without_a_name_has_no_colon(page: Page, site: RecordSite, store: Store) -> None:
    """Ninety-Nine's "Play goes to the right" is a fact without a name: no lone colon before it."""
    match = await store_match(store, played("ninety_nine", seed=1, players=["Ann", "Bob", "Cat"]))
    await page.goto(f"{site.url}/servers/{GUILD}/matches/{match}?deal=1&move=6")
    fact = page.locator(".layout .fact", has_text="Play goes to the right")
    assert await fact.count() == 1
    assert await fact.locator("dt").inner_text() == ""
    assert await fact.locator("dt").is_hidden()  # it held the ":" of every fact's name


async def shoot(page: Page, base: str, match: int, label: str) -> None:
    """The page at the first move of the match the analyser found wanting (its verdict beside it), whole."""
    assert SHOTS
    Path(SHOTS).mkdir(parents=True, exist_ok=True)
    await page.goto(f"{base}?deal=1&move=0")
    await page.locator(".moves li:has(.flag) a").first.click()
    await page.wait_for_load_state()
    await page.screenshot(path=str(Path(SHOTS) / f"match-parity-{label}.png"), full_page=True, animations="disabled")
