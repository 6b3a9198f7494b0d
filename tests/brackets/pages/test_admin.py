"""The knockout in the admin: the site's administrators read it; nobody edits it
there; organizers work on the pages."""

import pytest
from django.test import Client

from brackets.models import Bracket, KnockoutMatch
from tests.brackets.knockout import final_league
from tests.conftest import as_user
from tests.factories import UserFactory
from tournament.accounts.services import site_role_grant

pytestmark = pytest.mark.django_db


def test_administrators_read_the_bracket_but_cannot_change_it(api):
    _, organizer = final_league(2, 4, qualifiers=4, slug="admin-cup")
    as_user(api, organizer)
    assert (
        api.post("/api/v1/tournaments/admin-cup/knockout/", {}, "json").status_code
        == 201
    )
    administrator = UserFactory(username="siteadmin")
    site_role_grant(user=administrator, role="administrator")
    client = Client()
    client.force_login(administrator)
    bracket = Bracket.objects.get()
    semi = KnockoutMatch.objects.get(number=1)
    assert "4 qualifiers" in client.get("/admin/brackets/bracket/").content.decode()
    page = client.get(f"/admin/brackets/knockoutmatch/{semi.pk}/change/")
    assert page.status_code == 200
    assert semi.team_a.name in page.content.decode()
    url = f"/admin/brackets/bracket/{bracket.pk}/change/"
    assert client.post(url, {}).status_code == 403
    assert client.get("/admin/brackets/knockoutmatch/add/").status_code == 403
    organizer.is_staff = True  # staff, not a site administrator: no admin
    organizer.save()
    client.force_login(organizer)
    assert client.get("/admin/brackets/knockoutmatch/").status_code == 302
