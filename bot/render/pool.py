"""Drawing pictures in other processes, so every core draws (Pillow holds the interpreter lock
while it draws and encodes).

A picture is a pure function of its layout (plain frozen data, picklable) and whether it is drawn
compact: :func:`draw` is that function, and :class:`PicturePool` runs it in a process pool. The
Discord adapter may await :meth:`PicturePool.png` in place of :func:`bot.render.pictures.picture`;
each worker keeps its own caches of card faces and words.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

from bot.render.pictures import picture
from games.layout import Layout


def draw(layout: Layout, compact: bool = False) -> bytes:
    """The PNG of ``layout``, drawn in whichever process calls it."""
    return picture(layout, compact)


class PicturePool:
    """A process pool drawing pictures: ``workers`` processes (default: one per core)."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1
        # spawn: a forked worker would inherit the bot's event loop and sockets
        self._executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))

    async def png(self, layout: Layout, compact: bool = False) -> bytes:
        """The PNG of ``layout``, drawn in a worker while the event loop serves others."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, draw, layout, compact)

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> PicturePool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
