"""The table message says each fact once and briefly beside its picture (issue 28, point 7): a
deal of Hoodwink played by three people through their live views, every table message measured
as it stood after each move; the deal's message, once retired, keeps its picture and gives the
scores once."""

from __future__ import annotations

import re

from tests.bench.bench_table_text import GOAL, embed_text
from tests.bot.discord.conftest import World, start_game
from tests.bot.discord.live_play import LivePlay


async def test_a_hoodwink_deal_in_short_table_messages(world: World) -> None:
    table = await start_game(world, "hoodwink", 3)
    first = world.table_message()
    assert table.state is not None
    live = LivePlay(world)
    lengths: list[int] = []
    while table.state.view(None).deal == 1:
        await live.move(pick=live.moves % 3)
        message = world.table_message()
        [embed] = message.embeds
        text = embed_text(embed)
        lengths.append(len(text))
        if table.state.view(None).deal == 1:
            assert [a.filename for a in message.attachments] == ["table.png"]
            assert "To play:" in text and text.count("To play") == 1
            assert "Scores:" not in text  # in the picture
            assert len((embed.description or "").splitlines()) <= 2  # the news in one line, whose turn
    assert max(lengths) <= GOAL, lengths
    retired = world.message(first.id)
    assert "deal 1 is over" in embed_text(retired.embeds[0])
    text = embed_text(retired.embeds[0])
    assert len(re.findall(r"Scores:", text)) == 1, text  # Hoodwink's deal end said them three times
    assert [a.filename for a in retired.attachments] == ["table.png"]
