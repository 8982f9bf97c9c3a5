"""Copies of a game's state: :meth:`Copyable.clone` (bots and solvers try moves on clones,
``copy.deepcopy`` goes the same way) and :meth:`Copyable.snapshot` (a position saved as bytes, so
that a restart resumes from it instead of replaying the whole log).

:class:`games.engine.GameState` is :class:`Copyable`; a game writes no copy helper of its own.
"""

from __future__ import annotations

import copy
import hashlib
import pickle
import random
import sys
from collections.abc import Iterable
from dataclasses import is_dataclass
from enum import Enum
from pathlib import Path
from types import BuiltinFunctionType, FunctionType
from typing import Any, ClassVar, Self

from pydantic import BaseModel


class Copyable:
    """The copies of an object whose attributes are its whole state (a game's state)."""

    _copied_lists: ClassVar[frozenset[str]] = frozenset()
    """Attributes holding lists of immutable entries: a copy copies the list and shares its entries."""

    def clone(self) -> Self:
        """An independent copy: playing on it leaves this state unchanged, and the same actions
        give equal states (bots and solvers try moves on clones).

        Everything immutable is shared (numbers, strings, Cards, enums, frozen pydantic models and
        dataclasses, tuples and frozensets of such, the options); lists, dicts, sets, mutable
        dataclasses and the RNG are copied all the way down, keeping any sharing between them;
        anything else falls back to :func:`copy.deepcopy`. A game needs no copy helper of its own.
        """
        return self._clone({})

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self._clone(memo)

    def _clone(self, memo: dict[int, Any]) -> Self:
        twin = object.__new__(type(self))
        memo[id(self)] = twin
        attributes = twin.__dict__
        shared = _SHARED_TYPES
        lists = self._copied_lists
        for key, value in vars(self).items():
            if type(value) in shared:
                attributes[key] = value
            elif key in lists:
                attributes[key] = value[:]
            else:
                attributes[key] = clone_value(value, memo)
        return twin

    def snapshot(self) -> bytes:
        """The whole position as bytes, for :meth:`games.engine.Game.from_snapshot` in a later
        process of the same code (a restart resumes from it instead of replaying the log)."""
        return pickle.dumps(self, protocol=pickle.HIGHEST_PROTOCOL)


_SHARED_TYPES: set[type] = {int, float, complex, bool, str, bytes, type(None), range}
"""Types whose values a clone shares; grows as :func:`_shared_type` classifies new types."""

_COPIED_TYPES: set[type] = set()
"""Types known not to be shared (the classification is cached both ways)."""


def _shared_type(kind: type) -> bool:
    """Whether values of ``kind`` are immutable, so a clone may share them (cached)."""
    if kind in _SHARED_TYPES:
        return True
    if kind in _COPIED_TYPES:
        return False
    if issubclass(kind, BaseModel):
        shared = bool(kind.model_config.get("frozen"))
    elif is_dataclass(kind):
        shared = kind.__dataclass_params__.frozen  # type: ignore[attr-defined]
    else:
        shared = issubclass(kind, (Enum, type, FunctionType, BuiltinFunctionType))
    (_SHARED_TYPES if shared else _COPIED_TYPES).add(kind)
    return shared


def _all_shared(items: Iterable[Any]) -> bool:
    """Whether every item of a container is of a type already known to be shared."""
    return _SHARED_TYPES.issuperset(map(type, items))


def clone_value(value: Any, memo: dict[int, Any]) -> Any:
    """A copy of ``value`` for :meth:`GameState.clone`: immutable values are shared, containers
    copied recursively; ``memo`` maps ``id`` of what was copied to its copy (as in ``deepcopy``)."""
    kind = type(value)
    if kind in _SHARED_TYPES:
        return value
    out: Any = memo.get(id(value))
    if out is not None:
        return out
    if kind is list:  # the common case first: hands, piles, counts
        if _all_shared(value):
            out = value[:]
        else:
            out = memo[id(value)] = []
            out.extend([clone_value(v, memo) for v in value])
    elif kind is dict:
        if _all_shared(value.values()) and _all_shared(value):
            out = value.copy()
        else:
            out = memo[id(value)] = {}
            for k, v in value.items():
                out[clone_value(k, memo)] = clone_value(v, memo)
    elif kind is tuple or kind is frozenset:
        if _all_shared(value):
            return value
        items = [clone_value(v, memo) for v in value]
        if all(a is b for a, b in zip(items, value, strict=True)):
            return value  # only immutable values inside after all
        out = kind(items)
    elif kind is set:
        out = value.copy() if _all_shared(value) else {clone_value(v, memo) for v in value}
    elif kind is random.Random:
        out = random.Random.__new__(random.Random)  # Random() would seed itself, for nothing
        out.setstate(value.getstate())
    elif _shared_type(kind):
        return value
    elif is_dataclass(kind) and hasattr(value, "__dict__") and not hasattr(kind, "__deepcopy__"):
        out = memo[id(value)] = object.__new__(kind)
        out.__dict__.update({k: clone_value(v, memo) for k, v in vars(value).items()})
    else:
        return copy.deepcopy(value, memo)
    memo[id(value)] = out
    return out


# --- snapshots -----------------------------------------------------------------------------------

_SNAPSHOT_FORMAT: list[str] = []


def snapshot_format() -> str:
    """Names the code that saves and reads snapshots: the games' sources and the Python version.
    Any change to a game makes earlier snapshots unusable (a restart then replays the log)."""
    if not _SNAPSHOT_FORMAT:
        digest = hashlib.sha256(sys.version.encode())
        for path in sorted(Path(__file__).parent.rglob("*.py")):
            digest.update(path.relative_to(Path(__file__).parent).as_posix().encode())
            digest.update(path.read_bytes())
        _SNAPSHOT_FORMAT.append(digest.hexdigest()[:32])
    return _SNAPSHOT_FORMAT[0]


def read_snapshot(data: bytes, format: str) -> object | None:
    """What :meth:`Copyable.snapshot` saved, or ``None`` if other code saved it (``format`` is
    not :func:`snapshot_format`) or it cannot be read."""
    if format != snapshot_format():
        return None
    try:
        return pickle.loads(data)  # our own storage, written by this very code
    except Exception:
        return None
