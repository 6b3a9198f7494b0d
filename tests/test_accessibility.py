"""Every kind of page checked by axe-core in Debian's chromium: no serious or critical
violation (missing labels, wrong `lang`, contrast, names of buttons and links, ARIA
misuse...), no page wider than its screen (a wide table scrolls in its own region,
named and reached by the keyboard, and keeps its first column in view), no `.md` file
named. In English, the pages a visitor and an organizer open, on a phone. In
Malayalam, a crawl as each person (anonymous, organizer and site administrator,
scorer, table link, team link) following every link from where they start, one page
of each kind, on a phone (390x844) and a desk (1366x900); in both, each page's width
and tables on a small phone (360 px wide) too (issue 50); besides, no English AM/PM
and no English of the catalogue outside lang="en". The pages are full ones, as on a
tournament's day: teams with long names, a sheet of 18 deals with its penalties and
checkpoints, bidders and auctions, a deal entered at the table link and a dispute
raised at the team link, standings of 12 teams. axe-core comes from npm into
tests/axe/ (`make browser`) and is put into the page by the test only; the site never
serves it. The organizer's and the links' Malayalam pages are kept as screenshots in
artifacts/screens/ (not committed), to look at."""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple
from urllib.parse import parse_qsl, quote, urlsplit

import pytest

from brackets.models import Game
from brackets.services import knockout_seed
from scoring.domain.rules import Side
from scoring.links.services import links_ensure
from scoring.sheets import day as sheets_day
from scoring.sheets import services as sheets_services
from tests.brackets.knockout import final_league
from tests.browser import PHONE, SMALL_PHONE, shoot
from tests.factories import member
from tests.scoring.league import link_key
from tournament.accounts.services import (
    invitation_create,
    site_invitation_create,
    site_role_grant,
)
from tournament.backups.services import backup_take
from tournament.domain.types import Role
from tournament.models import Link, LinkKind, Player, Team
from tournament.web.links import LinkHolder

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


# The desk's screen of issue 41's walk (tests/browser.py's DESK is narrower).
DESK = {"width": 1366, "height": 900}


class Crawl(NamedTuple):
    organizer: object
    scorer: object
    pages: dict[str, str]  # the organizer's pages, by kind
    visitor: dict[str, str]  # the pages of a visitor with no login
    match: int  # the knockout sheet 18 deals in


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
# auction or ""); the totals are announced after every sixth deal and each of the
# last six (000 §5.3).
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


def _eighteen_deals(sheet, organizer, table_link) -> None:
    """18 deals on `sheet`, with bidders and auctions, the last entered at the table
    link; and penalties: a kallakali and a card played out of turn, each with a note,
    and one for conduct."""
    Team.objects.filter(pk=sheet.team_a_id).update(captain_name=CAPTAIN)
    Player.objects.filter(team=sheet.team_a_id, position=1).update(name=CAPTAIN)
    version = None
    for n, (declarer, value, trump, level, taken, auction) in enumerate(DEALS, 1):
        _, match = sheets_services.score_sheet_deal_record(
            match_id=sheet.pk,
            user=organizer if n < len(DEALS) else LinkHolder(table_link),
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
    links_ensure(tournament=tournament, tables=4)
    _eighteen_deals(
        sheet, organizer, Link.objects.get(kind=LinkKind.TABLE, table=sheet.table)
    )
    team = Team.objects.get(pk=sheet.team_a_id)
    # A dispute raised at the team's link: the history and the desk name who raised it.
    sheets_day.score_sheet_dispute_raise(
        match_id=sheet.pk,
        user=LinkHolder(Link.objects.get(kind=LinkKind.TEAM, team=team)),
        text="deal 5 was redoubled, not doubled",
        deal=5,
        roles=frozenset(),
        sides=frozenset({Side.A}),
    )
    scorer = member(tournament, Role.SCORER, username="axe-scorer")
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
    return Crawl(organizer, scorer, pages, visitor, sheet.pk)


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
    found = _looked_at(page, language, PHONE)
    return found + _fits(page, SMALL_PHONE, back=PHONE)


def _width_problems(page, size: dict) -> list[dict]:
    """A page wider than the screen of `size`, and each table region that does not
    scroll as it should."""
    found = []
    width = page.evaluate("() => document.documentElement.scrollWidth")
    if width > size["width"]:
        found.append(
            _problem(
                "wider-than-the-screen",
                f"the page is {width} px wide on a {size['width']} px screen",
            )
        )
    return found + [_problem("table-scrolls", w) for w in page.evaluate(SCROLLING)]


def _fits(page, size: dict, back: dict) -> list[dict]:
    """The page on a smaller screen (`size`), then back on `back`: no wider than the
    screen, and its wide tables scroll as they should (axe has looked already)."""
    page.set_viewport_size(size)
    found = _width_problems(page, size)
    page.set_viewport_size(back)
    return found


def _looked_at(page, language: str, size: dict, words=None) -> list[dict]:
    """What is wrong with the page on the screen of `size`: axe's serious and
    critical violations, a page wider than the screen or a table region that does not
    scroll as it should; a `.md` file named; on a Malayalam page, a time with English
    AM/PM and (given `words`, the catalogue's) English left outside `lang="en"`."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = [v for v in page.evaluate(RUN_AXE) if v["impact"] in BLOCKING]
    # A page fits the screen's width: what is wider scrolls inside its own region.
    found += _width_problems(page, size)
    text = page.evaluate(TEXT)
    everything = "\n".join(text["all"])
    # A developer's file is no reference for a person at a table.
    found += [
        _problem("md-file", f"names the file {name}")
        for name in sorted(set(MD_FILE.findall(everything)))
    ]
    if language != "en":
        # The status line is written by static/js/score/ once it has looked at
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
        if words is not None:
            found += [
                _problem("english", f"“{said}” (msgid “{msgid}”)")
                for msgid, said in words.english_in("\n".join(text["marked"]))
            ]
    return found


# The text a person reads or hears: each block's text (a paragraph, a cell, a
# button...: an element's words with its inline children's), the title, and the
# attributes read out; `marked` leaves out what is inside lang="en" (the language
# switcher's "English", a word quoted in English), `all` keeps it. Scripts, styles
# and code are not read.
TEXT = """() => {
  const BLOCK = "p,li,td,th,h1,h2,h3,h4,h5,h6,dt,dd,legend,caption,option,summary,"
    + "figcaption,label,button,div,section,article,aside,main,form,fieldset,nav,"
    + "header,footer,ul,ol,dl,table,thead,tbody,tr,details,dialog,body,blockquote,pre";
  const QUIET = "script,style,code,kbd,noscript,template,svg";
  const all = [document.title], marked = [document.title];
  const blocks = new Map();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest(QUIET) || !node.textContent.trim()) continue;
    const block = parent.closest(BLOCK) || document.body;
    if (!blocks.has(block)) blocks.set(block, {all: [], marked: []});
    blocks.get(block).all.push(node.textContent);
    if (!parent.closest('[lang="en"]')) blocks.get(block).marked.push(node.textContent);
  }
  for (const {all: a, marked: m} of blocks.values()) {
    all.push(a.join("").replace(/\\s+/g, " ").trim());
    marked.push(m.join("").replace(/\\s+/g, " ").trim());
  }
  const READ = "[title],[aria-label],[placeholder],[alt],"
    + "input[type=submit],input[type=button]";
  for (const el of document.body.querySelectorAll(READ)) {
    const said = ["title", "aria-label", "placeholder", "alt", "value"]
      .filter((a) => a !== "value" || el.matches("input"))
      .map((a) => el.getAttribute(a)).filter(Boolean);
    all.push(...said);
    if (!el.closest('[lang="en"]')) marked.push(...said);
  }
  return {all, marked};
}"""
MD_FILE = re.compile(r"[\w./-]*\w\.md\b")
CATALOGUE = Path(__file__).resolve().parents[1] / "locale" / "ml" / "LC_MESSAGES"
CATALOGUE = CATALOGUE / "django.po"
_PLACEHOLDER = re.compile(r"%\(\w+\)[sdr]|%[sd]|\{\w+\}")
_TAGS = re.compile(r"<[^>]+>")


class Catalogue:
    """The English of the Malayalam catalogue, to find on a Malayalam page: each
    msgid (and plural) with its placeholders standing for any words, where it is
    not its own translation (a number, "NT") and has words enough to mean
    something (a word of 3 letters; 4 letters besides its placeholders). A msgid of
    one word must be a block's whole text ("Stage", "Note": a label, a cell, a
    button); a longer one may be anywhere. The data of the page (names of teams
    and players, notes) is taken out of the text first: it is English because the
    organizer typed it so."""

    def __init__(self, data: set[str]) -> None:
        import polib

        patterns: list[tuple[str, str, re.Pattern]] = []
        for entry in polib.pofile(str(CATALOGUE)):
            if entry.obsolete:
                continue
            said = [entry.msgstr, *entry.msgstr_plural.values()]
            for msgid in filter(None, (entry.msgid, entry.msgid_plural)):
                english = " ".join(_TAGS.sub("", msgid).split())
                if english in said or not re.search(r"[^\W\d_]{3}", english):
                    continue
                parts = _PLACEHOLDER.split(english)
                # "%(a)s and %(b)s" would find any "and": its own words are too few.
                if len(re.findall(r"[^\W\d_]", "".join(parts))) < 4:
                    continue
                body = r"[^\n]+?".join(re.escape(p) for p in parts)
                if len(english.split()) == 1:
                    pattern = rf"(?m)^{body}[:.]?$"
                else:
                    pattern = rf"(?<![\w-]){body}(?![\w-])"
                # Its longest piece of words, looked for first (quicker than the
                # pattern, which is tried only where that piece is).
                piece = max((p.strip() for p in parts), key=len)
                patterns.append((msgid, piece, re.compile(pattern)))
        self.patterns = patterns
        self.data = sorted(data, key=len, reverse=True)

    def english_in(self, text: str) -> list[tuple[str, str]]:
        for name in self.data:
            text = text.replace(name, "·")
        found = []
        for msgid, piece, pattern in self.patterns:
            hit = piece in text and pattern.search(text)
            if hit:
                found.append((msgid, hit.group(0)))
        return found


def _data() -> set[str]:
    """What people typed: English on a Malayalam page, rightly."""
    from scoring.models import Dispute, Penalty
    from tournament.models import (
        Backup,
        Invitation,
        Person,
        Seat,
        Section,
        Tournament,
    )

    names: set[str] = set()
    names |= set(Team.objects.values_list("name", flat=True))
    names |= set(Team.objects.values_list("captain_name", flat=True))
    names |= set(Player.objects.values_list("name", flat=True))
    names |= set(Person.objects.values_list("name", flat=True))
    names |= set(Person.objects.values_list("city", flat=True))
    names |= set(Seat.objects.values_list("name", flat=True))
    names |= set(Tournament.objects.values_list("name", flat=True))
    names |= set(Section.objects.values_list("name", flat=True))
    names |= set(Penalty.objects.values_list("note", flat=True))
    names |= set(Dispute.objects.values_list("text", flat=True))
    names |= set(Backup.objects.values_list("reason", flat=True))
    names |= set(Invitation.objects.values_list("name", flat=True))
    return {n for n in names if n and len(n) > 2}


def _context(browser, language: str, match: int, size: dict = PHONE):
    # bypass_csp: the site's content-security policy forbids an injected script, as
    # it should; only the test's own axe-core is let in this way.
    context = browser.new_context(viewport=size, bypass_csp=True)
    context.add_cookies(
        [{"name": "django_language", "value": language, "url": "http://localhost"}]
    )
    context.add_init_script(SAVED.format(match=match))
    return context


def _signed_in(browser, live_server, user, language: str, match: int):
    context = _context(browser, language, match)
    page = context.new_page()
    user.set_password("axe-56")
    user.save(update_fields=["password"])
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", "axe-56")
    page.click("main form button")
    page.wait_for_url(f"{live_server.url}/")
    return context, page


def _may_create(organizer) -> None:
    # So that the new tournament's, the import's and the site's pages show their forms.
    site_role_grant(user=organizer, role="administrator")


@pytest.mark.parametrize("language", ["en"])
def test_no_page_has_a_serious_accessibility_violation(
    browser, live_server, championship, language
):
    """The English pages, on a phone (the Malayalam ones are crawled below)."""
    assert AXE.exists(), "axe-core is missing: run `make browser`"
    organizer, _, pages, visitor, match = championship
    found: dict[str, list[dict]] = {}
    seen_lang: dict[str, str] = {}

    anonymous = _context(browser, language, match)
    page = anonymous.new_page()
    for kind, path in visitor.items():
        found[kind] = _check(page, live_server.url + path, language=language)
        seen_lang[kind] = page.locator("html").get_attribute("lang")
    anonymous.close()

    _may_create(organizer)
    signed_in, page = _signed_in(browser, live_server, organizer, language, match)
    for kind, path in pages.items():
        status = 404 if kind == "not-found" else 200
        found[kind] = _check(page, live_server.url + path, status, language)
        seen_lang[kind] = page.locator("html").get_attribute("lang")
    signed_in.close()

    assert seen_lang == {kind: language for kind in seen_lang}
    report = [
        f"{kind}: {v['id']} ({v['impact']}): {v['help']} at {', '.join(v['nodes'])}"
        for kind, violations in found.items()
        for v in violations
    ]
    assert not report, "\n".join(report)


# What the crawl does not open: downloads, the admin, the API (but its
# documentation page), logging out, the language switcher, files.
NOT_A_PAGE = re.compile(
    r"^/(admin|i18n|static|media|accounts/logout)/"
    r"|^/api/(?!v1/docs/$)"
    r"|\.(svg|png|json|js|xlsx|csv|zip|gz|pdf|txt)$"
    r"|/(manifest|download|qr)[./]|/export/"
)


def _kind(url: str) -> str:
    """A page's kind: its address with numbers, keys, names and the values asked
    for left out (a link card's kind kept), so the crawl opens one sheet, one team,
    one round's print, one sorting of the statistics... of each kind."""
    parts = urlsplit(url)
    path = re.sub(r"^/l/[^/]+/", "/l/KEY/", parts.path)
    path = re.sub(r"/players/[^/]+/", "/players/NAME/", path)
    path = re.sub(r"\d+", "N", path)
    query = sorted(
        f"{k}={v}" if k == "kind" else k
        for k, v in parse_qsl(parts.query, keep_blank_values=True)
        if k != "next"
    )
    return path + (f"?{'&'.join(query)}" if query else "")


# Where the crawl goes from a page: every link on it, on this site.
HREFS = """() => [...document.querySelectorAll("a[href]:not([download])")]
  .map((a) => a.href).filter((h) => h.startsWith(location.origin))"""


# What a page shows in its main part, to know a page already looked at as another
# role (the header, the same on every page of one role, is looked at on each role's
# first page).
MAIN = """() => (document.querySelector("main") || document.body).outerHTML
  .replace(/name="(csrfmiddlewaretoken|next)" value="[^"]*"/g, "")"""


def _crawl(
    page, *, live_server, seeds, role, language, words, seen, within="/", shots=""
):
    """Every kind of page `role` reaches from `seeds` by following links (under
    `within`), each looked at on the phone and on the desk. Each seed is opened
    (a league match and the knockout sheet are two), a page found by a link only if
    its kind is new."""
    found: dict[str, list[dict]] = {}
    queue = [live_server.url + s for s in seeds]
    tried: set[str] = set()
    must = set(seeds)
    done: set[str] = set()
    looked = 0  # pages looked at: the first shows the role's header
    while queue:
        url = queue.pop(0)
        path = url[len(live_server.url) :].split("#")[0]
        if (
            (_kind(path) in tried and path not in must)
            or NOT_A_PAGE.search(urlsplit(path).path)
            or not path.startswith(within)
            or (within == "/" and path.startswith("/l/") and role == "anonymous")
        ):
            continue
        tried.add(_kind(path))
        seed = path in must
        must.discard(path)
        page.set_viewport_size(PHONE)
        answer = page.goto(live_server.url + path)
        assert answer is not None and answer.status < 500, f"{role} {path}"
        if path.startswith("/api/"):
            page.wait_for_selector(".opblock")  # the documentation, once drawn
        landed = _kind(page.url[len(live_server.url) :])
        if landed in done and not seed:  # a page already looked at (the login)
            continue
        done.add(landed)
        # A page another role saw the same (a public page) was looked at then.
        same = page.evaluate(MAIN)
        if same in seen and looked:
            continue
        seen.add(same)
        name = f"{role} {path} ({answer.status})"
        # The API's documentation is English, as the API is.
        expected = "en" if path.startswith("/api/") else language
        said = page.locator("html").get_attribute("lang")
        found[name] = _looked_at(page, expected, PHONE, words)
        found[name] += _fits(page, SMALL_PHONE, back=PHONE)
        looked += 1
        if said != expected:
            found[name].append(_problem("html-lang", f"lang={said}, not {expected}"))
        if shots:
            where = re.sub(r"\W+", "-", path).strip("-")
            shoot(page, f"{shots}-{role}-{where}"[:100])
        page.set_viewport_size(DESK)
        found[f"{name} desk"] = _looked_at(page, expected, DESK)
        queue += page.evaluate(HREFS)
    print(f"{role}: {looked} pages looked at, {len(tried)} kinds tried")
    return {k: v for k, v in found.items() if v}


def test_every_page_as_every_role_in_malayalam(browser, live_server, championship):
    """Each person's every kind of page in Malayalam, found by following the links
    from where they start, on a phone and on a desk: axe-core's violations, widths,
    English words of the catalogue outside lang="en", and files named. The organizer
    is also the site's administrator: the header holds the most it can."""
    assert AXE.exists(), "axe-core is missing: run `make browser`"
    organizer, scorer, pages, visitor, match = championship
    words = Catalogue(_data())
    start = list(pages.values())
    found: dict[str, list[dict]] = {}
    seen: set[str] = set()
    crawl = {"live_server": live_server, "language": "ml", "words": words}

    anonymous = _context(browser, "ml", match)
    page = anonymous.new_page()
    visiting = [visitor[k] for k in ("login", "password-reset", "invitation")]
    found |= _crawl(
        page,
        seeds=["/", *visiting, *start, "/api/v1/docs/"],
        role="anonymous",
        seen=seen,
        **crawl,
    )
    for link in ("table-link", "team-link"):
        found |= _crawl(
            page,
            seeds=[visitor[link]],
            role=link,
            seen=seen,
            within=visitor[link],
            shots="ml",
            **crawl,
        )
    anonymous.close()

    _may_create(organizer)
    organizer.is_staff = True
    organizer.save(update_fields=["is_staff"])
    for role, user in (("organizer", organizer), ("scorer", scorer)):
        context, page = _signed_in(browser, live_server, user, "ml", match)
        found |= _crawl(
            page,
            seeds=["/", *start],
            role=role,
            seen=seen,
            shots="ml" if role == "organizer" else "",
            **crawl,
        )
        context.close()

    report = [
        f"{where}: {v['id']} ({v['impact']}): {v['help']} at {', '.join(v['nodes'])}"
        for where, violations in found.items()
        for v in violations
    ]
    assert not report, "\n".join(report)
