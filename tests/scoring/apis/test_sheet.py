"""A score sheet filled through the API, as a scorer's script or the page would."""

import re

import pytest

from scoring.models import Deal, Match, Penalty, SheetChange
from tests.conftest import as_user
from tests.scoring.conftest import deal_body

pytestmark = pytest.mark.django_db

# A hand-checked 18-deal international sheet: (declarer, value, trump, level, taken),
# and what it gives (side, points), worked out from rules.md §2 by hand.
HAND_CHECKED = [
    (("A", 28, "no_trump", "none", 30), ("A", 1)),
    (("B", 40, "hearts", "none", 38), ("A", 3)),
    (("A", 48, "spades", "doubled", 50), ("A", 4)),
    (("B", 56, "clubs", "redoubled", 56), ("B", 6)),
    (("A", 32, "diamonds", "none", 31), ("B", 2)),
    (("B", 29, "no_trump", "none", 29), ("B", 1)),
    (("A", 44, "hearts", "doubled", 43), ("B", 4)),
    (("B", 50, "spades", "none", 55), ("B", 3)),
    (("A", 40, "clubs", "none", 44), ("A", 2)),  # until B catches a kallakali
    (("B", 36, "diamonds", "none", 20), ("A", 2)),
    (("A", 52, "no_trump", "redoubled", 52), ("A", 5)),
    (("B", 28, "hearts", "none", 28), ("B", 1)),
    (("A", 30, "clubs", "none", 35), ("A", 1)),
    (("B", 46, "spades", "doubled", 46), ("B", 3)),
    (("A", 56, "no_trump", "none", 55), ("B", 5)),
    (("B", 40, "diamonds", "none", 39), ("A", 3)),
    (("A", 33, "hearts", "none", 40), ("A", 1)),
    (("B", 28, "clubs", "none", 27), ("A", 2)),
]


def url(match, tail=""):
    return f"/api/v1/matches/{match.pk}/{tail}"


def sheet(api, match):
    response = api.get(url(match))
    assert response.status_code == 200, response.data
    return response.json()


def post_deal(api, match, version, number, *row):
    response = api.post(
        url(match, "deals/"), {**deal_body(number, *row), "version": version}, "json"
    )
    assert response.status_code == 201, response.data
    return response.json()


def fill(api, match, rows=HAND_CHECKED):
    version = sheet(api, match)["version"]
    for number, (row, (side, points)) in enumerate(rows, 1):
        answer = post_deal(api, match, version, number, *row)
        assert (answer["award_to"], answer["award"]) == (side, points), number
        assert answer["version"] == version + 1
        version = answer["version"]
    return version


def test_a_whole_18_deal_match_with_penalties_adds_up_as_by_hand(api, match, scorer):
    as_user(api, scorer)
    version = fill(api, match)
    for body in (
        {"deal": 9, "offender": "A", "kind": "kallakali"},  # 000 §5.5
        {"deal": 2, "offender": "B", "kind": "out_of_turn"},  # B's warning
        {"deal": 14, "offender": "B", "kind": "out_of_turn"},  # A + 1
        {"deal": 18, "offender": "A", "kind": "out_of_turn"},  # last deal: B + 1
    ):
        response = api.post(url(match, "penalties/"), {**body, "version": version})
        assert response.status_code == 201, response.data
        version = response.json()["version"]

    got = sheet(api, match)
    assert got["status"] == "completed"
    assert (got["total_a"], got["total_b"]) == (23, 32)
    assert (got["winner"], got["difference"]) == ("B", 9)
    assert (got["deals_won_a"], got["deals_won_b"]) == (9, 9)
    # Announced after every sixth deal and each of the last six (000 §5.3).
    checkpoints = {c["after_deal"]: c for c in got["checkpoints"]}
    assert list(checkpoints) == [6, 12, 13, 14, 15, 16, 17, 18]
    assert checkpoints[6] == {"after_deal": 6, "total_a": 8, "total_b": 9}
    assert checkpoints[12] == {"after_deal": 12, "total_a": 15, "total_b": 23}
    assert checkpoints[18] == {"after_deal": 18, "total_a": 23, "total_b": 32}
    running = {d["number"]: (d["running_a"], d["running_b"]) for d in got["deals"]}
    assert {n: (c["total_a"], c["total_b"]) for n, c in checkpoints.items()} == {
        n: running[n] for n in checkpoints
    }
    ninth = got["deals"][8]
    assert (ninth["award_to"], ninth["award"], ninth["made"]) == ("B", 3, False)
    assert ninth["awarded_by"] == "kallakali"
    assert [
        (p["deal"], p["award_to"], p["points"], p["warning"]) for p in got["penalties"]
    ] == [
        (2, "A", 0, True),
        (9, "B", 3, False),
        (14, "A", 1, False),
        (18, "B", 1, False),
    ]
    # The running totals are the sums of the rows so far.
    assert [(d["running_a"], d["running_b"]) for d in got["deals"]][-1] == (23, 32)
    assert got["missing"] == []
    stored = Match.objects.get(pk=match.pk)
    assert (stored.total_a, stored.total_b, stored.winner) == (23, 32, "B")


def test_kallakali_example_of_000_5_5(api, match, scorer):
    """40 clubs by A in the 9th deal; B catches the illegal play: B receives 6."""
    as_user(api, scorer)
    answer = post_deal(api, match, 1, 9, "A", 40, "clubs", "none", 40)
    assert (answer["award_to"], answer["award"]) == ("A", 2)
    response = api.post(
        url(match, "penalties/"),
        {"deal": 9, "offender": "A", "kind": "kallakali", "version": 2, "note": "x"},
    )
    assert response.status_code == 201, response.data
    body = response.json()
    assert (body["award_to"], body["points"]) == ("B", 3)
    assert (body["deal_award_to"], body["deal_award"]) == ("B", 3)
    assert (body["match"]["total_a"], body["match"]["total_b"]) == (0, 6)


def test_replace_and_delete_a_deal(api, match, scorer):
    as_user(api, scorer)
    post_deal(api, match, 1, 1, "A", 40, "clubs", "none", 40)
    response = api.put(
        url(match, "deals/1/"),
        {**deal_body(1, "A", 40, taken=39), "version": 2},
        "json",
    )
    assert response.status_code == 200, response.data
    assert (response.json()["award_to"], response.json()["award"]) == ("B", 3)
    response = api.delete(url(match, "deals/1/?version=3"))
    assert response.status_code == 200, response.data
    got = sheet(api, match)
    assert (got["deals"], got["total_a"], got["total_b"], got["version"]) == (
        [],
        0,
        0,
        4,
    )
    assert got["status"] == "scheduled"


def test_a_deal_with_penalties_is_not_deleted(api, match, scorer):
    as_user(api, scorer)
    post_deal(api, match, 1, 3)
    api.post(
        url(match, "penalties/"),
        {"deal": 3, "offender": "B", "kind": "out_of_turn", "version": 2},
    )
    response = api.delete(url(match, "deals/3/"), {"version": 3}, "json")
    assert response.status_code == 409
    assert response.json()["field"] == "number"
    assert "delete them first" in response.json()["detail"]
    assert Deal.objects.filter(match=match).count() == 1


def test_a_warning_moves_when_the_first_offence_is_deleted(api, match, scorer):
    as_user(api, scorer)
    post_deal(api, match, 1, 1)
    post_deal(api, match, 2, 2)
    first = api.post(
        url(match, "penalties/"),
        {"deal": 1, "offender": "A", "kind": "out_of_turn", "version": 3},
    ).json()
    second = api.post(
        url(match, "penalties/"),
        {"deal": 2, "offender": "A", "kind": "out_of_turn", "version": 4},
    ).json()
    assert (first["points"], second["points"]) == (0, 1)
    assert second["match"]["total_b"] == 1
    response = api.delete(url(match, f"penalties/{first['id']}/?version=5"))
    assert response.status_code == 200
    (left,) = sheet(api, match)["penalties"]
    assert (left["id"], left["points"], left["warning"]) == (second["id"], 0, True)
    assert sheet(api, match)["total_b"] == 0


def test_conduct_penalties_are_set_by_an_organizer(api, match, scorer, organizer):
    as_user(api, scorer)
    post_deal(api, match, 1, 1)
    body = {"deal": 1, "offender": "B", "kind": "conduct", "points": 2, "version": 2}
    response = api.post(url(match, "penalties/"), body)
    assert response.status_code == 403
    assert response.json()["field"] == "kind"
    assert "organizer" in response.json()["detail"]
    as_user(api, organizer)
    # 000 sets no limit on conduct: 0 to 5 under international (004's 2 is gcka's).
    response = api.post(url(match, "penalties/"), {**body, "points": 6})
    assert response.status_code == 400
    assert "0 to 5" in response.json()["points"][0]
    response = api.post(url(match, "penalties/"), {**body, "points": 5})
    assert response.status_code == 201
    assert (response.json()["award_to"], response.json()["points"]) == ("A", 5)


def test_two_awarding_offences_in_one_deal_are_each_penalized(api, match, scorer):
    """rules.md §3: both teams revoke in deal 1 (40 clubs by A, made). The deal goes
    to the team that did not offend first; each offence gives the other team 3."""
    as_user(api, scorer)
    post_deal(api, match, 1, 1)
    first = api.post(
        url(match, "penalties/"),
        {"deal": 1, "offender": "B", "kind": "cardinal_rule", "version": 2},
    )
    assert first.status_code == 201
    second = api.post(
        url(match, "penalties/"),
        {"deal": 1, "offender": "A", "kind": "kallakali", "version": 3},
    )
    assert second.status_code == 201, second.json()
    assert (second.json()["award_to"], second.json()["points"]) == ("B", 3)
    now = sheet(api, match)
    (deal,) = now["deals"]
    assert (deal["award_to"], deal["award"], deal["awarded_by"]) == (
        "A",
        2,
        "cardinal_rule",
    )
    assert (now["total_a"], now["total_b"]) == (2 + 3, 3)


def test_every_change_is_in_the_history(api, match, scorer, organizer):
    as_user(api, scorer)
    post_deal(api, match, 1, 1)
    api.put(url(match, "deals/1/"), {**deal_body(1, taken=10), "version": 2}, "json")
    response = api.get(url(match, "history/"))
    assert response.status_code == 200
    changes = response.json()["results"]
    assert [(c["action"], c["version"], c["actor"]) for c in changes] == [
        ("match_create", 1, "org"),
        ("deal_add", 2, "scorer"),
        ("deal_replace", 3, "scorer"),
    ]
    assert changes[2]["before"]["taken"] == 40 and changes[2]["after"]["taken"] == 10
    assert changes[2]["before"]["award_to"] == "A"
    assert changes[2]["after"]["award_to"] == "B"
    assert changes[2]["at"]


def test_matches_are_listed_and_filtered(api, match, tournament, team):
    response = api.get(f"/api/v1/tournaments/{tournament.slug}/matches/?team={team.pk}")
    assert response.status_code == 200
    assert [m["id"] for m in response.json()["results"]] == [match.pk]
    response = api.get(f"/api/v1/tournaments/{tournament.slug}/matches/?round=2")
    assert response.json()["results"] == []
    response = api.get(f"/api/v1/tournaments/{tournament.slug}/matches/?stage=final")
    assert response.status_code == 400 and "stage" in response.json()


def test_history_survives_and_a_scored_match_is_not_deleted(api, match, organizer):
    as_user(api, organizer)
    post_deal(api, match, 1, 1)
    api.delete(url(match, "deals/1/?version=2"))
    response = api.delete(url(match))
    assert response.status_code == 409
    assert SheetChange.objects.filter(match=match).count() == 3
    assert Penalty.objects.count() == 0


def test_the_plain_match_summary_is_the_serializers(api, match, scorer):
    """Sheet writes answer with match_summary_data, built by hand for speed: it is
    MatchSummary's answer, field for field, as the sheet moves from scheduled to
    won."""
    from scoring.sheets.apis import MatchSummary, match_summary_data

    def same() -> None:
        found = Match.objects.select_related("tournament", "team_a", "team_b").get(
            pk=match.pk
        )
        assert match_summary_data(found) == dict(MatchSummary(found).data)

    same()
    as_user(api, scorer)
    answer = api.post(
        f"/api/v1/matches/{match.pk}/deals/", {**deal_body(1), "version": 1}, "json"
    )
    assert answer.status_code == 201
    assert answer.json()["match"] == dict(
        MatchSummary(Match.objects.get(pk=match.pk)).data
    )
    same()


MALAYALAM = re.compile("[\u0d00-\u0d7f]")


@pytest.mark.parametrize(
    ("accept", "malayalam"),
    [("ml", True), ("ml-IN,en;q=0.8", True), ("en,ml;q=0.5", False), ("", False)],
)
def test_a_refusal_is_said_in_the_language_the_request_asks(
    api, match, scorer, accept, malayalam
):
    """The score page's queue sends in its page's language: a refusal of the rules
    comes back in Malayalam when Accept-Language puts it first; its code, field and
    parameters are the same in both languages, and the rest of the API is English."""
    as_user(api, scorer)
    post_deal(api, match, 1, 1)
    headers = {"HTTP_ACCEPT_LANGUAGE": accept} if accept else {}
    stale = api.post(
        url(match, "deals/"), {**deal_body(2), "version": 1}, "json", **headers
    )
    assert stale.status_code == 409
    body = stale.json()
    assert (body["code"], body["version"], body["current_version"]) == (
        "stale_version",
        1,
        2,
    )
    assert bool(MALAYALAM.search(body["detail"])) is malayalam, body["detail"]
    assert stale["Content-Language"] == ("ml" if malayalam else "en")
    assert "Accept-Language" in stale["Vary"]
    wrong = api.post(
        url(match, "deals/"),
        {**deal_body(2), "bidder": "Nobody Here", "version": 2},
        "json",
        **headers,
    )
    assert wrong.status_code == 400
    (said,) = wrong.json()["bidder"]
    assert "Nobody Here" in said
    assert bool(MALAYALAM.search(said)) is malayalam, said
    # What the API reads back is English whatever the request asks.
    read = api.get(url(match, ""), **headers).json()
    assert read["status"] == "in_progress"
