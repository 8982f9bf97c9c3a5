"""Running the console: its storage, table service and console opened together, then lines read
and handled until the input ends or the person leaves."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import random
import sys
import threading
from collections.abc import Callable
from typing import TextIO

from bot.console.commands import Console
from bot.console.notifier import ConsoleNotifier
from bot.console.terminal import LineReader, Terminal
from bot.service.registry import everywhere
from bot.shards import ShardKeeper, lease_plan
from bot.tables import TableService
from storage.sessions import Store

GOODBYE = "Goodbye. Open tables are kept: start the console again to carry on."


class Session:
    """The console's storage, table service and console, opened and closed together."""

    def __init__(
        self, store: Store, service: TableService, console: Console, keeper: ShardKeeper | None = None
    ) -> None:
        self.store, self.service, self.console, self.keeper = store, service, console, keeper

    @classmethod
    async def open(
        cls, database: str, write: Callable[[str], None], seed: int | None = None
    ) -> tuple[Session, int]:
        """Open the database, take its lease (on PostgreSQL, as the bot does) and restore its
        tables; returns the session and how many tables. ``seed`` makes the deals the same on
        every run (a demo, a bug report)."""
        store = await Store.open(database)
        keeper: ShardKeeper | None = None
        try:
            leased = lease_plan(store.conn, None)
            if leased is not None:
                keeper = ShardKeeper(store.conn, leased)
                await keeper.acquire()
            notifier = ConsoleNotifier(write)
            service = TableService(store, notifier, rng=random.Random(seed) if seed is not None else None)
            if keeper is not None:

                async def lost(shards: list[int]) -> None:
                    service.let_go(everywhere)
                    write("Another Parlour process has taken this database over: this console can no longer act. /quit")

                keeper.start(lost)
            restored = await service.load()
            await service.wait_resumed()  # bots whose turn it was have moved before the first line is read
        except BaseException:
            if keeper is not None:
                await keeper.stop()
            await store.close()
            raise
        return cls(store, service, Console(service, write, people=notifier.people), keeper), restored

    async def close(self) -> None:
        try:
            await self.service.shutdown()
        finally:
            try:
                if self.keeper is not None:
                    await self.keeper.stop()
            finally:
                await self.store.close()


WELCOME = "Parlour console. Type `name: /help` for commands, `name: /play GAME` to open a table."


async def run_console(
    database: str, source: TextIO = sys.stdin, out: Callable[[str], None] = print, seed: int | None = None
) -> None:
    """Run the console on a file, a pipe or a test's source, one message a line, until its end,
    ``/quit``, or an interrupt (a ``KeyboardInterrupt`` from the source, or this task cancelled:
    it does not wait for a line that will not come)."""
    session, restored = await Session.open(database, out, seed)
    reader = LineReader(source.readline)
    try:
        out(WELCOME)
        if restored:
            out(f"Restored {restored} open table(s).")
        while True:
            line = await reader.next_line()
            if line is None or not await session.console.handle(line):
                break
    finally:
        await session.close()


def run_terminal(database: str, history_file: str | None = None, seed: int | None = None) -> None:
    """The console for a person at a terminal, until ``/quit``, Ctrl-D or Ctrl-C.

    The prompt is read in the main thread, where Ctrl-C arrives as ``KeyboardInterrupt`` at once
    (readline tidies the line it was editing), and the table service runs on an event loop in a
    thread of its own; Ctrl-C while a command runs cancels it. Open tables stay in the database."""
    terminal = Terminal(history_file or os.path.join(os.path.expanduser("~"), ".parlour_history"))
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="parlour-console-loop", daemon=True)
    thread.start()
    session: Session | None = None
    try:
        session, restored = asyncio.run_coroutine_threadsafe(Session.open(database, terminal.write, seed), loop).result()
        with terminal.session():
            terminal.write(WELCOME)
            terminal.write("Quit with /quit, Ctrl-D or Ctrl-C; the Up arrow brings back earlier lines, Tab completes.")
            if restored:
                terminal.write(f"Restored {restored} open table(s).")
            _talk(terminal, session.console, loop)
    finally:
        if session is not None:
            asyncio.run_coroutine_threadsafe(session.close(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()


def _talk(terminal: Terminal, console: Console, loop: asyncio.AbstractEventLoop) -> None:
    """Read and handle lines until the person leaves."""
    while True:
        try:
            line = terminal.read_line(console.prompt)
        except (EOFError, KeyboardInterrupt):  # Ctrl-D, Ctrl-C at the prompt
            print(flush=True)
            break
        handled = asyncio.run_coroutine_threadsafe(console.handle(line), loop)
        try:
            if not handled.result():
                break
        except KeyboardInterrupt:  # Ctrl-C while a command runs: it is cancelled, and we leave
            handled.cancel()
            with contextlib.suppress(BaseException):
                concurrent.futures.wait([handled], timeout=5)
            print(flush=True)
            break
    print(GOODBYE, flush=True)
