"""No import circle in storage/ or bot/ either (games/ has its own test), and no import inside a
function in the Discord adapter.

The imports are read as ``tests/games/test_no_import_circles.py`` reads them (with ``ast``,
wherever they stand: top level, ``TYPE_CHECKING``, inside a function). A circle that other work is
removing is allowed by name in :data:`EXPECTED` until that work lands.
``python -m tests.games.test_no_import_circles games storage bot`` lists every circle.
"""

from __future__ import annotations

import ast

import pytest

from tests.games.test_no_import_circles import _group_of, circles, graph, modules

PACKAGES = ("games", "storage", "bot")

EXPECTED: dict[str, frozenset[str]] = {
    "the backend factory (issue 27, moving beside the backends)": frozenset(
        {"storage.db", "storage.postgres", "storage.sqlite", "storage.backends"}
    ),
}
"""Circles other work is removing, each named with the modules it may span: a circle within one
of these sets is let through. Drop an entry when that work lands: its own test then fails, so
that a stale allowance cannot hide a circle coming back."""


def groups() -> list[set[str]]:
    """Each circle's whole group of modules (those importing one another, directly or not)."""
    edges = graph(PACKAGES)
    return [_group_of(circle[0], edges) for circle in circles(edges)]


def allowance(group: set[str]) -> str | None:
    return next((name for name, span in EXPECTED.items() if group <= span), None)


def test_no_import_circle() -> None:
    unexpected = [sorted(g) for g in groups() if allowance(g) is None]
    assert not unexpected, f"import circles: {unexpected}"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_an_expected_circle_is_still_there(name: str) -> None:
    """An allowance whose circle has gone is stale: drop it from :data:`EXPECTED`."""
    assert any(allowance(g) == name for g in groups()), f"the circle of {name} is gone: drop its EXPECTED entry"


def test_the_discord_adapter_imports_nothing_inside_a_function() -> None:
    """A module of ``bot/discord/`` says what it depends on at its top: the components reach the
    flows that answer them through ``bot/discord/handlers.py``, not through an import on use."""
    found = []
    for name, path in modules(["bot"]).items():
        if not name.startswith("bot.discord"):
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                found += [
                    f"{name}:{inner.lineno}" for inner in ast.walk(node) if isinstance(inner, ast.Import | ast.ImportFrom)
                ]
    assert found == []
