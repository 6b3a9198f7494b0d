"""A workbook's job is built once and never left for nothing (docs/exports.md, "When a
worker dies"): a run claims the job and beats; a second run of the same job does
nothing while the first beats, and takes it over once the beat is stale; a job that
nobody works on is sent again by a live worker; the database lost mid-build puts
the job back in the queue; a job interrupted again and again stops, saying why.

Real workers killed mid-build: tests/scoring/apis/test_faults.py."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import OperationalError, connection
from django.utils import timezone

from scoring.excel import services
from scoring.models import ExportJob, Match
from scoring.tasks import export_build
from tests.scoring.excel import table, workbook


@pytest.fixture
def eager(monkeypatch):
    """Tasks run here and now, on either pass of the suite (the PostgreSQL pass has a
    broker, whose worker would not see this test's rows)."""
    from tournament.config.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", True)


def _stale() -> timezone.datetime:
    return timezone.now() - timedelta(seconds=60)


class _Held:
    """The workbook's build, held on its first call until let go: a run that is
    building, for as long as the test needs."""

    def __init__(self, monkeypatch) -> None:
        self.building = threading.Event()
        self.go = threading.Event()
        self.calls = 0
        real = services.tournament_workbook

        def held(**kwargs):
            self.calls += 1
            if self.calls == 1:
                self.building.set()
                assert self.go.wait(30)
            return real(**kwargs)

        monkeypatch.setattr(services, "tournament_workbook", held)


def _in_thread(job_id: int, found: dict, *, beat: bool) -> threading.Thread:
    def run() -> None:
        try:
            found["job"] = services.export_run(job_id=job_id, beat=beat)
        finally:
            connection.close()  # this thread's own

    thread = threading.Thread(target=run)
    thread.start()
    return thread


@pytest.mark.django_db(transaction=True)
def test_a_second_run_of_a_job_being_built_does_nothing(
    played_league, monkeypatch, settings
):
    """The broker gives a task twice (its visibility timeout, a worker's beat): the
    copy finds the job running with a fresh beat and leaves it; the first run,
    beating all along, builds it once."""
    settings.EXPORT_BEAT_SECONDS = 0.1
    held = _Held(monkeypatch)
    job = ExportJob.objects.create(tournament=played_league, beat_at=timezone.now())
    first: dict = {}
    thread = _in_thread(job.pk, first, beat=True)
    try:
        assert held.building.wait(30)
        claimed = ExportJob.objects.get(pk=job.pk)
        assert (claimed.status, claimed.attempts) == ("running", 1)
        assert services.export_run(job_id=job.pk) is None
        # Held, the build still beats.
        for _ in range(100):
            if ExportJob.objects.get(pk=job.pk).beat_at > claimed.beat_at:
                break
            threading.Event().wait(0.05)
        assert ExportJob.objects.get(pk=job.pk).beat_at > claimed.beat_at
    finally:
        held.go.set()
        thread.join(30)
    assert first["job"].status == "done"
    job.refresh_from_db()
    assert (job.status, job.attempts, held.calls) == ("done", 1, 1)
    assert services.export_run(job_id=job.pk) is None  # done: built once


@pytest.mark.django_db(transaction=True)
def test_a_run_whose_job_was_taken_over_writes_nothing(played_league, monkeypatch):
    """A run that stopped beating (stalled, not dead) loses the job to the next run;
    when it wakes up it writes neither its progress nor its file."""
    held = _Held(monkeypatch)
    job = ExportJob.objects.create(tournament=played_league, beat_at=timezone.now())
    stalled: dict = {}
    thread = _in_thread(job.pk, stalled, beat=False)
    try:
        assert held.building.wait(30)
        ExportJob.objects.filter(pk=job.pk).update(beat_at=_stale())
        second = services.export_run(job_id=job.pk)
        assert (second.status, second.attempts) == ("done", 2)
        built = bytes(ExportJob.objects.get(pk=job.pk).content)
    finally:
        held.go.set()
        thread.join(30)
    assert stalled["job"] is None
    job.refresh_from_db()
    assert (job.status, job.attempts, bytes(job.content)) == ("done", 2, built)


@pytest.mark.django_db
def test_a_live_worker_sends_orphaned_jobs_again(played_league, eager):
    """What a worker's beat does: a job running with a stale beat (its worker was
    killed) and one queued long ago (its task lost with Redis's queue) are built;
    jobs with a fresh beat, and finished ones, are left alone."""
    matches = Match.objects.filter(tournament=played_league).count()

    def job(status: str, beat_at, attempts: int = 0) -> ExportJob:
        return ExportJob.objects.create(
            tournament=played_league,
            status=status,
            beat_at=beat_at,
            attempts=attempts,
            total=matches,
            progress=1 if status == "running" else 0,
        )

    killed = job("running", _stale(), attempts=1)
    lost = job("queued", _stale())
    building = job("running", timezone.now(), attempts=1)
    waiting = job("queued", timezone.now())
    failed = job("failed", _stale(), attempts=1)
    assert set(services.export_orphans()) == {killed, lost}

    assert services.export_orphans_resend() == 2
    for orphan, attempts in ((killed, 2), (lost, 1)):
        orphan.refresh_from_db()
        assert (orphan.status, orphan.attempts) == ("done", attempts)
        book = workbook(bytes(orphan.content))
        assert len(table(book, "Score sheets")) >= matches
    for left in (building, waiting, failed):
        before = (left.status, left.attempts, left.beat_at)
        left.refresh_from_db()
        assert (left.status, left.attempts, left.beat_at) == before
    assert services.export_orphans_resend() == 0


@pytest.mark.django_db
def test_the_database_lost_mid_build_puts_the_job_back_in_the_queue(
    played_league, monkeypatch, eager
):
    """Not the build's fault: the job is not failed, but queued again for the
    task's retry, which builds it."""
    real = services.tournament_workbook
    calls = []

    def cut_once(**kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return real(**kwargs)

    monkeypatch.setattr(services, "tournament_workbook", cut_once)
    job = ExportJob.objects.create(tournament=played_league, beat_at=timezone.now())
    with pytest.raises(OperationalError):
        services.export_run(job_id=job.pk)
    job.refresh_from_db()
    assert (job.status, job.progress, job.attempts, job.error) == ("queued", 0, 1, "")

    # Through the task, as a worker runs it: the retry builds it.
    calls.clear()
    again = ExportJob.objects.create(tournament=played_league, beat_at=timezone.now())
    export_build.apply(args=[again.pk], throw=False)  # as a worker: retried
    again.refresh_from_db()
    assert (again.status, again.attempts, len(calls)) == ("done", 2, 2)


@pytest.mark.django_db
def test_a_job_interrupted_again_and_again_stops_and_says_why(played_league):
    job = ExportJob.objects.create(
        tournament=played_league,
        status="running",
        beat_at=_stale(),
        attempts=services.EXPORT_ATTEMPTS,
    )
    assert services.export_run(job_id=job.pk) is None
    job.refresh_from_db()
    assert job.status == "failed"
    assert "interrupted 3 times" in job.error
    assert job not in services.export_orphans()


@pytest.fixture
def played_league(db):
    from tests.brackets.knockout import final_league

    return final_league(2, 3, qualifiers=4, slug="beat-cup")[0]
