"""A workbook's job is built once and never left for nothing (docs/exports.md, "When a
worker dies"): a run claims the job and beats with its progress; a second run of the
same job does nothing while the first beats, and takes it over once the beat is
stale; a job that nobody works on is sent again by a live worker; the database lost
mid-build puts the job back in the queue; a job interrupted again and again stops,
saying why.

Real workers killed mid-build: tests/scoring/apis/test_faults.py."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import OperationalError, connection
from django.utils import timezone

from scoring.excel import services
from scoring.excel.tasks import export_build
from scoring.models import ExportJob, Match
from tests.scoring.excel import table, workbook
from tournament.ops.health import WORKER_SEEN_KEY


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


class _HeldAtProgress:
    """The workbook's build, held just after its first progress is told, until let
    go: a run that is building and has beaten, for as long as the test needs."""

    def __init__(self, monkeypatch) -> None:
        self.building = threading.Event()
        self.go = threading.Event()
        self.calls = 0
        real = services.tournament_workbook

        def held(*, progress, **kwargs):
            self.calls += 1
            first = self.calls == 1

            def told(done: int, total: int) -> None:
                progress(done, total)
                if first and not self.building.is_set():
                    self.building.set()
                    assert self.go.wait(30)

            return real(progress=told, **kwargs)

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
def test_a_second_run_of_a_job_being_built_does_nothing(played_league, monkeypatch):
    """The broker gives a task twice (its visibility timeout, a live worker's resend):
    the copy finds the job running with a fresh beat and leaves it; the first run,
    beating with its progress, builds it once."""
    held = _HeldAtProgress(monkeypatch)
    job = ExportJob.objects.create(tournament=played_league, beat_at=timezone.now())
    first: dict = {}
    thread = _in_thread(job.pk, first, beat=True)
    try:
        assert held.building.wait(30)
        claimed = ExportJob.objects.get(pk=job.pk)
        assert (claimed.status, claimed.attempts) == ("running", 1)
        # Its progress beat: written after the claim, with the progress.
        assert claimed.beat_at > job.beat_at and claimed.progress >= 1
        assert services.export_run(job_id=job.pk) is None
    finally:
        held.go.set()
        thread.join(30)
    assert first["job"].status == "done"
    job.refresh_from_db()
    assert (job.status, job.attempts, held.calls) == ("done", 1, 1)
    assert services.export_run(job_id=job.pk) is None  # done: built once


@pytest.mark.django_db
@pytest.mark.parametrize("beat", [True, False])
def test_a_build_beats_with_its_progress_at_least_every_export_beat_seconds(
    played_league, monkeypatch, settings, beat
):
    """No thread beats beside the build: its progress writes the beat, when enough
    score sheets are done (a fiftieth) or EXPORT_BEAT_SECONDS have passed, whichever
    comes first; a worker's run (`beat`) marks the worker seen with each beat, so a
    worker busy with long builds is still seen."""
    settings.EXPORT_BEAT_SECONDS = 3600
    job = ExportJob.objects.create(tournament=played_league, beat_at=_stale())
    real = services.tournament_workbook
    rows: list[tuple] = []

    def stepped(*, progress, **kwargs):
        def row() -> tuple:
            found = ExportJob.objects.get(pk=job.pk)
            return found.progress, found.beat_at

        claimed = row()
        cache.clear()
        progress(1, 1000)  # 1 of a fiftieth (20), no time passed: nothing written
        rows.append((row(), cache.get(WORKER_SEEN_KEY)))
        progress(20, 1000)  # a fiftieth: written
        rows.append((row(), cache.get(WORKER_SEEN_KEY)))
        settings.EXPORT_BEAT_SECONDS = 0
        progress(21, 1000)  # one more only, but the time is up: written
        rows.append((row(), cache.get(WORKER_SEEN_KEY)))
        rows.insert(0, claimed)
        return real(progress=lambda done, total: None, **kwargs)

    monkeypatch.setattr(services, "tournament_workbook", stepped)
    assert services.export_run(job_id=job.pk, beat=beat).status == "done"
    claimed, (one, seen_one), (twenty, seen_twenty), (more, seen_more) = rows
    assert claimed[1] > job.beat_at  # the claim beats
    assert one == claimed and seen_one is None
    assert twenty[0] == 20 and twenty[1] > claimed[1]
    assert more[0] == 21 and more[1] > twenty[1]
    assert (seen_twenty is not None, seen_more is not None) == (beat, beat)


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
    """What the periodic resend does (scoring.export_orphans_resend, which Celery beat
    sends: tests/config/test_beat_schedule.py): a job running with a stale beat (its
    worker was killed) and one queued long ago (its task lost with Redis's queue) are
    built; jobs with a fresh beat, and finished ones, are left alone."""
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
