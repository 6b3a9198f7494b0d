"""`manage.py version`: the software's version (docs/deploy.md)."""

from django.core.management.base import BaseCommand

from tournament.version import VERSION


class Command(BaseCommand):
    help = "Print the software's version."

    def handle(self, *args, **options):
        self.stdout.write(VERSION)
