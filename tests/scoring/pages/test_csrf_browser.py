"""A deal saved when the browser's CSRF cookie changed since the page loaded (Debian's
chromium; docs/security.md, docs/links.md): someone signs in in another tab of the
same browser (Django rotates the token), or the cookies are cleared. The deal is
saved exactly once, or kept in the queue with a visible message and sent after a
reload: never lost without a word, never doubled."""

from __future__ import annotations

import time

import pytest

from scoring.models import Deal
from tests.browser import PHONE, fill_deal, save_deal
from tests.factories import member
from tests.scoring.league import link_key, tables_in_play
from tournament.domain.types import Role

pytestmark = pytest.mark.django_db(transaction=True)

EXPIRED = {
    "en": "Not saved: this page's security check expired. Reload the page; "
    "your entry is kept and will be sent.",
    "ml": "സേവ് ചെയ്തില്ല: ഈ പേജിന്റെ സുരക്ഷാ പരിശോധനയുടെ കാലാവധി കഴിഞ്ഞു. പേജ് "
    "വീണ്ടും ലോഡ് ചെയ്യുക; നിങ്ങളുടെ എൻട്രി സൂക്ഷിച്ചിട്ടുണ്ട്, അത് അയയ്ക്കും.",
}


def _until(check, seconds: float = 15.0):
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.2)


def _phone(browser):
    """A phone without the service worker: these tests are about the cookie, and the
    worker's copy of the page is fetched at its own moment, answered with the cookie
    the request carried (Django sends the token back with every page), which could put
    a cleared cookie back under the test."""
    return browser.new_context(viewport=PHONE, service_workers="block")


def _speak(page, language: str) -> None:
    if language != "en":
        page.click(f"form.languages button[value={language}]")
        page.wait_for_selector(f"html[lang={language}]")
        # The page in its language, with its scripts run (htmx takes the forms).
        page.wait_for_load_state("load")


def _log_in_beside(context, live_server, user) -> None:
    """`user` signs in in a second tab of the same browser: the CSRF token rotates."""
    user.set_password("browser-56")
    user.save(update_fields=["password"])
    other = context.new_page()
    other.goto(f"{live_server.url}/accounts/login/")
    other.fill("#id_username", user.username)
    other.fill("#id_password", "browser-56")
    other.click("main form button")
    other.wait_for_url(f"{live_server.url}/")
    other.close()


@pytest.mark.parametrize("language", ["en", "ml"])
def test_a_table_saves_its_deal_after_a_sign_in_in_another_tab(
    browser, live_server, language
):
    tournament, organizer, _, matches = tables_in_play("csrf-tab", tables=1, deals=4)
    context = _phone(browser)
    page = context.new_page()
    page.goto(f"{live_server.url}/l/{link_key(tournament, table=1)}/")
    _speak(page, language)
    before = page.evaluate("() => document.cookie")
    _log_in_beside(context, live_server, organizer)
    assert page.evaluate("() => document.cookie") != before  # the token rotated
    fill_deal(page, "A", 40, "clubs", "none", 44)
    save_deal(page, 1)
    assert list(
        Deal.objects.filter(match=matches[0]).values_list("number", "taken")
    ) == [(1, 44)]
    assert page.locator("#queue li").count() == 0
    assert page.locator("#score-app .flash.error").count() == 0
    context.close()


def test_a_table_saves_its_deal_once_after_the_cookies_are_cleared(
    browser, live_server
):
    tournament, _, _, matches = tables_in_play("csrf-gone", tables=1, deals=4)
    context = _phone(browser)
    page = context.new_page()
    page.goto(f"{live_server.url}/l/{link_key(tournament, table=1)}/")
    context.clear_cookies(name="csrftoken")
    fill_deal(page, "B", 28, "hearts", "doubled", 30)
    save_deal(page, 1)  # refused, a fresh cookie, the same request once more
    deals = Deal.objects.filter(match=matches[0])
    assert list(deals.values_list("number", "declarer", "taken")) == [(1, "B", 30)]
    assert "csrftoken" in page.evaluate("() => document.cookie")
    context.close()


@pytest.mark.parametrize("language", ["en", "ml"])
def test_a_deal_refused_twice_waits_with_a_message_and_is_sent_after_a_reload(
    browser, live_server, language
):
    """No fresh cookie can be had (the network fails under the renewal): the deal
    waits in the queue, the page says why in its language, and a reload sends it."""
    tournament, _, _, matches = tables_in_play("csrf-held", tables=1, deals=4)
    match = matches[0]
    scorer = member(tournament, Role.SCORER, "csrf-scorer")
    context = _phone(browser)
    _log_in_beside(context, live_server, scorer)
    page = context.new_page()
    address = f"{live_server.url}/matches/{match.pk}/score/"
    page.goto(address)
    _speak(page, language)

    def no_renewal(route):
        if route.request.resource_type == "fetch" and route.request.method == "GET":
            route.abort()
        else:
            route.continue_()

    def no_preview(route):
        route.abort()

    asked: set = set()  # the award's previews not answered yet
    page.on("request", lambda r: asked.add(r) if "/preview/" in r.url else None)
    page.on("requestfinished", lambda r: asked.discard(r))
    page.on("requestfailed", lambda r: asked.discard(r))
    page.route(address, no_renewal)
    fill_deal(page, "A", 40, "clubs", "none", 44)
    # Any answer hands the page a cookie again, a fresh one to a request sent without:
    # the renewal this test blocks. So from here the award's previews go unanswered
    # (the tap on Save asks one more as the last field loses the focus), and the
    # cookie goes once those asked before are answered; the page's queue can then
    # send nothing before the reload.
    page.route(f"{address}preview/**", no_preview)
    for _ in range(100):
        if not asked:
            break
        page.wait_for_timeout(100)
    assert not asked, "a preview was never answered"
    context.clear_cookies(name="csrftoken")
    page.click("#deal-form button.save")
    alert = page.locator("#score-app .flash.error[role=alert]")
    alert.wait_for()
    assert alert.inner_text() == EXPIRED[language]
    page.locator("#queue li.waiting").wait_for()
    assert not Deal.objects.filter(match=match).exists()
    assert page.locator("#offline").get_attribute("data-waiting") == "1"

    page.unroute(address)
    page.unroute(f"{address}preview/**")
    page.reload()
    page.locator("#deal-1").wait_for()
    _until(lambda: page.locator("#offline").get_attribute("data-waiting") == "0")
    assert list(Deal.objects.filter(match=match).values_list("number", "taken")) == [
        (1, 44)
    ]
    context.close()


def test_a_delete_confirmed_once_is_done_after_the_cookies_are_cleared(
    browser, live_server
):
    """Any htmx write (here a deal's delete, behind its confirmation) is sent again
    once with a fresh cookie, without asking the scorer a second time."""
    tournament, _, _, matches = tables_in_play("csrf-delete", tables=1, deals=4)
    context = _phone(browser)
    page = context.new_page()
    page.goto(f"{live_server.url}/l/{link_key(tournament, table=1)}/")
    fill_deal(page, "A", 40, "clubs", "none", 44)
    save_deal(page, 1)
    page.click("#deal-1 a.edit")
    page.locator("form.delete-deal").wait_for()
    asked = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    context.clear_cookies(name="csrftoken")
    page.click("form.delete-deal button")
    page.locator("#deal-1").wait_for(state="detached")
    assert not Deal.objects.filter(match=matches[0]).exists()
    assert asked == ["Delete deal 1?"]
    context.close()


SERVER_ERROR = {
    "en": "The server could not save it now (error 503): it is kept on this phone "
    "and sent again shortly.",
    "ml": "സെർവറിന് ഇപ്പോൾ ഇത് സേവ് ചെയ്യാനായില്ല (പിശക് 503): ഇത് ഈ ഫോണിൽ "
    "സൂക്ഷിച്ചിട്ടുണ്ട്, അൽപസമയത്തിനകം വീണ്ടും അയയ്ക്കും.",
}


def _database_down(route, retry_after: str | None = None) -> None:
    """The site's answer while its database is down (tournament/web/unavailable.py)."""
    route.fulfill(
        status=503,
        headers={"Retry-After": retry_after} if retry_after else {},
        content_type="application/json",
        body='{"detail": "down", "code": "database_unavailable"}',
    )


@pytest.mark.parametrize("language", ["en", "ml"])
def test_a_server_error_under_a_save_is_said_and_the_deal_waits(
    browser, live_server, language
):
    """A 503 (the database down) is like being offline: the deal waits in the queue
    under its key, the page says so, and it is sent when the server is back."""
    tournament, _, _, matches = tables_in_play("csrf-503", tables=1, deals=4)
    context = _phone(browser)
    page = context.new_page()
    page.goto(f"{live_server.url}/l/{link_key(tournament, table=1)}/")
    _speak(page, language)

    def down(route):
        if route.request.method in ("POST", "PUT"):
            _database_down(route)
        else:
            route.continue_()

    page.route("**/*", down)
    fill_deal(page, "A", 40, "clubs", "none", 44)
    page.click("#deal-form button.save")
    alert = page.locator("#score-app .flash.error[role=alert]")
    alert.wait_for()
    assert alert.inner_text() == SERVER_ERROR[language]
    page.locator("#queue li.waiting").wait_for()
    assert not Deal.objects.filter(match=matches[0]).exists()

    page.unroute("**/*", down)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    page.locator("#deal-1").wait_for()
    _until(lambda: page.locator("#offline").get_attribute("data-waiting") == "0")
    assert Deal.objects.filter(match=matches[0]).count() == 1
    context.close()


def test_a_deal_kept_after_a_503_is_sent_again_when_retry_after_says(
    browser, live_server
):
    """The queue does not wait for its next minute's try when the server said when to
    come back: a 503 with Retry-After: 1 (the database restarting) is tried again a
    second later, by itself, and the deal is saved once (docs/reliability.md)."""
    tournament, _, _, matches = tables_in_play("retry-after", tables=1, deals=4)
    context = _phone(browser)
    page = context.new_page()
    page.goto(f"{live_server.url}/l/{link_key(tournament, table=1)}/")
    refused: list[str] = []

    def restarting(route):
        if route.request.method == "POST" and len(refused) < 2:
            refused.append(route.request.url)
            _database_down(route, retry_after="1")
        else:
            route.continue_()

    page.route("**/*", restarting)
    fill_deal(page, "A", 40, "clubs", "none", 44)
    page.click("#deal-form button.save")
    started = time.monotonic()
    page.locator("#deal-1").wait_for(timeout=8000)  # well before the 15 s try
    assert time.monotonic() - started < 8
    assert len(refused) == 2 and "/api/v1/matches/" in refused[1]
    _until(lambda: page.locator("#offline").get_attribute("data-waiting") == "0")
    assert Deal.objects.filter(match=matches[0]).count() == 1
    context.close()


def test_any_other_refusal_under_a_save_is_said_and_the_form_keeps_the_deal(
    browser, live_server
):
    tournament, _, _, matches = tables_in_play("csrf-404", tables=1, deals=4)
    context = _phone(browser)
    page = context.new_page()
    page.goto(f"{live_server.url}/l/{link_key(tournament, table=1)}/")
    page.route(
        "**/sheets/**",
        lambda route: (
            route.fulfill(status=404, body="gone")
            if route.request.method == "POST"
            else route.continue_()
        ),
    )
    fill_deal(page, "A", 40, "clubs", "none", 44)
    page.click("#deal-form button.save")
    alert = page.locator("#score-app .flash.error[role=alert]")
    alert.wait_for()
    assert alert.inner_text() == (
        "Not saved: the server refused it (error 404). Reload the page and try again."
    )
    assert page.input_value("#id_taken") == "44"  # what was typed is still there
    assert not Deal.objects.filter(match=matches[0]).exists()
    context.close()
