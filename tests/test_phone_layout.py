"""The organizer's and the scorer's pages on a phone (390x844) and a desk (1366x900),
in English and in Malayalam, in Debian's chromium (issue 41, 9): every tab of the
tournament shows (they wrap, none hides behind the edge); the desk's tables fit the
phone, every column's words in view; a team's whole name in the score box; the
auction is a control that says it opens; and after "Save deal" the keyboard is at the
next deal's first field and a screen reader hears the answer."""

from __future__ import annotations

import pytest

from scoring.models import Deal, Match
from tests.browser import PHONE
from tests.factories import TournamentFactory, member
from tests.scoring.league import drawn_league
from tests.test_accessibility import LONG_NAMES, championship  # noqa: F401
from tournament.domain.types import Role
from tournament.models import Team

pytestmark = pytest.mark.django_db(transaction=True)

DESK = {"width": 1366, "height": 900}
ORGANIZER_TABS = 14
# Each tab's box, and the row's own widths: a row that hides a tab scrolls.
TABS = """() => {
  const nav = document.querySelector("nav.tabs");
  return {
    scrolls: nav.scrollWidth > nav.clientWidth,
    tabs: [...nav.querySelectorAll("a")].map((a) => {
      const box = a.getBoundingClientRect();
      return {text: a.textContent.trim(), left: box.left, right: box.right,
              cut: a.scrollWidth > a.clientWidth};
    }),
  };
}"""
# The desk's table: its region's widths, and each row's deals and last entry as the
# screen shows them (in their columns, or under the state on a phone).
DESK_TABLE = """() => {
  const region = document.querySelector(".desk .scroll");
  const shown = (el) => el && el.getClientRects().length > 0
    && getComputedStyle(el).visibility !== "hidden";
  return {
    wider: region.scrollWidth - region.clientWidth,
    rows: [...region.querySelectorAll("tbody tr")].map((row) => ({
      phone: shown(row.querySelector(".phone-only")),
      columns: [...row.querySelectorAll("td.wide-only")].filter(shown).length,
      right: Math.max(...[...row.cells].filter(shown)
        .map((cell) => cell.getBoundingClientRect().right)),
    })),
    regionRight: region.getBoundingClientRect().right,
  };
}"""
# A team's name in the score box: all its words, inside its box, nothing cut.
NAMES = """() => [...document.querySelectorAll(".scoreboard .team")].map((team) => {
  const box = team.getBoundingClientRect();
  const side = team.closest(".side").getBoundingClientRect();
  const style = getComputedStyle(team);
  return {text: team.innerText.replace(/\\s+/g, " ").trim(),
          inside: box.left >= side.left - 0.5 && box.right <= side.right + 0.5,
          cut: team.scrollWidth > team.clientWidth || style.textOverflow === "ellipsis"
               || style.whiteSpace === "nowrap"};
})"""
AUCTION = """() => {
  const details = document.querySelector("details.auction");
  const summary = details.querySelector("summary");
  const marker = getComputedStyle(summary, "::before").content;
  const style = getComputedStyle(details);
  return {open: details.open, marker: marker,
          listItem: getComputedStyle(summary).display === "list-item",
          border: parseFloat(style.borderTopWidth),
          height: summary.getBoundingClientRect().height};
}"""
LINKS = """() => {
  const tables = [...document.querySelectorAll("table.links")];
  const rows = tables.flatMap((t) => [...t.tBodies[0].rows]);
  return {
    rows: rows.length,
    images: rows.filter((r) => r.querySelector("a.qr img[alt]")).length,
    outside: tables.filter((t) => t.getBoundingClientRect().right
      > t.closest(".panel").getBoundingClientRect().right + 0.5)
      .map((t) => t.caption.textContent),
  };
}"""
# The Links tab's widths on the screen: the page's, and each table's and each Renew
# button's right edge against its panel's and the screen's.
LINKS_WIDTH = """() => ({
  page: document.documentElement.scrollWidth,
  tables: [...document.querySelectorAll("table.links")].map((t) => ({
    caption: t.caption.textContent,
    right: t.getBoundingClientRect().right,
    panel: t.closest(".panel").getBoundingClientRect().right,
  })),
  buttons: [...document.querySelectorAll("table.links button")]
    .map((b) => b.getBoundingClientRect().right),
  playing: [...document.querySelectorAll("table.links .plays-now a")]
    .map((a) => a.textContent.trim()),
})"""
FOCUSED = (
    "() => document.activeElement"
    " ? [document.activeElement.id, document.activeElement.value] : null"
)
SAVED = {"en": "Deal {n} saved", "ml": "കളി {n} സേവ് ചെയ്തു"}
NOT_SAVED = {"en": "Not saved", "ml": "സേവ് ചെയ്തില്ല"}


def _signed_in(browser, live_server, organizer, language, viewport):
    context = browser.new_context(viewport=viewport)
    context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    page = context.new_page()
    organizer.set_password("phone-56")
    organizer.save(update_fields=["password"])
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", organizer.username)
    page.fill("#id_password", "phone-56")
    page.click("main form button")
    page.wait_for_url(f"{live_server.url}/")
    return context, page


def _every_tab_shows(page, width: int) -> None:
    found = page.evaluate(TABS)
    assert len(found["tabs"]) == ORGANIZER_TABS
    assert not found["scrolls"], "the tab row scrolls: a tab is hidden at its edge"
    for tab in found["tabs"]:
        assert tab["left"] >= 0 and tab["right"] <= width, tab
        assert not tab["cut"], tab


def _desk_fits(page, width: int, phone: bool) -> None:
    found = page.evaluate(DESK_TABLE)
    assert found["wider"] <= 0, f"the desk's table is {found['wider']} px too wide"
    assert found["rows"]
    for row in found["rows"]:
        assert row["right"] <= found["regionRight"] + 0.5, row
        # Each table's deals and last entry are on the screen once: under its state
        # on a phone, in their own columns on a desk.
        assert (row["phone"], row["columns"]) == ((True, 0) if phone else (False, 2))
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("language", ["en", "ml"])
def test_a_phone_shows_every_tab_the_desk_and_a_whole_score_box(
    browser,
    live_server,
    championship,  # noqa: F811
    language,
):
    organizer, _, pages, _, sheet = championship
    context, page = _signed_in(browser, live_server, organizer, language, PHONE)
    width = PHONE["width"]
    page.goto(live_server.url + pages["desk"])
    _every_tab_shows(page, width)
    _desk_fits(page, width, phone=True)
    page.goto(live_server.url + pages["tournament"])
    _every_tab_shows(page, width)
    # The Links tab: each link's QR code shown under it, every row inside its panel.
    page.goto(live_server.url + pages["links"])
    links = page.evaluate(LINKS)
    assert links["images"] == links["rows"] > 0
    assert links["outside"] == [], links["outside"]

    # The score box of a sheet 18 deals in, teams of the longest names.
    match = Match.objects.select_related("team_a", "team_b").get(pk=sheet)
    page.goto(live_server.url + pages["score"])
    names = page.evaluate(NAMES)
    assert [n["text"] for n in names] == [match.team_a.name, match.team_b.name]
    for name in names:
        assert name["inside"] and not name["cut"], name
    context.close()

    # The same pages on a desk: every tab on the width, the desk's five columns.
    context, page = _signed_in(browser, live_server, organizer, language, DESK)
    page.goto(live_server.url + pages["desk"])
    _every_tab_shows(page, DESK["width"])
    _desk_fits(page, DESK["width"], phone=False)
    context.close()


@pytest.mark.parametrize("language", ["en", "ml"])
def test_after_a_save_the_keyboard_is_at_the_next_deal_and_hears_the_answer(
    browser,
    live_server,
    championship,  # noqa: F811
    language,
):
    organizer, *_ = championship
    waiting = Match.objects.filter(
        tournament__slug="axe-cup", status="scheduled"
    ).first()
    context, page = _signed_in(browser, live_server, organizer, language, PHONE)
    page.goto(f"{live_server.url}/matches/{waiting.pk}/score/")
    page.locator("#deal-form").wait_for()

    # The auction is a closed box with an arrow that opens, not a label above a gap.
    auction = page.evaluate(AUCTION)
    assert not auction["open"]
    assert "▸" in auction["marker"] or auction["listItem"], auction
    assert auction["border"] >= 1 and auction["height"] >= 44 * 0.99, auction
    assert not page.locator("#id_auction").is_visible()
    page.focus("details.auction summary")
    page.keyboard.press("Enter")
    assert page.locator("#id_auction").is_visible()
    page.keyboard.press("Enter")  # closed again from the keyboard
    assert not page.locator("#id_auction").is_visible()

    # Deal 1, saved by tapping the button.
    page.fill("#id_value", "40")
    page.click("#deal-form label.chip:has(input[name=declarer][value=A])")
    page.click("#deal-form label.chip:has(input[name=trump][value=hearts])")
    page.fill("#id_taken", "44")
    page.click("#deal-form button.save")
    page.locator("#deal-1").wait_for()
    page.wait_for_function("() => document.activeElement.id === 'id_number'")
    assert page.evaluate(FOCUSED) == ["id_number", "2"]
    said = page.locator("#save-said")
    assert said.get_attribute("role") == "status"
    page.wait_for_function(
        "(words) => document.getElementById('save-said').textContent.includes(words)",
        arg=SAVED[language].format(n=1),
    )

    # Deal 2, from the keyboard: Tab on from the deal's number, Enter in "took".
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED)[0] == "id_value"
    page.keyboard.type("32")
    page.fill("#id_taken", "20")
    page.click("#deal-form label.chip:has(input[name=declarer][value=B])")
    page.click("#deal-form label.chip:has(input[name=trump][value=spades])")
    page.focus("#id_taken")
    page.keyboard.press("Enter")
    page.locator("#deal-2").wait_for()
    page.wait_for_function("() => document.activeElement.id === 'id_number'")
    assert page.evaluate(FOCUSED) == ["id_number", "3"]
    page.wait_for_function(
        "(words) => document.getElementById('save-said').textContent.includes(words)",
        arg=SAVED[language].format(n=2),
    )

    # A deal the server refuses: the keyboard is at the field to correct.
    page.fill("#id_value", "99")
    page.click("#deal-form label.chip:has(input[name=declarer][value=A])")
    page.click("#deal-form label.chip:has(input[name=trump][value=clubs])")
    page.fill("#id_taken", "30")
    page.click("#deal-form button.save")
    page.wait_for_function(
        "(words) => document.getElementById('save-said').textContent.includes(words)",
        arg=NOT_SAVED[language],
    )
    assert page.evaluate(FOCUSED)[0] == "id_value"
    assert Deal.objects.filter(match=waiting).count() == 2
    context.close()


@pytest.mark.parametrize("language", ["en", "ml"])
def test_the_links_tab_fits_a_phone_while_every_table_plays(
    browser, live_server, language
):
    """Issue 41's walk: with a round playing, the Links tab's "Plays now" names each
    table's match, and the Tables table ran to 445 px on a 390 px phone, its Renew
    buttons cut at the edge. Every table and button is inside the screen, and the
    desk's too."""
    tournament = TournamentFactory(slug="links-cup", league_rounds=3)
    organizer = member(tournament, Role.ORGANIZER, username="links-organizer")
    drawn_league(tournament, organizer, sections=2, per_section=6)
    for team, name in zip(tournament.teams.order_by("pk"), LONG_NAMES, strict=True):
        Team.objects.filter(pk=team.pk).update(name=name)
    for size in (PHONE, DESK):
        context, page = _signed_in(browser, live_server, organizer, language, size)
        page.goto(f"{live_server.url}/t/links-cup/links/")
        found = page.evaluate(LINKS_WIDTH)
        assert len(found["playing"]) == 6, found["playing"]  # every table plays
        assert found["page"] <= size["width"], found["page"]
        for table in found["tables"]:
            assert table["right"] <= table["panel"] + 0.5, table
        assert len(found["buttons"]) == 6 + 12
        assert max(found["buttons"]) <= size["width"], found["buttons"]
        context.close()
