"""The bidder of a deal (API.md "Statistics"; docs/score-sheets.md): optional, one of
the declaring team's players in that match, after substitutions; in the API's answer,
the history and the score page."""

from __future__ import annotations

import pytest
from django.utils import timezone

from scoring.models import Deal
from scoring.sheets import services
from tests.conftest import as_user
from tests.scoring.conftest import deal_body, page_deal_body, post_deal
from tournament.domain.errors import RuleError
from tournament.models import Substitution

pytestmark = pytest.mark.django_db


def test_a_deal_records_its_bidder_as_the_roster_spells_him(api, match, organizer):
    as_user(api, organizer)
    player = match.team_a.players.order_by("position")[1].name
    answer = post_deal(api, match, {**deal_body(1), "bidder": f"  {player.upper()} "})
    assert answer.status_code == 201, answer.json()
    assert answer.json()["bidder"] == player
    assert Deal.objects.get(match=match, number=1).bidder == player
    sheet = api.get(f"/api/v1/matches/{match.pk}/").json()
    assert sheet["deals"][0]["bidder"] == player
    history = api.get(f"/api/v1/matches/{match.pk}/history/").json()["results"]
    assert history[-1]["after"]["bidder"] == player
    # Optional: a deal without one says null, and its history has no bidder.
    plain = post_deal(api, match, deal_body(2))
    assert plain.status_code == 201 and plain.json()["bidder"] is None
    history = api.get(f"/api/v1/matches/{match.pk}/history/").json()["results"]
    assert "bidder" not in history[-1]["after"]


def test_the_bidder_is_a_player_of_the_declaring_team(api, match, organizer):
    as_user(api, organizer)
    defender = match.team_b.players.first().name
    for bidder in (defender, "Someone Else"):
        answer = post_deal(api, match, {**deal_body(1, declarer="A"), "bidder": bidder})
        assert answer.status_code == 400
        assert "bidder" in answer.json()
        assert "declaring team A" in answer.json()["bidder"][0]
    assert not Deal.objects.filter(match=match).exists()
    # The same player declares for B.
    answer = post_deal(api, match, {**deal_body(1, declarer="B"), "bidder": defender})
    assert answer.status_code == 201


def test_a_correction_changes_or_clears_the_bidder(api, match, organizer):
    as_user(api, organizer)
    first, second = (p.name for p in match.team_a.players.order_by("position")[:2])
    post_deal(api, match, {**deal_body(1), "bidder": first})
    version = api.get(f"/api/v1/matches/{match.pk}/").json()["version"]
    changed = api.put(
        f"/api/v1/matches/{match.pk}/deals/1/",
        {**deal_body(1), "bidder": second, "version": version},
        "json",
    )
    assert changed.status_code == 200 and changed.json()["bidder"] == second
    history = api.get(f"/api/v1/matches/{match.pk}/history/").json()["results"]
    assert (history[-1]["before"]["bidder"], history[-1]["after"]["bidder"]) == (
        first,
        second,
    )
    cleared = api.put(
        f"/api/v1/matches/{match.pk}/deals/1/",
        {**deal_body(1), "version": changed.json()["version"]},
        "json",
    )
    assert cleared.json()["bidder"] is None


def test_a_substitute_bids_from_his_round_on(match, organizer):
    """The roster after a substitution (rules.md §9; its approval is tested with the
    tournament day): the player who left no longer bids, the one who came does."""
    out = match.team_a.players.order_by("position")[2].name
    Substitution.objects.create(
        team=match.team_a,
        number=1,
        player_out=out,
        player_in="Late Comer",
        from_round=1,
        reason="flight",
        approved_at=timezone.now(),
    )
    deal, _ = services.score_sheet_deal_record(
        match_id=match.pk,
        user=organizer,
        version=None,
        bidder="late comer",
        **deal_body(1),
    )
    assert deal.bidder == "Late Comer"
    with pytest.raises(RuleError) as refused:
        services.score_sheet_deal_record(
            match_id=match.pk, user=organizer, version=None, bidder=out, **deal_body(2)
        )
    assert refused.value.field == "bidder"
    assert refused.value.code == "bidder_not_declarer"


def test_the_score_page_offers_the_players_and_shows_the_bidder(
    client, match, organizer
):
    client.force_login(organizer)
    page = client.get(f"/matches/{match.pk}/score/").content.decode()
    assert 'name="bidder"' in page and "Not recorded" in page
    for player in [*match.team_a.players.all(), *match.team_b.players.all()]:
        assert player.name in page
    player = match.team_a.players.first().name
    body = page_deal_body(match, bidder=player)
    assert client.post(f"/matches/{match.pk}/score/", body).status_code == 302
    assert Deal.objects.get(match=match).bidder == player
    assert f"by {player}" in client.get(f"/matches/{match.pk}/").content.decode()
