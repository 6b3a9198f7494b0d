"""The venue screen's end of the day in Debian's chromium (issue 52): a round of 12
tables stands in two columns across a 1920×1080 screen (not 12 down its left half),
still readable at a desk's width and on a phone; the bracket's rounds stand side by
side; at the end of the day the champion fills the screen. Nothing scrolls."""

from __future__ import annotations

import pytest

from scoring.league import services as league_services
from scoring.models import Match
from tests.brackets.knockout import bracket, final_league, matches_of, play_sheet
from tests.browser import DESK, PHONE
from tests.conftest import as_user
from tests.factories import SectionFactory, TeamFactory, TournamentFactory, member
from tests.scoring.league import confirm
from tournament.domain.types import Role

pytestmark = pytest.mark.django_db(transaction=True)

FULL_HD = {"width": 1920, "height": 1080}
STAGES = ("round_of_16", "quarter_final", "semi_final", "second_runner_up", "final")

# Where each line of the pairings stands, and whether anything is beyond the window.
MEASURE = """() => {
  const boxes = [...document.querySelectorAll('.pairings li')].map(li => {
    const b = li.getBoundingClientRect();
    return [Math.round(b.left), b.right, b.bottom];
  });
  const screen = document.getElementById('screen');
  const root = document.documentElement;
  return {boxes, scrolls: screen.scrollHeight > screen.clientHeight + 1
    || root.scrollWidth > window.innerWidth + 1};
}"""


def _twelve(slug: str) -> None:
    """24 teams with long names in three sections, round 1 (12 tables) released."""
    tournament = TournamentFactory(slug=slug, league_rounds=3, published=True)
    organizer = member(tournament, Role.ORGANIZER, f"{slug}-org")
    for s in range(3):
        section = SectionFactory(tournament=tournament, name=f"Region {s + 1}")
        for t in range(8):
            TeamFactory(section=section, name=f"Vadakkumnathan Cardinals {s}{t + 1}")
    league_services.league_draw_generate(tournament=tournament, user=organizer, seed=1)
    league_services.league_round_release(
        tournament=tournament, user=organizer, number=1
    )
    assert Match.objects.filter(tournament=tournament, round=1).count() == 12


@pytest.mark.parametrize(
    ("viewport", "columns"), [(FULL_HD, 2), (DESK, 2), (PHONE, 1)], ids=str
)
def test_a_round_of_twelve_uses_the_screens_width(
    browser, live_server, settings, viewport, columns
):
    settings.SCREEN_SECONDS = 3600
    slug = f"twelve-{viewport['width']}"
    _twelve(slug)
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(f"{live_server.url}/t/{slug}/screen/")
    seen = page.evaluate(MEASURE)
    assert not seen["scrolls"]
    lefts = sorted({left for left, _, _ in seen["boxes"]})
    assert len(seen["boxes"]) == 12
    assert len(lefts) == columns, lefts
    if columns == 2:  # 6 and 6, the second column on the right half
        assert [left for left, _, _ in seen["boxes"]].count(lefts[1]) == 6
        assert lefts[1] > viewport["width"] / 2 - 50
    for _, right, bottom in seen["boxes"]:
        assert right <= viewport["width"] + 1 and bottom <= viewport["height"] + 1


def test_the_bracket_and_the_champion_fill_a_full_hd_screen(
    browser, live_server, settings, api
):
    settings.SCREEN_SECONDS = 3600
    tournament, organizer = final_league(2, 8, qualifiers=16, slug="hd-cup")
    tournament.published = True
    tournament.save()
    as_user(api, organizer)
    answer = api.post(
        "/api/v1/tournaments/hd-cup/knockout/",
        {"deals": dict.fromkeys(STAGES, 4)},
        "json",
    )
    assert answer.status_code == 201, answer.json()
    context = browser.new_context(viewport=FULL_HD)
    page = context.new_page()
    # The bracket: the round of 16 to the final, side by side, nothing scrolls.
    page.goto(f"{live_server.url}/t/hd-cup/screen/?view=1")
    assert page.get_attribute("#screen", "data-view") == "bracket"
    columns = page.evaluate(
        """() => [...document.querySelectorAll('.ko-col')].map(c => {
             const b = c.getBoundingClientRect();
             return [c.querySelector('h2').textContent.trim(), b.left, b.right,
                     b.bottom];
           })"""
    )
    assert [name for name, *_ in columns] == [
        "Round of 16",
        "Quarter-finals",
        "Semi-finals",
        "Second runner-up match",
        "Final",
    ]
    lefts = [left for _, left, _, _ in columns]
    assert lefts == sorted(lefts) and len(set(lefts)) == 5
    for name, _, right, bottom in columns:
        assert right <= 1921 and bottom <= 1081, name
    assert page.evaluate(
        "() => { const s = document.getElementById('screen');"
        " return s.scrollHeight <= s.clientHeight + 1; }"
    )
    # Every match played, A winning (the final in two games): the champion.
    for _ in range(40):
        data = bracket(api, "hd-cup")
        if data["champion"] and all(m["winner"] for m in matches_of(data).values()):
            break
        for m in matches_of(data).values():
            if m["status"] == "scheduled":
                play_sheet(api, m["match"], 4, 2, 4)
                confirm(api, m["match"])
    champion = data["champion"]["name"]
    page.goto(f"{live_server.url}/t/hd-cup/screen/?view=5")
    assert page.get_attribute("#screen", "data-view") == "champion"
    assert page.get_attribute("#screen", "hx-get").endswith("?view=0")
    winner = page.locator(".champion .winner")
    assert winner.inner_text().strip() == champion
    box = winner.bounding_box()
    assert box["y"] + box["height"] <= 1080 and box["x"] + box["width"] <= 1920
    assert box["height"] >= 80  # in the largest type of the screen
    assert page.locator(".champion .podium li").count() == 3
    assert page.evaluate(
        "() => { const s = document.getElementById('screen');"
        " return s.scrollHeight <= s.clientHeight + 1; }"
    )
    context.close()
