"""The numbered migrations of each dialect (``<dialect>/NNN_name.sql``: the same numbers and names
for both), which each backend applies at start-up."""

from __future__ import annotations

import re
from importlib import resources

from storage.errors import NewerDatabase

_MIGRATION_NAME = re.compile(r"^(\d+)_[a-z0-9_]+\.sql$")


def migrations(dialect: str = "sqlite") -> list[tuple[int, str, str]]:
    """(version, name, sql) for every file in ``storage/migrations/<dialect>``, in order."""
    out = []
    for entry in resources.files("storage.migrations").joinpath(dialect).iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            out.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    out.sort()
    versions = [v for v, _, _ in out]
    assert versions == list(range(1, len(out) + 1)), f"migrations must be numbered 1..n: {versions}"
    return out


def refuse_newer(setting: str, found: int, dialect: str) -> None:
    """Raise :class:`NewerDatabase` if ``found`` is past the last migration this code knows: a
    newer Parlour wrote the database, and this one would misread (and then damage) its tables."""
    known = len(migrations(dialect))
    if found > known:
        raise NewerDatabase(
            f"{setting} was written by a newer Parlour (schema version {found}; this version knows up to "
            f"{known}). Run the newer version, or restore a backup made for this one."
        )
