"""At the table and for the team in a real browser (Debian's chromium), on a phone
(issue 38): the score page says it is saving beside the button on a slow link and
keeps the button from a second tap; the match page and a team link's page follow the
play by themselves, with 304s while nothing changes."""

from __future__ import annotations

import time

import pytest

from scoring.models import Deal
from tests.browser import PHONE, fill_deal_body
from tests.scoring.league import deals_for, link_key, play_quickly, tables_in_play

pytestmark = pytest.mark.django_db(transaction=True)


def _phone(browser, language: str = "en"):
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, locale=language
    )
    context.set_extra_http_headers({"Accept-Language": language})
    return context


def test_saving_shows_beside_the_button_and_a_second_tap_sends_nothing(
    browser, live_server
):
    tournament, _, _, (match, *_) = tables_in_play("slow-cup", tables=1, deals=4)
    page = _phone(browser).new_page()
    posts: list[str] = []
    held: list = []

    def slow_link(route):
        # A slow link: the deal's POST is held on the phone until the test lets it
        # go (a sleep here would block Playwright's own thread and race the page).
        if route.request.method == "POST":
            posts.append(route.request.url)
            held.append(route)
            return
        route.continue_()

    page.route("**/sheets/**", slow_link)
    page.goto(f"{live_server.url}/l/{link_key(tournament, table=1)}/")
    body = deals_for(7, 0)[0]
    fill_deal_body(page, body)
    # The form is whole once the award's preview shows it: then save.
    page.locator("#preview").get_by_text("receives").wait_for()
    button = page.locator("#deal-form button.save")
    button.click()
    saving = page.locator("#save-state .saving")
    saving.wait_for(state="visible", timeout=5000)
    assert button.is_disabled()
    for _ in range(100):  # the first save held at the server's door
        if held:
            break
        page.wait_for_timeout(100)
    button.dispatch_event("click")  # the impatient second tap
    page.wait_for_timeout(500)
    assert len(posts) == 1 and len(held) == 1
    assert saving.is_visible()
    held.pop().continue_()
    done = page.locator("#save-state .said")
    done.wait_for(timeout=10_000)
    assert "Deal 1 saved" in done.inner_text()
    assert not saving.is_visible()
    # The answer is beside the button, in the phone's screen, and the keyboard is
    # at the next deal.
    box = done.bounding_box()
    assert box is not None and box["y"] < PHONE["height"] + page.evaluate("scrollY")
    assert page.evaluate("document.activeElement.name") == "number"
    assert page.input_value("#id_number") == "2"
    assert Deal.objects.filter(match=match).count() == 1
    assert len(posts) == 1


@pytest.mark.parametrize("language", ["en", "ml"])
def test_the_match_and_team_pages_follow_the_play(
    browser, live_server, settings, language
):
    settings.DESK_POLL_SECONDS = 1
    tournament, organizer, _, (match, *_) = tables_in_play(
        f"live-{language}", tables=1, deals=4
    )
    context = _phone(browser, language)
    watcher = context.new_page()
    answers: list[int] = []
    watcher.on(
        "response",
        lambda r: answers.append(r.status) if r.request.method == "GET" else None,
    )
    watcher.goto(f"{live_server.url}/matches/{match.pk}/")
    team = context.new_page()
    team.goto(f"{live_server.url}/l/{link_key(tournament, team=match.team_b)}/")
    end = time.monotonic() + 10
    while 304 not in answers:  # polled, nothing changed, nothing re-rendered
        assert time.monotonic() < end, answers
        watcher.wait_for_timeout(200)
    play_quickly(match.pk, organizer, 9, 6, deals=4)
    # The match page shows every deal, and the team's page offers its confirmation,
    # each by itself.
    watcher.wait_for_function(
        "() => document.querySelectorAll('#match-live table tbody tr').length >= 4",
        timeout=10_000,
    )
    team.locator("#team-sheets form button").wait_for(timeout=10_000)
    assert team.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
