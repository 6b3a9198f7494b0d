"""Every kind of page, in English and in Malayalam, checked by axe-core in Debian's
chromium on a phone's screen: no serious or critical violation (missing labels, wrong
`lang`, contrast, names of buttons and links, ARIA misuse...), no page wider than the
phone (a wide table scrolls in its own region, named and reached by the keyboard, and
keeps its first column in view), and no English "AM" or "PM" on a Malayalam page. The
pages are full ones, as on a tournament's day: teams with long names, a sheet of 18
deals with its penalties and checkpoints, bidders and auctions, standings of 12 teams.
axe-core comes from npm into tests/axe/ (`make browser`) and is put into the page by
the test only; the site never serves it. Each Malayalam page is kept as a screenshot
in artifacts/screens/ (not committed), to look at."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote

import pytest

from brackets.models import Game
from brackets.services import knockout_seed
from scoring.sheets import services as sheets_services
from tests.brackets.knockout import final_league
from tests.browser import PHONE, shoot
from tests.scoring.league import link_key
from tournament.backups.services import backup_take
from tournament.domain.types import Role
from tournament.links.services import links_ensure
from tournament.models import Player, Team
from tournament.people.services import invitation_create
from tournament.site.services import site_invitation_create, site_role_grant

pytestmark = pytest.mark.django_db(transaction=True)

AXE = (
    Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
)
# What a page must not have: axe's two worst impacts.
BLOCKING = {"serious", "critical"}
RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")),
  }));
}"""


# Names as long as the clubs' own: a page must wrap them, not cut them or widen.
LONG_NAMES = [
    "Houston Kerala Association Blue",
    "Stamford Malayalee Card Club",
    "New Jersey Fifty-Six Friends Red",
    "Chicago Kerala Cultural Society Gold",
    "Detroit Malayalee Association Green",
    "Dallas Kerala Card Players Union",
    "Philadelphia Malayalee Fifty-Six",
    "Long Island Kerala Samajam White",
    "Atlanta Malayalee Card Circle",
    "Tampa Bay Kerala Association",
    "Sacramento Malayalee Sangam",
    "Washington Kerala Cultural Club",
]
CAPTAIN = "Sreekumar Padmanabhan Nair"
# The 18 deals of a semi-final half played: (declarer, value, trump, level, taken,
# auction or ""); every sixth deal is a checkpoint (000 §5.3).
DEALS = [
    ("A", 28, "hearts", "none", 30, "A: 28H P P P P P"),
    ("B", 40, "spades", "none", 44, ""),
    ("A", 56, "no_trump", "doubled", 20, "A: 28S 30H 32D 34S 36H 38C 56N X P P P P P"),
    ("B", 32, "clubs", "none", 18, ""),
    ("A", 48, "diamonds", "redoubled", 50, ""),
    ("B", 29, "hearts", "none", 29, "A: 28S 29H P P P P P"),
    ("A", 44, "spades", "none", 40, ""),
    ("B", 36, "no_trump", "doubled", 36, ""),
    ("A", 31, "clubs", "none", 31, "A: 31C P P P P P"),
    ("B", 56, "hearts", "none", 56, ""),
    ("A", 40, "diamonds", "none", 41, ""),
    ("B", 33, "spades", "none", 20, ""),
    ("A", 28, "no_trump", "none", 28, "A: P P P P P P"),
    ("B", 48, "clubs", "doubled", 30, ""),
    ("A", 52, "hearts", "none", 54, ""),
    ("B", 30, "diamonds", "none", 31, ""),
    ("A", 45, "spades", "redoubled", 47, ""),
    ("B", 38, "hearts", "none", 25, ""),
]


def _long_names(tournament) -> None:
    for team, name in zip(tournament.teams.order_by("pk"), LONG_NAMES, strict=True):
        Team.objects.filter(pk=team.pk).update(name=name)
        Player.objects.filter(team=team, position=2).update(name=f"{name} second")


def _eighteen_deals(sheet, organizer) -> None:
    """18 deals on `sheet`, with bidders and auctions, and penalties: a kallakali and
    a card played out of turn, each with a note, and one for conduct."""
    Team.objects.filter(pk=sheet.team_a_id).update(captain_name=CAPTAIN)
    Player.objects.filter(team=sheet.team_a_id, position=1).update(name=CAPTAIN)
    version = None
    for n, (declarer, value, trump, level, taken, auction) in enumerate(DEALS, 1):
        _, match = sheets_services.score_sheet_deal_record(
            match_id=sheet.pk,
            user=organizer,
            version=version,
            number=n,
            declarer=declarer,
            value=value,
            trump=trump,
            level=level,
            taken=taken,
            bidder=CAPTAIN if declarer == "A" else "",
            auction=auction,
        )
        version = match.version
    for deal, offender, kind, points, note in (
        (4, "B", "kallakali", None, "a card withheld in the third trick"),
        (9, "A", "out_of_turn", None, "led before the bidding was over"),
        (15, "B", "conduct", 2, ""),
    ):
        _, match = sheets_services.score_sheet_penalty_record(
            match_id=sheet.pk,
            user=organizer,
            version=version,
            deal=deal,
            offender=offender,
            kind=kind,
            points=points,
            note=note,
            by_organizer=True,
        )
        version = match.version


@pytest.fixture
def championship():
    """A tournament on its knockout day: a final league of 12 teams with long names in
    2 sections, the knockout of 4 seeded and a semi-final 18 deals in, a backup, an
    invitation; and what each page needs."""
    tournament, organizer = final_league(2, 6, qualifiers=4, slug="axe-cup")
    _long_names(tournament)
    knockout_seed(tournament=tournament, user=organizer)
    backup = backup_take(tournament=tournament, user=organizer, reason="before the day")
    invitation = invitation_create(
        tournament=tournament, user=organizer, role=Role.SCORER, name="Anil"
    )
    site_invitation = site_invitation_create(
        user=organizer, role="administrator", name="Bindu", email="b@example.org"
    )
    league_match = tournament.matches.filter(stage="league").order_by("pk").first()
    sheet = (
        Game.objects.filter(knockout_match__bracket__tournament=tournament)
        .order_by("pk")
        .first()
        .sheet
    )
    _eighteen_deals(sheet, organizer)
    team = Team.objects.get(pk=sheet.team_a_id)
    links_ensure(tournament=tournament, tables=4)
    slug = tournament.slug
    pages = {
        "home": "/",
        "tournament": f"/t/{slug}/",
        "teams": f"/t/{slug}/teams/",
        "team": f"/t/{slug}/teams/{team.pk}/",
        "player": f"/t/{slug}/teams/{team.pk}/players/{quote(team.captain_name)}/",
        "standings": f"/t/{slug}/standings/",
        "matches": f"/t/{slug}/matches/",
        "match": f"/matches/{league_match.pk}/",
        "sheet": f"/matches/{sheet.pk}/",
        "score": f"/matches/{sheet.pk}/score/",
        "match-print": f"/matches/{sheet.pk}/print/",
        "round-print": f"/t/{slug}/print/?round=1",
        "knockout": f"/t/{slug}/bracket/",
        "statistics": f"/t/{slug}/statistics/",
        "where": f"/t/{slug}/where/?q={quote(team.name)}",
        "desk": f"/t/{slug}/desk/",
        "screen": f"/t/{slug}/screen/",
        "draw": f"/t/{slug}/draw/",
        "excel": f"/t/{slug}/excel/",
        "links": f"/t/{slug}/links/",
        "table-cards": f"/t/{slug}/links/cards/?kind=table",
        "team-cards": f"/t/{slug}/links/cards/?kind=team",
        "people": f"/t/{slug}/people/",
        "registration": f"/t/{slug}/registration/",
        "settings": f"/t/{slug}/settings/",
        "new-tournament": "/tournaments/new/",
        "backups": f"/t/{slug}/backups/",
        "restore": f"/t/{slug}/backups/{backup.pk}/restore/",
        "import": "/import/",
        "site": "/site/",
        "password-change": "/accounts/password/",
        "not-found": f"/t/{slug}/nothing-here/",
    }
    visitor = {
        "login": "/accounts/login/",
        "password-reset": "/accounts/password/reset/",
        "invitation": f"/invitations/{invitation.key}/",
        "site-invitation": f"/site/invitations/{site_invitation.key}/",
        "table-link": f"/l/{link_key(tournament, table=sheet.table)}/",
        "team-link": f"/l/{link_key(tournament, team=team)}/",
    }
    return organizer, pages, visitor, sheet.pk


# A table wider than its region scrolls in it; the region can be reached by the
# keyboard and is named, and the table keeps its first column in view.
SCROLLING = """() => [...document.querySelectorAll(".scroll, .table-wrap")]
  .filter((region) => region.scrollWidth > region.clientWidth)
  .flatMap((region) => {
    const name = region.getAttribute("aria-label")
      || region.getAttribute("aria-labelledby");
    const rows = [...region.querySelectorAll(":scope > table > * > tr")];
    const loose = rows.filter((row) => row.firstElementChild
      && getComputedStyle(row.firstElementChild).position !== "sticky");
    const problems = [];
    if (region.tabIndex < 0 || !name) {
      problems.push(`no tabindex or name: ${region.outerHTML.slice(0, 80)}`);
    }
    if (rows.length === 0 || loose.length) {
      problems.push(`its first column is not kept: ${name}`);
    }
    return problems;
  })"""
# The score page's status line says when this phone last saved: 15:04:05 here.
SAVED = (
    "localStorage.setItem('fiftysix-saved-{match}',"
    " String(new Date(2026, 0, 10, 15, 4, 5).getTime()));"
)


def _problem(code: str, help: str) -> dict:
    return {"id": code, "impact": "serious", "help": help, "nodes": []}


def _check(page, url: str, status: int = 200, language: str = "en") -> list[dict]:
    answer = page.goto(url)
    assert answer is not None and answer.status == status, (
        f"{url}: {answer and answer.status}"
    )
    page.add_script_tag(path=str(AXE))
    found = [v for v in page.evaluate(RUN_AXE) if v["impact"] in BLOCKING]
    # A page fits the phone's width: what is wider scrolls inside its own region.
    width = page.evaluate("() => document.documentElement.scrollWidth")
    if width > PHONE["width"]:
        found.append(
            _problem(
                "wider-than-the-phone",
                f"the page is {width} px wide on a {PHONE['width']} px screen",
            )
        )
    found += [_problem("table-scrolls", what) for what in page.evaluate(SCROLLING)]
    if language != "en":
        # The status line is written by static/js/offline.js once it has looked at
        # the phone's queue.
        page.wait_for_function(
            "() => !document.querySelector('#net-status .saved')"
            " || /[0-9]/.test(document.querySelector('#net-status .saved').textContent)"
        )
        # A clock time with English AM/PM ("3:04 PM"); not any "PM" (a link's key
        # may hold one).
        english = re.findall(
            r"\d{1,2}[:.]\d{2}(?:[:.]\d{2})?\s?(?:AM|PM|a\.m\.|p\.m\.)",
            page.inner_text("body"),
        )
        if english:
            found.append(_problem("english-time", f"a time with {english[0]}"))
    return found


def _context(browser, language: str, match: int):
    # bypass_csp: the site's content-security policy forbids an injected script, as
    # it should; only the test's own axe-core is let in this way.
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    context.add_cookies(
        [{"name": "django_language", "value": language, "url": "http://localhost"}]
    )
    context.add_init_script(SAVED.format(match=match))
    return context


@pytest.mark.parametrize("language", ["en", "ml"])
def test_no_page_has_a_serious_accessibility_violation(
    browser, live_server, championship, language
):
    assert AXE.exists(), "axe-core is missing: run `make browser`"
    organizer, pages, visitor, match = championship
    found: dict[str, list[dict]] = {}
    seen_lang: dict[str, str] = {}

    anonymous = _context(browser, language, match)
    page = anonymous.new_page()
    for kind, path in visitor.items():
        found[kind] = _check(page, live_server.url + path, language=language)
        seen_lang[kind] = page.locator("html").get_attribute("lang")
        if language == "ml":
            shoot(page, f"ml-{kind}")
    anonymous.close()

    signed_in = _context(browser, language, match)
    page = signed_in.new_page()
    organizer.set_password("axe-56")
    organizer.save(update_fields=["password"])
    # So that the new tournament's, the import's and the site's pages show their forms.
    site_role_grant(user=organizer, role="administrator")
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", organizer.username)
    page.fill("#id_password", "axe-56")
    page.click("main form button")
    page.wait_for_url(f"{live_server.url}/")
    for kind, path in pages.items():
        status = 404 if kind == "not-found" else 200
        found[kind] = _check(page, live_server.url + path, status, language)
        seen_lang[kind] = page.locator("html").get_attribute("lang")
        if language == "ml":
            shoot(page, f"ml-{kind}")
    signed_in.close()

    assert seen_lang == {kind: language for kind in seen_lang}
    report = [
        f"{kind}: {v['id']} ({v['impact']}): {v['help']} at {', '.join(v['nodes'])}"
        for kind, violations in found.items()
        for v in violations
    ]
    assert not report, "\n".join(report)
