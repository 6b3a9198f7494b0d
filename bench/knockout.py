"""The knockout of a 500-team championship, on SQLite and on PostgreSQL.

The 500-team league of bench/league.py, every sheet confirmed, played as a day plays
it: each confirmed sheet's copy kept as its confirmation keeps it (the `sheet_copy_keep`
task, docs/backups.md), so that the automatic backup before the seeding reuses them.
Then, in one child process per database, the median time of

- the baseline: a plain `SELECT count(*)` over the deals;
- seeding a bracket of 24 and of 128 qualifiers (`knockout_seed`: the automatic backup,
  the final standings, the lot, the bracket, its first sheets), each rolled back and
  repeated; 128 again without the automatic backup (the goal's baseline); and 128 with
  no sheet copy kept (the cold backup: the first after an upgrade; printed, no goal);
- the bracket API and the bracket page of the 128-qualifier bracket;
- confirming a knockout sheet, which moves its winner on and opens the next sheet,
  against confirming a league sheet of the same 18 deals (both through the services);

printed as milliseconds and as a ratio to the baseline.

Usage: python -m bench knockout [--teams 500] [--qualifiers 128] [--repeat 7]
                                [--vendors sqlite,postgresql]
"""

from __future__ import annotations

import argparse
import json
import sys

from bench.core import Figure, Session, median_ms, run_module
from bench.league import ORGANIZER, SLUG

TINY = ["--teams", "32", "--qualifiers", "32", "--repeat", "2"]


class _Rollback(Exception):
    pass


def _measure(qualifiers: int, repeat: int) -> dict:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.test import Client, override_settings
    from django.utils import timezone

    from brackets import services as knockout
    from scoring.models import Deal, Match
    from scoring.sheets import services
    from tests.scoring.league import deals_for
    from tournament.backups import services as backups
    from tournament.domain.types import Role
    from tournament.models import SheetCopy, Tournament

    Match.objects.filter(status="completed").update(
        status="confirmed", confirmed_at=timezone.now()
    )
    deals = Deal.objects.count()
    tournament = Tournament.objects.get(slug=SLUG)
    # As a day plays it: each confirmation keeps its sheet's copy (bench/backup.py
    # keeps them the same way), and the backup before the seeding reuses them.
    backups.sheet_copies_keep(
        match_ids=list(
            Match.objects.filter(tournament=tournament).values_list("pk", flat=True)
        )
    )
    organizer = get_user_model().objects.get(username=ORGANIZER)
    organizer_only = frozenset({Role.ORGANIZER})

    def count() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM scoring_deal")
            assert cursor.fetchone()[0] >= deals

    def seed(qualifiers: int):
        def work() -> None:
            try:
                with transaction.atomic():
                    knockout.knockout_seed(
                        tournament=tournament, user=organizer, qualifiers=qualifiers
                    )
                    raise _Rollback
            except _Rollback:
                pass

        return work

    seed_24 = median_ms(seed(24), repeat)
    seed_big = median_ms(seed(qualifiers), repeat)
    # The same without its automatic backup (the goal's floor: what the backup costs
    # is the difference).
    with override_settings(BACKUP_AUTOMATIC=False):
        seed_big_alone = median_ms(seed(qualifiers), repeat)
    # The cold backup: no sheet copy kept yet, as after an upgrade. The copies are
    # taken away in an outer transaction, each seeding rolled back to its savepoint
    # (with the copies its backup kept), and the whole put back at the end.
    with transaction.atomic():
        SheetCopy.objects.filter(tournament=tournament).delete()
        seed_big_cold = median_ms(seed(qualifiers), min(repeat, 3))
        transaction.set_rollback(True)
    bracket = knockout.knockout_seed(
        tournament=tournament, user=organizer, qualifiers=qualifiers
    )
    client = Client(HTTP_HOST="127.0.0.1")

    def get(path: str) -> None:
        answer = client.get(path)
        assert answer.status_code == 200, answer.status_code

    api_ms = median_ms(lambda: get(f"/api/v1/tournaments/{SLUG}/bracket/"), repeat)
    page_ms = median_ms(lambda: get(f"/t/{SLUG}/bracket/"), repeat)

    # Confirming: knockout sheets of the first round, 18 deals each (each moves a
    # winner on), against league sheets of 18 deals, reopened to be confirmed again.
    sheets = list(
        Match.objects.filter(
            knockout_game__knockout_match__bracket=bracket,
            knockout_game__knockout_match__round=1,
        )[: repeat + 1]
    )
    league = list(
        Match.objects.filter(tournament=tournament, stage="league")[: repeat + 1]
    )
    for match in league:  # completed again, to be confirmed again
        services.score_sheet_reopen(match_id=match.pk, user=organizer, reason="bench")
    for match in sheets:
        for body in deals_for(20, 10, 18):
            services.score_sheet_deal_record(
                match_id=match.pk, user=organizer, version=None, **body
            )

    def confirming(matches):
        queue = iter(matches)

        def work() -> None:
            match = Match.objects.get(pk=next(queue).pk)
            services.score_sheet_confirm(
                match_id=match.pk,
                user=organizer,
                version=match.version,
                roles=organizer_only,
                sides=frozenset(),
            )

        return work

    return {
        "vendor": connection.vendor,
        "count_ms": median_ms(count, repeat),
        "seed_24_ms": seed_24,
        "seed_big_ms": seed_big,
        "seed_big_alone_ms": seed_big_alone,
        "seed_big_cold_ms": seed_big_cold,
        "api_ms": api_ms,
        "page_ms": page_ms,
        "confirm_league_ms": median_ms(confirming(league), repeat),
        "confirm_knockout_ms": median_ms(confirming(sheets), repeat),
        "count_again_ms": median_ms(count, repeat),
    }


def run(session: Session, argv: list[str]) -> list[Figure]:
    parser = argparse.ArgumentParser(prog="python -m bench knockout")
    parser.add_argument("--teams", type=int, default=500)
    parser.add_argument("--qualifiers", type=int, default=128)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--vendors", default="sqlite,postgresql")
    args = parser.parse_args(argv)
    q = args.qualifiers
    print(f"bench: the knockout of a {args.teams}-team league, median of {args.repeat}")
    figures = []
    for vendor in session.vendors(args.vendors):
        with session.database(vendor, "knockout", teams=args.teams) as db:
            r = run_module(
                "bench.knockout", db.url, "--child", str(q), str(args.repeat)
            )
        b = db.built
        base = (r["count_ms"] + r["count_again_ms"]) / 2
        print(
            f"  {db.where:<10} {b['teams']} teams, {b['matches']} league matches, "
            f"{b['deals']} deals"
        )
        print(f"    {'':<44} {'median':>10}   {'x count(*)':>10}")
        print(f"    {'SELECT count(*) over the deals':<44} {base:7.2f} ms")
        for key, name in (
            ("seed_24_ms", "seed 24 qualifiers (rolled back)"),
            ("seed_big_ms", f"seed {q} qualifiers (rolled back)"),
            ("seed_big_alone_ms", "the same without its automatic backup"),
            ("seed_big_cold_ms", "the same, no sheet copy kept (cold backup)"),
            ("api_ms", f"bracket API, {q} qualifiers"),
            ("page_ms", f"bracket page, {q} qualifiers"),
            ("confirm_league_ms", "confirm a league sheet"),
            ("confirm_knockout_ms", "confirm a knockout sheet (moves it on)"),
        ):
            print(f"    {name:<44} {r[key]:7.2f} ms   {r[key] / base:9.1f}x")
        figures.append(
            Figure(
                "seeding",
                f"seeding {q} qualifiers, with its backup",
                r["seed_big_ms"],
                "ms",
                "without the backup",
                r["seed_big_alone_ms"],
                db.where,
            )
        )
    return figures


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        print(json.dumps(_measure(int(sys.argv[2]), int(sys.argv[3]))))
