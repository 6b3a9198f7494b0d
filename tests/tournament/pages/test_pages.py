"""The pages as a person uses them: public reading, login, the organizer's desk."""

import pytest
from django.test import Client

from tests.factories import TeamFactory, TournamentFactory, member
from tests.spreadsheets import team_list_xlsx
from tournament import services
from tournament.domain.types import Role
from tournament.models import Section, Team, Tournament

pytestmark = pytest.mark.django_db
DESK = "/t/spring-open/registration/"


@pytest.fixture
def client():
    return Client()


@pytest.fixture
def desk(client, organizer, sections):
    client.force_login(organizer)
    return client


def test_home_lists_published_tournaments_only(client, tournament):
    TournamentFactory(name="Secret Draft", slug="secret", published=False)
    page = client.get("/").content.decode()
    assert "Spring Open" in page
    assert "Secret Draft" not in page
    assert client.get("/t/secret/").status_code == 404


def test_organizer_sees_own_unpublished_tournament_marked(client, organizer):
    draft = TournamentFactory(name="Winter Draft", slug="winter", published=False)
    member(draft, Role.ORGANIZER, "org")
    client.force_login(organizer)
    page = client.get("/").content.decode()
    assert "Winter Draft" in page and "not published" in page


def test_tournament_page_shows_rules_and_sections(client, sections, team):
    page = client.get("/t/spring-open/").content.decode()
    assert "18 deals" in page and "the best 24 teams, once 24 are registered" in page
    assert "56 International" in page
    assert "Tri-State" in page and "NJ, NY" in page
    assert "every team from outside the USA" in page
    assert "/registration/" not in page  # the desk's tab is for organizers


@pytest.mark.parametrize(
    ("language", "name"),
    [
        ("en", "Greater Carolina Kerala Association"),
        ("ml", "ഗ്രേറ്റർ കരോലിന കേരള അസോസിയേഷൻ"),
    ],
)
def test_the_overview_names_the_rule_set_as_a_person_reads_it(client, language, name):
    TournamentFactory(slug="carolina", ruleset="gcka", league_deals=7, qualifiers=2)
    client.post("/i18n/setlang/", {"language": language, "next": "/"})
    page = client.get("/t/carolina/").content.decode()
    assert f"<dd>{name}</dd>" in page
    assert "Gcka" not in page and ">gcka<" not in page


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            (
                "the best 4 teams",
                "the best 8 teams, once 8 are registered (5 teams so far; with "
                "fewer, the organizers choose a smaller knockout)",
                "4 teams play, fewer than the 8 set: the organizers choose a "
                "smaller knockout when they seed it",
            ),
        ),
        (
            "ml",
            (
                "ആദ്യത്തെ 4 ടീമുകൾ",
                "ആദ്യത്തെ 8 ടീമുകൾ, 8 ടീമുകൾ രജിസ്റ്റർ ചെയ്തുകഴിഞ്ഞാൽ (ഇതുവരെ 5 ടീമുകൾ;",
                "4 ടീമുകൾ മാത്രമേ കളിക്കുന്നുള്ളൂ, നിശ്ചയിച്ച 8-നെക്കാൾ കുറവ്:",
            ),
        ),
    ],
)
def test_the_overview_says_how_big_the_knockout_will_really_be(client, language, words):
    """Enough teams: the best Q. Fewer registered than Q: the best Q once Q are
    registered, and what happens with fewer. Fewer playing once the league is drawn
    (one was absent from the draw): a smaller knockout, chosen at seeding
    (docs/knockout.md)."""
    enough, short, fewer = words
    cup = TournamentFactory(slug="ko-size", qualifiers=4)
    section = Section.objects.get(tournament=cup)
    teams = [TeamFactory(section=section, name=f"Team {n}") for n in range(5)]
    client.post("/i18n/setlang/", {"language": language, "next": "/"})
    assert f"<dd>{enough}</dd>" in client.get("/t/ko-size/").content.decode()
    Tournament.objects.filter(pk=cup.pk).update(qualifiers=8)
    page = client.get("/t/ko-size/").content.decode()
    assert short in page and "the best 8 teams</dd>" not in page
    bracket = client.get("/t/ko-size/bracket/").content.decode()
    assert short in bracket
    Tournament.objects.filter(pk=cup.pk).update(status="league")
    Team.objects.filter(pk=teams[0].pk).update(status="absent")
    page = client.get("/t/ko-size/").content.decode()
    assert fewer in page
    assert fewer in client.get("/t/ko-size/bracket/").content.decode()
    # Once seeded (the setting then is the bracket's), the overview says it as it is.
    Tournament.objects.filter(pk=cup.pk).update(status="knockout", qualifiers=4)
    Team.objects.filter(pk=teams[1].pk).update(status="absent")
    assert f"<dd>{enough}</dd>" in client.get("/t/ko-size/").content.decode()


def test_teams_page_groups_teams_by_section(client, sections):
    TeamFactory(section=sections["tri"], name="Edison Aces", captain_name="Jose Kurian")
    TeamFactory(section=sections["chicago"], name="Windy Jacks", captain_city="Chicago")
    page = client.get("/t/spring-open/teams/").content.decode()
    assert page.index("Chicago") < page.index("Windy Jacks") < page.index("Tri-State")
    assert page.index("Tri-State") < page.index("Edison Aces")
    assert 'Jose Kurian <abbr class="captain" title="captain">(c)</abbr>' in page


def test_login_and_logout(client, organizer):
    organizer.set_password("Kerala-Cards-2026")
    organizer.save()
    response = client.post(
        "/accounts/login/", {"username": "org", "password": "Kerala-Cards-2026"}
    )
    assert response.status_code == 302
    assert "org" in client.get("/").content.decode()
    client.post("/accounts/logout/")
    assert "Log in" in client.get("/").content.decode()


def test_desk_needs_login_and_the_organizer_role(client, tournament, scorer):
    response = client.get(DESK)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(scorer)
    assert client.get(DESK).status_code == 403


def test_organizer_registers_a_team_from_the_desk(desk):
    response = desk.post(
        DESK,
        {
            "action": "team",
            "team-name": "Windy Jacks",
            "team-captain_name": "Tomy George",
            "team-captain_city": "Chicago",
            "team-captain_state": "il",
            "team-captain_country": "United States",
            "team-player_2": "Cherian",
            "team-player_3": "Daniel",
        },
        follow=True,
    )
    page = response.content.decode()
    assert "Windy Jacks is registered in section Chicago." in page
    team = Team.objects.get(name="Windy Jacks")
    assert (team.section.name, team.placement) == ("Chicago", "city")


def test_desk_shows_the_rule_on_the_field_and_writes_nothing(desk):
    response = desk.post(
        DESK,
        {
            "action": "team",
            "team-name": "Denver Deuces",
            "team-captain_name": "Saji Paul",
            "team-captain_city": "Denver",
            "team-captain_state": "CO",
            "team-captain_country": "USA",
            "team-player_2": "Gopan",
            "team-player_3": "Hari",
        },
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "No section takes a team from Denver, CO (Colorado)" in page
    assert 'value="Denver Deuces"' in page  # the form keeps what was typed
    assert not Team.objects.exists()


def test_desk_adds_a_section_and_moves_a_team(desk, team, sections):
    response = desk.post(
        DESK,
        {"action": "section", "section-name": "Texas", "section-states": "tx, ok"},
        follow=True,
    )
    assert "Section Texas is added." in response.content.decode()
    texas = Section.objects.get(name="Texas")
    assert texas.states == ["OK", "TX"]
    response = desk.post(
        DESK, {"action": "move", "team": team.pk, "section": texas.pk}, follow=True
    )
    assert "Edison Aces now plays in Texas." in response.content.decode()
    team.refresh_from_db()
    assert (team.section, team.placement) == (texas, "organizer")


def test_desk_refuses_a_state_listed_twice(desk, sections):
    response = desk.post(
        DESK, {"action": "section", "section-name": "East", "section-states": "NJ"}
    )
    assert response.status_code == 400
    assert "NJ is already listed by section Tri-State" in response.content.decode()
    assert not Section.objects.filter(name="East").exists()


def test_desk_import_lists_every_bad_row_and_creates_nothing(desk):
    bad = team_list_xlsx(
        [
            ["Edison Aces", "Jose", "Edison", "NJ", "USA", "Anil", "Biju"],
            ["Denver Deuces", "Saji", "Denver", "CO", "USA", "Gopan", "Hari"],
        ]
    )
    response = desk.post(DESK, {"action": "import", "import-file": bad})
    assert response.status_code == 400
    page = response.content.decode()
    assert "1 row is wrong; no team was created" in page
    assert '<td class="num">3</td>' in page and "Denver, CO" in page
    assert not Team.objects.exists()
    good = team_list_xlsx(
        [["Edison Aces", "Jose", "Edison", "NJ", "USA", "Anil", "Biju"]]
    )
    response = desk.post(DESK, {"action": "import", "import-file": good}, follow=True)
    assert "1 team is registered." in response.content.decode()
    assert Team.objects.get().section.name == "Tri-State"


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        ("en", "1 row is wrong;", "2 rows are wrong;"),
        ("ml", "1 വരി തെറ്റാണ്;", "2 വരികൾ തെറ്റാണ്;"),
    ],
)
def test_desk_import_counts_its_bad_rows_and_names_the_templates_columns(
    desk, language, one, two
):
    """ "1 row is wrong" (not "1 rows"), in each language's plural; each problem names
    the column as the template shows it (State, Team, Player 2), never a field's code
    (captain.state)."""
    desk.post("/i18n/setlang/", {"language": language, "next": "/"})
    rows = [
        ["Denver Deuces", "Saji", "Denver", "CO", "USA", "Gopan", "Hari"],
        ["", "Roy Mani", "Edison", "NJ", "USA", "Issac", None],
    ]
    for bad, said in ((rows[:1], one), (rows, two)):
        response = desk.post(
            DESK, {"action": "import", "import-file": team_list_xlsx(bad)}
        )
        assert response.status_code == 400
        page = response.content.decode()
        assert said in page
        assert "rows are wrong" not in page or said.startswith("2 rows")
    assert '<td class="num">2</td><td>State</td>' in page
    assert '<td class="num">3</td><td>Team</td>' in page
    assert "<td>Player 2, Player 3</td>" in page
    assert "captain." not in page and "<td>name</td>" not in page
    assert "<td>players</td>" not in page
    assert not Team.objects.exists()


@pytest.mark.parametrize(
    "post",
    [
        {"action": "move", "team": "x", "section": "1"},
        {"action": "unknown"},
    ],
)
def test_desk_answers_tampered_buttons_with_a_message(desk, team, post):
    before = list(Team.objects.values_list("section_id", flat=True))
    response = desk.post(DESK, post, follow=True)
    assert response.status_code == 200
    assert "Choose what to change from the lists here." in response.content.decode()
    assert list(Team.objects.values_list("section_id", flat=True)) == before


def test_desk_shows_why_a_move_is_refused(desk, team, sections):
    Tournament.objects.filter(pk=team.tournament_id).update(status="league")
    response = desk.post(
        DESK,
        {"action": "move", "team": team.pk, "section": sections["midwest"].pk},
        follow=True,
    )
    assert "Cannot change a team: the league of Spring Open is drawn" in (
        response.content.decode()
    )
    team.refresh_from_db()
    assert team.section == sections["tri"]


def test_each_rule_sets_name_is_its_title_in_english():
    from django.utils import translation

    from tournament.domain.rulesets import RULESETS
    from tournament.words import ruleset_name

    with translation.override("en"):
        assert {c: ruleset_name(c) for c in RULESETS} == {
            c: r.title for c, r in RULESETS.items()
        }


def test_a_moved_teams_placement_is_said_in_malayalam(desk, team, sections):
    """Issue 52: the badge of a team the organizer moved said "organizer" on a
    Malayalam page."""
    services.team_update(team=team, section_id=sections["midwest"].pk)
    desk.cookies["django_language"] = "ml"
    page = desk.get(DESK).content.decode()
    teams = page.split("section-", 1)[1]  # Teams by section, below the check-in
    row = teams.split("<td>Edison Aces</td>", 1)[1].split("</tr>", 1)[0]
    assert 'class="badge"' in row
    assert "സംഘാടകൻ" in row and "organizer" not in row


@pytest.mark.parametrize(
    ("language", "arrived", "undone"),
    [
        ("en", "Edison Aces is checked in.", "Edison Aces is no longer checked in."),
        ("ml", "Edison Aces ചെക്ക്-ഇൻ ചെയ്തു.", "Edison Aces-ന്റെ ചെക്ക്-ഇൻ പിൻവലിച്ചു."),
    ],
)
def test_a_check_in_is_ticked_and_undone_in_place(
    desk, team, language, arrived, undone
):
    """Issue 52: "Arrived" reloaded the page to its top, 23 times a morning. Asked
    with htmx it answers the check-in list with its own line saying what happened
    (200, the list's part only is swapped); without htmx the page posts as before."""
    desk.cookies["django_language"] = language
    page = desk.get(DESK).content.decode()
    check_in = page.split('id="check-in"', 1)[1].split("</section>", 1)[0]
    assert 'hx-select="#check-in"' in check_in and 'hx-target="#check-in"' in check_in
    answer = desk.post(
        DESK,
        {"action": "check-in", "team": team.pk, "arrived": "on"},
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 200
    said = answer.content.decode().split('id="check-in-said"', 1)[1].split("</p>")[0]
    assert arrived in said and 'class="success"' in said
    team.refresh_from_db()
    assert team.checked_in_at is not None
    answer = desk.post(
        DESK, {"action": "check-in", "team": team.pk}, headers={"HX-Request": "true"}
    )
    said = answer.content.decode().split('id="check-in-said"', 1)[1].split("</p>")[0]
    assert undone in said
    team.refresh_from_db()
    assert team.checked_in_at is None


def test_a_refused_check_in_in_place_says_why_and_changes_nothing(
    desk, team, tournament
):
    """After the draw an undo is refused: in place, the line says why."""
    desk.post(DESK, {"action": "check-in", "team": team.pk, "arrived": "on"})
    Tournament.objects.filter(pk=tournament.pk).update(status="league")
    answer = desk.post(
        DESK, {"action": "check-in", "team": team.pk}, headers={"HX-Request": "true"}
    )
    said = answer.content.decode().split('id="check-in-said"', 1)[1].split("</p>")[0]
    assert 'class="error"' in said and "undo a check-in" in said
    team.refresh_from_db()
    assert team.checked_in_at is not None


@pytest.mark.parametrize("language", ["en", "ml"])
def test_after_the_draw_the_registration_forms_are_gone(
    desk, team, tournament, language
):
    """Issue 52: the forms stayed live after the draw and were refused on submit.
    The page says why they are gone; the check-in list stays."""
    Tournament.objects.filter(pk=tournament.pk).update(status="league")
    desk.cookies["django_language"] = language
    page = desk.get(DESK).content.decode()
    for action in ("team", "import", "section", "move"):
        assert f'name="action" value="{action}"' not in page, action
    assert 'class="notice"' in page and 'id="check-in"' in page


def test_the_favicon_is_the_sites_icon_not_a_missing_page(client):
    """Issue 52: no favicon, so every first visit fetched an 18 KB 404 page."""
    answer = client.get("/favicon.ico")
    assert answer.status_code == 301
    assert answer["Location"].startswith("/static/img/icon")
    assert answer["Location"].endswith(".svg")
    home = client.get("/").content.decode()
    assert home.count('rel="icon"') == 1 and 'type="image/svg+xml"' in home
