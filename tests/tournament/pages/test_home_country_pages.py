"""A championship outside the USA on the pages (issue 52; RULES.md §5), in English and
Malayalam: the home country on the create and settings pages, registration's form
starting from it, sections placing its teams by city or region, International named
in the page's language, and the team list's Section column with a move done in place
(htmx)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from tests.factories import SectionFactory, TeamFactory, UserFactory
from tournament.models import Section, Team, Tournament
from tournament.services import tournament_create

pytestmark = pytest.mark.django_db
DESK = "/t/kerala/registration/"
ML_INTERNATIONAL = "ഇന്റർനാഷണൽ"


@pytest.fixture
def organizer(db):
    user = UserFactory(username="kerala-org")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


@pytest.fixture
def kerala(organizer):
    tournament = tournament_create(
        user=organizer, name="Kerala Championship", slug="kerala", home_country="India"
    )
    SectionFactory(tournament=tournament, name="Ernakulam", cities=["Kochi", "Aluva"])
    SectionFactory(tournament=tournament, name="Thrissur", states=["Kerala-North"])
    return tournament


def _in(language: str, user) -> Client:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


def _register(client, name, city, state, country):
    return client.post(
        DESK,
        {
            "action": "team",
            "team-name": name,
            "team-captain_name": f"{name} Captain",
            "team-captain_city": city,
            "team-captain_state": state,
            "team-captain_country": country,
            "team-player_2": "Two",
            "team-player_3": "Three",
        },
        follow=True,
    )


@pytest.mark.parametrize(
    ("language", "label", "said"),
    [
        ("en", "Home country", "Cities and states or regions place this country"),
        ("ml", "ആതിഥേയ രാജ്യം", "ഈ രാജ്യത്തെ ടീമുകളെ"),
    ],
)
def test_the_create_page_takes_a_home_country(organizer, language, label, said):
    client = _in(language, organizer)
    page = client.get("/tournaments/new/").content.decode()
    assert label in page and said in page
    assert 'name="home_country"' in page and 'value="USA"' in page
    answer = client.post(
        "/tournaments/new/",
        {
            "name": "Kochi Open",
            "slug": "kochi-open",
            "ruleset": "international",
            "players_per_team": 3,
            "league_rounds": 8,
            "league_deals": 18,
            "qualifiers": 24,
            "substitutions_allowed": 1,
            "home_country": "bharat",
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert Tournament.objects.get(slug="kochi-open").home_country == "India"


@pytest.mark.parametrize(
    ("language", "region_label", "hint", "intl"),
    [
        (
            "en",
            "State or region",
            "Cities and states or regions place teams from "
            "India only; teams from elsewhere play in International.",
            "International",
        ),
        ("ml", "സ്റ്റേറ്റ് അല്ലെങ്കിൽ പ്രദേശം", "India-ലെ ടീമുകളെ മാത്രമേ", ML_INTERNATIONAL),
    ],
)
def test_registration_in_india_places_by_city_and_region(
    kerala, organizer, language, region_label, hint, intl
):
    client = _in(language, organizer)
    page = client.get(DESK).content.decode()
    assert region_label in page and "State (US)" not in page
    assert hint in page
    assert 'name="team-captain_country" value="India"' in page
    assert "NJ, NY, PA" not in page and "Kerala-North, Malabar" in page
    _register(client, "Kochi Kings", "kochi", "", "India")
    _register(client, "Chalakudy Chargers", "Chalakudy", "KERALA NORTH", "India")
    _register(client, "Edison Aces", "Edison", "NJ", "USA")
    placed = dict(Team.objects.values_list("name", "section__name"))
    assert placed == {
        "Kochi Kings": "Ernakulam",
        "Chalakudy Chargers": "Thrissur",
        "Edison Aces": "International",
    }
    page = client.get(DESK).content.decode()
    team_list = page.split('id="team-list"', 1)[1]
    row = team_list.split("<td>Edison Aces</td>", 1)[1].split("</tr>", 1)[0]
    assert f"<td>{intl}</td>" in row  # the Section column, in the page's language
    if language == "ml":
        assert "<td>International</td>" not in team_list


def test_a_refusal_names_the_city_and_region_in_malayalam(kerala, organizer):
    client = _in("ml", organizer)
    answer = _register(client, "Kannur Kings", "Kannur", "Malabar", "India")
    page = answer.content.decode()
    assert "Kannur, Malabar-ൽ നിന്നുള്ള ടീമിനെ ഒരു സെക്ഷനും എടുക്കുന്നില്ല" in page
    assert not Team.objects.exists()


@pytest.mark.parametrize("language", ["en", "ml"])
def test_a_move_with_htmx_answers_the_team_list_in_place(kerala, organizer, language):
    team = TeamFactory(
        section=Section.objects.get(name="Ernakulam"),
        name="Kochi Kings",
        captain_city="Kochi",
        captain_state="",
        captain_country="India",
        placement="city",
    )
    thrissur = Section.objects.get(name="Thrissur")
    client = _in(language, organizer)
    answer = client.post(
        DESK,
        {"action": "move", "team": team.pk, "section": thrissur.pk},
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 200  # no redirect: htmx swaps #teams in place
    page = answer.content.decode()
    said = page.split('id="move-said"', 1)[1].split("</p>", 1)[0]
    expected = {"en": "Kochi Kings now plays in Thrissur."}.get(language, "Thrissur")
    assert expected in said
    row = page.split('id="team-list"', 1)[1].split("<td>Kochi Kings</td>", 1)[1]
    assert "<td>Thrissur</td>" in row.split("</tr>", 1)[0]
    team.refresh_from_db()
    assert (team.section, team.placement) == (thrissur, "organizer")
    # the form tells htmx what to swap, and without script still posts the page
    assert 'hx-post="/t/kerala/registration/"' in page and 'hx-select="#teams"' in page


def test_a_refused_move_with_htmx_says_why_and_changes_nothing(kerala, organizer):
    team = TeamFactory(
        section=Section.objects.get(name="Ernakulam"),
        name="Kochi Kings",
        captain_country="India",
        captain_state="",
    )
    Tournament.objects.filter(pk=kerala.pk).update(status="league")
    client = _in("en", organizer)
    answer = client.post(
        DESK,
        {
            "action": "move",
            "team": team.pk,
            "section": Section.objects.get(name="Thrissur").pk,
        },
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 200
    said = answer.content.decode().split('id="move-said"', 1)[1].split("</p>", 1)[0]
    assert "Cannot change a team" in said
    team.refresh_from_db()
    assert team.section.name == "Ernakulam"


def test_a_us_tournament_keeps_its_us_form(client, organizer):
    tournament_create(user=organizer, name="Edison Open", slug="edison")
    client.force_login(organizer)
    page = client.get("/t/edison/registration/").content.decode()
    assert "State (US)" in page and "NJ, NY, PA" in page
    assert 'name="team-captain_country" value="USA"' in page
    assert "place teams from USA only" in page


@pytest.mark.parametrize(
    ("language", "intl"), [("en", "International"), ("ml", ML_INTERNATIONAL)]
)
def test_the_teams_page_names_international_in_the_pages_language(
    kerala, organizer, language, intl
):
    Tournament.objects.filter(pk=kerala.pk).update(published=True)
    TeamFactory(
        section=Section.objects.get(tournament=kerala, is_international=True),
        name="Edison Aces",
        placement="international",
    )
    client = _in(language, organizer)
    page = client.get("/t/kerala/teams/").content.decode()
    assert f"<h2>{intl} <small>" in page
    assert "Edison, NJ, USA" in page  # a captain from abroad says the country


SETTINGS = {
    "name": "Kerala Championship",
    "ruleset": "international",
    "players_per_team": 3,
    "league_rounds": 8,
    "league_deals": 18,
    "qualifiers": 24,
    "substitutions_allowed": 1,
}


@pytest.mark.parametrize(
    ("language", "refused"),
    [
        ("en", "section Thrissur lists Kerala-North, which are not states of USA"),
        ("ml", "Thrissur സെക്ഷനിൽ Kerala-North ഉണ്ട്, അവ USA-ലെ സ്റ്റേറ്റുകളല്ല"),
    ],
)
def test_the_settings_page_changes_the_home_country_or_says_why_not(
    kerala, organizer, language, refused
):
    client = _in(language, organizer)
    page = client.get("/t/kerala/settings/").content.decode()
    assert 'name="home_country"' in page and 'value="India"' in page
    answer = client.post("/t/kerala/settings/", {**SETTINGS, "home_country": "USA"})
    assert answer.status_code == 400
    assert refused in answer.content.decode()
    assert Tournament.objects.get(pk=kerala.pk).home_country == "India"
    Section.objects.filter(name="Thrissur").delete()
    answer = client.post("/t/kerala/settings/", {**SETTINGS, "home_country": "u.s."})
    assert answer.status_code == 302
    assert Tournament.objects.get(pk=kerala.pk).home_country == "USA"


@pytest.mark.parametrize(
    ("language", "intl", "outside"),
    [
        ("en", "International", "every team from outside India"),
        ("ml", ML_INTERNATIONAL, "India-ന് പുറത്തുനിന്നുള്ള എല്ലാ ടീമുകളും"),
    ],
)
def test_international_is_said_in_the_pages_language_on_every_list(
    kerala, organizer, language, intl, outside
):
    """Issue 52's walk: the Overview said International takes "every team from
    outside the USA" in an Indian championship, and the Overview, the Draw page and
    the standings said "International" in English on Malayalam pages."""
    Tournament.objects.filter(pk=kerala.pk).update(published=True)
    section = Section.objects.get(tournament=kerala, is_international=True)
    TeamFactory(section=section, name="Dubai Dealers", placement="international")
    for name in ("Kochi Kings", "Aluva Aces", "Fort Fours"):
        TeamFactory(section=Section.objects.get(name="Ernakulam"), name=name)
    client = _in(language, organizer)
    overview = client.get("/t/kerala/").content.decode()
    assert f"<tr><td>{intl}</td><td>{outside}</td>" in overview
    draw = client.get("/t/kerala/draw/").content.decode()
    assert f"<tr><td>{intl}</td>" in draw
    standings = client.get("/t/kerala/standings/").content.decode()
    assert f'<small class="muted">{intl}</small>' in standings
    if language == "ml":
        for page in (overview, draw, standings):
            assert ">International<" not in page
