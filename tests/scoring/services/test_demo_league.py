"""The demo league of fixtures/ plays through the services, and its standings show
a league in play: three rounds confirmed, one part played, four drafts."""

import re

import pytest
from django.core.management import call_command
from django.test import Client

from scoring.demo import demo_league_play
from scoring.models import Match, SheetChange
from tests.factories import member
from tournament.demo import demo_load
from tournament.domain.types import Role

pytestmark = pytest.mark.django_db


def test_the_demo_league_is_in_play_and_loads_once(api):
    tournament, _ = demo_load()
    _, played = demo_league_play()
    assert played
    league = Match.objects.filter(tournament=tournament)
    assert league.count() == 8 * 24
    assert league.filter(status="confirmed").count() == 3 * 24
    assert league.filter(round=4, status="completed").count() == 12
    assert league.filter(round=4, status="in_progress").count() == 6
    assert league.filter(round__gte=5).exclude(status="scheduled").count() == 0
    # Every deal went through the services: each has its history entry.
    assert SheetChange.objects.filter(action="deal_add").count() == (
        3 * 24 * 18 + 12 * 18 + 6 * 9
    )
    body = api.get(f"/api/v1/tournaments/{tournament.slug}/standings/").json()
    assert body["progress"] == {
        "matches": 192,
        "decided": 84,
        "confirmed": 72,
        "live": 6,
        "draft_rounds": 4,
    }
    assert sum(r["played"] for r in body["rows"]) == 2 * 84
    assert sum(r["provisional"] for r in body["rows"]) == 24  # 12 sheets to confirm
    # A second load changes nothing.
    _, again = demo_league_play()
    assert not again
    assert Match.objects.exclude(status="scheduled").count() == 84 + 6


def test_the_demo_desk_and_screen_show_the_league_in_play():
    """`make run`'s promise: the desk shows round 4 with its tables by state, the
    venue screen its pairings under the announcements."""
    demo_load()
    tournament, _ = demo_league_play()
    client = Client()
    client.force_login(member(tournament, Role.SCORER, "desk-look"))
    desk = client.get(f"/t/{tournament.slug}/desk/").content.decode()
    assert "Round 4" in desk
    for count, state in ((6, "not started"), (6, "in progress"), (12, "awaiting")):
        assert f"<strong>{count}</strong> {state}" in desk
    screen = Client().get(f"/t/{tournament.slug}/screen/").content.decode()
    assert "Round 4" in screen and "Lunch is served" in screen


def test_the_demo_prints_table_1s_link_and_it_opens_round_4(capsys):
    """`make run` prints table 1's link: it opens round 4's sheet of table 1 with no
    login, as the README says."""
    demo_load()
    call_command("demo_play")
    printed = capsys.readouterr().out
    found = re.search(
        r"Table 1's link, no login needed \(docs/links.md\): (/l/\S+/)", printed
    )
    assert found, printed
    page = Client().get(found.group(1))
    assert page.status_code == 200
    match = Match.objects.get(tournament__slug="championship-2026", round=4, table=1)
    html = page.content.decode()
    assert match.team_a.name in html and match.team_b.name in html
    assert "Round 4" in html
