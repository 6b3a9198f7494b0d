"""Team registration through the API: placement, the organizer's move, bad input."""

import pytest

from tests.conftest import as_user
from tests.factories import SectionFactory, TeamFactory, TournamentFactory
from tournament.models import Player, Team, Tournament

pytestmark = pytest.mark.django_db
URL = "/api/v1/tournaments/spring-open/teams/"


def _team(
    name="Aces", city="Edison", state="nj", country="USA", players=("Anil", "Biju")
):
    return {
        "name": name,
        "captain": {
            "name": "Jose Kurian",
            "city": city,
            "state": state,
            "country": country,
        },
        "players": list(players),
    }


def _snapshot():
    return (
        list(
            Team.objects.order_by("pk").values_list("name", "section_id", "placement")
        ),
        list(Player.objects.order_by("pk").values_list("team_id", "position", "name")),
    )


@pytest.mark.parametrize(
    ("city", "state", "country", "section", "placement"),
    [
        ("Edison", "nj", "USA", "Tri-State", "state"),
        ("Yonkers", "New York", "United States", "Tri-State", "state"),
        ("Chicago", "IL", "US", "Chicago", "city"),
        ("Naperville", "il", "usa", "Midwest", "state"),
        ("Toronto", "", "Canada", "International", "international"),
    ],
)
def test_registration_places_the_team(
    api, organizer, sections, city, state, country, section, placement
):
    response = as_user(api, organizer).post(
        URL, _team(city=city, state=state, country=country), format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["section_name"], body["placement"]) == (section, placement)
    assert body["players"] == ["Jose Kurian", "Anil", "Biju"]
    assert body["captain"]["country"] == ("USA" if country != "Canada" else "Canada")


def test_us_team_matching_no_section_is_refused_naming_state_and_sections(
    api, organizer, sections
):
    before = _snapshot()
    response = as_user(api, organizer).post(
        URL, _team(city="Denver", state="co"), format="json"
    )
    assert response.status_code == 400
    message = response.json()["captain"]["state"][0]
    assert "Denver, CO (Colorado)" in message
    assert "Tri-State (NJ, NY)" in message and "Chicago (Chicago)" in message
    assert _snapshot() == before


@pytest.mark.parametrize(
    ("body", "path", "words"),
    [
        (_team(name=""), ("name",), "needs a name"),
        (_team(name="edison aces"), ("name",), "registered already"),
        (_team(players=["Anil"]), ("players",), "3 players"),
        (_team(players=["Anil", "Biju", "Cherian"]), ("players",), "this one has 4"),
        (_team(players=["Anil", "anil"]), ("players",), "listed twice"),
        (_team(state="XX"), ("captain", "state"), "not a US state"),
        (_team(state=""), ("captain", "state"), "needs a state"),
        (_team(city=""), ("captain", "city"), "needs a city"),
        ({"name": "Aces", "players": []}, ("captain",), "required"),
        (
            {"name": "Aces", "captain": {"name": "J"}, "players": []},
            ("captain", "country"),
            "required",
        ),
    ],
)
def test_bad_team_is_refused_naming_the_field_and_nothing_is_written(
    api, organizer, team, body, path, words
):
    before = _snapshot()
    response = as_user(api, organizer).post(URL, body, format="json")
    assert response.status_code == 400
    node = response.json()
    for key in path:
        node = node[key]
    assert words in " ".join(node)
    assert _snapshot() == before


def test_every_wrong_field_is_named_at_once(api, organizer, sections):
    response = as_user(api, organizer).post(
        URL, _team(name="", state="XX", players=["A"]), format="json"
    )
    assert response.status_code == 400
    body = response.json()
    assert set(body) == {"name", "captain", "players"}
    assert "not a US state" in body["captain"]["state"][0]


def test_organizer_moves_a_team_and_it_stays_moved(api, organizer, team, sections):
    as_user(api, organizer)
    midwest = sections["midwest"]
    response = api.patch(f"{URL}{team.pk}/", {"section": midwest.pk}, format="json")
    assert response.status_code == 200
    assert (response.json()["section"], response.json()["placement"]) == (
        midwest.pk,
        "organizer",
    )
    # A later change of the captain's address keeps the organizer's choice.
    response = api.patch(
        f"{URL}{team.pk}/",
        {"captain": {"city": "Yonkers", "state": "NY"}},
        format="json",
    )
    assert response.status_code == 200
    assert response.json()["section"] == midwest.pk
    assert response.json()["captain"]["city"] == "Yonkers"


def test_a_new_captain_address_re_places_the_team(api, organizer, team, sections):
    as_user(api, organizer)
    response = api.patch(
        f"{URL}{team.pk}/",
        {"captain": {"city": "Chicago", "state": "IL"}},
        format="json",
    )
    assert response.status_code == 200
    assert (response.json()["section_name"], response.json()["placement"]) == (
        "Chicago",
        "city",
    )


def test_a_team_cannot_move_to_another_tournaments_section(api, organizer, team):
    foreign = SectionFactory(tournament=TournamentFactory(slug="elsewhere"), name="Far")
    response = as_user(api, organizer).patch(
        f"{URL}{team.pk}/", {"section": foreign.pk}, format="json"
    )
    assert response.status_code == 400
    assert "no such section" in response.json()["section"][0]
    team.refresh_from_db()
    assert team.section.name == "Tri-State"


def test_teams_are_fixed_once_the_league_is_drawn(api, organizer, team, sections):
    Tournament.objects.filter(pk=team.tournament_id).update(status="league")
    as_user(api, organizer)
    before = _snapshot()
    moved = api.patch(
        f"{URL}{team.pk}/", {"section": sections["midwest"].pk}, format="json"
    )
    added = api.post(URL, _team(name="Late"), format="json")
    removed = api.delete(f"{URL}{team.pk}/")
    assert (moved.status_code, added.status_code, removed.status_code) == (
        409,
        409,
        409,
    )
    assert "drawn" in moved.json()["detail"]
    assert _snapshot() == before


def test_roster_change_and_withdrawal(api, organizer, team):
    as_user(api, organizer)
    response = api.patch(
        f"{URL}{team.pk}/", {"players": ["New One", "New Two"]}, format="json"
    )
    assert response.json()["players"] == [team.captain_name, "New One", "New Two"]
    assert api.delete(f"{URL}{team.pk}/").status_code == 204
    assert not Team.objects.filter(pk=team.pk).exists()
    assert not Player.objects.filter(team_id=team.pk).exists()


def test_list_filters_by_section_and_search(api, sections):
    TeamFactory(section=sections["tri"], name="Edison Aces", captain_city="Edison")
    TeamFactory(section=sections["chicago"], name="Windy Jacks", captain_city="Chicago")
    TeamFactory(section=sections["chicago"], name="Lake Nines", captain_city="Chicago")
    names = lambda q: [t["name"] for t in api.get(URL + q).json()["results"]]  # noqa: E731
    assert names("") == ["Edison Aces", "Lake Nines", "Windy Jacks"]
    assert names(f"?section={sections['chicago'].pk}") == ["Lake Nines", "Windy Jacks"]
    assert names("?search=jack") == ["Windy Jacks"]
    assert names("?search=edison") == ["Edison Aces"]
    assert names("?page_size=2&page=2") == ["Windy Jacks"]
    assert api.get(URL + "?section=x").json() == {
        "section": ["A valid integer is required."]
    }
