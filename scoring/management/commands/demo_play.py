from django.core.management.base import BaseCommand

from scoring.demo import demo_league_play


class Command(BaseCommand):
    help = (
        "Play the demo tournament's league part of the way (fixtures/demo-league."
        "json), unless it is drawn already."
    )

    def handle(self, *args, **options):
        tournament, played = demo_league_play()
        if not played:
            self.stdout.write(f"The league of {tournament.name} is drawn already.")
            return
        self.stdout.write(
            self.style.SUCCESS(
                f"The league of {tournament.name} is in play: see "
                f"/t/{tournament.slug}/standings/"
            )
        )
