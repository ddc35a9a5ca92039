"""The apps in one order (docs/architecture.md, "The layers"): a module imports only its
own layer and the ones below it, never one above, and no modules import each other in a
circle.  Every import counts, at the top of a file or inside a function: a lower layer that
must set off a higher one sends a signal or calls a hook the higher one registered in its
``AppConfig.ready``.

Each app's interfaces (pages, REST views, URLs, the socket, Celery tasks, commands, the
admin and ``apps.py``, where the hooks are registered) are the ``interfaces`` layer above
every app's logic: a page may show what any app knows.  The table's JS modules keep their
own order (``hand < actions < board < tools < room``) and no circle either."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.test_static_js import JS, js_imports
from tests.test_static_js import js_cycles as cycles  # any graph of hashable names

ROOT = Path(__file__).resolve().parents[1]
APPS = ["config", "accounts", "games", "clubs", "leaderboards", "records", "reviews", "ranked"]

# Lowest first: a layer may import itself and the ones before it.
LAYERS = [
    (
        "base",
        [
            "config.refusals",
            "config.api",
            "config.api_views",
            "config.converters",
            "config.origin",
            "config.settings",
            "config.test_settings",
            "config.celery",
            "config",
        ],
    ),
    ("accounts", ["accounts"]),
    ("rules", ["games.rules"]),
    ("games core", ["games.models", "games"]),
    ("clubs", ["clubs"]),
    ("table", ["games.table"]),
    ("rooms", ["games.rooms"]),
    ("replays", ["games.replays"]),
    ("leaderboards", ["leaderboards"]),
    ("records", ["records"]),
    ("reviews", ["reviews"]),
    ("ranked", ["ranked"]),
    ("interfaces", []),  # found by name: INTERFACES
    ("site", ["config.urls", "config.asgi", "config.wsgi", "config.serve"]),
]
# Module names (the last part, or a package) that are an app's interfaces.
INTERFACES = {
    "views", "api", "urls", "api_urls", "invite_urls", "routing", "consumers", "tasks",
    "admin", "apps", "management", "context_processors", "templatetags", "invites",
    "rules_pages", "talk_api", "receivers",
}  # fmt: skip

# Imports that still point up (none now): the list may only shrink.
PENDING: set[str] = set()


def module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def python_modules() -> dict[str, Path]:
    return {
        module_of(p): p
        for app in APPS
        for p in (ROOT / app).rglob("*.py")
        if "migrations" not in p.parts
    }


def imports_of(path: Path, module: str, known: set[str]) -> set[str]:
    """The site's modules ``path`` imports anywhere in it; ``from a import b`` counts as
    ``a.b`` when that is a module, else as ``a``."""
    found = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in known else base)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m.split(".")[0] in APPS and m != module}


def layer_of(module: str) -> int:
    parts = module.split(".")
    best, rank = -1, None
    for i, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, rank = len(prefix), i
    site = [name for name, _ in LAYERS].index("site")
    if rank != site and any(p in INTERFACES for p in parts[1:]):
        return [name for name, _ in LAYERS].index("interfaces")
    assert rank is not None, f"{module} is in no layer"
    return rank


def graph() -> dict[str, set[str]]:
    modules = python_modules()
    known = set(modules)
    return {m: {d for d in imports_of(p, m, known) if d in known} for m, p in modules.items()}


def upward(g: dict) -> set[str]:
    return {f"{m} -> {d}" for m, deps in g.items() for d in deps if layer_of(d) > layer_of(m)}


def test_the_reader_sees_every_import_form(tmp_path, monkeypatch):
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    app = tmp_path / "clubs"
    app.mkdir()
    (app / "__init__.py").write_text("")
    (app / "a.py").write_text("def f():\n    from games.table import publish\n")
    (app / "b.py").write_text("from . import a\nimport records.tasks\n")
    assert imports_of(app / "a.py", "clubs.a", {"games.table.publish"}) == {"games.table.publish"}
    assert imports_of(app / "b.py", "clubs.b", {"clubs.a"}) == {"clubs.a", "records.tasks"}


def test_every_module_has_a_layer_and_the_order_means_something():
    g = graph()
    assert len(g) > 150
    assert layer_of("games.table.publish") > layer_of("clubs.services")
    assert layer_of("clubs.views") > layer_of("ranked.services")
    assert {layer_of(m) for m in g} >= set(range(len(LAYERS)))


def test_no_import_points_up_a_layer():
    wrong = upward(graph())
    assert sorted(wrong - PENDING) == []
    assert sorted(PENDING - wrong) == [], "no longer pending: take it off the list"


def test_no_import_circle():
    found = [" -> ".join(c) for c in cycles(graph())]
    assert found == [], "\n".join(found)


def test_inside_the_table_the_end_of_a_hand_and_the_reads_stay_below_the_writes():
    g = graph()
    assert "games.table.services" not in g["games.table.finisher"]
    assert "games.tasks" not in g["games.table.finisher"]
    assert "games.table.publish" not in g["games.table.selectors"]


TABLE_ORDER = ["hand", "actions", "board", "tools", "room"]


def test_the_table_js_points_one_way_with_no_circle():
    g = {p.resolve(): js_imports(p) for p in JS.rglob("*.js")}
    assert cycles(g) == []
    rank = {(JS / "table" / f"{n}.js").resolve(): i for i, n in enumerate(TABLE_ORDER)}
    up = [f"{a.name} -> {b.name}" for a in rank for b in g[a] if b in rank and rank[b] > rank[a]]
    assert (JS / "table" / "hand.js").resolve() in g[(JS / "table" / "board.js").resolve()]
    assert up == []


def test_the_apps_above_the_table_register_every_read_it_makes():
    from dataclasses import fields

    from games.table.readers import Readers, readers

    unset = [f.name for f in fields(Readers) if getattr(readers, f.name) == f.default]
    assert unset == []
