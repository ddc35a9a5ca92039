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
    that keep their connections between calls, as a server's threads do.  At the end of
    the run they let go of them, or PostgreSQL refuses to drop the test database ("being
    accessed by other users", a warning at teardown): the connect thread lives as long as
    the process, and the connections of the event loops' ended worker threads wait for
    the cyclic collector (a Django connection holds cycles)."""
    yield
    import gc

    from django.db import connections

    from games import loopdb
    from games.consumers import _CONNECT_POOL

    _CONNECT_POOL.submit(connections.close_all).result()
    loopdb.close_all()  # the event loops' own connections (games.loopdb)
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
