"""The Spring Open demo (`make run`): its knockout in play, through the services."""

import pytest

from brackets.demo import demo_knockout_play
from brackets.models import KnockoutMatch
from scoring.models import Match

pytestmark = pytest.mark.django_db


def test_the_demo_knockout_is_in_play_and_loads_once():
    tournament, played = demo_knockout_play()
    assert played
    assert tournament.status == "knockout"
    league = Match.objects.filter(tournament=tournament, stage="league")
    assert league.count() == 72 and not league.exclude(status="confirmed").exists()
    first = KnockoutMatch.objects.filter(bracket__tournament=tournament, round=1)
    assert first.count() == 4 and not first.filter(winner="").exists()
    tossed = Match.objects.get(
        tournament=tournament, stage="knockout", toss_winner__gt=""
    )
    assert tossed.deals_won_a + tossed.deals_won_b == tossed.deals_scheduled + 3
    quarters = KnockoutMatch.objects.filter(bracket__tournament=tournament, round=2)
    assert quarters.exclude(winner="").count() == 2
    sheets = Match.objects.filter(tournament=tournament, stage="knockout", round=2)
    assert sorted(sheets.values_list("status", flat=True)) == [
        "confirmed",
        "confirmed",
        "in_progress",
        "scheduled",
    ]
    again, played = demo_knockout_play()
    assert (again.pk, played) == (tournament.pk, False)
