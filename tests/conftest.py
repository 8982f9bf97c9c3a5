"""Fixtures for tests that run on both storage backends.

``database`` is a fresh, empty database, once on SQLite (a file in the test's folder) and once on
PostgreSQL (a database of its own on a throwaway server, see ``tests/postgres_server.py``). Without
an installed PostgreSQL server the PostgreSQL half is skipped, saying so; it is never mocked.

``--stores-on-postgres`` goes further, for a run by hand: every ``Store.open`` of a SQLite file in
the tests opens a fresh PostgreSQL database instead (the same one again for the same file, as a
restart does), so the service and Discord tests run on PostgreSQL too. Tests that read the SQLite
file itself fail under it, as they should.

    .venv/bin/python -m pytest --stores-on-postgres tests/bot/test_tables.py
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest

from storage.sessions import Store
from storage.target import is_postgres
from tests.postgres_server import INSTALL_HINT, PostgresServer


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (the default run) starts one worker more than the usable cores: many tests spend
    part of their time waiting on a child process, a lease to lapse, a database server or a browser,
    and the extra worker fills those waits. On the project's idle 2-core machine the default suite
    took 3 min 21 s wall with three workers, 4 min 27 s with two and 3 min 58 s with four (README.md)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return cores + 1


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--stores-on-postgres",
        action="store_true",
        help="open every Store of a SQLite file on a fresh PostgreSQL database instead",
    )


def running_postgres() -> Iterator[PostgresServer]:
    """A throwaway PostgreSQL server, started, for a fixture to yield from (skips the test where
    none is installed); stopped when the fixture ends."""
    server = PostgresServer.find()
    if server is None:
        pytest.skip(f"PostgreSQL tests skipped: {INSTALL_HINT}")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the test session (one per xdist worker)."""
    yield from running_postgres()


async def new_postgres_database(server: PostgresServer) -> str:
    """A new empty database on ``server``; its URL."""
    name = f"t_{uuid.uuid4().hex[:16]}"
    conn = await asyncpg.connect(server.url())
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return server.url(name)


@pytest.fixture(params=["sqlite", "postgres"])
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """What ``Store.open`` and ``storage.open.connect`` take: a SQLite file or a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "parlour.sqlite3")
    return await new_postgres_database(request.getfixturevalue("postgres_server"))


@pytest.fixture(autouse=True)
def _stores_on_postgres(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if not request.config.getoption("--stores-on-postgres"):
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    urls: dict[str, str] = {}
    sqlite_open = Store.open.__func__  # type: ignore[attr-defined]

    async def open_on_postgres(cls: type[Store], target: str | Path, *, shared: bool = False) -> Store:
        if not is_postgres(target):
            if str(target) not in urls:
                urls[str(target)] = await new_postgres_database(server)
            target = urls[str(target)]
        return await sqlite_open(cls, target, shared=shared)  # type: ignore[no-any-return]

    monkeypatch.setattr(Store, "open", classmethod(open_on_postgres))
