"""Tournament day in a real browser (Debian's chromium, driven by Playwright), through
the pages only, under the enforced content security policy:

- the organizer adds sections, imports the team list and draws and releases the league;
- a scorer fills a whole match on a phone;
- both captains confirm it on theirs;
- a spectator's standings page shows the result without reloading;
- the bracket page shows a finished knockout, champion and places.

Each step is screenshotted; when a test fails the screenshots, and one of every page
still open, are written to artifacts/browser/<test>/ (tests/conftest.py).
"""

import random

import pytest
from rest_framework.test import APIClient

from brackets import services as knockout
from brackets.demo import _settle
from scoring.demo import confirm_as_organizer, play_randomly
from scoring.models import Match
from tests.brackets.knockout import bracket as bracket_data
from tests.brackets.knockout import final_league
from tests.browser import DESK, PHONE, fill_deal, log_in, save_deal
from tests.factories import TournamentFactory, member
from tests.scoring.apis.test_sheet import HAND_CHECKED
from tests.spreadsheets import team_list_xlsx
from tournament.domain.types import Role
from tournament.models import Team

pytestmark = pytest.mark.django_db(transaction=True)


TEAMS = [
    ["Edison Aces", "Anil Nair", "Edison", "NJ", "USA", "Biju", "Cyril"],
    ["Newark Kings", "Babu Paul", "Newark", "NJ", "USA", "Dev", "Eapen"],
    ["Fremont Jacks", "Cherian Jose", "Fremont", "CA", "USA", "Faisal", "Gopi"],
    ["San Jose Nines", "Dinesh Menon", "San Jose", "CA", "USA", "Hari", "Ivan"],
]


def test_tournament_day_from_the_team_list_to_the_standings(
    browser, live_server, steps, tmp_path, settings
):
    # The spectator's standings change by themselves, within a poll: a short one on a
    # slow machine.
    settings.STANDINGS_POLL_SECONDS = 2
    tournament = TournamentFactory(
        slug="day-cup", name="Day Cup", published=True, league_rounds=1
    )
    organizer = member(tournament, Role.ORGANIZER, "org")
    scorer = member(tournament, Role.SCORER, "scorer")
    base = f"{live_server.url}/t/day-cup"

    # The organizer, at the desk: sections, the team list, the draw.
    desk = steps.watch(log_in(browser, live_server, organizer, DESK))
    desk.goto(f"{base}/registration/")
    for name, states in (("East", "NJ, NY"), ("West", "CA")):
        desk.fill("#id_section-name", name)
        desk.fill("#id_section-states", states)
        desk.click("button:has-text('Add section')")
        desk.locator(".messages").get_by_text(name).wait_for()
    steps(desk, "sections added")
    upload = tmp_path / "teams.xlsx"
    upload.write_bytes(team_list_xlsx(TEAMS).getvalue())
    desk.set_input_files("#id_import-file", str(upload))
    desk.click("button:has-text('Import')")
    desk.locator(".messages").get_by_text("4 teams", exact=False).wait_for()
    steps(desk, "team list imported")
    assert Team.objects.filter(tournament=tournament).count() == 4
    for row in TEAMS:
        assert row[0] in desk.inner_text("main")

    desk.goto(f"{base}/draw/")
    desk.on("dialog", lambda dialog: dialog.accept())  # the draw asks first
    desk.click("button:has-text('Draw the league')")
    desk.get_by_text("Release every round").wait_for()
    desk.click("button:has-text('Release every round')")
    desk.get_by_text("1 of 1 rounds", exact=False).wait_for()
    steps(desk, "league drawn and released")
    match = Match.objects.filter(tournament=tournament).order_by("table").first()
    captains = [
        member(tournament, Role.CAPTAIN, f"cap-{side}", team=team)
        for side, team in (("a", match.team_a), ("b", match.team_b))
    ]

    # A spectator follows the standings on a phone.
    stand = steps.watch(browser.new_context(viewport=PHONE).new_page())
    stand.goto(f"{base}/standings/")
    assert "0 of 2 league matches decided" in stand.inner_text("#standings")
    stand.evaluate("window.stayed = true")  # gone if the page reloads
    steps(stand, "standings before")

    # The scorer fills the match on a phone, deal by deal.
    phone = steps.watch(log_in(browser, live_server, scorer))
    phone.goto(f"{live_server.url}/matches/{match.pk}/score/")
    for number, (row, _) in enumerate(HAND_CHECKED, 1):
        fill_deal(phone, *row)
        save_deal(phone, number)
        if number in (1, 6, 18):
            steps(phone, f"deal {number} saved")
    assert "Every deal is on the sheet" in phone.inner_text("#deal-done")
    total_a = sum(points for _, (side, points) in HAND_CHECKED if side == "A")
    total_b = sum(points for _, (side, points) in HAND_CHECKED if side == "B")
    assert (total_a, total_b) == (24, 25)
    assert f"after 18: {total_a}–{total_b}" in phone.inner_text(".scoreboard")

    # Both captains confirm on their phones; the sheet locks.
    for captain in captains:
        mine = steps.watch(log_in(browser, live_server, captain))
        mine.goto(f"{live_server.url}/matches/{match.pk}/")
        mine.click("button:has-text('Confirm for')")
        mine.locator(".messages").wait_for()
        steps(mine, f"{captain.username} confirmed")
    assert "confirmed and locked" in mine.inner_text(".messages")

    # The spectator's page has the result, by itself.
    stand.locator("#standings").get_by_text("1 of 2 league", exact=False).wait_for(
        timeout=30_000
    )
    steps(stand, "standings after")
    first = stand.inner_text("#standings tbody tr:first-child")
    assert match.team_b.name in first  # B won the hand-checked sheet 25–24
    assert stand.evaluate("window.stayed") is True
    assert steps.violations == []


def test_the_bracket_page_shows_a_finished_knockout(browser, live_server, steps):
    tournament, organizer = final_league(2, 3, qualifiers=4, slug="final-cup")
    knockout.knockout_seed(tournament=tournament, user=organizer)
    rng = random.Random(56)
    for _ in range(40):  # semi-finals, then the final's games as they come
        sheet = (
            Match.objects.filter(tournament=tournament, stage="knockout")
            .exclude(status__in=["confirmed", "void"])
            .order_by("round", "table", "pk")
            .first()
        )
        if sheet is None:
            break
        _decide(sheet, organizer, rng)
    tournament.refresh_from_db()

    page = steps.watch(browser.new_context(viewport=PHONE).new_page())
    page.goto(f"{live_server.url}/t/final-cup/bracket/")
    steps(page, "finished bracket")
    text = page.inner_text("main")
    data = bracket_data(APIClient(), "final-cup")
    assert data["champion"] is not None
    for place in ("champion", "runner_up"):
        assert data[place]["name"] in text
    assert "Champion" in text
    assert steps.violations == []


def _decide(sheet: Match, organizer, rng: random.Random) -> None:
    """Play a knockout sheet to a decision, as the demo does, and confirm it."""
    play_randomly(sheet, organizer, rng, sheet.deals_scheduled or 0)
    _settle(Match.objects.get(pk=sheet.pk), organizer, rng)
    confirm_as_organizer(sheet, organizer)
