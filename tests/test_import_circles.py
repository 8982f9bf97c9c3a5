"""No import circle in storage/ or bot/ either (games/ has its own test), and no import inside a
function in the Discord adapter.

The imports are read as ``tests/games/test_no_import_circles.py`` reads them (with ``ast``,
wherever they stand: top level, ``TYPE_CHECKING``, inside a function).
``python -m tests.games.test_no_import_circles games storage bot`` lists every circle.
"""

from __future__ import annotations

import ast

from tests.games.test_no_import_circles import _group_of, circles, graph, modules

PACKAGES = ("games", "storage", "bot")

def test_no_import_circle() -> None:
    edges = graph(PACKAGES)
    found = [sorted(_group_of(circle[0], edges)) for circle in circles(edges)]
    assert not found, f"import circles: {found}"


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
