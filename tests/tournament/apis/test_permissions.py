"""Every endpoint × every role: allowed or refused, and refused calls change nothing."""

import pytest

from tests.factories import (
    SectionFactory,
    TeamFactory,
    TournamentFactory,
    UserFactory,
    member,
)
from tournament.domain.types import Role
from tournament.models import Membership, Section, Team, Tournament

pytestmark = pytest.mark.django_db

ROLES = [
    "anonymous",
    "outsider",
    "organizer_elsewhere",
    "scorer_elsewhere",
    "captain_other_team",
    "scorer",
    "captain",
    "organizer",
]


@pytest.fixture
def world(db):
    t = TournamentFactory(slug="open", published=True)
    elsewhere = TournamentFactory(slug="elsewhere")
    tri = SectionFactory(tournament=t, name="Tri-State", states=["NJ", "NY"])
    spare = SectionFactory(tournament=t, name="Spare", states=["TX"])
    team = TeamFactory(section=tri, name="Aces")
    other_team = TeamFactory(section=tri, name="Kings")
    users = {
        "anonymous": None,
        "outsider": UserFactory(username="outsider"),
        "organizer_elsewhere": member(elsewhere, Role.ORGANIZER, "org_elsewhere"),
        "scorer_elsewhere": member(elsewhere, Role.SCORER, "scorer_elsewhere"),
        "captain_other_team": member(t, Role.CAPTAIN, "cap_other", team=other_team),
        "scorer": member(t, Role.SCORER, "scorer"),
        "captain": member(t, Role.CAPTAIN, "cap", team=team),
        "organizer": member(t, Role.ORGANIZER, "org"),
    }
    return {"t": t, "tri": tri, "spare": spare, "team": team, "users": users}


READ = {role: 200 for role in ROLES}
WRITE = {"anonymous": 401} | {r: 403 for r in ROLES[1:-1]}
TEAM = {
    "name": "New",
    "captain": {"name": "J", "city": "Edison", "state": "NJ", "country": "USA"},
    "players": ["A", "B"],
}

# (method, path, body, expected status per role; organizer's expected given last)
CASES = [
    ("get", "/api/v1/tournaments/", None, READ),
    ("get", "/api/v1/tournaments/open/", None, READ),
    (
        "patch",
        "/api/v1/tournaments/open/",
        {"venue": "Hall"},
        WRITE | {"organizer": 200},
    ),
    ("get", "/api/v1/tournaments/open/sections/", None, READ),
    (
        "post",
        "/api/v1/tournaments/open/sections/",
        {"name": "West", "states": ["CA"]},
        WRITE | {"organizer": 201},
    ),
    ("get", "/api/v1/tournaments/open/sections/{spare}/", None, READ),
    (
        "patch",
        "/api/v1/tournaments/open/sections/{spare}/",
        {"states": ["OK"]},
        WRITE | {"organizer": 200},
    ),
    (
        "delete",
        "/api/v1/tournaments/open/sections/{spare}/",
        None,
        WRITE | {"organizer": 204},
    ),
    ("get", "/api/v1/tournaments/open/teams/", None, READ),
    ("post", "/api/v1/tournaments/open/teams/", TEAM, WRITE | {"organizer": 201}),
    ("get", "/api/v1/tournaments/open/teams/{team}/", None, READ),
    (
        "patch",
        "/api/v1/tournaments/open/teams/{team}/",
        {"section": "{spare}"},
        WRITE | {"organizer": 200},
    ),
    (
        "delete",
        "/api/v1/tournaments/open/teams/{team}/",
        None,
        WRITE | {"organizer": 204},
    ),
    ("post", "/api/v1/tournaments/open/teams/import/", {}, WRITE | {"organizer": 400}),
    ("get", "/api/v1/tournaments/open/teams/import/template.xlsx", None, READ),
    ("get", "/api/v1/tournaments/open/members/", None, WRITE | {"organizer": 200}),
    (
        "post",
        "/api/v1/tournaments/open/members/",
        {"username": "org", "role": "scorer"},
        WRITE | {"organizer": 201},
    ),
]


def _state():
    return (
        list(Tournament.objects.values_list("venue", "published").order_by("pk")),
        list(Section.objects.values_list("name", "states").order_by("pk")),
        list(Team.objects.values_list("name", "section_id").order_by("pk")),
        Membership.objects.count(),
    )


def _fill(value, world):
    if isinstance(value, str):
        return value.format(spare=world["spare"].pk, team=world["team"].pk)
    if isinstance(value, dict):
        filled = {k: _fill(v, world) for k, v in value.items()}
        return {k: int(v) if k == "section" else v for k, v in filled.items()}
    return value


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(
    ("method", "path", "body", "expected"), CASES, ids=[f"{c[0]} {c[1]}" for c in CASES]
)
def test_role_is_allowed_or_refused(api, world, role, method, path, body, expected):
    user = world["users"][role]
    if user is not None:
        api.force_authenticate(user)
    before = _state()
    fmt = "multipart" if "import" in path else "json"
    response = getattr(api, method)(_fill(path, world), _fill(body, world), format=fmt)
    assert response.status_code == expected[role], (role, response.content[:300])
    if response.status_code in (401, 403):
        assert _state() == before


@pytest.mark.parametrize("role", ROLES)
def test_unpublished_tournament_exists_only_for_its_people(api, world, role):
    Tournament.objects.filter(pk=world["t"].pk).update(published=False)
    user = world["users"][role]
    if user is not None:
        api.force_authenticate(user)
    member_roles = {"captain_other_team", "scorer", "captain", "organizer"}
    expected = 200 if role in member_roles else 404
    for path in (
        "/api/v1/tournaments/open/",
        "/api/v1/tournaments/open/teams/",
        "/api/v1/tournaments/open/sections/",
    ):
        assert api.get(path).status_code == expected
    listed = {t["slug"] for t in api.get("/api/v1/tournaments/").json()["results"]}
    assert ("open" in listed) == (role in member_roles)
