from pathlib import Path

import pytest
from django.core.cache import caches
from django.urls import reverse
from hypothesis import settings as hypothesis_settings

OUTPUT_DIR = Path(__file__).resolve().parent.parent / "test-output"
INTEGRATION_DIR = Path(__file__).resolve().parent / "integration"
# The browser tests' server and Chromium, for tests in any folder (one server a process).
pytest_plugins = ["tests.browser.fixtures"]
# Property tests check what holds, not how fast: a loaded machine (the suite runs two
# processes a core beside browsers and servers) must not fail one on Hypothesis' timing
# deadline. Speed is measured in tests/bench/.
hypothesis_settings.register_profile("suite", deadline=None)
hypothesis_settings.load_profile("suite")


def pytest_configure(config):
    # The SQLite test database and the browser tests' screenshots live here; a fresh clone
    # has no such folder, and SQLite cannot create one.
    OUTPUT_DIR.mkdir(exist_ok=True)


def pytest_collection_modifyitems(config, items):
    """Marks each test by what it needs (``make test-fast`` deselects them): ``browser``
    for a test that drives Chromium (it takes the ``browser`` fixture), ``integration``
    for one under tests/integration/ (real servers in processes).  A test marked
    ``postgresql`` by its module is skipped, with the reason, on any other database."""
    from django.db import connection

    for item in items:
        if "browser" in item.fixturenames:
            item.add_marker(pytest.mark.browser)
        if INTEGRATION_DIR in item.path.parents:
            item.add_marker(pytest.mark.integration)
        if item.get_closest_marker("postgresql") and connection.vendor != "postgresql":
            item.add_marker(pytest.mark.skip(reason="needs PostgreSQL (DATABASE_URL=postgres://…)"))


@pytest.fixture(scope="session", autouse=True)
def _socket_threads_let_go_of_the_test_database(django_db_setup):
    """The table socket's database calls run in worker threads (``games.table.consumers._db``)
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
def make_user(django_user_model, password):
    """Makes a user by name, with the shared password (cheap: the test settings' hasher)."""

    def make(name):
        return django_user_model.objects.create_user(
            username=name, email=f"{name}@example.com", password=password
        )

    return make


@pytest.fixture
def player(django_user_model, password):
    return django_user_model.objects.create_user(
        username="lin", email="lin@example.com", password=password
    )


@pytest.fixture
def sign_up(password):
    """Posts the sign-up form as ``client``, reading in ``language`` if given; returns the
    response. The e-mail is the username's at example.com unless ``fields`` say otherwise."""

    def post(client, username, *, language=None, **fields):
        if language:
            client.cookies["django_language"] = language
        data = {"username": username, "email": f"{username}@example.com"}
        data |= {"password1": password, "password2": password, **fields}
        return client.post(reverse("account_signup"), data)

    return post


@pytest.fixture(autouse=True)
def _the_worker_is_done_before_the_flush(request, settings):
    """With a real Celery worker (the services profile), a transactional test's database is
    emptied at its end while the worker may still be writing what the test's hands set off
    (a settlement, a match record, a review): the emptying and the worker's transaction
    can deadlock.  So the test's end waits, a while at most, until nothing is owed any
    more (``config.obligations``: each obligation's rows owed since now)."""
    marker = request.node.get_closest_marker("django_db")
    if not (settings.REDIS_URL and marker and marker.kwargs.get("transaction")):
        yield
        return
    request.getfixturevalue("transactional_db")  # torn down (emptied) after this fixture
    yield
    import time

    from games.table.settling import SETTLEMENT
    from records.services import MATCH_RECORD
    from reviews.services import REVIEW

    # A test that left something owed on purpose (a dead broker) has nobody to do it:
    # it is not waited for past this.
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(
        ob.owed(0) for ob in (SETTLEMENT, MATCH_RECORD, REVIEW)
    ):
        time.sleep(0.1)
