"""The score chart at a match's end is drawn by the bot's picture workers (:meth:`bot.render.pool.Drawer.call`),
not in a thread of the bot's own process, where matplotlib held the interpreter lock for a tenth of
a second and more against the event loop; without workers, or when its worker dies, it is drawn
in a thread here, as before. With real worker processes."""

from __future__ import annotations

import asyncio
import io
import os
import random

from PIL import Image

from bot.render import pool
from bot.render.charts import game_name, match_chart_png
from games.registry import get_game

BOUND = 60.0
"""Seconds after which a test calls the pool hung (never reached when it works)."""


def whose(*_luggage: object) -> bytes:
    """Which process ran this (a worker, or the test's own)."""
    return str(os.getpid()).encode()


def dies_unless_in(pid: int) -> bytes:
    """Ends any process but ``pid`` at once (a worker dying mid-call)."""
    if os.getpid() != pid:
        os._exit(3)
    return b"drawn here"


async def test_a_match_chart_is_drawn_by_a_worker_and_a_dying_worker_leaves_it_to_this_process() -> None:
    game = get_game("ninety_nine")
    players = ["ann", "bob", "cat"]
    state = game.start(players, None, seed=4)
    rng = random.Random(4)
    while state.deal_no < 3 and not state.is_over:  # three deals: a chart worth drawing
        seat = min(state.awaiting())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    record = game.record(state)
    drawer = pool.Drawer(1, deadline=BOUND)
    try:
        assert game_name(game, "online") == ("online", "ninety_nine")  # a game travels by its name
        png = await asyncio.wait_for(drawer.call(match_chart_png, game_name(game, "online"), record, players), BOUND)
        with Image.open(io.BytesIO(png)) as chart:
            assert chart.format == "PNG" and chart.size == Image.open(io.BytesIO(match_chart_png(game, record, players))).size
        [worker] = drawer.pids()
        assert await asyncio.wait_for(drawer.call(whose), BOUND) == str(worker).encode()  # not this process
        here = str(os.getpid()).encode()
        assert await asyncio.wait_for(drawer.call(whose, lambda: None), BOUND) == here  # cannot travel: done here
        assert await asyncio.wait_for(drawer.call(dies_unless_in, os.getpid()), BOUND) == b"drawn here"
        assert drawer.crashes == 1 and drawer.pids() and worker not in drawer.pids()  # replaced
        assert await asyncio.wait_for(drawer.call(whose), BOUND) == str(drawer.pids()[0]).encode()
    finally:
        drawer.close()
    assert await pool.Drawer(0).call(whose) == str(os.getpid()).encode()  # no workers: a thread here
    assert match_chart_png(game, game.record(game.start(players, None, seed=4)), players) == b""  # no deal yet
