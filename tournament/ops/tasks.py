"""The platform's periodic task, the worker's heartbeat, and what every periodic task
shares: a failure said once. Celery beat sends them (tournament/ops/schedule.py,
the app's `beat_schedule`); a worker runs them.

A periodic task that fails (the cache or the database down) says so in one warning
line when it starts failing and one when it works again, not a traceback every few
seconds: each worker process remembers what it last could not do (a prefork worker's
pool processes each say it once).
"""

import logging
from collections.abc import Callable

from celery import shared_task

from .health import worker_seen
from .schedule import WORKER_SEEN_TASK

log = logging.getLogger("tournament.worker")
_failing: set[str] = set()  # what this process's last try could not do


def periodic_attempt(what: str, do: Callable[[], object]) -> bool:
    """Do one periodic thing; whether it worked. Logs only when it starts failing,
    and when it works again."""
    try:
        do()
    except Exception as error:  # the cache or the database is down: say so, go on
        if what not in _failing:
            _failing.add(what)
            name = type(error).__name__
            log.warning("periodic task: could not %s (%s: %s)", what, name, error)
        return False
    if what in _failing:
        _failing.discard(what)
        log.warning("periodic task: can %s again", what)
    return True


@shared_task(name=WORKER_SEEN_TASK, ignore_result=True)
def worker_seen_task() -> bool:
    """The worker's heartbeat: the worker that runs it marks itself seen in the shared
    cache (GET /api/v1/health/). Sent every WORKER_BEAT_SECONDS by the beat."""
    return periodic_attempt("mark the worker as seen in the cache", worker_seen)
