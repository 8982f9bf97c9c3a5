"""No import circle among the modules of games/: read from the source with ``ast``, every import
counted wherever it stands (at the top, under ``TYPE_CHECKING``, inside a function), so neither a
type-only import nor one hidden in a function hides a circle. A lookup by dotted name
(``registry.resolve("module:NAME")``, how a declaration names its bots) is not an import.

It also lists the circles of other packages, for a report:

    .venv/bin/python -m tests.games.test_no_import_circles games storage bot
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def modules(packages: Iterable[str]) -> dict[str, Path]:
    """Every module of the packages, by dotted name (a package by its ``__init__``)."""
    out: dict[str, Path] = {}
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out[name] = path
    return out


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules among ``known`` that ``name`` imports, anywhere in its source."""
    is_package = path.name == "__init__.py"
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = name.split(".") if is_package else name.split(".")[:-1]
                anchor = here[: len(here) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from package import module`` imports the module; ``from module import name`` the module
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:  # ``import a.b.c`` of a package's attribute
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def graph(packages: Iterable[str]) -> dict[str, set[str]]:
    found = modules(packages)
    known = set(found)
    return {name: imports(name, path, known) for name, path in found.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: each group of modules that import one another, directly or through
    each other (a strongly connected component of two or more), as one shortest circle through
    its first module, sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(edges)))
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(_shortest_circle(min(group), group, edges) for group in groups)


def _shortest_circle(start: str, group: set[str], edges: dict[str, set[str]]) -> list[str]:
    """The shortest path from ``start`` back to itself inside ``group`` (breadth first)."""
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(edges[v] & group):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if w not in came_from:
                    came_from[w] = v
                    nxt.append(w)
        frontier = nxt
    raise AssertionError(f"{start} is in no circle")


def describe(packages: Iterable[str]) -> list[str]:
    edges = graph(packages)
    out = []
    for circle in circles(edges):
        group = _group_of(circle[0], edges)
        out.append(f"{len(group)} modules: " + " -> ".join(circle) + (f" (and {', '.join(sorted(group - set(circle)))})" if group - set(circle) else ""))
    return out


def _group_of(start: str, edges: dict[str, set[str]]) -> set[str]:
    def reach(v: str, step: dict[str, set[str]]) -> set[str]:
        seen, todo = {v}, [v]
        while todo:
            for w in step[todo.pop()]:
                if w not in seen:
                    seen.add(w)
                    todo.append(w)
        return seen

    back: dict[str, set[str]] = {v: set() for v in edges}
    for v, ws in edges.items():
        for w in ws:
            back[w].add(v)
    return reach(start, edges) & reach(start, back)


def test_the_check_finds_a_circle_and_its_members() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e", "d"}, "f": {"g"}, "g": {"f"}}
    assert circles(edges) == [["a", "b", "c", "a"], ["f", "g", "f"]]


def test_the_check_reads_every_kind_of_import(tmp_path: Path) -> None:
    """Top-level, type-only, function-local and relative imports all count."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.b import X\n")
    (pkg / "b.py").write_text("def f():\n    from . import c\n")
    (pkg / "c.py").write_text("import pkg.a\n")
    known = {"pkg", "pkg.a", "pkg.b", "pkg.c"}
    found = {n: imports(n, pkg / f"{n.split('.')[-1]}.py", known) for n in ("pkg.a", "pkg.b", "pkg.c")}
    assert found == {"pkg.a": {"pkg.b"}, "pkg.b": {"pkg.c"}, "pkg.c": {"pkg.a"}}
    assert circles({**found, "pkg": set()}) == [["pkg.a", "pkg.b", "pkg.c", "pkg.a"]]


def test_games_has_no_import_circle() -> None:
    assert describe(["games"]) == []


if __name__ == "__main__":
    lines = describe(sys.argv[1:] or ["games"])
    print("\n".join(lines) if lines else "no import circle")
