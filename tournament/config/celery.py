"""The Celery app. With no CELERY_BROKER_URL the tasks run eagerly in the calling
process.

A worker marks itself seen in the shared cache when it is ready, every
`WORKER_BEAT_SECONDS` after, and before each task, so that `GET /api/v1/health/` on
any web instance can say whether one was seen within the last minute
(tournament/health.py).
"""

import logging
import os
import threading

from celery import Celery
from celery.signals import task_prerun, worker_ready, worker_shutdown

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.config.settings")

app = Celery("fiftysix")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

log = logging.getLogger("tournament.worker")
_stopping = threading.Event()


def _mark_seen() -> None:
    from tournament.health import worker_seen

    try:
        worker_seen()
    except Exception:  # the cache is down: the health check will say so
        log.warning("could not mark the worker as seen in the cache", exc_info=True)


def _beat() -> None:
    from tournament.health import WORKER_BEAT_SECONDS

    while not _stopping.wait(WORKER_BEAT_SECONDS):
        _mark_seen()


@worker_ready.connect
def _worker_ready(**kwargs) -> None:
    _stopping.clear()
    _mark_seen()
    threading.Thread(target=_beat, name="worker-seen", daemon=True).start()


@worker_shutdown.connect
def _worker_shutdown(**kwargs) -> None:
    _stopping.set()


@task_prerun.connect
def _task_prerun(**kwargs) -> None:
    _mark_seen()
