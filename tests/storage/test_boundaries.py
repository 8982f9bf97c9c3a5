"""Storage's boundaries, read from the code's own imports: the database drivers stay inside
storage/ (the bot catches storage's errors, not sqlite3's or asyncpg's), and storage/ has no
import circle (the interface imports no backend; the factory sits beside the backends)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DRIVERS = {"sqlite3", "asyncpg", "aiosqlite"}


def imports(path: Path) -> Iterator[tuple[str, int]]:
    """Every module ``path`` imports (inside functions too), with its line."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from ((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module, node.lineno
            yield from ((f"{node.module}.{alias.name}", node.lineno) for alias in node.names)


def test_no_module_of_the_bot_names_a_database_driver() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in sorted((ROOT / "bot").rglob("*.py"))
        for name, line in imports(path)
        if name.split(".")[0] in DRIVERS
    ]
    assert found == []


def driver_errors_caught(path: Path) -> Iterator[str]:
    """Where ``path`` catches, or expects, an error by a driver's name (``except sqlite3.X``,
    ``pytest.raises(asyncpg.X)``)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ExceptHandler) and node.type is not None:
            caught = [node.type]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "raises":
            caught = node.args[:1]
        else:
            continue
        for expr in caught:
            for name in ast.walk(expr):
                if isinstance(name, ast.Name) and name.id in DRIVERS:
                    yield f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(expr)}"


def test_the_bot_and_its_tests_catch_storage_errors_only() -> None:
    """Tests outside tests/storage may use a driver to set a database up or read it, never to
    name the error a store raises."""
    paths = [*(ROOT / "bot").rglob("*.py"), *(p for p in (ROOT / "tests").rglob("*.py") if "storage" not in p.parts)]
    assert [where for path in sorted(paths) for where in driver_errors_caught(path)] == []


def storage_graph() -> dict[str, set[str]]:
    """storage's modules (``storage.x``; a package by its name) and the storage modules each imports."""
    paths = {f"storage.{p.stem}": p for p in (ROOT / "storage").glob("*.py") if p.stem != "__init__"}
    paths |= {f"storage.{p.parent.name}": p for p in (ROOT / "storage").glob("*/__init__.py")}
    return {
        module: {name for name, _ in imports(path) if name in paths and name != module}
        for module, path in paths.items()
    }


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The modules that import each other in a loop, each loop's members sorted."""

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            here = todo.pop()
            if here == goal:
                return True
            if here not in seen:
                seen.add(here)
                todo += graph.get(here, set())
        return False

    loops = {tuple(sorted(m for m in graph if reaches(m, module) and reaches(module, m))) for module in graph}
    return sorted(list(loop) for loop in loops if len(loop) > 1)


def test_storage_has_no_import_circle() -> None:
    graph = storage_graph()
    assert {"storage.db", "storage.open", "storage.sqlite", "storage.postgres"} <= graph.keys()
    assert "storage.sqlite" in graph["storage.open"] and "storage.postgres" in graph["storage.open"]
    assert circles(graph) == []


def test_the_circle_check_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
