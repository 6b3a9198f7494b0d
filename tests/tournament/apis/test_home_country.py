"""A championship outside the USA fills its sections (issue 52; RULES.md §5; API.md):
`home_country` on the tournament (USA by default), its captains placed by city or
region, everyone else in International; fixed by the draw (409 naming the step)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from scoring.league import services as league_services
from tests.conftest import as_user
from tests.factories import SectionFactory, TeamFactory, UserFactory
from tournament.models import Section, Team, Tournament

pytestmark = pytest.mark.django_db
LIST = "/api/v1/tournaments/"
KERALA = "/api/v1/tournaments/kerala/"


def _team(name, city, state, country, players=("Two", "Three")):
    return {
        "name": name,
        "captain": {
            "name": f"{name} Captain",
            "city": city,
            "state": state,
            "country": country,
        },
        "players": list(players),
    }


@pytest.fixture
def maker(api):
    user = UserFactory(username="kerala-maker")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return as_user(api, user)


@pytest.fixture
def kerala(maker):
    made = maker.post(
        LIST,
        {"name": "Kerala Championship", "slug": "kerala", "home_country": "Bharat"},
        format="json",
    )
    assert made.status_code == 201, made.json()
    for body in (
        {"name": "Ernakulam", "cities": ["Kochi", "Aluva"]},
        {"name": "Thrissur", "states": ["Kerala-North"]},
    ):
        answer = maker.post(KERALA + "sections/", body, format="json")
        assert answer.status_code == 201, answer.json()
    return maker


def test_a_new_tournament_is_at_home_in_the_usa_unless_given(maker):
    plain = maker.post(LIST, {"name": "Edison Open", "slug": "edison"}, format="json")
    assert plain.status_code == 201, plain.json()
    assert plain.json()["home_country"] == "USA"
    assert maker.get("/api/v1/tournaments/edison/").json()["home_country"] == "USA"


def test_the_home_country_is_stored_by_its_one_name(kerala):
    shown = kerala.get(KERALA).json()
    assert shown["home_country"] == "India"  # "Bharat" as typed
    sections = kerala.get(KERALA + "sections/").json()
    rows = sections["results"] if isinstance(sections, dict) else sections
    thrissur = next(r for r in rows if r["name"] == "Thrissur")
    assert thrissur["states"] == ["Kerala-North"]  # a region as written, not a code
    intl = next(r for r in rows if r["is_international"])
    assert intl["name"] == "International"  # the API's value stays stable


@pytest.mark.parametrize(
    ("city", "state", "country", "section", "placement"),
    [
        ("Kochi", "", "India", "Ernakulam", "city"),
        ("aluva", "Kerala-North", "india", "Ernakulam", "city"),
        ("Chalakudy", "kerala north", "India", "Thrissur", "state"),
        ("Chalakudy", "KERALA  NORTH", "ഇന്ത്യ", "Thrissur", "state"),
        ("Edison", "NJ", "USA", "International", "international"),
        ("Dubai", "", "U.A.E.", "International", "international"),
    ],
)
def test_india_places_teams_by_city_or_region_and_others_in_international(
    kerala, city, state, country, section, placement
):
    answer = kerala.post(
        KERALA + "teams/", _team("Aces", city, state, country), format="json"
    )
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["section_name"] == section
    assert body["placement"] == placement


def test_a_home_team_no_section_takes_is_refused_naming_the_field(kerala):
    answer = kerala.post(
        KERALA + "teams/",
        _team("Kannur Kings", "Kannur", "Malabar", "India"),
        format="json",
    )
    assert answer.status_code == 400
    (message,) = answer.json()["captain"]["state"]
    assert "No section takes a team from Kannur, Malabar" in message
    assert "Ernakulam (Kochi, Aluva)" in message
    assert not Team.objects.exists()


def test_uae_spellings_are_one_country(kerala):
    for n, spelling in enumerate(["UAE", "U.A.E.", "United Arab Emirates"]):
        answer = kerala.post(
            KERALA + "teams/",
            _team(f"Gulf {n}", "Dubai", "", spelling),
            format="json",
        )
        assert answer.status_code == 201, answer.json()
        assert answer.json()["captain"]["country"] == "United Arab Emirates"
    assert set(Team.objects.values_list("captain_country", flat=True)) == {
        "United Arab Emirates"
    }


def test_a_us_tournament_still_wants_us_states(api, tournament, organizer, sections):
    as_user(api, organizer)
    url = f"/api/v1/tournaments/{tournament.slug}/"
    assert api.get(url).json()["home_country"] == "USA"
    answer = api.post(
        url + "teams/", _team("Kochi Kings", "Kochi", "Kerala", "India"), format="json"
    )
    assert answer.status_code == 201, answer.json()
    assert answer.json()["section_name"] == "International"
    refused = api.post(
        url + "sections/", {"name": "Kerala", "states": ["Kerala"]}, format="json"
    )
    assert refused.status_code == 400
    assert "not a US state" in refused.json()["states"][0]


def test_changing_the_home_country_places_the_teams_again(
    api, tournament, organizer, sections
):
    as_user(api, organizer)
    url = f"/api/v1/tournaments/{tournament.slug}/"
    made = api.post(
        url + "teams/", _team("Kochi Kings", "Kochi", "Kerala", "India"), format="json"
    )
    assert made.json()["section_name"] == "International"
    edison = api.post(
        url + "teams/", _team("Edison Aces", "Edison", "NJ", "USA"), format="json"
    )
    assert edison.json()["section_name"] == "Tri-State"
    # Kochi is listed by no section: the change is refused naming the team.
    refused = api.patch(url, {"home_country": "India"}, format="json")
    assert refused.status_code == 400
    (message,) = refused.json()["home_country"]
    assert "Kochi Kings" in message and "India" in message
    assert Tournament.objects.get(pk=tournament.pk).home_country == "USA"
    api.post(url + "sections/", {"name": "Kerala", "cities": ["Kochi"]}, format="json")
    changed = api.patch(url, {"home_country": "india"}, format="json")
    assert changed.status_code == 200, changed.json()
    assert changed.json()["home_country"] == "India"
    placed = dict(Team.objects.values_list("name", "section__name"))
    assert placed == {"Kochi Kings": "Kerala", "Edison Aces": "International"}
    # back to the USA: the region-free sections fit, the US team finds its state
    back = api.patch(url, {"home_country": "United States"}, format="json")
    assert back.status_code == 200, back.json()
    placed = dict(Team.objects.values_list("name", "section__name"))
    assert placed == {"Kochi Kings": "International", "Edison Aces": "Tri-State"}


def test_a_blank_home_country_is_refused_naming_the_field(api, tournament, organizer):
    as_user(api, organizer)
    answer = api.patch(
        f"/api/v1/tournaments/{tournament.slug}/", {"home_country": " "}, format="json"
    )
    assert answer.status_code == 400
    assert list(answer.json()) == ["home_country"]


def test_the_draw_fixes_the_home_country(api, tournament, organizer):
    url = f"/api/v1/tournaments/{tournament.slug}/"
    as_user(api, organizer)
    for s in range(3):
        section = SectionFactory(tournament=tournament, name=f"Region {s}")
        for t in range(4):
            TeamFactory(section=section, name=f"Region {s} team {t}")
    league_services.league_draw_generate(tournament=tournament, user=organizer, seed=1)
    refused = api.patch(url, {"home_country": "India"}, format="json")
    assert refused.status_code == 409
    body = refused.json()
    assert body["code"] == "draw_locked"
    assert body["settings"] == ["home_country"]
    assert (
        "Cannot change home country of Spring Open: the league is drawn"
        in (body["detail"])
    )
    assert api.patch(url, {"home_country": "U.S.A."}, format="json").status_code == 200
    assert Section.objects.filter(tournament=tournament).count() == 4


def test_the_team_list_template_says_how_the_home_country_places_teams(kerala):
    from io import BytesIO

    from openpyxl import load_workbook

    answer = kerala.get(KERALA + "teams/import/template.xlsx")
    assert answer.status_code == 200
    notes = load_workbook(BytesIO(answer.content))["How to fill"]
    text = " ".join(str(row[0].value) for row in notes.iter_rows())
    assert "teams from India only" in text and "International" in text
    assert "teams from outside the USA" not in text


def test_an_imported_team_list_is_placed_by_the_home_country(kerala):
    from tests.spreadsheets import team_list_xlsx

    content = team_list_xlsx(
        [
            ["Kochi Kings", "Anil", "Kochi", "", "India", "Biju", "Chacko"],
            [
                "Chalakudy Chargers",
                "Dev",
                "Chalakudy",
                "kerala north",
                "Bharat",
                "Eapen",
                "Fasil",
            ],
            ["Edison Aces", "Jose", "Edison", "NJ", "USA", "Gopan", "Hari"],
        ]
    )
    content.seek(0)
    answer = kerala.post(
        KERALA + "teams/import/", {"file": content}, format="multipart"
    )
    assert answer.status_code == 201, answer.json()
    placed = dict(Team.objects.values_list("name", "section__name"))
    assert placed == {
        "Kochi Kings": "Ernakulam",
        "Chalakudy Chargers": "Thrissur",
        "Edison Aces": "International",
    }
