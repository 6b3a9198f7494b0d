"""The Celery app. With no CELERY_BROKER_URL the tasks run eagerly in the calling
process, and nothing is periodic (no worker, no beat: `make run`).

The site's periodic work is Celery beat's (`celery beat`, one instance: the `beat` role
of docs/deploy.md), which sends these tasks on the schedule below; a worker runs them:

- every `WORKER_BEAT_SECONDS`, `tournament.worker_seen` marks the worker that runs it
  seen in the shared cache (each other task marks it too, before it runs), so that
  `GET /api/v1/health/` on any web instance can say whether one was seen within the
  last minute (tournament/ops/health.py);
- every `WORKER_BEAT_SECONDS`, `scoring.export_orphans_resend` sends again the
  workbook jobs that nobody works on any more, their worker killed or their task
  lost with Redis's queue (scoring/excel/tasks.py), so that such a job is built
  within seconds of a worker being alive, not after the broker's visibility timeout;
- every `CATCH_UP_SECONDS`, `scoring.ratings_catch_up_check` looks whether the stored
  ratings are behind the sheets because a sheet's refresh was lost, and sends a
  catch-up if so (scoring/ratings/tasks.py).

Each expires after its own interval: sent while no worker runs, it is dropped rather
than piling up for the next worker, which the next send finds anyway. A periodic task
that fails (the cache or the database down) says so in one warning line when it starts
failing and one when it works again, not a traceback every few seconds
(tournament/ops/tasks.py, `periodic_attempt`).

A worker logs through the site's LOGGING (one JSON object a line in production, keys
cut: tournament/ops/logs.py), never handlers of Celery's own: see `_site_logging`.
"""

import logging
import os

from celery import Celery
from celery.signals import (
    celeryd_after_setup,
    celeryd_init,
    setup_logging,
    task_prerun,
)

from tournament.ops.schedule import (
    BEAT_SCHEDULE,
    PERIODIC_TASKS,
    WORKER_SEEN_TASK,
)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.config.settings")


app = Celery("fiftysix")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# The periodic tasks of packages that are not apps of their own.
app.autodiscover_tasks(
    ["tournament.ops", "tournament.backups", "scoring.excel", "scoring.ratings"]
)


app.conf.beat_schedule = BEAT_SCHEDULE


class PeriodicQuiet(logging.Filter):
    """Celery's routine INFO lines about the periodic tasks (the beat's "Sending due
    task", a worker's "Task … received" and "… succeeded") are not written: about 80 a
    minute that say nothing. Their failures, and every line of the other tasks, are
    (settings.LOGGING's console handler)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.INFO or not record.name.startswith("celery."):
            return True
        message = record.getMessage()
        return not any(task in message for task in PERIODIC_TASKS)


@task_prerun.connect
def _task_prerun(sender=None, **kwargs) -> None:
    """Any task run is a sign of a live worker (the heartbeat marks it in its body)."""
    if sender is not None and sender.name == WORKER_SEEN_TASK:
        return
    from tournament.ops.health import worker_seen
    from tournament.ops.tasks import periodic_attempt

    periodic_attempt("mark the worker as seen in the cache", worker_seen)


@setup_logging.connect
def _site_logging(**kwargs) -> None:
    """Celery configures no logging of its own: django.setup(), which Celery's Django
    fixup runs before this signal, has applied the site's LOGGING. Left to itself
    (CELERY_WORKER_HIJACK_ROOT_LOGGER=False is not enough), Celery would give its
    task logger and billiard's handlers of its own, printing plain lines."""


@celeryd_init.connect
def _worker_words_as_lines(**kwargs) -> None:
    """In production's format, the worker's words on a shutdown or a restart (written
    to the stream, not logged) are lines of the log too."""
    from django.conf import settings

    if settings.LOG_FORMAT == "json":
        from celery.apps import worker

        from tournament.ops.logs import say

        worker.safe_say = say


@celeryd_after_setup.connect
def _prints_as_lines(**kwargs) -> None:
    """In production's format, whatever a task or a library prints is a WARNING
    line of the log (`celery.redirected`), as Celery does by default when it
    configures the logging itself."""
    from django.conf import settings

    if settings.LOG_FORMAT == "json" and app.conf.worker_redirect_stdouts:
        app.log.redirect_stdouts(app.conf.worker_redirect_stdouts_level)
