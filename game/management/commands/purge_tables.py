"""``python manage.py purge_tables``: remove network tables untouched for 24 hours and lobbies
not started within an hour (the platform's scheduler runs it hourly; expired tables also go when
someone opens one, and on a small share of table pages)."""

from django.core.management.base import BaseCommand

from game.network.store import purge


class Command(BaseCommand):
    help = "Remove network tables untouched for 24 hours and lobbies not started in an hour."

    def handle(self, *args, **options):
        removed = purge()
        self.stdout.write(f"Removed {removed} network table{'s' if removed != 1 else ''}.")
