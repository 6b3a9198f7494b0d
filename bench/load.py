"""Tournament day: 50 scorers at once on flaky Wi-Fi, then every sheet checked.

The production setup on this machine: gunicorn (several sync workers, the production
WSGI app, DEBUG off) on a fresh PostgreSQL database, and a Celery worker on Redis.
A 100-team league is drawn and released. Then, all at once, over HTTP:

- 50 scorers (threads, a token each) each enter two full 18-deal matches (rounds 1
  and 2 at their table), deal by deal with the sheet's version, as the score page
  does. Now and then (5%) an answer is "lost": the scorer got no answer and sends
  the same request again, half of them with an Idempotency-Key and half relying on
  the deal number. A 409 stale_version is handled as a real client would: read the
  sheet, and if the deal is not there, send it again with the new version. At the
  end of a match a scorer may add a kallakali, and both captains confirm.
- Every third scorer has no account: it uses its table's link (`Authorization: Link
  <key>`, docs/links.md) and loses the network for a while now and then (1 deal in
  10 starts an outage of 2 to 6 deals). What it enters meanwhile waits in its queue,
  each deal with its Idempotency-Key, and is sent in order when the network is
  back, as static/js/score/ does: with the version after its own sends, and on
  a 409 stale_version the sheet is read and the deal sent again unless it is there.
- 5 referees add out-of-turn penalties to sheets being played, racing the scorers
  (so versions do go stale), with keys and lost answers too.
- 10 spectators read the standings (API and page) and match sheets, non-stop.
- An organizer builds the tournament workbook on the Celery worker, again and again.

It prints throughput, p50/p95/p99 per kind of request, 409s, retries, replays and
errors, with a bare DRF request under the same 50-thread load as the baseline of the
same run. Then it checks every sheet against the rules engine: each match has
exactly the deals and penalties its clients were told were saved, once each, and
its awards, totals, winner and status are what scoring.domain.rules computes from
them. Any difference is printed and the bench exits non-zero.

Its headline figures are the errors and the sheets that differ: both must be 0.

Usage: python -m bench load [--scorers 50] [--referees 5] [--spectators 10]
                            [--workers 4] [--lost 0.05]
Needs PostgreSQL ($BENCH_DATABASE_URL's server) and Redis ($BENCH_REDIS_URL, default
redis://127.0.0.1:6379/13, flushed before and after).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import sys
import threading
import time
import uuid
from collections import Counter, defaultdict

from bench.core import (
    BenchFailed,
    Figure,
    Session,
    child_env,
    gunicorn,
    run_module,
    running,
)

TINY = ["--scorers", "4", "--referees", "1", "--spectators", "2", "--workers", "2"]
SLUG = "load-open"
TEAMS = 100
ROUNDS = 2  # each scorer's matches: round 1 and round 2 at its table
LINK_EVERY = 3  # every third scorer scores by its table's link, and goes offline
OUTAGE_START = 0.1  # a link scorer's chance, at each deal, that the network drops


def _setup(scorers: int, referees: int) -> dict:
    """The drawn, released league; a token per scorer, referee, captain and the
    organizer; each scorer's matches (in a child process)."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from scoring.league import services
    from scoring.links.services import links_ensure
    from scoring.models import Match
    from tournament.models import Link, Membership, Section, Team, Tournament

    users = get_user_model().objects
    organizer = users.create_user("load-organizer")
    tournament = Tournament.objects.create(
        name="Load Open", slug=SLUG, league_deals=18, published=True
    )
    Membership.objects.create(tournament=tournament, user=organizer, role="organizer")
    for s in range(4):
        section = Section.objects.create(
            tournament=tournament, name=f"Section {s + 1}", cities=[f"City {s}"]
        )
        for t in range(TEAMS // 4):
            team = Team.objects.create(
                tournament=tournament,
                section=section,
                name=f"S{s + 1} team {t + 1}",
                captain_name=f"Captain {s}-{t}",
                captain_city=f"City {s}",
                captain_state="NJ",
                captain_country="USA",
                placement="city",
            )
            captain = users.create_user(f"cap-{team.pk}")
            Membership.objects.create(
                tournament=tournament, user=captain, role="captain", team=team
            )
    services.league_draw_generate(tournament=tournament, user=organizer, seed=56)
    services.league_rounds_release_all(tournament=tournament, user=organizer)
    links_ensure(tournament=tournament, tables=TEAMS // 2)
    table_keys = dict(
        Link.objects.filter(tournament=tournament, kind="table").values_list(
            "table", "key"
        )
    )

    def token(name: str, role: str) -> str:
        user = users.create_user(name)
        Membership.objects.create(tournament=tournament, user=user, role=role)
        return Token.objects.create(user=user).key

    captain_tokens = {
        m.team_id: Token.objects.create(user=m.user).key
        for m in Membership.objects.filter(tournament=tournament, role="captain")
    }
    matches = Match.objects.filter(tournament=tournament, round__lte=ROUNDS)
    by_table = defaultdict(list)
    for m in matches.order_by("round", "table"):
        by_table[m.table].append(
            {
                "id": m.pk,
                "captains": [captain_tokens[m.team_a_id], captain_tokens[m.team_b_id]],
            }
        )
    tables = sorted(by_table)
    if len(tables) < scorers:
        raise ValueError(f"only {len(tables)} tables for {scorers} scorers")
    return {
        "scorers": [
            {"link": table_keys[tables[i]], "matches": by_table[tables[i]]}
            if i % LINK_EVERY == 1
            else {
                "token": token(f"scorer-{i}", "scorer"),
                "matches": by_table[tables[i]],
            }
            for i in range(scorers)
        ],
        "referees": [token(f"referee-{i}", "scorer") for i in range(referees)],
        "organizer": Token.objects.create(user=organizer).key,
    }


class Client:
    """One phone: plain HTTP/1.1 requests, a latency sample per kind of request."""

    def __init__(
        self, stats: Stats, token: str | None = None, link: str | None = None
    ) -> None:
        self.stats = stats
        self.token = token
        self.link = link  # a table link's key, instead of a token

    def call(self, kind: str, method: str, path: str, body=None, key=None):
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        elif self.link:
            headers["Authorization"] = f"Link {self.link}"
        if key:
            headers["Idempotency-Key"] = key
        started = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", self.stats.port, timeout=60)
        try:
            conn.request(method, path, json.dumps(body) if body else None, headers)
            response = conn.getresponse()
            raw = response.read()
            replayed = response.getheader("Idempotent-Replayed") == "true"
        except OSError as error:
            self.stats.error(kind, f"{type(error).__name__}: {error}")
            return 0, {}, False
        finally:
            conn.close()
        self.stats.sample(kind, time.perf_counter() - started, response.status)
        is_json = raw[:1] in (b"{", b"[")
        return response.status, json.loads(raw) if is_json else {}, replayed


class Stats:
    def __init__(self, port: int) -> None:
        self.port = port  # the server's
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.statuses: Counter[tuple[str, int]] = Counter()
        self.events: Counter[str] = Counter()
        self.errors: list[str] = []

    def sample(self, kind: str, seconds: float, status: int) -> None:
        with self.lock:
            self.latency[kind].append(seconds)
            self.statuses[(kind, status)] += 1

    def event(self, name: str) -> None:
        with self.lock:
            self.events[name] += 1

    def error(self, kind: str, what: str) -> None:
        with self.lock:
            self.errors.append(f"{kind}: {what}")


def _deals(match_id: int) -> list[dict]:
    """The match's 18 deals, the same on every run."""
    rng = random.Random(match_id)
    return [
        {
            "number": n,
            "declarer": rng.choice("AB"),
            "value": rng.choice([28, 30, 32, 36, 40, 44, 48, 52, 56]),
            "trump": rng.choice(["clubs", "diamonds", "hearts", "spades", "no_trump"]),
            "level": rng.choices(["none", "doubled", "redoubled"], [20, 3, 1])[0],
            "taken": rng.randint(16, 56),
        }
        for n in range(1, 19)
    ]


DEAL_KEYS = ("number", "declarer", "value", "trump", "level", "taken")


class Ledger:
    """What the clients were told was saved, per match: the truth to check against."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.penalties: dict[int, dict[int, dict]] = defaultdict(dict)
        self.playing: set[int] = set()

    def penalty(self, match: int, answer: dict) -> None:
        with self.lock:
            self.penalties[match][answer["id"]] = answer


def _write(client: Client, kind, path, body, *, keyed, lost, rng, done_when):
    """A write as a phone on venue Wi-Fi makes it: sent, maybe its answer lost and
    sent again as it was, 409 stale answered by reading the sheet. Returns the
    answer that saved it, or None when the sheet refuses it for good."""
    key = str(uuid.uuid4()) if keyed else None
    for _attempt in range(20):
        status, data, replayed = client.call(kind, "POST", path, body, key)
        if status and rng.random() < lost:
            client.stats.event(f"{kind}: answer lost, sent again")
            status, data, replayed = client.call(kind, "POST", path, body, key)
        if replayed:
            client.stats.event(f"{kind}: retry answered as done (replayed)")
        if status in (200, 201):
            return data
        if status == 409 and data.get("code") == "stale_version":
            client.stats.event(f"{kind}: 409 stale, read and retried")
            match_path = path.rsplit("/", 2)[0] + "/"
            _s, sheet, _r = client.call("read a sheet", "GET", match_path)
            if done_when(sheet):
                client.stats.event(f"{kind}: 409 stale, found already saved")
                return sheet
            body = {**body, "version": sheet["version"]}
            key = str(uuid.uuid4()) if keyed else None  # a new request
            continue
        if status == 409:
            return None  # locked, taken: the rules refuse it, as they should
        client.stats.error(kind, f"{status} {data}")
        return None
    client.stats.error(kind, "gave up after 20 attempts")
    return None


def _penalty(client: Client, ledger: Ledger, mid: int, body: dict, lost, rng) -> None:
    """A penalty, keyed, as a phone on venue Wi-Fi sends it; kept in the ledger when
    the sheet took it."""
    answer = _write(
        client,
        "add a penalty",
        f"/api/v1/matches/{mid}/penalties/",
        body,
        keyed=True,
        lost=lost,
        rng=rng,
        done_when=lambda sheet: False,
    )
    if answer is not None and "id" in answer:
        ledger.penalty(mid, answer)


def _there(deal: dict):
    def found(sheet: dict) -> bool:
        return any(all(d[k] == deal[k] for k in DEAL_KEYS) for d in sheet["deals"])

    return found


def _scorer(plan: dict, index: int, stats: Stats, ledger: Ledger, lost: float):
    rng = random.Random(index)
    by_link = "link" in plan
    client = Client(stats, plan.get("token"), plan.get("link"))
    # Half the phones with an account send keys, half rely on deal numbers; the
    # offline queue of a link's page always keys its entries.
    keyed = by_link or index % 2 == 0
    kind = "record a deal by link" if by_link else "record a deal"
    for match in plan["matches"]:
        mid = match["id"]
        path = f"/api/v1/matches/{mid}/"
        _s, sheet, _r = client.call("read a sheet", "GET", path)
        version = sheet["version"]
        with ledger.lock:
            ledger.playing.add(mid)
        offline_for = 0  # deals still to enter before the network is back
        queue: list[dict] = []
        deals = _deals(mid)
        for n, deal in enumerate(deals):
            if by_link and not offline_for and rng.random() < OUTAGE_START:
                offline_for = rng.randint(2, 6)
                stats.event("link scorer: the network dropped")
            if offline_for:
                queue.append(deal)  # kept on the phone, waiting to send
                offline_for -= 1
                if offline_for and n < len(deals) - 1:
                    continue
                stats.event(f"link scorer: back online, {len(queue)} deals queued")
            sending, queue = queue or [deal], []
            for entry in sending:
                answer = _write(
                    client,
                    kind,
                    path + "deals/",
                    {**entry, "version": version},
                    keyed=keyed,
                    lost=lost,
                    rng=rng,
                    done_when=_there(entry),
                )
                if answer is None:
                    stats.error(kind, f"match {mid} deal {entry['number']} lost")
                    break
                version = answer["version"]
        if rng.random() < 0.2:
            number = rng.randint(1, 18)
            body = {"deal": number, "offender": rng.choice("AB"), "kind": "kallakali"}
            _penalty(client, ledger, mid, {**body, "version": version}, lost, rng)
        with ledger.lock:
            ledger.playing.discard(mid)
        _confirm(stats, path, match["captains"])


def _confirm(stats: Stats, path: str, captains: list[str]) -> None:
    """Both captains confirm the version they read, again while a late penalty moves
    the sheet on, until it locks."""
    phones = [Client(stats, token) for token in captains]
    for _attempt in range(10):
        for phone in phones:
            _s, sheet, _r = phone.call("read a sheet", "GET", path)
            if sheet["status"] == "confirmed":
                return
            status, _data, _r = phone.call(
                "confirm", "POST", path + "confirm/", {"version": sheet["version"]}
            )
            if status != 200:
                stats.event("confirm: 409, read and confirmed again")
        _s, sheet, _r = phones[0].call("read a sheet", "GET", path)
        if sheet["status"] == "confirmed":
            return
        stats.event("confirm: the sheet moved on between the captains, again")
    stats.error("confirm", f"{path} not confirmed after 10 rounds: {sheet['status']}")


def _referee(token: str, index: int, stats, ledger: Ledger, lost: float, stop):
    rng = random.Random(1000 + index)
    client = Client(stats, token)
    while not stop.is_set():
        with ledger.lock:
            playing = sorted(ledger.playing)
        if not playing:
            time.sleep(0.05)
            continue
        mid = rng.choice(playing)
        path = f"/api/v1/matches/{mid}/"
        _s, sheet, _r = client.call("read a sheet", "GET", path)
        if not sheet.get("deals"):
            continue
        body = {
            "deal": rng.choice(sheet["deals"])["number"],
            "offender": rng.choice("AB"),
            "kind": "out_of_turn",
        }
        _penalty(client, ledger, mid, {**body, "version": sheet["version"]}, lost, rng)
        time.sleep(rng.uniform(0.2, 0.6))


def _spectator(index: int, stats: Stats, match_ids: list[int], stop) -> None:
    rng = random.Random(2000 + index)
    client = Client(stats)
    while not stop.is_set():
        roll = rng.random()
        if roll < 0.4:
            client.call(
                "standings API", "GET", f"/api/v1/tournaments/{SLUG}/standings/"
            )
        elif roll < 0.7:
            client.call("standings page", "GET", f"/t/{SLUG}/standings/")
        else:
            mid = rng.choice(match_ids)
            client.call("read a sheet", "GET", f"/api/v1/matches/{mid}/")


def _organizer(token: str, stats: Stats, stop, builds: list[float]) -> None:
    client = Client(stats, token)
    while not stop.is_set():
        started = time.perf_counter()
        status, job, _r = client.call(
            "request an export", "POST", f"/api/v1/tournaments/{SLUG}/exports/"
        )
        if status not in (200, 202):
            stats.error("request an export", f"{status} {job}")
            return
        while job.get("status") in ("queued", "running"):
            time.sleep(0.25)
            _s, job, _r = client.call(
                "poll an export", "GET", f"/api/v1/exports/{job['id']}/"
            )
        if job.get("status") != "done":
            stats.error("export", f"ended {job.get('status')}: {job.get('error')}")
            return
        builds.append(time.perf_counter() - started)
        time.sleep(1)


def _bare(stats: Stats, token: str, threads: int, each: int) -> float:
    """The baseline: a bare DRF POST, at the same concurrency."""

    def work() -> None:
        client = Client(stats, token)
        for i in range(each):
            client.call("bare DRF request", "POST", "/bench/bare/", {"i": i})

    pool = [threading.Thread(target=work) for _ in range(threads)]
    started = time.perf_counter()
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return time.perf_counter() - started


def _quantiles(samples: list[float]) -> tuple[float, float, float]:
    if len(samples) < 2:
        one = samples[0] * 1000 if samples else 0.0
        return one, one, one
    q = statistics.quantiles(samples, n=100, method="inclusive")
    return q[49] * 1000, q[94] * 1000, q[98] * 1000


def _check(told_path: str) -> list[str]:
    """Every sheet against the rules engine and against what its clients were told
    (in a child process; `told_path`: the match ids and, per match, the penalties
    its clients were told were saved)."""
    import django

    django.setup()
    from scoring.models import Deal, Match, Penalty, SheetChange

    with open(told_path, encoding="utf-8") as f:
        told_all = json.load(f)
    match_ids = told_all["matches"]
    problems = []
    matches = Match.objects.in_bulk(match_ids)
    for mid in match_ids:
        match = matches[mid]
        wanted = _deals(mid)
        stored = list(Deal.objects.filter(match=match).order_by("number"))
        got = [{k: getattr(d, k) for k in DEAL_KEYS} for d in stored]
        if got != wanted:
            problems.append(f"match {mid}: deals differ from what the scorer entered")
            continue
        adds = SheetChange.objects.filter(match=match, action="deal_add").count()
        if adds != 18:
            problems.append(f"match {mid}: {adds} deal_add rows in the history, not 18")
        told = told_all["penalties"].get(str(mid), [])
        penalties = list(Penalty.objects.filter(deal__match=match).order_by("pk"))
        if {p.pk for p in penalties} != set(told):
            problems.append(
                f"match {mid}: penalties {sorted(p.pk for p in penalties)} stored, "
                f"{sorted(told)} answered"
            )
            continue
        problems += scored_as_the_rules(match, stored, wanted, penalties)
        if match.status != "confirmed":
            problems.append(f"match {mid}: {match.status}, not confirmed")
    return problems


def scored_as_the_rules(match, stored, wanted: list[dict], penalties) -> list[str]:
    """What of a stored sheet (its deals `stored`, as `wanted`, and its penalties)
    differs from what the rules engine computes: each deal's award, the totals and
    the winner. In a child process that has set Django up."""
    from scoring.domain import rules
    from tournament.domain.rulesets import ruleset_get

    problems = []
    numbers = {d.pk: d.number for d in stored}
    sheet = rules.score_sheet(
        ruleset_get(match.tournament.ruleset),
        [rules.deal_from_values(**w, deals_allowed=18) for w in wanted],
        [
            rules.Penalty(
                key=p.pk,
                deal=numbers[p.deal_id],
                offender=rules.Side(p.offender),
                kind=rules.PenaltyKind(p.kind),
            )
            for p in penalties
        ],
        deals_scheduled=18,
    )
    mid = match.pk
    for row, deal in zip(sheet.rows, stored, strict=True):
        if (row.result.award_to, row.result.award) != (deal.award_to, deal.award):
            problems.append(f"match {mid} deal {deal.number}: award differs")
    winner = sheet.winner.value if sheet.winner else None
    if (match.total_a, match.total_b, match.winner or None) != (
        sheet.total_a,
        sheet.total_b,
        winner,
    ):
        problems.append(
            f"match {mid}: stored {match.total_a}-{match.total_b} {match.winner}, "
            f"rules {sheet.total_a}-{sheet.total_b} {winner}"
        )
    return problems


def _flush(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()


def run(session: Session, argv: list[str]) -> list[Figure]:
    parser = argparse.ArgumentParser(prog="python -m bench load")
    parser.add_argument("--scorers", type=int, default=50)
    parser.add_argument("--referees", type=int, default=5)
    parser.add_argument("--spectators", type=int, default=10)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--lost", type=float, default=0.05)
    args = parser.parse_args(argv)

    print(
        f"bench: tournament day, {args.scorers} scorers x {ROUNDS} matches of 18 "
        f"deals, {args.referees} referees, {args.spectators} spectators, an "
        f"organizer exporting; {args.lost:.0%} of answers lost"
    )
    broker = session.redis_url
    _flush(broker)
    try:
        with session.database("postgresql", "load") as db:
            plan = run_module(
                "bench.load",
                db.url,
                "--child",
                "setup",
                str(args.scorers),
                str(args.referees),
            )
            env = child_env(
                db.url,
                CELERY_BROKER_URL=broker,
                CELERY_RESULT_BACKEND="",
                DJANGO_LOG_LEVEL="ERROR",  # the 409s of the race are expected
            )
            worker_env = {**env, "DJANGO_SETTINGS_MODULE": "tournament.config.settings"}
            celery = [
                sys.executable,
                "-m",
                "celery",
                "-q",
                "-A",
                "tournament.config.celery",
            ]
            celery += ["worker", "--pool=solo", "--loglevel=warning"]
            with running(celery, worker_env), gunicorn(env, args.workers) as port:
                stats, ledger, match_ids, elapsed, builds, bare_seconds = _load(
                    port, plan, args
                )
            told = session.folder / "load-told.json"
            told.write_text(
                json.dumps(
                    {
                        "matches": match_ids,
                        "penalties": {
                            str(mid): sorted(p) for mid, p in ledger.penalties.items()
                        },
                    }
                ),
                encoding="utf-8",
            )
            problems = run_module("bench.load", db.url, "--child", "check", str(told))
    finally:
        _flush(broker)
    _report(args, stats, ledger, match_ids, elapsed, builds, bare_seconds, problems)
    figures = [
        Figure(
            "load.errors", "tournament day: requests that failed", len(stats.errors), ""
        ),
        Figure(
            "load.sheets", "tournament day: sheets not as entered", len(problems), ""
        ),
    ]
    if problems or stats.errors:
        raise BenchFailed(
            f"{len(stats.errors)} errors, {len(problems)} sheets not as entered",
            figures,
        )
    return figures


def _load(port: int, plan: dict, args):
    stats = Stats(port)
    _bare(Stats(port), plan["organizer"], 4, 10)  # warm
    bare_seconds = _bare(stats, plan["organizer"], args.scorers, 20)
    ledger = Ledger()
    stop = threading.Event()
    builds: list[float] = []
    match_ids = [m["id"] for s in plan["scorers"] for m in s["matches"]]
    scorers = [
        threading.Thread(target=_scorer, args=(s, i, stats, ledger, args.lost))
        for i, s in enumerate(plan["scorers"])
    ]
    others = [
        threading.Thread(target=_referee, args=(t, i, stats, ledger, args.lost, stop))
        for i, t in enumerate(plan["referees"])
    ]
    others += [
        threading.Thread(target=_spectator, args=(i, stats, match_ids, stop))
        for i in range(args.spectators)
    ]
    others.append(
        threading.Thread(
            target=_organizer, args=(plan["organizer"], stats, stop, builds)
        )
    )
    started = time.perf_counter()
    try:
        for t in scorers + others:
            t.start()
        for t in scorers:
            t.join()
    finally:
        elapsed = time.perf_counter() - started
        stop.set()
        for t in scorers + others:
            if t.is_alive():
                t.join()
    return stats, ledger, match_ids, elapsed, builds, bare_seconds


def _report(args, stats, ledger, match_ids, elapsed, builds, bare_seconds, problems):
    total = sum(len(v) for k, v in stats.latency.items() if k != "bare DRF request")
    deals = stats.statuses[("record a deal", 201)]
    bare = stats.latency["bare DRF request"]
    bare_p50, _p95, bare_p99 = _quantiles(bare)
    print(
        f"  {args.workers} gunicorn workers, a Celery worker, "
        f"{os.cpu_count()} CPUs; the load ran {elapsed:.1f} s"
    )
    print(
        f"  throughput: {total / elapsed:.1f} requests/s in all, "
        f"{deals / elapsed:.1f} deals recorded/s; bare DRF request "
        f"{len(bare) / bare_seconds:.1f}/s at the same concurrency"
    )
    print(
        f"  {'':28}{'count':>7}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}"
        f"{'p50 x bare':>12}{'p99 x bare':>12}"
    )
    for kind in sorted(stats.latency):
        p50, p95, p99 = _quantiles(stats.latency[kind])
        print(
            f"  {kind:<28}{len(stats.latency[kind]):>7}{p50:>9.1f}{p95:>9.1f}"
            f"{p99:>9.1f}{p50 / bare_p50:>11.1f}x{p99 / bare_p99:>11.1f}x"
        )
    print(
        "  answers: "
        + ", ".join(
            f"{k} {s}: {n}"
            for (k, s), n in sorted(stats.statuses.items())
            if k != "bare DRF request"
        )
    )
    for name, count in sorted(stats.events.items()):
        print(f"  {name}: {count}")
    if builds:
        print(
            f"  workbooks built by the Celery worker during the load: {len(builds)}, "
            f"median {statistics.median(builds):.2f} s from request to done"
        )
    print(f"  errors: {len(stats.errors)}")
    for line in stats.errors[:10]:
        print(f"    {line}")

    penalties = sum(len(p) for p in ledger.penalties.values())
    print(
        f"  check: {len(match_ids)} sheets, {len(match_ids) * 18} deals, {penalties} "
        f"penalties against the rules engine: "
        + ("every one as entered, once, and scored right" if not problems else "")
    )
    for line in problems[:20]:
        print(f"    {line}")


if __name__ == "__main__":
    if sys.argv[1:3] == ["--child", "setup"]:
        print(json.dumps(_setup(int(sys.argv[3]), int(sys.argv[4]))))
    elif sys.argv[1:3] == ["--child", "check"]:
        print(json.dumps(_check(sys.argv[3])))
