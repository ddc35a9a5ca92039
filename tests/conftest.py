from pathlib import Path

import pytest
from django.core.cache import caches

OUTPUT_DIR = Path(__file__).resolve().parent.parent / "test-output"


def pytest_configure(config):
    # The SQLite test database and the browser tests' screenshots live here; a fresh clone
    # has no such folder, and SQLite cannot create one.
    OUTPUT_DIR.mkdir(exist_ok=True)


@pytest.fixture(scope="session", autouse=True)
def _socket_threads_let_go_of_the_test_database(django_db_setup):
    """The table socket's database calls run in worker threads (``games.consumers._db``)
    whose connections outlive the event loops of the tests that made them, until the
    cyclic collector frees them (a Django connection holds cycles).  At the end of the
    run they let go, or PostgreSQL refuses to drop the test database ("being accessed by
    other users", a warning at teardown)."""
    yield
    import gc

    gc.collect()


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
