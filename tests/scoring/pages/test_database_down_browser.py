"""The database out of reach under an open page (Debian's chromium; tournament/
unavailable.py): the server itself answers 503, a page for the score page's form and
JSON for its queue, not a routed answer. A deal waits in the queue, said, and is sent
when the database answers again; any other form sent by htmx says to try again,
instead of nothing."""

from __future__ import annotations

import time

import pytest

from scoring.models import Deal
from tests.browser import DESK, PHONE, fill_deal
from tests.scoring.league import link_key, tables_in_play
from tests.scoring.pages.test_csrf_browser import SERVER_ERROR
from tests.unreachable import database_down

pytestmark = pytest.mark.django_db(transaction=True)

AWARD_LATER = "The award is worked out by the server when the deal reaches it."
# The service worker controls the page and keeps a copy of it (templates/scoring/sw.js).
KEPT = """async () => {
    if (!navigator.serviceWorker.controller) return false;
    const cache = await caches.open("fiftysix-pages");
    return !!(await cache.match(location.pathname));
}"""
NOT_DONE = {
    "en": "Not done: the server could not do it now (error 503). Try again in a "
    "moment.",
    "ml": "ചെയ്തില്ല: സെർവറിന് ഇപ്പോൾ ഇത് ചെയ്യാനായില്ല (പിശക് 503). അൽപസമയം കഴിഞ്ഞ് "
    "വീണ്ടും ശ്രമിക്കുക.",
}


def _phone(browser, language: str):
    context = browser.new_context(viewport=PHONE, locale=language)
    context.set_extra_http_headers({"Accept-Language": language})
    return context


def _until(page, check, seconds: float = 15.0):
    """Waits in Playwright (a sleep would hold its events back) until `check()`."""
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, "timed out"
        page.wait_for_timeout(200)


def test_a_deal_saved_while_the_database_is_down_waits_and_is_sent_after(
    browser, live_server
):
    """Typed, saved and the page reloaded while the database is down: the award's
    previews fail without queueing a half-typed deal, the save queues it, a reload
    shows the page kept on the phone with the deal waiting, and it is sent, once,
    when the database answers again."""
    tournament, _, _, (match, *_) = tables_in_play("down-503", tables=1, deals=4)
    context = _phone(browser, "en")
    page = context.new_page()
    posts: list[tuple[int, str]] = []
    page.on(
        "response",
        lambda r: (
            posts.append((r.status, r.url)) if r.request.method == "POST" else None
        ),
    )
    page.goto(f"{live_server.url}/l/{link_key(tournament, table=1)}/")
    _until(page, lambda: page.evaluate(KEPT))  # the service worker keeps the page
    with database_down():
        fill_deal(page, "A", 40, "clubs", "none", 44)
        preview = page.locator("#preview")
        preview.get_by_text(AWARD_LATER).wait_for()
        assert page.input_value("#id_taken") == "44"  # nothing was queued yet
        assert page.locator("#queue li").count() == 0
        page.click("#deal-form button.save")
        alert = page.locator("#score-app .flash.error[role=alert]")
        alert.get_by_text(SERVER_ERROR["en"]).wait_for()
        page.locator("#queue li.waiting").wait_for()
        # The queue tried the API too, and was answered 503 as well.
        _until(page, lambda: any("/api/v1/" in url for _, url in posts))
        tries = sum("/api/v1/" in url for _, url in posts)
        page.reload()  # the server's 503: the page kept on the phone instead
        page.locator("#deal-form").wait_for()
        page.locator("#queue li.waiting").wait_for()
        # The reloaded page's queue tries at once: answered while still down (its
        # next try waits for Retry-After), not after the database is back.
        _until(page, lambda: sum("/api/v1/" in url for _, url in posts) > tries)
    assert {status for status, _ in posts} == {503}, posts
    assert not Deal.objects.filter(match=match).exists()

    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    page.locator("#deal-1").wait_for()
    _until(page, lambda: page.locator("#offline").get_attribute("data-waiting") == "0")
    assert Deal.objects.filter(match=match).count() == 1
    context.close()


@pytest.mark.parametrize("language", ["en", "ml"])
def test_a_form_sent_by_htmx_says_to_try_again(browser, live_server, language):
    """The standings' section filter, sent while the database is down: the page
    says so beside it; answered again, the words go."""
    tables_in_play("down-filter", tables=2, deals=4)
    context = _phone(browser, language)
    page = context.new_page()
    page.goto(f"{live_server.url}/t/down-filter/standings/")
    alert = page.locator("form.section-filter + .flash.error[role=alert]")
    with database_down():
        page.select_option("#id_section", index=1)
        alert.wait_for()
    assert alert.inner_text() == NOT_DONE[language]
    page.select_option("#id_section", index=2)
    alert.wait_for(state="detached")
    assert "section=" in page.url  # answered, and shown
    context.close()


@pytest.mark.parametrize("language", ["en", "ml"])
@pytest.mark.parametrize("size", ["phone", "desk"])
def test_the_503_page_fits_a_phone_and_a_desk(browser, live_server, language, size):
    """The page a visitor gets while the database is down, in the visitor's
    language: nothing cut, no sideways scroll, at 390 px and at a desk."""
    viewport = PHONE if size == "phone" else DESK
    context = browser.new_context(viewport=viewport, locale=language)
    context.set_extra_http_headers({"Accept-Language": language})
    page = context.new_page()
    with database_down():
        answer = page.goto(f"{live_server.url}/t/any-cup/standings/")
    assert answer is not None and answer.status == 503
    assert page.evaluate("document.documentElement.lang") == language
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    said = page.locator("#unavailable")
    box = said.bounding_box()
    assert box is not None and box["x"] >= 0
    assert box["x"] + box["width"] <= viewport["width"]
    # Every line of the sentence shows whole: its box holds its text.
    assert said.evaluate("e => e.scrollWidth <= e.clientWidth")
    again = page.locator("main a")
    assert again.count() == 1
    assert again.get_attribute("href") == "/t/any-cup/standings/"
    assert again.is_visible()
    context.close()
