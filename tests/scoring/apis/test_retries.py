"""A scorer's phone on venue Wi-Fi sends a write, the answer is lost, and it sends the
same write again: the sheet changes once, and the retry is answered as if it were the
first (200, `Idempotent-Replayed: true`). By deal number for a deal; by the request's
Idempotency-Key for every write."""

import pytest

from scoring.models import Deal, Match, Penalty, SheetChange
from tests.conftest import as_user
from tests.scoring.apis.test_sheet import fill, sheet, url
from tests.scoring.conftest import deal_body

pytestmark = pytest.mark.django_db


def _post(api, match, tail, body, key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return api.post(url(match, tail), body, "json", **headers)


def test_the_same_deal_sent_twice_is_on_the_sheet_once(api, match, scorer):
    as_user(api, scorer)
    body = {**deal_body(1, "A", 40, "hearts", "none", 44), "version": 1}
    first = _post(api, match, "deals/", body)
    assert first.status_code == 201
    assert "Idempotent-Replayed" not in first

    again = _post(api, match, "deals/", body)  # the same body: version 1, now stale
    assert again.status_code == 200, again.data
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert Deal.objects.filter(match=match).count() == 1
    assert Match.objects.get(pk=match.pk).version == 2
    assert match.changes.filter(action="deal_add").count() == 1


def test_a_different_deal_under_a_taken_number_is_still_refused(api, match, scorer):
    as_user(api, scorer)
    _post(api, match, "deals/", {**deal_body(1, taken=44), "version": 1})
    stale = _post(api, match, "deals/", {**deal_body(1, taken=20), "version": 1})
    assert stale.status_code == 409
    assert stale.json()["code"] == "stale_version"
    taken = _post(api, match, "deals/", {**deal_body(1, taken=20), "version": 2})
    assert taken.status_code == 409
    assert taken.json()["field"] == "number"
    assert "already on the sheet" in taken.json()["detail"]
    assert list(Deal.objects.filter(match=match).values_list("taken", flat=True)) == [
        44
    ]


def test_a_penalty_retried_with_its_key_is_recorded_once(api, match, scorer):
    as_user(api, scorer)
    version = fill(api, match)
    body = {"deal": 9, "offender": "A", "kind": "kallakali", "version": version}
    first = _post(api, match, "penalties/", body, key="phone-7f3a-0001")
    assert first.status_code == 201, first.data
    again = _post(api, match, "penalties/", body, key="phone-7f3a-0001")
    assert again.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert again.json()["id"] == first.json()["id"]
    assert again.json()["version"] == version + 1
    assert Penalty.objects.filter(deal__match=match).count() == 1
    assert sheet(api, match)["total_b"] == first.json()["match"]["total_b"]


def test_a_retry_without_a_key_is_refused_as_stale_and_changes_nothing(
    api, match, scorer
):
    """Without a key the version still protects the sheet: the retry is a 409 that
    says to read the sheet again, never a second penalty."""
    as_user(api, scorer)
    version = fill(api, match)
    body = {"deal": 9, "offender": "A", "kind": "kallakali", "version": version}
    assert _post(api, match, "penalties/", body).status_code == 201
    again = _post(api, match, "penalties/", body)
    assert again.status_code == 409
    assert again.json()["code"] == "stale_version"
    assert Penalty.objects.filter(deal__match=match).count() == 1


def test_a_key_is_per_sheet_and_new_requests_need_new_keys(
    api, tournament, match, scorer, organizer, team, away_team
):
    from scoring.sheets import services

    other = services.match_create(
        tournament=tournament,
        user=organizer,
        team_a=away_team.pk,
        team_b=team.pk,
        round=2,
        table=1,
    )
    as_user(api, scorer)
    body = {**deal_body(1), "version": 1}
    assert _post(api, match, "deals/", body, key="k-1").status_code == 201
    assert _post(api, other, "deals/", body, key="k-1").status_code == 201
    # the same key on a new request of the same sheet is taken as the old request
    replay = _post(api, match, "deals/", {**deal_body(2), "version": 2}, key="k-1")
    assert replay.status_code == 200
    assert Deal.objects.filter(match=match).count() == 1


def test_confirm_and_deal_delete_retried_are_done_once(
    api, match, scorer, captain, away_captain
):
    as_user(api, scorer)
    version = fill(api, match)
    gone = api.delete(
        url(match, f"deals/18/?version={version}"), HTTP_IDEMPOTENCY_KEY="del-18"
    )
    assert gone.status_code == 200
    again = api.delete(
        url(match, f"deals/18/?version={version}"), HTTP_IDEMPOTENCY_KEY="del-18"
    )
    assert again.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert again.json()["version"] == version + 1
    assert Deal.objects.filter(match=match).count() == 17
    back = {**deal_body(18, "B", 28, "clubs", "none", 27), "version": version + 1}
    version = _post(api, match, "deals/", back).json()["version"]

    as_user(api, captain)
    body = {"version": version}
    assert _post(api, match, "confirm/", body, key="cap-a").status_code == 200
    replay = _post(api, match, "confirm/", body, key="cap-a")
    assert replay.status_code == 200
    assert replay["Idempotent-Replayed"] == "true"
    assert match.changes.filter(action="confirm").count() == 1


@pytest.mark.parametrize("key", ["", "x" * 101, "tab\there", "clé"])
def test_a_malformed_key_is_refused_by_name(api, match, scorer, key):
    as_user(api, scorer)
    answer = _post(api, match, "deals/", {**deal_body(1), "version": 1}, key=key)
    if key == "":  # an empty header is no key at all
        assert answer.status_code == 201
        return
    assert answer.status_code == 400
    assert "Idempotency-Key" in answer.json()
    assert not Deal.objects.filter(match=match).exists()
    assert not SheetChange.objects.filter(match=match, action="deal_add").exists()
