"""A tournament restored while the site is in use: scorers of another tournament go
on writing. On PostgreSQL they are not even made to wait (the restore holds the rows
of its own tournament only): a scorer's deal is saved while the restore is half
done. On SQLite, one writer at a time, the deal waits for the restore and is saved
after it. Real connections, in both passes."""

import threading

import pytest
from django.db import connection, connections

from scoring.models import Deal, Match
from scoring.sheets import services as sheets
from tests.brackets.knockout import final_league
from tests.factories import member
from tests.scoring.conftest import deal_body
from tournament.backups import services
from tournament.domain.types import Role


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
    outcome: dict[str, object] = {}

    def restore():
        try:
            services.backup_restore(tournament=tournament, content=content)
            order.append("restored")
        except Exception as error:  # the outcome is what is tested
            outcome["restore"] = error
        finally:
            connections.close_all()

    def score():
        try:
            if postgres:
                assert halfway.wait(30)
            sheets.score_sheet_deal_record(
                match_id=open_sheet.pk, user=scorer, version=None, **deal_body(6)
            )
            order.append("deal saved")
            written.set()
        except Exception as error:  # the outcome is what is tested
            outcome["score"] = error
            written.set()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=restore), threading.Thread(target=score)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=90)
    assert outcome == {}
    assert Deal.objects.filter(match=open_sheet).count() == 6
    assert (
        Match.objects.filter(tournament=tournament).count()
        == backup.counts["scoring.match"]
    )
    if postgres:
        assert order == ["deal saved", "restored"]
    else:
        assert sorted(order) == ["deal saved", "restored"]
