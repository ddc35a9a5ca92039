import time

import pytest
from django.conf import settings
from django.db import connection

from config.celery import app
from config.celery import close_old_connections_around_task as around_task
from games.tasks import ping


def test_worker_settings_allow_idempotent_redelivery():
    assert app.conf.task_acks_late is True
    assert app.conf.task_reject_on_worker_lost is True
    assert app.conf.worker_prefetch_multiplier == 1


def test_ping_round_trip():
    result = ping.delay()

    if settings.REDIS_URL:
        # Services profile: the task goes through Redis to a separate worker process.
        assert app.conf.task_always_eager is False
        assert app.conf.broker_url == settings.REDIS_URL
        assert result.get(timeout=30) == "pong"
        assert result.successful()
    else:
        # Embedded profile: the task runs inline in this process.
        assert app.conf.task_always_eager is True
        assert result.get(timeout=30) == "pong"
        assert result.state == "SUCCESS"


@pytest.mark.django_db(transaction=True)
def test_a_worker_keeps_a_young_database_connection_between_tasks():
    """Around a worker's task (not an eager one) the database connection lives as long as
    a server's (``CONN_MAX_AGE``): Celery's Django fixup no longer closes it before and
    after every task, and Django's own check closes it once it is too old."""
    from celery.fixups.django import DjangoWorkerFixup

    fixup = DjangoWorkerFixup(app)
    connection.ensure_connection()
    raw = connection.connection
    connection.close_at = time.monotonic() + 60  # a connection opened with CONN_MAX_AGE 60
    for _ in range(3):  # three tasks: the fixup's hooks and ours, as the worker runs them
        fixup.on_task_prerun(ping)
        around_task(sender=ping)
        with connection.cursor() as cur:
            cur.execute("select 1")
        around_task(sender=ping)
        fixup.on_task_postrun(ping)
        assert connection.connection is raw
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        pytest.skip("Django never closes an in-memory test database (it would be lost)")
    connection.close_at = time.monotonic() - 1  # past its age
    around_task(sender=ping)
    assert connection.connection is None
