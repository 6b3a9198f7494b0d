"""Table and team links through the API (API.md "Table and team links";
docs/links.md): the organizer's list and renewal, `Authorization: Link <key>`, what
each link reaches as rounds are released, and what the history says."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.league import services as league_services
from scoring.models import LeagueRound, Match
from tests.conftest import as_user
from tests.factories import TournamentFactory, member
from tests.scoring.league import deals_for, drawn_league, enter, play_quickly
from tournament.domain.types import Role
from tournament.models import Link
from tournament.web.links import key_digest, link_find

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    """A league of 8 teams in 2 sections (4 tables a round), drawn, not released."""
    tournament = TournamentFactory(slug="links", league_rounds=3, league_deals=4)
    organizer = member(tournament, Role.ORGANIZER, "org")
    drawn_league(tournament, organizer, sections=2, per_section=4)
    return tournament, organizer


def _links(organizer, slug: str = "links") -> dict:
    answer = as_user(APIClient(), organizer).get(f"/api/v1/tournaments/{slug}/links/")
    assert answer.status_code == 200, answer.json()
    return answer.json()


def _by_link(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Link {key}")
    return client


def _table(data: dict, table: int) -> dict:
    return next(t for t in data["tables"] if t["table"] == table)


def test_the_organizer_gets_a_link_per_table_and_team(league, api):
    tournament, organizer = league
    data = _links(organizer)
    assert [t["table"] for t in data["tables"]] == [1, 2, 3, 4]
    assert len(data["teams"]) == 8
    assert {t["team_name"] for t in data["teams"]} == set(
        tournament.teams.values_list("name", flat=True)
    )
    first = data["tables"][0]
    assert len(first["key"]) >= 43  # 256 random bits
    assert first["url"] == f"http://testserver/l/{first['key']}/"
    assert first["qr"] == f"http://testserver/l/{first['key']}/qr.svg"
    # Asked again: the same links, none made twice.
    assert _links(organizer) == data
    assert Link.objects.filter(tournament=tournament).count() == 12
    # Stored: the key for the cards, and its digest for the lookup.
    link = Link.objects.get(tournament=tournament, table=1)
    assert link.key_digest == key_digest(first["key"])
    qr = api.get(f"/l/{first['key']}/qr.svg")
    assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml"
    assert qr.content.lstrip().startswith(b"<?xml") and b"<svg" in qr.content


def test_only_an_organizer_lists_or_renews(league, api):
    tournament, _ = league
    scorer = member(tournament, Role.SCORER, "scorer")
    assert api.get("/api/v1/tournaments/links/links/").status_code == 401
    scoring = as_user(APIClient(), scorer)
    assert scoring.get("/api/v1/tournaments/links/links/").status_code == 403
    refused = scoring.post("/api/v1/tournaments/links/links/renew/", {"table": 1})
    assert refused.status_code == 403


def test_a_table_link_enters_its_tables_sheet_and_moves_on_with_the_rounds():
    tournament = TournamentFactory(slug="moves", league_rounds=3, league_deals=4)
    organizer = member(tournament, Role.ORGANIZER, "org")
    drawn_league(tournament, organizer, sections=2, per_section=4)
    # Only round 1 is out: take rounds 2 and 3 back to drafts.
    LeagueRound.objects.filter(tournament=tournament, number__gt=1).update(
        released_at=None
    )
    key = _table(_links(organizer, "moves"), 2)["key"]
    table = _by_link(key)
    first = Match.objects.get(tournament=tournament, round=1, table=2)
    sheet = enter(table, first.pk, deals_for(9, 6, 4))
    assert (sheet["status"], sheet["total_a"], sheet["total_b"]) == ("completed", 9, 6)
    history = table.get(f"/api/v1/matches/{first.pk}/history/").json()["results"]
    assert {row["actor"] for row in history if row["action"] == "deal_add"} == {
        "table 2 link"
    }
    assert all(d["entered_by"] is None for d in sheet["deals"])
    # Round 2's table 2 is a draft: not reached, not even seen.
    second = Match.objects.get(tournament=tournament, round=2, table=2)
    body = {**deals_for(7, 0)[0], "number": 1, "version": second.version}
    assert table.post(
        f"/api/v1/matches/{second.pk}/deals/", body, "json"
    ).status_code in (
        403,
        404,
    )
    league_services.league_round_release(
        tournament=tournament, user=organizer, number=2
    )
    made = table.post(f"/api/v1/matches/{second.pk}/deals/", body, "json")
    assert made.status_code == 201, made.json()
    # Round 1's sheet, not confirmed, is still the table's to correct.
    version = table.get(f"/api/v1/matches/{first.pk}/").json()["version"]
    fixed = table.put(
        f"/api/v1/matches/{first.pk}/deals/4/",
        {**deals_for(0, 6)[0], "number": 4, "version": version},
        "json",
    )
    assert fixed.status_code == 200, fixed.json()
    # Once confirmed, it is not.
    as_user(APIClient(), organizer).post(
        f"/api/v1/matches/{first.pk}/confirm/",
        {"version": fixed.json()["version"]},
        "json",
    )
    refused = table.delete(
        f"/api/v1/matches/{first.pk}/deals/4/?version={fixed.json()['version'] + 1}"
    )
    assert refused.status_code == 403
    assert "table 2" in refused.json()["detail"]
    assert refused.json()["code"] == "permission_denied"


def test_a_table_link_reaches_nothing_else(league):
    tournament, organizer = league
    data = _links(organizer)
    table = _by_link(_table(data, 1)["key"])
    other = Match.objects.get(tournament=tournament, round=1, table=2)
    own = Match.objects.filter(tournament=tournament, table=1).order_by("round").last()
    body = {**deals_for(7, 0)[0], "number": 1, "version": other.version}
    refused = table.post(f"/api/v1/matches/{other.pk}/deals/", body, "json")
    assert refused.status_code == 403
    assert refused.json()["detail"].startswith("A table link enters only the sheets")
    # Not a dispute, not a confirmation, not the tournament, not the links.
    assert (
        table.post(f"/api/v1/matches/{own.pk}/disputes/", {"text": "x"}).status_code
        == 403
    )
    assert (
        table.post(f"/api/v1/matches/{own.pk}/confirm/", {"version": 1}).status_code
        == 403
    )
    assert table.patch("/api/v1/tournaments/links/", {"venue": "x"}).status_code == 403
    assert table.get("/api/v1/tournaments/links/links/").status_code == 403
    assert table.get("/api/v1/tournaments/links/export.xlsx").status_code == 403
    # Reads stay what anyone's are.
    assert table.get(f"/api/v1/matches/{other.pk}/").status_code == 200


def test_renewing_stops_the_old_key_at_once(league):
    tournament, organizer = league
    old = _table(_links(organizer), 3)["key"]
    own = Match.objects.filter(tournament=tournament, table=3).order_by("round").last()
    assert _by_link(old).get(f"/api/v1/matches/{own.pk}/").status_code == 200
    renewed = as_user(APIClient(), organizer).post(
        "/api/v1/tournaments/links/links/renew/", {"table": 3}, "json"
    )
    assert renewed.status_code == 200
    new = renewed.json()
    assert new["table"] == 3 and new["team"] is None and new["key"] != old
    stale = _by_link(old).get(f"/api/v1/matches/{own.pk}/")
    assert stale.status_code == 401
    assert "renewed" in stale.json()["detail"]
    assert link_find(old) is None and link_find(new["key"]) is not None
    team = _links(organizer)["teams"][0]
    again = as_user(APIClient(), organizer).post(
        "/api/v1/tournaments/links/links/renew/", {"team": team["team"]}, "json"
    )
    assert again.json()["team"] == team["team"] and again.json()["key"] != team["key"]


@pytest.mark.parametrize(
    "body",
    [{}, {"table": 1, "team": 1}, {"table": 0}, {"table": "x"}, {"table": 99}],
)
def test_a_bad_renewal_names_its_field_and_changes_nothing(league, body):
    _, organizer = league
    _links(organizer)
    before = list(Link.objects.order_by("pk").values_list("key", flat=True))
    answer = as_user(APIClient(), organizer).post(
        "/api/v1/tournaments/links/links/renew/", body, "json"
    )
    assert answer.status_code == 400
    assert "table" in answer.json()
    assert list(Link.objects.order_by("pk").values_list("key", flat=True)) == before


@pytest.mark.parametrize(
    "header",
    ["Link", "Link a b", "Link " + "x" * 43, "Link " + "é" * 10, "link " + "y" * 200],
)
def test_a_bad_key_is_refused_as_such(league, header):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    answer = client.get("/api/v1/tournaments/links/")
    assert answer.status_code == 401
    assert answer.json()["code"] == "authentication_failed"
    assert answer["WWW-Authenticate"] == "Token"


def test_a_team_link_checks_in_confirms_and_disputes_for_its_team_only(league):
    tournament, organizer = league
    data = _links(organizer)
    match = Match.objects.get(tournament=tournament, round=1, table=1)
    play_quickly(match.pk, organizer, 9, 6, deals=4)
    mine = next(t for t in data["teams"] if t["team"] == match.team_a_id)
    theirs = next(t for t in data["teams"] if t["team"] == match.team_b_id)
    team = _by_link(mine["key"])
    version = team.get(f"/api/v1/matches/{match.pk}/").json()["version"]
    confirmed = team.post(f"/api/v1/matches/{match.pk}/confirm/", {"version": version})
    assert confirmed.status_code == 200, confirmed.json()
    assert confirmed.json()["confirmed_a"] and not confirmed.json()["confirmed_b"]
    assert confirmed.json()["version"] == version  # confirming changes no version
    dispute = _by_link(theirs["key"]).post(
        f"/api/v1/matches/{match.pk}/disputes/", {"deal": 2, "text": "deal 2 was ours"}
    )
    assert dispute.status_code == 201, dispute.json()
    assert dispute.json()["raised_by"] == f"{theirs['team_name']} team link"
    # Not a deal, not another team's sheet or check-in.
    body = {**deals_for(7, 0)[0], "number": 1, "version": version}
    assert team.put(f"/api/v1/matches/{match.pk}/deals/1/", body).status_code == 403
    elsewhere = (
        Match.objects.filter(tournament=tournament)
        .exclude(team_a=match.team_a)
        .exclude(team_b=match.team_a)
        .first()
    )
    assert (
        team.post(
            f"/api/v1/matches/{elsewhere.pk}/disputes/", {"text": "not ours"}
        ).status_code
        == 403
    )
    other_team = theirs["team"]
    assert (
        team.post(f"/api/v1/tournaments/links/teams/{other_team}/check-in/").status_code
        == 403
    )
    checked = team.post(f"/api/v1/tournaments/links/teams/{mine['team']}/check-in/")
    assert checked.status_code == 200 and checked.json()["checked_in"]


def test_links_work_while_the_tournament_is_unpublished(league):
    tournament, organizer = league
    data = _links(organizer)
    tournament.published = False
    tournament.save(update_fields=["published"])
    own = Match.objects.filter(tournament=tournament, table=1).order_by("round").last()
    other = Match.objects.get(tournament=tournament, round=1, table=2)
    table = _by_link(_table(data, 1)["key"])
    assert table.get(f"/api/v1/matches/{own.pk}/").status_code == 200
    assert table.get(f"/api/v1/matches/{other.pk}/").status_code == 404
    assert table.get("/api/v1/tournaments/links/").status_code == 404


def test_a_replayed_write_by_link_is_answered_not_doubled(league):
    tournament, organizer = league
    key = _table(_links(organizer), 4)["key"]
    own = Match.objects.filter(tournament=tournament, table=4).order_by("round").last()
    table = _by_link(key)
    body = {**deals_for(7, 0)[0], "number": 1, "version": own.version}
    headers = {"HTTP_IDEMPOTENCY_KEY": "queued-entry-1"}
    first = table.post(f"/api/v1/matches/{own.pk}/deals/", body, "json", **headers)
    again = table.post(f"/api/v1/matches/{own.pk}/deals/", body, "json", **headers)
    assert first.status_code == 201 and again.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert own.deals.count() == 1
