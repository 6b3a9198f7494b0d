"""The API of the site's people (API.md, "Site administration"): site administrators
invite tournament creators and administrators by a one-time link, withdraw it, list
and withdraw standing; a creator then creates tournaments by the API."""

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from tests.conftest import as_user
from tests.factories import UserFactory
from tournament.accounts.selectors import site_role_of
from tournament.accounts.services import site_role_grant
from tournament.models import SiteInvitation

pytestmark = pytest.mark.django_db
INVITATIONS = "/api/v1/site/invitations/"
ROLES = "/api/v1/site/roles/"
STRONG = "Kerala-Cards-2026"


@pytest.fixture
def root(db):
    return get_user_model().objects.create_superuser("root", "root@example.org", STRONG)


def test_an_invitation_by_the_api_makes_a_creator(
    api, root, django_capture_on_commit_callbacks
):
    as_user(api, root)
    with django_capture_on_commit_callbacks(execute=True):
        made = api.post(
            INVITATIONS, {"role": "creator", "email": "bindu@example.org"}, "json"
        )
    assert made.status_code == 201, made.json()
    body = made.json()
    assert body["role"] == "creator" and body["state"] == "waiting"
    assert body["created_by"] == "root" and body["email"] == "bindu@example.org"
    url = body["url"]
    assert url.startswith("http://testserver/site/invitations/")
    assert len(mail.outbox) == 1 and url in mail.outbox[0].body
    listed = api.get(INVITATIONS).json()
    assert listed["count"] == 1
    assert "url" not in listed["results"][0]  # shown once
    assert url.rsplit("/", 2)[1] not in str(listed)

    stranger = Client()
    stranger.post(
        url.removeprefix("http://testserver"),
        {"username": "bindu", "password": STRONG, "password_again": STRONG},
    )
    bindu = get_user_model().objects.get(username="bindu")
    assert site_role_of(bindu) == "creator"
    assert api.get(INVITATIONS).json()["results"][0]["accepted_by"] == "bindu"
    # An accepted invitation is not withdrawn: the standing is.
    used = api.delete(f"{INVITATIONS}{body['id']}/")
    assert used.status_code == 409 and used.json()["code"] == "invitation_used"
    roles = api.get(ROLES).json()["results"]
    assert [(r["username"], r["role"], r["superuser"]) for r in roles] == [
        ("root", "administrator", True),
        ("bindu", "creator", False),
    ]
    # The creator creates a tournament by the API, and becomes its organizer.
    creator = as_user(type(api)(), bindu)
    new = creator.post("/api/v1/tournaments/", {"name": "Onam", "slug": "onam"}, "json")
    assert new.status_code == 201
    assert "organizer" in creator.get("/api/v1/tournaments/onam/").json()["roles"]
    # Withdrawn, the creator creates no more.
    assert api.delete(f"{ROLES}{bindu.pk}/").status_code == 204
    as_user(creator, get_user_model().objects.get(pk=bindu.pk))  # a new request's
    refused = creator.post("/api/v1/tournaments/", {"name": "B", "slug": "b"}, "json")
    assert refused.status_code == 403
    assert "site/invitations" in refused.json()["detail"]
    assert api.delete(f"{ROLES}{bindu.pk}/").status_code == 404  # none to withdraw


def test_withdrawing_an_invitation_stops_its_link(api, root):
    as_user(api, root)
    made = api.post(INVITATIONS, {"role": "administrator", "days": 3}, "json").json()
    assert api.delete(f"{INVITATIONS}{made['id']}/").status_code == 204
    assert api.delete(f"{INVITATIONS}{made['id']}/").status_code == 204  # as once
    assert api.get(INVITATIONS).json()["results"][0]["state"] == "withdrawn"
    answer = Client().get(made["url"].removeprefix("http://testserver"))
    assert answer.status_code == 410
    assert api.delete(f"{INVITATIONS}999999/").status_code == 404


def test_bad_input_names_the_field_and_writes_nothing(api, root):
    as_user(api, root)
    for body, field in (
        ({"role": "organizer"}, "role"),
        ({}, "role"),
        ({"role": "creator", "email": "not-an-address"}, "email"),
        ({"role": "creator", "days": 61}, "days"),
    ):
        answer = api.post(INVITATIONS, body, "json")
        assert answer.status_code == 400 and field in answer.json(), body
    assert not SiteInvitation.objects.exists()


def test_a_superuser_and_the_last_administrator_keep_their_standing(api, root):
    as_user(api, root)
    answer = api.delete(f"{ROLES}{root.pk}/")
    assert answer.status_code == 409 and answer.json()["code"] == "superuser"
    root.is_superuser = False
    root.save()
    site_role_grant(user=root, role="administrator")
    answer = as_user(api, root).delete(f"{ROLES}{root.pk}/")
    assert answer.status_code == 409 and answer.json()["code"] == "last_administrator"
    second = UserFactory(username="second")
    site_role_grant(user=second, role="administrator")
    assert api.delete(f"{ROLES}{root.pk}/").status_code == 204
    assert site_role_of(get_user_model().objects.get(pk=root.pk)) is None


def test_only_site_administrators(api, db):
    creator = UserFactory(username="maker")
    site_role_grant(user=creator, role="creator")
    assert api.get(INVITATIONS).status_code == 401
    for user in (UserFactory(username="nobody"), creator):
        as_user(api, user)
        for answer in (
            api.get(INVITATIONS),
            api.post(INVITATIONS, {"role": "administrator"}, "json"),
            api.get(ROLES),
            api.delete(f"{ROLES}{creator.pk}/"),
        ):
            assert answer.status_code == 403
            assert "site's administrators" in answer.json()["detail"]
    assert not SiteInvitation.objects.exists()
    assert site_role_of(creator) == "creator"


def test_the_django_permission_still_makes_a_creator(api, db):
    """Accounts given 'add tournament' in the Django admin before site roles keep
    creating tournaments, and are listed as creators."""
    from django.contrib.auth.models import Permission

    old = UserFactory(username="old-hand")
    old.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    as_user(api, old)
    made = api.post("/api/v1/tournaments/", {"name": "Old", "slug": "old"}, "json")
    assert made.status_code == 201
    admin = get_user_model().objects.create_superuser("root2", "r@example.org", "x")
    listed = as_user(api, admin).get(ROLES).json()["results"]
    assert ("old-hand", "creator") in {(r["username"], r["role"]) for r in listed}
