"""Two rules of the codebase, checked over every Python file outside the migrations and the
tests: a file stays at 600 lines or under (past that it holds more than one concern: split
it at the seam it has), and no module imports another module's private (``_x``) name (what
another module calls is public, and its docstring states its preconditions)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 600
NOT_SOURCE = {"tests", "migrations", "node_modules", "static", "templates", "locale"}


def sources() -> list[str]:
    """Every Python file of the project outside tests and migrations, relative to the root."""
    out = []
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT).parts
        if any(p.startswith(".") or p in NOT_SOURCE for p in parts[:-1]):
            continue
        out.append(path.relative_to(ROOT).as_posix())
    return sorted(out)


SOURCES = sources()
PACKAGES = {rel.split("/")[0] for rel in SOURCES if "/" in rel}


def lines(rel: str) -> int:
    return len((ROOT / rel).read_text(encoding="utf-8").splitlines())


def private_imports(text: str, rel: str) -> list[str]:
    """Another module's private name taken in ``text`` (the file ``rel``): ``from x import
    _y`` where ``x`` is a module of the project (relative imports resolved), or ``m._y``
    where ``m`` names a project module it imported; dunders are not private."""
    parts = rel[: -len(".py")].split("/")
    package = parts[:-1]  # an __init__ imports relative to its own package, as does a module
    found, modules = [], {}
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in PACKAGES:
                    modules[alias.asname or alias.name.split(".")[0]] = alias.name
            continue
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = package[: len(package) - (node.level - 1)]
            module = ".".join([*base, *([node.module] if node.module else [])])
        else:
            module = node.module or ""
        if module.split(".")[0] not in PACKAGES:
            continue  # the standard library or a third party
        for alias in node.names:
            name = alias.name
            if private(name):
                found.append(f"{rel}:{node.lineno}: from {module} import {name}")
            elif is_module(f"{module}.{name}"):
                modules[alias.asname or name] = f"{module}.{name}"
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
            and private(node.attr)
        ):
            found.append(f"{rel}:{node.lineno}: {modules[node.value.id]}.{node.attr}")
    return found


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def is_module(dotted: str) -> bool:
    path = ROOT.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def test_the_walk_reads_the_project():
    assert {"games/rules/engine.py", "games/table/services.py", "manage.py"} <= set(SOURCES)
    assert not any(r.startswith("tests/") or "/migrations/" in r for r in SOURCES)
    assert {"games", "clubs", "accounts", "config"} <= PACKAGES
    assert max(lines(r) for r in SOURCES) > 300  # the count reads real files


def test_private_imports_are_found():
    text = (
        "from __future__ import annotations\n"
        "from django.utils.translation import gettext as _\n"
        "from .services import _lock_room, room_create\n"
        "from ..rules.engine import apply\n"
        "from games.rules.heuristics import _shanten as shanten\n"
        "from . import _private_module\n"
    )
    assert private_imports(text, "games/table/presence.py") == [
        "games/table/presence.py:3: from games.table.services import _lock_room",
        "games/table/presence.py:5: from games.rules.heuristics import _shanten",
        "games/table/presence.py:6: from games.table import _private_module",
    ]
    assert private_imports("from .wilds import split_wilds\n", "games/rules/x/__init__.py") == []


def test_private_names_taken_through_a_module_are_found():
    text = (
        "from games.table import services\n"
        "import games.rules.engine as engine\n"
        "from django.db import transaction\n"
        "room = services._lock_room(1)\n"
        "engine._step(room)\n"
        "transaction._private(room)\n"
        "services.__name__\n"
    )
    assert private_imports(text, "games/table/assist.py") == [
        "games/table/assist.py:4: games.table.services._lock_room",
        "games/table/assist.py:5: games.rules.engine._step",
    ]


def test_no_python_file_is_over_600_lines():
    long = {r: n for r in SOURCES if (n := lines(r)) > LIMIT}
    assert not long, long


def test_no_module_imports_another_modules_private_name():
    found = [
        line for r in SOURCES for line in private_imports((ROOT / r).read_text(encoding="utf-8"), r)
    ]
    assert not found, "\n".join(found)
