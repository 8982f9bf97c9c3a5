"""A stop that stops: SIGTERM (systemd, docker stop) or SIGINT ends the bot within seconds while
Discord's gateway refuses it, sharded or not, with its leases given back, its database closed
and a short log of one line a retry.

The bot runs as ``python -m tests.fake_discord``: ``python -m bot`` against a fake Discord that
answers the log-in and refuses the gateway (``tests/fake_discord.py``)."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

import asyncpg
import pytest

from storage.sessions import Store
from tests.conftest import new_postgres_database
from tests.postgres_server import PostgresServer

ROOT = Path(__file__).resolve().parent.parent
STOP_WAIT = 30.0
"""How long the test waits for the process to end: generous, for a busy machine. The bot itself
bounds its stop at about 4 s (``bot/discord/stopping.py``); this only keeps a hung test finite."""
START_WAIT = 120.0


class Bot:
    """``python -m bot`` against the refusing Discord, its log read line by line as it comes."""

    def __init__(self, env: dict[str, str]) -> None:
        unset = ("PARLOUR_DB", "PARLOUR_DATABASE_URL", "PARLOUR_DEV_GUILD", "PARLOUR_SHARD_COUNT", "PARLOUR_SHARD_IDS")
        full = {k: v for k, v in os.environ.items() if k not in unset}
        full.update({"DISCORD_TOKEN": "fake.token.value", "PARLOUR_LOG_LEVEL": "info", **env})
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.fake_discord"], cwd=ROOT, env=full, text=True,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        )
        self.lines: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def wait_for(self, text: str) -> None:
        """Read the log until a line holds ``text`` (the process must still be running)."""
        while True:
            try:
                line = self._queue.get(timeout=START_WAIT)
            except queue.Empty:
                pytest.fail(f"no {text!r} in the log after {START_WAIT} s: {self.lines}")
            if line is None:
                pytest.fail(f"the bot stopped before {text!r}: {self.lines}")
            self.lines.append(line)
            if text in line:
                return

    def stop(self, sig: signal.Signals = signal.SIGTERM) -> int:
        """Send ``sig``; the exit code once the process has ended, with every line it logged."""
        self.proc.send_signal(sig)
        try:
            code = self.proc.wait(timeout=STOP_WAIT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            pytest.fail(f"still running {STOP_WAIT} s after {sig.name}: {self.lines}")
        while (line := self._queue.get(timeout=30)) is not None:
            self.lines.append(line)
        return code

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)


@pytest.fixture
def bots() -> list[Bot]:
    started: list[Bot] = []
    yield started  # type: ignore[misc]
    for bot in started:
        bot.kill()


def short_clean_log(bot: Bot) -> None:
    assert len(bot.lines) < 20, bot.lines
    assert not any("Traceback" in line or "During handling" in line for line in bot.lines), bot.lines
    assert not any("voice will NOT be supported" in line for line in bot.lines)
    assert bot.lines[-1].endswith("stopped"), bot.lines


@pytest.mark.parametrize(
    ("shards", "retry"),
    [("", "Attempting a reconnect"), ("2", "Failed to connect for shard_id: 0")],
    ids=["unsharded", "two-shards"],
)
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a_stop_while_the_gateway_refuses(
    tmp_path: Path, bots: list[Bot], shards: str, retry: str, sig: signal.Signals
) -> None:
    db = tmp_path / "parlour.sqlite3"
    bot = Bot({"PARLOUR_DB": str(db), "PARLOUR_SHARD_COUNT": shards})
    bots.append(bot)
    bot.wait_for(retry)  # the gateway refused it once: it is between two attempts now
    assert bot.stop(sig) == 0, bot.lines
    short_clean_log(bot)
    store = await Store.open(db)  # the database was closed: another process may open it at once
    await store.close()


async def test_a_sharded_process_gives_back_its_leases_at_a_stop(
    postgres_server: PostgresServer, bots: list[Bot]
) -> None:
    """Two processes on PostgreSQL, shards 0 and 1 of 2, both refused by the gateway: each stops
    on SIGTERM and leaves no lease behind, so their replacements need not wait."""
    url = await new_postgres_database(postgres_server)
    for ids in ("0", "1"):
        bots.append(Bot({"PARLOUR_DATABASE_URL": url, "PARLOUR_SHARD_COUNT": "2", "PARLOUR_SHARD_IDS": ids}))
    for bot, ids in zip(bots, ("0", "1"), strict=True):
        bot.wait_for(f"Failed to connect for shard_id: {ids}")
    conn = await asyncpg.connect(url)
    try:
        assert await conn.fetchval("SELECT count(*) FROM shard_leases") == 2
        for bot in bots:
            assert bot.stop(signal.SIGTERM) == 0, bot.lines
            short_clean_log(bot)
        assert await conn.fetchval("SELECT count(*) FROM shard_leases") == 0
    finally:
        await conn.close()


async def test_a_stop_while_waiting_for_a_shard_lease(postgres_server: PostgresServer, bots: list[Bot]) -> None:
    """A replacement waiting for shard 0 (held by a live process) stops at once on SIGTERM."""
    url = await new_postgres_database(postgres_server)
    env = {"PARLOUR_DATABASE_URL": url, "PARLOUR_SHARD_COUNT": "1", "PARLOUR_SHARD_IDS": "0"}
    first = Bot(env)
    bots.append(first)
    first.wait_for("Failed to connect for shard_id: 0")
    second = Bot(env)
    bots.append(second)
    second.wait_for("waiting for shard(s) 0")
    assert second.stop(signal.SIGTERM) == 0, second.lines
    short_clean_log(second)
    assert first.proc.poll() is None  # the holder serves on, untouched
    assert first.stop(signal.SIGTERM) == 0, first.lines
