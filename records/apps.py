from django.apps import AppConfig


class RecordsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "records"

    def ready(self):
        from games.table import readers
        from records import (
            receivers,  # noqa: F401  (connects them)
            selectors,
        )

        readers.register(
            match_of_room=selectors.match_of_room,
            match_ended_after=selectors.match_ended_after,
            rooms_with_match_held=selectors.rooms_with_match_held,
        )
