"""Recording a deal through the API on PostgreSQL, against two baselines.

All three run in the same gunicorn (2 sync workers, the production WSGI app) on a fresh
PostgreSQL database, called over HTTP by the same client threads with the same token
authentication:

- the bare DRF request (`bench/bare/`: parse, authenticate, answer);
- the floor (`bench/floor/<match>/`): in one transaction, lock the match row, insert the
  deal row as sent and one history row; the least a deal write can do;
- recording a deal (`POST /api/v1/matches/<id>/deals/`): each client thread scores its
  own matches deal by deal, carrying the sheet's version, so every request is a real
  write (visibility and role, lock, retry and version checks, the rules, rescore,
  history, the answer with the new totals).

The figures are ratios of throughput: a deal costs N bare requests, and M floors.

Usage: python -m bench [--requests 600] [--clients 4]
Needs PostgreSQL at $BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/
fiftysix_bench, which it drops and creates).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DB_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/fiftysix_bench"
)
PORT = int(os.environ.get("BENCH_PORT", "8799"))
DEALS = [
    ("A", 40, "clubs", "none", 44),
    ("B", 48, "hearts", "doubled", 47),
    ("A", 28, "no_trump", "none", 30),
    ("B", 56, "spades", "redoubled", 56),
    ("A", 32, "diamonds", "none", 20),
    ("B", 44, "clubs", "none", 45),
]


def _env(database_url: str = DB_URL, **extra: str) -> dict[str, str]:
    """The production settings (DEBUG off) on `database_url`, no broker unless
    `extra` gives one."""
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": "bench.settings",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "bench-only-secret-key-" + "x" * 40,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "CELERY_BROKER_URL": "",
        "PYTHONPATH": str(ROOT),
        **extra,
    }


def fresh_database(env: dict[str, str], *commands: list[str]) -> None:
    """Drop and create the database of env's DATABASE_URL, migrate it, then run
    `commands` (manage.py arguments) on it."""
    import psycopg

    *server, name = env["DATABASE_URL"].rsplit("/", 1)
    with psycopg.connect(server[0] + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    for command in (["migrate"], *commands):
        subprocess.run(  # noqa: S603 - our own fixed command line
            [sys.executable, "manage.py", *command, "-v0"],
            cwd=ROOT,
            env=env,
            check=True,
        )


def serve(port: int, workers: int, env: dict[str, str]) -> subprocess.Popen:
    """gunicorn with the production WSGI app, once it answers on `port`."""
    server = subprocess.Popen(  # noqa: S603 - our own fixed command line
        [
            sys.executable,
            "-m",
            "gunicorn",
            "tournament.config.wsgi",
            f"--bind=127.0.0.1:{port}",
            f"--workers={workers}",
            "--backlog=512",
            "--log-level=warning",
        ],
        cwd=ROOT,
        env=env,
    )
    for _ in range(100):
        try:
            http.client.HTTPConnection("127.0.0.1", port, timeout=1).connect()
            break
        except OSError:
            time.sleep(0.1)
    return server


def _setup(matches: int) -> tuple[str, list[int]]:
    """A tournament with enough matches for every request; the scorer's token."""
    os.environ.update(_env())
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from scoring.sheets import services
    from tournament.models import Membership, Section, Team, Tournament

    tournament = Tournament.objects.create(
        name="Bench Open", slug="bench-open", league_deals=18, league_rounds=50
    )
    west = Section.objects.create(tournament=tournament, name="West", states=["CA"])
    east = Section.objects.create(tournament=tournament, name="East", states=["NJ"])
    user = get_user_model().objects.create_user("bench-scorer")
    organizer = get_user_model().objects.create_user("bench-organizer")
    Membership.objects.create(tournament=tournament, user=user, role="scorer")
    ids = []
    for i in range(matches):
        teams = [
            Team.objects.create(
                tournament=tournament,
                section=section,
                name=f"{section.name} {i}",
                captain_name=f"Captain {section.name} {i}",
                captain_state=section.states[0],
                captain_country="USA",
                placement="state",
            )
            for section in (west, east)
        ]
        match = services.match_create(
            tournament=tournament,
            user=organizer,
            team_a=teams[0].pk,
            team_b=teams[1].pk,
            round=1 + i // 200,
            table=1 + i % 200,
        )
        ids.append(match.pk)
    return Token.objects.create(user=user).key, ids


def _post(path: str, body: dict, token: str) -> tuple[int, dict, float]:
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    conn.request(
        "POST",
        path,
        json.dumps(body),
        {"Content-Type": "application/json", "Authorization": f"Token {token}"},
    )
    response = conn.getresponse()
    data = json.loads(response.read() or b"{}")
    conn.close()
    return response.status, data, time.perf_counter() - started


def _run(
    clients: int, per_client: int, work, start: int = 0
) -> tuple[float, list[float]]:
    """Run `work(client, i)` for i = start .. start + per_client - 1 in each of
    `clients` threads."""
    latencies: list[float] = []
    lock = threading.Lock()
    errors: list[str] = []

    def client(c: int) -> None:
        mine = []
        for i in range(start, start + per_client):
            status, data, took = work(c, i)
            if status != 201:
                errors.append(f"{status} {data}")
                return
            mine.append(took)
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client, args=(c,)) for c in range(clients)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    if errors:
        raise SystemExit(f"a request failed: {errors[0]}")
    return elapsed, latencies


def _floor_body(i: int) -> dict:
    """Deal i of the DEALS cycle as the floor inserts it: with its award, computed
    here by the rules engine (the floor computes nothing)."""
    from scoring.domain import rules
    from tournament.domain.rulesets import ruleset_get

    declarer, value, trump, level, taken = DEALS[i % len(DEALS)]
    deal = rules.Deal(
        number=i % 18 + 1,
        declarer=rules.Side(declarer),
        value=value,
        trump=rules.Trump(trump),
        level=rules.Level(level),
        taken=taken,
    )
    result = rules.score_deal(deal, ruleset_get("international"))
    return {
        "number": deal.number,
        "declarer": declarer,
        "value": value,
        "trump": trump,
        "level": level,
        "taken": taken,
        "made": result.made,
        "award_to": result.award_to.value,
        "award": result.award,
    }


def _figures(name: str, elapsed: float, latencies: list[float]) -> dict[str, float]:
    q = statistics.quantiles(latencies, n=100)
    figures = {
        "rps": len(latencies) / elapsed,
        "p50": q[49] * 1000,
        "p95": q[94] * 1000,
    }
    print(
        f"  {name:<28} {figures['rps']:8.1f} req/s   p50 {figures['p50']:6.1f} ms"
        f"   p95 {figures['p95']:6.1f} ms   ({len(latencies)} requests)"
    )
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=720)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    per_client = args.requests // args.clients
    sheets_per_client = -(-per_client // 18) + 1

    print(f"bench: a deal through the API on PostgreSQL ({DB_URL.rsplit('@', 1)[-1]})")
    fresh_database(_env())
    sheets = args.clients * sheets_per_client
    token, match_ids = _setup(2 * sheets)  # the second half for the floor
    server = serve(PORT, args.workers, _env())
    try:
        versions: dict[int, int] = {}

        def deal(c: int, i: int):
            match = match_ids[c * sheets_per_client + i // 18]
            number = i % 18 + 1
            declarer, value, trump, level, taken = DEALS[i % len(DEALS)]
            body = {
                "number": number,
                "declarer": declarer,
                "value": value,
                "trump": trump,
                "level": level,
                "taken": taken,
                "version": versions.get(match, 1),
            }
            status, data, took = _post(f"/api/v1/matches/{match}/deals/", body, token)
            versions[match] = data.get("version", 0)
            return status, data, took

        def bare(c: int, i: int):
            return _post("/bench/bare/", {"number": i, "version": 1}, token)

        def floor(c: int, i: int):
            match = match_ids[sheets + c * sheets_per_client + i // 18]
            return _post(f"/bench/floor/{match}/", _floor_body(i), token)

        # Warm both paths (connections, imports) before measuring.
        _run(args.clients, 5, bare)
        print(
            f"  {args.workers} gunicorn workers, {args.clients} client threads, "
            f"{os.cpu_count()} CPUs"
        )
        # Three rounds of the three, one after the other, so that whatever else
        # the machine does in the meantime falls on all of them alike.
        rounds, step = 3, per_client // 3
        runs: dict[str, tuple[float, list[float]]] = {}
        for r in range(rounds):
            for name, work in (("bare", bare), ("floor", floor), ("deal", deal)):
                took, latencies = _run(args.clients, step, work, start=r * step)
                total, all_latencies = runs.get(name, (0.0, []))
                runs[name] = (total + took, all_latencies + latencies)
        base = _figures("bare DRF endpoint", *runs["bare"])
        least = _figures("floor: lock, insert, history", *runs["floor"])
        write = _figures("record a deal (POST)", *runs["deal"])
        print(
            f"  ratio: a deal costs {base['rps'] / write['rps']:.2f}x a bare DRF "
            f"request and {least['rps'] / write['rps']:.2f}x the floor (throughput); "
            f"the floor costs {base['rps'] / least['rps']:.2f}x a bare request"
        )
        print(
            f"  latency: p50 {write['p50'] / base['p50']:.2f}x bare, "
            f"{write['p50'] / least['p50']:.2f}x floor; "
            f"p95 {write['p95'] / base['p95']:.2f}x bare, "
            f"{write['p95'] / least['p95']:.2f}x floor"
        )
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
