"""Two rules of the codebase, checked over every Python file outside the migrations and the
tests: a file stays at 600 lines or under (past that it holds more than one concern: split
it at the seam it has), and no module imports another module's private (``_x``) name (what
another module calls is public, and its docstring states its preconditions).

A file still waiting for its split or its public API is listed in ``PENDING`` and expected
to fail (strictly: once it is done, the test says so and the entry goes)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 600
NOT_SOURCE = {"tests", "migrations", "node_modules", "static", "templates", "locale"}

PENDING_LONG = {
    "clubs/services.py": "the club services are not split yet",
    "games/table/services.py": "the table services are not split yet",
}
PENDING_PRIVATE = {
    "games/rooms/talk_api.py": "the room API's visibility check is still private",
    "games/table/presence.py": "the table's write API (lock, current hand) is still private",
    "games/table/timers.py": "the table's write API (lock, record, next hand) is still private",
    "games/table/votes.py": "the table's write API (lock, current hand) is still private",
}


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
    """``from x import _y`` in ``text`` (the file ``rel``) where ``x`` is another module of
    the project (relative imports resolved) and ``_y`` is no dunder."""
    parts = rel[: -len(".py")].split("/")
    package = parts[:-1]  # an __init__ imports relative to its own package, as does a module
    found = []
    for node in ast.walk(ast.parse(text)):
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
            if name.startswith("_") and not (name.startswith("__") and name.endswith("__")):
                found.append(f"{rel}:{node.lineno}: from {module} import {name}")
    return found


def _pending(rels: dict[str, str]):
    return [
        pytest.param(rel, marks=pytest.mark.xfail(strict=True, reason=why))
        for rel, why in rels.items()
    ]


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


def test_no_python_file_is_over_600_lines():
    long = {r: n for r in SOURCES if r not in PENDING_LONG and (n := lines(r)) > LIMIT}
    assert not long, long


@pytest.mark.parametrize("rel", _pending(PENDING_LONG))
def test_a_pending_file_is_split(rel):
    assert lines(rel) <= LIMIT


def test_no_module_imports_another_modules_private_name():
    found = [
        line
        for r in SOURCES
        if r not in PENDING_PRIVATE
        for line in private_imports((ROOT / r).read_text(encoding="utf-8"), r)
    ]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("rel", _pending(PENDING_PRIVATE))
def test_a_pending_module_takes_no_private_name(rel):
    assert private_imports((ROOT / rel).read_text(encoding="utf-8"), rel) == []
