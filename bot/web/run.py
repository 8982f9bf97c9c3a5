"""Starting and stopping the live table beside a transport (the Discord client) in its process."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import aiohttp
from aiohttp import web

from bot.settings import Settings
from bot.tables import TableService
from bot.web.identity import DISCORD_API, DiscordIdentity
from bot.web.live import Broadcast, LiveTables
from bot.web.routing import Locate
from bot.web.server import Membership, WebConfig, WebServer, serve, stop
from bot.web.sessions import Sessions, session_key

log = logging.getLogger(__name__)


@dataclass
class LiveSite:
    server: WebServer
    runner: web.AppRunner
    http: aiohttp.ClientSession

    async def close(self) -> None:
        await stop(self.runner)
        await self.http.close()


async def start_live_table(
    service: TableService,
    settings: Settings,
    *,
    client_id: str,
    bot_token: str,
    membership: Membership,
    discord_api: str = DISCORD_API,
    locate: Locate | None = None,
) -> LiveSite:
    """Serve the live table for ``service``'s tables: every change the service announces reaches
    the open browsers too (the transport's own notifier is wrapped, not replaced). A sharded
    process also serves at its ``PARLOUR_WEB_PREFIX`` and sends pages of other processes' servers
    where ``locate`` says (:mod:`bot.web.routing`)."""
    assert settings.public_url is not None and settings.client_secret is not None
    live = LiveTables(service.settings)
    service.core.notifier = Broadcast(service.core.notifier, live)
    http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))
    identity = DiscordIdentity(
        http, client_id=client_id, client_secret=settings.client_secret, bot_token=bot_token, base_url=discord_api
    )
    sessions = Sessions(session_key(settings.client_secret))
    config = WebConfig(settings.public_url, client_id)
    server = WebServer(
        service,
        identity,
        live,
        config,
        membership=membership,
        sessions=sessions,
        prefix=settings.web_prefix or "",
        locate=locate,
    )
    try:
        runner = await serve(server, settings.web_host, settings.web_port)
    except OSError as exc:
        await http.close()
        raise OSError(f"the live table cannot listen on {settings.web_host}:{settings.web_port}: {exc.strerror}") from exc
    log.info(
        "The live table is at %s%s (listening on %s:%s)",
        settings.public_url,
        settings.web_prefix or "",
        settings.web_host,
        settings.web_port,
    )
    return LiveSite(server, runner, http)
