"""A tournament restored while the site is in use: scorers of another tournament go
on writing. On PostgreSQL they are not even made to wait (the restore holds the rows
of its own tournament only): a scorer's deal is saved while the restore is half
done. On SQLite, one writer at a time, the deal waits for the restore and is saved
after it. Real connections, in both passes."""

import threading
import time

import pytest
from django.db import connection, connections, transaction

from scoring.models import Deal, Match
from scoring.sheets import services as sheets
from tests.brackets.knockout import final_league
from tests.factories import member
from tests.scoring.conftest import deal_body
from tournament.backups import services
from tournament.domain.types import Role
from tournament.models import SheetCopy, Tournament


def _together(**work) -> dict[str, object]:
    """Each callable at once in a thread of its own (so a connection of its own):
    what each returned, or the error it raised, by name."""
    outcome: dict[str, object] = {}

    def run(name, do):
        try:
            outcome[name] = do()
        except Exception as error:  # the outcome is what is tested
            outcome[name] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=item) for item in work.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=90)
    return outcome


@pytest.mark.django_db(transaction=True)
def test_scorers_of_another_tournament_write_while_one_is_restored(monkeypatch):
    tournament, _ = final_league(2, 3, qualifiers=2, slug="restored-cup")
    other, organizer = final_league(2, 3, qualifiers=2, slug="playing-cup")
    scorer = member(other, Role.SCORER, "playing-scorer")
    # A sheet of the other tournament reopened, its last deal to enter again.
    open_sheet = Match.objects.filter(tournament=other).first()
    sheets.score_sheet_reopen(match_id=open_sheet.pk, user=organizer, reason="redo")
    sheets.score_sheet_deal_delete(
        match_id=open_sheet.pk, number=6, user=organizer, version=None
    )
    backup = services.backup_take(tournament=tournament, reason="test")
    content = services.backup_content(backup)
    postgres = connection.vendor == "postgresql"
    halfway, written = threading.Event(), threading.Event()
    order: list[str] = []
    insert = services.insert_raw

    def slow_insert(objects):
        if postgres and not halfway.is_set():
            halfway.set()  # the restore has deleted and is putting rows back
            assert written.wait(30), "the other tournament's scorer was kept waiting"
        insert(objects)

    monkeypatch.setattr(services, "insert_raw", slow_insert)

    def restore():
        services.backup_restore(tournament=tournament, content=content)
        order.append("restored")

    def score():
        try:
            if postgres:
                assert halfway.wait(30)
            sheets.score_sheet_deal_record(
                match_id=open_sheet.pk, user=scorer, version=None, **deal_body(6)
            )
            order.append("deal saved")
        finally:
            written.set()

    assert _together(restore=restore, score=score) == {"restore": None, "score": None}
    assert Deal.objects.filter(match=open_sheet).count() == 6
    assert (
        Match.objects.filter(tournament=tournament).count()
        == backup.counts["scoring.match"]
    )
    if postgres:
        assert order == ["deal saved", "restored"]
    else:
        assert sorted(order) == ["deal saved", "restored"]


def _waiting_for_a_lock() -> bool:
    with connection.cursor() as cursor:
        # The statistics are read once a transaction unless the snapshot is cleared.
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0] > 0


@pytest.mark.django_db(transaction=True)
def test_a_copy_task_meeting_a_step_that_holds_the_tournament_waits_for_it():
    """A sheet locked queues a task that keeps its copy; the worker may run it while
    the organizer seeds the knockout, whose backup keeps copies of the same sheets
    under the tournament's lock. The task waits for the step instead of the two
    deadlocking (PostgreSQL then refuses one: the seeding answered 503)."""
    tournament, organizer = final_league(2, 3, qualifiers=2, slug="copied-cup")
    sheets_ = list(
        Match.objects.filter(tournament=tournament).values_list("pk", flat=True)
    )
    SheetCopy.objects.all().delete()  # as if no task had run yet
    postgres = connection.vendor == "postgresql"
    locked, task_started = threading.Event(), threading.Event()

    def step():
        with transaction.atomic():
            held = Tournament.objects.select_for_update().get(pk=tournament.pk)
            locked.set()
            assert task_started.wait(30)
            if postgres:  # the task is waiting for the tournament now
                deadline = time.monotonic() + 30
                while not _waiting_for_a_lock():
                    assert time.monotonic() < deadline, "the task never waited"
                    time.sleep(0.02)
            services.backup_before_step(
                tournament=held, step="the test", user=organizer
            )

    def task():
        assert locked.wait(30)
        task_started.set()
        return services.sheet_copies_keep(match_ids=sheets_)

    assert _together(step=step, task=task) == {"step": None, "task": len(sheets_)}
    copies = dict(SheetCopy.objects.values_list("sheet", "version"))
    assert copies == dict(
        Match.objects.filter(pk__in=sheets_).values_list("pk", "version")
    )
