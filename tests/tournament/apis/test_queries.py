"""Query counts per list endpoint and page: a constant, whatever the number of rows."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.factories import SectionFactory, TeamFactory, TournamentFactory, member
from tournament.domain.types import Role

pytestmark = pytest.mark.django_db

# Each request here is logged in by session: 2 reads (session, user) come first.
ENDPOINTS = {
    "/api/v1/tournaments/": 4,  # + count, page
    "/api/v1/tournaments/big/": 5,  # + tournament, roles, team count
    "/api/v1/tournaments/big/sections/": 5,  # + tournament, roles, sections
    "/api/v1/tournaments/big/teams/": 7,  # + tournament, roles, count, page, players
    "/api/v1/tournaments/big/teams/?search=team": 7,
    "/api/v1/tournaments/big/members/": 5,
    "/": 5,  # + tournaments; may this user create one (own and group permissions)
    "/t/big/": 7,  # + may this user rate it (own and group permissions)
    "/t/big/teams/": 7,
    # + sections, teams by section, arrivals
    "/t/big/registration/": 11,
    # + tournament, roles; may this user rate it (own and group permissions)
    "/t/big/settings/": 6,
    # + tournament, roles, teams, roles given, invitations
    "/t/big/people/": 7,
}


def _grow(tournament, sections, count):
    for i in range(count):
        section = sections[i % len(sections)]
        team = TeamFactory(section=section)
        member(tournament, Role.CAPTAIN, team=team)
    for i in range(count // 4):
        TournamentFactory(slug=f"extra-{tournament.teams.count()}-{i}")


def _count(client, path):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return len(queries)


@pytest.mark.parametrize(("path", "limit"), list(ENDPOINTS.items()))
def test_queries_do_not_grow_with_the_tournament(path, limit):
    tournament = TournamentFactory(slug="big")
    organizer = member(tournament, Role.ORGANIZER, "org")
    sections = [
        SectionFactory(tournament=tournament, states=[s]) for s in ("NJ", "TX", "CA")
    ]
    client = Client()
    client.force_login(organizer)
    _grow(tournament, sections, 4)
    small = _count(client, path)
    _grow(tournament, sections, 40)
    large = _count(client, path)
    assert small == large, (path, small, large)
    assert large <= limit, (path, large)
