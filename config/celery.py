import os

from celery import Celery
from celery.signals import task_postrun, task_prerun
from django.db import close_old_connections

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("mahjong")
# Every CELERY_* setting in config/settings.py configures the app (CELERY_TASK_ACKS_LATE, ...).
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect
@task_postrun.connect
def close_old_connections_around_task(sender=None, **kwargs) -> None:
    """Around a task on a worker, what Django does around a request: close the database
    connections that are broken or older than ``CONN_MAX_AGE``, and keep the others
    (``CELERY_DB_REUSE_MAX`` keeps Celery's own Django fixup from closing every one
    before and after every task).  Not for a task run eagerly, inside its caller's
    request or transaction."""
    request = getattr(sender, "request", None)
    if getattr(request, "is_eager", False):
        return
    close_old_connections()
