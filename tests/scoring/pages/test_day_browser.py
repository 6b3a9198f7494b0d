"""The tournament day in a real browser (Debian's chromium): the organizer ticks teams
in as they arrive on the registration desk, draws the teams that came, records a
forfeit, and rules on a dispute that a captain raised from a phone (rules.md §9)."""

import pytest

from scoring.models import Dispute, Match
from scoring.sheets import services
from tests.browser import DESK, log_in
from tests.factories import SectionFactory, TeamFactory, TournamentFactory, member
from tests.scoring.league import deals_for
from tournament.domain.types import Role
from tournament.models import Team


@pytest.mark.django_db(transaction=True)
def test_arrivals_draw_forfeit_and_a_ruling(browser, live_server):
    tournament = TournamentFactory(
        slug="day-cup", league_rounds=3, league_deals=2, check_in_required=True
    )
    teams = []
    for s in range(3):
        section = SectionFactory(tournament=tournament, name=f"Region {s + 1}")
        teams += [
            TeamFactory(section=section, name=f"Region {s + 1} team {t + 1}")
            for t in range(2)
        ]
    late = TeamFactory(section=teams[0].section, name="Late Sevens")
    organizer = member(tournament, Role.ORGANIZER, "org")

    desk = log_in(browser, live_server, organizer, viewport=DESK)
    desk.goto(f"{live_server.url}/t/day-cup/registration/")
    # Each arrival is ticked in place (htmx): the list's own line says what
    # happened, and the page stays where it was (issue 52: 23 reloads to the top).
    for team in teams:  # one team, Late Sevens, never arrives
        desk.get_by_role("button", name=f"Arrived {team.name}", exact=True).click()
        desk.locator("#check-in-said").get_by_text(
            f"{team.name} is checked in"
        ).wait_for()
    assert "6 of 7 teams have arrived" in desk.inner_text("#check-in h2")
    # A tick by mistake is undone the same way before the draw, where it was
    # tapped: a click that does not scroll (as a finger's), then the same place.
    undo = desk.get_by_role("button", name=f"Undo the check-in of {teams[5].name}")
    undo.scroll_into_view_if_needed()
    desk.evaluate("window.scrollBy(0, 40)")
    at = desk.evaluate("window.scrollY")
    assert at > 0
    undo.dispatch_event("click")
    desk.locator("#check-in-said").get_by_text("no longer checked in").wait_for()
    assert "5 of 7 teams have arrived" in desk.inner_text("#check-in h2")
    assert desk.evaluate("window.scrollY") == at
    desk.get_by_role("button", name=f"Arrived {teams[5].name}", exact=True).click()
    desk.locator("#check-in-said").get_by_text("is checked in").wait_for()
    assert "6 of 7 teams have arrived" in desk.inner_text("#check-in h2")

    desk.goto(f"{live_server.url}/t/day-cup/draw/")
    # The draw fixes teams and sections: the page asks first, and Cancel draws
    # nothing (issue 52).
    asked: list[str] = []

    def cancel(dialog):
        asked.append(dialog.message)
        dialog.dismiss()

    desk.once("dialog", cancel)
    desk.click("button:has-text('Draw the league')")
    desk.wait_for_timeout(300)
    assert asked == ["Draw the league now? Teams and sections are fixed from then on."]
    assert not Match.objects.filter(tournament=tournament).exists()
    desk.on("dialog", lambda dialog: dialog.accept())
    desk.click("button:has-text('Draw the league')")
    desk.locator(".messages").wait_for()
    desk.click("button:has-text('Release every round')")
    desk.locator(".messages").get_by_text("Released").wait_for()
    assert Team.objects.get(pk=late.pk).status == "absent"
    drawn = Match.objects.filter(tournament=tournament)
    assert drawn.count() == 9
    assert not drawn.filter(team_a=late).exists()
    assert not drawn.filter(team_b=late).exists()

    # A forfeit: round 1, table 1, team B did not come.
    forfeited = drawn.order_by("round", "table").first()
    desk.goto(f"{live_server.url}/matches/{forfeited.pk}/")
    desk.click("summary:has-text('Record a forfeit')")
    desk.check("input[name=absent][value=B]")
    desk.fill("#id_forfeit-reason", "not at the table by 10:00")
    desk.click("button:has-text('Record the forfeit')")
    desk.locator(".messages").get_by_text("The sheet is forfeited").wait_for()
    assert "did not come" in desk.inner_text(".notice.forfeit")
    forfeited.refresh_from_db()
    assert (forfeited.status, forfeited.winner) == ("forfeited", "A")

    # A captain disputes a deal of another match from a phone.
    disputed = drawn.exclude(pk=forfeited.pk).order_by("round", "table").first()
    captain = member(tournament, Role.CAPTAIN, "cap", team=disputed.team_b)
    version = None
    for body in deals_for(3, 2, 2):
        _, sheet = services.score_sheet_deal_record(
            match_id=disputed.pk, user=organizer, version=version, **body
        )
        version = sheet.version
    phone = log_in(browser, live_server, captain)
    phone.goto(f"{live_server.url}/matches/{disputed.pk}/")
    phone.click("summary:has-text('Raise a dispute')")
    phone.fill("#id_dispute-deal", "2")
    phone.fill("#id_dispute-text", "Deal 2: we took 30, not 26")
    phone.click("button:has-text('Raise the dispute')")
    phone.locator(".messages").get_by_text("Your dispute is recorded").wait_for()
    assert "open dispute" in phone.inner_text(".confirmation")
    assert phone.locator("button:has-text('Confirm for')").count() == 0

    # The organizer sees the mark on the matches list and rules.
    desk.goto(f"{live_server.url}/t/day-cup/matches/")
    desk.get_by_text("open dispute").first.wait_for()
    desk.goto(f"{live_server.url}/matches/{disputed.pk}/")
    dispute = Dispute.objects.get(match=disputed)
    desk.fill(f"#ruling-{dispute.pk}", "Checked with both captains: 26 stands.")
    desk.click("button:has-text('Rule and close')")
    desk.locator(".messages").get_by_text("The ruling is recorded").wait_for()
    assert "26 stands" in desk.inner_text(".disputes")
    dispute.refresh_from_db()
    assert not dispute.open

    phone.reload()
    phone.click("button:has-text('Confirm for')")
    phone.locator(".messages").get_by_text("Your confirmation is recorded").wait_for()
