"""Server administration, transport-neutral: the server's settings, seasons and rating resets.

The Discord cog and the console check who may do this (Manage Server) and call these functions;
every change is written to the admin log with who made it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import ValidationError

from bot.service.model import TableError
from bot.settings import GuildSettings
from bot.tables import TableService
from games.engine import SetupError
from games.registry import get_game
from storage import stats
from storage.pages import ensure_pages_record


@dataclass
class SettingsChange:
    """What an admin asked to change; ``None`` leaves a setting as it is."""

    turn_reminder_seconds: int | None = None
    turn_timeout_seconds: int | None = None
    dms_enabled: bool | None = None
    referee_confirmation: bool | None = None
    turn_ping: str | None = None
    allow_channels: Sequence[str] = ()
    disallow_channels: Sequence[str] = ()
    default_options: tuple[str, Sequence[str]] | None = None
    """(game id, ``name=value`` pairs); no pairs clears that game's defaults."""
    pages: bool | None = None
    page_names: bool | None = None
    guild_name: str | None = None
    """The server's name as the admin sees it, kept for the pages' heading (not a setting)."""

    def is_empty(self) -> bool:
        return (
            self.turn_reminder_seconds is None
            and self.turn_timeout_seconds is None
            and self.dms_enabled is None
            and self.referee_confirmation is None
            and self.turn_ping is None
            and not self.allow_channels
            and not self.disallow_channels
            and self.default_options is None
            and self.pages is None
            and self.page_names is None
        )


TURN_PING_WORDS = {
    "mention": "a short mention in the channel",
    "dm": "a DM",
    "off": "no signal (the table message shows whose turn it is)",
}


def settings_lines(settings: GuildSettings) -> list[str]:
    """The server's settings as readable lines (channels as mentions)."""

    def seconds(value: int) -> str:
        return "never" if value == 0 else f"after {value} s"

    channels = ", ".join(f"<#{c}>" for c in settings.allowed_channels) or "any channel"
    lines = [
        f"Turn reminder: {seconds(settings.turn_reminder_seconds)}",
        f"A bot plays for an absent player: {seconds(settings.turn_timeout_seconds)}",
        f"Hands by DM at each deal: {'on' if settings.dms_enabled else 'off'}",
        f"When a turn starts: {TURN_PING_WORDS[settings.turn_ping]}",
        f"Referee entries need a second player's confirmation: {'yes' if settings.referee_confirmation else 'no'}",
        f"Tables may open in: {channels}",
        f"Pages of record on the web: {'on' if settings.pages else 'off'}",
        f"Pages show members' names: {'yes' if settings.page_names else 'no (neutral labels such as Player 4821)'}",
    ]
    for game_id, options in sorted(settings.default_options.items()):
        pairs = " ".join(f"{k}={v}" for k, v in options.items())
        lines.append(f"Default options for {game_id}: {pairs}")
    return lines


async def change_settings(service: TableService, guild_id: str, admin_id: str, change: SettingsChange) -> GuildSettings:
    """Apply ``change`` to the server's settings, or refuse it whole with a reason."""
    current = await service.settings(guild_id)
    data = current.model_dump(mode="json")
    logged: list[str] = []
    keys = ("turn_reminder_seconds", "turn_timeout_seconds", "dms_enabled", "referee_confirmation", "turn_ping", "pages", "page_names")
    for key in keys:
        value = getattr(change, key)
        if value is not None:
            data[key] = value
            logged.append(f"{key}={value}")
    allowed = [c for c in data["allowed_channels"] if c not in change.disallow_channels]
    allowed += [c for c in change.allow_channels if c not in allowed]
    if allowed != data["allowed_channels"]:
        data["allowed_channels"] = allowed
        logged.append(f"allowed_channels={','.join(allowed) or 'any'}")
    if change.default_options is not None:
        game_id, pairs = change.default_options
        try:
            game = get_game(game_id)
            chosen = game.parse_options(pairs).model_dump(mode="json", exclude_unset=True)
        except SetupError as exc:
            raise TableError(str(exc)) from None
        if chosen:
            data["default_options"][game.id] = chosen
        else:
            data["default_options"].pop(game.id, None)
        logged.append(f"default_options[{game.id}]={' '.join(pairs) or 'standard'}")
    try:
        settings = GuildSettings.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise TableError(f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}.") from None
    if settings.pages:  # the secret behind players' labels, before any page can show one
        await ensure_pages_record(service.store.conn, guild_id, change.guild_name)
    if not logged:
        return settings
    await service.update_settings(guild_id, settings)
    await stats.log_admin(service.store.conn, guild_id, admin_id, "settings", "; ".join(logged))
    return settings
