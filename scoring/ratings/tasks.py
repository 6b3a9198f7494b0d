"""The ratings' tasks: a refresh from a sheet's place on, or from the start, and a
catch-up from where the stored ratings are behind the sheets, sent when a refresh was
lost by the periodic look that Celery beat sends every CATCH_UP_SECONDS
(tournament/ops/schedule.py)."""

import logging

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, InterfaceError, OperationalError

from tournament.ops.tasks import periodic_attempt

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
    None). A sheet gone since (its tournament restored or deleted) leaves its rated
    match behind, if it was rated: a catch-up finds it. A refresh is whole or
    nothing, so a retry after a lost database starts clean."""
    if match_id is None:
        services.rebuild_started()
        return services.ratings_refresh(since=services.START)
    since = services.sheet_position(match_id=match_id)
    if since is None:
        return services.ratings_catch_up()
    return services.ratings_refresh(since=since, sheet=match_id)


@shared_task(name="scoring.ratings_catch_up", **RETRIED)
def ratings_catch_up_task() -> int:
    """A refresh from where the stored ratings are behind the sheets, if they are:
    sent by the periodic look when a sheet's own refresh was lost, or a rebuild's
    task (then the rebuild queued, if any, is this one)."""
    if services.ratings_behind() == services.START:
        services.rebuild_started()
    return services.ratings_catch_up()


# A catch-up for a place is sent once in this long by all the site's workers (the
# shared cache holds it): a refresh that runs long, or a catch-up queued behind
# workbooks, is not sent again at every look.
CATCH_UP_HOLD_SECONDS = 300
# What the last look found, in the shared cache: the next look may be run by another
# worker, or another process of the same one.
BEHIND_LAST_KEY = "ratings:behind-last"
log = logging.getLogger(__name__)


def ratings_catch_up_check() -> bool:
    """The periodic look, every CATCH_UP_SECONDS: a catch-up sent when the stored
    ratings have been behind the sheets from the same place at two looks running (a
    refresh only queued, found at one look, is usually done by the next), once per
    `CATCH_UP_HOLD_SECONDS` for that place across the site. A place still behind
    after that is said in the log (the catch-up failed: its error is in the worker's
    log; `manage.py ratings_rebuild` tries again). Nothing when the ratings do not
    follow the sheets (RATINGS_AUTOMATIC off)."""
    behind = services.ratings_behind() if settings.RATINGS_AUTOMATIC else None
    last = cache.get(BEHIND_LAST_KEY)
    lost = behind is not None and last is not None and behind == last["behind"]
    cache.set(BEHIND_LAST_KEY, {"behind": behind}, CATCH_UP_HOLD_SECONDS)
    if not lost:
        return False
    if not cache.add(f"ratings:catch-up:{behind}", 1, CATCH_UP_HOLD_SECONDS):
        return False
    if not cache.add(f"ratings:caught-up:{behind}", 1, CATCH_UP_HOLD_SECONDS * 12):
        log.error(
            "the ratings are still behind the sheets from %s after a catch-up; "
            "sending another (see the worker's log for why the last one failed)",
            behind or "the start (a rebuild)",
        )
    ratings_catch_up_task.delay()
    return True


@shared_task(name="scoring.ratings_catch_up_check", ignore_result=True)
def ratings_catch_up_check_task() -> bool:
    """The periodic look (ratings_catch_up_check), sent by Celery beat every
    CATCH_UP_SECONDS. Whether it worked; a failure is logged once."""
    what = "look whether the ratings are behind"
    return periodic_attempt(what, ratings_catch_up_check)
