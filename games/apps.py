from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self):
        # Register the Celery tasks in every process (web servers too, not only workers):
        # the finisher queues settlement by the task's name, and in the embedded profile
        # a registered task runs in-process.
        from games import tasks  # noqa: F401
