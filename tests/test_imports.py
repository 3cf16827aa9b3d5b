"""The packages' imports as docs/ARCHITECTURE.md ("Layout") fixes them, read from the sources: no import
cycle anywhere (an import inside a function or under ``TYPE_CHECKING`` counts too), and each
package imports only what it may."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "protocol", "server", "client")
MAY_IMPORT = {
    "engine": set(),
    "protocol": set(),
    "server": {"engine", "protocol"},
    "client": {"engine", "protocol", "server"},
}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return "neveryu." + ".".join(parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The project's modules (of ``modules``) that ``path`` imports, wherever the import
    statement stands. ``from . import _wire`` imports the module ``_wire``, not its package
    (every module's package is imported before it, and is no edge of this graph)."""
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("neveryu.")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                target = f"{base}.{node.module}" if node.module else base
            elif node.module and node.module.startswith("neveryu"):
                target = node.module
            else:
                continue
            for alias in node.names:
                name = f"{target}.{alias.name}"
                found.add(name if name in modules else target)
    return found & modules


def graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for top in PACKAGES for p in (ROOT / top).rglob("*.py")}
    return {name: imports_of(path, set(modules)) for name, path in modules.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module, or of one importing itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
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
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1 or v in edges[v]:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def top_package(module: str) -> str:
    return module.split(".")[1]


def test_no_import_cycles() -> None:
    assert cycles(graph()) == []


def test_each_package_imports_only_what_it_may() -> None:
    wrong = sorted(
        (name, target)
        for name, targets in graph().items()
        for target in targets
        if top_package(target) != top_package(name)
        and top_package(target) not in MAY_IMPORT[top_package(name)]
    )
    assert wrong == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"a"}}) == [["a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_tests_import_only_the_installed_packages():
    """Under `pytest` and `python -m pytest` alike the repository's folders are no top-level
    packages beside the installed neveryu.* (pyproject.toml's pytest settings, tests/conftest.py)."""
    import importlib.util

    assert [top for top in PACKAGES if importlib.util.find_spec(top) is not None] == []
    assert all(importlib.util.find_spec(f"neveryu.{top}") is not None for top in PACKAGES)
