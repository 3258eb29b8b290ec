"""``python manage.py purge_tables``: remove network tables untouched for 24 hours (a scheduler
runs it, say, hourly; tables are also removed when someone opens an expired one)."""

from django.core.management.base import BaseCommand

from game.network import purge


class Command(BaseCommand):
    help = "Remove network tables untouched for 24 hours."

    def handle(self, *args, **options):
        removed = purge()
        self.stdout.write(f"Removed {removed} network table{'s' if removed != 1 else ''}.")
