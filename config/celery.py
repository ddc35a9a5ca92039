import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("mahjong")
# Every CELERY_* setting in config/settings.py configures the app (CELERY_TASK_ACKS_LATE, ...).
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
