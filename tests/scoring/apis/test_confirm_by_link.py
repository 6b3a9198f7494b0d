"""Confirmation by links (rules.md §7, docs/links.md): a team's link stands in for
its captain, in every order with the other team's link, its captain's account or an
organizer; the sheet locks, the history names each link, and every record that
keeps who did something takes a link holder without an account."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from brackets.models import Game, KnockoutMatch
from brackets.services import knockout_seed
from scoring.links.services import links_ensure
from scoring.models import Match, SheetChange
from tests.brackets.knockout import final_league
from tests.conftest import as_user
from tests.factories import TournamentFactory, member
from tests.scoring.league import deals_for, drawn_league, link_key, play_quickly
from tournament.domain.types import Role
from tournament.models import Membership

pytestmark = pytest.mark.django_db


@pytest.fixture
def sheet():
    """A league of 8 teams, round 1 released; table 1's sheet played to its end
    (4 deals), waiting for the captains."""
    tournament = TournamentFactory(slug="confirming", league_rounds=3, league_deals=4)
    organizer = member(tournament, Role.ORGANIZER, "org")
    drawn_league(tournament, organizer, sections=2, per_section=4)
    links_ensure(tournament=tournament, tables=4)
    match = Match.objects.get(tournament=tournament, round=1, table=1)
    play_quickly(match.pk, organizer, 9, 6, deals=4)
    match.refresh_from_db()
    assert match.status == "completed"
    return match, organizer


def _by_link(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Link {key}")
    return client


def _confirmer(match: Match, organizer, who: str) -> APIClient:
    """`team_a`/`team_b`: that team's link; `captain_a`/`captain_b`: the captain's
    account; `organizer`: the organizer's."""
    kind, _, side = who.partition("_")
    team = match.team_a if side == "a" else match.team_b
    if kind == "team":
        return _by_link(link_key(match.tournament, team=team))
    if kind == "captain":
        return as_user(APIClient(), _captain(team))
    return as_user(APIClient(), organizer)


def _captain(team):
    """The team's captain's account, made when first asked for."""
    found = Membership.objects.filter(team=team, role=Role.CAPTAIN).first()
    if found is not None:
        return found.user
    return member(team.tournament, Role.CAPTAIN, f"cap-{team.pk}", team=team)


def _confirm(client: APIClient, match: Match):
    version = client.get(f"/api/v1/matches/{match.pk}/").json()["version"]
    return client.post(
        f"/api/v1/matches/{match.pk}/confirm/", {"version": version}, "json"
    )


@pytest.mark.parametrize(
    "first, second",
    [
        ("team_a", "team_b"),
        ("team_b", "team_a"),
        ("team_a", "captain_b"),
        ("captain_a", "team_b"),
        ("team_b", "captain_a"),
    ],
)
def test_both_sides_confirm_by_link_or_account_and_the_sheet_locks(
    sheet, first, second
):
    match, organizer = sheet
    answer = _confirm(_confirmer(match, organizer, first), match)
    assert answer.status_code == 200, answer.json()
    assert answer.json()["status"] == "completed"
    answer = _confirm(_confirmer(match, organizer, second), match)
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert (body["status"], body["confirmed_a"], body["confirmed_b"]) == (
        "confirmed",
        True,
        True,
    )
    match.refresh_from_db()
    assert match.status == "confirmed" and match.confirmed_at is not None
    # A link has no account: the lock keeps none, the history keeps its name.
    names = {
        "team_a": f"{match.team_a.name} team link",
        "team_b": f"{match.team_b.name} team link",
        "captain_a": _captain(match.team_a).username,
        "captain_b": _captain(match.team_b).username,
    }
    rows = list(
        SheetChange.objects.filter(match=match, action__in=["confirm", "lock"])
        .order_by("pk")
        .values_list("action", "actor_name", "actor_id")
    )
    assert [(a, n) for a, n, _ in rows] == [
        ("confirm", names[first]),
        ("confirm", names[second]),
        ("lock", names[second]),
    ]
    for action, name, actor in rows:
        assert (actor is None) == name.endswith("team link"), (action, name)
    if second.startswith("team"):
        assert match.confirmed_by is None
    else:
        assert match.confirmed_by.username == names[second]
    # The sheet is locked: the links can no longer confirm or change it.
    again = _confirm(_confirmer(match, organizer, first), match)
    assert again.status_code == 409 and again.json()["code"] == "sheet_locked"


def test_an_organizer_locks_a_sheet_a_link_confirmed(sheet):
    match, organizer = sheet
    assert _confirm(_confirmer(match, organizer, "team_a"), match).status_code == 200
    answer = _confirm(_confirmer(match, organizer, "organizer"), match)
    assert answer.status_code == 200 and answer.json()["status"] == "confirmed"
    match.refresh_from_db()
    assert match.confirmed_by == organizer


def test_a_link_confirms_again_after_a_change_and_the_sheet_locks(sheet):
    """A confirmation goes stale with a change; the link confirms the new version."""
    match, organizer = sheet
    team_a, team_b = (_confirmer(match, organizer, w) for w in ("team_a", "team_b"))
    assert _confirm(team_a, match).status_code == 200
    as_user(APIClient(), organizer).put(
        f"/api/v1/matches/{match.pk}/deals/4/",
        {**deals_for(9, 6, deals=4)[3], "number": 4, "version": match.version},
        "json",
    )
    assert _confirm(team_b, match).json()["status"] == "completed"
    assert _confirm(team_a, match).json()["status"] == "confirmed"


def test_links_confirm_a_knockout_final_and_the_winner_moves_on():
    """The lock's followers (the bracket moving the winner on, opening sheets) take a
    link holder as the actor, without an account."""
    tournament, organizer = final_league(2, 4, qualifiers=4, slug="link-cup")
    knockout_seed(tournament=tournament, user=organizer)
    links_ensure(tournament=tournament, tables=4)
    game = (
        Game.objects.filter(knockout_match__bracket__tournament=tournament)
        .select_related("sheet")
        .order_by("knockout_match__round", "knockout_match__number")
        .first()
    )
    sheet = game.sheet
    play_quickly(sheet.pk, organizer, 30, 20, deals=sheet.deals_scheduled)
    sheet.refresh_from_db()
    for team in (sheet.team_a, sheet.team_b):
        answer = _confirm(_by_link(link_key(tournament, team=team)), sheet)
        assert answer.status_code == 200, answer.json()
    sheet.refresh_from_db()
    assert sheet.status == "confirmed"
    knockout_match = KnockoutMatch.objects.get(pk=game.knockout_match_id)
    assert knockout_match.winner == "A"
    later = KnockoutMatch.objects.filter(
        bracket=knockout_match.bracket, team_a=sheet.team_a
    ).exclude(pk=knockout_match.pk)
    assert later.exists()


def test_a_team_link_checks_in_and_disputes_without_an_account(sheet):
    match, organizer = sheet
    tournament = match.tournament
    tournament.check_in_required = True
    tournament.save(update_fields=["check_in_required"])
    team = _by_link(link_key(tournament, team=match.team_b))
    checked = team.post(
        f"/api/v1/tournaments/{tournament.slug}/teams/{match.team_b_id}/check-in/"
    )
    assert checked.status_code == 200, checked.json()
    match.team_b.refresh_from_db()
    assert match.team_b.checked_in_at is not None
    assert match.team_b.checked_in_by is None
    raised = team.post(
        f"/api/v1/matches/{match.pk}/disputes/", {"deal": 2, "text": "ours"}, "json"
    )
    assert raised.status_code == 201, raised.json()
    assert raised.json()["raised_by"] == f"{match.team_b.name} team link"
    ruled = as_user(APIClient(), organizer).post(
        f"/api/v1/matches/{match.pk}/disputes/{raised.json()['id']}/rule/",
        {"ruling": "The sheet stands."},
        "json",
    )
    assert ruled.status_code == 200, ruled.json()
    # Confirmed by both links after the ruling.
    for side in ("team_a", "team_b"):
        assert _confirm(_confirmer(match, organizer, side), match).status_code == 200
    match.refresh_from_db()
    assert match.status == "confirmed"


def test_a_table_link_enters_corrects_and_penalizes_without_an_account(sheet):
    """Every write a table link makes keeps no account and names the link."""
    match, _ = sheet
    table = _by_link(link_key(match.tournament, table=match.table))
    url = f"/api/v1/matches/{match.pk}/"
    version = table.get(url).json()["version"]
    body = {**deals_for(9, 6, deals=4)[3], "number": 4, "version": version}
    changed = table.put(url + "deals/4/", {**body, "taken": 0}, "json")
    assert changed.status_code == 200, changed.json()
    version = changed.json()["version"]
    added = table.post(
        url + "penalties/",
        {"deal": 2, "offender": "B", "kind": "kallakali", "version": version},
        "json",
    )
    assert added.status_code == 201, added.json()
    penalty = added.json()
    removed = table.delete(
        url + f"penalties/{penalty['id']}/?version={penalty['version']}"
    )
    assert removed.status_code in (200, 204), removed.content
    rows = SheetChange.objects.filter(
        match=match, action__in=["deal_replace", "penalty_add", "penalty_delete"]
    )
    assert rows.count() == 3
    assert {r.actor_name for r in rows} == {f"table {match.table} link"}
    assert all(r.actor_id is None for r in rows)
    assert match.deals.get(number=4).entered_by is None
