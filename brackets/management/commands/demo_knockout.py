from django.core.management.base import BaseCommand

from brackets.demo import demo_knockout_play
from tournament.ops.logs import tasks_quiet


class Command(BaseCommand):
    help = (
        "Load the Spring Open demo (fixtures/demo-knockout.json) with its knockout in "
        "play, unless it is seeded already."
    )

    def handle(self, *args, **options):
        with tasks_quiet():  # no 'Task … succeeded' line per task
            tournament, played = demo_knockout_play()
        if not played:
            self.stdout.write(f"The knockout of {tournament.name} is seeded already.")
            return
        self.stdout.write(
            self.style.SUCCESS(
                f"The knockout of {tournament.name} is in play: see "
                f"/t/{tournament.slug}/bracket/"
            )
        )
