"""The Discord client: opens the store, builds the table service with the Discord notifier,
restores open tables, adds the cogs (clicks reach their flows through ``on_interaction``); and ``run_bot``.

Unsharded, one process serves every server; on PostgreSQL it holds the whole database's lease
(``bot.shards.WHOLE``), so that its writes are fenced as a sharded process's are. With ``PARLOUR_SHARD_COUNT`` the client is
discord.py's sharded one; with ``PARLOUR_SHARD_IDS`` as well, this process connects only its
share of the shards, takes their leases in the shared PostgreSQL database before it serves
anything (see ``bot/shards.py``), restores only their servers' tables, and stops at once if it
ever loses a lease, so that its supervisor restarts it to wait for its shards again.

Intents: the defaults, none privileged, no message content. Everything the bot does comes
through slash commands and components (interactions), which need no intent at all.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import sys
from typing import Any

import aiohttp
import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.discord import activity, lobby, play, referee, typed
from bot.discord.cogs.admin import AdminCog
from bot.discord.cogs.info import InfoCog
from bot.discord.cogs.records import RecordsCog
from bot.discord.cogs.referee import RefereeCog
from bot.discord.cogs.tables import TablesCog
from bot.discord.handlers import Handlers
from bot.discord.notifier import DiscordNotifier
from bot.discord.safe import safe_reply
from bot.discord.stopping import quiet_discord_logs, serve
from bot.discord.strays import dispatch_component, form_submitted
from bot.render import pool
from bot.service.registry import UNAVAILABLE, everywhere
from bot.settings import Settings
from bot.shards import ShardKeeper, lease_plan, shard_of
from bot.tables import TableService
from bot.web.identity import DISCORD_API
from bot.web.run import LiveSite, start_live_table
from storage.db import StorageError, StorageUnavailable
from storage.sessions import Store

log = logging.getLogger(__name__)

SHUTDOWN_DRAIN_SECONDS = 2.0
"""How long a stop waits for pending table edits: within the few seconds a supervisor allows."""
GATEWAY_RETRY_SECONDS = (1.0, 60.0)
"""The first and the longest wait between attempts to reach a gateway never reached yet."""
GC_THRESHOLDS = (50_000, 20, 20)
"""The garbage collector's thresholds in a running bot (Python's are 700, 10, 10): a move makes
thousands of short-lived objects (the interaction's payload and models, the flows' coroutines), so
with 700 the young generation was collected several times a move and the older ones often. With
:func:`settle_heap`, ``bench_capacity`` measured the event loop's CPU a move 1-3% lower."""


def settle_heap() -> None:
    """Once the bot is connected: take what lives until the process stops (modules, the restored
    tables, discord.py's caches of servers and channels) out of the garbage collector's way
    (``gc.freeze``), and collect the young generation less often (:data:`GC_THRESHOLDS`). Only a
    running bot (``run_bot``) does this: it is a setting of the whole process."""
    gc.collect(1)
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def bot_intents() -> discord.Intents:
    """The gateway events the bot asks for: none privileged, and none about messages, reactions
    or typing, which it never reads (it is driven by interactions): with them, every message posted
    in any channel of its servers would reach it and be parsed, its own table edits included."""
    intents = discord.Intents.default()
    intents.message_content = False
    intents.members = False
    intents.presences = False
    intents.messages = False
    intents.reactions = False
    intents.typing = False
    return intents


class ParlourBot(commands.Bot):
    def __init__(self, settings: Settings, *, sync_only: bool = False, **options: Any) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=bot_intents(),
            help_command=None,
            # nobody is pinged unless a message says whom (turn pings and notices name their user)
            allowed_mentions=discord.AllowedMentions.none(),
            **options,
        )
        self.settings = settings
        self.sync_only = sync_only
        self._store: Store | None = None
        self._notifier: DiscordNotifier | None = None
        self._service: TableService | None = None
        self.live_site: LiveSite | None = None
        """The live table's web server, when it is on."""
        self.keeper: ShardKeeper | None = None
        """This process's shard leases, when it serves only some shards (``PARLOUR_SHARD_IDS``)."""
        self.restored = 0
        self.lost_shards: list[int] = []
        self.stop_requested = False
        """Set when a signal asked the process to stop (what fails after that is not an error)."""
        self._closing = asyncio.Event()
        self.settles_heap = False
        """Whether the first ``on_ready`` calls :func:`settle_heap` (``run_bot`` sets it)."""
        self.handlers = Handlers(
            lobby=lobby.lobby_action,
            show_hand=play.show_hand,
            act=play.act_from_hand,
            pick=play.pick,
            navigate=play.navigate,
            public_act=play.public_act,
            referee=referee.referee_action,
            type_entry=typed.open_entry_form,
            open_live=activity.open_live,
        )
        """The flows the table's components call (see ``bot/discord/handlers.py``)."""

    @property
    def store(self) -> Store:
        if self._store is None:
            raise RuntimeError("the bot is not set up yet")
        return self._store

    @property
    def notifier(self) -> DiscordNotifier:
        if self._notifier is None:
            raise RuntimeError("the bot is not set up yet")
        return self._notifier

    @property
    def service(self) -> TableService:
        if self._service is None:
            raise RuntimeError("the bot is not set up yet")
        return self._service

    async def setup_hook(self) -> None:
        await self.add_cog(TablesCog(self))
        await self.add_cog(InfoCog(self))
        await self.add_cog(RefereeCog(self))
        await self.add_cog(RecordsCog(self))
        await self.add_cog(AdminCog(self))
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        if self.sync_only:
            return
        pool.configure(self.settings.picture_workers)
        plan = self.settings.shard_plan
        self._store = await Store.open(self.settings.database_target, shared=plan is not None)
        serves = everywhere
        leased = lease_plan(self._store.conn, plan)  # unsharded on PostgreSQL: the whole database
        if leased is not None:
            address = self.settings.web_prefix if self.settings.live_table else None
            self.keeper = ShardKeeper(self._store.conn, leased, seconds=self.settings.lease_seconds, address=address)
            await self.keeper.acquire()  # waits for a dead predecessor's leases to lapse
            serves = self.keeper.serves
        self._notifier = DiscordNotifier(self, self._store)
        self._service = TableService(self._store, self._notifier, serves=serves)
        if self.keeper is not None:
            # renewing from now on: restoring many tables may take longer than a lease, and a
            # lapsed lease fences every write (and lets a waiting process take the shard)
            self.keeper.start(self._shards_lost)
        self.restored = await self._service.load()
        if self.settings.live_table:
            await self.start_live_table()
        where = f" ({plan.describe()})" if plan is not None else ""
        log.info("restored %d open table(s) from %s%s", self.restored, self._store.conn.setting, where)
        if self.settings.dev_guild_id:
            await self.sync_commands(self.settings.dev_guild_id)

    async def sync_commands(self, guild_id: int | None = None) -> list[app_commands.AppCommand]:
        """Register the slash commands: in one guild (instant, for development) or globally."""
        if guild_id:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d commands %s", len(synced), f"to guild {guild_id}" if guild_id else "globally")
        return synced

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, app_commands.NoPrivateMessage):
            text = "Tables live in server channels: use me in a channel of your server."
        elif isinstance(error, app_commands.CheckFailure):
            text = "You cannot use that command here."
        elif isinstance(getattr(error, "original", error), StorageUnavailable):
            log.warning("command %s: %s", interaction.command.name if interaction.command else "?", error)
            text = UNAVAILABLE
        else:
            log.error(
                "command %s failed", interaction.command.name if interaction.command else "?", exc_info=error
            )
            text = "Sorry, something went wrong with that command."
        await safe_reply(interaction, text, ephemeral=True)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every click and submitted form: straight to its flow by custom id (see
        :mod:`bot.discord.strays`; no DynamicItem is registered with discord.py)."""
        if interaction.type is discord.InteractionType.component:
            await dispatch_component(interaction)
        elif interaction.type is discord.InteractionType.modal_submit:
            await form_submitted(interaction)

    async def on_ready(self) -> None:
        if self.settles_heap:
            self.settles_heap = False  # once: a reconnection's caches are not the start-up's
            settle_heap()
        log.info("connected as %s to %d server(s)", self.user, len(self.guilds))

    async def _shards_lost(self, lost: list[int]) -> None:
        """Another process holds some of this process's shards now (this one stalled past its
        lease): forget their tables at once, then stop, so that the supervisor restarts the
        process to wait for its shards again. Storage has refused its writes since the loss."""
        count = self.keeper.plan.count if self.keeper is not None else 1
        dropped = self.service.let_go(lambda guild: shard_of(guild, count) in lost)
        log.error("stopping: shard(s) %s moved to another process with %d table(s)", lost, dropped)
        self.lost_shards = lost
        asyncio.get_running_loop().create_task(self.close())

    async def start_live_table(self, discord_api: str = DISCORD_API) -> LiveSite:
        """Serve the live table beside the bot (``PARLOUR_PUBLIC_URL``); ``discord_api`` is where
        the log-in's codes are checked (Discord's API; a test's stand-in)."""
        token = self.http.token or ""
        client_id = str(self.application_id or (self.user.id if self.user else ""))
        self.live_site = await start_live_table(
            self.service,
            self.settings,
            client_id=client_id,
            bot_token=token,
            membership=self.is_member,
            discord_api=discord_api,
            locate=self.keeper.web_address if self.keeper is not None else None,
        )
        self.notifier.live_table = True
        return self.live_site

    async def is_member(self, guild_id: str, user_id: str) -> bool:
        """Whether a user belongs to a server (who may watch its tables in a browser)."""
        guild = self.get_guild(int(guild_id))
        if guild is None:
            return False
        if guild.get_member(int(user_id)) is not None:
            return True
        try:
            await guild.fetch_member(int(user_id))
        except discord.HTTPException:
            return False
        return True

    async def dispose(self) -> None:
        """Stop timers, let pending message edits finish, stop the picture workers, give back the
        shard leases, close the database."""
        if self.live_site is not None:
            await self.live_site.close()
            self.live_site = None
        if self._service is not None:
            await self._service.shutdown()
        if self._notifier is not None:
            self._notifier.stop()
            try:
                await asyncio.wait_for(self._notifier.drain(), SHUTDOWN_DRAIN_SECONDS)
            except TimeoutError:
                log.warning("some table messages were not updated before shutdown")
        pool.drawer().close()  # the picture workers end with the bot (a picture still wanted is drawn here)
        if self.keeper is not None:
            await self.keeper.stop()
            self.keeper = None
        if self._store is not None:
            await self._store.close()
            self._store = None

    async def connect(self, *, reconnect: bool = True) -> None:
        """discord.py's connection loop, retried here while the gateway has never been reached:
        its own retry then asks for the session it never had (``AttributeError: 'NoneType'
        object has no attribute 'sequence'``) and stops the bot."""
        wait = GATEWAY_RETRY_SECONDS[0]
        while not self.is_closed():
            try:
                await super().connect(reconnect=reconnect)
                return
            except AttributeError:
                if isinstance(self, commands.AutoShardedBot) or self.ws is not None or self.is_closed():
                    raise
            log.debug("the Discord gateway was never reached; trying again in %.0f s", wait)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closing.wait(), wait)
            wait = min(2 * wait, GATEWAY_RETRY_SECONDS[1])

    async def close(self) -> None:
        self._closing.set()
        await self.dispose()
        await super().close()


class _LaunchAgain(Exception):
    """discord.py's shard launcher asked to launch a shard again (see ``launch_shard``)."""


class ShardedParlourBot(ParlourBot, commands.AutoShardedBot):
    """Several gateway shards in one process: all of the bot's, or (``PARLOUR_SHARD_IDS``) its share."""

    def __init__(self, settings: Settings, *, sync_only: bool = False, **options: Any) -> None:
        super().__init__(settings, sync_only=sync_only, **options)
        self._launching: set[int] = set()

    async def launch_shard(self, gateway: yarl.URL, shard_id: int, *, initial: bool = False) -> None:
        """Connect one shard, trying again until it connects or the bot closes.

        discord.py retries a shard that failed to connect by calling ``launch_shard`` again
        after 5 s, from inside its ``except``: it never asks whether the client is closing, so a
        stopped process runs on ("Session is closed"), each traceback chains the earlier ones,
        and the recursion deepens forever (upstream Rapptz/discord.py#10202). Here that inner
        call returns at once to this loop, which stops once the bot is closing."""
        if shard_id in self._launching:  # discord.py's retry from inside its own attempt
            raise _LaunchAgain
        self._launching.add(shard_id)
        try:
            while not self.is_closed():
                try:
                    await super().launch_shard(gateway, shard_id, initial=initial)
                    return
                except _LaunchAgain:
                    continue
        finally:
            self._launching.discard(shard_id)


def make_bot(settings: Settings, *, sync_only: bool = False) -> ParlourBot:
    """The client the settings ask for: sharded when ``PARLOUR_SHARD_COUNT`` is set."""
    if settings.shard_count is None:
        return ParlourBot(settings, sync_only=sync_only)
    ids = list(settings.shard_ids) if settings.shard_ids is not None else None
    return ShardedParlourBot(settings, sync_only=sync_only, shard_count=settings.shard_count, shard_ids=ids)


async def _sync(bot: ParlourBot, token: str, guild_id: int | None) -> int:
    async with bot:
        await bot.login(token)
        synced = await bot.sync_commands(guild_id)
    where = f"to server {guild_id}" if guild_id else "globally (new commands may take a while to appear)"
    print(f"Registered {len(synced)} slash commands {where}.")
    return 0


def run_bot(settings: Settings, *, sync_only: bool = False, sync_guild: int | None = None) -> int:
    """Run the bot until stopped, or (``sync_only``) register the slash commands and exit."""
    token = settings.discord_token
    if not token:
        print("Set DISCORD_TOKEN (in the environment or .env) to talk to Discord.", file=sys.stderr)
        return 2
    quiet_discord_logs()
    bot = make_bot(settings, sync_only=sync_only)
    bot.settles_heap = not sync_only
    try:
        if sync_only:
            return asyncio.run(_sync(bot, token, sync_guild))
        # SIGTERM (docker stop, systemd) and SIGINT stop it within a few seconds, the pending
        # table edits sent, the shard leases given back and the database closed
        asyncio.run(serve(bot, token))
        if bot.lost_shards:
            print(
                f"Parlour stopped: shard(s) {', '.join(map(str, bot.lost_shards))} moved to another process "
                "while this one was not renewing its leases. Restart it to wait for its shards.",
                file=sys.stderr,
            )
            return 1
    except discord.LoginFailure:
        print("Parlour cannot start: Discord refused the token. Check DISCORD_TOKEN.", file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:
        print("Parlour cannot start: Discord refused the intents; this bot asks for none that are privileged.", file=sys.stderr)
        return 1
    except StorageError as exc:
        print(f"Parlour cannot start: {exc}", file=sys.stderr)
        return 1
    except (aiohttp.ClientError, OSError, discord.GatewayNotFound) as exc:
        print(
            f"Parlour cannot start: Discord could not be reached ({type(exc).__name__}: {exc}). "
            "Check this machine's network connection and proxy settings.",
            file=sys.stderr,
        )
        return 1
    return 0
