"""Start a ranked season (the one in play ends when it starts)."""

from datetime import datetime

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from ranked import services


class Command(BaseCommand):
    help = (
        "Start a ranked season now (or at --starts): the current one ends then, and each "
        "player's 段位 carries into it one tier lower (docs/ranked.md)."
    )

    def add_arguments(self, parser):
        parser.add_argument("name", help="the season's name, e.g. 2027-S1")
        parser.add_argument("--starts", help="ISO date and time (default: now)")

    def handle(self, *args, name, starts=None, **options):
        when = None
        if starts:
            try:
                when = datetime.fromisoformat(starts)
            except ValueError:
                raise CommandError(f"--starts: not an ISO date and time: {starts!r}") from None
            if timezone.is_naive(when):
                when = timezone.make_aware(when)
        season = services.season_start(name=name, starts=when)
        self.stdout.write(
            f"season {season.name} (id {season.pk}) starts {season.starts:%Y-%m-%d %H:%M %Z}"
        )
