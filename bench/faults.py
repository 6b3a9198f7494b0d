"""Faults on the day (issue 42): a part of the production setup dies mid-round, and no
deal is lost or doubled.

It starts, on this machine and of its own, the production topology of docs/deploy.md:
a PostgreSQL cluster (initdb in a temporary folder, its own port) and a Redis server
(its own port, append-only file on), two gunicorn instances with the production
settings, a Celery worker and its beat, and Caddy in front of the two instances with the
proxy settings of deploy/Caddyfile (without TLS). Stopping any of them touches
nothing else on the machine. Through the proxy it plays round 1 of a 500-team league:

- 250 tables, each entering its match's 18 deals at the pace of a round (compressed
  in time). Every third table scores by its table link and behaves as the score
  page's queue does (static/js/score/): each deal waits in order on the phone
  with its Idempotency-Key until the server takes it; a 503, a 5xx, a timeout or no
  answer leaves it waiting until Retry-After has passed; a 409 stale_version reads
  the sheet and sends the deal again unless the sheet has it. The other tables score
  by token and send a deal that got no answer, or a 503, again with its key.
- 1,000 spectators poll the standings with the ETag they hold, each every 20 s
  compressed in time (`--poll-seconds`).
- A bare DRF request through the same proxy, now and then: the baseline.

During the round it injects, one after the other, each once the writes have
recovered from the last:

1. `kill -9` of one web instance (gunicorn's whole process group) in the middle of
   writes, started again 5 s later;
2. PostgreSQL stopped (`pg_ctl stop -m immediate`, as a crash) for 10 s, then started;
3. Redis stopped for 30 s, then started;
4. `kill -9` of the Celery worker (its whole process group) while it builds the
   workbook of the 500-team tournament, and a new worker started 5 s later.

Then it checks every answer (each either what the API promises for the request, or a
JSON 503 with Retry-After) and every sheet (exactly the deals its scorers entered,
once each, scored as scoring.domain.rules scores them, and one history row per
deal), and prints the figures of docs/performance.md's `faults.*` goals: answers
not as promised, sheets not as entered, seconds from each part's return until writes
succeed again, whether the killed workbook job ended `done`, the p50 and p99 of a
deal write while nothing fails against a bare request through the same proxy, and
the standings polls (304s per second held against those asked, and their p99).

Usage: python -m bench faults [--teams 500] [--tables 250] [--spectators 1000]
                              [--poll-seconds 5] [--round 150] [--web-down 5]
                              [--db-down 10] [--redis-down 30] [--worker-down 5]
Needs PostgreSQL's server programs (initdb, pg_ctl), redis-server and Caddy on this
machine (`make test` installs Caddy from Debian's packages when it is missing).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from bench.core import (
    ROOT,
    BenchFailed,
    Figure,
    Session,
    child_env,
    free_port,
    manage,
    run_module,
    wait_listening,
)
from bench.league import field as league_field
from bench.load import DEAL_KEYS, _deals, scored_as_the_rules

TINY = [
    "--teams", "500", "--tables", "8", "--spectators", "40", "--round", "40",
    "--web-down", "1", "--db-down", "2", "--redis-down", "2", "--worker-down", "1",
]  # fmt: skip
SLUG = "faults-open"
LINK_EVERY = 3  # every third table scores by its table link
RETRY_DEFAULT = 2.0  # seconds a client waits before sending again when told nothing
RETRY_MOST = 15.0  # the score page's longest wait (static/js/score/)
RECOVERED_WITHIN = 60.0  # a part whose writes have not come back by then: failed
FIGURE_NAMES = {
    "faults.web": "faults: writes back, after a killed web instance",
    "faults.database": "faults: writes back, after PostgreSQL stopped",
    "faults.redis": "faults: writes back, after Redis stopped",
    "faults.worker": "faults: killed workbook job done, after new worker",
}


# The topology
# ----------------------------------------------------------------------------------


def _as_postgres() -> list[str]:
    """initdb and postgres refuse to run as root: as root, run them as postgres."""
    return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        for folder in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
            if (folder / name).exists():
                return str(folder / name)
        raise BenchFailed(f"{name} is not on this machine (it is needed by `faults`)")
    return found


class Stack:
    """The production topology, each part of our own, on its own ports; every part
    can be stopped and started again. Closing it stops everything and deletes the
    folder."""

    def __init__(self, folder: Path, web_workers: int) -> None:
        self.folder = folder
        self.web_workers = web_workers
        self.pg_port = free_port()
        self.redis_port = free_port()
        self.web_ports = [free_port(), free_port()]
        self.proxy_port = free_port()
        self.db_url = f"postgres://postgres@127.0.0.1:{self.pg_port}/fiftysix"
        self.webs: list[subprocess.Popen | None] = [None, None]
        self.worker: subprocess.Popen | None = None
        self.beat: subprocess.Popen | None = None
        self.redis: subprocess.Popen | None = None
        self.proxy: subprocess.Popen | None = None
        self.pg_running = False

    # PostgreSQL

    def pg_init(self) -> None:
        data = self.folder / "pg"
        data.mkdir()
        if os.geteuid() == 0:
            shutil.chown(data, "postgres", "postgres")
        subprocess.run(  # noqa: S603 - our own fixed command line
            [
                *_as_postgres(),
                _tool("initdb"),
                "-D",
                str(data),
                "-U",
                "postgres",
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--no-sync",
            ],
            check=True,
            capture_output=True,
        )
        self.pg_start()
        import psycopg

        with psycopg.connect(
            f"postgres://postgres@127.0.0.1:{self.pg_port}/postgres", autocommit=True
        ) as conn:
            conn.execute("CREATE DATABASE fiftysix")

    def _pg_ctl(self, *args: str) -> None:
        subprocess.run(  # noqa: S603 - our own fixed command line
            [*_as_postgres(), _tool("pg_ctl"), "-D", str(self.folder / "pg"), *args],
            check=True,
            capture_output=True,
        )

    def pg_start(self) -> None:
        options = (
            f"-p {self.pg_port} -k {self.folder / 'pg'} -c listen_addresses=127.0.0.1 "
            "-c max_connections=100"
        )
        log = str(self.folder / "pg" / "server.log")
        self._pg_ctl("-l", log, "-w", "-t", "60", "-o", options, "start")
        self.pg_running = True

    def pg_stop(self) -> None:
        """As a crash: every backend killed, no checkpoint (`-m immediate`)."""
        self._pg_ctl("-m", "immediate", "-w", "stop")
        self.pg_running = False

    # Redis

    def redis_start(self) -> None:
        self.redis = self._spawn(
            "redis",
            [
                "redis-server",
                "--port",
                str(self.redis_port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "yes",
                "--appendfsync",
                "everysec",
                "--dir",
                str(self.folder),
            ],
            {},
        )
        wait_listening(self.redis_port, self.redis)

    def redis_stop(self) -> None:
        assert self.redis is not None
        self._stop(self.redis, signal.SIGTERM)
        self.redis = None

    # The site

    def env(self) -> dict[str, str]:
        redis = f"redis://127.0.0.1:{self.redis_port}"
        return child_env(
            self.db_url,
            CELERY_BROKER_URL=f"{redis}/0",
            CELERY_RESULT_BACKEND="",
            CACHE_URL=f"{redis}/1",
            DJANGO_LOG_LEVEL="WARNING",
            # Every workbook goes to the worker, however small (the tiny run's too).
            EXPORT_INLINE_MAX_DEALS="0",
            BACKUP_DIR=str(self.folder / "backups"),
            TRUSTED_PROXIES="1",
        )

    def web_start(self, i: int) -> None:
        port = self.web_ports[i]
        command = [sys.executable, "-m", "gunicorn", "tournament.config.wsgi"]
        command += [f"--bind=127.0.0.1:{port}", f"--workers={self.web_workers}"]
        command += ["--timeout=60", "--graceful-timeout=30", "--backlog=512"]
        command += ["--log-level=warning"]
        self.webs[i] = self._spawn(f"web{i + 1}", command, self.env())
        wait_listening(port, self.webs[i])

    def web_kill(self, i: int) -> None:
        """`kill -9` of the instance: its master and its workers at once."""
        process = self.webs[i]
        assert process is not None
        self._stop(process, signal.SIGKILL)
        self.webs[i] = None

    def worker_start(self) -> None:
        env = {**self.env(), "DJANGO_SETTINGS_MODULE": "tournament.config.settings"}
        command = [sys.executable, "-m", "celery", "--app", "tournament.config"]
        command += ["worker", "--concurrency=1", "--loglevel=WARNING"]
        command += ["--without-mingle", "--without-gossip"]
        self.worker = self._spawn("worker", command, env)

    def worker_kill(self) -> None:
        assert self.worker is not None
        self._stop(self.worker, signal.SIGKILL)
        self.worker = None

    def beat_start(self) -> None:
        """Celery beat, as a site runs it (deploy/start-beat): it sends the periodic
        tasks a worker runs, the resend of orphaned workbook jobs among them."""
        env = {**self.env(), "DJANGO_SETTINGS_MODULE": "tournament.config.settings"}
        command = [sys.executable, "-m", "celery", "--app", "tournament.config"]
        command += ["beat", "--loglevel=WARNING"]
        command += ["--schedule", str(self.folder / "beat-schedule")]
        self.beat = self._spawn("beat", command, env)

    def proxy_start(self) -> None:
        config = self.folder / "Caddyfile"
        config.write_text(caddyfile(self.proxy_port, self.web_ports), "utf-8")
        self.proxy = self._spawn(
            "proxy",
            [_tool("caddy"), "run", "--config", str(config), "--adapter", "caddyfile"],
            {"HOME": str(self.folder), "XDG_DATA_HOME": str(self.folder)},
        )
        wait_listening(self.proxy_port, self.proxy)

    # Processes

    def _spawn(self, name: str, command: list[str], env: dict) -> subprocess.Popen:
        """A part of ours in its own process group (so a kill takes all of it),
        its output in the folder."""
        log = open(self.folder / f"{name}.log", "ab")  # noqa: SIM115 - kept by the child
        try:
            return subprocess.Popen(  # noqa: S603 - our own fixed command lines
                command,
                cwd=ROOT,
                env={**os.environ, **env} if env else None,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        finally:
            log.close()

    @staticmethod
    def _stop(process: subprocess.Popen, how: signal.Signals) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, how)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        # Whatever of its group outlived its leader (a worker's children).
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)

    def log_tail(self, name: str, lines: int = 15) -> str:
        path = self.folder / f"{name}.log"
        if not path.exists():
            return ""
        return "\n".join(path.read_text("utf-8", "replace").splitlines()[-lines:])

    @classmethod
    def opened(cls, session: Session, name: str, web_workers: int) -> Stack:
        """A stack in a folder of the session's, its PostgreSQL and Redis up and its
        database migrated, with the collected files the production settings serve
        (the 503 page names them); the site's parts are started by the caller."""
        folder = Path(tempfile.mkdtemp(prefix=f"fiftysix-{name}-", dir=session.folder))
        folder.chmod(0o755)  # PostgreSQL's own user reaches its data folder in it
        session.folder.chmod(0o755)
        stack = cls(folder, web_workers)
        try:
            stack.pg_init()
            stack.redis_start()
            manage(stack.db_url, "migrate")
            manage(stack.db_url, "collectstatic", "--no-input")
        except BaseException:
            stack.close()
            raise
        return stack

    def close(self) -> None:
        for process in [self.proxy, *self.webs, self.worker, self.beat, self.redis]:
            if process is not None:
                self._stop(process, signal.SIGTERM)
        if self.pg_running:
            with contextlib.suppress(subprocess.CalledProcessError):
                self._pg_ctl("-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


def caddyfile(port: int, webs: list[int]) -> str:
    """deploy/Caddyfile's proxy on plain HTTP and our ports, with the same
    deploy/caddy-proxy: round robin, a request that cannot reach an instance tried on
    the other, an instance that fails left alone a while, and the proxy's own
    failures answered as the API answers them (a JSON 503 with Retry-After under
    /api/, a short page elsewhere)."""
    upstreams = " ".join(f"127.0.0.1:{p}" for p in webs)
    return (
        "{\n\tadmin off\n\tauto_https off\n"
        "\tlog default {\n\t\toutput discard\n\t}\n}\n"
        f"import {ROOT / 'deploy' / 'caddy-proxy'}\n"
        f"http://127.0.0.1:{port} {{\n"
        f"\treverse_proxy {upstreams} {{\n\t\timport fiftysix-upstreams\n\t}}\n"
        "\timport fiftysix-unavailable\n"
        "}\n"
    )


# The clients
# ----------------------------------------------------------------------------------


@dataclass
class Answer:
    status: int  # 0: no answer at all
    data: dict
    retry_after: float | None
    started: float
    seconds: float
    replayed: bool = False


@dataclass
class Record:
    """Everything the clients saw."""

    port: int
    lock: threading.Lock = field(default_factory=threading.Lock)
    samples: dict[str, list[tuple[float, float, int]]] = field(
        default_factory=lambda: defaultdict(list)
    )
    statuses: Counter = field(default_factory=Counter)
    events: Counter = field(default_factory=Counter)
    wrong: list[str] = field(default_factory=list)
    writes_ok: list[float] = field(default_factory=list)  # when each write was sent
    started: float = 0.0  # when the round began

    def event(self, name: str) -> None:
        with self.lock:
            self.events[name] += 1


def promised(kind: str, answer: Answer, expected: set[int], api: bool) -> bool:
    """The answer is what the API promises for this request, or a 503 with
    Retry-After (a part is down: send it again later), JSON with its code under
    /api/ (the bare baseline, outside it, gets the site's 503 page)."""
    if answer.status in expected:
        return True
    if answer.status == 409 and answer.data.get("code") == "stale_version":
        return kind.startswith("record a deal")
    return (
        answer.status == 503
        and answer.retry_after is not None
        and (isinstance(answer.data.get("code"), str) or not api)
    )


def call(
    record: Record,
    kind: str,
    method: str,
    path: str,
    *,
    auth: str = "",
    body: dict | None = None,
    key: str | None = None,
    etag: str | None = None,
    expected: frozenset[int] = frozenset({200, 201}),
) -> Answer:
    """One request through the proxy, as a phone makes it; checked and kept."""
    headers = {"Content-Type": "application/json"}
    if auth:
        headers["Authorization"] = auth
    if key:
        headers["Idempotency-Key"] = key
    if etag:
        headers["If-None-Match"] = etag
    started = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", record.port, timeout=30)
    try:
        conn.request(method, path, json.dumps(body) if body else None, headers)
        response = conn.getresponse()
        raw = response.read()
        status = response.status
        retry = response.getheader("Retry-After")
        tag = response.getheader("ETag")
        replayed = response.getheader("Idempotent-Replayed") == "true"
    except OSError as error:
        raw, status, retry, tag, replayed = str(error).encode(), 0, None, None, False
    finally:
        conn.close()
    seconds = time.monotonic() - started
    data: dict = {}
    if raw[:1] in (b"{", b"["):
        with contextlib.suppress(ValueError):
            loaded = json.loads(raw)
            data = loaded if isinstance(loaded, dict) else {"list": loaded}
    if tag:
        data["_etag"] = tag
    retry_after = None
    if retry is not None:
        with contextlib.suppress(ValueError):
            retry_after = float(retry)
    answer = Answer(status, data, retry_after, started, seconds, replayed)
    ok = promised(kind, answer, set(expected), path.startswith("/api/"))
    with record.lock:
        record.samples[kind].append((started, seconds, status))
        record.statuses[(kind, status)] += 1
        if not ok:
            said = raw[:160].decode("utf-8", "replace").replace("\n", " ")
            record.wrong.append(f"{kind}: {method} {path} answered {status}: {said}")
    return answer


def _wait(answer: Answer) -> float:
    """How long a client waits before sending again: Retry-After, within reason."""
    if answer.retry_after is None:
        return RETRY_DEFAULT
    return min(max(answer.retry_after, 0.5), RETRY_MOST)


def _sheet(record: Record, auth: str, mid: int, stop: threading.Event) -> dict:
    """The match's sheet, asked again until the server answers it."""
    while not stop.is_set():
        got = call(record, "read a sheet", "GET", f"/api/v1/matches/{mid}/", auth=auth)
        if got.status == 200:
            return got.data
        time.sleep(_wait(got))
    return {}


def _table(
    plan: dict, index: int, record: Record, round_seconds: float, stop: threading.Event
) -> None:
    """A table through its round: 18 deals at the round's pace, each waiting in
    order until the server takes it (the score page's queue, for a link)."""
    rng = random.Random(index)
    mid = plan["match"]
    by_link = "link" in plan
    auth = f"Link {plan['link']}" if by_link else f"Token {plan['token']}"
    kind = "record a deal by link" if by_link else "record a deal"
    deals = _deals(mid)
    step = round_seconds / len(deals)
    start = time.monotonic() + rng.uniform(0, step)
    version = _sheet(record, auth, mid, stop).get("version", 0)
    queue: list[dict] = []  # entries waiting on the phone, in order
    due = 0  # the next deal to be entered
    next_try = 0.0
    while (due < len(deals) or queue) and not stop.is_set():
        now = time.monotonic()
        if due < len(deals) and now >= start + due * step:
            queue.append({"body": deals[due], "key": str(uuid.uuid4())})
            due += 1
            continue
        if queue and now >= next_try:
            entry = queue[0]
            got = call(
                record,
                kind,
                "POST",
                f"/api/v1/matches/{mid}/deals/",
                auth=auth,
                body={**entry["body"], "version": version},
                key=entry["key"],
                expected=frozenset({201}),
            )
            if got.status == 201:
                version = got.data["version"]
                queue.pop(0)
                with record.lock:
                    record.writes_ok.append(got.started)
                if got.replayed:
                    record.event(f"{kind}: sent again, answered as done (replayed)")
                continue
            if got.status == 409 and got.data.get("code") == "stale_version":
                sheet = _sheet(record, auth, mid, stop)
                version = sheet.get("version", version)
                there = any(
                    all(d[k] == entry["body"][k] for k in DEAL_KEYS)
                    for d in sheet.get("deals", [])
                )
                if there:
                    record.event(f"{kind}: 409 stale, the sheet had it already")
                    queue.pop(0)
                else:
                    record.event(f"{kind}: 409 stale, sent again on the new version")
                    entry["key"] = str(uuid.uuid4())  # a new request (score/send.js)
                continue
            if got.status in (0, 408, 429) or got.status >= 500:
                record.event(f"{kind}: no answer or {got.status}, kept and sent later")
                next_try = time.monotonic() + _wait(got) * rng.uniform(0.8, 1.2)
                continue
            with record.lock:
                record.wrong.append(f"match {mid}: deal {entry['body']['number']} lost")
            queue.pop(0)
            continue
        waits = [next_try - now] if queue else []
        if due < len(deals):
            waits.append(start + due * step - now)
        time.sleep(min(max(min(waits), 0.01), 0.5))


def _spectators(
    record: Record, count: int, every: float, stop: threading.Event, seed: int
) -> None:
    """`count` spectators, each polling the standings every `every` seconds with
    the ETag it holds."""
    rng = random.Random(seed)
    now = time.monotonic()
    due = sorted((now + rng.uniform(0, every), i) for i in range(count))
    tags: dict[int, str] = {}
    path = f"/api/v1/tournaments/{SLUG}/standings/"
    while not stop.is_set():
        at, who = due.pop(0)
        wait = at - time.monotonic()
        if wait > 0 and stop.wait(min(wait, 0.5)):
            break
        if wait > 0.5:
            due.insert(0, (at, who))
            continue
        got = call(
            record,
            "poll the standings",
            "GET",
            path,
            etag=tags.get(who),
            expected=frozenset({200, 304}),
        )
        if got.status == 200 and "_etag" in got.data:
            tags[who] = got.data["_etag"]
        later = at + every if got.status in (200, 304) else at + _wait(got)
        due.append((max(later, time.monotonic()), who))
        due.sort()


def _bare(record: Record, token: str, stop: threading.Event) -> None:
    """The baseline: a bare DRF POST through the same proxy, now and then."""
    while not stop.wait(0.05):
        call(
            record,
            "bare DRF request",
            "POST",
            "/bench/bare/",
            auth=f"Token {token}",
            body={"i": 1},
            expected=frozenset({201}),
        )


# The faults
# ----------------------------------------------------------------------------------


@dataclass
class Fault:
    name: str
    key: str
    down_at: float = 0.0
    back_at: float = 0.0
    recovered: float | None = None  # seconds from back_at to the first write taken
    note: str = ""


def _recovery(record: Record, fault: Fault) -> None:
    """Seconds from the part's return until a deal write sent after it is taken."""
    deadline = fault.back_at + RECOVERED_WITHIN
    while time.monotonic() < deadline:
        with record.lock:
            after = [t for t in record.writes_ok if t >= fault.back_at]
        if after:
            fault.recovered = min(after) - fault.back_at
            return
        time.sleep(0.05)


def _workbook(
    stack: Stack, record: Record, token: str, fault: Fault, down: float
) -> None:
    """The organizer asks for the workbook; the worker is killed while it builds it,
    and a new one starts `down` seconds later. The job must end done."""
    auth = f"Token {token}"
    path = f"/api/v1/tournaments/{SLUG}/exports/"
    asked = call(record, "request the workbook", "POST", path, auth=auth,
                 expected=frozenset({200, 202}))  # fmt: skip
    if asked.status != 202:
        fault.note = f"the workbook was not queued: {asked.status} {asked.data}"
        return
    job = asked.data

    def polled() -> dict:
        where = f"/api/v1/exports/{job['id']}/"
        return call(record, "poll the workbook", "GET", where, auth=auth).data or job

    deadline = time.monotonic() + 120
    while job.get("status") == "queued" and time.monotonic() < deadline:
        time.sleep(0.05)
        job = polled()
    if job.get("status") != "running":
        fault.note = (
            f"the job was {job.get('status')} before the worker could be killed"
        )
    fault.down_at = time.monotonic()
    stack.worker_kill()
    time.sleep(down)
    stack.worker_start()
    fault.back_at = time.monotonic()
    deadline = fault.back_at + 180
    while time.monotonic() < deadline:
        job = polled()
        if job.get("status") in ("done", "failed"):
            break
        time.sleep(0.25)
    if job.get("status") == "done":
        fault.recovered = time.monotonic() - fault.back_at
        got = call(record, "fetch the workbook", "GET", job["file"], auth=auth)
        if got.status != 200:
            fault.note = f"the finished workbook answered {got.status}"
    else:
        fault.note = f"the killed job ended {job.get('status')}: {job.get('error', '')}"


def _outage(
    record: Record, fault: Fault, stop, start, seconds: float, faults: list[Fault]
) -> None:
    """A part stopped for `seconds`, started again, and the writes watched until
    they are taken again."""
    fault.down_at = time.monotonic()
    stop()
    time.sleep(seconds)
    start()
    fault.back_at = time.monotonic()
    _recovery(record, fault)
    faults.append(fault)


def _inject(stack: Stack, record: Record, plan: dict, args, faults: list[Fault]):
    """The four faults, one after the other, each once writes have recovered."""
    gap = max(2.0, args.round * 0.06)
    time.sleep(gap)
    web = Fault("a web instance killed (kill -9)", "faults.web")
    _outage(record, web, lambda: stack.web_kill(0), lambda: stack.web_start(0),
            args.web_down, faults)  # fmt: skip
    time.sleep(gap)
    database = Fault("PostgreSQL stopped", "faults.database")
    _outage(record, database, stack.pg_stop, stack.pg_start, args.db_down, faults)
    time.sleep(gap)
    cache = Fault("Redis stopped", "faults.redis")
    _outage(record, cache, stack.redis_stop, stack.redis_start, args.redis_down, faults)
    time.sleep(gap)
    worker = Fault("the Celery worker killed mid-workbook", "faults.worker")
    _workbook(stack, record, plan["organizer"], worker, args.worker_down)
    faults.append(worker)


# Setup and check (child processes, on the stack's database)
# ----------------------------------------------------------------------------------


def _setup(teams: int, tables: int) -> dict:
    """The 500-team league drawn and released, its tables' links, a token per table
    that scores by token, and the organizer's."""
    return league_plans(teams, tables, slug=SLUG, name="faults", rounds=(1,))


def league_plans(
    teams: int, tables: int, *, slug: str, name: str, rounds: tuple[int, ...]
) -> dict:
    """A league of `teams` drawn and released (in a child process); for each of
    `rounds`, its first `tables` tables, every LINK_EVERYth by its link and the
    others by a scorer's token ("tables": the first round's); the organizer's
    token."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from scoring.league import services
    from scoring.links.services import links_ensure
    from scoring.models import Match
    from tournament.models import Link, Membership, Tournament

    users = get_user_model().objects
    organizer = users.create_user(f"{name}-organizer")
    tournament = Tournament.objects.create(
        name=f"{name.title()} Open", slug=slug, league_deals=18, published=True
    )
    Membership.objects.create(tournament=tournament, user=organizer, role="organizer")
    league_field(tournament, teams)
    services.league_draw_generate(tournament=tournament, user=organizer, seed=56)
    services.league_rounds_release_all(tournament=tournament, user=organizer)
    played = [
        list(
            Match.objects.filter(tournament=tournament, round=number).order_by("table")[
                :tables
            ]
        )
        for number in rounds
    ]
    links_ensure(
        tournament=tournament, tables=max(m.table for ms in played for m in ms)
    )
    keys = dict(
        Link.objects.filter(tournament=tournament, kind="table").values_list(
            "table", "key"
        )
    )
    plans: list[list[dict]] = []
    for number, matches in zip(rounds, played, strict=True):
        plans.append([])
        for i, match in enumerate(matches):
            if i % LINK_EVERY == 1:
                plans[-1].append({"match": match.pk, "link": keys[match.table]})
                continue
            scorer = users.create_user(f"{name}-scorer-{number}-{i}")
            Membership.objects.create(tournament=tournament, user=scorer, role="scorer")
            plans[-1].append(
                {"match": match.pk, "token": Token.objects.create(user=scorer).key}
            )
    return {
        "tables": plans[0],
        "rounds": plans,
        "organizer": Token.objects.create(user=organizer).key,
    }


def _check(match_ids: list[int]) -> list[str]:
    """Every sheet of the round: exactly the deals its scorers entered, once each,
    scored as the rules engine scores them, one history row per deal."""
    import django

    django.setup()
    from scoring.models import Deal, Match, SheetChange

    problems = []
    matches = Match.objects.in_bulk(match_ids)
    for mid in match_ids:
        match = matches[mid]
        wanted = _deals(mid)
        stored = list(Deal.objects.filter(match=match).order_by("number"))
        got = [{k: getattr(d, k) for k in DEAL_KEYS} for d in stored]
        if got != wanted:
            problems.append(
                f"match {mid}: {len(got)} deals stored, not the 18 entered"
                if len(got) != len(wanted)
                else f"match {mid}: a deal differs from what the scorer entered"
            )
            continue
        history = Counter(
            SheetChange.objects.filter(match=match).values_list("action", flat=True)
        )
        history.pop("match_create", None)  # the draw's, before the round
        if history != Counter({"deal_add": 18}):
            problems.append(f"match {mid}: history {dict(history)}, not 18 deal_add")
        problems += scored_as_the_rules(match, stored, wanted, [])
    return problems


# The run
# ----------------------------------------------------------------------------------


def _quantile(samples: list[float], q: int) -> float:
    if not samples:
        return 0.0
    if len(samples) < 2:
        return samples[0] * 1000
    return statistics.quantiles(samples, n=100, method="inclusive")[q - 1] * 1000


def _windows(faults: list[Fault]) -> list[tuple[float, float]]:
    """When something failed: from half a second before each fault until two
    seconds after its part's work came back."""
    return [
        (f.down_at - 0.5, f.back_at + (f.recovered or RECOVERED_WITHIN) + 2)
        for f in faults
        if f.down_at
    ]


def _calm(record: Record, kind: str, faults: list[Fault], ok: set[int]) -> list[float]:
    """The latencies of `kind`'s answers in `ok` whose whole request fell while
    nothing failed."""
    windows = _windows(faults)
    return [
        seconds
        for started, seconds, status in record.samples[kind]
        if status in ok
        and not any(started <= b and started + seconds >= a for a, b in windows)
    ]


def run(session: Session, argv: list[str]) -> list[Figure]:
    parser = argparse.ArgumentParser(prog="python -m bench faults")
    parser.add_argument("--teams", type=int, default=500)
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--poll-seconds", type=float, default=5.0)
    parser.add_argument("--round", type=float, default=150.0)
    parser.add_argument("--web-down", type=float, default=5.0)
    parser.add_argument("--db-down", type=float, default=10.0)
    parser.add_argument("--redis-down", type=float, default=30.0)
    parser.add_argument("--worker-down", type=float, default=5.0)
    parser.add_argument("--web-workers", type=int, default=3)
    args = parser.parse_args(argv)
    print(
        f"bench: faults on the day, round 1 of a {args.teams}-team league at "
        f"{args.tables} tables (every {LINK_EVERY}rd by its link), {args.spectators} "
        f"spectators polling every {args.poll_seconds:g} s, through Caddy to two "
        f"gunicorn instances of {args.web_workers} workers"
    )
    started = time.perf_counter()
    stack = Stack.opened(session, "faults", args.web_workers)
    faults: list[Fault] = []
    try:
        plan = run_module(
            "bench.faults",
            stack.db_url,
            "--child",
            "setup",
            str(args.teams),
            str(args.tables),
        )
        for i in range(2):
            stack.web_start(i)
        stack.worker_start()
        stack.beat_start()
        stack.proxy_start()
        took = time.perf_counter() - started
        print(f"  the topology up and the league drawn in {took:.1f} s")
        record = Record(stack.proxy_port)
        elapsed = _round(stack, record, plan, args, faults)
        match_ids = [t["match"] for t in plan["tables"]]
        problems = run_module(
            "bench.faults", stack.db_url, "--child", "check", json.dumps(match_ids)
        )
    except BenchFailed:
        for name in ("web1", "web2", "worker", "beat", "proxy"):
            print(f"  --- {name}.log ---\n{stack.log_tail(name)}")
        raise
    finally:
        stack.close()
    return _report(args, record, faults, problems, elapsed)


def _round(stack: Stack, record: Record, plan: dict, args, faults: list[Fault]):
    stop = threading.Event()
    tables = [
        threading.Thread(
            target=_table, args=(t, i, record, args.round, stop), name=f"table-{i}"
        )
        for i, t in enumerate(plan["tables"])
    ]
    groups = max(1, min(16, args.spectators // 25))
    others = [
        threading.Thread(
            target=_spectators,
            args=(record, args.spectators // groups, args.poll_seconds, stop, g),
            name=f"spectators-{g}",
        )
        for g in range(groups)
    ]
    others.append(
        threading.Thread(
            target=_bare, args=(record, plan["organizer"], stop), name="bare"
        )
    )
    started = record.started = time.monotonic()
    injected: list[BaseException] = []

    def inject() -> None:
        try:
            _inject(stack, record, plan, args, faults)
        except BaseException as error:  # reported below, in the bench's thread
            injected.append(error)

    injector = threading.Thread(target=inject, name="faults")
    try:
        for t in [*tables, *others, injector]:
            t.start()
        injector.join()
        deadline = time.monotonic() + max(args.round * 3, 120)
        for t in tables:
            t.join(timeout=max(0.0, deadline - time.monotonic()))
        late = sum(t.is_alive() for t in tables)
        if late:
            raise BenchFailed(f"{late} tables had not finished their round in time")
    finally:
        stop.set()
        for t in [*tables, *others, injector]:
            if t.is_alive():
                t.join()
    if injected:
        raise BenchFailed(f"injecting the faults failed: {injected[0]!r}")
    return time.monotonic() - started


def _report(
    args, record: Record, faults: list[Fault], problems, elapsed
) -> list[Figure]:
    deal_kinds = ("record a deal", "record a deal by link")
    deals = [s for k in deal_kinds for s in _calm(record, k, faults, {201})]
    bare = _calm(record, "bare DRF request", faults, {201})
    polls = _calm(record, "poll the standings", faults, {304})
    asked = args.spectators / args.poll_seconds
    # Held while nothing failed (while a part is down a spectator waits Retry-After):
    # the polls answered in the calm time, over that time.
    answered = _calm(record, "poll the standings", faults, {200, 304})
    calm = elapsed - sum(
        min(b, record.started + elapsed) - max(a, record.started)
        for a, b in _windows(faults)
        if b > record.started
    )
    held = len(answered) / max(calm, 1.0)
    print(f"  the round ran {elapsed:.1f} s")
    for f in faults:
        came = f"{f.recovered:.2f} s" if f.recovered is not None else "never"
        print(
            f"  {f.name}: down {f.back_at - f.down_at:.1f} s; "
            + ("job done" if f.key == "faults.worker" else "writes taken again")
            + f" {came} after it came back"
            + (f" ({f.note})" if f.note else "")
        )
    by_kind = Counter()
    for (kind, status), n in record.statuses.items():
        by_kind[f"{kind} {status}"] += n
    print("  answers: " + ", ".join(f"{k}: {n}" for k, n in sorted(by_kind.items())))
    for name, count in sorted(record.events.items()):
        print(f"  {name}: {count}")
    print(f"  answers not as the API promises: {len(record.wrong)}")
    for line in record.wrong[:10]:
        print(f"    {line}")
    print(
        f"  check: {len(problems)} of {args.tables} sheets not as entered"
        + ("" if problems else " (every deal once, as entered, scored right)")
    )
    for line in problems[:10]:
        print(f"    {line}")
    print(
        f"  standings polls while nothing failed: {held:.0f}/s answered of "
        f"{asked:.0f}/s asked ({len(polls)} 304s), the 304s' p50 "
        f"{_quantile(polls, 50):.1f} ms, p99 {_quantile(polls, 99):.1f} ms"
    )
    figures = [
        Figure("faults.answers", "faults: answers not as the API promises",
               len(record.wrong), ""),
        Figure("faults.sheets", "faults: sheets not exactly as entered",
               len(problems), ""),
    ]  # fmt: skip
    for f in faults:
        figures.append(
            Figure(
                f.key,
                FIGURE_NAMES[f.key],
                f.recovered if f.recovered is not None else RECOVERED_WITHIN * 10,
                "s",
            )
        )
    bare_p50, bare_p99 = _quantile(bare, 50), _quantile(bare, 99)
    figures += [
        Figure("faults.write50", "faults: a deal write through the proxy, p50",
               _quantile(deals, 50), "ms", "a bare DRF request, p50", bare_p50),
        Figure("faults.write99", "faults: a deal write through the proxy, p99",
               _quantile(deals, 99), "ms", "a bare DRF request, p99", bare_p99),
        Figure("faults.polls", "faults: standings polls asked per second",
               asked, "", "polls answered per second", held),
        Figure("faults.poll99", "faults: a standings poll (304), p99",
               _quantile(polls, 99), "ms"),
    ]  # fmt: skip
    failed = [f for f in faults if f.recovered is None]
    if record.wrong or problems or failed or len(faults) < 4:
        raise BenchFailed(
            f"{len(record.wrong)} answers not as promised, {len(problems)} sheets "
            f"not as entered, {len(failed)} parts whose work did not come back",
            figures,
        )
    return figures


if __name__ == "__main__":
    if sys.argv[1:3] == ["--child", "setup"]:
        print(json.dumps(_setup(int(sys.argv[3]), int(sys.argv[4]))))
    elif sys.argv[1:3] == ["--child", "check"]:
        print(json.dumps(_check(json.loads(sys.argv[3]))))
