"""The bracket on a phone and on paper, in Debian's chromium (tests/conftest.py
gives the browser)."""

import pytest

from tests.brackets.knockout import final_league, play_sheet
from tests.conftest import as_user
from tests.scoring.league import confirm

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_bracket_reads_on_a_phone_and_prints_every_round(browser, live_server):
    from rest_framework.test import APIClient

    _, organizer = final_league(2, 13, qualifiers=24, slug="phone-cup")
    api = as_user(APIClient(), organizer)
    data = api.post("/api/v1/tournaments/phone-cup/knockout/", {}, "json").json()
    first = data["rounds"][0]["matches"][0]
    play_sheet(api, first["match"], 12, 6, 18)
    confirm(api, first["match"])

    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{live_server.url}/t/phone-cup/bracket/")
    # The page itself does not scroll sideways: the bracket's columns do, inside it.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    bracket = page.locator(".bracket")
    assert bracket.evaluate("b => b.scrollWidth > b.clientWidth")
    column = page.locator(".ko-round").first
    width = column.evaluate("c => c.getBoundingClientRect().width")
    assert 280 <= width <= 390  # one round nearly fills the phone, readable
    assert page.locator(".ko-round").count() == 6
    winner = page.locator(f'.ko-match[data-number="{first["number"]}"] .ko-side.won')
    assert winner.inner_text().startswith(str(first["seed_a"]))
    page.screenshot(path="var/bracket-phone.png", full_page=True)

    # Printed on A4 landscape (about 1123 x 794 CSS pixels), every round on the page.
    page.set_viewport_size({"width": 1123, "height": 794})
    page.emulate_media(media="print")
    rounds = page.locator(".ko-round")
    right = [
        rounds.nth(i).evaluate("c => c.getBoundingClientRect().right")
        for i in range(rounds.count())
    ]
    viewport = page.evaluate("window.innerWidth")
    assert all(r <= viewport + 1 for r in right), right
    assert page.locator(".score-link").first.is_hidden()
