"""games/rules/ is pure Python: no framework, database or randomness import."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

RULES = pathlib.Path(__file__).resolve().parents[2] / "games" / "rules"
FORBIDDEN = {"django", "channels", "celery", "rest_framework", "daphne", "redis", "psycopg"}
# The engine takes randomness and time as inputs: it may not reach for them itself.
IMPURE = {"random", "time", "datetime", "secrets"}
ALLOWED_IMPURE = {"simulate.py": {"time"}}  # the simulator times itself


def _imports(path: pathlib.Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0]


def test_no_framework_or_impure_imports():
    files = sorted(RULES.rglob("*.py"))
    assert len(files) > 10
    for path in files:
        mods = set(_imports(path))
        assert not mods & FORBIDDEN, f"{path.name} imports {mods & FORBIDDEN}"
        impure = mods & IMPURE - ALLOWED_IMPURE.get(path.name, set())
        assert not impure, f"{path.name} imports {impure}"


def test_engine_imports_without_django_installed_in_sys_modules():
    code = (
        "import sys, games.rules, games.rules.simulate, games.rules.__main__;"
        "bad=[m for m in sys.modules if m.split('.')[0] in "
        f"{sorted(FORBIDDEN)!r}];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=RULES.parents[1], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stdout + out.stderr
