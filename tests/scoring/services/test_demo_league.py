"""The demo league of fixtures/ plays through the services, and its standings show
a league in play: three rounds confirmed, one part played, four drafts."""

import pytest

from scoring.demo import demo_league_play
from scoring.models import Match, SheetChange
from tournament.demo import demo_load

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
