"""The organizer's backup pages, as an organizer clicks through them: the list, a
backup taken by hand, a download, a restore after the typed confirmation, and the
import of a downloaded tournament as a new one."""

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile

from scoring.models import Match
from scoring.sheets import services as sheets
from tests.brackets.knockout import final_league
from tournament.backups import archive
from tournament.models import Backup, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def signed_in(client):
    tournament, organizer = final_league(2, 3, qualifiers=4, slug="page-cup")
    client.force_login(organizer)
    return tournament, organizer


def test_the_list_shows_each_backup_and_takes_one_by_hand(
    client, signed_in, django_assert_max_num_queries
):
    tournament, organizer = signed_in
    match = Match.objects.filter(tournament=tournament).first()
    sheets.score_sheet_reopen(match_id=match.pk, user=organizer, reason="typo")
    with django_assert_max_num_queries(12):
        page = client.get("/t/page-cup/backups/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "before the draw" in text and "the whole tournament" in text
    assert f"before reopening match {match.pk}" in text and f"sheet {match.pk}" in text
    assert "Backups</a>" in text  # the organizer's tab

    answer = client.post("/t/page-cup/backups/", follow=True)
    assert "taken" in answer.content.decode()
    latest = Backup.objects.filter(tournament=tournament).first()
    assert (latest.reason, latest.automatic, latest.created_by) == (
        "by hand",
        False,
        organizer,
    )


def test_a_download_is_the_tournament_file(client, signed_in):
    tournament, _ = signed_in
    backup = Backup.objects.filter(tournament=tournament).first()
    answer = client.get(f"/t/page-cup/backups/{backup.pk}/download/")
    assert answer["Content-Type"] == "application/gzip"
    assert "page-cup-" in answer["Content-Disposition"]
    held = archive.file_read(answer.content)
    assert held.header["tournament"]["slug"] == "page-cup"


def test_a_restore_needs_the_typed_slug(client, signed_in):
    tournament, _ = signed_in
    backup = Backup.objects.filter(tournament=tournament).first()  # before the draw
    page = client.get(f"/t/page-cup/backups/{backup.pk}/restore/")
    assert "This replaces the whole tournament" in page.content.decode()

    refused = client.post(
        f"/t/page-cup/backups/{backup.pk}/restore/", {"confirm": "yes"}, follow=True
    )
    assert "Nothing was restored" in refused.content.decode()
    assert Match.objects.filter(tournament=tournament).exists()

    done = client.post(
        f"/t/page-cup/backups/{backup.pk}/restore/",
        {"confirm": "page-cup"},
        follow=True,
    )
    assert f"Restored backup {backup.pk}" in done.content.decode()
    assert not Match.objects.filter(tournament=tournament).exists()  # before the draw
    safety = Backup.objects.filter(tournament=tournament).first()
    assert safety.reason.startswith("before restoring")
    assert safety.counts["scoring.match"] > 0


def test_an_import_from_a_downloaded_file(client, signed_in):
    tournament, organizer = signed_in
    backup = Backup.objects.filter(tournament=tournament).first()
    content = client.get(f"/t/page-cup/backups/{backup.pk}/download/").content
    assert client.get("/import/").status_code == 403
    organizer.user_permissions.add(Permission.objects.get(codename="add_tournament"))

    page = client.get("/t/page-cup/backups/")
    assert 'href="/import/"' in page.content.decode()
    clash = client.post(
        "/import/", {"file": SimpleUploadedFile("cup.56.gz", content), "slug": ""}
    )
    assert clash.status_code == 400
    assert "has a tournament &#x27;page-cup&#x27; already" in clash.content.decode()
    bad = client.post(
        "/import/", {"file": SimpleUploadedFile("cup.56.gz", b"not a backup")}
    )
    assert "Not imported" in bad.content.decode()

    done = client.post(
        "/import/",
        {"file": SimpleUploadedFile("cup.56.gz", content), "slug": "page-cup-copy"},
    )
    assert done.status_code == 302 and done["Location"] == "/t/page-cup-copy/"
    copy = Tournament.objects.get(slug="page-cup-copy")
    assert copy.teams.count() == tournament.teams.count()
    assert copy.memberships.filter(user=organizer, role="organizer").exists()
