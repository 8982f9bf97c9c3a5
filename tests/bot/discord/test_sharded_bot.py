"""The sharded client in a simulated Discord: a process given some of the bot's shards connects
those, holds their leases in PostgreSQL while it runs, restores only their servers' tables, and
plays on each of its servers; a process for every shard runs on SQLite as before."""

from __future__ import annotations

import json
from pathlib import Path

import discord
import pytest
import simcord

from bot.discord.client import ParlourBot, ShardedParlourBot, make_bot
from bot.settings import Settings
from bot.tables import TableService
from storage.leases import ShardLeases
from storage.query import Query
from storage.sessions import SeatRecord, Store
from tests.bot.discord.conftest import PatientEnv
from tests.conftest import new_postgres_database
from tests.postgres_server import PostgresServer
from tests.shard_process import guild_on


async def play_a_lobby(env: simcord.Env, guild: simcord.GuildHandle) -> discord.Embed:
    channel = guild.create_text_channel("cards")
    ann = guild.add_member(env.create_user("ann"))
    lobby = (await ann.slash(channel, "play", game="parity")).response
    assert lobby is not None and lobby.embeds
    return lobby.embeds[0]


async def test_a_process_with_two_of_three_shards(postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch) -> None:
    url = await new_postgres_database(postgres_server)
    elsewhere = guild_on(2, 3)
    store = await Store.open(url)  # a table left open on the third shard, another process's
    seats = [SeatRecord("A", "1"), SeatRecord("B", "2")]
    other_session = await store.create_session(
        guild_id=elsewhere, channel_id="9", game="parity", options={}, host_id="1", seats=seats, seed=5
    )
    await store.set_status(other_session, "playing")
    await store.close()

    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        DISCORD_TOKEN=None,
        PARLOUR_DATABASE_URL=url,
        PARLOUR_SHARD_COUNT=3,
        PARLOUR_SHARD_IDS="0-1",
        PARLOUR_LEASE_SECONDS=600,  # renewal is the process tests' (its sleeps would run on the simulated clock)
        PARLOUR_PICTURE_WORKERS=0,  # no drawing processes in a test
    )
    bot = make_bot(settings)
    assert isinstance(bot, ShardedParlourBot) and bot.shard_ids == [0, 1] and bot.shard_count == 3
    renewing_at_restore: list[bool] = []
    restore = TableService.load

    async def load(service: TableService) -> int:
        # a restore may outlast a lease: the renewal must already run (a lapsed lease fences writes)
        renewing_at_restore.append(bot.keeper is not None and bot.keeper.renewing)
        return await restore(service)

    monkeypatch.setattr(TableService, "load", load)
    env = PatientEnv(bot)
    guilds = [env.create_guild(f"on shard {s}", shard_id=s) for s in (0, 1)]
    await env.start()
    try:
        assert sorted(shard.id for shard in bot.shards.values()) == [0, 1]
        assert bot.restored == 0  # the third shard's table is not this process's
        assert renewing_at_restore == [True]
        assert bot.keeper is not None and sorted(bot.keeper.leases.held) == [0, 1]
        await bot.sync_commands()  # globally
        for guild in guilds:
            embed = await play_a_lobby(env, guild)
            assert "Parity" in (embed.title or "")
        assert bot.service.table(elsewhere, "9") is None
        holders = await ShardLeases(bot.store.conn, "visitor").holders()
        assert set(holders) == {0, 1} and len(set(holders.values())) == 1
    finally:
        await env.shutdown()
        await bot.dispose()
    env.raise_errors()

    store = await Store.open(url)  # the leases were given back, and nothing exclusive was left
    try:
        assert await ShardLeases(store.conn, "visitor").holders() == {}
        rows = await store.conn.execute_fetchall(Query("SELECT guild_id, seats FROM sessions ORDER BY id"))
        assert rows[0]["guild_id"] == elsewhere and len(json.loads(rows[1]["seats"])) == 1
    finally:
        await store.close()


def test_unsharded_and_all_shards_in_one_process(tmp_path: Path) -> None:
    plain = make_bot(Settings(_env_file=None, PARLOUR_DB=str(tmp_path / "a"), DISCORD_TOKEN=None))  # type: ignore[call-arg]
    assert type(plain) is ParlourBot
    every = make_bot(
        Settings(_env_file=None, PARLOUR_DB=str(tmp_path / "a"), DISCORD_TOKEN=None, PARLOUR_SHARD_COUNT=2)  # type: ignore[call-arg]
    )
    assert isinstance(every, ShardedParlourBot) and every.shard_ids is None and every.settings.shard_plan is None
