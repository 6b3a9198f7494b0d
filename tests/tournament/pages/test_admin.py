"""The admin: organizers see their own tournaments only, and cannot edit rule fields."""

import pytest
from django.test import Client

from tests.factories import SectionFactory, TeamFactory, TournamentFactory, member
from tournament.domain.types import Role

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_organizer(tournament):
    user = member(tournament, Role.ORGANIZER, "org")
    user.is_staff = True
    user.save()
    client = Client()
    client.force_login(user)
    return client


def test_organizer_sees_only_own_tournaments_teams(staff_organizer, team):
    other = TeamFactory(
        section=SectionFactory(tournament=TournamentFactory(slug="other")),
        name="Far Away",
    )
    page = staff_organizer.get("/admin/tournament/team/").content.decode()
    assert "Edison Aces" in page and "Far Away" not in page
    assert staff_organizer.get(
        f"/admin/tournament/team/{other.pk}/change/"
    ).status_code in (
        302,
        403,
        404,
    )
    response = staff_organizer.get(f"/admin/tournament/team/{team.pk}/change/")
    assert response.status_code == 200
    assert 'name="section"' not in response.content.decode()  # read-only here


def test_admin_list_pages_filter_and_search(staff_organizer, team):
    for path in (
        "/admin/tournament/tournament/",
        "/admin/tournament/section/",
        "/admin/tournament/team/?q=edison",
        "/admin/tournament/membership/?role__exact=organizer",
    ):
        assert staff_organizer.get(path).status_code == 200, path


def test_non_staff_scorer_cannot_enter_the_admin(tournament):
    client = Client()
    client.force_login(member(tournament, Role.SCORER, "scorer"))
    assert client.get("/admin/tournament/team/").status_code == 302
