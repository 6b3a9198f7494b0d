"""A tournament's time zone through the API (issue 41, point 15; API.md): chosen
when it is created (the site's by default), changed by PATCH until the league draw
fixes it (409 naming the step), refused when it is no IANA name (400 naming
`time_zone`); the API's own times stay ISO 8601 in UTC whatever the zone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import Permission

from scoring.league import services as league_services
from tests.conftest import as_user
from tests.factories import SectionFactory, TeamFactory, UserFactory
from tournament.models import Team, Tournament

pytestmark = pytest.mark.django_db
LIST = "/api/v1/tournaments/"


@pytest.fixture
def maker(api):
    user = UserFactory(username="zone-maker")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return as_user(api, user)


def test_a_new_tournament_takes_the_sites_zone_unless_given(maker, settings):
    settings.TIME_ZONE = "Asia/Kolkata"
    plain = maker.post(LIST, {"name": "Kochi Open", "slug": "kochi"}, format="json")
    assert plain.status_code == 201, plain.json()
    assert plain.json()["time_zone"] == "Asia/Kolkata"
    given = maker.post(
        LIST,
        {"name": "Edison Open", "slug": "edison", "time_zone": "America/New_York"},
        format="json",
    )
    assert given.status_code == 201, given.json()
    assert given.json()["time_zone"] == "America/New_York"
    assert Tournament.objects.get(slug="edison").time_zone == "America/New_York"


@pytest.mark.parametrize("bad", ["Mars/Olympus", "new york", "", "localtime", "x" * 65])
def test_a_name_that_is_no_time_zone_is_refused_naming_the_field(maker, bad):
    answer = maker.post(
        LIST, {"name": "Bad Zone", "slug": "bad-zone", "time_zone": bad}, format="json"
    )
    assert answer.status_code == 400
    body = answer.json()
    assert list(body) == ["time_zone"]
    assert not Tournament.objects.filter(slug="bad-zone").exists()


def test_the_refusal_says_the_rule(maker):
    answer = maker.post(
        LIST,
        {"name": "Bad Zone", "slug": "bad-zone", "time_zone": "Mars/Olympus"},
        format="json",
    )
    (message,) = answer.json()["time_zone"]
    assert "'Mars/Olympus' is not a time zone" in message
    assert "IANA name such as America/New_York" in message


def test_the_zone_changes_until_the_draw_then_409_names_the_step(
    api, tournament, organizer
):
    url = f"/api/v1/tournaments/{tournament.slug}/"
    as_user(api, organizer)
    changed = api.patch(url, {"time_zone": "America/New_York"}, format="json")
    assert changed.status_code == 200, changed.json()
    assert changed.json()["time_zone"] == "America/New_York"
    bad = api.patch(url, {"time_zone": "Eastern"}, format="json")
    assert bad.status_code == 400 and list(bad.json()) == ["time_zone"]
    for s in range(3):
        section = SectionFactory(tournament=tournament, name=f"Region {s}")
        for t in range(4):
            TeamFactory(section=section, name=f"Region {s} team {t}")
    league_services.league_draw_generate(tournament=tournament, user=organizer, seed=1)
    refused = api.patch(url, {"time_zone": "Asia/Kolkata"}, format="json")
    assert refused.status_code == 409
    body = refused.json()
    assert body["code"] == "draw_locked"
    assert body["settings"] == ["time_zone"]
    assert body["step"] == "the league draw"
    assert (
        "Cannot change time zone of Spring Open: the league is drawn"
        in (body["detail"])
    )
    tournament.refresh_from_db()
    assert tournament.time_zone == "America/New_York"
    # The same zone again changes nothing and is no conflict.
    same = api.patch(url, {"time_zone": "America/New_York"}, format="json")
    assert same.status_code == 200


def test_the_apis_times_are_utc_whatever_the_tournaments_zone(
    api, tournament, organizer, team, settings
):
    settings.TIME_ZONE = "Asia/Dubai"  # the site's zone does not move them either
    Tournament.objects.filter(pk=tournament.pk).update(
        time_zone="America/New_York", check_in_required=True
    )
    Team.objects.filter(pk=team.pk).update(
        checked_in_at=datetime(2026, 11, 26, 16, 37, tzinfo=UTC)
    )
    as_user(api, organizer)
    shown = api.get(f"/api/v1/tournaments/{tournament.slug}/").json()
    assert shown["time_zone"] == "America/New_York"
    assert shown["created_at"].endswith("Z")
    created = datetime.fromisoformat(shown["created_at"])
    assert created == Tournament.objects.get(pk=tournament.pk).created_at
    teams = api.get(f"/api/v1/tournaments/{tournament.slug}/teams/").json()
    rows = teams["results"] if isinstance(teams, dict) else teams
    checked = next(r for r in rows if r["id"] == team.pk)
    assert checked["checked_in_at"] == "2026-11-26T16:37:00Z"
