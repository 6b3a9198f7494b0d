"""The tournament workbook of a 500-team championship: time and peak memory.

The championship of bench/league.py at its knockout stage (500 teams, 8 rounds x 250
matches x 18 deals = 36,000 deals with penalties, every sheet confirmed, a knockout of
24 seeded). The export runs in a fresh process of its own (so its peak memory is the
export's, not the build's), which measures in the same run:

- the baselines: a plain `SELECT count(*)` over the deals; the workbook's rows alone
  (reading the tournament and scoring every sheet, as the workbook does, without
  writing a cell: `tournament_workbook_sheets`);
- the standings API, for scale (a page every spectator loads);
- building the whole workbook (scoring.excel.selectors.tournament_workbook: five
  sheets, every deal through the rules engine, written by XlsxWriter);
- the same through `GET /api/v1/tournaments/<slug>/export.xlsx`;

printed as milliseconds and ratios, with the file's size and the process's peak
resident memory (ru_maxrss, Django and all; --heap adds the peak of Python's heap
during one build, under tracemalloc, which is slow). A smaller league (--small teams)
is exported the same way, to show that memory stays flat as the tournament grows.

Usage: python -m bench export [--teams 500] [--small 100] [--repeat 3] [--heap]
                              [--vendors postgresql,sqlite]
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tracemalloc

from bench.core import Figure, Session, median_ms, print_ratios, run_module
from bench.league import ORGANIZER, SLUG

TINY = ["--teams", "32", "--small", "24", "--repeat", "1"]


def _measure(repeat: int, heap: bool) -> dict:
    """Export the stored championship (runs in a fresh process)."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client

    from scoring.excel.selectors import tournament_workbook, tournament_workbook_sheets
    from scoring.models import Deal
    from tournament.models import Tournament

    tournament = Tournament.objects.get(slug=SLUG)
    client = Client(HTTP_HOST="127.0.0.1")  # a host bench/settings.py allows
    client.force_login(get_user_model().objects.get(username=ORGANIZER))
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    def count() -> None:
        Deal.objects.count()

    def standings() -> None:
        assert client.get(f"/api/v1/tournaments/{SLUG}/standings/").status_code == 200

    cells = {}

    def rows() -> None:
        """The floor: every row of every sheet, read and scored, no cell written."""
        _title, sheets = tournament_workbook_sheets(tournament=tournament)
        cells["n"] = sum(len(row) for sheet in sheets for row in sheet.rows)

    size = {}

    def export() -> None:
        size["bytes"] = len(tournament_workbook(tournament=tournament))

    def api() -> None:
        answer = client.get(f"/api/v1/tournaments/{SLUG}/export.xlsx")
        assert answer.status_code == 200, answer.status_code
        assert len(answer.content) > size["bytes"] // 2, "the file is cut short"

    result = {
        "vendor": connection.vendor,
        "count_ms": median_ms(count, 15),
        "standings_ms": median_ms(standings, 5),
        "rows_ms": median_ms(rows, repeat),
        "export_ms": median_ms(export, repeat),
        "api_ms": median_ms(api, 1),
        "count_again_ms": median_ms(count, 15),
        "cells": cells["n"],
        "bytes": size["bytes"],
        "rss_before_mb": rss_before / 1024,
        "rss_peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }
    if heap:
        tracemalloc.start()
        export()
        result["heap_peak_mb"] = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    return result


def run(session: Session, argv: list[str]) -> list[Figure]:
    parser = argparse.ArgumentParser(prog="python -m bench export")
    parser.add_argument("--teams", type=int, default=500)
    parser.add_argument("--small", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--heap", action="store_true")
    parser.add_argument("--vendors", default="postgresql,sqlite")
    args = parser.parse_args(argv)
    print(
        f"bench: the tournament workbook, {args.small} and {args.teams} teams, "
        f"median of {args.repeat}"
    )
    figures = []
    for vendor in session.vendors(args.vendors):
        for teams in (args.small, args.teams):
            with session.database(
                vendor, "export", teams=teams, stage="knockout"
            ) as db:
                r = run_module(
                    "bench.export",
                    db.url,
                    "--child",
                    str(args.repeat),
                    "heap" if args.heap else "",
                    env={"EXPORT_INLINE_MAX_DEALS": str(10**9)},
                )
            b = db.built
            print(
                f"  {db.where:<10} {b['teams']} teams, {b['matches']} league "
                f"matches, {b['deals']} deals, {r['cells']} cells"
            )
            print_ratios(
                r,
                (
                    ("standings_ms", "standings API"),
                    ("rows_ms", "the rows alone (read, scored)"),
                    ("export_ms", "build the workbook"),
                    ("api_ms", "GET export.xlsx"),
                ),
            )
            heap = (
                f"Python heap peak {r['heap_peak_mb']:.1f} MB; "
                if "heap_peak_mb" in r
                else ""
            )
            print(
                f"    the workbook takes {r['export_ms'] / r['rows_ms']:.1f}x its rows "
                f"alone; file {r['bytes'] / 2**20:.1f} MB; {heap}process peak "
                f"{r['rss_peak_mb']:.0f} MB ({r['rss_before_mb']:.0f} MB before the "
                f"first export)"
            )
            if teams != args.teams:
                continue
            name = f"the {b['teams']}-team workbook"
            figures += [
                Figure(
                    "workbook.time",
                    name,
                    r["export_ms"] / 1000,
                    "s",
                    "its rows alone",
                    r["rows_ms"] / 1000,
                    db.where,
                ),
                Figure(
                    "workbook.memory",
                    f"{name}, process peak",
                    r["rss_peak_mb"],
                    "MB",
                    "before the export",
                    r["rss_before_mb"],
                    db.where,
                ),
            ]
    return figures


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        print(json.dumps(_measure(int(sys.argv[2]), sys.argv[3] == "heap")))
