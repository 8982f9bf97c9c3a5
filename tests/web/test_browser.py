"""The live table in a real browser (Debian's chromium, driven by Playwright), under the Embedded
App SDK's own mock: each tab is its own Discord user, the seated players play by clicking, one
more tab watches, and every frame a tab receives is checked against what its seat may see."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Page, WebSocket

from bot.web.server import SESSION_COOKIE, Bucket
from bot.web.sessions import WebUser
from games.notation import read_action, typed_form
from games.registry import catalogue, get_game
from tests.bot.conftest import stored_actions
from tests.web.browser import DESKTOP, PHONE, chromium
from tests.web.conftest import CHANNEL, GUILD, Site, running_site, user
from tests.web.test_server import assert_no_leak, start_table

SHOTS = os.environ.get("PARLOUR_SHOTS")
"""A folder to keep the pages' screenshots in (the README's come from here: ``PARLOUR_SHOTS=docs/screenshots``)."""

pytestmark = pytest.mark.asyncio(loop_scope="module")
"""The module's tests run in one event loop, so that they share one chromium (Playwright's
objects belong to the loop that started them): starting it and Playwright's driver took about
1 s of CPU and a second or two of wall time a test."""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared_chromium() -> AsyncIterator[Browser]:
    async with chromium() as browser:
        yield browser


@pytest_asyncio.fixture(loop_scope="module")
async def browser(shared_chromium: Browser) -> AsyncIterator[Browser]:
    """The module's chromium; the test's tabs (each a context: a user's own browser) are closed
    after it, so that no page of one test is left open, reconnecting, in the next."""
    yield shared_chromium
    for context in shared_chromium.contexts:
        await context.close()


@pytest_asyncio.fixture(loop_scope="module")
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    """``tests/web/conftest.py``'s site, started in the module's event loop."""
    async with running_site(tmp_path) as started:
        yield started


@dataclass
class BrowserTab:
    name: str
    page: Page
    frames: list[dict[str, Any]] = field(default_factory=list)
    checked: int = 0


async def open_browser_tab(browser: Browser, site: Site, name: str, viewport: dict[str, int]) -> BrowserTab:
    site.stand_in.in_instance.add(name)
    context = await browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    page = await context.new_page()
    tab = BrowserTab(name, page)

    def watch(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: tab.frames.append(json.loads(payload)))

    page.on("websocket", watch)
    await page.goto(f"{site.url}/?mock={name}&guild={GUILD}&channel={CHANNEL}")
    return tab


async def shows_turn(tab: BrowserTab, turn: int) -> None:
    await tab.page.wait_for_selector(f'main.table[data-turn="{turn}"]', timeout=10_000)


def check_new_frames(site: Site, tab: BrowserTab, seat: int | None) -> None:
    """Every frame this tab received since the last check, against the table as it is now (the
    tests wait for each move to reach every tab, so a frame received is a frame of now)."""
    for data in tab.frames[tab.checked :]:
        if data.get("type") == "table":
            assert data["seat"] == seat
            assert_no_leak(site, data, seat)
    tab.checked = len(tab.frames)


async def click_a_move(page: Page) -> None:
    """One tap: the first card that may be played, else the first other choice; a card with
    several ways to play opens them, and the first is taken."""
    card = page.locator("button.spot.playable").first
    if await card.count():
        await card.click()
        picker = page.locator(".picker button.choice").first
        if await picker.count():
            await picker.click()
        return
    cell = page.locator("button.cell-pick").first
    if await cell.count():  # a call at a grid cell: the cell, then what is called there
        await cell.click()
        await page.locator(".cell-panel button.choice").first.click()
        return
    await page.locator(".choices button.choice").first.click()


async def test_a_deal_played_by_clicking_in_three_tabs_and_watched_in_a_fourth(site: Site, browser: Browser) -> None:
    players = ("ann", "bob", "cat")
    await start_table(site.service, "fifty_one", players)
    table = site.service.table(GUILD, CHANNEL)
    assert table is not None and table.state is not None
    tabs = [await open_browser_tab(browser, site, n, PHONE if n == "cat" else DESKTOP) for n in (*players, "eve")]
    seats: list[int | None] = [0, 1, 2, None]
    first_deal, moves = table.state.deal_no, 0
    while table.state.deal_no == first_deal and not table.state.is_over:
        for tab, seat in zip(tabs, seats, strict=True):
            await shows_turn(tab, table.turn)
            check_new_frames(site, tab, seat)
        (mover,) = table.state.awaiting()
        turn = table.turn
        await click_a_move(tabs[mover].page)
        for tab in tabs:
            await shows_turn(tab, turn + 1) if table.turn == turn + 1 else None
        await tabs[mover].page.wait_for_selector(f'main.table:not([data-turn="{turn}"])', timeout=10_000)
        moves += 1
        assert moves < 200
    for tab, seat in zip(tabs, seats, strict=True):
        await shows_turn(tab, table.turn)
        check_new_frames(site, tab, seat)
    assert moves >= 3
    await screenshot(tabs[0].page, "live-fifty-one-desktop")
    await screenshot(tabs[2].page, "live-fifty-one-phone")


async def screenshot(page: Page, name: str) -> None:
    if SHOTS:
        await page.mouse.move(0, 0)  # no hover or focus ring left from the last tap in the picture
        await page.evaluate("document.activeElement instanceof HTMLElement && document.activeElement.blur()")
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True, animations="disabled")


async def test_the_tap_pad_enters_a_refereed_deal_with_another_players_confirmation(site: Site, browser: Browser) -> None:
    await site.service.open_referee(GUILD, CHANNEL, user("ann"), "fifty_one", [user("ann"), user("bob")], ["first_dealer=1"])
    table = site.service.table(GUILD, CHANNEL)
    assert table is not None and table.state is not None
    ann = await open_browser_tab(browser, site, "ann", PHONE)
    bob = await open_browser_tab(browser, site, "bob", DESKTOP)
    await shows_turn(ann, table.turn)
    for name in ("Confirm the last entry", "Undo the last entry"):  # nothing entered yet
        assert await ann.page.get_by_role("button", name=name).count() == 0
    first_deal, entries = table.state.deal_no, 0
    while table.state.deal_no == first_deal and not table.state.is_over:
        turn = table.turn
        await shows_turn(ann, turn)
        await ann.page.locator(".pad button.entry, .pad button.choice").first.click()
        await shows_turn(bob, turn + 1)
        entries += 1
        assert entries < 80
    await shows_turn(bob, table.turn)
    await bob.page.get_by_role("button", name="Confirm the last entry").click()
    await bob.page.get_by_role("button", name="Confirm the last entry").wait_for(state="detached", timeout=10_000)
    assert table.confirmed_by[-1] == user("bob").id  # confirmed: only Undo is offered now
    assert await bob.page.get_by_role("button", name="Undo the last entry").count() == 1
    await screenshot(ann.page, "pad-fifty-one-phone")
    assert entries >= 2


async def test_after_a_restart_mid_deal_the_tabs_reconnect_and_play_on(site: Site, browser: Browser) -> None:
    await start_table(site.service, "fifty_one", ("ann", "bob"))
    tabs = [await open_browser_tab(browser, site, n, DESKTOP) for n in ("ann", "bob")]

    async def one_move() -> None:
        table = site.service.table(GUILD, CHANNEL)
        assert table is not None and table.state is not None
        turn = table.turn
        for tab in tabs:
            await shows_turn(tab, turn)
        (mover,) = table.state.awaiting()
        await click_a_move(tabs[mover].page)
        for tab in tabs:
            await shows_turn(tab, turn + 1)

    await one_move()
    await site.stop()  # the process stops mid-deal; the browsers stay open
    for tab in tabs:
        await tab.page.wait_for_selector("#status.error", timeout=10_000)
    await site.start()
    for tab in tabs:  # each reconnects by itself, with the session it had
        await tab.page.wait_for_selector("#status", state="detached", timeout=15_000)
    await one_move()
    await one_move()


async def test_every_game_is_drawn_and_played_by_a_click_in_a_browser_page(site: Site, browser: Browser) -> None:
    """A browser on /t/<server>/<channel> (the log-in cookie set as /callback sets it), at a table
    of every game against bots: the page draws the game, a click plays, the bots answer."""
    ann = user("ann")
    sizes = ((DESKTOP, "desktop"), (PHONE, "phone")) if SHOTS else ((DESKTOP, "desktop"),)
    for viewport, label in sizes:
        context = await browser.new_context(viewport=viewport)  # type: ignore[arg-type]
        token = site.server.sessions.issue(WebUser(ann.id, ann.name))
        await context.add_cookies([{"name": SESSION_COOKIE, "value": token, "url": site.url}])
        page = await context.new_page()
        for number, declared in enumerate(catalogue()):
            game = declared.game
            channel = f"{200 + number}{'1' if label == 'phone' else '0'}"
            await site.service.open_table(GUILD, channel, ann, game.id)
            for _ in range(game.player_counts[0] - 1):
                await site.service.add_bot(GUILD, channel, ann, "random")
            await site.service.start(GUILD, channel, ann)
            table = site.service.table(GUILD, channel)
            assert table is not None and table.state is not None
            await site.service.wait_resumed()
            await page.goto(f"{site.url}/t/{GUILD}/{channel}")
            await page.wait_for_selector(f'main.table[data-turn="{table.turn}"]', timeout=10_000)
            if label == "desktop" and 0 in table.state.awaiting():
                turn = table.turn
                await click_a_move(page)
                await page.wait_for_selector(f'main.table:not([data-turn="{turn}"])', timeout=10_000)
            await screenshot(page, f"live-{game.id}-{label}")
        assert await page.evaluate(NAMELESS_FACT) == "none"  # Ninety-Nine's "Play goes to the right": no lone ":"
        await context.close()


NAMELESS_FACT = """() => {
    document.querySelector('main').insertAdjacentHTML('beforeend',
        '<dl class="facts"><div class="fact" id="nameless"><dt></dt><dd>Play goes to the right</dd></div></dl>');
    return getComputedStyle(document.querySelector('#nameless dt')).display; }"""
"""A fact drawn as draw.ts draws a fact without a name, on the live table's stylesheet: its name's
place (which holds the ":" after every name) is not shown."""


async def tap_an_entry(page: Page) -> None:
    """One tap on the pad: a card of the pack or an entry's button; a call at a grid cell is the
    cell, then what is called there."""
    entry = page.locator(".pad button.entry, .pad button.choice").first
    if await entry.count():
        await entry.click()
        return
    await page.locator("button.cell-pick").first.click()
    await page.locator(".cell-panel button.choice").first.click()


@pytest.mark.parametrize("game_id", ["spec", "hoodwink", "fifty_one"])
async def test_a_deal_tapped_on_the_pad_scores_as_the_same_entries_typed(site: Site, browser: Browser, game_id: str) -> None:
    """A whole refereed deal entered by tapping in a phone-sized page; the same entries typed as
    lines (read by the entry reader, as the typed form reads them) at a second table give the same
    scores."""
    site.server.bucket = Bucket(rate=1000, burst=1000)  # a test taps faster than any hand
    players = [user(n) for n in ("ann", "bob", "cat")][: max(get_game(game_id).min_players, 2)]
    await site.service.open_referee(GUILD, CHANNEL, players[0], game_id, players, ["first_dealer=1"])
    table = site.service.table(GUILD, CHANNEL)
    assert table is not None and table.state is not None
    tab = await open_browser_tab(browser, site, "ann", PHONE)
    first_deal = table.state.deal_no
    while table.state.deal_no == first_deal and not table.state.is_over:
        turn = table.turn
        await shows_turn(tab, turn)
        await tap_an_entry(tab.page)
        try:
            await tab.page.wait_for_selector(f'main.table:not([data-turn="{turn}"])', timeout=10_000)
        except Exception:
            raise AssertionError(await tab.page.locator("#status").all_inner_texts()) from None
        assert table.turn < 400
    await screenshot(tab.page, f"pad-{game_id}-phone")
    await tab.page.context.close()
    tapped = await stored_actions(site.service, table)
    typed_channel = "21"
    await site.service.open_referee(GUILD, typed_channel, players[0], game_id, players, ["first_dealer=1"])
    twin = site.service.table(GUILD, typed_channel)
    assert twin is not None and twin.state is not None
    for seat, action in tapped:
        line = f"{twin.state.name(seat)}: {typed_form(action)}"
        read_seat, read = read_action(twin.state, line, seat=None, speaker=seat)
        assert (read_seat, read) == (seat, action), line
        await site.service.act(GUILD, typed_channel, players[0], read, turn=twin.turn, seat=read_seat)
    assert twin.state.scores == table.state.scores and twin.state.deal_no == table.state.deal_no
