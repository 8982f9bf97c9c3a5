"""Debian's chromium driven by Playwright's Python client, for the live table's browser tests.

Playwright's own browser download does not work here, so the tests launch ``/usr/bin/chromium``
(``.ci/run`` installs Debian's package). Without it the browser tests are skipped, saying so.
"""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page, async_playwright

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""Without the network flags chromium keeps asking Google's hosts, which this machine refuses."""

AXE = Path(__file__).resolve().parents[2] / "web" / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core, from the npm registry (``npm ci`` in web/ installs it; .ci/run does)."""

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def need_chromium() -> None:
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (.ci/run installs it): the browser tests need it")


@asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    """A headless chromium; each ``await browser.new_context()`` is a separate user's browser."""
    need_chromium()
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        try:
            yield browser
        finally:
            await browser.close()


async def axe_problems(page: Page) -> list[str]:
    """axe-core's serious and critical violations on the page, one line each."""
    if not await page.evaluate("typeof window.axe !== 'undefined'"):
        await page.evaluate(AXE.read_text(encoding="utf-8"))
    found: dict[str, Any] = await page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in found["violations"]
        if v["impact"] in ("serious", "critical")
    ]
