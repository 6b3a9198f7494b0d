"""A whole tournament set up and run from the site's own pages, in a real browser
(Debian's chromium), with no admin, API or command line: sign in, create the
tournament, invite a scorer who accepts in a second browser, add sections, import the
teams, draw, release from the desk, the scorer enters a match, the desk shows the
tables' states change by itself, the venue screen shows the round, and a player finds
the table on a phone.

Every new page is screenshotted on a phone and on a desk (artifacts/screens/, not
committed; looked at by hand when a layout changes).
"""

import pytest
from django.contrib.auth.models import Permission

from scoring.models import Match
from tests.browser import DESK, PHONE, fill_deal, log_in, save_deal, shoot
from tests.factories import UserFactory
from tests.spreadsheets import team_list_xlsx
from tournament.models import Membership, Tournament

pytestmark = pytest.mark.django_db(transaction=True)
HALL = {"width": 1920, "height": 1080}
TEAMS = [
    ["Edison Aces", "Anil Nair", "Edison", "NJ", "USA", "Biju", "Cyril"],
    ["Newark Kings", "Babu Paul", "Newark", "NJ", "USA", "Dev", "Eapen"],
    ["Fremont Jacks", "Cherian Jose", "Fremont", "CA", "USA", "Faisal", "Gopi"],
    ["San Jose Nines", "Dinesh Menon", "San Jose", "CA", "USA", "Hari", "Ivan"],
]


def test_a_tournament_run_from_its_pages(
    browser, live_server, steps, tmp_path, settings
):
    # The desk changes by itself, within a poll: a short one, so that a poll answered
    # just before a sheet's save does not leave a slow machine waiting most of the
    # test's timeout; the venue screen does not turn while it is read.
    settings.DESK_POLL_SECONDS = 2
    settings.SCREEN_SECONDS = 3600
    maker = UserFactory(username="maker")
    maker.user_permissions.add(Permission.objects.get(codename="add_tournament"))

    # Sign in and create the tournament.
    desk = steps.watch(log_in(browser, live_server, maker, DESK))
    desk.click("a:has-text('New tournament')")
    desk.fill("#id_name", "Hall Cup")
    desk.select_option("#id_ruleset", "gcka")  # its numbers come in: 7 deals
    desk.locator("#id_league_deals[value='7']").wait_for()
    desk.fill("#id_league_rounds", "1")
    desk.fill("#id_league_deals", "2")
    desk.check("#id_published")
    shoot(desk, "create-desk")
    desk.click("button:has-text('Create the tournament')")
    desk.wait_for_url(f"{live_server.url}/t/hall-cup/")
    steps(desk, "tournament created")
    made = Tournament.objects.get(slug="hall-cup")
    assert (made.ruleset, made.league_rounds, made.league_deals) == ("gcka", 1, 2)
    base = f"{live_server.url}/t/hall-cup"

    # Invite a scorer; she accepts in her own browser.
    desk.click("nav.tabs a:has-text('People')")
    desk.select_option("#id_invite-role", "scorer")
    desk.fill("#id_invite-name", "Bindu")
    desk.click("button:has-text('Make the link')")
    link = desk.input_value("#new-link")
    shoot(desk, "people-desk")
    phone = steps.watch(browser.new_context(viewport=PHONE).new_page())
    phone.goto(link)
    assert "as scorer" in phone.inner_text("main")
    shoot(phone, "invitation-phone")
    phone.fill("#id_username", "bindu")
    phone.fill("#id_password", "Kerala-Cards-2026")
    phone.fill("#id_password_again", "Kerala-Cards-2026")
    phone.click("button:has-text('Accept and sign in')")
    phone.wait_for_url(f"{base}/")
    assert "you are a scorer of Hall Cup now" in phone.inner_text(".messages")
    assert Membership.objects.get(user__username="bindu").role == "scorer"
    steps(phone, "invitation accepted")

    # Sections, the team list, the draw.
    desk.click("nav.tabs a:has-text('Registration')")
    for name, states in (("East", "NJ, NY"), ("West", "CA")):
        desk.fill("#id_section-name", name)
        desk.fill("#id_section-states", states)
        desk.click("button:has-text('Add section')")
        desk.locator(".messages").get_by_text(name).wait_for()
    upload = tmp_path / "teams.xlsx"
    upload.write_bytes(team_list_xlsx(TEAMS).getvalue())
    desk.set_input_files("#id_import-file", str(upload))
    desk.click("button:has-text('Import')")
    desk.locator(".messages").get_by_text("4 teams", exact=False).wait_for()
    desk.click("nav.tabs a:has-text('Draw')")
    desk.on("dialog", lambda dialog: dialog.accept())  # the draw asks first
    desk.click("button:has-text('Draw the league')")
    desk.locator(".messages").wait_for()

    # The desk releases round 1 and watches its two tables.
    desk.click("nav.tabs a:has-text('Desk')")
    desk.click("button:has-text('Release round 1')")
    desk.locator(".messages").get_by_text("Round 1 is released").wait_for()
    assert "2 not started" in desk.inner_text(".counts")
    shoot(desk, "desk-desk")
    match = Match.objects.filter(tournament=made).order_by("table").first()

    # The scorer finds the table on the matches page (it opens at round 1) and
    # enters the match.
    phone.goto(f"{base}/matches/")
    assert "Round 1" in phone.inner_text("main")
    phone.click(f"a[href='/matches/{match.pk}/']")
    phone.goto(f"{live_server.url}/matches/{match.pk}/score/")
    fill_deal(phone, "A", 32, "spades", "none", 40)
    save_deal(phone, 1)
    # The desk sees the table start by itself.
    desk.locator(".counts").get_by_text("1 in progress").wait_for(timeout=30_000)
    fill_deal(phone, "B", 40, "hearts", "none", 20)
    save_deal(phone, 2)
    desk.locator(".counts").get_by_text("1 awaiting confirmation").wait_for(
        timeout=30_000
    )
    steps(desk, "desk after the match")
    assert "2 of 2" in desk.inner_text("#board")
    shoot(desk, "desk-desk-played")
    desk.set_viewport_size(PHONE)
    shoot(desk, "desk-phone")

    # The venue screen: the round in large type, no scrolling, no login.
    hall = steps.watch(browser.new_context(viewport=HALL).new_page())
    hall.goto(f"{base}/screen/")
    text = hall.inner_text("#screen")
    assert "Round 1" in text
    assert match.team_a.name in text and match.team_b.name in text
    assert hall.evaluate("document.documentElement.scrollHeight") <= HALL["height"]
    shoot(hall, "screen-hall")

    # A player finds the table from the tournament page on a phone.
    player = steps.watch(browser.new_context(viewport=PHONE).new_page())
    player.goto(f"{base}/")
    player.fill("#where-q", TEAMS[0][1].split()[0])  # the captain's first name
    player.locator("#where .now").wait_for()
    found = player.inner_text("#where")
    mine = Match.objects.get(pk=match.pk)
    own = Match.objects.filter(tournament=made).exclude(pk=match.pk).first()
    table = next(
        m.table for m in (mine, own) if TEAMS[0][0] in (m.team_a.name, m.team_b.name)
    )
    assert f"table {table}" in found
    shoot(player, "where-phone")

    # The settings say which ones the draw fixed.
    desk.set_viewport_size(DESK)
    desk.goto(f"{base}/settings/")
    assert desk.is_disabled("#id_league_rounds")
    assert "Fixed: the league is drawn" in desk.inner_text("main")
    shoot(desk, "settings-desk")
    assert steps.violations == []
