"""Offline entry at a table, as new users met its faults (issue 50), in a real
browser (Debian's chromium) on a phone, in English and Malayalam: each new deal
starts blank (no bidder or auction carried over), the number the scorer types stays
as typed, a refused entry is corrected in the deal form and goes back to its place
in the queue, and dropping one asks first (docs/links.md)."""

from __future__ import annotations

import pytest

from scoring.models import Deal
from tests.browser import fill_deal
from tests.scoring.league import link_key, tables_in_play

pytestmark = pytest.mark.django_db(transaction=True)

SCREENS = {
    "390x844": {"width": 390, "height": 844},
    "360x740": {"width": 360, "height": 740},
}
BIDDER = {"en": "(bidder: {name})", "ml": "(വിളിച്ചയാൾ: {name})"}
ASK_DROP = {
    "en": "? It will not be sent, and this phone forgets it.",
    "ml": " ഉപേക്ഷിക്കണോ? ഇത് അയക്കില്ല, ഈ ഫോണിൽ നിന്ന് മായും.",
}


def _ready_offline(page):
    """The service worker controls the page and holds its offline copy."""
    page.wait_for_function(
        """async () => {
            if (!navigator.serviceWorker.controller) return false;
            const cache = await caches.open("fiftysix-pages");
            return !!(await cache.match(location.pathname));
        }""",
        polling=200,
    )


def _bidder(page, name):
    page.click(f"#deal-form label.chip:has(input[name=bidder][value='{name}'])")


def _checked(page, name):
    return page.locator(f"#deal-form input[name={name}]:checked")


def _assert_blank(page):
    """A new deal's form, as the server's own: nothing chosen but the level's none
    and the bidder's "Not recorded", nothing typed."""
    for name in ("declarer", "trump"):
        assert _checked(page, name).count() == 0, name
    assert _checked(page, "level").get_attribute("value") == "none"
    bidders = _checked(page, "bidder")
    assert [bidders.nth(i).get_attribute("value") for i in range(bidders.count())] in (
        [],
        [""],
    )
    if page.locator("#deal-form input[name=bidder][value='']").count():
        assert bidders.count() == 1  # "Not recorded", as online
    for field in ("#id_value", "#id_taken", "#id_auction"):
        assert page.input_value(field) == "", field


def _queue_line(page, n):
    return page.locator("#queue li").nth(n - 1)


@pytest.mark.parametrize("language", ["en", "ml"])
@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_offline_deals_start_blank_keep_the_typed_number_and_refusals_are_corrected(
    browser, live_server, language, screen
):
    tournament, _, _, (match, _) = tables_in_play("blank-cup", tables=2, deals=8)
    a_player = match.team_a.players.order_by("position")[0].name
    b_player = match.team_b.players.order_by("position")[0].name
    context = browser.new_context(
        viewport=SCREENS[screen], is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/l/{link_key(tournament, table=1)}/")
    if language != "en":
        page.click(f"form.languages button[value={language}]")
        page.wait_for_selector(f"html[lang={language}]")
        page.wait_for_load_state("load")
    _ready_offline(page)
    context.set_offline(True)
    page.wait_for_selector("#net-status.offline")

    # Deal 1: A declares, A's player bid, with the auction. Saved, the form is blank.
    fill_deal(page, "A", 30, "spades", "none", 34)
    _bidder(page, a_player)
    page.click("#deal-form details.auction summary")
    page.fill("#id_auction", "A: 30S P P P P P")
    page.click("#deal-form button.save")
    _queue_line(page, 1).wait_for()
    _assert_blank(page)
    assert page.input_value("#id_number") == "2"
    assert BIDDER[language].format(name=a_player) in _queue_line(page, 1).inner_text()

    # Deal 2: B declares; the bidder chips untouched: no bidder, none shown.
    fill_deal(page, "B", 28, "hearts", "none", 30)
    page.click("#deal-form button.save")
    _queue_line(page, 2).wait_for()
    _assert_blank(page)
    assert "(" not in _queue_line(page, 2).inner_text().split(":", 1)[1]

    # Deal 3: B declares and the scorer taps A's player by mistake.
    fill_deal(page, "B", 29, "clubs", "none", 20)
    _bidder(page, a_player)
    page.click("#deal-form button.save")
    _queue_line(page, 3).wait_for()
    _assert_blank(page)

    # Back online: deals 1 and 2 go, deal 3 is refused and held.
    context.set_offline(False)
    page.locator("#queue li.refused").wait_for()
    page.locator("#deal-2").wait_for()
    saved = {d.number: d for d in Deal.objects.filter(match=match)}
    assert sorted(saved) == [1, 2]
    assert (saved[1].bidder, saved[1].auction) == (a_player, "A: 30S P P P P P")
    assert (saved[2].bidder, saved[2].auction) == ("", "")

    # With an entry held, the number typed stays typed when the award's preview
    # answers (it was replaced by the queue's next number).
    page.evaluate(
        """() => {
            window.previewed = 0;
            document.body.addEventListener("htmx:afterSettle", (event) => {
                if (event.detail.target.id === "preview") window.previewed += 1;
            });
        }"""
    )
    page.fill("#id_number", "7")
    fill_deal(page, "A", 31, "diamonds", "none", 40)
    page.wait_for_function("() => window.previewed > 0")
    page.evaluate(
        """() => new Promise((done) => {
            const open = indexedDB.open("fiftysix-queue");
            open.onsuccess = () => {
                const tx = open.result.transaction("entries");
                const entries = tx.objectStore("entries");
                const read = entries.count();
                read.onsuccess = () => done(read.result);
            };
        })"""
    )
    assert page.input_value("#id_number") == "7"

    # Correct it: the form holds deal 3 as saved, bidder included; the right bidder,
    # saved, goes back to its place and is sent.
    page.click("#queue li.refused button:nth-of-type(1)")
    page.wait_for_selector("#deal-form .correcting")
    assert page.input_value("#id_number") == "3"
    assert _checked(page, "declarer").get_attribute("value") == "B"
    assert _checked(page, "bidder").get_attribute("value") == a_player
    _bidder(page, b_player)
    page.click("#deal-form button.save")
    page.locator("#deal-3").wait_for()
    page.wait_for_function(
        "() => document.getElementById('offline').dataset.waiting === '0'"
    )
    deal = Deal.objects.get(match=match, number=3)
    assert (deal.declarer, deal.value, deal.bidder) == ("B", 29, b_player)
    assert page.locator("#deal-form .correcting").count() == 0

    # Offline again: deal 4 with the wrong bidder, deal 5 behind it.
    context.set_offline(True)
    page.wait_for_selector("#net-status.offline")
    page.fill("#id_number", "4")
    fill_deal(page, "A", 32, "hearts", "none", 10)
    _bidder(page, b_player)
    page.click("#deal-form button.save")
    _queue_line(page, 1).wait_for()
    fill_deal(page, "A", 33, "hearts", "none", 40)
    page.click("#deal-form button.save")
    _queue_line(page, 2).wait_for()
    context.set_offline(False)
    page.locator("#queue li.refused").wait_for()

    # "Drop it" asks first, in the page's language: refused, nothing is dropped.
    asked = []

    def answer(dialog, accept):
        asked.append(dialog.message)
        (dialog.accept if accept else dialog.dismiss)()

    page.once("dialog", lambda d: answer(d, False))
    page.click("#queue li.refused button:nth-of-type(3)")
    assert len(asked) == 1 and asked[0].endswith(ASK_DROP[language])
    assert page.locator("#queue li.refused").count() == 1
    page.once("dialog", lambda d: answer(d, True))
    page.click("#queue li.refused button:nth-of-type(3)")
    page.locator("#deal-5").wait_for()
    page.wait_for_function(
        "() => document.getElementById('offline').dataset.waiting === '0'"
    )
    assert sorted(
        Deal.objects.filter(match=match).values_list("number", flat=True)
    ) == [1, 2, 3, 5]
    context.close()


def test_a_cold_load_fetches_the_score_page_once_and_it_reopens_offline(
    browser, live_server
):
    tournament, *_ = tables_in_play("once-cup", tables=2, deals=4)
    address = f"/l/{link_key(tournament, table=1)}/"
    context = browser.new_context(
        viewport=SCREENS["390x844"], is_mobile=True, has_touch=True
    )
    page = context.new_page()
    fetched = []
    context.on(
        "request",
        lambda r: (
            fetched.append(r.method) if r.url == f"{live_server.url}{address}" else None
        ),
    )
    page.goto(f"{live_server.url}{address}")
    page.wait_for_function(
        "() => document.getElementById('offline').dataset.kept === 'yes'"
    )
    _ready_offline(page)
    assert fetched == ["GET"]
    context.set_offline(True)
    reloaded = page.reload()
    assert reloaded is not None and reloaded.from_service_worker
    page.wait_for_selector("#deal-form")
    page.wait_for_selector("#net-status.offline")
    context.close()


def test_the_form_after_a_save_carries_nothing_of_the_deal_saved(client):
    """Online, the server's form for the next deal: no chip chosen but the level's
    none, no bidder, no auction."""
    tournament, _, _, (match, _) = tables_in_play("fresh-cup", tables=2, deals=8)
    a_player = match.team_a.players.order_by("position")[0].name
    key = link_key(tournament, table=1)
    answer = client.post(
        f"/l/{key}/sheets/{match.pk}/",
        {
            "action": "deal",
            "number": 1,
            "declarer": "A",
            "value": 30,
            "trump": "spades",
            "level": "doubled",
            "taken": 34,
            "bidder": a_player,
            "auction": "A: 30S X P P P P P",
            "version": match.version,
        },
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 200
    html = answer.content.decode()
    assert Deal.objects.get(match=match, number=1).bidder == a_player
    form = html[
        html.index('id="deal-form"') : html.index(
            "</form>", html.index('id="deal-form"')
        )
    ]
    assert "data-typed" not in form
    checked = [line for line in form.split("<input") if "checked" in line]
    # The level's none, and the bidder's "Not recorded" (value "") if chosen at all.
    chosen = sorted(line.split(' id="')[0].split('name="')[1] for line in checked)
    assert chosen in (
        ['level" value="none"'],
        ['bidder" value=""', 'level" value="none"'],
    )
    assert 'name="auction"' in form and 'value="A: 30S' not in form
    assert 'name="number" value="2"' in form
