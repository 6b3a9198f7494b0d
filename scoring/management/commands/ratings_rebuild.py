"""`manage.py ratings_rebuild`: every player's rating computed again from the sheets.

The worker keeps the ratings up to date as sheets are confirmed and reopened; this
recomputes them all from the confirmed sheets (docs/ratings.md), in one transaction,
and says how many stored ratings it found different. On a site whose worker never
missed a sheet that is none: the figures are rebuilt exactly.
"""

import time

from django.core.management.base import BaseCommand

from scoring.models import PersonRating
from scoring.ratings.services import ratings_rebuild


def _stored() -> dict[int, tuple]:
    return {
        row[0]: row[1:]
        for row in PersonRating.objects.values_list("person", "mu", "sigma", "matches")
    }


class Command(BaseCommand):
    help = "Compute every player's rating again from the confirmed sheets."

    def handle(self, *args, **options):
        before = _stored()
        started = time.perf_counter()
        rated = ratings_rebuild()
        seconds = time.perf_counter() - started
        after = _stored()
        changed = sum(
            before.get(person) != figures for person, figures in after.items()
        ) + len(before.keys() - after.keys())
        self.stdout.write(
            f"Rated {rated} matches: {len(after)} people rated, {changed} of whose "
            f"stored ratings were different, in {seconds:.1f} s."
        )
