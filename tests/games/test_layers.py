"""The Django side of games/ is layered: no two modules import each other, even lazily.

By package, the imports point one way: ``games.replays`` (hand pages) ->
``games.rooms`` (lobby, room pages, REST) -> ``games.table`` (the live table) ->
``games.models`` and the pure rules engine.  Inside the table: interfaces
(consumers, tasks) -> services -> finisher -> publish -> selectors -> messages ->
the rules engine.  A cycle here is how a module ends up calling back into the layer
that called it."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"
# Outer to inner: a package may import the ones after it, never the ones before.
PACKAGES = ["games.replays", "games.rooms", "games.table"]


def module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def django_modules() -> dict[str, Path]:
    """games/ without the rules engine and the migrations: module name -> file."""
    return {
        module_of(p): p
        for p in GAMES.rglob("*.py")
        if p.relative_to(GAMES).parts[0] not in {"rules", "migrations"}
    }


def imports_of(path: Path) -> set[str]:
    """games.* modules a file imports anywhere in it (top level or inside functions);
    ``from games.table import publish`` counts as ``games.table.publish``."""
    known = set(django_modules())
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "games" or node.module.startswith("games."):
                for a in node.names:
                    sub = f"{node.module}.{a.name}"
                    found.add(sub if sub in known else node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("games."))
    return found


def test_no_import_cycles_between_the_games_modules():
    modules = django_modules()
    graph = {m: imports_of(p) for m, p in modules.items()}
    graph = {m: {d for d in deps if d in graph and d != m} for m, deps in graph.items()}

    def cycle_from(start):
        stack, seen = [(start, [start])], set()
        while stack:
            node, path = stack.pop()
            for dep in graph[node]:
                if dep == start:
                    return path + [start]
                if dep not in seen:
                    seen.add(dep)
                    stack.append((dep, path + [dep]))
        return None

    assert "games.table.services" in graph["games.table.consumers"]
    cycles = [c for m in sorted(graph) if (c := cycle_from(m))]
    assert not cycles, " ; ".join(" -> ".join(c) for c in cycles)


def package_of(module: str) -> str | None:
    return next((p for p in PACKAGES if module == p or module.startswith(p + ".")), None)


def test_the_layers_point_one_way():
    table = GAMES / "table"
    assert "games.table.services" not in imports_of(table / "finisher.py")
    assert "games.tasks" not in imports_of(table / "finisher.py")
    assert "games.table.publish" not in imports_of(table / "selectors.py")

    wrong = []
    for module, path in django_modules().items():
        outer = package_of(module)
        # models, apps, urls and tasks: models must stay below every package.
        allowed = PACKAGES[PACKAGES.index(outer) :] if outer else PACKAGES
        if module == "games.models":
            allowed = []
        for dep in imports_of(path):
            inner = package_of(dep)
            if inner and inner not in allowed:
                wrong.append(f"{module} imports {dep}")
    assert not wrong, "; ".join(sorted(wrong))


def test_every_package_is_reached_from_the_urls():
    """The check above means something: each package is in use, through the routes."""
    used = imports_of(GAMES / "urls.py") | imports_of(GAMES / "api_urls.py")
    used |= imports_of(GAMES / "routing.py")
    assert {package_of(m) for m in used} >= set(PACKAGES)
