import os
import secrets
import subprocess
import sys
from pathlib import Path

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels.routing import ProtocolTypeRouter
from django.conf import settings

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
        assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == (
            "channels_redis.core.RedisChannelLayer"
        )
    else:
        assert settings.CACHES["default"]["BACKEND"].endswith("LocMemCache")
        assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == (
            "channels.layers.InMemoryChannelLayer"
        )
    backend = "postgresql" if os.environ.get("DATABASE_URL") else "sqlite3"
    assert settings.DATABASES["default"]["ENGINE"] == f"django.db.backends.{backend}"


def test_channel_layer_round_trip():
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()

    async_to_sync(layer.send)(channel, {"type": "table.ping", "n": 1})

    assert async_to_sync(layer.receive)(channel) == {"type": "table.ping", "n": 1}


def test_asgi_application_routes_http_and_websocket():
    from config.asgi import application

    assert isinstance(application, ProtocolTypeRouter)
    assert set(application.application_mapping) == {"http", "websocket"}
