"""A tournament created and set up from its own pages, with no admin or API."""

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from tests.factories import TournamentFactory, UserFactory
from tournament.models import Membership, Tournament

pytestmark = pytest.mark.django_db
NEW = "/tournaments/new/"


@pytest.fixture
def creator():
    user = UserFactory(username="maker")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client = Client()
    client.force_login(user)
    return client


def _body(**kw):
    return {
        "name": "Kerala Cup 2027",
        "ruleset": "international",
        "players_per_team": 3,
        "league_rounds": 8,
        "league_deals": 18,
        "qualifiers": 24,
        "substitutions_allowed": 1,
    } | kw


def test_the_creator_becomes_the_organizer_and_the_address_comes_from_the_name(
    creator,
):
    home = creator.get("/").content.decode()
    assert 'href="/tournaments/new/"' in home
    answer = creator.post(
        NEW,
        _body(venue="Edison", starts_on="2027-05-01", ends_on="2027-05-02"),
        follow=True,
    )
    assert answer.redirect_chain[-1][0] == "/t/kerala-cup-2027/"
    assert "you are its organizer" in answer.content.decode()
    made = Tournament.objects.get(slug="kerala-cup-2027")
    assert (made.venue, str(made.ends_on)) == ("Edison", "2027-05-02")
    assert Membership.objects.get(tournament=made).role == "organizer"
    assert made.sections.filter(is_international=True).exists()
    # The same name again gets the next free address.
    creator.post(NEW, _body())
    assert Tournament.objects.filter(slug="kerala-cup-2027-2").exists()


def test_the_rule_sets_defaults_are_shown_and_refilled(creator):
    page = creator.get(NEW).content.decode()
    assert 'name="league_deals" value="18"' in page
    gcka = creator.get(NEW + "?ruleset=gcka", HTTP_HX_REQUEST="true").content.decode()
    assert 'name="league_deals" value="7"' in gcka
    tables = creator.get(NEW + "?ruleset=tables").content.decode()
    assert 'name="league_deals" min' in tables or 'name="league_deals" ' in tables
    assert 'name="league_deals" value=' not in tables  # until out of tables


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        (_body(players_per_team=4), "players_per_team", "plays with 3 players"),
        (_body(ends_on="2027-01-01", starts_on="2027-02-01"), "ends_on", "before"),
        (_body(league_deals=0), "league_deals", "greater than or equal to 1"),
        (_body(name=""), "name", "This field is required"),
        (_body(slug="taken"), "slug", "the slug &#x27;taken&#x27; is taken"),
    ],
)
def test_a_bad_setting_is_refused_naming_the_field(creator, body, field, message):
    TournamentFactory(slug="taken")
    answer = creator.post(NEW, body)
    assert answer.status_code == 400
    page = answer.content.decode()
    assert message in page
    assert f'id="id_{field}_error"' in page or f"id_{field}" in page
    assert Tournament.objects.count() == 1


def test_only_creators_create(client=None):
    plain = Client()
    plain.force_login(UserFactory(username="plain"))
    assert plain.get(NEW).status_code == 403
    assert 'href="/tournaments/new/"' not in plain.get("/").content.decode()
    assert Client().get(NEW).status_code == 302


def test_settings_change_until_a_step_fixes_them(organizer, tournament):
    client = Client()
    client.force_login(organizer)
    url = f"/t/{tournament.slug}/settings/"
    answer = client.post(
        url,
        _body(name="Spring Open 2027", substitutions_allowed=2, check_in_required="on"),
        follow=True,
    )
    assert "The settings are saved." in answer.content.decode()
    tournament.refresh_from_db()
    assert (tournament.name, tournament.substitutions_allowed) == (
        "Spring Open 2027",
        2,
    )
    assert tournament.check_in_required

    Tournament.objects.filter(pk=tournament.pk).update(status="league")
    page = client.get(url).content.decode()
    assert "Fixed: the league is drawn" in page
    assert 'name="league_rounds" value="8"' in page and "disabled" in page
    # A fixed field posted anyway is ignored; the open ones still save.
    client.post(url, _body(name="Spring Open", league_rounds=3, qualifiers=16))
    tournament.refresh_from_db()
    assert (tournament.league_rounds, tournament.qualifiers, tournament.name) == (
        8,
        16,
        "Spring Open",
    )
    Tournament.objects.filter(pk=tournament.pk).update(status="knockout")
    assert "Fixed: the knockout is seeded" in client.get(url).content.decode()


def test_the_api_names_the_step_that_fixed_a_setting(organizer, tournament):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(organizer)
    Tournament.objects.filter(pk=tournament.pk).update(status="knockout")
    answer = api.patch(
        f"/api/v1/tournaments/{tournament.slug}/", {"qualifiers": 8}, format="json"
    )
    assert answer.status_code == 409
    body = answer.json()
    assert body["code"] == "knockout_seeded"
    assert body["settings"] == ["qualifiers"]
    assert "the knockout is seeded" in body["detail"]


def test_the_api_creates_with_the_tournament_day_settings_and_dates(db):
    from rest_framework.test import APIClient

    maker = UserFactory(username="api-maker")
    maker.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    api = APIClient()
    api.force_authenticate(maker)
    answer = api.post(
        "/api/v1/tournaments/",
        {
            "name": "Day Two",
            "slug": "day-two",
            "check_in_required": True,
            "substitutions_allowed": 3,
            "starts_on": "2027-05-01",
            "ends_on": "2027-05-02",
        },
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert (body["check_in_required"], body["substitutions_allowed"]) == (True, 3)
    assert body["ends_on"] == "2027-05-02"
    bad = api.patch(
        "/api/v1/tournaments/day-two/", {"ends_on": "2027-04-01"}, format="json"
    )
    assert bad.status_code == 400 and "ends_on" in bad.json()
