"""Background tasks of score sheets. A task takes ids and calls a service."""

from celery import shared_task

from .excel import services as excel_services


@shared_task(name="scoring.export_build", acks_late=True, reject_on_worker_lost=True)
def export_build(job_id: int) -> dict:
    """Build the tournament workbook of export job `job_id` (docs/exports.md)."""
    job = excel_services.export_run(job_id=job_id)
    return {"job": job_id, "status": job.status if job is not None else "skipped"}
