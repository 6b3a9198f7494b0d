"""The auction's tap pad and the statistics pages in a real browser (Debian's
chromium): a scorer taps an auction in, and a player reads who bid what, on a phone
and at a desk (screenshots in artifacts/screens/, docs/statistics.md)."""

from __future__ import annotations

import random

import pytest

from scoring.demo import play_randomly
from scoring.models import Deal
from tests.browser import DESK, PHONE, SCREENS, fill_deal, log_in, save_deal, shoot
from tests.factories import member
from tests.scoring.league import tables_in_play
from tournament.domain.types import Role

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_scorer_taps_the_bidder_and_the_auction(browser, live_server):
    tournament, _, _, matches = tables_in_play("stats-cup", tables=1, deals=18)
    match = matches[0]
    scorer = member(tournament, Role.SCORER, "stats-scorer")
    page = log_in(browser, live_server, scorer)
    page.goto(f"{live_server.url}/matches/{match.pk}/score/")
    fill_deal(page, "A", 40, "clubs", "none", 44)
    bidder = match.team_a.players.order_by("position")[1].name
    page.click(f"#deal-form label.chip:has(input[name=bidder][value='{bidder}'])")
    page.click("details.auction summary")
    for call in ("B:", "P", "4", "0", "C", "P", "P", "P", "P", "P", "⌫", "P"):
        if call == "⌫":
            page.click(".auction-pad [data-call=back]")
        else:
            page.click(f".auction-pad [data-call='{call}']")
    assert page.input_value("#id_auction") == "B: P 40C P P P P P"
    shoot(page, "score-auction-phone")
    save_deal(page, 1)
    deal = Deal.objects.get(match=match, number=1)
    assert (deal.bidder, deal.auction) == (bidder, "B: P 40C P P P P P")
    assert "B: P 40C P P P P P" in page.inner_text("#deal-1")


@pytest.mark.parametrize(("viewport", "name"), [(PHONE, "phone"), (DESK, "desk")])
def test_the_statistics_page_on_a_phone_and_a_desk(
    browser, live_server, viewport, name
):
    tournament, organizer, _, matches = tables_in_play("stats-cup", tables=4, deals=18)
    rng = random.Random(56)
    for match in matches:  # as the demo plays: bidders for most deals, some auctions
        play_randomly(match, organizer, rng, 18)
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{tournament.slug}/statistics/")
    assert page.locator("figure.chart svg").count() == 3
    assert page.locator(".records li").count() >= 3
    # Sorting by a header's link: made %, highest first, then back.
    page.click("#players th a.sort:text('Made %')")
    page.wait_for_url("**players=-made_percent**")
    header = page.locator("#players th[aria-sort]")
    assert header.get_attribute("aria-sort") == "descending"
    shown = [
        float(t) if t != "—" else -1
        for t in page.locator("#players tbody tr td:nth-child(6)").all_inner_texts()
    ]
    assert shown == sorted(shown, reverse=True) and len(shown) > 3
    page.goto(f"{live_server.url}/t/{tournament.slug}/statistics/")
    shoot(page, f"statistics-{name}")
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.locator("section:has(#charts-heading)").screenshot(
        path=str(SCREENS / f"statistics-charts-{name}.png")
    )
    # A bidder's page from the table.
    page.locator("#players tbody tr th a").first.click()
    page.wait_for_url("**/players/**")
    assert page.locator("h1").inner_text()
    assert page.locator("table.list").count() >= 2
    shoot(page, f"player-{name}")
    context.close()


def test_the_statistics_page_in_malayalam_on_a_phone(browser, live_server):
    """A phone whose browser asks for Malayalam (docs/glossary.md)."""
    tournament, organizer, _, matches = tables_in_play("stats-cup", tables=2, deals=18)
    rng = random.Random(28)
    for match in matches:
        play_randomly(match, organizer, rng, 18)
    context = browser.new_context(viewport=PHONE, locale="ml-IN")
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{tournament.slug}/statistics/")
    assert page.locator("html").get_attribute("lang") == "ml"
    assert page.locator("#records-heading").inner_text() == "റെക്കോർഡുകൾ"
    assert page.locator("nav.tabs [aria-current=page]").inner_text() == "കണക്കുകൾ"
    shoot(page, "statistics-phone-ml")
    page.goto(f"{live_server.url}/t/{tournament.slug}/standings/")
    shoot(page, "standings-phone-ml")
    context.close()
