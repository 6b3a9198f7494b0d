"""Security on tournament day: production headers and cookies, a content security
policy that the pages keep, login attempts limited, tokens that can be revoked, and a
history that no interface can edit."""

import json
import re

import pytest
from django.contrib.admin.sites import site as admin_site
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from scoring.links.services import links_ensure
from scoring.models import HistoryIsWritten, SheetChange
from tests.config.test_settings import PRODUCTION, _manage
from tests.conftest import as_user
from tests.factories import UserFactory, member
from tests.scoring.apis.test_sheet import fill, url
from tournament.accounts.services import invitation_create
from tournament.domain.types import Role
from tournament.models import Link

PROBE = (
    "import json; from django.conf import settings as s; print(json.dumps({"
    "'session_secure': s.SESSION_COOKIE_SECURE, 'csrf_secure': s.CSRF_COOKIE_SECURE,"
    "'hsts': s.SECURE_HSTS_SECONDS, 'ssl_redirect': s.SECURE_SSL_REDIRECT,"
    "'csp_report_only': s.CONTENT_SECURITY_POLICY_REPORT_ONLY,"
    "'script_src': s.CONTENT_SECURITY_POLICY['script-src'],"
    "'login_limit': s.AXES_FAILURE_LIMIT, 'debug': s.DEBUG}))"
)


def test_production_settings_are_hardened():
    result = _manage("shell", "-v", "0", "-c", PROBE, env=PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "session_secure": True,
        "csrf_secure": True,
        "hsts": 31536000,
        "ssl_redirect": True,
        "csp_report_only": False,
        "script_src": ["'self'"],
        "login_limit": 5,
        "debug": False,
    }


@pytest.mark.django_db
def test_every_answer_carries_the_content_security_policy(client, tournament):
    tournament.published = True
    tournament.save()
    for path in (
        "/",
        f"/t/{tournament.slug}/",
        "/api/v1/tournaments/",
        "/api/v1/docs/",
    ):
        answer = client.get(path)
        assert answer.status_code == 200, path
        policy = answer["Content-Security-Policy"]
        assert "script-src 'self'" in policy
        assert "frame-ancestors 'none'" in policy
        assert "object-src 'none'" in policy


INLINE = [
    # A script element without src runs inline, unless it is data (JSON the page
    # hands its script, as json_script writes it): the policy does not run data.
    (
        re.compile(r"<script(?![^>]*\b(?:src=|type=\"application/json\"))[^>]*>", re.I),
        "an inline script",
    ),
    (re.compile(r"<style\b", re.I), "a style element"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "an inline event handler"),
    (re.compile(r"\sstyle\s*=", re.I), "a style attribute"),
    (re.compile(r"javascript:", re.I), "a javascript: address"),
]


@pytest.mark.django_db
def test_the_pages_need_nothing_the_policy_forbids(client, api, match, scorer):
    """Every kind of page, as its users see it, has no inline script, style or
    handler, which the policy would block in the browser."""
    as_user(api, scorer)
    fill(api, match)
    t = match.tournament
    t.published = True
    t.save()
    client.force_login(scorer)
    pages = [
        "/",
        f"/t/{t.slug}/",
        f"/t/{t.slug}/standings/",
        f"/t/{t.slug}/teams/",
        f"/t/{t.slug}/matches/",
        f"/t/{t.slug}/desk/",
        f"/t/{t.slug}/screen/",
        f"/t/{t.slug}/where/?q=a",
        f"/t/{t.slug}/bracket/",
        f"/t/{t.slug}/excel/",
        f"/matches/{match.pk}/",
        f"/matches/{match.pk}/score/",
        f"/matches/{match.pk}/print/",
        "/api/v1/docs/",
        "/accounts/login/",
    ]
    organizer = member(t, Role.ORGANIZER, "org-pages")
    organizer.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    key = invitation_create(tournament=t, user=organizer, role=Role.SCORER).key
    staff = [
        "/tournaments/new/",
        f"/t/{t.slug}/settings/",
        f"/t/{t.slug}/people/",
        f"/t/{t.slug}/registration/",
        "/accounts/password/",
    ]
    staff += [
        f"/t/{t.slug}/links/",
        f"/t/{t.slug}/links/cards/",
        f"/t/{t.slug}/links/cards/?kind=team",
        f"/t/{t.slug}/print/?round={match.round}",
    ]
    links_ensure(tournament=t, tables=match.table)
    table_key = Link.objects.get(tournament=t, table=match.table).key
    team_key = Link.objects.get(team=match.team_a).key
    anyone = [
        f"/invitations/{key}/",
        "/accounts/password/reset/",
        f"/l/{table_key}/",
        f"/l/{team_key}/",
    ]
    for who, paths in ((scorer, pages), (organizer, staff), (None, anyone)):
        if who is None:
            client.logout()
        else:
            client.force_login(who)
        for path in paths:
            answer = client.get(path)
            assert answer.status_code == 200, path
            html = answer.content.decode()
            for pattern, what in INLINE:
                found = pattern.search(html)
                assert found is None, f"{path} has {what}: {found.group(0)!r}"


def _login_page(client, username, password, ip="203.0.113.7"):
    return client.post(
        "/accounts/login/",
        {"username": username, "password": password},
        REMOTE_ADDR=ip,
    )


@pytest.mark.django_db
def test_the_login_page_locks_a_username_out_after_five_failures():
    user = UserFactory(username="captain-kerala")
    user.set_password("right-password-56")
    user.save()
    client = Client()
    for _ in range(4):
        assert _login_page(client, "captain-kerala", "wrong").status_code == 200
    locked = _login_page(client, "captain-kerala", "wrong")
    assert locked.status_code == 429
    assert "Too many failed logins" in locked.content.decode()
    assert locked["Retry-After"] == "900"
    # Even the right password waits now, from that address.
    assert _login_page(client, "captain-kerala", "right-password-56").status_code == 429
    # Another phone of the venue (another username, same address) is not locked, and
    # the same username from elsewhere is not either: nobody locks a captain out
    # from outside.
    other = UserFactory(username="scorer-table-9")
    other.set_password("another-password-56")
    other.save()
    assert (
        _login_page(Client(), "scorer-table-9", "another-password-56").status_code
        == 302
    )
    assert (
        _login_page(Client(), "captain-kerala", "right-password-56", ip="198.51.100.2")
    ).status_code == 302


@pytest.mark.django_db
def test_a_success_before_the_limit_starts_the_count_again():
    user = UserFactory(username="organizer-1")
    user.set_password("right-password-56")
    user.save()
    for _ in range(4):
        _login_page(Client(), "organizer-1", "wrong")
    assert _login_page(Client(), "organizer-1", "right-password-56").status_code == 302
    for _ in range(4):
        assert _login_page(Client(), "organizer-1", "wrong").status_code == 200


@pytest.mark.django_db
def test_the_token_endpoint_is_limited_too(api):
    user = UserFactory(username="script-user")
    user.set_password("right-password-56")
    user.save()
    for _ in range(4):
        wrong = api.post(
            "/api/v1/auth/token/",
            {"username": "script-user", "password": "nope"},
            "json",
        )
        assert wrong.status_code == 400
    locked = api.post(
        "/api/v1/auth/token/", {"username": "script-user", "password": "nope"}, "json"
    )
    assert locked.status_code == 429
    assert locked.json()["code"] == "locked_out"
    right = api.post(
        "/api/v1/auth/token/",
        {"username": "script-user", "password": "right-password-56"},
        "json",
    )
    assert right.status_code == 429
    assert not Token.objects.filter(user=user).exists()


@pytest.mark.django_db
def test_tokens_are_revoked_by_their_owner_and_by_a_new_password(api, tournament):
    user = UserFactory(username="scorer-phone")
    user.set_password("first-password-56")
    user.save()
    body = {"username": "scorer-phone", "password": "first-password-56"}
    key = api.post("/api/v1/auth/token/", body, "json").json()["token"]
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.delete("/api/v1/auth/token/").status_code == 204
    assert api.delete("/api/v1/auth/token/").status_code == 401  # gone

    api.credentials()
    key = api.post("/api/v1/auth/token/", body, "json").json()["token"]
    user.set_password("second-password-56")  # the phone was lost; a new password
    user.save()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.delete("/api/v1/auth/token/").status_code == 401
    # Saving a user without a new password leaves the tokens alone.
    api.credentials()
    body["password"] = "second-password-56"
    key = api.post("/api/v1/auth/token/", body, "json").json()["token"]
    user.first_name = "Anil"
    user.save()
    assert Token.objects.filter(key=key).exists()


@pytest.mark.django_db
def test_no_interface_edits_the_history(api, client, match, scorer, organizer):
    as_user(api, scorer)
    fill(api, match)
    change = SheetChange.objects.filter(match=match, action="deal_add").first()
    history = url(match, "history/")
    # The API: the history only reads, for the organizer too.
    as_user(api, organizer)
    for method in ("post", "put", "patch", "delete"):
        assert getattr(api, method)(history, {}, "json").status_code == 405
    # The admin: sheets are shown read-only; the history has no admin of its own.
    organizer.is_staff = organizer.is_superuser = True
    organizer.save()
    client.force_login(organizer)
    assert SheetChange not in admin_site._registry
    change_url = reverse("admin:scoring_match_change", args=[match.pk])
    assert client.get(change_url).status_code == 200
    assert client.post(change_url, {}).status_code == 403
    delete_url = reverse("admin:scoring_match_delete", args=[match.pk])
    assert client.post(delete_url, {"post": "yes"}).status_code == 403
    # The code itself: a row is added, never changed or deleted.
    change.reason = "rewritten"
    with pytest.raises(HistoryIsWritten):
        change.save()
    with pytest.raises(HistoryIsWritten):
        change.delete()
    with pytest.raises(HistoryIsWritten):
        SheetChange.objects.filter(match=match).update(reason="rewritten")
    with pytest.raises(HistoryIsWritten):
        SheetChange.objects.filter(match=match).delete()
    assert SheetChange.objects.filter(match=match, reason="rewritten").count() == 0
    assert SheetChange.objects.filter(match=match).count() == 19


@pytest.mark.django_db
def test_a_token_is_asked_by_the_username_as_the_login_page_reads_it(api):
    """NFKC, as Django's login form reads a username: a fullwidth name is the
    account's own, for the token and for the count of failures alike."""
    user = UserFactory(username="script-user")
    user.set_password("right-password-56")
    user.save()
    wide = "ｓｃｒｉｐｔ-ｕｓｅｒ"
    body = {"username": wide, "password": "right-password-56"}
    assert api.post("/api/v1/auth/token/", body, "json").status_code == 200
    for name in (wide, "script-user", wide, "script-user"):
        wrong = {"username": name, "password": "nope"}
        assert api.post("/api/v1/auth/token/", wrong, "json").status_code == 400
    # The fifth failure, whichever way the name is written, locks the account.
    locked = api.post(
        "/api/v1/auth/token/", {"username": wide, "password": "nope"}, "json"
    )
    assert locked.status_code == 429
    assert api.post("/api/v1/auth/token/", ["a list"], "json").status_code == 400
