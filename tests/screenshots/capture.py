"""Screenshots of every game as people see it on Discord (not part of the test suite).

    .venv/bin/python -m tests.screenshots.capture [--games parity,spec] [--out tests/screenshots]
        [--chromium /usr/bin/chromium] [--themes dark,light] [--width 390]

Each game is played in SimCord (the real discord.py against a simulated Discord) by people
through their live private views, part way into its first deal. Then SimCord's preview page of
the channel is captured with a headless Chromium: the table message as the channel sees it, and
the first player's private view as only they see it, on Discord's dark theme and on a light one
(the preview page is dark; the light theme is Discord's light palette laid over it). The PNGs are
written as ``<game>-table-<theme>.png`` and ``<game>-hand-<theme>.png``.

Needs the test extras (Playwright's Python client, SimCord's preview) and a Chromium (Debian's
``apt-get install chromium``): Playwright's own browser download is not needed.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
DESKTOP = 900
"""The page's width for a desktop screenshot (files of another width are named with it)."""
LIGHT = """
:root {
  color-scheme: light !important; background: #ffffff !important; color: #313338 !important;
  --discord-bg: #ffffff !important; --discord-surface: #f2f3f5 !important;
  --discord-elevated: #e3e5e8 !important; --discord-control: #ebedef !important;
  --discord-hover: #e8eaed !important; --discord-text: #313338 !important;
  --discord-muted: #5c5e66 !important; --discord-subtle: #4e5058 !important;
  --discord-border: #d4d7dc !important; --component-surface: #f2f3f5 !important;
  --component-border: #d4d7dc !important; --chip-surface: #ebedef !important;
  --list-surface: #ffffff !important; --option-hover: #e8eaed !important;
  --subtle-surface: #d4d7dc !important; --subtle-surface-text: #313338 !important;
  --entity-text: #313338 !important; --entity-dim: #4e5058 !important;
  --button-alt: #d4d7dc !important; --button-alt-hover: #c4c9ce !important;
  --code-surface: #f2f3f5 !important; --code-border: #d4d7dc !important;
  --code-text: #313338 !important; --embed-field-name: #060607 !important;
}
body, main, #app { background: #ffffff !important; color: #313338 !important; }
"""
THEME = {"now": "dark"}


def use_chromium(executable: str) -> None:
    """Let SimCord's managed capture launch this Chromium, and lay the light palette over the
    preview page when the light theme is being captured."""
    from playwright.async_api import async_playwright
    from simcord.preview import _capture

    class ThemedBrowser:
        def __init__(self, browser: Any) -> None:
            self._browser = browser

        def __getattr__(self, name: str) -> Any:
            return getattr(self._browser, name)

        async def new_context(self, **kwargs: Any) -> Any:
            light = THEME["now"] == "light"
            context = await self._browser.new_context(**kwargs, bypass_csp=light)  # the page forbids added styles
            if light:
                css = LIGHT.replace("`", "")
                await context.add_init_script(
                    "document.addEventListener('DOMContentLoaded', () => {"
                    " const s = document.createElement('style');"
                    f" s.textContent = `{css}`; document.head.appendChild(s); }});"
                )
            return context

    async def ensure_browser(self: Any) -> Any:
        if self._browser is None:
            self._playwright = await async_playwright().start()
            self._browser = ThemedBrowser(await self._playwright.chromium.launch(executable_path=executable))
        return self._browser

    _capture.ManagedCapture._ensure_browser = ensure_browser


async def capture(game_id: str, out: Path, themes: Sequence[str], moves: int, width: int = 900) -> list[Path]:
    from games.registry import get_game
    from tests.bot.discord.conftest import World, simulated_world, start_game
    from tests.bot.discord.live_play import LivePlay

    written: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp:
        async with simulated_world(World, Path(tmp) / "shots.sqlite3", seed=7) as world:
            table = await start_game(world, game_id, min(get_game(game_id).player_counts))
            live = LivePlay(world)
            assert table.state is not None
            deal = table.state.view(None).deal
            while live.moves < moves and world.table is not None and table.state.view(None).deal == deal:
                await live.move(pick=live.moves % 3)
            viewer = world.actor(table.seats[0].user_id)
            mine = live.views.get(str(viewer.id)) or await viewer.click(world.table_message(), label="Show my hand")
            async with world.env.preview(world.channel, viewers=[viewer], width=width, height=1100) as preview:
                for theme in themes:
                    THEME["now"] = theme
                    for what, target in (("table", world.table_message()), ("hand", mine.response)):
                        phone = "" if width == DESKTOP else f"-{width}px"
                        path = out / f"{game_id}-{what}-{theme}{phone}.png"
                        await preview.screenshot(path, viewer=viewer, target=target, mode="surface", allow_incomplete=True)
                        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> None:
    from games.registry import all_games

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", default="", help="comma-separated game ids (default: every game)")
    parser.add_argument("--out", type=Path, default=HERE)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--themes", default="dark,light")
    parser.add_argument("--moves", type=int, default=7, help="moves made before the capture")
    parser.add_argument("--width", type=int, default=DESKTOP, help="the page's width (390: a phone's)")
    args = parser.parse_args(argv)
    use_chromium(args.chromium)
    args.out.mkdir(parents=True, exist_ok=True)
    wanted = [g for g in args.games.split(",") if g]
    for game in all_games():
        if wanted and game.id not in wanted:
            continue
        for path in asyncio.run(capture(game.id, args.out, args.themes.split(","), args.moves, args.width)):
            print(path)


if __name__ == "__main__":
    main()
