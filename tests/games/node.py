"""Run a browser module of static/js under Node: copied as .mjs (Node reads an ES module by
its name; the site serves it as .js), driven by a script of tests/games/js that reads JSON
on stdin."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node") or "/usr/bin/node"


def as_module(folder: Path, name: str) -> Path:
    """static/js/``name`` copied into ``folder`` as an ES module Node imports."""
    path = folder / f"{Path(name).stem}.mjs"
    shutil.copy(ROOT / "static" / "js" / name, path)
    return path


def run(script: Path, module: Path, payload) -> subprocess.CompletedProcess:
    """``script`` run on ``module`` with ``payload`` as JSON on its stdin."""
    return subprocess.run(
        [NODE, str(script), str(module)],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def results(script: Path, module: Path, payload):
    """What ``script`` prints as JSON for ``payload``; it must succeed."""
    out = run(script, module, payload)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)
