"""Random score sheets through the API, held against the rules engine.

Hypothesis draws deals (some of them breaking a rule: a contract of 27, 57 points
taken), sends them in any order, replaces some, and adds penalties of every kind
(some of them not allowed: a deal given away twice, a conduct penalty by a scorer).
The API must accept exactly what scoring.domain.rules accepts, and the sheet it then
shows (every award, running total, penalty, total, winner and status) must be what
rules.score_sheet computes from what was accepted. Each example runs in a savepoint
that is rolled back, on the same match.
"""

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.domain import rules
from tests.conftest import as_user
from tests.scoring.apis.test_sheet import sheet, url
from tournament.domain.errors import RuleError
from tournament.domain.rulesets import ruleset_get

pytestmark = pytest.mark.django_db

DEAL = st.fixed_dictionaries(
    {
        "declarer": st.sampled_from("AB"),
        "value": st.integers(26, 58),
        "trump": st.sampled_from(["clubs", "diamonds", "hearts", "spades", "no_trump"]),
        "level": st.sampled_from(["none", "doubled", "redoubled"]),
        "taken": st.integers(-1, 57),
    }
)
PENALTY = st.fixed_dictionaries(
    {
        "deal": st.integers(1, 18),
        "offender": st.sampled_from("AB"),
        "kind": st.sampled_from([k.value for k in rules.PenaltyKind]),
        "points": st.integers(0, 6),
        "by": st.sampled_from(["scorer", "organizer"]),
    }
)
SHEETS = st.tuples(
    st.permutations(range(1, 19)).flatmap(
        lambda order: st.integers(0, 18).map(lambda n: order[:n])
    ),
    st.lists(DEAL, min_size=18, max_size=18),
    st.lists(st.tuples(st.integers(1, 18), DEAL), max_size=3),
    st.lists(PENALTY, max_size=6),
)


def _accepted(values: dict) -> rules.Deal | None:
    try:
        return rules.deal_from_values(**values, deals_allowed=18)
    except RuleError:
        return None


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(drawn=SHEETS)
def test_a_random_sheet_is_what_the_rules_engine_says(
    api, match, scorer, organizer, drawn
):
    order, bodies, replacements, penalties = drawn
    with transaction.atomic():
        _play(api, match, scorer, organizer, order, bodies, replacements, penalties)
        transaction.set_rollback(True)


def _play(api, match, scorer, organizer, order, bodies, replacements, penalties):
    ruleset = ruleset_get(match.tournament.ruleset)
    as_user(api, scorer)
    version = sheet(api, match)["version"]
    kept: dict[int, rules.Deal] = {}
    for number in order:
        body = {"number": number, **bodies[number - 1]}
        answer = api.post(url(match, "deals/"), {**body, "version": version}, "json")
        checked = _accepted(body)
        assert (answer.status_code == 201) == (checked is not None), answer.json()
        if checked is not None:
            kept[number] = checked
            version = answer.json()["version"]
    for number, values in replacements:
        body = {"number": number, **values}
        answer = api.put(
            url(match, f"deals/{number}/"), {**body, "version": version}, "json"
        )
        checked = _accepted(body)
        if number not in kept:
            assert answer.status_code in (400, 409)
            continue
        assert (answer.status_code == 200) == (checked is not None), answer.json()
        if checked is not None:
            kept[number] = checked
            version = answer.json()["version"]

    given: list[rules.Penalty] = []
    for p in penalties:
        kind = rules.PenaltyKind(p["kind"])
        conduct = kind is rules.PenaltyKind.CONDUCT
        body = {
            "deal": p["deal"],
            "offender": p["offender"],
            "kind": p["kind"],
            "version": version,
        }
        if conduct:
            body["points"] = p["points"]
        as_user(api, organizer if p["by"] == "organizer" else scorer)
        answer = api.post(url(match, "penalties/"), body, "json")
        allowed = (
            p["deal"] in kept
            and not (conduct and p["by"] == "scorer")
            and not (conduct and p["points"] > ruleset.conduct_max)
        )
        assert (answer.status_code == 201) == allowed, (p, answer.json())
        if allowed:
            made = answer.json()
            version = made["version"]
            given.append(
                rules.Penalty(
                    key=made["id"],
                    deal=p["deal"],
                    offender=rules.Side(p["offender"]),
                    kind=kind,
                    points=p["points"] if conduct else None,
                )
            )

    expected = rules.score_sheet(
        ruleset, list(kept.values()), given, deals_scheduled=match.deals_scheduled
    )
    shown = sheet(api, match)
    assert shown["version"] == version
    assert [d["number"] for d in shown["deals"]] == sorted(kept)
    for row, deal in zip(expected.rows, shown["deals"], strict=True):
        assert (deal["award_to"], deal["award"], deal["made"]) == (
            row.result.award_to.value,
            row.result.award,
            row.result.made,
        ), deal["number"]
        assert (deal["running_a"], deal["running_b"]) == (row.total_a, row.total_b)
    results = {r.key: r for r in expected.penalties}
    assert len(shown["penalties"]) == len(given)
    for shown_penalty in shown["penalties"]:
        result = results[shown_penalty["id"]]
        assert (shown_penalty["award_to"], shown_penalty["points"]) == (
            result.award_to.value,
            result.points,
        )
        assert shown_penalty["warning"] == result.warning
    assert (shown["total_a"], shown["total_b"]) == (expected.total_a, expected.total_b)
    winner = expected.winner.value if expected.winner else None
    assert shown["winner"] == winner
    status = rules.sheet_status(expected)
    assert shown["status"] == status.value
