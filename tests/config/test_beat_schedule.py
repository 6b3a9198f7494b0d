"""The site's periodic work is Celery beat's (tournament/config/celery.py): the
schedule names each periodic task with its interval, each task does its capability's
work, a task of any kind marks the worker seen, and a periodic task that fails says
so once when it starts failing and once when it works again."""

from __future__ import annotations

import logging

import pytest
from django.core.cache import cache

from scoring.excel import tasks as scoring_tasks
from scoring.ratings import tasks as ratings_tasks
from tournament.config.celery import app
from tournament.ops import health
from tournament.ops import tasks as ops_tasks
from tournament.ops.schedule import CATCH_UP_SECONDS, WORKER_BEAT_SECONDS

PERIODIC = {
    "worker-seen": ("tournament.worker_seen", WORKER_BEAT_SECONDS),
    "export-orphans-resend": ("scoring.export_orphans_resend", WORKER_BEAT_SECONDS),
    "ratings-catch-up-check": ("scoring.ratings_catch_up_check", CATCH_UP_SECONDS),
}


def test_the_schedule_names_each_periodic_task_and_its_interval():
    """The cadence of the worker's old beat: 5 s for the heartbeat and the orphaned
    workbook jobs, 30 s for the ratings; each send expires after its interval, so
    that sends no worker took do not pile up."""
    assert (WORKER_BEAT_SECONDS, CATCH_UP_SECONDS) == (5, 30)
    assert health.WORKER_BEAT_SECONDS == WORKER_BEAT_SECONDS  # importable there too
    schedule = app.conf.beat_schedule
    assert {
        name: (entry["task"], entry["schedule"]) for name, entry in schedule.items()
    } == PERIODIC
    for name, (_, seconds) in PERIODIC.items():
        assert schedule[name]["options"] == {"expires": seconds}
    app.loader.import_default_modules()  # what a worker imports
    for task, _ in PERIODIC.values():
        assert task in app.tasks, task
        assert app.tasks[task].ignore_result


@pytest.fixture
def calls(monkeypatch):
    """Each periodic task's work, recorded instead of done; `failing` makes it
    raise what a cache or a database that is down raises."""
    done: list[str] = []
    failing: set[str] = set()

    def work(name: str):
        def do() -> None:
            if name in failing:
                raise ConnectionError(f"{name}: Connection refused")
            done.append(name)

        return do

    monkeypatch.setattr(ops_tasks, "worker_seen", work("seen"))
    monkeypatch.setattr(
        scoring_tasks.excel_services, "export_orphans_resend", work("orphans")
    )
    monkeypatch.setattr(ratings_tasks, "ratings_catch_up_check", work("ratings"))
    monkeypatch.setattr(ops_tasks, "_failing", set())
    return done, failing


RUN = {
    "seen": ops_tasks.worker_seen_task,
    "orphans": scoring_tasks.export_orphans_resend_task,
    "ratings": ratings_tasks.ratings_catch_up_check_task,
}


@pytest.mark.parametrize("name", sorted(RUN))
def test_each_periodic_task_does_its_work(calls, name):
    done, _ = calls
    assert RUN[name].apply().get() is True
    assert name in done


@pytest.mark.parametrize("name", sorted(RUN))
def test_a_failing_periodic_task_says_so_once_and_once_when_it_works_again(
    calls, caplog, name
):
    done, failing = calls
    failing.add(name)
    with caplog.at_level(logging.WARNING, logger="tournament.worker"):
        assert [RUN[name].apply().get() for _ in range(3)] == [False] * 3
        said = [r.getMessage() for r in caplog.records if r.name == "tournament.worker"]
        assert len(said) == 1 and said[0].startswith("periodic task: could not ")
        assert "ConnectionError" in said[0] and "Connection refused" in said[0]
        failing.discard(name)
        assert [RUN[name].apply().get() for _ in range(2)] == [True, True]
    said = [r.getMessage() for r in caplog.records if r.name == "tournament.worker"]
    assert len(said) == 2 and said[1].startswith("periodic task: can ")
    assert done.count(name) == 2


@pytest.mark.django_db
def test_the_heartbeat_and_every_other_task_mark_the_worker_seen(monkeypatch):
    """What GET /api/v1/health/ reads: the heartbeat marks the worker that runs it,
    and any other task marks it before it runs (a busy worker is seen too)."""
    cache.clear()
    assert ops_tasks.worker_seen_task.apply().get() is True
    assert cache.get(health.WORKER_SEEN_KEY) is not None
    cache.clear()
    monkeypatch.setattr(ratings_tasks, "ratings_catch_up_check", lambda: None)
    assert ratings_tasks.ratings_catch_up_check_task.apply().get() is True
    assert cache.get(health.WORKER_SEEN_KEY) is not None


def test_celerys_routine_lines_about_the_periodic_tasks_are_not_written():
    """About 80 lines a minute that say nothing: the beat's sends, a worker's
    received and succeeded; the same about any other task, and a periodic task's
    failure, are written."""
    from tournament.config import settings as production
    from tournament.config.celery import PeriodicQuiet

    assert "periodic_quiet" in production.LOGGING["handlers"]["console"]["filters"]
    quiet = PeriodicQuiet()

    def line(logger: str, level: int, message: str, *args) -> bool:
        record = logging.LogRecord(logger, level, __file__, 1, message, args, None)
        return quiet.filter(record)

    sent = "Scheduler: Sending due task %s (%s)"
    assert not line(
        "celery.beat", logging.INFO, sent, "worker-seen", "tournament.worker_seen"
    )
    done = "Task %(name)s[%(id)s] succeeded in %(runtime)ss: %(return_value)s"
    for task, _ in PERIODIC.values():
        args = {"name": task, "id": "1", "runtime": 0.01, "return_value": True}
        assert not line("celery.app.trace", logging.INFO, done, args)
        assert line("celery.app.trace", logging.ERROR, done, args)
    args = {"name": "scoring.export_build", "id": "1", "runtime": 3, "return_value": {}}
    assert line("celery.app.trace", logging.INFO, done, args)
    assert line("tournament.worker", logging.WARNING, "periodic task: could not x")
