from django.apps import AppConfig


class RankedConfig(AppConfig):
    name = "ranked"
    verbose_name = "Ranked play"

    def ready(self):
        from games.table import badges, holds
        from ranked import receivers, selectors  # receivers: connects the signal receivers

        holds.register(receivers.ranked_room)
        badges.register(selectors.room_ranks)
