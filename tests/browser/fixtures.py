"""Browser tests' fixtures: a real Daphne server on the embedded profile, driven by Debian's
Chromium.  A plugin of the whole suite (``tests/conftest.py``), so a test in any folder shares
its process's one server.

The server runs in a subprocess with its own SQLite file, so these tests talk to it over
HTTP and WebSocket only (no django_db fixture); a test that needs a chosen deal asks the
server's test-only hooks (``tests.deals``, installed by the test settings).  Bots act fast
(GAME_BOT_DELAY=0.05) and the between-hands timer is long, so a hand ends and waits for
the player.
"""

from __future__ import annotations

import os
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.live import SITE, DaphneServer, free_port, server_env

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


@pytest.fixture(scope="session")
def table_server(live_server_url) -> str:
    return live_server_url


@contextmanager
def site(tmp: Path, name: str, app: str = SITE, **extra: str):
    """The site served by Daphne on its own SQLite file ``tmp/<name>.sqlite3``, migrated
    first, with the in-process defaults whatever profile the suite runs (no Redis) and the
    test settings (their password hasher; a thrown-away database need not wait for the
    disk at each commit); yields the server."""
    env = server_env(f"sqlite:///{tmp / name}.sqlite3", **extra)
    for key in ("REDIS_URL", "REDIS_CACHE_URL"):
        env.pop(key, None)
    env["DJANGO_SETTINGS_MODULE"] = "config.test_settings"
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    server = DaphneServer(free_port(), env, tmp / f"{name}.log", app=app)
    server.start()
    try:
        yield server
    finally:
        server.stop()
        if os.environ.get("BROWSER_TEST_LOG"):
            print((tmp / f"{name}.log").read_text(errors="replace")[-5000:])


@pytest.fixture(scope="session")
def live_server_url(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("browser")
    with site(tmp, "browser", GAME_NEXT_HAND_SECONDS="600", PYTHONUNBUFFERED="1") as server:
        yield f"http://127.0.0.1:{server.port}"


# Module scope, not session: the sync API runs an event loop in this thread while it is
# open, and asgiref's async_to_sync refuses to run beside one (later tests use it).
@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), "install Debian's chromium: apt-get install -y chromium"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def screenshots_dir():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
