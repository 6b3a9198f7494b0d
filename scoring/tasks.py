"""Background tasks of score sheets. A task takes ids and calls a service."""

from celery import shared_task
from django.utils import translation

from .excel import services as excel_services


@shared_task(name="scoring.export_build", acks_late=True, reject_on_worker_lost=True)
def export_build(job_id: int) -> dict:
    """Build the tournament workbook of export job `job_id` (docs/exports.md), in
    English whichever page asked for it (in the embedded default the task runs inside
    that page's request): its sheets and columns are a file format
    (docs/glossary.md)."""
    with translation.override("en"):
        job = excel_services.export_run(job_id=job_id)
    return {"job": job_id, "status": job.status if job is not None else "skipped"}
