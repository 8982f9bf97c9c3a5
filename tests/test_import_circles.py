"""No import circle in games/, storage/ or bot/.

The graph is read from the source with :mod:`ast`: every ``import`` and ``from ... import`` of our
own packages, wherever it sits (a function's body, ``if TYPE_CHECKING:`` included), is an edge.
An import inside a function hides a circle from Python but not from a reader, and a
type-checking-only one is a circle for mypy and for anyone who moves the code: the house has none.

A circle is a strongly connected group of modules (Tarjan). ``python -m tests.test_import_circles``
lists them, with one import that closes each.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "storage", "bot")

EXPECTED: dict[str, frozenset[str]] = {
    "the game catalogue (issue 27, being untangled)": frozenset({"games.registry", "games.advice", "games.players"}),
    "engine and layout (issue 27, being untangled)": frozenset({"games.engine", "games.layout"}),
    "the backend factory (issue 27, moving beside the backends)": frozenset(
        {"storage.db", "storage.postgres", "storage.sqlite", "storage.backends"}
    ),
}
"""Circles other work is removing, each named with the modules it may span: a circle within one
of these sets is let through. Drop an entry when that work lands: its own test then fails, so
that a stale allowance cannot hide a circle coming back."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_modules() -> dict[str, Path]:
    return {module_name(p): p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))}


def _imported(node: ast.Import | ast.ImportFrom, here: str, is_package: bool) -> Iterator[str]:
    """The dotted names an import statement may load (a module, or a name within one)."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    base = node.module or ""
    if node.level:
        package = here.split(".") if is_package else here.split(".")[:-1]
        package = package[: len(package) - (node.level - 1)]
        base = ".".join([*package, *([base] if base else [])])
    yield base
    for alias in node.names:
        yield f"{base}.{alias.name}"


def import_graph(modules: dict[str, Path] | None = None) -> dict[str, dict[str, int]]:
    """``{module: {module it imports: line of the first such import}}``, our modules only."""
    modules = source_modules() if modules is None else modules
    graph: dict[str, dict[str, int]] = {}
    for name, path in modules.items():
        edges: dict[str, int] = {}
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            for target in _imported(node, name, path.name == "__init__.py"):
                # a name imported from a package is its submodule when there is one, else the package
                if target in modules and target != name:
                    edges.setdefault(target, node.lineno)
                elif "." in target and target.rpartition(".")[0] in modules:
                    owner = target.rpartition(".")[0]
                    if owner != name and f"{target}" not in modules:
                        edges.setdefault(owner, node.lineno)
        graph[name] = edges
    return graph


def circles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected groups of more than one module, each sorted, largest first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(start: str) -> None:  # iterative Tarjan: the graph is deep enough to matter
        nonlocal counter
        work: list[tuple[str, Iterator[str]]] = [(start, iter(graph.get(start, {})))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = counter
                    counter += 1
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(graph.get(target, {}))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    group: list[str] = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return sorted(found, key=lambda g: (-len(g), g))


def allowance(group: list[str]) -> str | None:
    """The :data:`EXPECTED` entry a circle falls within, if any."""
    return next((name for name, span in EXPECTED.items() if set(group) <= span), None)


def describe(group: list[str], graph: dict[str, dict[str, int]]) -> str:
    inside = set(group)
    lines = [
        f"  {a} -> {b} (line {line})"
        for a in group
        for b, line in sorted(graph[a].items())
        if b in inside
    ]
    return f"{len(group)} modules: {', '.join(group)}\n" + "\n".join(lines)


def test_the_graph_sees_a_circle() -> None:
    """The check itself: a circle through an import inside a function is found, and nothing
    outside it is called one."""
    graph = {"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}, "e": {}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b": 1}, "b": {}}) == []


def test_a_function_import_is_an_edge(tmp_path: Path) -> None:
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "__init__.py").write_text("")
    (tmp_path / "p" / "a.py").write_text("from p import b\n")
    (tmp_path / "p" / "b.py").write_text("def f():\n    from p.a import x\n")
    modules = {"p": tmp_path / "p/__init__.py", "p.a": tmp_path / "p/a.py", "p.b": tmp_path / "p/b.py"}
    assert circles(import_graph(modules)) == [["p.a", "p.b"]]


def test_no_import_circle() -> None:
    graph = import_graph()
    unexpected = [g for g in circles(graph) if allowance(g) is None]
    assert not unexpected, "import circles:\n" + "\n".join(describe(g, graph) for g in unexpected)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_an_expected_circle_is_still_there(name: str) -> None:
    """An allowance whose circle has gone is stale: drop it from :data:`EXPECTED`."""
    found = [g for g in circles(import_graph()) if allowance(g) == name]
    assert found, f"the circle of {name} is gone: drop its EXPECTED entry"


def imports_inside_functions(package: str) -> list[str]:
    """``module:line`` of every import in a function's body under ``package``."""
    found: list[str] = []
    for name, path in source_modules().items():
        if not (name == package or name.startswith(f"{package}.")):
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                found += [
                    f"{name}:{inner.lineno}"
                    for inner in ast.walk(node)
                    if isinstance(inner, ast.Import | ast.ImportFrom)
                ]
    return sorted(set(found))


def test_the_discord_adapter_imports_nothing_inside_a_function() -> None:
    """A module of ``bot/discord/`` says what it depends on at its top (the flows reach the
    components' callbacks through ``handlers``, not through an import on use)."""
    assert imports_inside_functions("bot.discord") == []


def main() -> int:
    graph = import_graph()
    found = circles(graph)
    for group in found:
        note = allowance(group)
        print(describe(group, graph) + (f"\n  (allowed for now: {note})" if note else ""))
    print(f"{len(found)} import circle(s) in {', '.join(PACKAGES)}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
