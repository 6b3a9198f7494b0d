"""The ratings follow the sheets and the people (docs/ratings.md): a confirmed or
reopened sheet has them refreshed from its place on, a merge, a split or a restore
from the start; in the worker, after the commit (tournament/ops/queue.py)."""

from django.conf import settings
from django.dispatch import receiver

from tournament.ops.queue import task_send_on_commit
from tournament.persons.signals import ratings_stale

from ..domain.rules import MatchStatus
from ..signals import sheet_locked, sheet_reopening
from .services import rebuild_wanted
from .tasks import ratings_refresh_task

# What the log says when a task could not be sent (Redis down): the periodic look
# (Celery beat's) finds what is missing (ratings_catch_up_check), a sheet's refresh or
# a rebuild after a merge, a split or a restore (kept as a RebuildWanted), and the next
# sheet's refresh reaches back to it.
MISSED = "the periodic look catches the ratings up, once a worker and Redis are back"
MISSED_REBUILD = (
    "the periodic look rebuilds the ratings, once a worker and Redis are back"
)


@receiver(sheet_locked, dispatch_uid="ratings-sheet-locked")
def on_sheet_locked(sender, *, match, **kwargs):
    if settings.RATINGS_AUTOMATIC and match.status == MatchStatus.CONFIRMED:
        task_send_on_commit(ratings_refresh_task, match.pk, missed=MISSED)


@receiver(sheet_reopening, dispatch_uid="ratings-sheet-reopening")
def on_sheet_reopening(sender, *, match, **kwargs):
    if settings.RATINGS_AUTOMATIC and match.status == MatchStatus.CONFIRMED:
        task_send_on_commit(ratings_refresh_task, match.pk, missed=MISSED)


@receiver(ratings_stale, dispatch_uid="ratings-stale")
def on_ratings_stale(sender, **kwargs):
    # Kept in the transaction of what asked, so that a rebuild whose task is lost
    # is still found (ratings_behind) and done by the periodic look; sent only when
    # no rebuild is queued already (services.rebuild_wanted).
    if settings.RATINGS_AUTOMATIC and rebuild_wanted():
        task_send_on_commit(ratings_refresh_task, None, missed=MISSED_REBUILD)


def catch_up(sender, *, using, plan=None, **kwargs):
    """After `migrate`: the people and ratings of what was played before they were
    kept (an upgraded site), found once from the current tables, and a catch-up if
    the ratings are behind the sheets. Five quick queries when there is nothing to
    do.

    Only on a database at exactly this code's migrations: after a `migrate <app>
    <target>` back (a rollback, docs/deploy.md) or forward to a target short of the
    last, the tables are not this code's models (some were just dropped), and the
    release that runs next catches up by itself when its own `migrate` ends."""
    from django.db import connections, transaction
    from django.db.migrations.recorder import MigrationRecorder

    from tournament.ops.health import migrations_ahead, migrations_missing

    if plan and any(backwards for _, backwards in plan):
        return
    applied = set(MigrationRecorder(connections[using]).applied_migrations())
    if migrations_missing(applied) or migrations_ahead(applied):
        return

    from tournament.models import Player, Tournament
    from tournament.persons.services import seats_sync

    from ..models import Match, RatedGame
    from .services import ratings_behind, ratings_catch_up, ratings_rebuild

    with transaction.atomic(using=using):
        unseated = (
            Player.objects.using(using)
            .filter(team__seats__isnull=True)
            .values_list("team__tournament", flat=True)
            .distinct()
        )
        for tournament in Tournament.objects.using(using).filter(pk__in=list(unseated)):
            seats_sync(tournament=tournament)
        if (
            not RatedGame.objects.using(using).exists()
            and Match.objects.using(using).filter(status=MatchStatus.CONFIRMED).exists()
        ):
            ratings_rebuild()
        elif ratings_behind() is not None:
            # Behind the sheets (a refresh lost before an upgrade, or matches with
            # nobody to rate that an earlier version did not take): caught up here,
            # once, rather than by the first sheet confirmed after the upgrade.
            ratings_catch_up()
