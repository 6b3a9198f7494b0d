"""Run inside a web container of the upgraded site by .ci/upgrade, as `manage.py shell
-c` (docs/deploy.md, "The CI pass"): everything the site stored for its sheets against
a fresh computation from the deals. Prints one JSON object: the counts, and the
problems found (none is the pass).

- each sheet's awards, totals and winner as the rules engine scores its stored deals;
- each sheet's statistics (`Match.tally`, the `MatchTally` rows) as counted again from
  its deals (scoring/sheets/tallies.py, the same counting the writes do);
- every rating as a rebuild from the confirmed sheets computes it (ratings_rebuild);
- one history row (`deal_add`) per stored deal.

It leaves the site as a fresh computation makes it (tallies stored again, ratings
rebuilt, the shared cache emptied), so that the API's standings and statistics read
afterwards are computed anew: .ci/upgrade_client.py compares them with what the API
served before.
"""

import json
import time
from collections import Counter

from django.core.cache import cache
from django.db import transaction

from scoring.models import (
    Deal,
    Match,
    MatchTally,
    Penalty,
    PersonRating,
    RatedGame,
    RatingStep,
    SheetChange,
)
from scoring.ratings.services import ratings_behind, ratings_rebuild
from scoring.sheets.selectors import sheet_settle
from scoring.sheets.tallies import tallies_store, tally_of_sheet

# The worker's refreshes of the sheets confirmed last (and the catch-up after the
# migrations) done first: a rating still on its way is not a wrong one.
deadline = time.monotonic() + 120
while ratings_behind() is not None and time.monotonic() < deadline:
    time.sleep(1)

problems = []
deals = 0
matches = list(Match.objects.select_related("tournament").order_by("pk"))
for match in matches:
    stored = list(Deal.objects.filter(match=match).order_by("number"))
    penalties = list(Penalty.objects.filter(deal__match=match).order_by("pk"))
    deals += len(stored)
    numbers = [d.number for d in stored]
    if len(numbers) != len(set(numbers)):
        problems.append(f"match {match.pk}: a deal number twice: {numbers}")
    sheet, _ = sheet_settle(match, stored, penalties)
    for row, deal in zip(sheet.rows, stored, strict=True):
        if (row.result.award_to.value, row.result.award) != (deal.award_to, deal.award):
            problems.append(f"match {match.pk} deal {deal.number}: award differs")
    winner = sheet.winner.value if sheet.winner else None
    if (match.total_a, match.total_b, match.winner or None) != (
        sheet.total_a,
        sheet.total_b,
        winner,
    ):
        problems.append(
            f"match {match.pk}: stored {match.total_a}-{match.total_b} "
            f"{match.winner}, the rules {sheet.total_a}-{sheet.total_b} {winner}"
        )
    if stored and list(match.tally) != tally_of_sheet(stored, penalties):
        problems.append(f"match {match.pk}: its tally is not its deals' count")
    added = Counter(
        SheetChange.objects.filter(match=match, action="deal_add").values_list(
            "after__number", flat=True
        )
    )
    if stored and any(added[n] != 1 for n in numbers):
        problems.append(f"match {match.pk}: history of its deals {dict(added)}")


def rows(model, *order, but=("id",), more=()):
    """Every row's values, in a stable order, without the columns a rebuild
    renumbers (`but`), with `more` in their place."""
    fields = [f.attname for f in model._meta.concrete_fields if f.attname not in but]
    return list(model.objects.order_by(*order).values_list(*fields, *more))


def ratings_rows():
    return (
        rows(RatedGame, "match"),
        rows(
            RatingStep,
            "game__match",
            "person_id",
            "position",
            but=("id", "game_id"),
            more=("game__match",),
        ),
        rows(PersonRating, "person_id"),
    )


tallies = rows(MatchTally, "match_id", "side", "bidder")
ratings = ratings_rows()
with transaction.atomic():
    tallies_store([m.pk for m in matches])
ratings_rebuild()
if rows(MatchTally, "match_id", "side", "bidder") != tallies:
    problems.append("the stored statistics differ from the deals' count")
again = ratings_rows()
if again != ratings:
    problems.append(
        "the ratings differ from a rebuild: "
        f"{[len(r) for r in ratings]} rows stored, {[len(r) for r in again]} rebuilt"
    )
cache.clear()
print(
    json.dumps(
        {
            "matches": len(matches),
            "deals": deals,
            "rated_games": len(ratings[0]),
            "problems": problems,
        }
    )
)
