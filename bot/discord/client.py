"""The Discord client: opens the store, builds the table service with the Discord notifier,
restores open tables, registers the persistent components and the cogs; and ``run_bot``.

Intents: the defaults, none privileged, no message content. Everything the bot does comes
through slash commands and components (interactions), which need no intent at all.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import flows
from bot.discord.cogs.admin import AdminCog
from bot.discord.cogs.info import InfoCog
from bot.discord.cogs.records import RecordsCog
from bot.discord.cogs.referee import RefereeCog
from bot.discord.cogs.tables import TablesCog
from bot.discord.components import DYNAMIC_ITEMS, dispatch_orphan
from bot.discord.notifier import DiscordNotifier
from bot.discord.record_components import RECORD_ITEMS
from bot.discord.safe import safe_reply
from bot.settings import Settings
from bot.tables import TableService
from storage.db import StorageError
from storage.sessions import Store

log = logging.getLogger(__name__)

SHUTDOWN_DRAIN_SECONDS = 5.0


def bot_intents() -> discord.Intents:
    intents = discord.Intents.default()
    intents.message_content = False
    intents.members = False
    intents.presences = False
    return intents


class ParlourBot(commands.Bot):
    def __init__(self, settings: Settings, *, sync_only: bool = False) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=bot_intents(), help_command=None)
        self.settings = settings
        self.sync_only = sync_only
        self._store: Store | None = None
        self._notifier: DiscordNotifier | None = None
        self._service: TableService | None = None
        self.restored = 0

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
        self.add_dynamic_items(*DYNAMIC_ITEMS, *RECORD_ITEMS)
        await self.add_cog(TablesCog(self))
        await self.add_cog(InfoCog(self))
        await self.add_cog(RefereeCog(self))
        await self.add_cog(RecordsCog(self))
        await self.add_cog(AdminCog(self))
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        if self.sync_only:
            return
        self._store = await Store.open(self.settings.database_target)
        self._notifier = DiscordNotifier(self, self._store)
        self._service = TableService(self._store, self._notifier)
        self.restored = await self._service.load()
        log.info("restored %d open table(s) from %s", self.restored, self._store.conn.setting)
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
        else:
            log.error(
                "command %s failed", interaction.command.name if interaction.command else "?", exc_info=error
            )
            text = "Sorry, something went wrong with that command."
        await safe_reply(interaction, text, ephemeral=True)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer what discord.py would drop: a click on a component the message no longer shows
        (sent just before an edit), and a submitted options form (whatever process opened it)."""
        if interaction.type is discord.InteractionType.component:
            await dispatch_orphan(interaction)
        elif interaction.type is discord.InteractionType.modal_submit:
            await flows.form_submitted(interaction)

    async def on_ready(self) -> None:
        log.info("connected as %s to %d server(s)", self.user, len(self.guilds))

    async def dispose(self) -> None:
        """Stop timers, let pending message edits finish, close the database."""
        if self._service is not None:
            await self._service.shutdown()
        if self._notifier is not None:
            try:
                await asyncio.wait_for(self._notifier.drain(), SHUTDOWN_DRAIN_SECONDS)
            except TimeoutError:
                log.warning("some table messages were not updated before shutdown")
        if self._store is not None:
            await self._store.close()
            self._store = None

    async def close(self) -> None:
        await self.dispose()
        await super().close()


async def _sync(bot: ParlourBot, token: str, guild_id: int | None) -> int:
    async with bot:
        await bot.login(token)
        synced = await bot.sync_commands(guild_id)
    where = f"to server {guild_id}" if guild_id else "globally (new commands may take a while to appear)"
    print(f"Registered {len(synced)} slash commands {where}.")
    return 0


async def _serve(bot: ParlourBot, token: str) -> None:
    """Run until closed; SIGTERM (docker stop, systemd) and SIGINT close the bot cleanly, so
    pending table edits are sent and the database is closed."""
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):  # not on Windows
            loop.add_signal_handler(sig, lambda: loop.create_task(bot.close()))
    async with bot:
        await bot.start(token)


def run_bot(settings: Settings, *, sync_only: bool = False, sync_guild: int | None = None) -> int:
    """Run the bot until stopped, or (``sync_only``) register the slash commands and exit."""
    token = settings.discord_token
    if not token:
        print("Set DISCORD_TOKEN (in the environment or .env) to talk to Discord.", file=sys.stderr)
        return 2
    bot = ParlourBot(settings, sync_only=sync_only)
    try:
        if sync_only:
            return asyncio.run(_sync(bot, token, sync_guild))
        asyncio.run(_serve(bot, token))
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
