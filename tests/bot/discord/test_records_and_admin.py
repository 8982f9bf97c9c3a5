"""From a finished game to the leaderboard, stats, history, replay and export; and the admin
commands, which only members who may manage the server can use."""

from __future__ import annotations

import csv
import io
import json

import discord
import simcord

from bot.discord.records import NOT_ADMIN
from storage.query import Query
from tests.bot.discord.conftest import GUILD_ID, World, embed_text, labels, play_turn, replies, reply_text
from tests.bot.discord.test_play import started_toy


def admin(world: World) -> simcord.MemberActor:
    role = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("boss"), roles=[role])


async def finish_toy(world: World, deals: int = 2) -> int:
    await started_toy(world, f"first_dealer=2 deals={deals}")
    table = world.require_table()
    while world.table is not None:
        await play_turn(world)
    return table.id


async def test_finished_game_reaches_the_leaderboard_stats_history_replay_and_export(world: World) -> None:
    match_id = await finish_toy(world)
    # the end-of-match message shows the final table, and the running scores as a chart below it
    last = [m for m in world.bot_messages() if m.embeds and "final result" in embed_text(m)]
    assert len(last) == 1 and [a.filename for a in last[0].attachments] == ["table.png", "scores.png"]
    assert [str(e.image.url).rsplit("/", 1)[-1] for e in last[0].embeds] == ["table.png", "scores.png"]

    board = await world.cat.slash(world.channel, "leaderboard")  # no game: the most played one
    text = reply_text(board)
    assert "Toy Tricks leaderboard - all time" in text
    assert "Provisional:" in text and "ann" in text and "bob" in text and "cat" not in text.split("all time")[1]
    assert not replies(board)[0].ephemeral and not labels(replies(board)[0])  # one page: no page buttons

    week = await world.cat.slash(world.channel, "leaderboard", game="toy", period="week")
    assert "last 7 days" in reply_text(week) and "1 game," in reply_text(week)

    mine = await world.ann.slash(world.channel, "stats", game="toy", versus=world.bob)
    text = reply_text(mine)
    assert "ann - Toy Tricks" in text and "Games 1" in text and "Against bob: 1 game together" in text

    history = await world.cat.slash(world.channel, "history", member=world.bob)
    assert f"#{match_id} Toy Tricks" in reply_text(history)
    # the three record commands answer alike: in the channel, for everyone
    assert not any(replies(r)[0].ephemeral for r in (board, mine, history))

    replay = await world.cat.slash(world.channel, "replay", match=match_id)
    text = reply_text(replay)
    assert f"Replay of match #{match_id}" in text and "Deal 1" in text and "Deal 2" in text
    assert "Final scores:" in text

    nothing = await world.cat.slash(world.channel, "replay", match=match_id + 50)
    assert f"no match #{match_id + 50}" in reply_text(nothing)

    exported = await world.cat.slash(world.channel, "export")
    files = replies(exported)[0].attachments
    assert [f.filename for f in files] == ["parlour-results.csv"]
    rows = list(csv.DictReader(io.StringIO((await files[0].read()).decode())))
    assert sorted(r["player"] for r in rows) == ["ann", "bob"] and {r["match"] for r in rows} == {str(match_id)}

    one = await world.cat.slash(world.channel, "export", match=match_id)
    files = replies(one)[0].attachments
    data = json.loads(await files[0].read())
    assert data["match"] == match_id and data["game"] == "toy" and data["rated"] is True and data["actions"]


async def test_leaderboard_pages_turn_with_buttons(world: World) -> None:
    await finish_toy(world, deals=1)
    conn = world.bot.service.store.conn
    for i in range(23):  # established players, so that the board needs three pages
        await conn.execute(
            Query(
                "INSERT INTO ratings (guild_id, game, season, user_id, name, mu, sigma, ordinal, games, wins)"
                " VALUES (:guild, 'toy', 0, :user, :name, :mu, 2.0, :ordinal, 30, 10)"
            ),
            guild=str(world.guild.id),
            user=str(1000 + i),
            name=f"player{i:02}",
            mu=40.0 - i,
            ordinal=34.0 - i,
        )
    await conn.commit()
    board = await world.cat.slash(world.channel, "leaderboard", game="toy")
    first = replies(board)[0]
    assert labels(first) == ["Previous", "Next"] and "Page 1 of 3" in embed_text(first)
    assert "  1. player00" in embed_text(first) and "player10" not in embed_text(first)
    await world.cat.click(first, label="Next")
    second = world.message(first.id)
    assert "Page 2 of 3" in embed_text(second) and " 11. player10" in embed_text(second)
    await world.ann.click(second, label="Next")
    third = world.message(first.id)
    assert "Page 3 of 3" in embed_text(third) and "Provisional:" in embed_text(third)
    await world.bob.click(third, label="Previous")
    assert "Page 2 of 3" in embed_text(world.message(first.id))


async def test_every_admin_command_refuses_a_non_admin(world: World) -> None:
    # Discord hides /admin from members without Manage Server...
    assert not [c for c in world.mod.available_commands(world.channel) if c.startswith("admin")]
    assert "admin settings" in admin(world).available_commands(world.channel)
    # ...but a server may show it to others; the bot checks again at every use
    commands = await world.bot.tree.fetch_commands(guild=discord.Object(GUILD_ID))
    world.guild.set_command_permissions(next(c for c in commands if c.name == "admin"), {world.mod: True})
    attempts: list[tuple[str, dict[str, object]]] = [
        ("admin season new", {}),
        ("admin rating reset", {"member": world.bob}),
        ("admin settings", {}),
        ("admin settings", {"dms": False}),
        ("admin log", {}),
    ]
    for command, args in attempts:
        result = await world.mod.slash(world.channel, command, **args)  # Manage Messages is not enough
        assert NOT_ADMIN in reply_text(result), command
        assert all(m.ephemeral for m in replies(result))
    assert (await world.bot.service.settings(str(GUILD_ID))).dms_enabled
    assert list(await world.bot.store.conn.execute_fetchall(Query("SELECT * FROM admin_log"))) == []


async def test_seasons_and_rating_reset_with_confirmation(world: World) -> None:
    boss = admin(world)
    await finish_toy(world, deals=1)
    season = await boss.slash(world.channel, "admin season new")
    assert "Season 2 has begun" in reply_text(season) and not replies(season)[0].ephemeral
    season_board = await world.cat.slash(world.channel, "leaderboard", game="toy", period="season")
    assert "season 2" in reply_text(season_board) and "No rated games yet." in reply_text(season_board)
    all_time = await world.cat.slash(world.channel, "leaderboard", game="toy", period="all")
    assert "ann" in reply_text(all_time)

    asked = await boss.slash(world.channel, "admin rating reset", member=world.ann)
    question = replies(asked)[0]
    assert question.ephemeral and labels(question) == ["Reset the rating", "Keep it"]
    await boss.click(question, label="Keep it")
    assert "Nothing was reset" in question.content
    conn = world.bot.store.conn
    ann = str(world.ann.id)
    assert await conn.execute_fetchall(Query("SELECT * FROM ratings WHERE user_id = :ann"), ann=ann)

    asked = await boss.slash(world.channel, "admin rating reset", member=world.ann)
    await boss.click(replies(asked)[0], label="Reset the rating")
    assert "Reset" in replies(asked)[0].content and "removed" in replies(asked)[0].content
    assert await conn.execute_fetchall(Query("SELECT * FROM ratings WHERE user_id = :ann"), ann=ann) == []
    assert await conn.execute_fetchall(Query("SELECT * FROM results")) != []  # results stay

    logged = await boss.slash(world.channel, "admin log")
    text = reply_text(logged)
    assert "season new" in text and "rating reset" in text and f"<@{boss.id}>" in text


async def test_settings_change_validate_and_apply(world: World) -> None:
    boss = admin(world)
    shown = await boss.slash(world.channel, "admin settings")
    assert "Hands by DM at each deal: on" in reply_text(shown)

    bad = await boss.slash(world.channel, "admin settings", game="toy", default_options="deals=zero")
    assert "deals" in reply_text(bad) and "saved" not in reply_text(bad)
    assert (await world.bot.service.settings(str(world.guild.id))).default_options == {}

    saved = await boss.slash(
        world.channel, "admin settings", dms=False, reminder_seconds=60, game="toy", default_options="deals=3"
    )
    text = reply_text(saved)
    assert "saved" in text and "Hands by DM at each deal: off" in text and "after 60 s" in text
    assert "Default options for toy: deals=3" in text

    other = world.guild.create_text_channel("quiet")
    await boss.slash(world.channel, "admin settings", allow_channel=world.channel)
    refused = await world.ann.slash(other, "play", game="toy")
    assert "cannot be opened in this channel" in reply_text(refused)
    opened = await world.ann.slash(world.channel, "play", game="toy")
    assert "Deals: 3" in embed_text(replies(opened)[0])  # the server's default options apply

    logged = reply_text(await boss.slash(world.channel, "admin log"))
    assert "dms_enabled=False" in logged and "default_options[toy]=deals=3" in logged


async def test_help_names_the_records_commands_and_the_rating_thresholds(world: World) -> None:
    text = reply_text(await world.cat.slash(world.channel, "help"))
    assert "/leaderboard" in text and "/admin settings" in text
    assert "provisional until they have" in text and "mu - 3 sigma" in text
