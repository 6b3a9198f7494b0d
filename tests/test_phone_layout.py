"""The organizer's and the scorer's pages on a phone (390x844) and a desk (1366x900),
in English and in Malayalam, in Debian's chromium (issue 41, 9): every tab of the
tournament shows (they wrap, none hides behind the edge); the desk's tables fit the
phone, every column's words in view; a team's whole name in the score box; the
auction is a control that says it opens; and after "Save deal" the keyboard is at the
next deal's first field and a screen reader hears the answer. On a small phone (360 px)
and a phone (390 px), in both languages (issue 50): every control of the score page,
the table link's and the team link's is a thumb's target of 44x44 CSS px, and nothing
of the score sheet or the standings is hidden (under a column kept in view, or past the
screen's edge)."""

from __future__ import annotations

import pytest

from scoring.models import Deal, Match
from tests.browser import PHONE, SMALL_PHONE, shoot
from tests.factories import TournamentFactory, member
from tests.scoring.league import drawn_league, link_key, play_quickly, tables_in_play
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
# A thumb's target (WCAG 2.5.5): 44x44 CSS px. Every control the page shows (every
# <details> opened first, so that what folds is measured too), each by the box a tap
# lands in: a radio or a box inside its label is tapped through the label. No control
# of these pages is exempt: the inline exception of WCAG 2.5.8 (a link inside a
# sentence, sized by its line) has no case here, since every link on them stands
# alone (the way back, a sheet of the team's, a deal's Edit).
THUMB = 44
CONTROLS = """(least) => {
  for (const details of document.querySelectorAll("details")) details.open = true;
  const shown = (el) => el.getClientRects().length > 0
    && getComputedStyle(el).visibility !== "hidden";
  const small = [];
  const seen = new Set();
  const controls = "a[href], button, input:not([type=hidden]), select, textarea, "
    + "summary, label.chip";
  for (const el of document.querySelectorAll(controls)) {
    const target = (el.matches("input") && el.closest("label")) || el;
    if (seen.has(target) || !shown(target)) continue;
    seen.add(target);
    const box = target.getBoundingClientRect();
    if (box.width < least || box.height < least) {
      const words = (target.getAttribute("aria-label") || target.textContent
        || target.name || "").replace(/\\s+/g, " ").trim().slice(0, 40);
      small.push(`${target.tagName.toLowerCase()}.${[...target.classList].join(".")}`
        + ` "${words}" ${box.width.toFixed(1)}x${box.height.toFixed(1)}`);
    }
  }
  return small;
}"""
# What must be seen whole: each cell's words (their own box, not the cell's) inside
# its scrolling region and the screen, and on top at both ends (no column kept in
# view lies over them). Each cell is scrolled into the screen's height first.
HIDDEN = """(cells) => {
  const hidden = [];
  for (const cell of document.querySelectorAll(cells)) {
    if (!cell.textContent.trim()) continue;
    cell.scrollIntoView({block: "center", inline: "nearest"});
    const words = document.createRange();
    words.selectNodeContents(cell);
    const box = words.getBoundingClientRect();
    const region = cell.closest(".scroll").getBoundingClientRect();
    const y = box.top + box.height / 2;
    const top = (x) => {
      const hit = document.elementFromPoint(x, y);
      return hit !== null && (hit === cell || cell.contains(hit));
    };
    const inside = box.left >= region.left - 0.5 && box.right <= region.right + 0.5
      && box.right <= document.documentElement.clientWidth;
    if (!inside || !top(box.left + 1) || !top(box.right - 1)) {
      hidden.push(`${cell.textContent.trim()} at ${box.left.toFixed(1)}-`
        + `${box.right.toFixed(1)} (region ${region.left}-${region.right})`);
    }
  }
  return hidden;
}"""
# A table's region holds it whole at this width: nothing to scroll to.
REGION_WIDTH = """(table) => {
  const region = document.querySelector(table).closest(".scroll");
  return region.scrollWidth - region.clientWidth;
}"""
FOCUSED = (
    "() => document.activeElement"
    " ? [document.activeElement.id, document.activeElement.value] : null"
)
SAVED = {"en": "Deal {n} saved", "ml": "കളി {n} സേവ് ചെയ്തു"}
CONFIRM = {"en": "Confirm", "ml": "ഉറപ്പിക്കുക"}
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


def _small_controls(page, where: str) -> list[str]:
    return [f"{where}: {control}" for control in page.evaluate(CONTROLS, THUMB)]


def _phone(browser, live_server, language, size):
    context = browser.new_context(viewport=size)
    context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    return context, context.new_page()


@pytest.mark.parametrize("language", ["en", "ml"])
def test_every_control_of_the_score_and_link_pages_is_a_thumbs_target(
    browser,
    live_server,
    championship,  # noqa: F811
    language,
):
    """Issue 50: a penalty's Delete was 47x21 px (and white on white), each deal's
    Edit 28x31, "Add a penalty" 34 px tall, a team link's Confirm 37. Measured on the
    scorer's score page (as it opens, and with a deal open to edit), a table link's
    page and two team links' (one with a sheet to confirm), at 360 and 390 px."""
    _, scorer, pages, visitor, _ = championship
    # A team with a finished sheet it has not confirmed: its link offers Confirm.
    tournament, organizer, teams, matches = tables_in_play(
        "thumb-cup", tables=1, deals=2
    )
    play_quickly(matches[0].pk, organizer, 3, 1, deals=2)
    confirming = f"/l/{link_key(tournament, team=teams[0])}/"
    small: list[str] = []
    for size in (SMALL_PHONE, PHONE):
        width = size["width"]
        context, page = _signed_in(browser, live_server, scorer, language, size)
        for path in (pages["score"], f"{pages['score']}?edit=3"):
            page.goto(live_server.url + path)
            small += _small_controls(page, f"{path} at {width}")
            if path == pages["score"]:
                shoot(page, f"thumbs-score-{language}-{width}")
        # The penalty's Delete reads as a link: not white on the white sheet.
        delete = page.locator("table.sheet tr.penalty button").first
        assert delete.evaluate("b => getComputedStyle(b).color") != "rgb(255, 255, 255)"
        context.close()
        context, page = _phone(browser, live_server, language, size)
        for kind, path in (
            ("table-link", visitor["table-link"]),
            ("team-link", visitor["team-link"]),
            ("team-link-confirm", confirming),
        ):
            page.goto(live_server.url + path)
            small += _small_controls(page, f"{kind} at {width}")
            shoot(page, f"thumbs-{kind}-{language}-{width}")
        assert page.locator("button", has_text=CONFIRM[language]).count() == 1
        context.close()
    assert not small, "controls smaller than 44x44 px:\n" + "\n".join(small)


@pytest.mark.parametrize("language", ["en", "ml"])
def test_nothing_of_the_sheet_or_the_standings_is_hidden_on_a_small_phone(
    browser,
    live_server,
    championship,  # noqa: F811
    language,
):
    """Issue 50: at 360 px the sheet's running total lay under its Edit column, kept
    in view ("8–19" read "8–1"), and the Malayalam standings had R2–R4 past the
    screen's edge at 390 px. Each table fits its region whole (nothing to scroll
    to), and every deal's number, contract and total, and every team's rank, name and
    R1–R4, is on top and inside the screen."""
    organizer, _, pages, _, _ = championship
    hidden: list[str] = []
    for size in (SMALL_PHONE, PHONE):
        width = size["width"]
        context, page = _signed_in(browser, live_server, organizer, language, size)
        for path, table, cells in (
            (
                pages["score"],
                "table.sheet",
                "table.sheet tbody tr.deal > td:not(.change),"
                " table.sheet tfoot th, table.sheet thead th:not(:last-child)",
            ),
            (
                pages["standings"],
                "table.standings-table",
                "table.standings-table tr > :not(.wide)",
            ),
        ):
            page.goto(live_server.url + path)
            wider = page.evaluate(REGION_WIDTH, table)
            assert wider <= 0, f"{path} at {width}: {table} is {wider} px too wide"
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
            hidden += [f"{path} at {width}: {c}" for c in page.evaluate(HIDDEN, cells)]
            shoot(page, f"fits-{path.strip('/').replace('/', '-')}-{language}-{width}")
        context.close()
    assert not hidden, "hidden:\n" + "\n".join(hidden)
