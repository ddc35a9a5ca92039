"""The Django side of games/ is layered: no two modules import each other, even lazily.

Interfaces (consumers, api, views, tasks) -> services -> finisher -> publish ->
selectors -> messages -> the pure rules engine. A cycle here is how a module ends
up calling back into the layer that called it."""

from __future__ import annotations

import ast
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "games"


def imports_of(path: Path) -> set[str]:
    """games.* modules a file imports anywhere in it (top level or inside functions)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "games":
                found.update(f"games.{a.name}" for a in node.names)
            elif node.module.startswith("games."):
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("games."))
    return {".".join(m.split(".")[:2]) for m in found}


def test_no_import_cycles_between_the_games_modules():
    graph = {f"games.{p.stem}": imports_of(p) for p in GAMES.glob("*.py")}
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

    cycles = [c for m in sorted(graph) if (c := cycle_from(m))]
    assert not cycles, " ; ".join(" -> ".join(c) for c in cycles)


def test_the_layers_point_one_way():
    assert "games.services" not in imports_of(GAMES / "finisher.py")
    assert "games.tasks" not in imports_of(GAMES / "finisher.py")
    assert "games.publish" not in imports_of(GAMES / "selectors.py")
