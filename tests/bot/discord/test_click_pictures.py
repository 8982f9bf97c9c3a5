"""A click in a private view is answered before its picture is drawn, when the picture is slow:
the answer says everything in text, and the picture follows in an edit; a picture that cannot be
drawn loses nothing. (Pictures drawn by the process's drawer, :mod:`bot.render.pool`.)"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import pytest

from bot.discord.limits import legible
from bot.discord.play import PICTURE_WAIT
from bot.render import pictures, pool
from games.layout import Layout
from tests.bot.discord.conftest import World, acts, embed_text, note_of, response, show_hand, start_game


class SlowDrawer(pool.Drawer):
    """Draws hand pictures (compact) ``delay`` seconds late, noting what had happened by then
    (``seen``), or fails them (``fail``)."""

    def __init__(self, seen: Callable[[], object], fail: bool = False) -> None:
        super().__init__(0)
        self.delay = 0.0
        self.fail = fail
        self.seen = seen
        self.before: list[object] = []

    async def png(self, layout: Layout, compact: bool = False, urgent: bool = False) -> bytes:
        if compact:
            if self.fail:
                raise RuntimeError("no picture today")
            if self.delay:
                await asyncio.sleep(self.delay)
                self.before.append(self.seen())
        return await super().png(layout, compact, urgent)


def calls_since(world: World, start: int) -> list[tuple[str, str, bool]]:
    """The bot's answers to interactions after its ``start``-th REST call: method, ``callback``
    (the answer) or ``original`` (an edit of it), and whether it attached a file."""
    out = []
    for entry in world.env.http_requests[start:]:
        kind = (
            "callback"
            if entry.path.endswith("/callback")
            else "original"
            if "@original" in entry.path
            else None
        )
        if kind is None:
            continue
        body = entry.json if isinstance(entry.json, dict) else {}
        data = body.get("data", body) if kind == "callback" else body
        out.append((entry.method, kind, bool(data.get("attachments")) if isinstance(data, dict) else False))
    return out


async def test_a_click_is_answered_in_text_before_its_slow_picture(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await start_game(world, "hundred", 3)
    assert table.state is not None
    seat = min(table.state.awaiting())
    actor = world.actor(table.seats[seat].user_id)
    hand = await show_hand(world, actor)
    assert response(hand).attachments, "a quick picture comes with the answer"
    start = len(world.env.http_requests)

    def seen() -> tuple[list[tuple[str, str, bool]], str, bool]:
        return calls_since(world, start), note_of(response(hand)), bool(response(hand).attachments)

    drawer = SlowDrawer(seen)
    drawer.delay = 2 * PICTURE_WAIT  # from here the hand's picture is slow
    monkeypatch.setattr(pool, "_drawer", drawer)
    turn = table.turn
    tapped = await actor.click(response(hand), custom_id=acts(response(hand))[0]["custom_id"])
    await world.settle()
    assert tapped.acknowledged and table.turn > turn
    # when the picture was drawn, the click was answered, in text alone, with what was played
    # (the next player's view, sent at the start, is redrawn for their turn, as slowly)
    assert 1 <= len(drawer.before) <= 2
    answered, note, pictured = drawer.before[0]  # type: ignore[misc]
    assert answered == [("POST", "callback", False)] and note.startswith("You chose ") and not pictured
    # and the picture followed in an edit of that answer
    after = calls_since(world, start)[len(answered) :]
    assert ("PATCH", "original", True) in after, after
    assert response(hand).attachments and note_of(response(hand)).startswith("You chose ")


async def test_a_picture_that_fails_leaves_the_answer_whole(
    world: World, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await start_game(world, "hundred", 3)
    assert table.state is not None
    seat = min(table.state.awaiting())
    actor = world.actor(table.seats[seat].user_id)
    hand = await show_hand(world, actor)
    monkeypatch.setattr(pool, "_drawer", SlowDrawer(list, fail=True))
    turn = table.turn
    start = len(world.env.http_requests)
    await actor.click(response(hand), custom_id=acts(response(hand))[0]["custom_id"])
    await world.settle()
    assert table.turn > turn
    assert note_of(response(hand)).startswith("You chose ")
    assert not response(hand).attachments
    left = table.state.view(seat).hand
    assert left and all(c.short in legible(embed_text(response(hand))) for c in left), "the hand, in text"
    assert calls_since(world, start) == [("POST", "callback", False)]
    failed = [r for r in caplog.records if r.name.startswith("bot.") and r.levelno >= logging.WARNING]
    assert failed and all("drawing a picture failed" in r.getMessage() for r in failed)
    caplog.clear()  # the failure was expected


async def test_a_picture_that_cannot_be_laid_out_leaves_the_answer_whole(
    world: World, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The layout is built once for the picture and its description: a game's layout that fails
    costs the picture alone, and the answer says everything in text."""
    table = await start_game(world, "hundred", 3)
    assert table.state is not None
    seat = min(table.state.awaiting())
    actor = world.actor(table.seats[seat].user_id)
    hand = await show_hand(world, actor)

    def broken(*_args: object) -> Layout:
        raise RuntimeError("no layout today")

    monkeypatch.setattr(pictures, "hand_layout", broken)
    turn = table.turn
    await actor.click(response(hand), custom_id=acts(response(hand))[0]["custom_id"])
    await world.settle()
    assert table.turn > turn
    assert note_of(response(hand)).startswith("You chose ")
    assert not response(hand).attachments
    left = table.state.view(seat).hand
    assert left and all(c.short in legible(embed_text(response(hand))) for c in left), "the hand, in text"
    failed = [r for r in caplog.records if r.name.startswith("bot.") and r.levelno >= logging.WARNING]
    assert failed and all("laying out a picture failed" in r.getMessage() for r in failed)
    caplog.clear()  # the failure was expected


async def test_show_my_hand_answers_in_text_before_its_slow_picture(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await start_game(world, "hundred", 3)
    assert table.state is not None
    actor = world.actor(table.seats[min(table.state.awaiting())].user_id)
    start = len(world.env.http_requests)
    drawer = SlowDrawer(lambda: calls_since(world, start))
    drawer.delay = 2 * PICTURE_WAIT
    monkeypatch.setattr(pool, "_drawer", drawer)
    hand = await show_hand(world, actor)
    await world.settle()
    assert drawer.before == [[("POST", "callback", False)]], "answered in text before the picture was drawn"
    assert calls_since(world, start)[1:] == [("PATCH", "original", True)]
    assert response(hand).ephemeral and response(hand).attachments
    assert "Your turn" in embed_text(response(hand))


class SlowTablePictures(pool.Drawer):
    """Draws the table's pictures (not compact) ``delay`` seconds late, noting what had happened
    by the time each was drawn (``seen``)."""

    def __init__(self, seen: Callable[[], object], delay: float) -> None:
        super().__init__(0)
        self.seen = seen
        self.delay = delay
        self.before: list[object] = []

    async def png(self, layout: Layout, compact: bool = False, urgent: bool = False) -> bytes:
        if not compact:
            await asyncio.sleep(self.delay)
            self.before.append(self.seen())
        return await super().png(layout, compact, urgent)


async def test_a_click_is_answered_without_waiting_for_the_tables_picture(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The move a click makes also redraws the table message; its answer does not wait for that
    picture (it comes with its own, the hand's), however slow the table's is."""
    table = await start_game(world, "hundred", 3)
    assert table.state is not None
    actor = world.actor(table.seats[min(table.state.awaiting())].user_id)
    hand = await show_hand(world, actor)
    start = len(world.env.http_requests)
    drawer = SlowTablePictures(lambda: calls_since(world, start), delay=10 * PICTURE_WAIT)
    monkeypatch.setattr(pool, "_drawer", drawer)
    turn = table.turn
    await actor.click(response(hand), custom_id=acts(response(hand))[0]["custom_id"])
    await world.settle()
    assert table.turn > turn
    assert drawer.before, "the move redrew the table"
    # by the time the table's picture was drawn, the click had its answer, picture and all
    assert drawer.before[0] == [("POST", "callback", True)]
    assert note_of(response(hand)).startswith("You chose ") and response(hand).attachments
