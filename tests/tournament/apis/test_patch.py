"""Every PATCH changes exactly the fields it was sent (issue 40), through raw JSON:
for every PATCH operation of the schema and every field of its body, one request
with that field alone, then every other field of the object read back unchanged
(bar what the field itself decides, named in DERIVED). The generated client does
the same in test_generated_client.py."""

from __future__ import annotations

import pytest

from brackets.models import Season
from tests.conftest import as_user
from tests.factories import TournamentFactory, UserFactory, member
from tournament.accounts.services import site_role_grant
from tournament.domain.types import Role
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

# The value each field is sent with, by operation, and what reading it back shows
# when that is not the value itself. A new field of a PATCH body needs its row.
VALUES = {
    "tournament_update": {
        "name": "Renamed Open",
        "ruleset": "gcka",
        "players_per_team": 4,
        "league_rounds": 6,
        "league_deals": 12,
        "qualifiers": 16,
        "published": False,
        # A site administrator's (or a trusted creator's) alone: docs/ratings.md.
        "rated": False,
        "venue": "Hall 2",
        "starts_on": "2026-05-01",
        "ends_on": "2026-05-03",
        "check_in_required": True,
        "substitutions_allowed": 2,
        "time_zone": "America/New_York",
        "home_country": "India",
    },
    "section_update": {
        "name": "Tri-State North",
        "states": ["CT", "NJ", "NY"],
        "cities": ["Newark"],
    },
    "team_update": {
        "name": "Edison Kings",
        "captain": {"city": "Jersey City"},  # New Jersey still: Tri-State
        "players": ["captain", "Anil Menon", "Suresh Pillai"],  # the captain plays
        "section": "chicago",  # the id of that section
    },
    # An organizer of a tournament the person plays in hides them (docs/ratings.md).
    "person_update": {"hidden": True},
    # A site administrator changes a season (docs/ratings.md).
    "season_update": {
        "name": "Season Two",
        "tournaments": ["spring-open", "empty-cup"],
        "points": {"1": 20, "2": 10},
    },
}
# What a field decides beside itself: a rule set brings its number of deals (API.md);
# a section set by hand is the organizer's placement.
DERIVED = {
    ("tournament_update", "ruleset"): {"league_deals"},
    ("team_update", "section"): {"section_name", "placement"},
}


@pytest.fixture
def schema(api):
    return api.get(
        "/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json"
    ).json()


def patch_bodies(schema) -> dict[str, tuple[str, list[str]]]:
    """operationId → (path, the fields of its body), for every PATCH."""
    found = {}
    components = schema["components"]["schemas"]
    for path, item in schema["paths"].items():
        if "patch" in item:
            operation = item["patch"]
            ref = operation["requestBody"]["content"]["application/json"]["schema"]
            body = components[ref["$ref"].rsplit("/", 1)[-1]]
            found[operation["operationId"]] = (path, list(body["properties"]))
    return found


def flat(value, prefix="") -> dict:
    if isinstance(value, dict):
        out = {}
        for key, inner in value.items():
            out |= flat(inner, f"{prefix}{key}.")
        return out
    return {prefix.rstrip("."): value}


def test_every_patch_field_is_in_the_table(schema):
    bodies = patch_bodies(schema)
    assert set(bodies) == set(VALUES)
    for name, (_, fields) in bodies.items():
        assert set(fields) == set(VALUES[name]), name


@pytest.fixture
def world(db, sections, team, organizer, api):
    """The spring-open tournament with its sections and a team, and a second
    tournament with no teams, of a rule set that lets the team size change."""
    empty = TournamentFactory(slug="empty-cup", name="Empty Cup", ruleset="online")
    member(empty, Role.ORGANIZER, "org")
    as_user(api, organizer)
    return {"sections": sections, "team": team}


@pytest.fixture
def season_admin(api, world):
    """A season of the spring open, and a site administrator's login (a season's
    PATCH is theirs)."""
    Tournament.objects.filter(slug__in=["spring-open", "empty-cup"]).update(
        status="league"
    )
    season = Season.objects.create(
        name="Season One", slug="season-one", points={"1": 5}
    )
    season.tournaments.set(Tournament.objects.filter(slug="spring-open"))
    admin = UserFactory(username="season-admin")
    site_role_grant(user=admin, role="administrator")
    as_user(api, admin)


def _address(path: str, name: str, world) -> str:
    ids = {
        "section_update": world["sections"]["tri"].pk,
        "person_update": world["team"].seats.first().person_id,
    }
    slugs = {"tournament_update": "empty-cup", "season_update": "season-one"}
    return path.format(
        slug=slugs.get(name, "spring-open"),
        id=ids.get(name, world["team"].pk),
    )


@pytest.mark.parametrize(
    ("name", "field"),
    [(name, field) for name, fields in VALUES.items() for field in fields],
)
def test_a_patch_changes_exactly_the_field_it_was_sent(
    api, schema, world, name, field, request
):
    if name == "season_update" or (name, field) == ("tournament_update", "rated"):
        request.getfixturevalue("season_admin")
    path, _ = patch_bodies(schema)[name]
    url = _address(path, name, world)
    value = VALUES[name][field]
    if name == "team_update" and field == "section":
        value = world["sections"][value].pk
    if name == "team_update" and field == "players":
        value = [world["team"].captain_name, *value[1:]]
    before = api.get(url).json()
    answer = api.patch(url, {field: value}, format="json")
    assert answer.status_code == 200, answer.json()
    after = api.get(url).json()
    assert answer.json() == after
    sent = flat({field: value})
    changed = {
        key
        for key in flat(before).keys() | flat(after).keys()
        if flat(before).get(key) != flat(after).get(key)
    }
    assert changed - set(sent) <= DERIVED.get((name, field), set()), changed
    for key, got in sent.items():
        assert flat(after)[key] == got, key
