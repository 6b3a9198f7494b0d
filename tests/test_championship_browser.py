"""A Kerala championship from its pages, end to end, in Debian's chromium (issue 52).

The organizer creates it with India as its home country, adds sections by Indian
cities, registers two teams by the form and imports the rest, draws and releases the
league, withdraws a team inside the qualifying places (the page asks first), checks
the standings' qualifying line, and seeds the knockout from its form. A volunteer at
the final's table scores its three games on a phone in Malayalam through the table's
link, which follows the series; the organizer confirms each game on the match page.
The venue screen at 1920×1080 rests on the champion, the Knockout page lists every
team's final place, and the Overview and the home page name the champion.

To stay fast, the league's sheets and the knockout's earlier rounds are played through
the services and the API (tests/scoring/league.py, tests/brackets/knockout.py): every
other step is on the pages.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from rest_framework.test import APIClient

from scoring.demo import confirm_as_organizer
from scoring.models import Match
from tests.brackets.knockout import bracket, matches_of, play_sheet
from tests.browser import DESK, PHONE, fill_deal_body, log_in, shoot
from tests.conftest import as_user
from tests.factories import UserFactory
from tests.scoring.league import confirm, deals_for, play_quickly
from tests.spreadsheets import team_list_xlsx
from tournament.models import Team, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

FULL_HD = {"width": 1920, "height": 1080}
SLUG = "kerala-state-championship"

SECTIONS = {
    "Ernakulam": "Kochi, Aluva",
    "Thrissur": "Thrissur, Chalakudy",
    "Kozhikode": "Kozhikode, Vadakara",
}
# Registered by the form: (team, captain, city, state, country, section).
BY_FORM = [
    ("Kochi Kings", "Anil Nair", "Kochi", "Kerala", "India", "Ernakulam"),
    ("Gulf Jacks", "Basheer Ali", "Dubai", "", "UAE", "International"),
]
# Imported with the team list.
IMPORTED = [
    ["Aluva Aces", "Cyril Jose", "Aluva", "Kerala", "India", "Dev", "Eapen"],
    ["Pooram Nines", "Dinesh Menon", "Thrissur", "Kerala", "India", "Faisal", "Gopi"],
    ["Chalakudy Queens", "Eldho Paul", "Chalakudy", "Kerala", "India", "Hari", "Ivan"],
    [
        "Malabar Trumps",
        "Fasal Rahman",
        "Kozhikode",
        "Kerala",
        "India",
        "Jomon",
        "Kiran",
    ],
    ["Vadakara Sixes", "Gireesh K", "Vadakara", "Kerala", "India", "Lal", "Manu"],
    ["Doha Diamonds", "Hamid Khan", "Doha", "", "Qatar", "Naveen", "Omar"],
]
PLACED = {
    "Aluva Aces": "Ernakulam",
    "Pooram Nines": "Thrissur",
    "Chalakudy Queens": "Thrissur",
    "Malabar Trumps": "Kozhikode",
    "Vadakara Sixes": "Kozhikode",
    "Doha Diamonds": "International",
} | {row[0]: row[5] for row in BY_FORM}
QUALIFIERS = 6
KNOCKOUT_DEALS = 2


def _malayalam(context, live_server) -> None:
    context.add_cookies(
        [{"name": "django_language", "value": "ml", "url": live_server.url}]
    )


def test_a_kerala_championship_from_the_pages(
    browser, live_server, steps, tmp_path, settings
):
    settings.SCREEN_SECONDS = 3600  # the venue screen stays on the view it shows
    creator = UserFactory(username="kca-secretary")
    creator.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    base = f"{live_server.url}/t/{SLUG}"
    desk = steps.watch(log_in(browser, live_server, creator, DESK))
    desk.on("dialog", lambda dialog: dialog.accept())  # the draw, release, withdrawal

    # The create page: India, Asia/Kolkata, a small league and a knockout of 6.
    desk.goto(f"{live_server.url}/tournaments/new/")
    desk.fill("#id_name", "Kerala State Championship")
    desk.fill("#id_venue", "Thrissur Town Hall")
    desk.fill("#id_players_per_team", "3")
    desk.fill("#id_league_rounds", "3")
    desk.fill("#id_league_deals", "2")
    desk.fill("#id_qualifiers", str(QUALIFIERS))
    desk.fill("#id_home_country", "India")
    desk.select_option("#id_time_zone", "Asia/Kolkata")
    desk.check("#id_published")
    desk.click("main form button:not([type=button])")
    desk.wait_for_url(f"{base}/")
    steps(desk, "tournament created")
    tournament = Tournament.objects.get(slug=SLUG)
    assert (tournament.home_country, str(tournament.time_zone)) == (
        "India",
        "Asia/Kolkata",
    )

    # Registration: sections by Indian cities, two teams by the form, the rest by
    # the team list.
    desk.goto(f"{base}/registration/")
    assert "State or region" in desk.inner_text("main")
    for name, cities in SECTIONS.items():
        desk.fill("#id_section-name", name)
        desk.fill("#id_section-cities", cities)
        desk.click("button:has-text('Add section')")
        desk.locator(".messages").get_by_text(name).wait_for()
    for team, captain, city, state, country, _ in BY_FORM:
        desk.fill("#id_team-name", team)
        desk.fill("#id_team-captain_name", captain)
        desk.fill("#id_team-captain_city", city)
        desk.fill("#id_team-captain_state", state)
        assert desk.input_value("#id_team-captain_country") == "India"
        desk.fill("#id_team-captain_country", country)
        desk.fill("#id_team-player_2", f"{captain} 2")
        desk.fill("#id_team-player_3", f"{captain} 3")
        desk.click("button:has-text('Register')")
        desk.locator(".messages").get_by_text(team).wait_for()
    upload = tmp_path / "teams.xlsx"
    upload.write_bytes(team_list_xlsx(IMPORTED).getvalue())
    desk.set_input_files("#id_import-file", str(upload))
    desk.click("button:has-text('Import')")
    desk.locator(".messages").get_by_text("6 teams", exact=False).wait_for()
    steps(desk, "teams registered")
    for team, section in PLACED.items():
        row = desk.locator("#teams tbody tr", has_text=team)
        assert row.locator("td").nth(2).inner_text().strip() == section, team
    assert Team.objects.filter(tournament=tournament).count() == 8

    # The draw page: draw and release every round (each asks first).
    desk.goto(f"{base}/draw/")
    # A seed of its own: the same pairings, so the same standings, every run (a
    # random one could tie two teams at the line, left to a lot).
    desk.fill("#id_seed", "2026")
    desk.click("button:has-text('Draw the league')")
    desk.get_by_text("Release every round").wait_for()
    desk.click("button:has-text('Release every round')")
    desk.get_by_text("3 of 3 rounds", exact=False).wait_for()
    steps(desk, "league drawn and released")

    # Rounds 1 and 2 are played (quickly, by the services).
    organizer = creator
    league = list(
        Match.objects.filter(tournament=tournament).order_by("round", "table")
    )
    assert len(league) == 12
    for n, match in enumerate(m for m in league if m.round < 3):
        play_quickly(match.pk, organizer, 3 + n % 5, 1 + n % 2, deals=2)
        confirm_as_organizer(match, organizer)

    # The leader, inside the qualifying places, withdraws before round 3: from its
    # team page, reached from the standings, and the page asks first.
    desk.goto(f"{base}/standings/")
    leader = desk.locator("#standings tbody tr").first
    assert "in" in leader.get_attribute("class").split()
    gone = Team.objects.get(pk=int(leader.get_attribute("data-team")))
    leader.locator("a").click()
    desk.wait_for_url(f"{base}/teams/{gone.pk}/")
    desk.click("summary:has-text('Withdraw the team')")
    desk.fill("#id_withdraw-from_round", "3")
    desk.fill("#id_withdraw-reason", "the captain was called back to work")
    asked: list[str] = []
    desk.once("dialog", lambda dialog: asked.append(dialog.message))
    desk.click(f"button:has-text('Withdraw {gone.name}')")
    desk.locator(".notice").get_by_text("Withdrawn").wait_for()
    assert asked and asked[0].startswith(f"Withdraw {gone.name}?")
    steps(desk, "team withdrawn")
    gone.refresh_from_db()
    assert gone.status == "withdrawn"

    # Round 3 is played; the withdrawn team's match is a forfeit already.
    for n, match in enumerate(m for m in league if m.round == 3):
        match.refresh_from_db()
        if match.status == "forfeited":
            assert gone.pk in (match.team_a_id, match.team_b_id)
            continue
        play_quickly(match.pk, organizer, 4 + n % 3, 1 + n % 2, deals=2)
        confirm_as_organizer(match, organizer)

    # The standings: one line, under the last of the 6 qualifiers; the withdrawn
    # team keeps its rank, marked, and is no qualifier above the line.
    desk.goto(f"{base}/standings/")
    steps(desk, "final standings")
    rows = desk.locator("#standings tbody tr")
    classes = [rows.nth(i).get_attribute("class").split() for i in range(rows.count())]
    teams = [int(rows.nth(i).get_attribute("data-team")) for i in range(rows.count())]
    assert len(teams) == 8
    lines = [i for i, c in enumerate(classes) if "line" in c]
    qualifiers = [i for i, c in enumerate(classes) if "in" in c]
    assert len(qualifiers) == QUALIFIERS
    assert lines == [qualifiers[-1]]
    assert all("out" in c for c in classes[lines[0] + 1 :])
    mine = classes[teams.index(gone.pk)]
    assert "out" in mine and "line" not in mine
    assert "withdrawn" in rows.nth(teams.index(gone.pk)).inner_text()

    # The Knockout page seeds it: the form offers 6, as the 7 teams that can play
    # on allow; every stage short.
    desk.goto(f"{base}/bracket/")
    assert desk.input_value("#id_qualifiers") == str(QUALIFIERS)
    for stage in ("quarter_final", "semi_final", "second_runner_up", "final"):
        desk.fill(f"#id_{stage}", str(KNOCKOUT_DEALS))
    desk.click("button:has-text('Seed the knockout')")
    desk.locator(".messages").wait_for()
    steps(desk, "knockout seeded")
    data = bracket(APIClient(), SLUG)
    seeded = {s["team"] for s in data["seeds"]}
    assert len(seeded) == QUALIFIERS and gone.pk not in seeded

    # The quarter-finals and semi-finals, and the second runner-up match, through
    # the API; the final is left to its table.
    api = APIClient()
    as_user(api, organizer)
    for _ in range(10):
        data = bracket(api, SLUG)
        todo = [
            m
            for m in matches_of(data).values()
            if m["status"] == "scheduled" and m["kind"] != "final"
        ]
        if not todo:
            break
        for m in todo:
            play_sheet(api, m["match"], 5, 2, KNOCKOUT_DEALS)
            confirm(api, m["match"])
    final = Match.objects.get(
        tournament=tournament, stage="knockout", status="scheduled"
    )
    table = final.table

    # The table's card on the Links tab: its link is the one the volunteer scans.
    desk.goto(f"{base}/links/cards/")
    card = desk.locator(
        "article.card", has=desk.locator(f"h2:text-is('Table {table}')")
    )
    link = card.locator(".card-url").inner_text().strip()
    assert "/l/" in link

    # A volunteer's phone, in Malayalam: game 1 (A), game 2 (B), game 3 (A), each
    # confirmed by the organizer on the match page; the link opens the next game
    # at the same table each time.
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    _malayalam(context, live_server)
    phone = steps.watch(context.new_page())
    games = []
    for number, (total_a, total_b) in enumerate(((5, 2), (1, 6), (6, 1)), start=1):
        phone.goto(link)
        assert f"ഫൈനൽ, ഗെയിം {number}" in phone.inner_text(".crumbs")
        assert f"മേശ {table}" in phone.inner_text(".crumbs")
        for n, body in enumerate(deals_for(total_a, total_b, KNOCKOUT_DEALS), start=1):
            fill_deal_body(phone, body)
            phone.click("#deal-form button.save")
            phone.locator(f"#deal-{n}").wait_for()
        steps(phone, f"final game {number} scored at the table")
        assert phone.locator(".scoreboard .tiebreak").count() == 0  # none was played
        if number == 3:
            shoot(phone, "championship-final-game-3-ml-phone")
        game = Match.objects.get(
            tournament=tournament, stage="knockout", table=table, status="completed"
        )
        assert (game.total_a, game.total_b) == (total_a, total_b)
        games.append(game)
        desk.goto(f"{live_server.url}/matches/{game.pk}/")
        desk.click("button:has-text('Confirm and lock')")
        desk.locator(".messages").wait_for()
    assert len({g.pk for g in games}) == 3
    assert {g.table for g in games} == {table}
    assert no_scroll(phone)

    tournament.refresh_from_db()
    assert tournament.status == "finished"
    champion = final.team_a.name
    data = bracket(APIClient(), SLUG)
    assert data["champion"]["name"] == champion

    # The venue screen at 1920×1080 rests on the champion.
    screen = steps.watch(browser.new_context(viewport=FULL_HD).new_page())
    screen.goto(f"{base}/screen/")
    assert screen.get_attribute("#screen", "data-view") == "champion"
    assert screen.locator(".champion .winner").inner_text().strip() == champion
    box = screen.locator(".champion .winner").bounding_box()
    assert box["y"] + box["height"] <= 1080 and box["x"] + box["width"] <= 1920
    shoot(screen, "championship-venue-screen")

    # The Knockout page: a final place for every team, the withdrawn one last.
    desk.goto(f"{base}/bracket/")
    places = desk.locator(".final-places tbody tr")
    assert places.count() == 8
    named = [places.nth(i).locator("td").nth(1).inner_text() for i in range(8)]
    assert sorted(named) == sorted(PLACED)
    assert named[0] == champion and named[-1] == gone.name
    assert places.nth(0).locator("td").first.inner_text().strip() == "1"
    shoot(desk, "championship-final-places")

    # The Overview and the home page name the champion, in English and Malayalam.
    desk.goto(f"{base}/")
    assert f"Champion: {champion}" in desk.inner_text("main")
    desk.goto(f"{live_server.url}/")
    assert f"Champion: {champion}" in desk.inner_text("main")
    visitor = browser.new_context(viewport=PHONE)
    _malayalam(visitor, live_server)
    ml = steps.watch(visitor.new_page())
    ml.goto(f"{base}/")
    assert f"ചാമ്പ്യൻ: {champion}" in ml.inner_text("main")
    ml.goto(f"{live_server.url}/")
    assert f"ചാമ്പ്യൻ: {champion}" in ml.inner_text("main")
    assert steps.violations == []


def no_scroll(page) -> bool:
    """Nothing of the page is beyond the phone's width."""
    return page.evaluate(
        "() => document.documentElement.scrollWidth <= window.innerWidth + 1"
    )
