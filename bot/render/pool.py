"""Drawing pictures away from the event loop, on every core.

A picture is a pure function of its layout (plain frozen data, picklable) and whether it is drawn
compact: :func:`draw` is that function. Pillow holds the interpreter lock while it draws, so
threads of one process draw one picture at a time (measured: two threads draw no faster than
one); :class:`Drawer` with ``workers`` > 0 runs :func:`draw` in a pool of processes instead, each
with its own caches of card faces and words, so the event loop only pickles a layout and reads
back the PNG (about a sixth of the CPU of drawing it). With ``workers`` = 0 it draws in a thread
of this process (tests, a one-core machine). A worker that dies is replaced and the picture it
was drawing is drawn here instead; after :data:`CRASHES_BEFORE_GIVING_UP` deaths the process
draws its own pictures from then on.

The adapter draws through :func:`drawer`, the process's one drawer, set up by :func:`configure`.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections import OrderedDict
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from bot.render.pictures import picture
from games.layout import Layout

log = logging.getLogger(__name__)

CRASHES_BEFORE_GIVING_UP = 3
"""Worker deaths after which pictures are drawn in this process for good."""
KEPT = 256
"""Pictures remembered by layout in this process (a refreshed message, another viewer)."""


def draw(layout: Layout, compact: bool = False) -> bytes:
    """The PNG of ``layout``, drawn in whichever process calls it."""
    return picture(layout, compact)


def default_workers() -> int:
    """One drawing process per core."""
    return os.cpu_count() or 1


class Drawer:
    """Draws pictures in ``workers`` other processes, or in a thread of this one (``workers`` = 0)."""

    def __init__(self, workers: int = 0) -> None:
        self.workers = workers
        self.crashes = 0
        self._executor: Executor | None = self._new_pool() if workers > 0 else None
        self._kept: OrderedDict[tuple[Layout, bool], bytes] = OrderedDict()

    def _new_pool(self) -> ProcessPoolExecutor:
        # spawn: a forked worker would inherit the bot's event loop, sockets and threads
        return ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))

    @property
    def pooled(self) -> bool:
        """Whether pictures are drawn in other processes now."""
        return self._executor is not None

    async def png(self, layout: Layout, compact: bool = False) -> bytes:
        """The PNG of ``layout``, drawn while the event loop serves others."""
        if self._executor is None:
            return await asyncio.to_thread(draw, layout, compact)
        key: tuple[Layout, bool] | None = (layout, compact)
        try:
            kept = self._kept.get((layout, compact))
        except TypeError:  # unhashable (a game's hook built a list where a tuple belongs)
            key, kept = None, None
        if kept is not None and key is not None:
            self._kept.move_to_end(key)
            return kept
        executor = self._executor
        try:
            data = await asyncio.get_running_loop().run_in_executor(executor, draw, layout, compact)
        except BrokenProcessPool:
            self._worker_died(executor)
            return await asyncio.to_thread(draw, layout, compact)
        if key is not None:
            self._kept[key] = data
            if len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        return data

    def _worker_died(self, broken: Executor) -> None:
        """Replace a pool whose worker died (once per pool: the pictures it was drawing all fail
        with it), or stop using pools after too many deaths."""
        if broken is not self._executor:
            return
        self.crashes += 1
        broken.shutdown(wait=False, cancel_futures=True)
        if self.crashes >= CRASHES_BEFORE_GIVING_UP:
            log.error(
                "a picture worker died %d times: pictures are drawn in this process from now on", self.crashes
            )
            self._executor = None
        else:
            log.warning("a picture worker died; starting a new pool (its pictures are drawn here)")
            self._executor = self._new_pool()

    def close(self) -> None:
        """Stop the workers (without waiting for them: a picture still drawing is dropped)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


_drawer = Drawer(0)


def drawer() -> Drawer:
    """The process's drawer (drawing in a thread until :func:`configure` says otherwise)."""
    return _drawer


def configure(workers: int | None) -> Drawer:
    """Draw with ``workers`` processes from now on (``None``: one per core; 0: in a thread here).
    A drawer already of that size is kept, so bots sharing a process share its workers."""
    global _drawer
    count = default_workers() if workers is None else workers
    if count != _drawer.workers or (count > 0 and not _drawer.pooled):
        _drawer.close()
        _drawer = Drawer(count)
    return _drawer
