import time

from django.core.management.base import BaseCommand

from games.sweeper import SWEEP_INTERVAL, sweep_once


class Command(BaseCommand):
    help = "Fire due table deadlines (timers, bot moves, next hands) in a loop."

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="sweep once and exit")

    def handle(self, *args, once=False, **options):
        while True:
            taken = sweep_once()
            if once:
                self.stdout.write(f"{taken} actions taken")
                return
            time.sleep(SWEEP_INTERVAL)
