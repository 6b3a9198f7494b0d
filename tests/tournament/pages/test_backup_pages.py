"""The organizer's backup pages, as an organizer clicks through them: the list, a
backup taken by hand, a download, a restore after the typed confirmation, and the
import of a downloaded tournament as a new one; a file of release 0.3.0 imported and
restored, and one of a newer release said to be refused before anyone tries."""

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from scoring.models import Match
from scoring.sheets import services as sheets
from tests.brackets.knockout import final_league
from tests.factories import UserFactory
from tests.tournament.services.test_backup_upgrades import (
    TOURNAMENT_FILE,
    _newer,
    as_0_3_0_showed_it,
    rewritten,
)
from tournament.backups import archive, services
from tournament.backups.binary import content_store
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


# Files of an earlier release (docs/backups.md, "Across releases")
# ----------------------------------------------------------------------------------


BROUGHT_UP = "written by 0.3.0; it will be brought up to this release when restored"


def _kept(tournament, content: bytes, reason: str) -> Backup:
    """A backup kept on the site as an upgrade finds it: written by other code."""
    backup = Backup.objects.create(
        tournament=tournament,
        slug=tournament.slug,
        scope="tournament",
        reason=reason,
        automatic=False,
        created_at=timezone.now(),
        rows=1,
        size=len(content),
        sha256="0" * 64,
        content=b"",
    )
    content_store(backup, content)
    return backup


@pytest.fixture
def release_cup(client):
    """The tournament of 0.3.0's file, imported by a creator who organizes it."""
    creator = UserFactory(username="creator")
    creator.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client.force_login(creator)
    page = client.get("/import/")
    said = page.content.decode()
    assert f"This site runs release {archive.release()}" in said
    assert "It takes the files of release 0.3.0 and later" in said
    done = client.post(
        "/import/",
        {"file": SimpleUploadedFile("cup.56.gz", TOURNAMENT_FILE.read_bytes())},
        follow=True,
    )
    assert done.redirect_chain == [("/t/release-cup/", 302)]
    assert (
        "It was written by 0.3.0 and brought up to this release "
        f"({archive.release()})." in done.content.decode()
    )
    tournament = Tournament.objects.get(slug="release-cup")
    as_0_3_0_showed_it(tournament)
    return tournament


def test_a_kept_backup_of_0_3_0_says_so_and_restores(client, release_cup):
    tournament = release_cup
    old = _kept(tournament, TOURNAMENT_FILE.read_bytes(), "by hand")
    newer = _kept(
        tournament,
        rewritten(TOURNAMENT_FILE.read_bytes(), header=_newer),
        "before the draw",
    )
    own = services.backup_take(tournament=tournament, reason="by hand")

    text = client.get("/t/release-cup/backups/").content.decode()
    rows = {
        b: text.split(f"/backups/{b.pk}/download/")[1].split("</tr>")[0]
        for b in (old, newer, own)
    }
    assert (
        "written by 0.3.0; it will be brought up to this release when restored"
        in rows[old]
    )
    assert f"/backups/{old.pk}/restore/" in rows[old]
    assert "Cannot be restored here: it was written by 9.9.0" in rows[newer]
    assert f"/backups/{newer.pk}/restore/" not in text
    assert f"/backups/{own.pk}/restore/" in rows[own]
    assert "written by" not in rows[own] and "Cannot" not in rows[own]

    refused = client.get(f"/t/release-cup/backups/{newer.pk}/restore/")
    assert "Cannot be restored here" in refused.content.decode()
    assert 'name="confirm"' not in refused.content.decode()

    page = client.get(f"/t/release-cup/backups/{old.pk}/restore/").content.decode()
    assert (
        "written by 0.3.0; it will be brought up to this release when restored" in page
    )
    Match.objects.filter(tournament=tournament).update(total_a=0, total_b=0)
    done = client.post(
        f"/t/release-cup/backups/{old.pk}/restore/",
        {"confirm": "release-cup"},
        follow=True,
    )
    said = done.content.decode()
    assert f"Restored backup {old.pk}" in said
    assert "It was written by 0.3.0 and brought up to this release" in said
    as_0_3_0_showed_it(tournament)
