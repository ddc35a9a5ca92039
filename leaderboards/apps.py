from django.apps import AppConfig


class LeaderboardsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leaderboards"

    def ready(self):
        from games.table import readers
        from leaderboards import rating, selectors

        readers.register(
            hand_ratings=selectors.hand_ratings, counts_publicly=rating.counts_publicly
        )
