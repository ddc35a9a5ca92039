from pathlib import Path

import pytest
from django.core.cache import caches

OUTPUT_DIR = Path(__file__).resolve().parent.parent / "test-output"


def pytest_configure(config):
    # The SQLite test database and the browser tests' screenshots live here; a fresh clone
    # has no such folder, and SQLite cannot create one.
    OUTPUT_DIR.mkdir(exist_ok=True)


@pytest.fixture(autouse=True)
def _clear_caches():
    """Rate-limit counters live in the cache; start and leave every test with it empty."""
    for cache in caches.all(initialized_only=True):
        cache.clear()
    yield
    for cache in caches.all(initialized_only=True):
        cache.clear()


@pytest.fixture
def password():
    return "green-felt-8trs"


@pytest.fixture
def player(django_user_model, password):
    return django_user_model.objects.create_user(
        username="lin", email="lin@example.com", password=password
    )
