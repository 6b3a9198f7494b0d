"""Tournaments through the API: rule set defaults, visibility, organizer edits."""

import pytest
from django.contrib.auth.models import Permission

from tests.conftest import as_user
from tests.factories import TournamentFactory, UserFactory
from tournament.models import Membership, Section, Tournament

pytestmark = pytest.mark.django_db
URL = "/api/v1/tournaments/"


@pytest.fixture
def creator():
    user = UserFactory(username="creator")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


@pytest.mark.parametrize(
    ("ruleset", "players", "deals"),
    [
        ("international", 3, 18),
        ("gcka", 3, 7),
        ("online", 3, 12),
        ("classic", 3, 18),
        ("tables", 3, None),
    ],
)
def test_create_takes_the_rule_sets_defaults(api, creator, ruleset, players, deals):
    response = as_user(api, creator).post(
        URL, {"name": "Cup", "slug": "cup", "ruleset": ruleset}, format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["players_per_team"], body["league_deals"]) == (players, deals)
    assert (body["league_rounds"], body["qualifiers"], body["status"]) == (
        8,
        24,
        "registration",
    )
    tournament = Tournament.objects.get(slug="cup")
    assert list(
        Section.objects.filter(tournament=tournament).values_list("name", flat=True)
    ) == ["International"]
    assert Membership.objects.get(tournament=tournament).role == "organizer"


def test_create_with_own_numbers(api, creator):
    response = as_user(api, creator).post(
        URL,
        {
            "name": "Cup",
            "slug": "cup",
            "ruleset": "online",
            "players_per_team": 4,
            "league_deals": 10,
            "league_rounds": 6,
            "qualifiers": 16,
            "published": True,
        },
        format="json",
    )
    assert response.status_code == 201
    assert Tournament.objects.filter(
        slug="cup", players_per_team=4, league_deals=10, league_rounds=6, qualifiers=16
    ).exists()


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"slug": "cup"}, "name", "required"),
        ({"name": "Cup", "slug": "no spaces"}, "slug", "slug"),
        ({"name": "Cup", "slug": "cup", "ruleset": "bridge"}, "ruleset", "use one of"),
        (
            {"name": "Cup", "slug": "cup", "players_per_team": 4},
            "players_per_team",
            "3 players",
        ),
        (
            {"name": "Cup", "slug": "cup", "players_per_team": 9},
            "players_per_team",
            "4",
        ),
        ({"name": "Cup", "slug": "cup", "league_deals": 0}, "league_deals", "1"),
        ({"name": "Cup", "slug": "cup", "qualifiers": 1}, "qualifiers", "2"),
        ({"name": "Cup", "slug": "taken"}, "slug", "taken"),
    ],
)
def test_bad_tournament_is_refused_naming_the_field_and_nothing_is_written(
    api, creator, body, field, words
):
    TournamentFactory(slug="taken")
    before = Tournament.objects.count()
    response = as_user(api, creator).post(URL, body, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert words in " ".join(response.json()[field])
    assert Tournament.objects.count() == before


def test_create_needs_the_permission(api):
    assert (
        api.post(URL, {"name": "Cup", "slug": "cup"}, format="json").status_code == 401
    )
    plain = UserFactory(username="plain")
    response = as_user(api, plain).post(
        URL, {"name": "Cup", "slug": "cup"}, format="json"
    )
    assert response.status_code == 403
    assert not Tournament.objects.exists()


def test_list_shows_published_and_own_tournaments_only(api, organizer, tournament):
    TournamentFactory(slug="draft", published=False)
    mine = TournamentFactory(slug="mine", published=False)
    Membership.objects.create(tournament=mine, user=organizer, role="scorer")
    anonymous = {t["slug"] for t in api.get(URL).json()["results"]}
    assert anonymous == {"spring-open"}
    as_user(api, organizer)
    assert {t["slug"] for t in api.get(URL).json()["results"]} == {
        "spring-open",
        "mine",
    }


def test_unpublished_tournament_is_not_found_for_strangers(api, outsider):
    TournamentFactory(slug="draft", published=False)
    assert api.get(f"{URL}draft/").status_code == 404
    assert api.get(f"{URL}draft/teams/").status_code == 404
    assert as_user(api, outsider).get(f"{URL}draft/sections/").status_code == 404


def test_detail_names_the_callers_roles(api, organizer, tournament):
    assert api.get(f"{URL}spring-open/").json()["roles"] == []
    assert as_user(api, organizer).get(f"{URL}spring-open/").json()["roles"] == [
        "organizer"
    ]


def test_organizer_patches_and_others_cannot(api, organizer, scorer, tournament):
    as_user(api, scorer)
    assert (
        api.patch(f"{URL}spring-open/", {"published": False}, format="json").status_code
        == 403
    )
    as_user(api, organizer)
    response = api.patch(
        f"{URL}spring-open/", {"published": False, "venue": "Elmont"}, format="json"
    )
    assert response.status_code == 200
    tournament.refresh_from_db()
    assert (tournament.published, tournament.venue) == (False, "Elmont")


def test_team_size_cannot_change_under_registered_teams(api, organizer, team):
    as_user(api, organizer)
    response = api.patch(
        "/api/v1/tournaments/spring-open/",
        {"ruleset": "classic", "players_per_team": 4},
        format="json",
    )
    assert response.status_code == 400
    assert (
        "1 registered teams do not have 4 players"
        in response.json()["players_per_team"][0]
    )
    team.tournament.refresh_from_db()
    assert team.tournament.ruleset == "international"


def test_league_numbers_are_fixed_once_the_league_is_drawn(api, organizer, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(status="league")
    as_user(api, organizer)
    response = api.patch(f"{URL}spring-open/", {"league_rounds": 7}, format="json")
    assert response.status_code == 409
    assert "drawn" in response.json()["detail"]
    assert (
        api.patch(f"{URL}spring-open/", {"venue": "Hall"}, format="json").status_code
        == 200
    )


def test_only_the_tables_format_plays_without_a_deal_count(api, organizer, tournament):
    as_user(api, organizer)
    response = api.patch(f"{URL}spring-open/", {"league_deals": None}, format="json")
    assert response.status_code == 400
    assert "tables" in response.json()["league_deals"][0]
    response = api.patch(f"{URL}spring-open/", {"ruleset": "tables"}, format="json")
    assert (response.status_code, response.json()["league_deals"]) == (200, None)
