"""Every kind of page, in English and in Malayalam, checked by axe-core in Debian's
chromium on a phone's screen: no serious or critical violation (missing labels, wrong
`lang`, contrast, names of buttons and links, ARIA misuse...), and no page wider than
the phone (a wide table scrolls in its own region). axe-core comes from
npm into tests/axe/ (`make browser`) and is put into the page by the test only; the
site never serves it. Each Malayalam page is kept as a screenshot in
artifacts/screens/ (not committed), to look at."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import pytest
from django.contrib.auth.models import Permission

from brackets.models import Game
from brackets.services import knockout_seed
from tests.brackets.knockout import final_league
from tests.browser import PHONE, shoot
from tests.scoring.league import link_key
from tournament.backups.services import backup_take
from tournament.domain.types import Role
from tournament.links.services import links_ensure
from tournament.people.services import invitation_create

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


@pytest.fixture
def championship():
    """A tournament on its knockout day: a final league of 8 teams in 2 sections,
    the knockout of 4 seeded, a backup, an invitation; and what each page needs."""
    tournament, organizer = final_league(2, 4, qualifiers=4, slug="axe-cup")
    knockout_seed(tournament=tournament, user=organizer)
    backup = backup_take(tournament=tournament, user=organizer, reason="before the day")
    invitation = invitation_create(
        tournament=tournament, user=organizer, role=Role.SCORER, name="Anil"
    )
    team = tournament.teams.order_by("pk").first()
    league_match = tournament.matches.filter(stage="league").order_by("pk").first()
    sheet = (
        Game.objects.filter(knockout_match__bracket__tournament=tournament)
        .order_by("pk")
        .first()
        .sheet
    )
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
        "password-change": "/accounts/password/",
        "not-found": f"/t/{slug}/nothing-here/",
    }
    visitor = {
        "login": "/accounts/login/",
        "password-reset": "/accounts/password/reset/",
        "invitation": f"/invitations/{invitation.key}/",
        "table-link": f"/l/{link_key(tournament, table=sheet.table)}/",
        "team-link": f"/l/{link_key(tournament, team=team)}/",
    }
    return organizer, pages, visitor


def _check(page, url: str, status: int = 200) -> list[dict]:
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
            {
                "id": "wider-than-the-phone",
                "impact": "serious",
                "help": f"the page is {width} px wide on a {PHONE['width']} px screen",
                "nodes": [],
            }
        )
    return found


def _context(browser, language: str):
    # bypass_csp: the site's content-security policy forbids an injected script, as
    # it should; only the test's own axe-core is let in this way.
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    context.add_cookies(
        [{"name": "django_language", "value": language, "url": "http://localhost"}]
    )
    return context


@pytest.mark.parametrize("language", ["en", "ml"])
def test_no_page_has_a_serious_accessibility_violation(
    browser, live_server, championship, language
):
    assert AXE.exists(), "axe-core is missing: run `make browser`"
    organizer, pages, visitor = championship
    found: dict[str, list[dict]] = {}
    seen_lang: dict[str, str] = {}

    anonymous = _context(browser, language)
    page = anonymous.new_page()
    for kind, path in visitor.items():
        found[kind] = _check(page, live_server.url + path)
        seen_lang[kind] = page.locator("html").get_attribute("lang")
        if language == "ml":
            shoot(page, f"ml-{kind}")
    anonymous.close()

    signed_in = _context(browser, language)
    page = signed_in.new_page()
    organizer.set_password("axe-56")
    organizer.save(update_fields=["password"])
    # So that the new tournament's and the import's pages show their forms.
    organizer.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", organizer.username)
    page.fill("#id_password", "axe-56")
    page.click("main form button")
    page.wait_for_url(f"{live_server.url}/")
    for kind, path in pages.items():
        status = 404 if kind == "not-found" else 200
        found[kind] = _check(page, live_server.url + path, status)
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
