"""Sections through the API: states and cities normalised, each listed once."""

import pytest

from tests.conftest import as_user
from tournament.models import Section

pytestmark = pytest.mark.django_db
URL = "/api/v1/tournaments/spring-open/sections/"


def test_organizer_adds_a_section_with_normalised_places(api, organizer, tournament):
    response = as_user(api, organizer).post(
        URL,
        {
            "name": "Tri-State",
            "states": ["nj", "New York", "NJ"],
            "cities": ["Yonkers"],
        },
        format="json",
    )
    assert response.status_code == 201
    body = response.json()
    assert (body["states"], body["cities"], body["team_count"]) == (
        ["NJ", "NY"],
        ["Yonkers"],
        0,
    )
    names = [s["name"] for s in api.get(URL).json()]
    assert names == ["Tri-State", "International"]


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        (
            {"name": "East", "states": ["NJ"]},
            "states",
            "NJ is already listed by section Tri-State",
        ),
        (
            {"name": "East", "cities": ["chicago"]},
            "cities",
            "already listed by section Chicago",
        ),
        ({"name": "east", "states": ["ZZ"]}, "states", "not a US state"),
        ({"name": "tri-state"}, "name", "there is a section named"),
        ({"name": "international"}, "name", "there is a section named"),
        ({"states": ["TX"]}, "name", "required"),
    ],
)
def test_bad_section_is_refused_and_nothing_changes(
    api, organizer, sections, body, field, words
):
    before = list(Section.objects.values_list("name", "states", "cities"))
    response = as_user(api, organizer).post(URL, body, format="json")
    assert response.status_code == 400
    assert words in " ".join(response.json()[field])
    assert list(Section.objects.values_list("name", "states", "cities")) == before


def test_patch_changes_places_and_international_is_fixed(api, organizer, sections):
    as_user(api, organizer)
    tri = sections["tri"]
    response = api.patch(
        f"{URL}{tri.pk}/", {"states": ["NJ", "NY", "CT"]}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["states"] == ["CT", "NJ", "NY"]
    international = Section.objects.get(
        is_international=True, tournament=tri.tournament
    )
    response = api.patch(f"{URL}{international.pk}/", {"states": ["TX"]}, format="json")
    assert response.status_code == 400
    assert api.delete(f"{URL}{international.pk}/").status_code == 409


def test_a_section_with_teams_cannot_be_deleted(api, organizer, team, sections):
    as_user(api, organizer)
    response = api.delete(f"{URL}{sections['tri'].pk}/")
    assert response.status_code == 409
    assert "has 1 teams" in response.json()["detail"]
    assert api.delete(f"{URL}{sections['chicago'].pk}/").status_code == 204
    assert not Section.objects.filter(pk=sections["chicago"].pk).exists()
