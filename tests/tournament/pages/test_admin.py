"""The Django admin: the site's administrators only (organizers work on the pages);
it shows every row read-only, and the deletions it makes keep the API's rules."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.factories import SectionFactory, TeamFactory, TournamentFactory, member
from tournament.accounts.services import site_role_grant
from tournament.domain.types import Role
from tournament.models import Membership

pytestmark = pytest.mark.django_db
PASSWORD = "pw-for-tests-56"


@pytest.fixture
def administrator(db):
    """A site administrator who is not a superuser nor staff."""
    user = get_user_model().objects.create_user("siteadmin", password=PASSWORD)
    site_role_grant(user=user, role="administrator")
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def superuser(db):
    user = get_user_model().objects.create_superuser("root", password=PASSWORD)
    client = Client()
    client.force_login(user)
    return client


def test_a_staff_organizer_gets_no_admin(tournament, team):
    """Staff once opened the admin, whose sidebars listed every tournament of the
    site (unpublished ones too) and every section: now nothing of it answers."""
    hidden = TournamentFactory(name="Secret Cup", slug="secret", published=False)
    organizer = member(tournament, Role.ORGANIZER, "org")
    organizer.is_staff = True
    organizer.set_password(PASSWORD)
    organizer.save()
    client = Client()
    client.force_login(organizer)
    for path in (
        "/admin/",
        "/admin/tournament/team/",
        "/admin/tournament/tournament/",
        f"/admin/tournament/tournament/{hidden.pk}/change/",
        "/admin/tournament/section/?tournament__id__exact=1",
        "/admin/scoring/match/",
    ):
        answer = client.get(path)
        assert answer.status_code == 302, path
        assert answer["Location"].startswith("/admin/login/"), path
    assert "Secret Cup" not in client.get("/admin/login/").content.decode()
    # Nor does the admin's own login let them in; the header offers no admin.
    stranger = Client()
    login = stranger.post(
        "/admin/login/?next=/admin/", {"username": "org", "password": PASSWORD}
    )
    assert login.status_code == 200
    assert "site administrator" in login.content.decode()
    assert stranger.get("/admin/").status_code == 302
    assert 'href="/site/"' not in client.get("/").content.decode()


def test_a_site_administrator_reads_every_tournament_and_changes_nothing(
    administrator, team
):
    other = TeamFactory(
        section=SectionFactory(tournament=TournamentFactory(slug="other")),
        name="Far Away",
    )
    page = administrator.get("/admin/tournament/team/").content.decode()
    assert "Edison Aces" in page and "Far Away" in page
    for path in (
        "/admin/",
        "/admin/tournament/tournament/",
        "/admin/tournament/section/",
        "/admin/tournament/team/?q=edison",
        "/admin/tournament/membership/?role__exact=organizer",
        "/admin/scoring/match/",
        "/admin/brackets/bracket/",
    ):
        assert administrator.get(path).status_code == 200, path
    change = administrator.get(f"/admin/tournament/team/{other.pk}/change/")
    assert change.status_code == 200
    assert 'name="section"' not in change.content.decode()  # read-only
    assert (
        administrator.post(f"/admin/tournament/team/{other.pk}/change/", {})
    ).status_code == 403
    for model in ("tournament", "team", "section"):
        assert administrator.get(f"/admin/tournament/{model}/add/").status_code == 403
    # Users and their permissions are the superuser's.
    assert administrator.get("/admin/auth/user/").status_code == 403


def test_the_admin_refuses_to_delete_a_last_organizer(superuser, tournament):
    """The API answers 409 last_organizer; the admin deleted the row."""
    organizer = member(tournament, Role.ORGANIZER, "org")
    role = Membership.objects.get(user=organizer)
    url = f"/admin/tournament/membership/{role.pk}/delete/"
    refused = superuser.post(url, {"post": "yes"}, follow=True)
    assert "A tournament keeps at least one organizer" in refused.content.decode()
    assert Membership.objects.filter(pk=role.pk).exists()
    # Nor in bulk: the admin's "delete selected" is off.
    listing = "/admin/tournament/membership/"
    superuser.post(
        listing, {"action": "delete_selected", "_selected_action": [role.pk]}
    )
    assert Membership.objects.filter(pk=role.pk).exists()
    assert "delete_selected" not in superuser.get(listing).content.decode()
    # Nor by deleting the user, whose roles would go with it.
    user_url = f"/admin/auth/user/{organizer.pk}/delete/"
    refused = superuser.post(user_url, {"post": "yes"}, follow=True)
    assert "the last organizer of Spring Open" in refused.content.decode()
    assert get_user_model().objects.filter(pk=organizer.pk).exists()
    # With a co-organizer, it goes.
    member(tournament, Role.ORGANIZER, "co-org")
    assert superuser.post(url, {"post": "yes"}).status_code == 302
    assert not Membership.objects.filter(pk=role.pk).exists()


def test_non_staff_scorer_cannot_enter_the_admin(tournament):
    client = Client()
    client.force_login(member(tournament, Role.SCORER, "scorer"))
    assert client.get("/admin/tournament/team/").status_code == 302


# An English plural made by adding "s" where English adds "es" or "ies".
WRONG_PLURAL = re.compile(r"(ch|sh|ss|x|z)s$|[^aeiou]ys$", re.IGNORECASE)


def test_every_model_has_a_proper_plural():
    """Issue 41's walk: the admin said "Knockout matchs" (Django adds an "s")."""
    from django.apps import apps

    wrong = [
        f"{m._meta.label}: {m._meta.verbose_name_plural}"
        for app in ("tournament", "scoring", "brackets")
        for m in apps.get_app_config(app).get_models()
        if WRONG_PLURAL.search(str(m._meta.verbose_name_plural))
    ]
    assert wrong == []


def test_the_admins_index_names_its_models_in_good_english(superuser):
    page = superuser.get("/admin/").content.decode()
    for name in ("Knockout matches", "Matches", "Penalties"):
        assert f">{name}</a>" in page, name
    assert not re.search(r">[^<>]*(matchs|copys|penaltys)</a>", page, re.IGNORECASE)
