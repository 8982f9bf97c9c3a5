"""Configuration: the process's settings from the environment (or ``.env``), and each server's choices."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


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
    log_level: str = Field("INFO", validation_alias="PARLOUR_LOG_LEVEL")

    @property
    def database_target(self) -> str:
        """What the store opens: ``PARLOUR_DATABASE_URL`` when it is set, else the SQLite file ``PARLOUR_DB``."""
        return self.database_url or self.database

    @field_validator("discord_token", "dev_guild_id", "database_url", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: Any) -> Any:
        """``PARLOUR_DEV_GUILD=`` (as copied from the example file) means "not set"."""
        return None if isinstance(value, str) and not value.strip() else value


def settings_problem(exc: ValidationError) -> str:
    """One line naming the setting (environment variable) that was refused, and why."""
    parts = []
    for error in exc.errors():
        name = ".".join(str(p) for p in error["loc"]) or "a setting"
        parts.append(f"{name}={error.get('input')!s}: {error['msg']}")
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
