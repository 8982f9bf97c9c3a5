"""Running the bot until SIGTERM or SIGINT, and stopping within a few seconds whatever the gateway
is doing (connected, reconnecting, never reached; sharded or not).

discord.py retries a gateway it cannot reach in loops that do not all ask whether the client is
closing: the sharded launcher retries a shard by calling itself again after 5 s, forever, each
traceback chaining the earlier ones (upstream Rapptz/discord.py#10202, open). So the stop is ours:
on a signal :func:`serve` closes the bot (which gives back the shard leases and closes the
database first, see ``ParlourBot.dispose``), then cancels whatever of discord.py's start-up is
still sleeping between attempts. :class:`OneLineRetries` turns each retry's log record into one
line naming the error.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from typing import Protocol

import discord

log = logging.getLogger(__name__)

CLOSE_SECONDS = 3.5
"""How long closing the bot may take (pending table edits, leases, database, the gateway)."""
GRACE_SECONDS = 0.5
"""How long discord.py's start-up may take to notice the close before it is cancelled."""

RETRY_MESSAGES = ("Attempting a reconnect", "Failed to connect for shard_id")
"""discord.py's log messages for one failed gateway attempt (``discord.client``, ``discord.shard``)."""


class OneLineRetries(logging.Filter):
    """One line per failed gateway attempt, naming the error, instead of a traceback (the sharded
    launcher's retries would chain every earlier traceback into each new one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.msg, str) and record.msg.startswith(RETRY_MESSAGES):
            error = record.exc_info[1]
            record.msg = f"{record.getMessage()} ({type(error).__name__}: {error})"
            record.args = None
            record.exc_info = None
            record.exc_text = None
        return True


def quiet_discord_logs() -> None:
    """Install :class:`OneLineRetries` on discord.py's loggers and turn off its voice warnings
    (Parlour uses no voice, so PyNaCl and davey are not installed on purpose)."""
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    one_line = OneLineRetries()
    for name in ("discord.client", "discord.shard", "discord.gateway"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, OneLineRetries) for f in logger.filters):
            logger.addFilter(one_line)


class Closable(Protocol):
    stop_requested: bool

    async def start(self, token: str) -> None: ...

    async def close(self) -> None: ...


async def serve(bot: Closable, token: str) -> None:
    """Run ``bot`` until it stops by itself (its errors are raised) or a signal arrives: then
    close it and end discord.py's start-up loops, within about ``CLOSE_SECONDS + GRACE_SECONDS``."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):  # not on Windows
            loop.add_signal_handler(sig, stop.set)
    running = loop.create_task(bot.start(token), name="parlour-bot")
    stopping = loop.create_task(stop.wait(), name="parlour-stop-signal")
    try:
        await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping.cancel()
    if running.done() and not stop.is_set():
        try:
            running.result()  # an error at start-up, or the bot closed itself (a lost lease)
        finally:
            await _close(bot)
        return
    log.info("stopping: closing the tables and the database")
    bot.stop_requested = True
    await _close(bot)
    done, _ = await asyncio.wait({running}, timeout=GRACE_SECONDS)
    if not done:  # asleep between gateway attempts (Rapptz/discord.py#10202): end it here
        running.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await running  # what failed after the stop (a closed session, a refused gateway) is moot
    log.info("stopped")


async def _close(bot: Closable) -> None:
    try:
        await asyncio.wait_for(bot.close(), CLOSE_SECONDS)
    except TimeoutError:
        log.warning("the connection to Discord did not close within %.1f s; stopping anyway", CLOSE_SECONDS)
