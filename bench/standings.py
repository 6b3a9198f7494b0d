"""The standings of a 500-team league, on SQLite and on PostgreSQL.

The league of bench/league.py (500 teams, 8 rounds x 250 matches, 36,000 deals with
penalties). Then, in one child process per database, the median time of

- the baselines: a plain `SELECT count(*)` over the deals; one `SUM … GROUP BY` over
  every deal of the league; a bare DRF GET (`bench/ping/`) through the same client;
- the standings API (`GET /api/v1/tournaments/<slug>/standings/`), and a poll of it
  with the answer's ETag that finds nothing changed (304);
- the standings page (`GET /t/<slug>/standings/`), whole (its table kept, and with
  nothing kept) and as its htmx poll, and that poll with its ETag finding nothing
  changed (304); a view of the venue screen (kept);
- the statistics API (`GET /api/v1/tournaments/<slug>/statistics/`, issue 21: every
  bidder's and team's contracts, the penalties, the records) as a visitor gets it
  while no sheet changed (kept under the sheets' fingerprint), after a sheet write
  (one sheet's version moved on before each request: its two teams' parts computed
  again, the others' kept; issue 43), with nothing kept (the cache emptied), and
  its 304;
  the page, kept and computed;

through Django's test client (the whole view: URL, auth, queries, ranking, JSON or
template), printed as milliseconds and as ratios to the baselines.

Usage: python -m bench standings [--teams 500] [--repeat 15]
                                 [--vendors sqlite,postgresql]
"""

from __future__ import annotations

import argparse
import json
import sys

from bench.core import Figure, Session, median_ms, run_module
from bench.league import SLUG

TINY = ["--teams", "32", "--repeat", "2"]


def _measure(repeat: int) -> dict:
    """Runs in the child process, on a database holding the league."""
    import django

    django.setup()
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client

    from scoring.models import Deal, Match
    from scoring.statistics import apis as statistics_apis
    from scoring.statistics import selectors as statistics_selectors
    from tournament.models import Team

    client = Client(HTTP_HOST="127.0.0.1")  # a host bench/settings.py allows
    deals = Deal.objects.count()
    matches = Match.objects.filter(tournament__slug=SLUG).count()

    def count() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM scoring_deal")
            assert cursor.fetchone()[0] == deals

    def aggregate() -> None:
        """The goal's floor: one SQL aggregate over every deal."""
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT match_id, award_to, SUM(award), COUNT(*) FROM scoring_deal "
                "GROUP BY match_id, award_to"
            )
            assert len(cursor.fetchall()) >= matches

    def get(path: str, status: int = 200, **headers) -> None:
        answer = client.get(path, **headers)
        assert answer.status_code == status, (path, answer.status_code)

    api = f"/api/v1/tournaments/{SLUG}/standings/"
    answer = client.get(api)
    assert answer.status_code == 200, (answer.status_code, answer.content[:300])
    body = answer.json()
    teams = Team.objects.filter(tournament__slug=SLUG).count()
    assert len(body["rows"]) == teams, "a team is missing from the standings"
    assert body["progress"]["decided"] == matches, "a match is not counted"
    etag = answer["ETag"]
    page = f"/t/{SLUG}/standings/"
    statistics = f"/api/v1/tournaments/{SLUG}/statistics/"
    body = client.get(statistics).json()
    assert len(body["teams"]) == teams, "a team is missing from the statistics"
    assert body["deals"] == deals, "a deal is not counted"
    assert body["bidders_recorded"] > deals // 2, "the bench's bidders are missing"
    statistics_etag = client.get(statistics)["ETag"]

    def cold(path: str) -> None:
        """Nothing kept at all (a restart, an emptied cache): the shared cache
        (local memory here) and the process's own recent statistics parts."""
        cache.clear()
        statistics_selectors._PARTS.clear()
        statistics_apis._ROWS.clear()
        get(path)

    sheets = list(
        Match.objects.filter(tournament__slug=SLUG).values_list("pk", flat=True)
    )
    written = iter(range(10**6))

    def after_a_write(path: str) -> None:
        """As after a sheet write: one sheet's version moves on (what a write changes
        for the statistics' keys; its two teams' parts are computed again, every
        other team's is kept), then the reading."""
        match = sheets[next(written) * 7919 % len(sheets)]
        with connection.cursor() as cursor:
            cursor.execute(
                "UPDATE scoring_match SET version = version + 1 WHERE id = %s", [match]
            )
        get(path)

    page_etag = client.get(page, HTTP_HX_REQUEST="true")["ETag"]
    screen = f"/t/{SLUG}/screen/?view=0"

    return {
        "vendor": connection.vendor,
        "count_ms": median_ms(count, repeat),
        "aggregate_ms": median_ms(aggregate, repeat),
        "ping_ms": median_ms(lambda: get("/bench/ping/"), repeat),
        "api_ms": median_ms(lambda: get(api), repeat),
        "api_304_ms": median_ms(lambda: get(api, 304, HTTP_IF_NONE_MATCH=etag), repeat),
        "page_ms": median_ms(lambda: get(page), repeat),
        "poll_ms": median_ms(lambda: get(page, HTTP_HX_REQUEST="true"), repeat),
        "poll_304_ms": median_ms(
            lambda: get(
                page, 304, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=page_etag
            ),
            repeat,
        ),
        "page_cold_ms": median_ms(lambda: cold(page), repeat),
        "screen_ms": median_ms(lambda: get(screen, HTTP_HX_REQUEST="true"), repeat),
        "statistics_ms": median_ms(lambda: get(statistics), repeat),
        "statistics_cold_ms": median_ms(lambda: cold(statistics), repeat),
        "statistics_304_ms": median_ms(
            lambda: get(statistics, 304, HTTP_IF_NONE_MATCH=statistics_etag), repeat
        ),
        "statistics_page_ms": median_ms(lambda: get(f"/t/{SLUG}/statistics/"), repeat),
        "statistics_page_cold_ms": median_ms(
            lambda: cold(f"/t/{SLUG}/statistics/"), repeat
        ),
        # Last: each moves a sheet's version on, which changes every ETag above.
        "statistics_write_ms": median_ms(lambda: after_a_write(statistics), repeat),
        "count_again_ms": median_ms(count, repeat),
    }


def run(session: Session, argv: list[str]) -> list[Figure]:
    parser = argparse.ArgumentParser(prog="python -m bench standings")
    parser.add_argument("--teams", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--vendors", default="sqlite,postgresql")
    args = parser.parse_args(argv)
    print(
        f"bench: standings of {args.teams} teams (8 rounds, 18 deals a match), "
        f"median of {args.repeat}"
    )
    figures = []
    for vendor in session.vendors(args.vendors):
        with session.database(vendor, "standings", teams=args.teams) as db:
            r = run_module("bench.standings", db.url, "--child", str(args.repeat))
        b = db.built
        base = (r["count_ms"] + r["count_again_ms"]) / 2
        print(
            f"  {db.where:<10} {b['teams']} teams, {b['matches']} matches, "
            f"{b['deals']} deals, {b['penalties']} penalties"
        )
        print(f"    {'':<32} {'median':>10}   {'x count(*)':>10}   {'x SUM':>6}")
        print(f"    {'SELECT count(*) over the deals':<32} {base:7.2f} ms")
        total = r["aggregate_ms"]
        for key, name in (
            ("aggregate_ms", "one SUM .. GROUP BY over deals"),
            ("ping_ms", "a bare DRF GET"),
            ("api_ms", "standings API"),
            ("api_304_ms", "standings API, unchanged: 304"),
            ("page_ms", "standings page"),
            ("page_cold_ms", "standings page, nothing kept"),
            ("poll_ms", "standings page, htmx poll"),
            ("poll_304_ms", "standings page poll, unchanged: 304"),
            ("screen_ms", "venue screen, a view (kept)"),
            ("statistics_ms", "statistics API, kept"),
            ("statistics_cold_ms", "statistics API, nothing kept"),
            ("statistics_write_ms", "statistics API, after a write"),
            ("statistics_304_ms", "statistics API, unchanged: 304"),
            ("statistics_page_ms", "statistics page, kept"),
            ("statistics_page_cold_ms", "statistics page, computed"),
        ):
            print(
                f"    {name:<32} {r[key]:7.2f} ms   {r[key] / base:9.1f}x"
                f"   {r[key] / total:5.1f}x"
            )
        figures += [
            Figure(
                "standings.api",
                f"standings of {b['teams']} teams (API)",
                r["api_ms"],
                "ms",
                "one SUM … GROUP BY",
                r["aggregate_ms"],
                db.where,
            ),
            Figure(
                "statistics.api",
                f"statistics of {b['teams']} teams (API, no sheet changed)",
                r["statistics_ms"],
                "ms",
                "one SUM … GROUP BY",
                r["aggregate_ms"],
                db.where,
            ),
            Figure(
                "statistics.computed",
                f"statistics of {b['teams']} teams (API) after a sheet write",
                r["statistics_write_ms"],
                "ms",
                "one SUM … GROUP BY",
                r["aggregate_ms"],
                db.where,
            ),
            Figure(
                "standings.page_poll",
                "an unchanged standings page poll (304)",
                r["poll_304_ms"],
                "ms",
                "a bare DRF GET",
                r["ping_ms"],
                db.where,
            ),
            Figure(
                "standings.poll",
                "an unchanged standings poll (304)",
                r["api_304_ms"],
                "ms",
                "a bare DRF GET",
                r["ping_ms"],
                db.where,
            ),
        ]
    return figures


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        print(json.dumps(_measure(int(sys.argv[2]))))
