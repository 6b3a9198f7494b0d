"""The periodic tasks: their names and how often Celery beat sends each
(`BEAT_SCHEDULE`, the Celery app's `beat_schedule`: tournament/config/celery.py).
Plain values, no Django: the Celery app reads them before Django is set up, and the
health check, the tasks and the models read them too."""

WORKER_BEAT_SECONDS = 5  # a worker marked seen, orphaned workbook jobs looked for
CATCH_UP_SECONDS = 30  # the ratings looked at
WORKER_SEEN_TASK = "tournament.worker_seen"  # tournament/ops/tasks.py


def _every(seconds: int, task: str) -> dict:
    """Sent every `seconds`, and dropped when no worker takes it within them: the
    next send does the same work."""
    return {"task": task, "schedule": seconds, "options": {"expires": seconds}}


BEAT_SCHEDULE = {
    "worker-seen": _every(WORKER_BEAT_SECONDS, WORKER_SEEN_TASK),
    # scoring/excel/tasks.py
    "export-orphans-resend": _every(
        WORKER_BEAT_SECONDS, "scoring.export_orphans_resend"
    ),
    # scoring/ratings/tasks.py
    "ratings-catch-up-check": _every(
        CATCH_UP_SECONDS, "scoring.ratings_catch_up_check"
    ),
}
PERIODIC_TASKS = frozenset(entry["task"] for entry in BEAT_SCHEDULE.values())
