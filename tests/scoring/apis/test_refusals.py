"""Bad input and writes the rules refuse: a clear answer naming the field or the rule,
and the sheet exactly as it was (read back after every refusal)."""

import pytest

from scoring.models import Deal, Penalty, SheetChange
from tests.conftest import as_user
from tests.scoring.conftest import deal_body

pytestmark = pytest.mark.django_db


def url(match, tail=""):
    return f"/api/v1/matches/{match.pk}/{tail}"


@pytest.fixture
def started(api, match, scorer):
    """A sheet with deal 1 on it (version 2), as the scorer sees it."""
    as_user(api, scorer)
    response = api.post(url(match, "deals/"), {**deal_body(1), "version": 1}, "json")
    assert response.status_code == 201
    return api.get(url(match)).json()


def unchanged(api, match, before):
    after = api.get(url(match)).json()
    assert after == before
    assert SheetChange.objects.filter(match=match).count() == 2


def without(body, field):
    return {k: v for k, v in body.items() if k != field}


GOOD = {**deal_body(2), "version": 2}


@pytest.mark.parametrize(
    ("body", "field", "says"),
    [
        (without(GOOD, "number"), "number", "required"),
        (without(GOOD, "declarer"), "declarer", "required"),
        (without(GOOD, "value"), "value", "required"),
        (without(GOOD, "trump"), "trump", "required"),
        (without(GOOD, "taken"), "taken", "required"),
        (without(GOOD, "version"), "version", "required"),
        ({**GOOD, "value": 27}, "value", "28 to 56"),
        ({**GOOD, "value": 57}, "value", "28 to 56"),
        ({**GOOD, "taken": 57}, "taken", "0 to 56"),
        ({**GOOD, "taken": -1}, "taken", "0 to 56"),
        ({**GOOD, "number": 19}, "number", "deals 1 to 18"),
        ({**GOOD, "number": 0}, "number", "deals 1 to 18"),
        ({**GOOD, "trump": "stars"}, "trump", "use one of clubs"),
        ({**GOOD, "level": "tripled"}, "level", "use one of none, doubled"),
        ({**GOOD, "declarer": "C"}, "declarer", "use one of A, B"),
        ({**GOOD, "value": "forty"}, "value", "valid integer"),
    ],
)
def test_bad_deal_is_refused_naming_the_field(api, match, started, body, field, says):
    response = api.post(url(match, "deals/"), body, "json")
    assert response.status_code == 400, response.data
    assert says in " ".join(response.json()[field])
    unchanged(api, match, started)


def test_every_wrong_field_is_named_at_once(api, match, started):
    body = {**GOOD, "value": 60, "taken": 70, "number": 40}
    response = api.post(url(match, "deals/"), body, "json")
    assert response.status_code == 400
    assert set(response.json()) == {"value", "taken", "number"}
    unchanged(api, match, started)


def test_a_deal_number_twice_is_a_conflict(api, match, started):
    """A different deal under a number already on the sheet (the same deal again is
    a retry, answered as done: test_retries.py)."""
    body = {**deal_body(1, taken=20), "version": 2}
    response = api.post(url(match, "deals/"), body, "json")
    assert response.status_code == 409
    assert response.json()["field"] == "number"
    assert "already on the sheet" in response.json()["detail"]
    unchanged(api, match, started)


def test_a_stale_version_changes_nothing(api, match, started, organizer):
    response = api.post(url(match, "deals/"), {**deal_body(2), "version": 1}, "json")
    assert response.status_code == 409
    body = response.json()
    assert (body["code"], body["current_version"]) == ("stale_version", 2)
    assert "Nothing was saved" in body["detail"]
    unchanged(api, match, started)
    for method, path, data in (
        ("put", "deals/1/", {**deal_body(1, taken=0), "version": 1}),
        ("delete", "deals/1/", {"version": 1}),
        (
            "post",
            "penalties/",
            {"deal": 1, "offender": "A", "kind": "kallakali", "version": 1},
        ),
    ):
        response = getattr(api, method)(url(match, path), data, "json")
        assert response.status_code == 409, (method, path, response.data)
    # Confirming is the organizer's (or a captain's): the scorer is refused first.
    as_user(api, organizer)
    response = api.post(url(match, "confirm/"), {"version": 1}, "json")
    assert response.status_code == 409, response.data
    unchanged(api, match, started)


@pytest.mark.parametrize(
    ("body", "status", "field", "says"),
    [
        ({"deal": 7, "offender": "A", "kind": "kallakali"}, 400, "deal", "no deal 7"),
        ({"deal": 1, "offender": "C", "kind": "kallakali"}, 400, "offender", "A, B"),
        ({"deal": 1, "offender": "A", "kind": "rudeness"}, 400, "kind", "conduct"),
        (
            {"deal": 1, "offender": "A", "kind": "kallakali", "points": 1},
            400,
            "points",
            "leave points out",
        ),
        ({"offender": "A", "kind": "kallakali"}, 400, "deal", "required"),
    ],
)
def test_bad_penalty_is_refused(api, match, started, body, status, field, says):
    response = api.post(url(match, "penalties/"), {**body, "version": 2}, "json")
    assert response.status_code == status, response.data
    assert says in " ".join(response.json()[field])
    unchanged(api, match, started)
    assert Penalty.objects.count() == 0


def test_replace_or_delete_of_a_missing_deal(api, match, started):
    response = api.put(url(match, "deals/5/"), {**deal_body(5), "version": 2}, "json")
    assert response.status_code == 409
    assert response.json()["field"] == "number"
    assert "no deal 5" in response.json()["detail"]
    response = api.put(url(match, "deals/1/"), {**deal_body(2), "version": 2}, "json")
    assert response.status_code == 400
    assert "address names deal 1" in response.json()["number"][0]
    response = api.delete(url(match, "deals/5/?version=2"))
    assert response.status_code == 409
    response = api.delete(url(match, "deals/1/"))
    assert response.status_code == 400 and "version" in response.json()
    unchanged(api, match, started)


def test_an_unknown_match_is_404(api, scorer, db):
    as_user(api, scorer)
    assert api.get("/api/v1/matches/999999/").status_code == 404
    response = api.post("/api/v1/matches/999999/deals/", {**deal_body(1), "version": 1})
    assert response.status_code == 404


def test_a_tables_match_takes_no_deal_once_a_team_is_out(
    api, tournament, scorer, organizer, team, away_team
):
    from scoring.sheets import services

    tournament.ruleset, tournament.league_deals = "tables", None
    tournament.save()
    match = services.match_create(
        tournament=tournament,
        user=organizer,
        team_a=team.pk,
        team_b=away_team.pk,
        round=1,
        table=2,
    )
    as_user(api, scorer)
    version = 1
    # 56 redoubled made: A receives 4 × 4 = 16 tables from B, which had 12.
    response = api.post(
        url(match, "deals/"),
        {**deal_body(1, value=56, level="redoubled", taken=56), "version": version},
        "json",
    )
    assert response.status_code == 201
    got = api.get(url(match)).json()
    assert (got["total_a"], got["total_b"], got["winner"], got["status"]) == (
        28,
        -4,
        "A",
        "completed",
    )
    response = api.post(
        url(match, "deals/"), {**deal_body(2), "version": got["version"]}, "json"
    )
    assert response.status_code == 409 and response.json()["code"] == "match_over"
    assert Deal.objects.filter(match=match).count() == 1
