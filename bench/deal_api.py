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

Usage: python -m bench deal_api [--requests 720] [--clients 4] [--workers 2]
Needs PostgreSQL ($BENCH_DATABASE_URL's server, default 127.0.0.1:5432).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import sys
import threading
import time

from bench.core import BenchFailed, Figure, Session, child_env, gunicorn, run_module

TINY = ["--requests", "48", "--clients", "2"]
DEALS = [
    ("A", 40, "clubs", "none", 44),
    ("B", 48, "hearts", "doubled", 47),
    ("A", 28, "no_trump", "none", 30),
    ("B", 56, "spades", "redoubled", 56),
    ("A", 32, "diamonds", "none", 20),
    ("B", 44, "clubs", "none", 45),
]


def deal_body(i: int, version: int) -> dict:
    """Deal i of a client's run, as the API takes it: deal i % 18 + 1 of its sheet,
    the values of the DEALS cycle, the sheet's version."""
    declarer, value, trump, level, taken = DEALS[i % len(DEALS)]
    return {
        "number": i % 18 + 1,
        "declarer": declarer,
        "value": value,
        "trump": trump,
        "level": level,
        "taken": taken,
        "version": version,
    }


def _setup(matches: int) -> dict:
    """A tournament with enough matches for every request; the scorer's token (in
    the child process)."""
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
    return {"token": Token.objects.create(user=user).key, "ids": ids}


def _post(port: int, path: str, body: dict, token: str) -> tuple[int, dict, float]:
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
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
        raise BenchFailed(f"a request failed: {errors[0]}")
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


def run(session: Session, argv: list[str]) -> list[Figure]:
    parser = argparse.ArgumentParser(prog="python -m bench deal_api")
    parser.add_argument("--requests", type=int, default=720)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    per_client = args.requests // args.clients
    sheets_per_client = -(-per_client // 18) + 1
    sheets = args.clients * sheets_per_client
    print("bench: a deal through the API on PostgreSQL, gunicorn, over HTTP")
    with session.database("postgresql", "deal_api") as db:
        # The second half of the matches for the floor.
        plan = run_module("bench.deal_api", db.url, "--child", str(2 * sheets))
        with gunicorn(child_env(db.url), args.workers) as port:
            runs = _measure(port, plan, args, per_client, sheets_per_client)
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
    # As times: what one request costs the server at full load (1 / throughput).
    deal_ms, floor_ms, bare_ms = (1000 / f["rps"] for f in (write, least, base))
    name = "a deal through the API"
    return [
        Figure("deal.floor", name, deal_ms, "ms", "the floor", floor_ms, "PostgreSQL"),
        Figure(
            "deal.bare", name, deal_ms, "ms", "a bare request", bare_ms, "PostgreSQL"
        ),
    ]


def _measure(port: int, plan: dict, args, per_client: int, sheets_per_client: int):
    token, match_ids = plan["token"], plan["ids"]
    sheets = args.clients * sheets_per_client
    versions: dict[int, int] = {}

    def deal(c: int, i: int):
        match = match_ids[c * sheets_per_client + i // 18]
        body = deal_body(i, versions.get(match, 1))
        status, data, took = _post(port, f"/api/v1/matches/{match}/deals/", body, token)
        versions[match] = data.get("version", 0)
        return status, data, took

    def bare(c: int, i: int):
        return _post(port, "/bench/bare/", {"number": i, "version": 1}, token)

    def floor(c: int, i: int):
        match = match_ids[sheets + c * sheets_per_client + i // 18]
        return _post(port, f"/bench/floor/{match}/", _floor_body(i), token)

    # Warm both paths (connections, imports) before measuring.
    _run(args.clients, 5, bare)
    print(
        f"  {args.workers} gunicorn workers, {args.clients} client threads, "
        f"{os.cpu_count()} CPUs"
    )
    # Three rounds of the three, one after the other, so that whatever else the
    # machine does in the meantime falls on all of them alike.
    rounds, step = 3, per_client // 3
    runs: dict[str, tuple[float, list[float]]] = {}
    for r in range(rounds):
        for name, work in (("bare", bare), ("floor", floor), ("deal", deal)):
            took, latencies = _run(args.clients, step, work, start=r * step)
            total, all_latencies = runs.get(name, (0.0, []))
            runs[name] = (total + took, all_latencies + latencies)
    return runs


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        print(json.dumps(_setup(int(sys.argv[2]))))
