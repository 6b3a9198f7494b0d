"""Score sheets in the admin: organizers read their own; nobody edits them there."""

import pytest
from django.test import Client

from scoring.sheets import services
from tests.factories import member
from tests.scoring.conftest import deal_body
from tournament.domain.types import Role

pytestmark = pytest.mark.django_db


def test_organizer_reads_sheets_but_cannot_change_them(
    match, organizer, other_tournament
):
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
    organizer.is_staff = True
    organizer.save()
    client = Client()
    client.force_login(organizer)
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
    stranger = member(other_tournament, Role.ORGANIZER, "far-org")
    stranger.is_staff = True
    stranger.save()
    client.force_login(stranger)
    assert "Edison Aces" not in client.get("/admin/scoring/match/").content.decode()
