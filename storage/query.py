"""Statements written once for both databases: a :class:`Query` holds SQL that SQLite and
PostgreSQL both accept, with named parameters (``:name``) and ``{now}`` for the current UTC time,
and renders it for each dialect once, when it is defined.

What the two dialects spell differently, and how each is rendered:

- parameters: ``:name`` becomes ``?1, ?2...`` (SQLite) or ``$1, $2...`` (PostgreSQL), numbered by
  first appearance, so a name used twice is one parameter; :meth:`Query.args` orders the values.
- ``{now}``: the time stamp the tables store as text (``2026-11-24T10:00:00.123Z``), from each
  database's own clock.

Everything else is SQL both accept: ``ON CONFLICT (...) DO UPDATE SET x = excluded.x`` (SQLite
3.24+), ``ON CONFLICT DO NOTHING``, ``RETURNING`` (SQLite 3.35+), ``CASE`` rather than summing a
comparison. A statement only PostgreSQL runs (the shard leases) is a query too; it is simply never
sent to SQLite. A statement that mixes in ``?`` or ``$1`` is refused at definition.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Dialect:
    """How one database spells what differs."""

    name: str
    mark: str
    """The prefix of a numbered parameter."""
    now: str
    """The current UTC time as the tables store it."""


SQLITE = Dialect("sqlite", "?", "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')")
POSTGRES = Dialect(
    "postgres", "$", "to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
)
DIALECTS = (SQLITE, POSTGRES)

_NAME_START = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"
_NAME_REST = _NAME_START + "0123456789"


class Query:
    """One statement for either database. Define it once (a module constant, or through a cached
    builder for a statement whose shape varies) and run it with ``db.execute(query, name=value)``."""

    __slots__ = ("_known", "_text", "names", "returns_rows", "source")

    def __init__(self, source: str) -> None:
        self.source = source
        names: list[str] = []
        pieces = _split(source)
        for piece in pieces:
            if isinstance(piece, _Param) and piece.name not in names:
                names.append(piece.name)
        self.names: tuple[str, ...] = tuple(names)
        """The parameters, in the order their values are passed."""
        self._known = frozenset(names)
        self._text = {d.name: _render(pieces, names, d) for d in DIALECTS}
        words = source.lstrip().split(None, 1)
        reads = bool(words) and words[0].upper() in ("SELECT", "WITH", "VALUES")
        self.returns_rows = reads or " RETURNING " in f" {source.upper()} "
        """Whether it answers with rows (a ``SELECT``, or a write ``RETURNING`` some)."""

    def text(self, dialect: Dialect) -> str:
        """The statement as ``dialect`` runs it."""
        return self._text[dialect.name]

    def args(self, params: Mapping[str, Any]) -> tuple[Any, ...]:
        """The values of ``params`` in parameter order; a missing or unknown name is refused."""
        if params.keys() != self._known:
            missing = sorted(self._known - params.keys())
            unknown = sorted(params.keys() - self._known)
            raise TypeError(f"parameters missing {missing}, unknown {unknown} for: {self.source}")
        return tuple(params[name] for name in self.names)

    def __repr__(self) -> str:
        return f"Query({self.source!r})"


@functools.lru_cache(maxsize=256)
def cached(source: str) -> Query:
    """The query for ``source``, made once: for a statement built from a few shapes (a list of
    ``count`` names, the columns an update sets)."""
    return Query(source)


def marks(prefix: str, count: int) -> str:
    """``:prefix0, :prefix1, ...``: ``count`` parameters for an ``IN (...)`` list."""
    return ", ".join(f":{prefix}{i}" for i in range(count))


def numbered(prefix: str, values: list[Any]) -> dict[str, Any]:
    """The values for :func:`marks`."""
    return {f"{prefix}{i}": value for i, value in enumerate(values)}


# -- rendering ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Param:
    name: str


_NOW = object()


def _split(source: str) -> list[str | _Param | object]:
    """The text between parameters, the parameters, and ``{now}``; quoted text is left alone."""
    out: list[str | _Param | object] = []
    plain: list[str] = []
    i, quote = 0, ""
    while i < len(source):
        ch = source[i]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == ":" and source.startswith("::", i):  # a PostgreSQL cast
            plain.append("::")
            i += 2
            continue
        elif ch == ":" and i + 1 < len(source) and source[i + 1] in _NAME_START:
            end = i + 1
            while end < len(source) and source[end] in _NAME_REST:
                end += 1
            out += ["".join(plain), _Param(source[i + 1 : end])]
            plain = []
            i = end
            continue
        elif source.startswith("{now}", i):
            out += ["".join(plain), _NOW]
            plain = []
            i += len("{now}")
            continue
        elif ch in "?$":
            raise ValueError(f"a query names its parameters (:name), not {ch}: {source}")
        plain.append(ch)
        i += 1
    if quote:
        raise ValueError(f"an unclosed quote in: {source}")
    out.append("".join(plain))
    return out


def _render(pieces: list[str | _Param | object], names: list[str], dialect: Dialect) -> str:
    out = []
    for piece in pieces:
        if isinstance(piece, _Param):
            out.append(f"{dialect.mark}{names.index(piece.name) + 1}")
        elif piece is _NOW:
            out.append(dialect.now)
        else:
            assert isinstance(piece, str)
            out.append(piece)
    return "".join(out)
