"""Faults on tournament day: the database failing in the middle of a write, a Celery
worker killed in the middle of building the workbook, and the database going away
in the middle of a build."""

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from unittest import mock

import pytest
from celery import Celery
from django.db import connection
from django.utils import timezone
from kombu import Connection

from scoring.models import Deal, ExportJob, Match, Penalty, SheetChange
from scoring.sheets import services
from tests.brackets.knockout import final_league
from tests.conftest import as_user
from tests.redis_server import RedisServer
from tests.scoring.apis.test_sheet import HAND_CHECKED, fill, sheet, url
from tests.scoring.conftest import deal_body
from tests.scoring.excel import table, workbook

ROOT = Path(__file__).resolve().parents[3]


def _history_table_gone(*args, **kwargs):
    """Where the history row would be written, a statement the database refuses:
    a real database error, after the deal and the match rows were written."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM scoring_history_that_is_not_there")


def _as_stored(match) -> tuple:
    return (
        list(Deal.objects.filter(match=match).order_by("number").values()),
        list(Penalty.objects.filter(deal__match=match).order_by("pk").values()),
        Match.objects.filter(pk=match.pk).values().get(),
        SheetChange.objects.filter(match=match).count(),
    )


WRITES = {
    "record a deal": lambda v: ("post", "deals/", {**deal_body(18), "version": v}),
    "replace a deal": lambda v: (
        "put",
        "deals/17/",
        {**deal_body(17, taken=10), "version": v},
    ),
    "add a penalty": lambda v: (
        "post",
        "penalties/",
        {"deal": 9, "offender": "A", "kind": "kallakali", "version": v},
    ),
    "delete a deal": lambda v: ("delete", f"deals/17/?version={v}", None),
}


@pytest.mark.django_db
@pytest.mark.parametrize("write", sorted(WRITES))
def test_a_database_error_mid_write_leaves_the_sheet_as_it_was(
    api, match, scorer, write
):
    as_user(api, scorer)
    version = fill(api, match, HAND_CHECKED[:17])
    before = _as_stored(match)
    shown = sheet(api, match)
    method, tail, body = WRITES[write](version)
    api.raise_request_exception = False
    with mock.patch.object(services, "change", _history_table_gone):
        failed = getattr(api, method)(url(match, tail), body, "json")
    assert failed.status_code == 503, failed.content
    assert failed.json()["code"] == "database_error"
    assert "nothing was saved" in failed.json()["detail"]
    assert failed["Retry-After"] == "5"
    assert _as_stored(match) == before
    assert sheet(api, match) == shown
    # Sent again once the database is back, it is done, once.
    again = getattr(api, method)(url(match, tail), body, "json")
    assert again.status_code in (200, 201), again.content
    assert SheetChange.objects.filter(match=match).count() == before[3] + 1


def _database_url() -> str:
    """The test database, as the worker process must reach it (named, on
    PostgreSQL, so that a test can cut its connections and no one else's)."""
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{s['NAME']}"
    host = f"{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}"
    return f"postgres://{s['USER']}@{host}/{s['NAME']}?application_name={WORKER_NAME}"


WORKER_NAME = "fault-worker"


def _worker(broker: str, slow: float, **faults: str) -> subprocess.Popen:
    """A worker in a process group of its own: killing the group is a container
    dying, its main process and pool children at once."""
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "FAULT_BROKER_URL": broker,
        "FAULT_SLOW": str(slow),
        "DJANGO_SECRET_KEY": "tests-only-not-a-secret",
        "PYTHONPATH": str(ROOT),
        **faults,
    }
    return subprocess.Popen(
        [sys.executable, "-m", "tests.workers.export_worker"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def _stop(worker: subprocess.Popen, sig: int = signal.SIGKILL) -> None:
    """Signal the worker's whole process group; wait for its main process."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(worker.pid, sig)
    worker.wait(timeout=30)


def _group_gone(pgid: int, seconds: float = 10) -> bool:
    """Every process of the group is gone (a killed child lingers until reaped)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def _until(check, what: str, worker: subprocess.Popen, seconds: float = 60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        if worker.poll() is not None:
            break
        time.sleep(0.1)
    if worker.poll() is None:
        _stop(worker)
    said = worker.communicate(timeout=10)[1].decode()[-3000:]
    raise AssertionError(f"waited for {what}; the worker said:\n{said}")


def _under_way(job, worker) -> None:
    """The worker has claimed the job and written two score sheets of it."""
    _until(
        lambda: ExportJob.objects.filter(
            pk=job.pk, status="running", progress__gte=2
        ).exists(),
        "the build to be under way",
        worker,
    )


@pytest.fixture
def broker():
    """A Redis of the test's own, so that no other run's tasks meet these."""
    server = RedisServer()
    server.start()
    yield server.url(0)
    server.stop()


def _send(broker: str, job: ExportJob) -> None:
    """The export's task, as export_request sends it."""
    sender = Celery(broker=broker, set_as_current=False)  # the site keeps its app
    # An explicit connection: Celery prefers $CELERY_BROKER_URL, the other broker of
    # the PostgreSQL pass, to the app's own.
    with Connection(broker) as conn:
        sender.send_task("scoring.export_build", args=[job.pk], connection=conn)


def _queued(tournament) -> tuple[ExportJob, int]:
    matches = Match.objects.filter(tournament=tournament).count()
    job = ExportJob.objects.create(
        tournament=tournament, total=matches, beat_at=timezone.now()
    )
    return job, matches


def _whole(api, job: ExportJob, matches: int) -> None:
    book = workbook(api.get(f"/api/v1/exports/{job.pk}/export.xlsx").content)
    listed = {row["Match id"] for row in table(book, "Score sheets")}
    assert len(listed) == matches


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_export_offers_no_file_and_a_new_one_builds_it(api, broker):
    """A real worker (a main process and its pool child, on a Redis of the test's
    own) is killed with SIGKILL, its whole process group, halfway through a build:
    the job offers no file, the page offers no download, and once its beat is stale
    a new worker's periodic resend sends it again and builds it from the start
    (attempt 2), in seconds: not after the broker's visibility timeout of 11
    minutes."""
    tournament, organizer = final_league(2, 3, qualifiers=4, slug="fault-cup")
    job, matches = _queued(tournament)
    slow = _worker(broker, slow=0.4)
    try:
        _send(broker, job)
        _under_way(job, slow)
        claimed = ExportJob.objects.get(pk=job.pk).beat_at
        _until(
            lambda: ExportJob.objects.filter(pk=job.pk, beat_at__gt=claimed).exists(),
            "the build to beat",
            slow,
        )
    finally:
        _stop(slow)
    killed = time.monotonic()
    assert _group_gone(slow.pid)
    job.refresh_from_db()
    assert (job.status, job.content, job.size) == ("running", None, 0)
    assert 2 <= job.progress < matches

    as_user(api, organizer)
    refused = api.get(f"/api/v1/exports/{job.pk}/export.xlsx")
    assert refused.status_code == 409
    assert refused.json()["code"] == "export_not_ready"
    api.force_login(organizer)
    page = api.get(f"/t/{tournament.slug}/excel/")
    assert f"/exports/{job.pk}/download" not in page.content.decode()

    fresh = _worker(broker, slow=0)
    try:
        _until(
            lambda: ExportJob.objects.filter(pk=job.pk, status="done").exists(),
            "the job to be built again",
            fresh,
            seconds=60,
        )
        took = time.monotonic() - killed
    finally:
        _stop(fresh, signal.SIGTERM)
    job.refresh_from_db()
    assert (job.attempts, job.progress, job.total) == (2, matches, matches)
    # EXPORT_STALE_SECONDS (15) for the beat to go stale, a periodic resend (5) to see
    # it, the build: about 20 seconds, with room for a slow machine.
    assert took < 40, took
    _whole(api, job, matches)


def _cut_the_workers_connections() -> int:
    """Those of this test's worker only: another xdist worker's fault worker, on its
    own test database, keeps its connections."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE application_name = %s AND datname = current_database()",
            [WORKER_NAME],
        )
        return cursor.fetchone()[0]


@pytest.mark.django_db(transaction=True)
def test_a_build_that_loses_the_database_is_built_again_not_left_running(api, broker):
    """The database goes away mid-build (on PostgreSQL its connections are cut; on
    SQLite the build raises what a lost connection raises): the job is not failed
    and does not stay running; the task tries again and the job ends done."""
    tournament, organizer = final_league(2, 3, qualifiers=4, slug="fault-cup")
    job, matches = _queued(tournament)
    postgres = connection.vendor == "postgresql"
    faults = {} if postgres else {"FAULT_DB_ONCE": "1"}
    worker = _worker(broker, slow=0.3, **faults)
    try:
        _send(broker, job)
        _under_way(job, worker)
        if postgres:
            assert _cut_the_workers_connections() >= 1
        _until(
            lambda: ExportJob.objects.filter(pk=job.pk, status="done").exists(),
            "the job to be built after the database came back",
            worker,
            seconds=60,
        )
    finally:
        _stop(worker, signal.SIGTERM)
    job.refresh_from_db()
    assert (job.status, job.error, job.attempts) == ("done", "", 2)
    as_user(api, organizer)
    _whole(api, job, matches)
