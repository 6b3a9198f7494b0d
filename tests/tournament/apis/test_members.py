"""Roles: organizers give them; a new username creates the user."""

import pytest
from django.contrib.auth import get_user_model

from tests.conftest import as_user
from tests.factories import UserFactory
from tournament.models import Membership

pytestmark = pytest.mark.django_db
URL = "/api/v1/tournaments/spring-open/members/"


def test_organizer_creates_a_scorer_who_can_then_log_in(api, organizer):
    response = as_user(api, organizer).post(
        URL,
        {"username": "tablescorer", "password": "Kerala-Cards-2026", "role": "scorer"},
        format="json",
    )
    assert response.status_code == 201
    assert response.json()["role"] == "scorer"
    api.force_authenticate(None)
    token = api.post(
        "/api/v1/auth/token/",
        {"username": "tablescorer", "password": "Kerala-Cards-2026"},
        format="json",
    )
    assert token.status_code == 200 and token.json()["token"]


def test_captain_role_names_a_team_of_this_tournament(api, organizer, team):
    existing = UserFactory(username="jose")
    as_user(api, organizer)
    response = api.post(URL, {"username": "jose", "role": "captain"}, format="json")
    assert (
        response.status_code == 400 and "names the team" in response.json()["team"][0]
    )
    response = api.post(
        URL, {"username": "jose", "role": "captain", "team": team.pk}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["team_name"] == "Edison Aces"
    assert Membership.objects.get(user=existing, role="captain").team == team
    second = api.post(
        URL, {"username": "org", "role": "captain", "team": team.pk}, format="json"
    )
    assert (
        second.status_code == 400
        and "has a captain already" in second.json()["team"][0]
    )


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"username": "newbie", "role": "scorer"}, "password", "give a password"),
        (
            {"username": "newbie", "role": "scorer", "password": "123"},
            "password",
            "short",
        ),
        ({"username": "org", "role": "organizer"}, "role", "organizer here already"),
        (
            {"username": "org", "role": "scorer", "password": "x-long-pass-56"},
            "password",
            "exists already",
        ),
        (
            {"username": "newbie", "role": "referee", "password": "x"},
            "role",
            "use one of",
        ),
        ({"username": "bad name", "role": "scorer"}, "username", "letters"),
        ({"username": "org", "role": "scorer", "team": 99999}, "team", "no such team"),
    ],
)
def test_bad_roles_are_refused_and_nothing_is_written(
    api, organizer, body, field, words
):
    users, members = get_user_model().objects.count(), Membership.objects.count()
    response = as_user(api, organizer).post(URL, body, format="json")
    assert response.status_code == 400
    assert words in " ".join(response.json()[field])
    assert (get_user_model().objects.count(), Membership.objects.count()) == (
        users,
        members,
    )


def test_the_last_organizer_stays(api, organizer):
    as_user(api, organizer)
    mine = Membership.objects.get(user=organizer)
    assert api.delete(f"{URL}{mine.pk}/").status_code == 409
    api.post(
        URL,
        {"username": "second", "password": "Kerala-Cards-2026", "role": "organizer"},
        format="json",
    )
    assert api.delete(f"{URL}{mine.pk}/").status_code == 204


def test_token_is_revocable(api, organizer):
    organizer.set_password("Kerala-Cards-2026")
    organizer.save()
    token = api.post(
        "/api/v1/auth/token/",
        {"username": "org", "password": "Kerala-Cards-2026"},
        format="json",
    ).json()["token"]
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get(URL).status_code == 200
    assert api.delete("/api/v1/auth/token/").status_code == 204
    assert api.get(URL).status_code == 401


def test_wrong_password_gets_no_token(api, organizer):
    response = api.post(
        "/api/v1/auth/token/", {"username": "org", "password": "nope"}, format="json"
    )
    assert response.status_code == 400
    assert "non_field_errors" in response.json()
