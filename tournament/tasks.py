"""Background tasks of the tournament app. A task takes ids and calls
services/selectors."""

from celery import shared_task

from .models import Tournament


@shared_task(name="tournament.health_check")
def health_check() -> dict:
    """Proves a worker is consuming the queue and can reach the database."""
    return {"worker": "ok", "tournaments": Tournament.objects.count()}
