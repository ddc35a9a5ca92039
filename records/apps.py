from django.apps import AppConfig


class RecordsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "records"

    def ready(self):
        from games.table import readers

        # receivers: connects them; tasks: registers the record's task in every process,
        # as games does (it is queued by name, and runs in-process in the embedded profile).
        from records import receivers, selectors, tasks  # noqa: F401

        readers.register(
            match_of_room=selectors.match_of_room,
            match_ended_after=selectors.match_ended_after,
            rooms_with_match_held=selectors.rooms_with_match_held,
        )
