"""Configuration: the process's settings from the environment (or ``.env``), and each server's choices."""

from __future__ import annotations

import os
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.shards import ShardPlan, parse_shard_ids
from bot.web.routing import prefix_problem
from storage.leases import LEASE_SECONDS
from storage.target import is_postgres


class Settings(BaseSettings):
    """Read from environment variables (``DISCORD_TOKEN``, ``PARLOUR_DB``...) or an ``.env`` file."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: str | None = Field(None, validation_alias="DISCORD_TOKEN")
    database: str = Field("parlour.sqlite3", validation_alias="PARLOUR_DB")
    database_url: str | None = Field(
        None,
        validation_alias="PARLOUR_DATABASE_URL",
        description="postgresql://user:password@host/name, or sqlite:///path; when set, PARLOUR_DB is not used.",
    )
    dev_guild_id: int | None = Field(
        None, validation_alias="PARLOUR_DEV_GUILD", description="Sync commands to this guild only."
    )
    log_level: str = Field("INFO", validation_alias="PARLOUR_LOG_LEVEL", description="DEBUG, INFO, WARNING or ERROR, in any case.")
    shard_count: int | None = Field(
        None,
        ge=1,
        validation_alias="PARLOUR_SHARD_COUNT",
        description="How many shards the bot's servers are split into (unset: one connection, unsharded).",
    )
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(
        None,
        validation_alias="PARLOUR_SHARD_IDS",
        description=(
            "The shards this process serves, as 0,1 or 0-3 (unset: all of them). Processes that split "
            "the shards share one PostgreSQL database and hold a lease on each of their shards."
        ),
    )
    lease_seconds: float = Field(
        LEASE_SECONDS,
        ge=3,
        le=600,
        validation_alias="PARLOUR_LEASE_SECONDS",
        description="How long a shard stays with a process that stopped renewing its lease (a crash).",
    )
    picture_workers: int = Field(
        default_factory=lambda: min(os.cpu_count() or 1, 64),
        ge=0,
        le=64,
        validation_alias="PARLOUR_PICTURE_WORKERS",
        description=(
            "Processes drawing the pictures of tables and hands, beside the bot's own (default: one "
            "per core; 0: drawn in a thread of the bot's process). See deploy/README.md, \"Pictures\"."
        ),
    )
    public_url: str | None = Field(
        None,
        validation_alias="PARLOUR_PUBLIC_URL",
        description=(
            "Where people reach the live table, as https://host (the Activity's URL mapping points "
            "there); unset: no web server."
        ),
    )
    web_host: str = Field("127.0.0.1", validation_alias="PARLOUR_WEB_HOST", description="Address the web server listens on.")
    web_port: int = Field(8080, ge=1, le=65535, validation_alias="PARLOUR_WEB_PORT", description="Its port.")
    web_prefix: str | None = Field(
        None,
        validation_alias="PARLOUR_WEB_PREFIX",
        description=(
            "A sharded bot's process: the path under PARLOUR_PUBLIC_URL where the reverse proxy reaches "
            "this process alone, e.g. /p/0 (pages of other processes' servers are sent there)."
        ),
    )
    client_secret: str | None = Field(
        None,
        validation_alias="DISCORD_CLIENT_SECRET",
        description="The application's OAuth2 client secret (the live table's log-in needs it).",
    )

    @property
    def live_table(self) -> bool:
        """Whether the web server runs (a public URL is set)."""
        return self.public_url is not None

    @property
    def database_target(self) -> str:
        """What the store opens: ``PARLOUR_DATABASE_URL`` when it is set, else the SQLite file ``PARLOUR_DB``."""
        return self.database_url or self.database

    @property
    def shard_plan(self) -> ShardPlan | None:
        """This process's shards when it shares the bot with others (``PARLOUR_SHARD_IDS``), else
        ``None``: the process serves every server (all of its shards, if it has several)."""
        if self.shard_ids is None or self.shard_count is None:
            return None
        return ShardPlan(self.shard_count, self.shard_ids)

    @field_validator(
        "discord_token",
        "dev_guild_id",
        "database_url",
        "shard_count",
        "shard_ids",
        "public_url",
        "web_prefix",
        "client_secret",
        mode="before",
    )
    @classmethod
    def _blank_is_unset(cls, value: Any) -> Any:
        """``PARLOUR_DEV_GUILD=`` (as copied from the example file) means "not set"."""
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("log_level", mode="before")
    @classmethod
    def _level(cls, value: Any) -> Any:
        if isinstance(value, str):
            level = value.strip().upper()
            if level not in LOG_LEVELS:
                raise ValueError(f"the log level is one of {', '.join(LOG_LEVELS)} (in any case)")
            return level
        return value

    @field_validator("database_url")
    @classmethod
    def _database_url(cls, value: str | None) -> str | None:
        if value is not None:
            database_url_problem(value)
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_list(cls, value: Any) -> Any:
        if isinstance(value, str):
            try:
                return parse_shard_ids(value)
            except ValueError:
                raise ValueError("shard ids are numbers, as 0,1 or 0-3") from None
        return value

    @field_validator("public_url")
    @classmethod
    def _public_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        parts = urlsplit(value.strip())
        if parts.scheme not in ("https", "http") or not parts.netloc or parts.path not in ("", "/") or parts.query:
            raise ValueError("the live table's address is https://host (or http://host:port for a test), with no path")
        return f"{parts.scheme}://{parts.netloc}"

    @field_validator("web_prefix")
    @classmethod
    def _web_prefix(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = value.strip().rstrip("/")
        problem = prefix_problem(value)
        if problem is not None:
            raise ValueError(problem)
        return value

    @model_validator(mode="after")
    def _live_table_needs_a_secret(self) -> Settings:
        if self.public_url is not None and self.client_secret is None:
            raise ValueError(
                "PARLOUR_PUBLIC_URL turns the live table on, and its log-in needs DISCORD_CLIENT_SECRET "
                "(the application's OAuth2 client secret, from the developer portal)"
            )
        return self

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids is None:
            return self
        if self.shard_count is None:
            raise ValueError("PARLOUR_SHARD_IDS needs PARLOUR_SHARD_COUNT, the number of shards in all")
        ShardPlan(self.shard_count, self.shard_ids)  # raises ValueError with the reason
        if not is_postgres(self.database_target):
            raise ValueError(
                "processes that split the shards (PARLOUR_SHARD_IDS) share one PostgreSQL database: "
                "set PARLOUR_DATABASE_URL to a postgresql:// address"
            )
        return self


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def database_url_problem(url: str) -> None:
    """Raise ValueError saying what is wrong with a ``PARLOUR_DATABASE_URL``, before anything is
    opened: a scheme we do not store in, or a PostgreSQL address that does not split as meant."""
    scheme, sep, rest = url.partition(":")
    scheme = scheme.lower()
    if not sep or scheme not in ("postgresql", "postgres", "sqlite"):
        raise ValueError(
            f"Parlour keeps its data in PostgreSQL (postgresql://user:password@host/name) or SQLite "
            f"(sqlite:///path); {scheme if sep else 'this'} is not one of those"
        )
    if scheme == "sqlite":
        return  # storage says what is wrong with the path, naming the setting
    if not rest.startswith("//"):
        raise ValueError("a PostgreSQL address is postgresql://user:password@host/name")
    authority, _, path = rest[2:].partition("/")
    if "@" in path.split("?", 1)[0]:
        raise ValueError("the user or password holds a /: write each / in them as %2F")
    if authority.count("@") > 1:
        raise ValueError("the user or password holds an @: write each @ in them as %40")
    if authority.rpartition("@")[0].count(":") > 1:
        raise ValueError("the password holds a : (write each : in it as %3A)")
    try:
        urlsplit(url).port  # noqa: B018 (raises ValueError for a port that is not a number)
    except ValueError:
        raise ValueError("the port is not a number (a : in the password? write it as %3A)") from None


def hidden_password(url: str) -> str:
    """``url`` with everything between the user name and the host hidden, however it is written."""
    scheme, sep, rest = url.partition("://")
    userinfo, at, host = rest.rpartition("@")
    if not sep or not at:
        return url
    return f"{scheme}://{userinfo.split(':', 1)[0]}:***@{host}"


def settings_problem(exc: ValidationError) -> str:
    """One line naming the setting (environment variable) that was refused, and why."""
    parts = []
    for error in exc.errors():
        message = error["msg"].removeprefix("Value error, ")
        if error["loc"] == ("PARLOUR_DATABASE_URL",) and isinstance(error.get("input"), str):
            url = error["input"]  # shown with the password hidden
            parts.append(f"PARLOUR_DATABASE_URL={hidden_password(url)}: {message}")
        elif error["loc"]:
            parts.append(f"{'.'.join(str(p) for p in error['loc'])}={error.get('input')!s}: {message}")
        else:  # settings that do not fit together
            parts.append(message)
    return "; ".join(parts) + ". Fix it in the environment or the .env file."


class GuildSettings(BaseModel):
    """What a server's admins chose; stored as JSON per server."""

    model_config = ConfigDict(extra="ignore")

    turn_reminder_seconds: int = Field(120, ge=0, description="Remind an awaited player after this long (0: never).")
    turn_timeout_seconds: int = Field(
        600, ge=0, description="A bot plays for an absent player after this long (0: never)."
    )
    dms_enabled: bool = Field(
        True, description="DM each player their hand at a new deal, unless their private view is open."
    )
    turn_ping: Literal["mention", "dm", "off"] = Field(
        "mention",
        description=(
            "Tell a player their turn has started: one short mention in the channel (removed once they "
            "have moved), a DM, or nothing. Players watching their private view are not pinged; each "
            "player may turn it off for themselves with /pings."
        ),
    )
    allowed_channels: list[str] = Field(
        default_factory=list, description="Channels where tables may open (empty: everywhere)."
    )
    default_options: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="Default options per game id."
    )
    referee_confirmation: bool = Field(
        False, description="Referee-mode entries need a second player's confirmation."
    )
    pages: bool = Field(
        False,
        description=(
            "Show the server's leaderboards, players and finished matches as web pages (when the host "
            "set PARLOUR_PUBLIC_URL). Nothing of a match in play is ever shown."
        ),
    )
    page_names: bool = Field(
        False,
        description=(
            "The pages show members' display names and the server's name; otherwise each player is a "
            "neutral label such as 'Player 4821'."
        ),
    )
