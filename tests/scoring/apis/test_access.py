"""Who may do what on a score sheet, and how many queries each answer takes."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.models import Match
from scoring.sheets import services
from tests.conftest import as_user
from tests.factories import TeamFactory
from tests.scoring.conftest import deal_body

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "outsider", "captain", "scorer", "organizer"]


@pytest.fixture
def people(outsider, captain, scorer, organizer):
    return {
        "anonymous": None,
        "outsider": outsider,
        "captain": captain,
        "scorer": scorer,
        "organizer": organizer,
    }


# What each role gets: (method, path tail, body) → statuses in ROLES order.
WRITES = {
    "add a deal": (
        "post",
        "deals/",
        {**deal_body(1), "version": 1},
        [401, 403, 403, 201, 201],
    ),
    "add a penalty": (
        "post",
        "penalties/",
        {"deal": 1, "offender": "A", "kind": "kallakali", "version": 1},
        [401, 403, 403, 400, 400],  # 400: allowed, but there is no deal 1 yet
    ),
    "reopen": ("post", "reopen/", {"reason": "x"}, [401, 403, 403, 403, 409]),
    "confirm": ("post", "confirm/", {"version": 1}, [401, 403, 409, 403, 409]),
    "delete the match": ("delete", "", None, [401, 403, 403, 403, 204]),
}


@pytest.mark.parametrize("action", sorted(WRITES))
@pytest.mark.parametrize("role", ROLES)
def test_writes_by_role(api, match, people, action, role):
    method, tail, body, statuses = WRITES[action]
    if people[role] is not None:
        as_user(api, people[role])
    response = getattr(api, method)(f"/api/v1/matches/{match.pk}/{tail}", body, "json")
    assert response.status_code == statuses[ROLES.index(role)], response.data


@pytest.mark.parametrize("role", ROLES)
def test_creating_a_match_by_hand_is_for_organizers(
    api, tournament, people, team, away_team, role
):
    if people[role] is not None:
        as_user(api, people[role])
    body = {"team_a": team.pk, "team_b": away_team.pk, "round": 3, "table": 4}
    response = api.post(f"/api/v1/tournaments/{tournament.slug}/matches/", body, "json")
    expected = {"anonymous": 401, "organizer": 201}.get(role, 403)
    assert response.status_code == expected, response.data
    if expected == 201:
        got = response.json()
        assert (got["team_a_name"], got["team_b_name"]) == (
            "Edison Aces",
            "Chicago Jacks",
        )
        assert (got["deals_scheduled"], got["status"], got["version"]) == (
            18,
            "scheduled",
            1,
        )


@pytest.mark.parametrize(
    ("change", "status", "field", "says"),
    [
        ({"team_b": "same"}, 400, "team_b", "cannot play itself"),
        ({"team_b": "same_section"}, 400, "team_b", "own section"),
        ({"team_a": 999999}, 400, "team_a", "no team 999999"),
        ({"round": 9}, 400, "round", "rounds 1 to 8"),
        ({"table": 1}, 409, "table", "already has a match"),
    ],
)
def test_refused_matches(
    api, match, organizer, sections, team, change, status, field, says
):
    as_user(api, organizer)
    body = {"team_a": team.pk, "team_b": 0, "round": 1, "table": 2}
    other = TeamFactory(section=sections["midwest"], name="Detroit Nines")
    body["team_b"] = other.pk
    if change.get("team_b") == "same":
        change = {"team_b": team.pk}
    elif change.get("team_b") == "same_section":
        change = {"team_b": TeamFactory(section=sections["tri"], name="Newark Ones").pk}
    body |= change
    if field == "table":
        body["round"] = 2
        body["table"] = 1
        services.match_create(
            tournament=match.tournament,
            user=organizer,
            team_a=other.pk,
            team_b=TeamFactory(section=sections["chicago"]).pk,
            round=2,
            table=1,
        )
    response = api.post(
        f"/api/v1/tournaments/{match.tournament.slug}/matches/", body, "json"
    )
    assert response.status_code == status, response.data
    if status == 400:
        assert says in " ".join(response.json()[field])
    else:  # every error but bad input is {detail, code, …}, naming its field
        assert response.json()["field"] == field
        assert says in response.json()["detail"]


def test_a_team_plays_once_per_round(api, match, organizer, sections, team):
    as_user(api, organizer)
    other = TeamFactory(section=sections["midwest"])
    body = {"team_a": team.pk, "team_b": other.pk, "round": 1, "table": 2}
    response = api.post(
        f"/api/v1/tournaments/{match.tournament.slug}/matches/", body, "json"
    )
    assert response.status_code == 409
    assert "one match per round" in response.json()["detail"]
    assert Match.objects.count() == 1


def test_an_unpublished_tournament_hides_its_sheets(
    api, match, tournament, outsider, scorer
):
    tournament.published = False
    tournament.save()
    assert api.get(f"/api/v1/matches/{match.pk}/").status_code == 404
    as_user(api, outsider)
    assert api.get(f"/api/v1/matches/{match.pk}/history/").status_code == 404
    as_user(api, scorer)
    assert api.get(f"/api/v1/matches/{match.pk}/").status_code == 200


def test_a_scorer_of_another_tournament_cannot_write(api, match, other_tournament):
    from tests.factories import member
    from tournament.domain.types import Role

    stranger = member(other_tournament, Role.SCORER, "stranger")
    as_user(api, stranger)
    response = api.post(
        f"/api/v1/matches/{match.pk}/deals/", {**deal_body(1), "version": 1}
    )
    assert response.status_code == 403


# Queries
# ----------------------------------------------------------------------------------


def _fill(match, user, count):
    version = Match.objects.get(pk=match.pk).version
    for number in range(1, count + 1):
        _, m = services.score_sheet_deal_record(
            match_id=match.pk, user=user, version=version, **deal_body(number)
        )
        version = m.version
    services.score_sheet_penalty_record(
        match_id=match.pk,
        user=user,
        version=version,
        deal=1,
        offender="B",
        kind="out_of_turn",
        by_organizer=False,
    )


def _queries(api, method, path, body=None):
    with CaptureQueriesContext(connection) as queries:
        response = getattr(api, method)(path, body, "json")
    assert response.status_code < 300, response.data
    return len(queries)


@pytest.mark.parametrize(
    ("path", "limit"),
    [
        # match, roles, deals, penalties, the roster (players, substitutions)
        ("/api/v1/matches/{pk}/", 6),
        ("/api/v1/matches/{pk}/history/", 4),  # match, roles, count, page
        (
            "/api/v1/tournaments/spring-open/matches/",
            4,
        ),  # tournament, roles, count, page
    ],
)
def test_reads_take_a_constant_number_of_queries(
    api, match, scorer, sections, path, limit
):
    as_user(api, scorer)
    _fill(match, scorer, 1)
    small = _queries(api, "get", path.format(pk=match.pk))
    other = services.match_create(
        tournament=match.tournament,
        user=scorer,
        team_a=TeamFactory(section=sections["tri"]).pk,
        team_b=TeamFactory(section=sections["midwest"]).pk,
        round=1,
        table=2,
    )
    _fill(other, scorer, 17)
    big = match if "matches/{pk}" not in path else other
    large = _queries(api, "get", path.format(pk=big.pk))
    assert small == large <= limit, (small, large)


def test_recording_a_deal_takes_a_constant_number_of_queries(api, match, scorer):
    as_user(api, scorer)
    _fill(match, scorer, 2)
    version = Match.objects.get(pk=match.pk).version
    early = _queries(
        api,
        "post",
        f"/api/v1/matches/{match.pk}/deals/",
        {**deal_body(3), "version": version},
    )
    for i in range(12):  # the sheet grows from 3 deals to 15
        services.score_sheet_deal_record(
            match_id=match.pk, user=scorer, version=version + 1 + i, **deal_body(4 + i)
        )
    version = Match.objects.get(pk=match.pk).version
    late = _queries(
        api,
        "post",
        f"/api/v1/matches/{match.pk}/deals/",
        {**deal_body(16), "version": version},
    )
    assert early == late, (early, late)
    # the access check (the match and the roles in one); savepoint, lock (with the
    # tournament and the teams' names), deals, penalties (read only when the sheet
    # has some: this one has), insert, update match, its stored tallies (delete,
    # count again: scoring/sheets/tallies.py), history, release: plain queries
    # where the ORM's would cost more to build (docs/performance.md). The answer
    # reuses the sheet the write computed.
    assert late <= 11, late
