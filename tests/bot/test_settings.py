"""Process settings from the environment, as an operator would write them."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.settings import Settings


def test_blank_values_mean_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "")
    monkeypatch.setenv("PARLOUR_DEV_GUILD", " ")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.discord_token is None and settings.dev_guild_id is None


def test_values_are_read_and_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARLOUR_DEV_GUILD", "123456789012345678")
    monkeypatch.setenv("PARLOUR_DB", "/data/x.sqlite3")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.dev_guild_id == 123456789012345678 and settings.database == "/data/x.sqlite3"
    monkeypatch.setenv("PARLOUR_DEV_GUILD", "my server")
    with pytest.raises(ValidationError):
        Settings(_env_file=None)  # type: ignore[call-arg]


def test_a_database_url_takes_the_place_of_the_sqlite_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARLOUR_DB", "/data/x.sqlite3")
    monkeypatch.setenv("PARLOUR_DATABASE_URL", "")
    assert Settings(_env_file=None).database_target == "/data/x.sqlite3"  # type: ignore[call-arg]
    monkeypatch.setenv("PARLOUR_DATABASE_URL", "postgresql://parlour@db/parlour")
    assert Settings(_env_file=None).database_target == "postgresql://parlour@db/parlour"  # type: ignore[call-arg]


def test_shard_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARLOUR_SHARD_COUNT", "4")
    every = Settings(_env_file=None)  # type: ignore[call-arg]
    assert every.shard_count == 4 and every.shard_plan is None  # one process, all four shards
    monkeypatch.setenv("PARLOUR_SHARD_IDS", "0-1")
    with pytest.raises(ValidationError, match="share one PostgreSQL database"):
        Settings(_env_file=None)  # type: ignore[call-arg]
    monkeypatch.setenv("PARLOUR_DATABASE_URL", "postgresql://parlour@db/parlour")
    plan = Settings(_env_file=None).shard_plan  # type: ignore[call-arg]
    assert plan is not None and plan.ids == (0, 1) and plan.count == 4
    monkeypatch.setenv("PARLOUR_SHARD_IDS", "2,5")
    with pytest.raises(ValidationError, match="from 0 to 3"):
        Settings(_env_file=None)  # type: ignore[call-arg]
    monkeypatch.setenv("PARLOUR_SHARD_IDS", "one")
    with pytest.raises(ValidationError, match="numbers, as 0,1 or 0-3"):
        Settings(_env_file=None)  # type: ignore[call-arg]
    monkeypatch.delenv("PARLOUR_SHARD_COUNT")
    monkeypatch.setenv("PARLOUR_SHARD_IDS", "1")
    with pytest.raises(ValidationError, match="needs PARLOUR_SHARD_COUNT"):
        Settings(_env_file=None)  # type: ignore[call-arg]
