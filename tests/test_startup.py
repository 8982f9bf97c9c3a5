"""Start-up: one process per database, and every start-up problem told in one line that names the
setting to fix, with a non-zero exit and no traceback."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from storage.errors import DatabaseInUse
from storage.sessions import Store
from storage.target import is_postgres

ROOT = Path(__file__).resolve().parent.parent


def run_bot(*args: str, env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    unset = (
        "DISCORD_TOKEN", "PARLOUR_DB", "PARLOUR_DATABASE_URL", "PARLOUR_DEV_GUILD",
        "PARLOUR_SHARD_COUNT", "PARLOUR_SHARD_IDS", "PARLOUR_LEASE_SECONDS",
    )
    full = {k: v for k, v in os.environ.items() if k not in unset}
    full.update(env)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], input=stdin, capture_output=True, text=True, env=full,
        cwd=ROOT, timeout=120,
    )


def one_line_error(result: subprocess.CompletedProcess[str], *words: str) -> str:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("Parlour cannot")]
    assert len(lines) == 1, result.stderr
    for word in words:
        assert word in lines[0]
    return lines[0]


HOLD = textwrap.dedent(
    """
    import asyncio, sys
    from storage.sessions import Store
    async def main():
        store = await Store.open(sys.argv[1])
        print("holding", flush=True)
        sys.stdin.readline()
        await store.close()
    asyncio.run(main())
    """
)


async def test_a_second_process_on_the_same_database_is_refused(database: str) -> None:
    setting = "PARLOUR_DATABASE_URL" if is_postgres(database) else "PARLOUR_DB"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, database], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        with pytest.raises(DatabaseInUse, match="in use by another Parlour process"):
            await Store.open(database)
        line = one_line_error(run_bot("console", env={setting: database}), setting, "another Parlour process")
        if not is_postgres(database):
            assert database in line
    finally:
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.close()
        holder.wait(timeout=30)
    store = await Store.open(database)  # free again once the other process has gone
    await store.close()


def test_shards_split_between_processes_need_postgres(tmp_path: Path) -> None:
    env = {"PARLOUR_DB": str(tmp_path / "p.sqlite3"), "PARLOUR_SHARD_COUNT": "2", "PARLOUR_SHARD_IDS": "0"}
    result = run_bot("console", env=env)
    assert result.returncode == 2
    one_line_error(result, "PARLOUR_SHARD_IDS", "share one PostgreSQL database", "PARLOUR_DATABASE_URL")
    assert not (tmp_path / "p.sqlite3").exists()  # refused before anything was opened


def test_an_unreachable_postgres_server_is_named(tmp_path: Path) -> None:
    """Nothing listens on port 1: the URL is named, its password hidden, in one line."""
    env = {"PARLOUR_DATABASE_URL": "postgresql://parlour:s3cret@127.0.0.1:1/parlour", "PARLOUR_DB": str(tmp_path / "p.sqlite3")}
    line = one_line_error(run_bot("console", env=env), "PARLOUR_DATABASE_URL", "cannot connect to PostgreSQL")
    assert "s3cret" not in line and "parlour:***@127.0.0.1:1" in line


async def test_one_process_may_open_its_database_twice(database: str) -> None:
    """A restart inside one process opens the new store before the old one closes."""
    db = database
    first = await Store.open(db)
    second = await Store.open(db)
    await first.close()
    await second.close()


def test_a_missing_folder_is_named(tmp_path: Path) -> None:
    db = tmp_path / "nowhere" / "parlour.sqlite3"
    line = one_line_error(run_bot("console", env={"PARLOUR_DB": str(db)}), "PARLOUR_DB", "does not exist")
    assert str(tmp_path / "nowhere") in line


def test_a_damaged_database_file_is_named(tmp_path: Path) -> None:
    db = tmp_path / "parlour.sqlite3"
    db.write_bytes(b"this is not a database, only some words " * 100)
    one_line_error(run_bot("console", env={"PARLOUR_DB": str(db)}), "PARLOUR_DB", "cannot be used")


def test_a_folder_given_as_the_database_is_named(tmp_path: Path) -> None:
    one_line_error(run_bot("console", env={"PARLOUR_DB": str(tmp_path)}), "PARLOUR_DB", "is a folder")


def test_a_malformed_setting_is_named(tmp_path: Path) -> None:
    env = {"PARLOUR_DB": str(tmp_path / "p.sqlite3"), "PARLOUR_DEV_GUILD": "not-a-number"}
    one_line_error(run_bot("console", env=env), "PARLOUR_DEV_GUILD")


def test_no_network_is_one_line(tmp_path: Path) -> None:
    """This machine cannot reach Discord: the bot says so and stops (a bad token would be refused
    by Discord in the same place, naming DISCORD_TOKEN)."""
    env = {"PARLOUR_DB": str(tmp_path / "p.sqlite3"), "DISCORD_TOKEN": "not.a.token"}
    result = run_bot(env=env)
    if "Discord refused the token" in result.stderr:  # a machine that does reach Discord
        one_line_error(result, "DISCORD_TOKEN")
    else:
        one_line_error(result, "Discord could not be reached", "network")


def test_the_console_still_starts_with_good_settings(tmp_path: Path) -> None:
    result = run_bot("console", env={"PARLOUR_DB": str(tmp_path / "p.sqlite3")}, stdin="ann: /games\n")
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert "Parlour console" in result.stdout


@pytest.mark.parametrize("token", ["", None], ids=["empty", "missing"])
def test_no_token_without_a_terminal_is_an_error(tmp_path: Path, token: str | None) -> None:
    """As a service (standard input not a terminal) an empty token is a mistake: systemd and
    Compose see a failure, not a console that exits 0. The console asked for by name still runs."""
    db = tmp_path / "p.sqlite3"
    env = {"PARLOUR_DB": str(db)} | ({"DISCORD_TOKEN": token} if token is not None else {})
    result = run_bot(env=env, stdin="ann: /games\n")
    assert result.returncode == 2
    one_line_error(result, "DISCORD_TOKEN", "python -m bot console")
    assert "Parlour console" not in result.stdout and not db.exists()
    assert "Parlour console" in run_bot("console", env=env, stdin="ann: /games\n").stdout


def test_setting_values_in_any_case(tmp_path: Path) -> None:
    result = run_bot("console", env={"PARLOUR_DB": str(tmp_path / "p.sqlite3"), "PARLOUR_LOG_LEVEL": "info"}, stdin="ann: /games\n")
    assert result.returncode == 0 and "Parlour console" in result.stdout and "Traceback" not in result.stderr
    line = one_line_error(run_bot("console", env={"PARLOUR_DB": str(tmp_path / "q.sqlite3"), "PARLOUR_LOG_LEVEL": "chatty"}), "PARLOUR_LOG_LEVEL=chatty", "INFO")
    assert not (tmp_path / "q.sqlite3").exists(), line


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("mysql://parlour:s3cret@db/parlour", ["mysql", "PostgreSQL", "SQLite"]),
        ("postgresql://parlour:s3@cret@db/parlour", ["%40"]),
        ("postgresql://parlour:s3:cret@db/parlour", ["%3A"]),
        ("postgresql://parlour:s3/cret@db:5432/parlour", ["%2F"]),
        ("parlour.sqlite3", ["PARLOUR_DATABASE_URL=parlour.sqlite3", "sqlite:///path"]),
    ],
    ids=["mysql", "at-sign", "colon", "slash", "no-scheme"],
)
def test_a_database_url_we_cannot_use_is_one_line(tmp_path: Path, url: str, words: list[str]) -> None:
    """Refused before anything is opened, the password never shown."""
    env = {"PARLOUR_DATABASE_URL": url, "PARLOUR_DB": str(tmp_path / "p.sqlite3")}
    result = run_bot("console", env=env)
    assert result.returncode == 2
    line = one_line_error(result, *words)
    assert "s3" not in line and "cret" not in line
    assert not (tmp_path / "p.sqlite3").exists()
