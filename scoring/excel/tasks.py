"""The workbook's background tasks: building an export job, and the periodic resend
of orphaned jobs. A task takes ids and calls a service; the services send a task by
its name (`task_send("scoring.export_build", …)`), so they never import this module
(scoring/apps.py imports it, so that every process knows the tasks)."""

from celery import shared_task
from django.utils import translation

from tournament.ops.tasks import periodic_attempt

from . import services as excel_services


@shared_task(
    bind=True,
    name=excel_services.EXPORT_BUILD,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    # The database gone mid-build: tried again, waiting 2, 4, 8… seconds (at most a
    # minute) while it comes back; the job is back in the queue meanwhile, or, if
    # the database never said so, an orphan that a live worker sends again.
    autoretry_for=excel_services.DATABASE_GONE,
    retry_backoff=2,
    retry_backoff_max=60,
    retry_jitter=False,
    max_retries=8,
)
def export_build(self, job_id: int) -> dict:
    """Build the tournament workbook of export job `job_id` (docs/exports.md), in
    English whichever page asked for it (in the embedded default the task runs inside
    that page's request): its sheets and columns are a file format
    (docs/glossary.md). A worker's run marks the worker seen as the job beats; an
    eager one is the request itself."""
    with translation.override("en"):
        job = excel_services.export_run(job_id=job_id, beat=not self.request.is_eager)
    return {"job": job_id, "status": job.status if job is not None else "skipped"}


@shared_task(name="scoring.export_orphans_resend", ignore_result=True)
def export_orphans_resend_task() -> bool:
    """Send again the workbook jobs that nobody works on (their worker killed, their
    task lost with Redis's queue): Celery beat sends this every WORKER_BEAT_SECONDS
    (tournament/ops/schedule.py). Whether the look worked; a failure is logged
    once."""
    return periodic_attempt(
        "send orphaned workbook jobs again", excel_services.export_orphans_resend
    )
