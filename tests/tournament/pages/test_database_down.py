"""While the database cannot be reached, every page is a short 503 page in the
visitor's language (the switcher's cookie or Accept-Language: the session is in the
database), with Retry-After and a link to try again, rendered without the database,
and logged as one warning line (tournament/web/unavailable.py, templates/503.html)."""

from __future__ import annotations

import logging

import pytest
from django.test import Client

from tests.scoring.conftest import page_deal_body
from tests.scoring.league import link_key, tables_in_play
from tests.unreachable import assert_logged_once, database_down

pytestmark = pytest.mark.django_db(transaction=True)

SAID = {
    "en": "The site cannot reach its database just now. Nothing you sent was saved: "
    "wait a few seconds and try again.",
    "ml": "സൈറ്റിന് ഇപ്പോൾ അതിന്റെ ഡാറ്റാബേസുമായി ബന്ധപ്പെടാനാകുന്നില്ല. നിങ്ങൾ "
    "അയച്ചതൊന്നും സേവ് ആയിട്ടില്ല: കുറച്ച് സെക്കൻഡ് കാത്തിരുന്ന് വീണ്ടും ശ്രമിക്കുക.",
}
AGAIN = {"en": ">Try again</a>", "ml": ">വീണ്ടും ശ്രമിക്കുക</a>"}


@pytest.fixture
def day():
    tournament, organizer, _, (match, *_) = tables_in_play(
        "down-cup", tables=1, deals=4
    )
    organizer.set_password("down-but-right-56")
    organizer.save()
    return {"match": match, "link": link_key(tournament, table=1), "org": organizer}


def _browser(day, who: str) -> Client:
    browser = Client(raise_request_exception=False)  # as a server: never raises
    if who == "signed in":
        browser.force_login(day["org"])  # the session and the user are in it
    return browser


# (who, method, address, form, headers) from the day above.
PAGES = {
    "the home page": lambda d: ("anonymous", "get", "/", None, {}),
    "a tournament's page": lambda d: ("anonymous", "get", "/t/down-cup/", None, {}),
    "a table link's score page": lambda d: (
        "anonymous",
        "get",
        f"/l/{d['link']}/",
        None,
        {},
    ),
    "a deal from the score page's form (htmx)": lambda d: (
        "anonymous",
        "post",
        f"/l/{d['link']}/",
        page_deal_body(d["match"]),
        {"HTTP_HX_REQUEST": "true"},
    ),
    "signing in": lambda d: (
        "anonymous",
        "post",
        "/accounts/login/",
        {"username": d["org"].username, "password": "down-but-right-56"},
        {},
    ),
    # The session is read before any view: by the language middleware.
    "the login page, signed in": lambda d: (
        "signed in",
        "get",
        "/accounts/login/",
        None,
        {},
    ),
    "a tournament's page, signed in": lambda d: (
        "signed in",
        "get",
        "/t/down-cup/",
        None,
        {},
    ),
}


@pytest.mark.parametrize("language", ["en", "ml"])
@pytest.mark.parametrize("name", sorted(PAGES))
def test_every_page_is_a_503_page_in_the_visitors_language(day, caplog, name, language):
    who, method, address, form, headers = PAGES[name](day)
    browser = _browser(day, who)
    caplog.set_level(logging.INFO)
    with database_down() as tries:
        page = getattr(browser, method)(
            address, form, HTTP_ACCEPT_LANGUAGE=f"{language},en;q=0.5", **headers
        )
    assert tries.called  # the request did go to the database, and was refused
    assert page.status_code == 503
    assert page["Retry-After"] == "5"
    assert page["Content-Type"].startswith("text/html")
    assert page["Content-Language"] == language
    text = page.content.decode()
    assert f'<html lang="{language}">' in text
    assert SAID[language] in text
    assert f'<a href="{address}"{AGAIN[language]}' in text
    assert "/static/css/site.css" in text
    assert_logged_once(caplog.records)

    # The database back, the same page is answered as usual.
    assert getattr(browser, method)(address, form, **headers).status_code < 500


def test_the_language_cookie_is_read_without_the_session(day):
    browser = _browser(day, "signed in")
    browser.cookies["django_language"] = "ml"
    with database_down():
        page = browser.get("/t/down-cup/", HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 503
    assert '<html lang="ml">' in page.content.decode()
    assert SAID["ml"] in page.content.decode()


def test_any_other_server_error_is_still_the_500_page(day, monkeypatch, caplog):
    from tournament import views

    def broken(*args, **kwargs):
        raise RuntimeError("the disk caught fire")

    monkeypatch.setattr(views, "tournament_list_visible", broken)
    with caplog.at_level(logging.ERROR):
        page = _browser(day, "anonymous").get("/")
    assert page.status_code == 500
    assert "Retry-After" not in page
    errors = [r for r in caplog.records if r.name == "django.request"]
    assert errors and "the disk caught fire" in str(errors[0].exc_info[1])
