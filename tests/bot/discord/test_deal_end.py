"""A deal's end as the players meet it in Discord (issue 28, points 3 and 9): a deal of Hundred
played by two people through their live views. The deal's message, once the next deal has its
own, keeps the picture of the table as the deal left it (its final total, not the total one move
before); the view of the player whose choice ended the deal says that deal is over; the hands
dealt by DM link to the table message itself."""

from __future__ import annotations

import re

import pytest

from bot.render import drawlog, pool
from bot.render.pictures import render_png
from bot.service.hands import DEAL_STARTS
from games.layout import Layout
from tests.bot.discord.conftest import World, start_game
from tests.bot.discord.live_play import LivePlay


async def test_a_finished_deal_keeps_the_picture_of_its_end(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: dict[bytes, Layout] = {}
    real = pool.draw

    def draw(layout: Layout, compact: bool = False) -> bytes:
        data = real(layout, compact)
        drawn[data] = layout
        return data

    monkeypatch.setattr(pool, "draw", draw)
    table = await start_game(world, "hundred", 2, lapsed=True)
    first = world.table_message()
    link = f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/{first.id}"
    [dm] = world.dms(world.bob)  # his view could not be sent: the hand by DM, linking to the table
    assert link in dm.content, dm.content
    assert world.dms(world.ann) == []  # hers was sent on her click on Start
    assert table.state is not None
    live = LivePlay(world)
    while table.state.deal_no == 1:
        await live.move(pick=live.moves % 3)
    assert live.notes[-1].endswith("; deal 1 is over."), live.notes[-1]
    assert all("deal 1 is over" not in note for note in live.notes[:-1])
    log = table.state.log
    deal_2 = max(i for i, e in enumerate(log) if e.kind in DEAL_STARTS)
    final = [int(t) for e in log[:deal_2] if e.to is None for t in re.findall(r"the total is (\d+)", e.text)][-1]

    retired = world.message(first.id)
    assert "deal 1 is over" in retired.embeds[0].title.lower()
    [attachment] = retired.attachments
    assert "Deal 1 · over" in (attachment.description or "") and f"Total {final}" in (attachment.description or "")
    data = world.env.backend.cdn.get(attachment.url)
    assert data in drawn, "the deal's message shows a picture the bot did not draw"
    with drawlog.recording() as log:  # what that picture draws, word by word
        render_png(drawn[data])
    texts = [text for text, _size in log.texts]
    assert "Deal 1 · over" in texts and "Total" in texts and str(final) in texts, texts
    assert not any(text.startswith("Deal 2") for text in texts)
