"""The tournament app's tasks module, which Celery finds: the worker's health check,
and the tasks of the platform's modules (mail, the password reset's mail), imported
so that every worker knows them. A capability's own tasks are beside it
(tournament/backups/tasks.py, scoring/excel/tasks.py, scoring/ratings/tasks.py)."""

from celery import shared_task

from tournament.ops.mail import mail_send  # noqa: F401  (tasks of other modules: the worker's too)
from tournament.web.security import password_reset_mail  # noqa: F401

from .models import Tournament


@shared_task(name="tournament.health_check")
def health_check() -> dict:
    """Proves a worker is consuming the queue and can reach the database."""
    return {"worker": "ok", "tournaments": Tournament.objects.count()}
