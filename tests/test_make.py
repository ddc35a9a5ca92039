"""What the Makefile's targets run, read from make's dry run (nothing is executed)."""

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _make_run_commands(*args: str) -> str:
    out = subprocess.run(
        ["make", "-n", "run", *args], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return out.stdout


def test_make_run_serves_on_the_port_asked_for():
    assert "-p 8201 config.asgi:application" in _make_run_commands("PORT=8201")
    assert "http://127.0.0.1:8201/" in _make_run_commands("PORT=8201")
    assert "-p 8000 config.asgi:application" in _make_run_commands()
