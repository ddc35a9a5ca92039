import time

from django.core.management.base import BaseCommand

from games.table.sweeper import SWEEP_INTERVAL, Pace, sweep_once


class Command(BaseCommand):
    help = (
        "Fire due table deadlines (timers, bot moves, next hands) and resend owed "
        "settlements in a loop; outages of the database or Redis are waited out."
    )

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="sweep once and exit")

    def handle(self, *args, once=False, **options):
        if once:
            self.stdout.write(f"{sweep_once()} actions taken")
            return
        pace = Pace(SWEEP_INTERVAL)
        while True:
            time.sleep(pace.step())
