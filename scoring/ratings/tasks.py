"""The ratings' task: a refresh from a sheet's place on, or from the start."""

from celery import shared_task
from django.db import IntegrityError, InterfaceError, OperationalError

from . import services


@shared_task(
    name="scoring.ratings_refresh",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    # The database gone mid-refresh (a restart, a lost connection), or a row it
    # rates gone under it (a tournament deleted, a person merged away): tried again,
    # from the sheets as they are then.
    autoretry_for=(OperationalError, InterfaceError, IntegrityError),
    retry_backoff=2,
    retry_backoff_max=60,
    retry_jitter=False,
    max_retries=8,
)
def ratings_refresh_task(match_id: int | None) -> int:
    """Refresh the ratings from the place of sheet `match_id` on (from the start when
    None or when the sheet is gone). A refresh is whole or nothing, so a retry after
    a lost database starts clean."""
    since = services.START
    if match_id is not None:
        since = services.sheet_position(match_id=match_id) or services.START
    return services.ratings_refresh(since=since, sheet=match_id)
