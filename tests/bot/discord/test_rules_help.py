"""Rules and help that read well and say what the bot does (issue 28, point 9): /rules in
reflowed paragraphs, a first page under 2,000 characters and the rest a click away; /help true
to the code about DMs; hand DMs that name and link the channel; suits drawn in one colour scheme."""

from __future__ import annotations

import re

from bot.discord.embeds import RULES_PAGE, reflow
from bot.discord.limits import SUITS, TEXT_STYLE
from games.registry import all_games, get_game
from tests.bot.discord.conftest import World, components_of, embed_text, labels, lobby_lapses
from tests.bot.discord.live_play import LivePlay


def words(text: str) -> list[str]:
    return text.split()


def test_reflowed_rules_keep_every_word_and_break_lines_only_between_items() -> None:
    for game in all_games():
        paragraphs = reflow(game.summary)
        assert words(" ".join(paragraphs)) == words(game.summary), game.id
        for paragraph in paragraphs:
            for line in paragraph.splitlines()[1:]:  # a paragraph's later lines are its bullets
                assert line.startswith(("* ", "- ")), (game.id, line)


async def test_rules_first_page_is_short_and_the_rest_a_click_away(world: World) -> None:
    game = get_game("hoodwink")  # the longest rules (5,229 characters on one page before)
    first = await world.ann.slash(world.channel, "rules", game="hoodwink")
    message = first.response
    assert message is not None and message.ephemeral
    [embed] = message.embeds
    assert len(embed) < 2000 and len(embed.description or "") <= RULES_PAGE
    assert not re.search(r"[a-z,]\n[a-z]", embed.description or "")  # no line broken mid-sentence
    assert labels(message) == ["How to play", "More rules", "Options", "Bot levels"]
    assert [c.get("disabled", False) for c in components_of(message)] == [True, False, False, False]
    pages = {"How to play": embed_text(message)}
    for label in ("More rules", "Options", "Bot levels"):
        await world.ann.click(message, label=label)
        message = first.response
        assert message is not None
        pages[label] = embed_text(message)
        assert [c["label"] for c in components_of(message) if c.get("disabled")] == [label]
    shown = words(pages["How to play"]) + words(pages["More rules"])
    assert all(w in shown for w in words(game.summary))  # every word of the rules is on a page
    assert "Trumps:" not in pages["How to play"] and "as standard" in pages["Options"]
    assert "strong" in pages["Bot levels"].lower()


async def test_a_short_game_has_its_rules_on_one_page(world: World) -> None:
    shown = await world.ann.slash(world.channel, "rules", game="hundred")
    assert shown.response is not None
    assert "More rules" not in labels(shown.response)
    assert words(get_game("hundred").summary)[:20] == words(shown.response.embeds[0].description or "")[:20]


async def test_help_says_when_hands_are_dmed(world: World) -> None:
    shown = await world.ann.slash(world.channel, "help")
    assert shown.response is not None
    text = embed_text(shown.response)
    assert "Each deal I DM you your hand" not in text
    assert "your view is not open" in text and "Spec" in text and "Wit and Reason (II)" in text


async def test_a_hand_dm_names_and_links_the_channel_and_goes_only_to_a_closed_view(world: World) -> None:
    """Toy Tricks, two deals: Bob joined a quarter of an hour before the start, too long ago for
    his view to be sent then, so he gets his hand by DM, naming the channel with a link (Ann's
    view was sent on her click on Start: no DM); both keep their views open into deal 2 and get
    no DM then."""
    lobby = (await world.ann.slash(world.channel, "play", game="toy", options="first_dealer=2 deals=2")).response
    assert lobby is not None
    await world.bob.click(lobby, label="Join")
    await lobby_lapses(world)
    await world.ann.click(lobby, label="Start")
    await world.settle()
    assert world.dms(world.ann) == []
    [dm] = world.dms(world.bob)
    link = f"https://discord.com/channels/{world.guild.id}/{world.channel.id}"
    assert dm.content.startswith(f"Toy Tricks at <#{world.channel.id}> ({link}/{world.table_message().id}) - your view:")
    assert "Your hand:" in dm.content and "in your channel" not in dm.content
    live = LivePlay(world)
    table = world.require_table()
    assert table.state is not None
    while table.state.deal_no == 1:
        await live.move()
    assert [len(world.dms(p)) for p in (world.ann, world.bob)] == [0, 1]


def test_suits_are_drawn_as_text_everywhere_in_an_embed() -> None:
    from bot.discord.limits import legible

    text = legible("A♠ K♥ Q♦ J♣")
    assert all(text[text.index(s) + 1] == TEXT_STYLE for s in SUITS)
