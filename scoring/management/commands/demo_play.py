from django.core.management.base import BaseCommand

from scoring.demo import demo_league_play
from scoring.links.selectors import tables_needed
from scoring.links.services import table_links
from tournament.ops.logs import tasks_quiet


class Command(BaseCommand):
    help = (
        "Play the demo tournament's league part of the way (fixtures/demo-league."
        "json), unless it is drawn already."
    )

    def handle(self, *args, **options):
        with tasks_quiet():  # no 'Task … succeeded' line per task
            tournament, played = demo_league_play()
        if tables_needed(tournament):
            link = table_links(tournament=tournament, tables={1})[1]
            self.stdout.write(
                f"Table 1's link, no login needed (docs/links.md): /l/{link.key}/ ; "
                f"every link and its QR code: /t/{tournament.slug}/links/"
            )
        if not played:
            self.stdout.write(f"The league of {tournament.name} is drawn already.")
            return
        self.stdout.write(
            self.style.SUCCESS(
                f"The league of {tournament.name} is in play: see "
                f"/t/{tournament.slug}/standings/"
            )
        )
