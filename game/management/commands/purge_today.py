"""``python manage.py purge_today``: remove Today's Deal's results of days older than
HEARTS_TODAY_KEEP_DAYS (90 by default; ``--days`` says otherwise). The platform's scheduler
runs it daily; a past day's board stays readable until then."""

from django.conf import settings
from django.core.management.base import BaseCommand

from game.today import day as days
from game.today.store import purge


class Command(BaseCommand):
    help = "Remove Today's Deal's results of days older than HEARTS_TODAY_KEEP_DAYS (90)."

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=None, help="days to keep (at least 1)")

    def handle(self, *args, **options):
        keep = options["days"] if options["days"] is not None else settings.HEARTS_TODAY_KEEP_DAYS
        keep = max(1, keep)
        removed = purge(keep, days.today())
        self.stdout.write(f"Removed {removed} result{'s' if removed != 1 else ''} of days past.")
