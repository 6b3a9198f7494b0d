"""Score sheets in the admin: the site's administrators read them; nobody edits them
there; organizers work on the pages."""

import pytest
from django.test import Client

from scoring.sheets import services
from tests.factories import UserFactory
from tests.scoring.conftest import deal_body
from tournament.accounts.services import site_role_grant

pytestmark = pytest.mark.django_db


def test_administrators_read_sheets_but_cannot_change_them(match, organizer):
    services.score_sheet_deal_record(
        match_id=match.pk, user=organizer, version=1, **deal_body(1)
    )
    services.score_sheet_penalty_record(
        match_id=match.pk,
        user=organizer,
        version=2,
        deal=1,
        offender="A",
        kind="kallakali",
        by_organizer=True,
    )
    administrator = UserFactory(username="siteadmin")
    site_role_grant(user=administrator, role="administrator")
    client = Client()
    client.force_login(administrator)
    page = client.get("/admin/scoring/match/").content.decode()
    assert "Edison Aces v Chicago Jacks" in page
    response = client.get(f"/admin/scoring/match/{match.pk}/change/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="total_a"' not in html and "deal add" in html.lower()
    assert (
        client.post(f"/admin/scoring/match/{match.pk}/change/", {}).status_code == 403
    )
    assert client.get("/admin/scoring/penalty/").status_code == 200
    assert client.get("/admin/scoring/match/add/").status_code == 403
    organizer.is_staff = True  # staff, not a site administrator: no admin
    organizer.save()
    client.force_login(organizer)
    assert client.get("/admin/scoring/match/").status_code == 302
