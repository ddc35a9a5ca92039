"""Real servers for integration tests and benchmarks: Daphne as a subprocess.

The server runs the project's ASGI application on the database the caller
names (normally pytest-django's test database, so tests can look at what it
wrote) and with the caller's Redis/Celery settings inherited from the
environment: in the services profile that is the real Redis channel layer
and the real Celery worker.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SITE = "config.asgi:application"


def wait_for(condition: Callable[[], object], timeout: float, what: str, step: float = 0.1):
    """Poll ``condition`` until it is truthy (returned) or ``timeout`` seconds pass: how a
    test waits for what only shows in a database or another process (a row a Celery worker
    writes, a server coming up), where there is no event to wait on."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(step)


def choose(legal: list[dict]) -> dict:
    """A scripted player's pick from the offered actions: win, else pass on claims,
    else the first setup choice, else the first discard."""
    for kind in ("hu", "pass", "ding_que", "exchange"):
        for a in legal:
            if a["type"] == kind:
                return a
    return next(a for a in legal if a["type"] == "discard")


def session_cookie(user) -> str:
    """A logged-in session for ``user``, as the Cookie header a socket client sends."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def untimed_room(users, *, hands: int = 1):
    """A private Sichuan room without timers (nothing fires while a server is down)
    seating ``users``, nobody ready yet."""
    from games.table import services

    room = services.room_create(
        owner=users[0],
        variant="sichuan",
        hands=hands,
        private=True,
        discard_seconds=None,
        claim_seconds=None,
    )
    for u in users[1:]:
        services.room_join(room_id=room.pk, user=u, code=room.code)
    return room


def four_player_room(users, *, hands: int = 1):
    """``untimed_room``, and each user's session cookie for the socket."""
    return untimed_room(users, hands=hands), [session_cookie(u) for u in users]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url(settings_dict: dict) -> str:
    """The URL of a Django database connection (e.g. the test database)."""
    if settings_dict["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{settings_dict['NAME']}"
    user = settings_dict.get("USER") or ""
    password = f":{settings_dict['PASSWORD']}" if settings_dict.get("PASSWORD") else ""
    auth = f"{user}{password}@" if user else ""
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{settings_dict['NAME']}"


class DaphneServer:
    def __init__(self, port: int, env: dict[str, str], log_path: Path, app: str = SITE):
        self.app = app
        self.port = port
        self.env = env
        self.log_path = log_path
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 30) -> None:
        log = open(self.log_path, "ab")  # noqa: SIM115 - closed with the process
        self.proc = subprocess.Popen(
            # As the site runs it: Daphne through the server's entry module.
            [
                sys.executable,
                "-m",
                "config.serve",
                "-b",
                "127.0.0.1",
                "-p",
                str(self.port),
                self.app,
            ],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"daphne exited with {self.proc.returncode}; see {self.log_path}"
                )
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"daphne did not listen on {self.port}; see {self.log_path}")

    def kill(self) -> None:
        """SIGKILL: no graceful shutdown, as in a crash."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def server_env(db_url: str, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["DATABASE_URL"] = db_url
    env.setdefault("GAME_BOT_DELAY", "0.05")
    env.setdefault("GAME_CLAIM_WINDOW", "0.05")
    env.update(extra)
    return env
