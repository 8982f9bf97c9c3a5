"""The picture workers (:mod:`bot.render.pool`) when things go wrong, with real worker processes:
a worker that hangs (stopped with SIGSTOP), layouts that cannot travel or be drawn, workers that
die or cannot be started, pictures still wanted when the pool closes or the bot stops.

Every picture ends (drawn, or failed so its message goes out text-only); ``asyncio.wait_for``
bounds only keep a broken pool from hanging the suite."""

from __future__ import annotations

import asyncio
import dataclasses
import errno
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.discord import messages
from bot.discord.client import ParlourBot
from bot.render import pictures, pool
from bot.settings import Settings
from games.layout import Layout
from games.registry import get_game
from tests.bot.pool_layouts import RaisesUnreadable, RaisesUnsendable, StopsIteration, Unloadable

BOUND = 30.0
"""Seconds after which a test calls the pool hung (never reached when it works)."""


def layouts() -> Iterator[Layout]:
    """Hands of a game of Hundred, each new to the drawer's memory of pictures."""
    state = get_game("hundred").start(["ann", "bob", "cat"], None, seed=2)
    seat = 0
    while True:
        yield pictures.hand_layout(state.view(seat % 3), state.legal_actions(seat % 3))
        seat += 1
        if seat % 3 == 0:
            state = get_game("hundred").start(["ann", "bob", "cat"], None, seed=2 + seat)


def gone(pid: int) -> bool:
    """Whether process ``pid`` has ended and been reaped."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def open_fds() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


@pytest.fixture
def drawn_here(monkeypatch: pytest.MonkeyPatch) -> list[Layout]:
    """The layouts drawn in the test's own process rather than by a worker."""
    seen: list[Layout] = []
    real = pool.draw

    def draw(layout: Layout, compact: bool = False) -> bytes:
        seen.append(layout)
        return real(layout, compact)

    monkeypatch.setattr(pool, "draw", draw)
    return seen


async def test_a_hung_picture_fails_at_its_deadline_and_its_worker_is_replaced(
    monkeypatch: pytest.MonkeyPatch, drawn_here: list[Layout]
) -> None:
    """A worker stopped mid-picture: the picture fails at its deadline (the message goes out
    text-only, the picture not drawn here instead), the worker is killed and another draws on."""
    drawer = pool.Drawer(1, deadline=BOUND)  # a worker's start and first picture take their time
    monkeypatch.setattr(pool, "_drawer", drawer)
    hands = layouts()
    try:
        first = next(hands)
        assert await drawer.png(first) == pictures.picture(first)  # the worker is up
        [hung] = drawer.pids()
        os.kill(hung, signal.SIGSTOP)
        hand = next(hands)
        drawer.deadline = 0.2  # for this picture only (a deadline is set as a picture is sent)
        text_only = asyncio.ensure_future(messages.draw(lambda: hand, compact=True, urgent=True))
        await asyncio.sleep(0)
        drawer.deadline = BOUND
        assert await asyncio.wait_for(text_only, BOUND) is None
        assert gone(hung) and drawer.pids() and hung not in drawer.pids()
        assert drawn_here == []  # not drawn in the bot's process
        after = next(hands)
        assert await asyncio.wait_for(drawer.png(after), BOUND) == pictures.picture(after)
        assert drawer.pooled and drawer.crashes == 0  # a hang is not a crash: pooling stays on
        assert drawn_here == []
    finally:
        drawer.close()


async def test_a_layout_that_cannot_be_pickled_fails_alone_and_keeps_its_worker() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Local:  # a local class cannot be pickled (AttributeError, not PicklingError)
        value: int

    drawer = pool.Drawer(1)
    hands = layouts()
    try:
        for _ in range(2):  # more bad layouts than workers
            with pytest.raises(Exception, match="pickle"):
                await asyncio.wait_for(drawer.png(Local(1)), BOUND)  # type: ignore[arg-type]
        hand = next(hands)
        assert await asyncio.wait_for(drawer.png(hand), BOUND) == pictures.picture(hand)
        assert drawer.crashes == 0 and len(drawer.pids()) == 1
    finally:
        drawer.close()


@pytest.mark.parametrize(
    ("layout", "error"),
    [
        (Unloadable(), "invalid literal for int"),  # the worker cannot read it back
        (StopsIteration(), "StopIteration"),  # a future cannot hold StopIteration
        (RaisesUnsendable(), "ValueError"),  # the worker cannot send its error back
        (RaisesUnreadable(), "NeedsTwo|missing 1 required positional argument"),  # the bot cannot read it
    ],
    ids=["unreadable layout", "StopIteration", "unsendable error", "unreadable error"],
)
async def test_a_picture_that_fails_in_the_worker_fails_alone(layout: Any, error: str) -> None:
    """Every failure in a worker comes back as that picture's error: the worker lives on."""
    drawer = pool.Drawer(1)
    hands = layouts()
    try:
        with pytest.raises(Exception, match=error):
            await asyncio.wait_for(drawer.png(layout), BOUND)
        [pid] = drawer.pids()
        hand = next(hands)
        assert await asyncio.wait_for(drawer.png(hand), BOUND) == pictures.picture(hand)
        assert drawer.pids() == [pid] and drawer.crashes == 0
    finally:
        drawer.close()


async def test_giving_up_draws_here_the_pictures_healthy_workers_were_drawing() -> None:
    """The last crash allowed: the picture another worker was still drawing is drawn here, not
    cancelled (a cancelled picture would leave a click unanswered)."""
    drawer = pool.Drawer(2)
    drawer.crashes = pool.CRASHES_BEFORE_GIVING_UP - 1
    hands = layouts()
    try:
        hand = next(hands)
        drawing = asyncio.ensure_future(drawer.png(hand))
        await asyncio.sleep(0)  # sent to a worker
        [busy] = [w for w in drawer._all if w.job is not None]
        [other] = [w for w in drawer._all if w is not busy]
        os.kill(busy.process.pid, signal.SIGSTOP)  # still drawing when the pool gives up
        os.kill(other.process.pid, signal.SIGKILL)
        assert await asyncio.wait_for(drawing, BOUND) == pictures.picture(hand)
        assert not drawer.pooled and drawer.pids() == []
    finally:
        drawer.close()


async def test_a_worker_that_cannot_be_started_leaks_nothing_and_pictures_are_drawn_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A replacement that cannot start (out of file descriptors): both ends of its pipe are
    closed, and with no worker left every picture is drawn here instead of waiting for good."""
    drawer = pool.Drawer(1)
    hands = layouts()
    try:
        first = next(hands)
        assert await drawer.png(first) == pictures.picture(first)
        before = open_fds()
        [pid] = drawer.pids()

        def no_start(self: Any) -> None:
            raise OSError(errno.EMFILE, "Too many open files")

        monkeypatch.setattr(type(drawer._all[0].process), "start", no_start)
        os.kill(pid, signal.SIGKILL)
        for _ in range(2):
            hand = next(hands)
            assert await asyncio.wait_for(drawer.png(hand), BOUND) == pictures.picture(hand)
        assert not drawer.pooled and drawer.pids() == []
        assert open_fds() < before  # the dead worker's pipe closed, no new one left open
    finally:
        drawer.close()


async def test_pictures_waiting_when_the_pool_closes_are_drawn_here() -> None:
    drawer = pool.Drawer(1)
    hands = layouts()
    first = next(hands)
    assert await drawer.png(first) == pictures.picture(first)
    [pid] = drawer.pids()
    os.kill(pid, signal.SIGSTOP)  # holds the picture it is given
    wanted = [next(hands), next(hands)]
    drawing = [asyncio.ensure_future(drawer.png(hand)) for hand in wanted]  # one drawing, one queued
    await asyncio.sleep(0)
    drawer.close()
    assert await asyncio.wait_for(asyncio.gather(*drawing), BOUND) == [pictures.picture(h) for h in wanted]
    assert gone(pid)


async def test_the_bot_stops_its_picture_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot stops with its worker hung on a picture: the worker ends with the bot, and the
    picture still wanted is drawn here."""
    monkeypatch.setattr(pool, "_drawer", pool.Drawer(0))
    settings = Settings(
        DISCORD_TOKEN=None, PARLOUR_DB=str(tmp_path / "db.sqlite3"), PARLOUR_PICTURE_WORKERS=1
    )
    bot = ParlourBot(settings)
    hands = layouts()
    first, hung = next(hands), next(hands)
    async with simcord.run(bot):
        assert await asyncio.wait_for(pool.drawer().png(first), BOUND) == pictures.picture(first)
        [pid] = pool.drawer().pids()
        os.kill(pid, signal.SIGSTOP)
        drawing = asyncio.ensure_future(pool.drawer().png(hung))
        await asyncio.sleep(0)
        await asyncio.wait_for(bot.dispose(), BOUND)
        assert await asyncio.wait_for(drawing, BOUND) == pictures.picture(hung)
    assert gone(pid) and not pool.drawer().pooled
