from django.apps import AppConfig


class ReviewsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "reviews"

    def ready(self):
        # Register the review task in every process, as games does: the request queues it
        # by name, and only a registered task runs in-process in the embedded profile.
        from reviews import receivers, tasks  # noqa: F401  (receivers: connects them)
