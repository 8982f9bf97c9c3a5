"""Fixtures for tests that run on both storage backends.

``database`` is a fresh, empty database, once on SQLite (a file in the test's folder) and once on
PostgreSQL (a database of its own on a throwaway server, see ``tests/postgres_server.py``). Without
an installed PostgreSQL server the PostgreSQL half is skipped, saying so; it is never mocked.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest

from tests.postgres_server import INSTALL_HINT, PostgresServer


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the test session (one per xdist worker)."""
    server = PostgresServer.find()
    if server is None:
        pytest.skip(f"PostgreSQL tests skipped: {INSTALL_HINT}")
    server.start()
    try:
        yield server
    finally:
        server.stop()


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
    """What ``Store.open`` and ``storage.db.connect`` take: a SQLite file or a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "parlour.sqlite3")
    return await new_postgres_database(request.getfixturevalue("postgres_server"))
