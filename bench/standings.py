"""The standings of a 500-team league, on SQLite and on PostgreSQL.

A tournament of 500 teams in 10 sections, its league drawn by the real draw (8 rounds
x 250 matches), every match's 18 deals and some penalties scored by the rules engine
(rules.score_sheet) and stored as the services store them: 36,000 deals. Then, in
the same process and the same run, the median time of

- the baseline: a plain `SELECT count(*)` over the deals;
- the standings API (`GET /api/v1/tournaments/<slug>/standings/`), and a poll of it
  with the answer's ETag that finds nothing changed (304);
- the standings page (`GET /t/<slug>/standings/`), whole and as its htmx poll;

through Django's test client (the whole view: URL, auth, queries, ranking, JSON or
template), printed as milliseconds and as a ratio to the baseline. Each database runs
in a process of its own.

Usage: python -m bench standings [--teams 500] [--repeat 15]
PostgreSQL at $BENCH_DATABASE_URL's server (default postgres://postgres@127.0.0.1:
5432), database fiftysix_bench_standings, which it drops and creates.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PG_SERVER = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/fiftysix_bench"
).rsplit("/", 1)[0]
PG_URL = PG_SERVER + "/fiftysix_bench_standings"
SLUG = "bench-standings"


def _env(database_url: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": "bench.settings",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "bench-only-secret-key-" + "x" * 40,
        "DJANGO_ALLOWED_HOSTS": "testserver,127.0.0.1,localhost",
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "CELERY_BROKER_URL": "",
        "PYTHONPATH": str(ROOT),
    }


def _build(teams: int) -> dict[str, int]:
    """The tournament, drawn and scored; what was stored."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from scoring.domain import rules
    from scoring.league import services
    from scoring.models import Deal, Match, Penalty
    from tournament.domain.rulesets import ruleset_get
    from tournament.models import Section, Team, Tournament

    rng = random.Random(56)
    organizer = get_user_model().objects.create_user("bench-organizer")
    tournament = Tournament.objects.create(
        name="Bench Standings", slug=SLUG, league_deals=18, published=True
    )
    # One section a quarter of the field, the rest even: a realistic, drawable field.
    sizes = [teams // 4] + [(teams - teams // 4) // 9] * 9
    sizes[-1] += teams - sum(sizes)
    for s, size in enumerate(sizes):
        section = Section.objects.create(
            tournament=tournament, name=f"Section {s + 1}", cities=[f"City {s}"]
        )
        Team.objects.bulk_create(
            Team(
                tournament=tournament,
                section=section,
                name=f"S{s + 1} team {t + 1}",
                captain_name=f"Captain {s}-{t}",
                captain_city=f"City {s}",
                captain_state="NJ",
                captain_country="USA",
                placement="city",
            )
            for t in range(size)
        )
    services.league_draw_generate(tournament=tournament, user=organizer, seed=56)
    services.league_rounds_release_all(tournament=tournament, user=organizer)

    ruleset = ruleset_get(tournament.ruleset)
    matches = list(Match.objects.filter(tournament=tournament))
    deals, penalties, now = [], [], timezone.now()
    for match in matches:
        values = [
            rules.Deal(
                number=n,
                declarer=rng.choice([rules.Side.A, rules.Side.B]),
                value=rng.choice([28, 30, 32, 36, 40, 44, 48, 52, 56]),
                trump=rng.choice(list(rules.Trump)),
                level=rng.choices(list(rules.Level), weights=[20, 3, 1])[0],
                taken=rng.randint(16, 56),
            )
            for n in range(1, 19)
        ]
        # Some penalties: out of turn twice (a warning, then a point), now and then a
        # kallakali that gives a deal away.
        marks = []
        if rng.random() < 0.5:
            side = rng.choice([rules.Side.A, rules.Side.B])
            marks += [(3, side, rules.PenaltyKind.OUT_OF_TURN)] * 2
        if rng.random() < 0.2:
            marks.append(
                (
                    9,
                    rng.choice([rules.Side.A, rules.Side.B]),
                    rules.PenaltyKind.KALLAKALI,
                )
            )
        sheet = rules.score_sheet(
            ruleset,
            values,
            [
                rules.Penalty(k, d, side, kind)
                for k, (d, side, kind) in enumerate(marks)
            ],
            deals_scheduled=18,
        )
        stored = {}
        for value, row in zip(values, sheet.rows, strict=True):
            stored[value.number] = Deal(
                match=match,
                number=value.number,
                declarer=value.declarer,
                value=value.value,
                trump=value.trump,
                level=value.level,
                taken=value.taken,
                made=row.result.made,
                award_to=row.result.award_to,
                award=row.result.award,
                awarded_by=row.result.awarded_by or "",
                entered_by=organizer,
            )
        deals += stored.values()
        for (number, side, kind), result in zip(marks, sheet.penalties, strict=True):
            penalties.append(
                (stored[number], side, kind, result.points, result.warning)
            )
        match.total_a, match.total_b = sheet.total_a, sheet.total_b
        match.deals_won_a, match.deals_won_b = sheet.deals_won_a, sheet.deals_won_b
        match.winner = sheet.winner.value if sheet.winner else ""
        confirmed = rng.random() < 0.9
        match.status = "confirmed" if confirmed else "completed"
        match.confirmed_at = now if confirmed else None
        match.version = 19 + len(marks)
    Deal.objects.bulk_create(deals, batch_size=2000)
    Penalty.objects.bulk_create(
        (
            Penalty(
                deal=deal,
                offender=side,
                kind=kind,
                points=points,
                warning=warning,
                entered_by=organizer,
            )
            for deal, side, kind, points, warning in penalties
        ),
        batch_size=2000,
    )
    Match.objects.bulk_update(
        matches,
        [
            "total_a",
            "total_b",
            "deals_won_a",
            "deals_won_b",
            "winner",
            "status",
            "confirmed_at",
            "version",
        ],
        batch_size=500,
    )
    return {
        "teams": Team.objects.filter(tournament=tournament).count(),
        "matches": len(matches),
        "deals": Deal.objects.count(),
        "penalties": Penalty.objects.count(),
    }


def _median_ms(work, repeat: int) -> float:
    work()  # warm: imports, connection, template loading
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def _measure(teams: int, repeat: int) -> dict:
    """Runs in the child process, with DATABASE_URL set."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)  # as production
    started = time.perf_counter()
    stored = _build(teams)
    built = time.perf_counter() - started
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    client = Client(HTTP_HOST="127.0.0.1")  # a host bench/settings.py allows

    def count() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM scoring_deal")
            assert cursor.fetchone()[0] == stored["deals"]

    def aggregate() -> None:
        """The issue's reference: one SQL aggregate over every deal."""
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT match_id, award_to, SUM(award), COUNT(*) FROM scoring_deal "
                "GROUP BY match_id, award_to"
            )
            assert len(cursor.fetchall()) >= stored["matches"]

    def get(path: str, **headers) -> None:
        answer = client.get(path, **headers)
        assert answer.status_code == 200, answer.status_code

    api = f"/api/v1/tournaments/{SLUG}/standings/"
    answer = client.get(api)
    assert answer.status_code == 200, (answer.status_code, answer.content[:300])
    body = answer.json()
    assert len(body["rows"]) == stored["teams"]
    assert body["progress"]["decided"] == stored["matches"]
    etag = answer["ETag"]

    def unchanged() -> None:
        """A poll that finds nothing changed: 304 from the fingerprint."""
        again = client.get(api, HTTP_IF_NONE_MATCH=etag)
        assert again.status_code == 304, again.status_code

    page = f"/t/{SLUG}/standings/"
    return {
        "vendor": connection.vendor,
        "built_s": built,
        **stored,
        "count_ms": _median_ms(count, repeat),
        "aggregate_ms": _median_ms(aggregate, repeat),
        "api_ms": _median_ms(lambda: get(api), repeat),
        "api_304_ms": _median_ms(unchanged, repeat),
        "page_ms": _median_ms(lambda: get(page), repeat),
        "poll_ms": _median_ms(lambda: get(page, HTTP_HX_REQUEST="true"), repeat),
        "count_again_ms": _median_ms(count, repeat),
    }


def fresh_postgres(url: str) -> None:
    """Drop and create the database of `url` on the bench's server."""
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(PG_SERVER + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def run_module(module: str, database_url: str, *args: str, env=None) -> dict:
    """`python -m <module> <args>` on `database_url`; its last line of output, as
    JSON."""
    out = subprocess.run(  # noqa: S603 - our own fixed command line
        [sys.executable, "-m", module, *args],
        cwd=ROOT,
        env={**_env(database_url), **(env or {})},
        capture_output=True,
        text=True,
    )
    if out.returncode:
        raise SystemExit(f"the {database_url.split(':')[0]} run failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def run_child(module: str, database_url: str, teams: int, repeat: int) -> dict:
    """`python -m <module> --child teams repeat` on `database_url`."""
    return run_module(module, database_url, "--child", str(teams), str(repeat))


def print_ratios(r: dict, rows, width: int = 40) -> None:
    """The baseline (count(*), before and after) and each figure against it."""
    base = (r["count_ms"] + r["count_again_ms"]) / 2
    print(f"    {'':<{width}} {'median':>10}   {'x count(*)':>10}")
    print(f"    {'SELECT count(*) over the deals':<{width}} {base:7.2f} ms")
    for key, name in rows:
        print(f"    {name:<{width}} {r[key]:7.0f} ms   {r[key] / base:9.0f}x")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args(argv)
    print(
        f"bench: standings of {args.teams} teams (8 rounds, 18 deals a match), "
        f"median of {args.repeat}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        sqlite = run_child(
            "bench.standings", f"sqlite:///{tmp}/bench.sqlite3", args.teams, args.repeat
        )
    fresh_postgres(PG_URL)
    postgres = run_child("bench.standings", PG_URL, args.teams, args.repeat)
    for r in (sqlite, postgres):
        base = (r["count_ms"] + r["count_again_ms"]) / 2
        print(
            f"  {r['vendor']:<10} {r['teams']} teams, {r['matches']} matches, "
            f"{r['deals']} deals, {r['penalties']} penalties (built in "
            f"{r['built_s']:.1f} s)"
        )
        total = r["aggregate_ms"]
        print(f"    {'':<32} {'median':>10}   {'x count(*)':>10}   {'x SUM':>6}")
        print(f"    {'SELECT count(*) over the deals':<32} {base:7.2f} ms")
        for key, name in (
            ("aggregate_ms", "one SUM .. GROUP BY over deals"),
            ("api_ms", "standings API"),
            ("api_304_ms", "standings API, unchanged: 304"),
            ("page_ms", "standings page"),
            ("poll_ms", "standings page, htmx poll"),
        ):
            print(
                f"    {name:<32} {r[key]:7.2f} ms   {r[key] / base:9.1f}x"
                f"   {r[key] / total:5.1f}x"
            )


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        print(json.dumps(_measure(int(sys.argv[2]), int(sys.argv[3]))))
    else:
        main(sys.argv[1:])
