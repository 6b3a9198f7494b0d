"""Usernames compared as Django stores them (issue 51, "Unicode tricks"): a fullwidth
"ＲＯＯＴ" is not a second root, a lookalike of another alphabet is refused, both
invitation pages answer a refusal (never a 500) in the page's language, the API and
the Django admin hold the same rules, and Malayalam names are usernames."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.conftest import as_user
from tests.factories import UserFactory
from tournament.models import Membership

pytestmark = pytest.mark.django_db
STRONG = "Kerala-Cards-2026"
PEOPLE = "/t/spring-open/people/"
User = get_user_model()


@pytest.fixture
def root(db):
    return User.objects.create_superuser("root", "root@example.org", STRONG)


def _link(client: Client, path: str, role: str) -> str:
    body = {"action": "invite", "invite-role": role, "invite-days": 7}
    page = client.post(path, body, follow=True).content.decode()
    link = re.search(r'id="new-link"[^>]*value="([^"]+)"', page)
    assert link, page
    return link.group(1).removeprefix("http://testserver")


@pytest.fixture
def links(root, organizer, sections):
    """A site invitation and a tournament's: the two pages that make users."""
    admin, desk = Client(), Client()
    admin.force_login(root)
    desk.force_login(organizer)
    return {
        "site": lambda: _link(admin, "/site/", "creator"),
        "tournament": lambda: _link(desk, PEOPLE, "scorer"),
    }


def accept(path: str, username: str, language: str = "en"):
    return Client(HTTP_ACCEPT_LANGUAGE=language).post(
        path, {"username": username, "password": STRONG, "password_again": STRONG}
    )


@pytest.mark.parametrize("page", ["site", "tournament"])
@pytest.mark.parametrize("username", ["ｒｏｏｔ", "ＲＯＯＴ", "Root", "ROOT"])
def test_a_name_that_is_roots_but_for_width_or_case_is_refused(links, page, username):
    users = User.objects.count()
    answer = accept(links[page](), username)
    assert answer.status_code == 400  # fullwidth "ｒｏｏｔ" was a 500 (issue 51)
    text = answer.content.decode()
    assert "is taken (usernames that differ only in letter case or width are one)" in (
        text
    )
    assert User.objects.count() == users


@pytest.mark.parametrize("page", ["site", "tournament"])
def test_the_refusal_speaks_malayalam(links, page):
    answer = accept(links[page](), "ｒｏｏｔ", language="ml")
    assert answer.status_code == 400
    text = answer.content.decode()
    assert "ഇതിനകം എടുത്തതാണ്" in text and "is taken" not in text


@pytest.mark.parametrize(
    ("username", "words", "malayalam"),
    [
        (
            "рауее",  # all Cyrillic: reads "payee"
            "looks like an existing one (letters of another alphabet that look the "
            "same)",
            "മറ്റൊരു ലിപിയിലെ",
        ),
        ("pаyee", "mixes alphabets (Cyrillic, Latin)", "ലിപികൾ കലർത്തിയിരിക്കുന്നു"),
        (
            "payee١",
            "has a character a username cannot have",
            "ഉണ്ടാകാൻ പാടില്ലാത്ത ഒരു അക്ഷരമുണ്ട്",
        ),
    ],
)
def test_lookalikes_and_mixed_alphabets_are_refused_with_the_rule(
    links, username, words, malayalam
):
    UserFactory(username="payee")
    for page in ("site", "tournament"):
        answer = accept(links[page](), username)
        assert answer.status_code == 400
        assert words in answer.content.decode()
        said = accept(links[page](), username, language="ml").content.decode()
        assert malayalam in said
    assert not User.objects.exclude(username__in=["payee", "root", "org"]).exists()


def test_a_malayalam_name_becomes_a_user_who_logs_in(links):
    answer = accept(links["tournament"](), "അനൂപ്")
    assert answer.status_code == 302
    user = User.objects.get(username="അനൂപ്")
    assert Membership.objects.filter(user=user, role="scorer").exists()
    login = Client().post("/accounts/login/", {"username": "അനൂപ്", "password": STRONG})
    assert login.status_code == 302
    # The site's invitation too, with a conjunct and a chillu.
    assert accept(links["site"](), "ശ്രീക്കുട്ടൻ").status_code == 302
    assert User.objects.filter(username="ശ്രീക്കുട്ടൻ").exists()


def test_the_api_holds_the_same_rules(api, organizer, root):
    as_user(api, organizer)
    url = "/api/v1/tournaments/spring-open/members/"
    answers = {
        name: api.post(
            url,
            {"username": name, "password": STRONG, "role": "scorer"},
            format="json",
        )
        for name in ("ＲＯＯＴ", "Org", "rοot", "аdmin")
    }
    assert {name: a.status_code for name, a in answers.items()} == dict.fromkeys(
        answers, 400
    )
    assert "is taken" in answers["ＲＯＯＴ"].json()["username"][0]
    assert "is taken" in answers["Org"].json()["username"][0]
    assert "mixes alphabets" in answers["rοot"].json()["username"][0]
    assert User.objects.count() == 2
    # A role for an existing user found as the login page finds it (NFKC).
    given = api.post(url, {"username": "ｒｏｏｔ", "role": "scorer"}, format="json")
    assert given.status_code == 201
    assert Membership.objects.filter(user__username="root", role="scorer").exists()
    made = api.post(
        url, {"username": "മലയാളം", "password": STRONG, "role": "scorer"}, format="json"
    )
    assert made.status_code == 201


def test_the_admin_makes_and_renames_users_by_the_same_rules(root):
    admin = Client()
    admin.force_login(root)
    UserFactory(username="payee")
    UserFactory(username="straße")
    add = "/admin/auth/user/add/"
    for name, words in [
        ("ＲＯＯＴ", "already exists"),  # Django's own check, after its NFKC
        ("STRASSE", "is taken"),  # folded, ß is ss: Django's iexact misses it
        ("рауее", "looks like an existing one"),
        ("rοot", "mixes alphabets"),
    ]:
        answer = admin.post(
            add,
            {
                "username": name,
                "usable_password": "true",
                "password1": STRONG,
                "password2": STRONG,
            },
        )
        assert answer.status_code == 200
        assert words in answer.content.decode(), name
    made = admin.post(
        add,
        {
            "username": "അനില",
            "usable_password": "true",
            "password1": STRONG,
            "password2": STRONG,
        },
    )
    assert made.status_code == 302
    anila = User.objects.get(username="അനില")
    change = f"/admin/auth/user/{anila.pk}/change/"
    form = {
        "username": "Payee",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "10:00:00",
    }
    renamed = admin.post(change, form)
    assert renamed.status_code == 200 and "is taken" in renamed.content.decode()
    anila.refresh_from_db()
    assert anila.username == "അനില"
