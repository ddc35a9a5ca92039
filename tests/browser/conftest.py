"""Browser tests: a real Daphne server on the embedded profile, driven by Debian's Chromium.

The server runs in a subprocess with its own SQLite file, so these tests talk to it over
HTTP and WebSocket only (no django_db fixture).  Bots act fast (GAME_BOT_DELAY=0.05) and the
between-hands timer is long, so a hand ends and waits for the player.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = ROOT / "test-output" / "screenshots"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for_port(port: int, proc: subprocess.Popen, timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"daphne exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"daphne did not listen on {port} within {timeout}s")


@pytest.fixture(scope="session")
def live_server_url(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("browser")
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "REDIS_CACHE_URL", "DJANGO_SETTINGS_MODULE")
    }
    env.update(
        DATABASE_URL=f"sqlite:///{tmp / 'browser.sqlite3'}",
        GAME_BOT_DELAY="0.05",
        GAME_NEXT_HAND_SECONDS="600",
        PYTHONUNBUFFERED="1",
    )
    python = sys.executable
    subprocess.run(
        [python, "manage.py", "migrate", "--noinput"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    port = _free_port()
    daphne = str(Path(python).with_name("daphne"))
    log = open(tmp / "daphne.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [daphne, "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        _wait_for_port(port, proc)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
        if os.environ.get("BROWSER_TEST_LOG"):
            print((tmp / "daphne.log").read_text(errors="replace")[-5000:])


# Module scope, not session: the sync API runs an event loop in this thread while it is
# open, and asgiref's async_to_sync refuses to run beside one (later tests use it).
@pytest.fixture(scope="module")
def browser():
    assert Path(CHROMIUM).exists(), "install Debian's chromium: apt-get install -y chromium"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def screenshots_dir():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
