"""The knockout in the admin: organizers read their own bracket; nobody edits it."""

import pytest
from django.test import Client

from brackets.models import Bracket, KnockoutMatch
from tests.brackets.knockout import final_league
from tests.conftest import as_user
from tests.factories import TournamentFactory, member
from tournament.domain.types import Role

pytestmark = pytest.mark.django_db


def test_organizer_reads_the_bracket_but_cannot_change_it(api):
    _, organizer = final_league(2, 4, qualifiers=4, slug="admin-cup")
    as_user(api, organizer)
    assert (
        api.post("/api/v1/tournaments/admin-cup/knockout/", {}, "json").status_code
        == 201
    )
    organizer.is_staff = True
    organizer.save()
    client = Client()
    client.force_login(organizer)
    bracket = Bracket.objects.get()
    semi = KnockoutMatch.objects.get(number=1)
    assert "4 qualifiers" in client.get("/admin/brackets/bracket/").content.decode()
    page = client.get(f"/admin/brackets/knockoutmatch/{semi.pk}/change/")
    assert page.status_code == 200
    assert semi.team_a.name in page.content.decode()
    url = f"/admin/brackets/bracket/{bracket.pk}/change/"
    assert client.post(url, {}).status_code == 403
    assert client.get("/admin/brackets/knockoutmatch/add/").status_code == 403
    stranger = member(TournamentFactory(), Role.ORGANIZER, "far-org")
    stranger.is_staff = True
    stranger.save()
    client.force_login(stranger)
    listing = client.get("/admin/brackets/knockoutmatch/").content.decode()
    assert semi.team_a.name not in listing
