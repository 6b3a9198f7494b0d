"""The Celery app. With no CELERY_BROKER_URL the tasks run eagerly in the calling
process.

A worker beats from a thread of its main process: when it is ready, then every
`WORKER_BEAT_SECONDS`, it

- marks itself seen in the shared cache (and before each task too), so that
  `GET /api/v1/health/` on any web instance can say whether one was seen within the
  last minute (tournament/ops/health.py);
- sends again the workbook jobs that nobody works on any more, their worker killed
  or their task lost with Redis's queue (scoring/excel/services.py,
  export_orphans_resend), so that such a job is built within seconds of a worker
  being alive, not after the broker's visibility timeout;
- and, every few beats, looks whether the stored ratings are behind the sheets
  because a sheet's refresh was lost, and sends a catch-up if so
  (scoring/ratings/tasks.py, ratings_catch_up_check).

A beat that fails (the cache or the database down) says so in one warning line when
it starts failing and one when it works again, not a traceback every few seconds.

A worker logs through the site's LOGGING (one JSON object a line in production, keys
cut: tournament/ops/logs.py), never handlers of Celery's own: see `_site_logging`.
"""

import logging
import os
import threading
from collections.abc import Callable

from celery import Celery
from celery.signals import (
    celeryd_after_setup,
    celeryd_init,
    setup_logging,
    task_prerun,
    worker_ready,
    worker_shutdown,
)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.config.settings")

app = Celery("fiftysix")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

log = logging.getLogger("tournament.worker")
_stopping = threading.Event()
_failing: set[str] = set()  # what the last beat could not do


def _attempt(what: str, do: Callable[[], object]) -> None:
    """Do one part of a beat; log only when it starts failing, and when it is back."""
    try:
        do()
    except Exception as error:  # the cache or the database is down: say so, go on
        if what not in _failing:
            _failing.add(what)
            log.warning(
                "worker beat: could not %s (%s: %s)", what, type(error).__name__, error
            )
        return
    if what in _failing:
        _failing.discard(what)
        log.warning("worker beat: can %s again", what)


def _mark_seen() -> None:
    from tournament.ops.health import worker_seen

    _attempt("mark the worker as seen in the cache", worker_seen)


def _resend_orphans() -> None:
    from django.db import connection

    from scoring.excel.services import export_orphans_resend

    try:
        _attempt("send orphaned workbook jobs again", export_orphans_resend)
    finally:
        connection.close()  # this thread's own; a forked pool child never shares it


def _catch_up_ratings() -> None:
    from django.db import connection

    from scoring.ratings.tasks import ratings_catch_up_check

    try:
        _attempt("look whether the ratings are behind", ratings_catch_up_check)
    finally:
        connection.close()


def _beat() -> None:
    from scoring.ratings.tasks import CATCH_UP_BEATS
    from tournament.ops.health import WORKER_BEAT_SECONDS

    beats = 0
    while True:
        _mark_seen()
        _resend_orphans()
        beats += 1
        if beats % CATCH_UP_BEATS == 0:
            _catch_up_ratings()
        if _stopping.wait(WORKER_BEAT_SECONDS):
            return


@worker_ready.connect
def _worker_ready(**kwargs) -> None:
    _stopping.clear()
    threading.Thread(target=_beat, name="worker-beat", daemon=True).start()


@worker_shutdown.connect
def _worker_shutdown(**kwargs) -> None:
    _stopping.set()


@task_prerun.connect
def _task_prerun(**kwargs) -> None:
    _mark_seen()


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
