"""The tournament workbook of a 500-team championship: time and peak memory.

The 500-team league of bench/standings.py (8 rounds x 250 matches x 18 deals =
36,000 deals, with penalties), every sheet confirmed and a knockout of 24 seeded, on
SQLite and on PostgreSQL. The export then runs in a fresh process of its own (so its
peak memory is the export's, not the build's), which measures in the same run:

- the baseline: a plain `SELECT count(*)` over the deals;
- the standings API, for scale (a page every spectator loads);
- building the whole workbook (scoring.excel.selectors.tournament_workbook: five sheets,
  every deal through the rules engine, written by openpyxl in write-only mode);
- the same through `GET /api/v1/tournaments/<slug>/export.xlsx`;

printed as seconds and as ratios to the baseline, with the file's size, the peak of
Python's heap during one build (tracemalloc) and the process's peak resident memory
(ru_maxrss, Django and all). A smaller league (--small teams) is exported the same
way, to show that memory stays flat as the tournament grows.

Usage: python -m bench export [--teams 500] [--small 100] [--repeat 3]
Target (issue 7): under 10 s and under 300 MB on this machine.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
import tracemalloc

from bench.standings import (
    PG_SERVER,
    _build,
    _median_ms,
    fresh_postgres,
    print_ratios,
    run_module,
)

SLUG = "bench-standings"  # the tournament bench.standings builds


def _setup() -> None:
    import django

    django.setup()


def _child_build(teams: int) -> dict:
    """Build and store the championship (runs in its own process)."""
    _setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from brackets import services as knockout
    from scoring.models import Match
    from tournament.domain.types import Role
    from tournament.models import Membership, Tournament

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    stored = _build(teams)
    Membership.objects.create(
        tournament=Tournament.objects.get(slug=SLUG),
        user=get_user_model().objects.get(username="bench-organizer"),
        role=Role.ORGANIZER,
    )
    Match.objects.filter(status="completed").update(
        status="confirmed", confirmed_at=timezone.now()
    )
    organizer = get_user_model().objects.get(username="bench-organizer")
    knockout.knockout_seed(
        tournament=Tournament.objects.get(slug=SLUG),
        user=organizer,
        qualifiers=24,
        deals=None,
    )
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    return {**stored, "built_s": time.perf_counter() - started}


def _child_export(repeat: int) -> dict:
    """Export the stored championship (runs in a fresh process)."""
    _setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client

    from scoring.excel.selectors import tournament_workbook
    from scoring.models import Deal
    from tournament.models import Tournament

    tournament = Tournament.objects.get(slug=SLUG)
    client = Client(HTTP_HOST="127.0.0.1")  # a host bench/settings.py allows
    client.force_login(get_user_model().objects.get(username="bench-organizer"))
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    def count() -> None:
        Deal.objects.count()

    def standings() -> None:
        assert client.get(f"/api/v1/tournaments/{SLUG}/standings/").status_code == 200

    size = {}

    def export() -> None:
        size["bytes"] = len(tournament_workbook(tournament=tournament))

    def api() -> None:
        answer = client.get(f"/api/v1/tournaments/{SLUG}/export.xlsx")
        assert answer.status_code == 200, answer.status_code

    result = {
        "vendor": connection.vendor,
        "deals": Deal.objects.count(),
        "count_ms": _median_ms(count, 15),
        "standings_ms": _median_ms(standings, 5),
        "export_ms": _median_ms(export, repeat),
        "api_ms": _median_ms(api, repeat),
        "count_again_ms": _median_ms(count, 15),
    }
    tracemalloc.start()
    export()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        **result,
        "bytes": size["bytes"],
        "heap_peak_mb": peak / 2**20,
        "rss_before_mb": rss_before / 1024,
        "rss_peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def _run(args: list[str], database_url: str) -> dict:
    return run_module(
        "bench.export",
        database_url,
        "--child",
        *args,
        env={"EXPORT_INLINE_MAX_DEALS": str(10**9)},
    )


def _measure(database_url: str, teams: int, repeat: int) -> dict:
    built = _run(["build", str(teams)], database_url)
    return {**built, **_run(["export", str(repeat)], database_url)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=500)
    parser.add_argument("--small", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print(
        f"bench: the tournament workbook, {args.small} and {args.teams} teams, "
        f"median of {args.repeat}"
    )
    results = []
    for teams in (args.small, args.teams):
        with tempfile.TemporaryDirectory() as tmp:
            results.append(
                _measure(f"sqlite:///{tmp}/bench.sqlite3", teams, args.repeat)
            )
        url = PG_SERVER + f"/fiftysix_bench_export_{teams}"
        fresh_postgres(url)
        results.append(_measure(url, teams, args.repeat))
    for r in results:
        print(
            f"  {r['vendor']:<10} {r['teams']} teams, {r['matches']} league matches, "
            f"{r['deals']} deals (built in {r['built_s']:.1f} s)"
        )
        print_ratios(
            r,
            (
                ("standings_ms", "standings API"),
                ("export_ms", "build the workbook"),
                ("api_ms", "GET export.xlsx"),
            ),
        )
        print(
            f"    file {r['bytes'] / 2**20:.1f} MB; Python heap peak "
            f"{r['heap_peak_mb']:.1f} MB; process peak {r['rss_peak_mb']:.0f} MB "
            f"({r['rss_before_mb']:.0f} MB before the first export)"
        )


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "--child":
        if sys.argv[2] == "build":
            print(json.dumps(_child_build(int(sys.argv[3]))))
        else:
            print(json.dumps(_child_export(int(sys.argv[3]))))
    else:
        main(sys.argv[1:])
