"""Confirmation (rules.md §7): both captains confirm the same version, or an
organizer does; the sheet locks; only an organizer reopens it, with a reason."""

import pytest

from scoring.models import Match, SheetChange
from tests.conftest import as_user
from tests.scoring.conftest import deal_body

pytestmark = pytest.mark.django_db


def url(match, tail=""):
    return f"/api/v1/matches/{match.pk}/{tail}"


@pytest.fixture
def short_match(tournament, team, away_team, organizer):
    from scoring.sheets import services

    return services.match_create(
        tournament=tournament,
        user=organizer,
        team_a=team.pk,
        team_b=away_team.pk,
        round=2,
        table=1,
        deals_scheduled=2,
    )


@pytest.fixture
def completed(api, short_match, scorer):
    as_user(api, scorer)
    api.post(url(short_match, "deals/"), {**deal_body(1), "version": 1}, "json")
    api.post(url(short_match, "deals/"), {**deal_body(2), "version": 2}, "json")
    got = api.get(url(short_match)).json()
    assert (got["status"], got["version"], got["winner"]) == ("completed", 3, "A")
    return short_match


def confirm(api, user, match, version):
    as_user(api, user)
    return api.post(url(match, "confirm/"), {"version": version}, "json")


def test_both_captains_confirm_the_same_version_and_the_sheet_locks(
    api, completed, captain, away_captain, scorer
):
    response = confirm(api, captain, completed, 3)
    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["confirmed_a"], body["confirmed_b"]) == (
        "completed",
        True,
        False,
    )
    response = confirm(api, away_captain, completed, 3)
    body = response.json()
    assert (body["status"], body["version"]) == ("confirmed", 4)
    assert body["confirmed_at"]
    # Locked: the scorer's change is refused and changes nothing.
    as_user(api, scorer)
    response = api.put(
        url(completed, "deals/2/"), {**deal_body(2, taken=0), "version": 4}, "json"
    )
    assert response.status_code == 409
    assert "confirmed and locked" in response.json()["detail"]
    assert api.get(url(completed)).json()["total_a"] == 4
    actions = list(
        SheetChange.objects.filter(match=completed).values_list("action", flat=True)
    )
    assert actions[-3:] == ["confirm", "confirm", "lock"]


def test_a_change_after_one_confirmation_makes_it_stale(
    api, completed, captain, away_captain, scorer
):
    confirm(api, captain, completed, 3)
    as_user(api, scorer)
    api.put(
        url(completed, "deals/2/"), {**deal_body(2, taken=30), "version": 3}, "json"
    )
    response = confirm(api, away_captain, completed, 4)
    body = response.json()
    assert (body["status"], body["confirmed_a"], body["confirmed_b"]) == (
        "completed",
        False,
        True,
    )
    response = confirm(api, captain, completed, 3)
    assert response.status_code == 409 and response.json()["code"] == "stale_version"
    assert confirm(api, captain, completed, 4).json()["status"] == "confirmed"


def test_an_organizer_confirms_at_once_and_reopens_with_a_reason(
    api, completed, organizer, captain
):
    response = confirm(api, organizer, completed, 3)
    assert response.json()["status"] == "confirmed"
    as_user(api, captain)
    response = api.post(url(completed, "reopen/"), {"reason": "wrong"}, "json")
    assert response.status_code == 403
    as_user(api, organizer)
    response = api.post(url(completed, "reopen/"), {"reason": "  "}, "json")
    assert response.status_code == 400 and "say why" in response.json()["reason"][0]
    response = api.post(
        url(completed, "reopen/"), {"reason": "Deal 2 was 40 hearts, not clubs"}, "json"
    )
    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["version"]) == ("completed", 5)
    assert (body["confirmed_a"], body["confirmed_b"]) == (False, False)
    last = SheetChange.objects.filter(match=completed).last()
    assert (last.action, last.reason, last.actor_name) == (
        "reopen",
        "Deal 2 was 40 hearts, not clubs",
        "org",
    )
    response = api.post(url(completed, "reopen/"), {"reason": "again"}, "json")
    assert response.status_code == 409


def test_an_incomplete_sheet_is_not_confirmed(api, short_match, scorer, organizer):
    as_user(api, scorer)
    api.post(url(short_match, "deals/"), {**deal_body(2), "version": 1}, "json")
    response = confirm(api, organizer, short_match, 2)
    assert response.status_code == 409
    assert "deal 1 is not on the sheet yet" in response.json()["detail"]
    assert Match.objects.get(pk=short_match.pk).status == "in_progress"


@pytest.mark.parametrize("version", [3, 1])
@pytest.mark.parametrize("who", ["scorer", "outsider"])
def test_only_captains_and_organizers_confirm(
    api, completed, scorer, outsider, who, version
):
    """403 whatever the version: who may confirm is answered before whether the
    sheet moved on (a stale version is not a 409 for someone who may not confirm)."""
    user = {"scorer": scorer, "outsider": outsider}[who]
    response = confirm(api, user, completed, version)
    assert response.status_code == 403
    assert Match.objects.get(pk=completed.pk).confirmed_a_version is None


def test_a_captain_of_another_team_does_not_confirm(
    api, completed, tournament, sections
):
    from tests.factories import TeamFactory, member
    from tournament.domain.types import Role

    other = member(
        tournament, Role.CAPTAIN, "cap-c", team=TeamFactory(section=sections["midwest"])
    )
    response = confirm(api, other, completed, 3)
    assert response.status_code == 403
    assert (
        "only the captains of Edison Aces and Chicago Jacks"
        in response.json()["detail"]
    )
