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
from django.db import connections

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


def settings_in_a_fresh_process(env_changes, expression):
    """``expression`` evaluated on ``django.conf.settings`` loaded from the project's own
    settings module in a new process, with the environment changed as given (``None``
    removes a variable); returns (exit code, output)."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    for name, value in env_changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    probe = f"import django; django.setup(); from django.conf import settings; print({expression})"
    result = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return result.returncode, result.stdout + result.stderr


def test_debug_is_off_unless_asked_for_and_no_key_is_in_the_source(tmp_path):
    key_file = tmp_path / "key"
    unset = {
        "DJANGO_DEBUG": None,
        "DJANGO_SECRET_KEY": None,
        "DATABASE_URL": None,
        "REDIS_URL": None,
        "DJANGO_SECRET_KEY_FILE": str(key_file),
    }

    code, output = settings_in_a_fresh_process(
        unset, "settings.DEBUG, settings.SECURE_SSL_REDIRECT, len(settings.SECRET_KEY)"
    )
    assert code == 0, output
    assert output.split() == ["False", "True", "86"]
    kept = key_file.read_text()
    assert oct(key_file.stat().st_mode & 0o777) == "0o600"

    # The same key on the next start: sessions survive a restart.
    code, output = settings_in_a_fresh_process(unset, "settings.SECRET_KEY")
    assert code == 0, output
    assert output.strip() == kept
    source = (BASE_DIR / "config" / "settings.py").read_text()
    assert "insecure" not in source and kept not in source


def test_a_services_deploy_without_a_key_refuses_to_start(tmp_path):
    code, output = settings_in_a_fresh_process(
        {
            "DJANGO_DEBUG": None,
            "DJANGO_SECRET_KEY": None,
            "DATABASE_URL": "postgres://nobody@127.0.0.1:1/none",
            "DJANGO_SECRET_KEY_FILE": str(tmp_path / "key"),
        },
        "settings.SECRET_KEY",
    )
    assert code != 0
    assert "DJANGO_SECRET_KEY must be set" in output
    assert not (tmp_path / "key").exists()


def test_profile_follows_the_environment():
    if os.environ.get("REDIS_URL"):
        assert settings.CACHES["default"]["BACKEND"].endswith("RedisCache")
        assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == (
            "channels_redis.pubsub.RedisPubSubChannelLayer"
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


def test_importing_the_application_changes_nothing_in_the_interpreter():
    """Tests and tools import ``config.asgi``: it sets no interpreter switch and freezes
    nothing.  Only the server's entry module (``config.serve``) freezes what is loaded
    out of the cyclic collector, once the application is loaded, then runs Daphne."""
    probe = (
        "import gc, sys; was = (gc.get_freeze_count(), gc.get_threshold(), "
        "sys.getswitchinterval()); import config.asgi; "
        "print(was == (gc.get_freeze_count(), gc.get_threshold(), sys.getswitchinterval())); "
        "import daphne.cli, config.serve; ran = []; "
        "daphne.cli.CommandLineInterface.run = lambda self, argv: ran.append(argv); "
        "sys.argv = ['serve', '-p', '1', 'config.asgi:application']; config.serve.main(); "
        "print(ran == [['-p', '1', 'config.asgi:application']], gc.get_freeze_count() > 10000)"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    result = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True", "True"], result.stdout


@pytest.mark.postgresql
@pytest.mark.django_db
def test_every_commit_waits_for_the_disk():
    """No connection of the site turns PostgreSQL's synchronous commit off: a move a
    player was shown is on disk.  (SQLite has no such switch.)"""
    import config.asgi  # noqa: F401 - the socket server's module, loaded as Daphne loads it

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

    assert not any("ASYNC_COMMIT" in name for name in dir(settings))
    assert fresh_connection_setting() == "on"
