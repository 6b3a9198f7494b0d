"""Background tasks of the tournament app. A task takes ids and calls
services/selectors."""

from celery import shared_task

from tournament.ops.mail import mail_send  # noqa: F401  (tasks of other modules: the worker's too)
from tournament.web.security import password_reset_mail  # noqa: F401

from .backups import services as backup_services
from .models import Tournament


@shared_task(name="tournament.health_check")
def health_check() -> dict:
    """Proves a worker is consuming the queue and can reach the database."""
    return {"worker": "ok", "tournaments": Tournament.objects.count()}


@shared_task(name="tournament.sheet_copy_keep", ignore_result=True)
def sheet_copy_keep(match_ids: list[int]) -> int:
    """Keep a copy of each locked sheet for the next backup of its tournament
    (docs/backups.md): it then reuses the copy instead of reading the sheet again."""
    return backup_services.sheet_copies_keep(match_ids=match_ids)
