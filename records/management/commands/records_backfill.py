"""Record the matches of rooms that finished before match records existed."""

from django.core.management.base import BaseCommand

from games.models import Room
from records import services


class Command(BaseCommand):
    help = "Record every finished room's match that has no record yet (safe to run again)."

    def handle(self, *args, **options):
        rooms = Room.objects.filter(status=Room.Status.FINISHED, record__isnull=True)
        done = 0
        for room in rooms.iterator():
            if services.match_finished(room, ended_by=services.ended_by_of(room)) is not None:
                done += 1
        self.stdout.write(f"recorded {done} match(es)")
