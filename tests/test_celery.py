from django.conf import settings

from config.celery import app
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
