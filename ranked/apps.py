from django.apps import AppConfig


class RankedConfig(AppConfig):
    name = "ranked"
    verbose_name = "Ranked play"

    def ready(self):
        from games.table import badges, holds
        from ranked import matcher, receivers, selectors  # receivers: connects the receivers

        holds.register(receivers.ranked_room, matcher.left_before_start)
        badges.register(selectors.room_ranks)
