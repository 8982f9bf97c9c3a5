"""What a database setting names: which backend, which SQLite file, and how to quote the setting
in a message (a password hidden). Imports nothing of storage: both backends and the factory
(``storage/open.py``) use it."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from storage.errors import StorageError


def is_postgres(target: str | Path) -> bool:
    return isinstance(target, str) and target.split(":", 1)[0].lower() in ("postgresql", "postgres")


def sqlite_path(target: str | Path) -> str:
    """The file of a SQLite target: a path, or ``sqlite:///relative/path``, ``sqlite:////absolute/path``."""
    text = str(target)
    if text.lower().startswith("sqlite:"):
        rest = text[len("sqlite:") :]
        if not rest.startswith("///"):
            raise StorageError(
                f"PARLOUR_DATABASE_URL={text}: a SQLite URL is sqlite:///relative/path or sqlite:////absolute/path."
            )
        return rest[3:] or ":memory:"
    return text


def setting_for(target: str | Path) -> str:
    """``NAME=value`` of the setting that gives this target, the password hidden."""
    text = str(target)
    if "://" not in text:
        return f"PARLOUR_DB={text}"
    parts = urlsplit(text)
    if parts.password is not None:
        user = parts.username or ""
        host = parts.netloc.rsplit("@", 1)[1]
        parts = parts._replace(netloc=f"{user}:***@{host}")
    return f"PARLOUR_DATABASE_URL={urlunsplit(parts)}"
