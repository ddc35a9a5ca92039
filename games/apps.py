from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self):
        # Register the Celery tasks in every process (web servers too, not only workers):
        # the finisher queues settlement by the task's name, and in the embedded profile
        # a registered task runs in-process.
        # The table's answers to what the apps below it tell (it imports them; they
        # import nothing of it).
        from clubs.signals import member_gone
        from games import tasks  # noqa: F401
        from games.table import assist

        member_gone.connect(assist.club_member_gone, dispatch_uid="table-club-member-gone")
