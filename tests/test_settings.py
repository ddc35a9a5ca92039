import asyncio
import os
import secrets
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels.routing import ProtocolTypeRouter
from django.conf import settings
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext

BASE_DIR = Path(__file__).resolve().parent.parent


def test_check_deploy_passes_with_production_switches():
    env = {
        **os.environ,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
        "DJANGO_ALLOWED_HOSTS": "example.com",
    }

    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )

    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "WARNING" not in output
    assert "System check identified no issues" in output


def test_profile_follows_the_environment():
    if os.environ.get("REDIS_URL"):
        assert settings.CACHES["default"]["BACKEND"].endswith("RedisCache")
        assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == os.environ.get(
            "CHANNEL_LAYER_BACKEND", "games.layers.PubSubLayer"
        )
    else:
        assert settings.CACHES["default"]["BACKEND"].endswith("LocMemCache")
        assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == (
            "channels.layers.InMemoryChannelLayer"
        )
    backend = "postgresql" if os.environ.get("DATABASE_URL") else "sqlite3"
    assert settings.DATABASES["default"]["ENGINE"] == f"django.db.backends.{backend}"


def test_channel_layer_round_trip():
    async def round_trip():
        layer = get_channel_layer()
        channel = await layer.new_channel()
        receiver = asyncio.ensure_future(layer.receive(channel))
        # The Redis pub/sub layer delivers at most once and only to a channel already
        # subscribed, so send until the receiver (which subscribes) has it.
        for _ in range(100):
            await layer.send(channel, {"type": "table.ping", "n": 1})
            try:
                return await asyncio.wait_for(asyncio.shield(receiver), 0.1)
            except TimeoutError:
                continue
        receiver.cancel()
        raise AssertionError("no message came back through the channel layer")

    assert async_to_sync(round_trip)() == {"type": "table.ping", "n": 1}


def test_asgi_application_routes_http_and_websocket():
    from config.asgi import application

    assert isinstance(application, ProtocolTypeRouter)
    assert set(application.application_mapping) == {"http", "websocket"}


def test_the_socket_server_keeps_its_loaded_code_out_of_the_collector():
    """A process that loads the ASGI application (Daphne) freezes what it has loaded,
    collects young objects less often and hands the GIL on at the switch interval it is
    set to (``config/asgi.py``)."""
    probe = (
        "import gc, sys; before = gc.get_freeze_count(); was = sys.getswitchinterval(); "
        "import config.asgi as a; "
        "print(before, gc.get_freeze_count(), gc.get_threshold()[0], a.GC_YOUNG_THRESHOLD); "
        "print(*sorted(m for m in sys.modules if m.startswith('games.rules.variants.'))); "
        "print(was, sys.getswitchinterval())"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    result = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=BASE_DIR,
        env={**env, "GAME_SOCKET_SWITCH_INTERVAL": "0.002"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    counts, loaded, switch = result.stdout.splitlines()
    assert [float(x) for x in switch.split()] == [0.005, 0.002]  # CPython's, then the setting's
    before, frozen, young, wanted = map(int, counts.split())
    assert before == 0 and frozen > 10_000  # Django, Channels and the apps
    assert young == wanted > 700  # CPython's default
    # Warmed before the first socket: every variant, and Sichuan's scoring tables.
    variants = {m.rsplit(".", 1)[1] for m in loaded.split()}
    assert {"sichuan", "sichuan_fan", "hangzhou", "guangzhou", "ningbo"} <= variants


@pytest.mark.django_db
def test_the_socket_server_commits_moves_without_waiting_for_the_disk(settings):
    """``config/asgi.py`` (loaded by Daphne) turns PostgreSQL's synchronous commit off on
    every connection the process opens, unless ``GAME_SOCKET_ASYNC_COMMIT`` is off; SQLite
    is left alone."""
    from config.asgi import commit_without_waiting

    def fresh_connection_setting():
        """What a connection opened now (a new thread's) says of synchronous_commit."""
        seen = []

        def run():
            try:
                with connections["default"].cursor() as cursor:
                    cursor.execute("SHOW synchronous_commit")
                    seen.append(cursor.fetchone()[0])
            finally:
                connections["default"].close()

        thread = threading.Thread(target=run)
        thread.start()
        thread.join()
        return seen[0]

    connection.ensure_connection()
    if connection.vendor != "postgresql":
        with CaptureQueriesContext(connection) as ran:
            commit_without_waiting(sender=None, connection=connection)
        assert len(ran) == 0  # SQLite has no such setting: nothing is run
        return
    assert fresh_connection_setting() == "off"  # the ASGI module is loaded (imported above)
    settings.GAME_SOCKET_ASYNC_COMMIT = False
    assert fresh_connection_setting() == "on"
