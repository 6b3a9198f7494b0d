"""Table and team links in a real browser (Debian's chromium), as a volunteer at a
table uses them: no account, a phone, and Wi-Fi that drops (docs/links.md)."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from scoring.links.services import link_renew
from scoring.models import Deal, SheetChange
from scoring.sheets import services
from tests.browser import DESK, PHONE, fill_deal, fill_deal_body, log_in, shoot
from tests.factories import member
from tests.scoring.league import deals_for, link_key, tables_in_play
from tournament.domain.types import Role
from tournament.models import Link, LinkKind

pytestmark = pytest.mark.django_db(transaction=True)


def _tournament(deals: int):
    return tables_in_play("link-cup", tables=2, deals=deals)


def _key(tournament, table: int) -> str:
    return link_key(tournament, table=table)


def _offline_phone(browser, live_server, key):
    """A phone on table `key`'s page, ready to work offline, then offline."""
    context = _phone(browser)
    page = context.new_page()
    page.goto(f"{live_server.url}/l/{key}/")
    _ready_offline(page)
    context.set_offline(True)
    page.locator("#net-status .net").get_by_text("Offline").wait_for()
    return context, page


def _phone(browser):
    return browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)


def _save(page, waiting: int | None = None):
    page.click("#deal-form button.save")
    if waiting is not None:
        page.locator("#queue li").nth(waiting - 1).wait_for()


def _until(check, seconds: float = 15.0):
    """Wait for the server's side of what the page did."""
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.2)


def _ready_offline(page):
    """Wait until the service worker controls the page and keeps a copy of it."""
    _until(
        lambda: page.evaluate(
            """async () => {
                if (!navigator.serviceWorker.controller) return false;
                const cache = await caches.open("fiftysix-pages");
                return !!(await cache.match(location.pathname));
            }"""
        )
    )


def test_a_table_link_scores_a_whole_match_and_nothing_else(browser, live_server):
    tournament, organizer, teams, (here, there) = _tournament(deals=4)
    key = _key(tournament, 1)
    page = _phone(browser).new_page()
    page.goto(f"{live_server.url}/l/{key}/")
    assert "table 1" in page.inner_text(".crumbs")
    assert page.locator("a:has-text('Log in')").count() == 1  # no one is signed in
    for number, body in enumerate(deals_for(9, 6, 4), start=1):
        fill_deal_body(page, body)
        page.click("#deal-form button.save")
        page.locator(f"#deal-{number}").wait_for()
    here.refresh_from_db()
    assert (here.status, here.total_a, here.total_b) == ("completed", 9, 6)
    actors = set(
        SheetChange.objects.filter(match=here).values_list("actor_name", flat=True)
    )
    assert "table 1 link" in actors
    assert "nothing waiting to send" in page.inner_text("#net-status")
    assert "last saved" in page.inner_text("#net-status")
    shoot(page, "link-table-phone")

    # The same key on table 2's sheet is refused, and the API agrees.
    refused = page.goto(f"{live_server.url}/l/{key}/sheets/{there.pk}/")
    assert refused.status == 403
    assert "table 1" in page.inner_text("main")
    answer = page.request.post(
        f"{live_server.url}/api/v1/matches/{there.pk}/deals/",
        data={**deals_for(7, 0)[0], "number": 1, "version": 1},
        headers={"Authorization": f"Link {key}"},
    )
    assert answer.status == 403
    assert Deal.objects.filter(match=there).count() == 0

    # Renewed: the old key stops at once, the new one works.
    renewed = link_renew(tournament=tournament, user=organizer, table=1)
    assert page.goto(f"{live_server.url}/l/{key}/").status == 404
    assert page.goto(f"{live_server.url}/l/{renewed.key}/").status == 200

    # The team link of team A confirms the sheet for its team, with no account.
    team_key = Link.objects.get(kind=LinkKind.TEAM, team=teams[0]).key
    captain = _phone(browser).new_page()
    captain.goto(f"{live_server.url}/l/{team_key}/")
    assert teams[0].name in captain.inner_text("h1")
    shoot(captain, "link-team-phone")
    captain.click("button[aria-label^='Confirm the sheet of table 1']")
    captain.locator(".messages").get_by_text("your confirmation is recorded").wait_for()
    here.refresh_from_db()
    assert here.confirmed_a_version == here.version
    assert here.changes.filter(actor_name=f"{teams[0].name} team link").exists()

    # The organizer's Links tab and the cards it prints.
    desk = log_in(browser, live_server, organizer, viewport=DESK)
    desk.goto(f"{live_server.url}/t/link-cup/links/")
    assert desk.locator("table.links").first.locator("tbody tr").count() == 2
    shoot(desk, "links-tab")
    desk.goto(f"{live_server.url}/t/link-cup/links/cards/")
    assert desk.locator("article.card svg").count() == 2
    shoot(desk, "link-cards")


def test_deals_entered_offline_are_sent_once_and_in_order(browser, live_server):
    tournament, _, _, (match, _) = _tournament(deals=6)
    context, page = _offline_phone(browser, live_server, _key(tournament, 1))
    bodies = deals_for(12, 8, 5)
    for n, body in enumerate(bodies, start=1):
        assert page.input_value("#id_number") == str(n)
        fill_deal_body(page, body)
        _save(page, waiting=n)
    assert "5 entries waiting to send" in page.inner_text("#net-status")
    assert page.locator("#queue li.waiting").count() == 5
    shoot(page, "link-offline-queue")
    assert Deal.objects.filter(match=match).count() == 0

    # Reloaded without a network: the service worker's copy, the queue kept.
    reloaded = page.reload()
    assert reloaded is not None and reloaded.from_service_worker
    page.locator("#queue li").nth(4).wait_for()
    assert "5 entries waiting to send" in page.inner_text("#net-status")
    expect(page.locator("#id_number")).to_have_value("6")

    context.set_offline(False)
    page.locator("#deal-5").wait_for(timeout=20000)
    page.locator("#net-status .waiting").get_by_text(
        "nothing waiting to send"
    ).wait_for()
    deals = list(Deal.objects.filter(match=match).order_by("number"))
    assert [d.number for d in deals] == [1, 2, 3, 4, 5]
    for deal, body in zip(deals, bodies, strict=True):
        assert (deal.declarer, deal.value, deal.trump, deal.taken) == (
            body["declarer"],
            body["value"],
            body["trump"],
            body["taken"],
        )
    assert match.changes.filter(action="deal_add").count() == 5
    match.refresh_from_db()
    assert (match.total_a, match.total_b) == (12, 8)


def test_a_page_older_than_a_send_already_answered_reads_the_sheet_again(
    browser, live_server
):
    """Reloaded while the page before it was sending: the new page's copy of the sheet
    was read before that send's deal reached the sheet, and the queue it finds is
    empty. The version that send was answered with says so, and the sheet is read
    again, so that the scorer does not start deal 1 over."""
    tournament, organizer, _, (match, _) = _tournament(deals=6)
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, service_workers="block"
    )
    page = context.new_page()
    address = f"{live_server.url}/l/{_key(tournament, 1)}/"
    page.goto(address)
    before = page.content()  # the sheet at version 1, as the new page would read it
    assert page.locator("#deal-1").count() == 0

    services.score_sheet_deal_record(
        match_id=match.pk,
        user=organizer,
        version=None,
        number=1,
        declarer="A",
        value=30,
        trump="spades",
        level="none",
        taken=34,
    )
    match.refresh_from_db()
    # What the page before left: the version its send was answered with.
    page.evaluate(
        f"localStorage.setItem('fiftysix-version-{match.pk}', '{match.version}')"
    )
    served = []

    def old_copy(route):
        if route.request.resource_type == "document" and not served:
            served.append(route.request.url)
            route.fulfill(body=before, content_type="text/html; charset=utf-8")
        else:
            route.continue_()

    page.route(address, old_copy)
    page.reload()
    assert served
    page.locator("#deal-1").wait_for()
    expect(page.locator("#id_number")).to_have_value("2")
    assert page.evaluate(f"localStorage.getItem('fiftysix-version-{match.pk}')") == str(
        match.version
    )
    context.close()


def test_a_change_from_another_device_is_shown_and_nothing_is_lost(
    browser, live_server
):
    tournament, organizer, _, (match, _) = _tournament(deals=6)
    context, page = _offline_phone(browser, live_server, _key(tournament, 1))
    fill_deal(page, "A", 30, "spades", "none", 34)
    _save(page, waiting=1)

    # Meanwhile another device enters deal 1 differently.
    services.score_sheet_deal_record(
        match_id=match.pk,
        user=organizer,
        version=None,
        number=1,
        declarer="B",
        value=28,
        trump="hearts",
        level="none",
        taken=30,
    )

    context.set_offline(False)
    clash = page.locator("#conflicts .conflict")
    clash.wait_for(timeout=20000)
    text = clash.inner_text()
    assert "On the sheet now, deal 1: B bid 28 ♥, took 30" in text
    assert "Yours, kept on this phone: A bid 30 ♠, took 34" in text
    # Below it, the sheet as the server has it now.
    page.locator("#deal-1").wait_for()
    assert "28" in page.inner_text("#deal-1")
    shoot(page, "link-conflict")
    deal = Deal.objects.get(match=match, number=1)
    assert (deal.declarer, deal.value) == ("B", 28)  # not overwritten
    assert page.locator("#queue li").count() == 0  # held in the conflict, not lost

    page.click("#conflicts button:has-text('Save mine as the next deal')")
    page.locator("#deal-2").wait_for(timeout=20000)
    mine = Deal.objects.get(match=match, number=2)
    assert (mine.declarer, mine.value, mine.trump, mine.taken) == (
        "A",
        30,
        "spades",
        34,
    )
    assert Deal.objects.filter(match=match).count() == 2
    assert page.locator("#conflicts .conflict").count() == 0
    match.refresh_from_db()
    assert match.changes.filter(action="deal_add").count() == 2


def test_a_signed_in_scorers_page_queues_offline_too(browser, live_server):
    tournament, _, _, (match, _) = _tournament(deals=6)
    scorer = member(tournament, Role.SCORER, "volunteer")
    page = log_in(browser, live_server, scorer)
    page.goto(f"{live_server.url}/matches/{match.pk}/score/")
    _ready_offline(page)
    page.context.set_offline(True)
    page.locator("#net-status .net").get_by_text("Offline").wait_for()
    fill_deal_body(
        page,
        {
            "declarer": "B",
            "value": 40,
            "trump": "no_trump",
            "level": "none",
            "taken": 44,
        },
    )
    _save(page, waiting=1)
    page.context.set_offline(False)
    page.locator("#deal-1").wait_for(timeout=20000)
    deal = Deal.objects.get(match=match, number=1)
    assert (deal.declarer, deal.value, deal.trump, deal.taken) == (
        "B",
        40,
        "no_trump",
        44,
    )
    assert deal.entered_by == scorer  # sent with the session and its CSRF token
