"""`manage.py draw_check <slug>`: run the draw's checker on a stored league.

It checks the matches and byes as they are stored against every rule of rules.md §5
(scoring/domain/draw.py: check_draw), whatever made them, and prints the seed and
algorithm that reproduce the draw. Exits with an error naming each broken rule.
"""

from django.core.management.base import BaseCommand, CommandError

from scoring.league.selectors import draw_state
from tournament.models import Tournament


class Command(BaseCommand):
    help = "Check a tournament's stored league draw against every rule of the draw."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the tournament's slug")

    def handle(self, *args, slug: str, **options):
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"There is no tournament {slug}.")
        state = draw_state(tournament=tournament)
        if state.draw is None:
            raise CommandError(f"{tournament.name} has no league draw yet.")
        draw = state.draw
        self.stdout.write(
            f"{tournament.name}: draw {draw.number}, seed {draw.seed}, "
            f"{draw.algorithm}, {draw.rounds} rounds, {draw.teams} teams"
        )
        if state.check:
            raise CommandError(
                "The stored draw breaks the rules:\n  " + "\n  ".join(state.check)
            )
        self.stdout.write(self.style.SUCCESS("The stored draw is valid."))
