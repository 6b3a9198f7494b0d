"""The ratings' tasks: a refresh from a sheet's place on, or from the start, and a
catch-up from where the stored ratings are behind the sheets, which the worker's
beat sends when a refresh was lost (tournament/config/celery.py)."""

from celery import shared_task
from django.conf import settings
from django.db import IntegrityError, InterfaceError, OperationalError

from . import services

# The database gone mid-refresh (a restart, a lost connection), or a row it rates
# gone under it (a tournament deleted, a person merged away): tried again, from the
# sheets as they are then.
RETRIED = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "ignore_result": True,
    "autoretry_for": (OperationalError, InterfaceError, IntegrityError),
    "retry_backoff": 2,
    "retry_backoff_max": 60,
    "retry_jitter": False,
    "max_retries": 8,
}


@shared_task(name="scoring.ratings_refresh", **RETRIED)
def ratings_refresh_task(match_id: int | None) -> int:
    """Refresh the ratings from the place of sheet `match_id` on (from the start when
    None or when the sheet is gone). A refresh is whole or nothing, so a retry after
    a lost database starts clean."""
    since = services.START
    if match_id is not None:
        since = services.sheet_position(match_id=match_id) or services.START
    return services.ratings_refresh(since=since, sheet=match_id)


@shared_task(name="scoring.ratings_catch_up", **RETRIED)
def ratings_catch_up_task() -> int:
    """A refresh from where the stored ratings are behind the sheets, if they are:
    sent by the worker's beat when a sheet's own refresh was lost."""
    return services.ratings_catch_up()


_behind_last: list[str | None] = [None]  # what the beat's last look found


def ratings_catch_up_check() -> bool:
    """The worker's beat, every `CATCH_UP_BEATS`: a catch-up sent when the stored
    ratings have been behind the sheets from the same place at two looks running (a
    refresh queued behind others is not lost; one missing since the last look is).
    Nothing when the ratings do not follow the sheets (RATINGS_AUTOMATIC off)."""
    behind = services.ratings_behind() if settings.RATINGS_AUTOMATIC else None
    lost = behind is not None and behind == _behind_last[0]
    _behind_last[0] = behind
    if lost:
        ratings_catch_up_task.delay()
    return lost


CATCH_UP_BEATS = 6  # the beat is every 5 s: a look every 30 s
